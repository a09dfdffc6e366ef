#include "rocekit/parse/rdma_link.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

// `mlx5_0/1` -> ("mlx5_0", 1).
bool split_dev_port(std::string_view s, std::string& dev, std::uint32_t& port) {
  std::size_t slash = s.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  std::optional<std::uint64_t> p = text::parse_uint(s.substr(slash + 1));
  if (!p || *p > 0xffffffffULL) return false;
  dev = std::string(s.substr(0, slash));
  port = static_cast<std::uint32_t>(*p);
  return true;
}

std::optional<std::uint32_t> u32(std::string_view s) {
  std::optional<std::uint64_t> v = text::parse_uint(s);
  if (!v || *v > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

}  // namespace

Result<Parsed<RdmaLink>> parse_rdma_link(std::string_view text) {
  if (text::looks_binary(text)) return unexpected(ErrorKind::malformed_input, "binary input");
  Parsed<RdmaLink> out;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t li = 0; li < ls.size(); ++li) {
    std::size_t line = li + 1;
    std::vector<std::string_view> w = text::words(ls[li]);
    if (w.empty()) continue;
    RdmaLinkPort p;
    // The first iproute2 releases (rdma/link.c link_parse_cb, 4.14-4.16) printed
    // "%u/%u: %s/%u: " (device index/port: name/port:) instead of "link %s/%u ".
    if (w.size() >= 2 && w[0].ends_with(':') && w[1].ends_with(':')) {
      std::string idx_dev;
      std::uint32_t idx_port = 0;
      std::string_view dp = w[1].substr(0, w[1].size() - 1);
      if (split_dev_port(w[0].substr(0, w[0].size() - 1), idx_dev, idx_port) &&
          idx_dev.find_first_not_of("0123456789") == std::string::npos && split_dev_port(dp, p.rdma_device, p.port)) {
        static constexpr std::string_view k_link = "link";
        w[0] = k_link;
        w[1] = dp;
      }
    }
    if (w.size() < 2 || w[0] != "link" || !split_dev_port(w[1], p.rdma_device, p.port)) {
      out.warnings.push_back({line, "unrecognised_line", "not a 'link <dev>/<port>' line"});
      continue;
    }
    std::size_t i = 2;
    while (i < w.size()) {
      std::string key(w[i]);
      if (i + 1 >= w.size()) {
        out.warnings.push_back({line, "truncated", "key '" + key + "' without a value"});
        break;
      }
      std::string value(w[i + 1]);
      i += 2;
      if (value.starts_with("<") && !value.ends_with(">")) {  // `caps <CM, IP_BASED_GIDS>`
        while (i < w.size() && !value.ends_with(">")) value += " " + std::string(w[i++]);
      }
      bool ok = true;
      if (key == "state") {
        p.state = port_state_from_text(value);
        ok = p.state.has_value();
      } else if (key == "physical_state") {
        p.physical_state = phys_state_from_text(value);
        ok = p.physical_state.has_value();
      } else if (key == "netdev") {
        p.netdev = value;
      } else if (key == "netdev_index") {
        p.netdev_index = u32(value);
        ok = p.netdev_index.has_value();
      } else if (key == "lid") {
        p.lid = u32(value);
        ok = p.lid.has_value();
      } else if (key == "sm_lid") {
        p.sm_lid = u32(value);
        ok = p.sm_lid.has_value();
      } else if (key == "lmc") {
        p.lmc = u32(value);
        ok = p.lmc.has_value();
      } else if (key == "subnet_prefix") {
        p.subnet_prefix = value;
      } else {
        p.attributes[key] = value;
      }
      if (!ok) {
        out.warnings.push_back({line, "bad_value", "bad value '" + value + "' for " + key});
      }
    }
    out.value.ports.push_back(std::move(p));
  }
  if (out.value.ports.empty()) {
    return unexpected(ErrorKind::malformed_input, "no 'link <dev>/<port>' line found");
  }
  return out;
}

nlohmann::json to_json(const RdmaLink& v) {
  nlohmann::json ports = nlohmann::json::array();
  for (const RdmaLinkPort& p : v.ports) {
    nlohmann::json st = nullptr;
    nlohmann::json ph = nullptr;
    if (p.state) st = std::string(to_string(*p.state));
    if (p.physical_state) ph = std::string(to_string(*p.physical_state));
    ports.push_back({{"rdma_device", p.rdma_device},
                     {"port", p.port},
                     {"state", st},
                     {"physical_state", ph},
                     {"netdev", p.netdev},
                     {"netdev_index", p.netdev_index},
                     {"lid", p.lid},
                     {"sm_lid", p.sm_lid},
                     {"lmc", p.lmc},
                     {"subnet_prefix", p.subnet_prefix},
                     {"attributes", p.attributes}});
  }
  return {{"ports", ports}};
}

bool looks_like_rdma_link(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::vector<std::string_view> w = text::words(l);
    bool old_form = w.size() >= 4 && w[0].ends_with(':') && w[1].ends_with(':') && text::contains(w[0], "/");
    if (w.size() >= 4 && (w[0] == "link" || old_form) && text::contains(w[1], "/") &&
        (w[2] == "state" || w[2] == "subnet_prefix")) {
      return true;
    }
  }
  return false;
}

Result<Parsed<RdmaRes>> parse_rdma_res(std::string_view text) {
  if (text::looks_binary(text)) return unexpected(ErrorKind::malformed_input, "binary input");
  Parsed<RdmaRes> out;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t li = 0; li < ls.size(); ++li) {
    std::size_t line = li + 1;
    std::vector<std::string_view> w = text::words(ls[li]);
    if (w.empty()) continue;
    RdmaResDevice d;
    std::size_t i = 0;
    if (w[0].ends_with(':') && w.size() >= 2 && w[1].ends_with(':')) {
      d.index = u32(w[0].substr(0, w[0].size() - 1));
      i = 1;
    }
    if (!w[i].ends_with(':') || w[i].size() < 2 || (i == 1 && !d.index)) {
      out.warnings.push_back({line, "unrecognised_line", "not a '<idx>: <dev>: ...' line"});
      continue;
    }
    d.rdma_device = std::string(w[i].substr(0, w[i].size() - 1));
    bool good = true;
    for (i = i + 1; i < w.size(); i += 2) {
      if (i + 1 >= w.size()) {
        out.warnings.push_back({line, "truncated", "'" + std::string(w[i]) + "' without a count"});
        break;
      }
      std::optional<std::uint64_t> n = text::parse_uint(w[i + 1]);
      if (!n) {
        out.warnings.push_back({line, "bad_number", "bad count for " + std::string(w[i])});
        good = false;
        continue;
      }
      d.counts[std::string(w[i])] = *n;
    }
    if (d.counts.empty() && !good) continue;
    out.value.devices.push_back(std::move(d));
  }
  if (out.value.devices.empty()) {
    return unexpected(ErrorKind::malformed_input, "no 'rdma res' device line found");
  }
  return out;
}

nlohmann::json to_json(const RdmaRes& v) {
  nlohmann::json devices = nlohmann::json::array();
  for (const RdmaResDevice& d : v.devices) {
    devices.push_back({{"index", d.index}, {"rdma_device", d.rdma_device}, {"counts", d.counts}});
  }
  return {{"devices", devices}};
}

bool looks_like_rdma_res(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::vector<std::string_view> w = text::words(l);
    if (w.size() >= 4 && w[0].ends_with(':') && w[1].ends_with(':') &&
        (w[2] == "pd" || w[2] == "cq" || w[2] == "qp")) {
      return true;
    }
  }
  return false;
}

}  // namespace rk::parse

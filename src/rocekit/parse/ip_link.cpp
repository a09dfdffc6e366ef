#include "rocekit/parse/ip_link.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

bool is_state(std::string_view w) {
  return w == "UP" || w == "DOWN" || w == "UNKNOWN" || w == "LOWERLAYERDOWN" || w == "DORMANT" ||
         w == "NOTPRESENT" || w == "TESTING";
}

/// "3: ens6@eth0: <FLAGS> mtu 9000 ..." -> interface header, or nullopt.
std::optional<IpLinkInterface> header_line(std::string_view line) {
  if (line.empty() || line.front() < '0' || line.front() > '9') return std::nullopt;
  std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos) return std::nullopt;
  auto idx = text::parse_uint(line.substr(0, colon));
  if (!idx || *idx > 0xffffffffu) return std::nullopt;
  std::string_view rest = line.substr(colon + 2);
  std::size_t colon2 = rest.find(": ");
  if (colon2 == std::string_view::npos) colon2 = rest.find(':');
  if (colon2 == std::string_view::npos || colon2 == 0) return std::nullopt;
  IpLinkInterface i;
  i.index = static_cast<std::uint32_t>(*idx);
  std::string_view name = rest.substr(0, colon2);
  if (std::size_t at = name.find('@'); at != std::string_view::npos) {
    i.peer = std::string(name.substr(at + 1));
    name = name.substr(0, at);
  }
  i.name = std::string(name);
  std::string_view tail = rest.substr(colon2 + 1);
  if (std::size_t lt = tail.find('<'), gt = tail.find('>'); lt != std::string_view::npos &&
                                                              gt != std::string_view::npos && gt > lt) {
    for (std::string_view f : text::split(tail.substr(lt + 1, gt - lt - 1), ','))
      if (!f.empty()) i.flags.emplace_back(f);
  }
  std::vector<std::string_view> w = text::words(tail);
  for (std::size_t k = 0; k + 1 < w.size(); ++k) {
    if (w[k] == "mtu") {
      if (auto m = text::parse_uint(w[k + 1]); m && *m <= 0xffffffffu)
        i.mtu_bytes = static_cast<std::uint32_t>(*m);
    } else if (w[k] == "state") {
      i.state = std::string(w[k + 1]);
    }
  }
  return i;
}

std::string stat_name(std::string_view prefix, std::string_view column) {
  return std::string(prefix) + text::to_lower(column);
}

}  // namespace

bool looks_like_ip_link(std::string_view text) {
  for (std::string_view line : text::lines(text.substr(0, 4096))) {
    if (line.empty()) continue;
    if (auto h = header_line(line); h && (h->mtu_bytes || !h->flags.empty())) return true;
    std::vector<std::string_view> w = text::words(line);
    return w.size() >= 2 && is_state(w[1]) && line.front() != ' ' && line.front() != '\t';
  }
  return false;
}

Result<Parsed<IpLink>> parse_ip_link(std::string_view text) {
  Parsed<IpLink> out;
  std::vector<std::string_view> ls = text::lines(text);
  IpLinkInterface* cur = nullptr;
  std::string pending_prefix;            // "rx_" / "tx_" / "rx_errors_" after a header line
  std::vector<std::string_view> pending_cols;
  for (std::size_t n = 0; n < ls.size(); ++n) {
    std::string_view raw = ls[n];
    std::string_view line = text::trim(raw);
    if (line.empty()) continue;
    if (auto h = header_line(raw)) {
      h->line = n + 1;
      out.value.interfaces.push_back(std::move(*h));
      cur = &out.value.interfaces.back();
      pending_cols.clear();
      continue;
    }
    bool indented = raw.front() == ' ' || raw.front() == '\t';
    if (!indented) {
      // Brief form: "name STATE [addresses...]" or "name STATE mac <flags>".
      std::vector<std::string_view> w = text::words(line);
      if (w.size() >= 2 && is_state(w[1])) {
        out.value.brief = true;
        IpLinkInterface i;
        std::string_view name = w[0];
        if (std::size_t at = name.find('@'); at != std::string_view::npos) {
          i.peer = std::string(name.substr(at + 1));
          name = name.substr(0, at);
        }
        i.name = std::string(name);
        i.state = std::string(w[1]);
        i.line = n + 1;
        for (std::size_t k = 2; k < w.size(); ++k) {
          if (w[k].find('/') != std::string_view::npos)
            i.addresses.emplace_back(w[k]);
          else if (w[k].size() == 17 && w[k][2] == ':')
            i.mac = std::string(w[k]);
        }
        out.value.interfaces.push_back(std::move(i));
        cur = nullptr;
        continue;
      }
      out.warnings.push_back({n + 1, "unrecognised_line", "not an ip link line"});
      continue;
    }
    if (!cur) {
      out.warnings.push_back({n + 1, "unrecognised_line", "detail line before any interface"});
      continue;
    }
    std::vector<std::string_view> w = text::words(line);
    if (w.empty()) continue;
    if (w[0].starts_with("link/") && w.size() >= 2) {
      if (w[1].size() == 17 && w[1][2] == ':') cur->mac = std::string(w[1]);
      continue;
    }
    if ((w[0] == "inet" || w[0] == "inet6") && w.size() >= 2) {
      cur->addresses.emplace_back(w[1]);
      continue;
    }
    if (w[0] == "RX:" || w[0] == "TX:" || (w.size() >= 2 && (w[0] == "RX" || w[0] == "TX") &&
                                           w[1] == "errors:")) {
      std::string dir = w[0].starts_with("RX") ? "rx_" : "tx_";
      std::size_t first = w[0].ends_with(":") ? 1 : 2;
      pending_prefix = dir;
      pending_cols.assign(w.begin() + static_cast<std::ptrdiff_t>(first), w.end());
      // `-s -s` error breakdown: "RX errors: length crc ..." -> rx_length, rx_crc, ...
      continue;
    }
    if (!pending_cols.empty()) {
      bool numeric = true;
      for (std::string_view x : w) numeric = numeric && text::parse_uint(x).has_value();
      if (numeric) {
        for (std::size_t k = 0; k < w.size() && k < pending_cols.size(); ++k)
          cur->stats[stat_name(pending_prefix, pending_cols[k])] = *text::parse_uint(w[k]);
        if (w.size() != pending_cols.size())
          out.warnings.push_back({n + 1, "bad_value", "statistics row and header differ in length"});
        pending_cols.clear();
        continue;
      }
      pending_cols.clear();
    }
    // Other detail lines (altname, vf, bond/vlan details, valid_lft, prog/xdp): not used.
  }
  if (out.value.interfaces.empty())
    return unexpected(ErrorKind::malformed_input, "no ip link / ip -br output recognised");
  return out;
}

nlohmann::json to_json(const IpLink& v) {
  nlohmann::json ifs = nlohmann::json::array();
  for (const IpLinkInterface& i : v.interfaces) {
    ifs.push_back({{"name", i.name},
                   {"peer", i.peer},
                   {"index", i.index},
                   {"flags", i.flags},
                   {"mtu_bytes", i.mtu_bytes},
                   {"state", i.state},
                   {"mac", i.mac},
                   {"addresses", i.addresses},
                   {"stats", i.stats},
                   {"line", i.line}});
  }
  return {{"brief", v.brief}, {"interfaces", ifs}};
}

}  // namespace rk::parse

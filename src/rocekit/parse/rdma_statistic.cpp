#include "rocekit/parse/rdma_statistic.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

bool split_dev_port(std::string_view s, std::string& dev, std::uint32_t& port) {
  std::size_t slash = s.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  std::optional<std::uint64_t> p = text::parse_uint(s.substr(slash + 1));
  if (!p || *p > 0xffffffffULL) return false;
  dev = std::string(s.substr(0, slash));
  port = static_cast<std::uint32_t>(*p);
  return true;
}

}  // namespace

Result<Parsed<RdmaStatistic>> parse_rdma_statistic(std::string_view text) {
  if (text::looks_binary(text)) return unexpected(ErrorKind::malformed_input, "binary input");
  Parsed<RdmaStatistic> out;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t li = 0; li < ls.size(); ++li) {
    std::size_t line = li + 1;
    std::vector<std::string_view> w = text::words(ls[li]);
    if (w.empty()) continue;
    RdmaStatisticPort p;
    if (w.size() < 2 || w[0] != "link" || !split_dev_port(w[1], p.rdma_device, p.port)) {
      out.warnings.push_back({line, "unrecognised_line", "not a 'link <dev>/<port>' line"});
      continue;
    }
    for (std::size_t i = 2; i < w.size(); i += 2) {
      if (i + 1 >= w.size()) {
        out.warnings.push_back(
            {line, "truncated", "counter '" + std::string(w[i]) + "' without a value"});
        break;
      }
      std::optional<std::uint64_t> n = text::parse_uint(w[i + 1]);
      if (n) {
        p.counters[std::string(w[i])] = *n;
      } else {
        p.attributes[std::string(w[i])] = std::string(w[i + 1]);
      }
    }
    out.value.ports.push_back(std::move(p));
  }
  if (out.value.ports.empty()) {
    return unexpected(ErrorKind::malformed_input, "no 'link <dev>/<port>' statistic line found");
  }
  return out;
}

nlohmann::json to_json(const RdmaStatistic& v) {
  nlohmann::json ports = nlohmann::json::array();
  for (const RdmaStatisticPort& p : v.ports) {
    ports.push_back({{"rdma_device", p.rdma_device},
                     {"port", p.port},
                     {"counters", p.counters},
                     {"attributes", p.attributes}});
  }
  return {{"ports", ports}};
}

bool looks_like_rdma_statistic(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::vector<std::string_view> w = text::words(l);
    if (w.size() >= 4 && w[0] == "link" && text::contains(w[1], "/") && w[2] != "state" &&
        w[2] != "subnet_prefix" && text::parse_uint(w[3])) {
      return true;
    }
  }
  return false;
}

}  // namespace rk::parse

// Parser for mlnx-tools `show_counters <dev>`: a dump of
// /sys/class/infiniband/<dev>/ports/<p>/{hw_counters,counters}/ as
//   `Port 1 hw counters:` then `name: value` lines. The device name is not printed (it is the
//   command argument: take it from the capture's `@target`).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct ShowCountersPort {
  std::uint32_t port = 0;
  std::map<std::string, std::uint64_t> hw_counters;  ///< `Port N hw counters:` section
  std::map<std::string, std::uint64_t> counters;     ///< `Port N counters:` section (IB PMA)
};

struct ShowCounters {
  std::vector<ShowCountersPort> ports;
};

Result<Parsed<ShowCounters>> parse_show_counters(std::string_view text);
nlohmann::json to_json(const ShowCounters& v);
/// True when a `Port N hw counters:` / `Port N counters:` header is present.
bool looks_like_show_counters(std::string_view text);

}  // namespace rk::parse

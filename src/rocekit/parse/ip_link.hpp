// Parser for iproute2 link listings (tool id `ip_link`): `ip link`, `ip -d link`,
// `ip -s [-s] link [show dev IF]`, `ip addr`, and the brief forms `ip -br link` / `ip -br a`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct IpLinkInterface {
  std::string name;                     ///< netdev name (the part before '@')
  std::optional<std::string> peer;      ///< `name@peer` (VLAN parent, veth peer)
  std::optional<std::uint32_t> index;   ///< ifindex, `3:` (full form only)
  std::vector<std::string> flags;       ///< `<BROADCAST,MULTICAST,UP,LOWER_UP>`
  std::optional<std::uint32_t> mtu_bytes;  ///< `mtu 9000` (full form only)
  std::optional<std::string> state;     ///< operstate: `UP`, `DOWN`, `UNKNOWN`, ...
  std::optional<std::string> mac;       ///< `link/ether aa:bb:..`
  std::vector<std::string> addresses;   ///< `inet`/`inet6` addresses with prefix, as printed
  /// `-s` statistics: "rx_bytes", "rx_packets", "rx_errors", "rx_dropped", ..., and with
  /// `-s -s` the error breakdown ("rx_crc", "tx_carrier", ...). Names are iproute2's column
  /// headers, lower-cased and prefixed with rx_/tx_.
  std::map<std::string, std::uint64_t> stats;
  std::size_t line = 0;                 ///< 1-based line of the interface's first line
};

struct IpLink {
  bool brief = false;                   ///< `ip -br` columns
  std::vector<IpLinkInterface> interfaces;
};

Result<Parsed<IpLink>> parse_ip_link(std::string_view text);
nlohmann::json to_json(const IpLink& v);
bool looks_like_ip_link(std::string_view text);

}  // namespace rk::parse

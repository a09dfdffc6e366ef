// Semantic checks of a snapshot read back from JSON (docs/snapshot-schema.md, "Values"): the
// typed parse (model/json.hpp) accepts any integer where an integer goes; these refuse what no
// host can have (an MTU of -1, priority 9, a PFC vector of 5 entries) and a name that must be
// unique appearing twice.
#pragma once

#include <optional>
#include <string>

#include "rocekit/model/snapshot.hpp"

namespace rk {

/// The values a snapshot may hold: validate_snapshot refuses others, and the builders leave a
/// section absent, with the reason, rather than write one.
inline constexpr int k_min_mtu_bytes = 68;     ///< ETH_MIN_MTU
inline constexpr int k_max_mtu_bytes = 65535;  ///< ETH_MAX_MTU
inline constexpr bool is_netdev_mtu(long long v) {
  return v >= k_min_mtu_bytes && v <= k_max_mtu_bytes;
}
/// PCIe MaxReadReq: a power of two, 128..4096 (DevCtl encodings 6 and 7 are reserved).
inline constexpr bool is_max_read_request(long long v) {
  return v >= 128 && v <= 4096 && (v & (v - 1)) == 0;
}

/// The first problem of `s` as "<JSON pointer>: <what is wrong>", e.g.
/// `/netdevs/0/mtu_bytes/value: -1 is not an MTU (68..65535)`; nullopt when there is none.
/// The pointers are those of snapshot_to_json(s).
std::optional<std::string> validate_snapshot(const Snapshot& s);

}  // namespace rk

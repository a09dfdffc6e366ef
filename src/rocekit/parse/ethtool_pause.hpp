// Parser for `ethtool -a <netdev>` (tool id `ethtool_a`): IEEE 802.3x global pause settings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// `ethtool -a` output (ioctl and netlink dialects). Global (link-level) pause, not PFC: for a
/// RoCE port with PFC, RX and TX should be off. nullopt when the line is absent or `n/a`.
struct EthtoolPause {
  std::optional<std::string> netdev;  ///< from `Pause parameters for <netdev>:`
  std::optional<bool> autonegotiate;  ///< `Autonegotiate: on|off`
  std::optional<bool> rx;             ///< `RX: on|off` (honour received pause frames)
  std::optional<bool> tx;             ///< `TX: on|off` (send pause frames)
  std::optional<bool> rx_negotiated;  ///< `RX negotiated:` (printed when autoneg resolved it)
  std::optional<bool> tx_negotiated;  ///< `TX negotiated:`
  /// `ethtool -I -a` statistics block (netlink): `tx_pause_frames:` / `rx_pause_frames:`.
  std::optional<std::uint64_t> tx_pause_frames;
  std::optional<std::uint64_t> rx_pause_frames;
};

/// Parses `ethtool -a` text; warns `truncated` when RX or TX is missing.
Result<Parsed<EthtoolPause>> parse_ethtool_pause(std::string_view text);

/// Every field under the names above; nullopt as null.
nlohmann::json to_json(const EthtoolPause& v);

/// True when the text has a `Pause parameters for` line near the top.
bool looks_like_ethtool_pause(std::string_view text);

}  // namespace rk::parse

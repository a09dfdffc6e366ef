// Parser for `ethtool -l <netdev>` (tool id `ethtool_l`): channel (queue) counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// One block of `ethtool -l` (`Pre-set maximums:` or `Current hardware settings:`). Each count
/// is nullopt when its line is absent or reads `n/a` (netlink ethtool for a count the driver does
/// not support; the old ioctl dialect prints 0 instead).
struct ChannelCounts {
  std::optional<std::uint32_t> rx;        ///< `RX:` rx-only channels
  std::optional<std::uint32_t> tx;        ///< `TX:` tx-only channels
  std::optional<std::uint32_t> other;     ///< `Other:` link/misc interrupt channels
  std::optional<std::uint32_t> combined;  ///< `Combined:` rx+tx channels (mlx5 uses only these)
};

/// `ethtool -l` output.
struct EthtoolChannels {
  std::optional<std::string> netdev;  ///< from `Channel parameters for <netdev>:`
  ChannelCounts max;                  ///< `Pre-set maximums:`
  ChannelCounts current;              ///< `Current hardware settings:`
};

/// Parses `ethtool -l` text; warns `truncated` when the current-settings block is missing or
/// ends before its `Combined:` line.
Result<Parsed<EthtoolChannels>> parse_ethtool_channels(std::string_view text);

/// `{"netdev", "max": {"rx","tx","other","combined"}, "current": {...}}`, nullopt as null.
nlohmann::json to_json(const EthtoolChannels& v);

/// True when the text has a `Channel parameters for` line near the top.
bool looks_like_ethtool_channels(std::string_view text);

}  // namespace rk::parse

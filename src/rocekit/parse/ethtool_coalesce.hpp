// Parser for `ethtool -c <netdev>` (tool id `ethtool_c`): interrupt coalescing parameters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// `ethtool -c` output, both dialects: the old ioctl one (every value a number, `0` also for
/// "unsupported") and the netlink one (ethtool >= 5.7; `n/a` for parameters the driver does not
/// support, plus `CQE mode RX/TX` and, in newer versions, `tx-aggr-*`). Every field is nullopt
/// when the line is absent or reads `n/a`. Times are microseconds, counts are frames (packets).
struct EthtoolCoalesce {
  std::optional<std::string> netdev;  ///< from `Coalesce parameters for <netdev>:`
  std::optional<bool> adaptive_rx;    ///< `Adaptive RX: on|off` (adaptive-rx, DIM)
  std::optional<bool> adaptive_tx;    ///< `TX: on|off` on the same line (adaptive-tx)
  std::optional<std::uint32_t> stats_block_usecs;
  std::optional<std::uint32_t> sample_interval_s;  ///< `sample-interval:` (seconds)
  std::optional<std::uint32_t> pkt_rate_low_pps;   ///< `pkt-rate-low:` (packets per second)
  std::optional<std::uint32_t> pkt_rate_high_pps;  ///< `pkt-rate-high:` (packets per second)
  std::optional<std::uint32_t> rx_usecs;
  std::optional<std::uint32_t> rx_frames;
  std::optional<std::uint32_t> rx_usecs_irq;
  std::optional<std::uint32_t> rx_frames_irq;
  std::optional<std::uint32_t> tx_usecs;
  std::optional<std::uint32_t> tx_frames;
  std::optional<std::uint32_t> tx_usecs_irq;
  std::optional<std::uint32_t> tx_frames_irq;
  std::optional<std::uint32_t> rx_usecs_low;
  std::optional<std::uint32_t> rx_frames_low;   ///< printed `rx-frame-low:`
  std::optional<std::uint32_t> tx_usecs_low;
  std::optional<std::uint32_t> tx_frames_low;   ///< printed `tx-frame-low:`
  std::optional<std::uint32_t> rx_usecs_high;
  std::optional<std::uint32_t> rx_frames_high;  ///< printed `rx-frame-high:`
  std::optional<std::uint32_t> tx_usecs_high;
  std::optional<std::uint32_t> tx_frames_high;  ///< printed `tx-frame-high:`
  std::optional<bool> cqe_mode_rx;  ///< netlink only: `CQE mode RX: on|off`
  std::optional<bool> cqe_mode_tx;  ///< netlink only: `TX: on|off` on the CQE mode line
  std::optional<std::uint32_t> tx_aggr_max_bytes;   ///< newer netlink only
  std::optional<std::uint32_t> tx_aggr_max_frames;  ///< newer netlink only
  std::optional<std::uint32_t> tx_aggr_time_usecs;  ///< newer netlink only (printed without ':')
};

/// Parses `ethtool -c` text. Warns `truncated` when the block ends before `tx-frame-high`.
Result<Parsed<EthtoolCoalesce>> parse_ethtool_coalesce(std::string_view text);

/// Every field under the names above; nullopt is JSON null.
nlohmann::json to_json(const EthtoolCoalesce& v);

/// True when the text has a `Coalesce parameters for` line or an `Adaptive RX:` line near the top.
bool looks_like_ethtool_coalesce(std::string_view text);

}  // namespace rk::parse

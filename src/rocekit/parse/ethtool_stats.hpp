// Parser for `ethtool -S <netdev>` (tool id `ethtool_S`): NIC statistics counters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// One counter line of `ethtool -S`, in output order.
struct EthtoolStat {
  /// Counter name exactly as printed by the driver (`rx_prio3_pause`, `tx_pause_ctrl_phy`,
  /// `rx_discards_phy`, ice `rx_priority_3_xon.nic`, bnxt `rx_discards`).
  std::string name;
  /// Ring (queue) index for drivers that print per-ring counters as `[N]: name: value` (bnxt_en);
  /// nullopt for ordinary `name: value` lines. Other drivers encode the queue in the name
  /// (mlx5 `rx3_packets`, ice `tx_queue_3_packets`) and keep nullopt here.
  std::optional<std::uint32_t> ring;
  /// Counter value (cumulative since driver load / boot; one snapshot cannot show a rate).
  std::uint64_t value = 0;
};

/// The whole `ethtool -S` output. The output does not name its netdev; the caller attributes it
/// (capture file `ethtool_S@<netdev>.txt`).
struct EthtoolStats {
  /// True when the `NIC statistics:` header line was present (absent in `| grep` captures and in
  /// some stored fixtures).
  bool has_header = false;
  /// Every counter, in output order; duplicates are kept.
  std::vector<EthtoolStat> counters;
};

/// Parses `ethtool -S` text. Lines are `NIC statistics:`, `     name: value` or (bnxt_en)
/// `     [N]: name: value`. Errors when no counter and no header is found.
Result<Parsed<EthtoolStats>> parse_ethtool_stats(std::string_view text);

/// The first counter named `name` that has no ring index, or nullopt when the output lacks it.
std::optional<std::uint64_t> find_stat(const EthtoolStats& stats, std::string_view name);

/// `{"has_header": bool, "counters": [{"name": s, "value": n} | {"name", "ring", "value"}]}`.
nlohmann::json to_json(const EthtoolStats& v);

/// True when the text starts with `NIC statistics:`, or its first lines are all
/// `lower_case_name: <unsigned>` counter lines (a grep'd capture).
bool looks_like_ethtool_stats(std::string_view text);

}  // namespace rk::parse

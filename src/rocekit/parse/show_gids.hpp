// Parser for the GID table listings: mlnx-tools `show_gids [dev]` (columns DEV PORT INDEX GID
// IPv4 VER DEV, closed by `n_gids_found=N`) and Huawei `hiroce3 gids` (columns ib_dev net_dev
// port idx gid type ip link), which carries the same facts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/parse/ibv_devinfo.hpp"

namespace rk::parse {

enum class GidTableFormat { mlnx_show_gids, hiroce3_gids };
std::string_view to_string(GidTableFormat f);

/// One GID table row. show_gids lists only non-empty GIDs (it skips all-zero and bare fe80::).
struct GidEntry {
  std::string rdma_device;            ///< DEV / ib_dev (`mlx5_0`, `mlx5_bond_0`, `hrn3_bond_0`)
  std::uint32_t port = 0;             ///< PORT (1-based)
  std::uint32_t gid_index = 0;        ///< INDEX / idx: the GID index to give NCCL/perftest
  std::string gid;                    ///< full 8-group form as printed
  std::optional<std::string> ipv4;    ///< IPv4 column (empty for link-local/IPv6 GIDs)
  std::optional<GidType> type;        ///< VER `v1`/`v2` or type `RoCE v2`; empty on IB ports
  std::optional<std::string> netdev;  ///< second DEV / net_dev column; empty on IB ports
  std::optional<bool> link_up;        ///< hiroce3 `link` column (`up`/`down`); show_gids: nullopt
  std::size_t line = 0;               ///< 1-based line of the row (evidence; not in the JSON)
};

struct GidTable {
  GidTableFormat format = GidTableFormat::mlnx_show_gids;
  std::vector<GidEntry> entries;
  std::optional<std::uint64_t> n_gids_found;  ///< show_gids trailer `n_gids_found=N`
};

Result<Parsed<GidTable>> parse_show_gids(std::string_view text);
nlohmann::json to_json(const GidTable& v);
/// True for a show_gids header (`DEV PORT INDEX GID`) or a hiroce3 gids header.
bool looks_like_show_gids(std::string_view text);

}  // namespace rk::parse

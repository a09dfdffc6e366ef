// Parser for `mlxlink -d <dev> --port_type PCIE` (MFT; `mstlink` in mstflint), tool id
// "mlxlink_pcie": the NIC's own view of its PCIe link. The format is mlxlink_commander.cpp
// showPcie(): a "PCIe Operational (Enabled) Info" block of "key : value" rows,
//   Depth, pcie index, node         : 0, 0, 0
//   Link Speed Active (Enabled)     : 8G-Gen 3 (16G-Gen 4)
//   Link Width Active (Enabled)     : 16X (16X)
//   Device Status                   : Correctable Error detected, ...
// with speeds from mlxlink_utils.cpp pcieSpeedStr() ("2.5G-Gen 1" ... "32G-Gen 5", "32G PAM-4
// Gen6", "N/A"); -c adds counter rows ("RX Errors", "TX Errors", "CRC Error dllp/tlp", "dl down").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct MlxlinkPcie {
  std::optional<int> depth;              ///< 0: the NIC's own endpoint
  std::optional<int> gen_active;         ///< PCIe generation the link runs at (1..6)
  std::optional<int> gen_enabled;        ///< the highest the NIC enables
  std::optional<int> width_active;       ///< lanes
  std::optional<int> width_enabled;
  std::optional<std::string> device_status;
  std::map<std::string, std::uint64_t> counters;  ///< "RX Errors" -> 0, "dl down" -> 3, ...
  std::size_t speed_line = 0;            ///< 1-based line of "Link Speed Active (Enabled)"
  std::size_t width_line = 0;
};

/// Errors when no "Link Speed Active" or "Link Width Active" row is present.
Result<Parsed<MlxlinkPcie>> parse_mlxlink_pcie(std::string_view text);
nlohmann::json to_json(const MlxlinkPcie& v);
/// Sniff: the "PCIe Operational (Enabled) Info" title or a "Link Speed Active (Enabled)" row
/// whose value names a PCIe generation.
bool looks_like_mlxlink_pcie(std::string_view text);
/// GT/s of PCIe generation `gen` (1 -> 2.5, ..., 6 -> 64); nullopt outside 1..6.
std::optional<double> pcie_gen_gts(int gen);

}  // namespace rk::parse

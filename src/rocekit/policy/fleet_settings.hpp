// The setting ids `rocekit fleet` compares across hosts, declared once: the fleet reduction
// (fleet/reduce.cpp), its rules (rules/table_fleet.cpp `setting`) and the policy's
// `fleet.ignore` (validated at load) use them.
#pragma once

#include <array>
#include <string_view>

namespace rk::fleet {

/// Setting ids compared across hosts. Values are canonical strings (docs/rules.md "Fleet
/// rules" gives each form), e.g. trust "dscp", pfc "3" or "none", dscp_map "0:0-7 1:8-15 ...",
/// ecn "rp:3 np:3", mtu "9000", max_read_request "4096", coalescing "adaptive-rx off rx-usecs 8
/// tx-usecs 16", cnp "dscp 48 priority 6", firmware "28.41.1000", driver "mlx5_core 6.8.12".
namespace setting {
inline constexpr std::string_view trust = "trust";
inline constexpr std::string_view dscp_map = "dscp_map";
inline constexpr std::string_view pfc = "pfc";
inline constexpr std::string_view ecn = "ecn";
inline constexpr std::string_view cnp = "cnp";
inline constexpr std::string_view mtu = "mtu";
inline constexpr std::string_view max_read_request = "max_read_request";
inline constexpr std::string_view coalescing = "coalescing";
inline constexpr std::string_view firmware = "firmware";
inline constexpr std::string_view driver = "driver";
/// The (driver release, firmware) pair: "MLNX_OFED_LINUX-24.10-3.2.5.0 + 28.43.3608" (the
/// release as `ofed_info -s` prints it); judged by fleet.driver-firmware-compat.
inline constexpr std::string_view driver_firmware = "driver_firmware";

/// Every id above, in the order the report shows the checks.
inline constexpr std::array<std::string_view, 11> all = {trust, dscp_map, pfc, ecn, cnp, mtu, max_read_request,
                                                         coalescing, firmware, driver, driver_firmware};
}  // namespace setting

}  // namespace rk::fleet

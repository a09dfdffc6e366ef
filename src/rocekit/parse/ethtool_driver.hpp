// Parser for `ethtool -i <netdev>` (tool id `ethtool_i`): driver and firmware identity.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// `ethtool -i` output (`key: value` lines). A string field is nullopt when its line is absent
/// and "" when the line is printed with an empty value (e.g. `expansion-rom-version:`).
struct EthtoolDriver {
  std::optional<std::string> driver;  ///< `driver:` e.g. `mlx5_core`
  /// `version:` driver version: an MLNX_OFED/DOCA version (`5.0-2.1.8`) or, for the inbox
  /// driver, the kernel release (`6.8.12-8-pve`). Kept as a string.
  std::optional<std::string> version;
  /// `firmware-version:` without a trailing ` (PSID)`: `14.32.1010`. Other drivers print
  /// several tokens here (Intel: `4.20 0x80017d17 1.2904.0`); those are kept whole.
  std::optional<std::string> firmware_version;
  /// The PSID that mlx5 appends in parentheses: `14.32.1010 (MT_2420110034)` -> `MT_2420110034`.
  std::optional<std::string> psid;
  std::optional<std::string> expansion_rom_version;  ///< `expansion-rom-version:`
  std::optional<std::string> bus_info;  ///< `bus-info:` the PCI BDF with domain, `0000:2f:00.0`
  std::optional<bool> supports_statistics;     ///< `supports-statistics: yes|no`
  std::optional<bool> supports_test;           ///< `supports-test: yes|no`
  std::optional<bool> supports_eeprom_access;  ///< `supports-eeprom-access: yes|no`
  std::optional<bool> supports_register_dump;  ///< `supports-register-dump: yes|no`
  std::optional<bool> supports_priv_flags;     ///< `supports-priv-flags: yes|no`
};

/// Parses `ethtool -i` text; warns `truncated` when it ends before `supports-priv-flags`.
Result<Parsed<EthtoolDriver>> parse_ethtool_driver(std::string_view text);

/// Every field under the names above; nullopt as null.
nlohmann::json to_json(const EthtoolDriver& v);

/// True when the first non-blank line starts with `driver:`.
bool looks_like_ethtool_driver(std::string_view text);

}  // namespace rk::parse

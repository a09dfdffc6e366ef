// Parser for `devlink dev info [pci/<BDF>]` (tool id `devlink_dev_info`), iproute2 text output.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// One `name value` entry of a versions group, e.g. `fw.version 28.41.1000`, `fw.psid
/// MT_0000000894`. Versions are strings.
struct DevlinkVersion {
  std::string name;
  std::string value;
};

/// One devlink device block, opened by a `<bus>/<name>:` line.
struct DevlinkDevice {
  std::string bus;   ///< `pci` or `auxiliary` (mlx5 exposes `auxiliary/mlx5_core.eth.N`)
  std::string name;  ///< for `pci` the BDF with domain, `0000:08:00.0`
  std::optional<std::string> driver;               ///< `driver mlx5_core`
  std::optional<std::string> serial_number;        ///< `serial_number` (function serial)
  std::optional<std::string> board_serial_number;  ///< `board.serial_number`
  std::optional<std::string> function_uid;         ///< `function.uid` (kernel >= 6.15 mlx5)
  std::vector<DevlinkVersion> fixed;    ///< `versions: fixed:` (board id, `fw.psid`)
  std::vector<DevlinkVersion> running;  ///< `versions: running:` (`fw.version`, `fw`)
  std::vector<DevlinkVersion> stored;   ///< `versions: stored:` (flashed, active after reset)
  /// Other device-level `key value` lines, in order.
  std::vector<std::pair<std::string, std::string>> other;
};

/// The whole output: every device in order, or the kernel's error.
struct DevlinkDevInfo {
  std::vector<DevlinkDevice> devices;
  /// Text after `kernel answers:` / `devlink answers:`, e.g. `No data available` (mlx5 before
  /// the 2026 fix, when the pending FW version cannot be read after a failed flash).
  std::optional<std::string> kernel_error;
};

/// Value of version `name` in `group`, or nullopt.
std::optional<std::string> find_version(const std::vector<DevlinkVersion>& group,
                                        std::string_view name);

/// Parses `devlink dev info` text. A `$ devlink ...` prompt line is skipped. Warns `truncated`
/// when a device block or versions group ends without entries.
Result<Parsed<DevlinkDevInfo>> parse_devlink_dev_info(std::string_view text);

/// `{"devices": [{"bus","name","driver","serial_number","board_serial_number","function_uid",
/// "versions": {"fixed": [[name, value]], "running": [...], "stored": [...]}, "other": [[k, v]]}],
/// "kernel_error"}`; version groups keep output order.
nlohmann::json to_json(const DevlinkDevInfo& v);

/// True when the first output line is a `pci/...:` or `auxiliary/...:` device handle, or a
/// `devlink` prompt followed by `kernel answers:`.
bool looks_like_devlink_dev_info(std::string_view text);

}  // namespace rk::parse

// Parser for `devlink dev eswitch show <DEV>` (tool id `devlink_dev_eswitch`), iproute2 text and
// `-j` JSON output.
//
// Format source: iproute2 devlink/devlink.c (github:iproute2/iproute2, commit ee2a4a86, 2026-06):
// cmd_dev_eswitch_show() needs a handle (dl_argv_parse(dl, DL_OPT_HANDLE, 0): one device per
// command) and prints through cmd_dev_eswitch_show_cb() -> pr_out_eswitch():
// __pr_out_handle_start(dl, tb, true, false) prints `<bus>/<dev>:`, then each attribute the
// kernel sends as ` name value` on the same line (check_indent_newline):
//   `mode` eswitch_mode_name(): legacy, switchdev, switchdev_inactive (iproute2 da352540,
//          2025-11), `<unknown mode>` for a value it does not know;
//   `inline-mode` eswitch_inline_mode_name(): none, link, network, transport;
//   `encap-mode` eswitch_encap_mode_name(): none, basic. Before iproute2 0b1875cd (2020-04,
//          "devlink: fix encap mode manupulation") the attribute printed as `encap enable|disable`.
// With -j, pr_out_section_start(dl, "dev") opens {"dev": {...}} and the handle is an object key:
// {"dev":{"pci/0000:03:00.0":{"mode":"switchdev","inline-mode":"none","encap-mode":"basic"}}}.
// On error devlink prints `kernel answers: <strerror>` (older: `devlink answers: ...`), e.g.
// `Operation not supported` on the host PF of a BlueField in DPU mode (the Arm side manages the
// embedded switch) and `No such device` for a driver without eswitch support.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// One device's eswitch, as one `<bus>/<dev>: mode ...` line (or one JSON object) prints it.
struct DevlinkEswitch {
  std::size_t line = 0;  ///< 1-based line of the handle (the JSON key's line in -j output)
  std::string bus;       ///< `pci`
  std::string device;    ///< `0000:03:00.0`
  std::optional<std::string> mode;         ///< legacy, switchdev, switchdev_inactive
  std::optional<std::string> inline_mode;  ///< none, link, network, transport
  /// none, basic; the pre-2020 `encap enable|disable` is read as basic|none.
  std::optional<std::string> encap_mode;
  /// Other `name value` pairs, in order (attributes newer than this parser).
  std::vector<std::pair<std::string, std::string>> other;
};

struct DevlinkEswitches {
  std::vector<DevlinkEswitch> devices;
  /// Text after `kernel answers:` / `devlink answers:` (e.g. `Operation not supported`).
  std::optional<std::string> kernel_error;
};

/// Parses `devlink dev eswitch show` text or `devlink -j dev eswitch show` JSON (one or more
/// devices, as several commands' outputs pasted one after the other). A `$ devlink ...` prompt
/// line is skipped. Warns `unrecognised_line` for a line that is not a handle line, `bad_pair`
/// for a name without a value, `bad_value` for a mode iproute2 does not print (`<unknown mode>`
/// included: the kernel sent a value this iproute2 does not know). Error when no device and no
/// kernel error is found.
Result<Parsed<DevlinkEswitches>> parse_devlink_dev_eswitch(std::string_view text);

/// `{"devices": [{"line","bus","device","mode","inline_mode","encap_mode","other"}],
/// "kernel_error"}`.
nlohmann::json to_json(const DevlinkEswitches& v);

/// True when the first output line (after an optional `devlink` prompt) is a
/// `<bus>/<dev>: mode ...` line, or the -j form `{"dev":{"<bus>/<dev>":{"mode":...`.
bool looks_like_devlink_dev_eswitch(std::string_view text);

}  // namespace rk::parse

// Findings: the result of evaluating one rule on one subject. Shared by rules/ and render/.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/model/snapshot.hpp"

namespace rk {

enum class Outcome { pass, fail, unknown, not_applicable };
enum class Severity { info, warning, error, critical };

std::string_view to_string(Outcome o);
/// The ANSI SGR sequence a terminal report paints `o` in (--color): fail bold red, unknown
/// yellow, pass green, not applicable dim. "\x1b[0m" ends it.
std::string_view ansi_colour(Outcome o);
/// `text` in the colour of `o` when `color`, else unchanged (every reporting command's --color).
std::string paint(bool color, Outcome o, std::string_view text);
std::string_view to_string(Severity s);
std::optional<Outcome> outcome_from_string(std::string_view s);
std::optional<Severity> severity_from_string(std::string_view s);

/// How long a fix lasts once applied.
enum class FixScope {
  runtime,          ///< takes effect now, lost at reboot or driver reload
  persistent,       ///< OS configuration that survives reboots
  firmware_reboot,  ///< firmware NV setting: needs a reboot or mstfwreset to take effect
  hardware,         ///< physical change (slot, card, cable)
  none
};
std::string_view to_string(FixScope s);

/// One command of a fix as data, for one backend (tool): what to run, and how to read the value
/// back. Built by rk::fix (src/rocekit/fix/), the one place that knows each tool's syntax and
/// output; `check` prints it, `plan` turns it into an action.
struct FixStep {
  std::string tool;               ///< "dcb", "mlnx_qos", "mstconfig", "mlxconfig", "setpci", "ethtool", "ip", "sysfs"
  std::vector<std::string> argv;  ///< the command, one word per element; empty for a sysfs write
  std::optional<std::string> write_path;  ///< sysfs file written with write_value + "\n"
  std::string write_value;
  std::vector<std::string> check_argv;   ///< read-back command (empty with write_path: read the file)
  std::vector<std::string> check_regex;  ///< POSIX EREs; each must match a line of the read-back
  std::string needs;                     ///< minimum tool version, e.g. "iproute2 >= 5.12"
};

struct Remediation {
  std::vector<std::string> commands;  ///< the fix: exact commands, run in order, names quoted for sh
  /// Read-only commands that show the state the fix changes (before and after); never a fix.
  std::vector<std::string> checks;
  /// The same fix with another backend (`alternative_tool`, e.g. iproute2 "dcb" for
  /// "mlnx_qos"): run these instead of `commands`, never both.
  std::string alternative_tool;
  std::vector<std::string> alternative;
  std::string notes;                  ///< what the commands do, what to check, seed corrections
  FixScope scope = FixScope::none;
  /// Structured form of a fix `plan` can act on (empty when the fix is manual): what changes
  /// (`action`, e.g. "mtu", "pfc"), from `current` to `desired`, and one step per backend.
  std::string action;
  std::string current;
  std::string desired;
  std::vector<FixStep> steps;
};

struct Finding {
  std::string rule;
  std::string subject;      ///< netdev, "dev/port", BDF, "gpuN" or "host"
  Outcome outcome = Outcome::unknown;
  Severity severity = Severity::warning;
  std::string message;      ///< one line: what was found, or why unknown
  std::vector<Evidence> evidence;
  Remediation remediation;  ///< set for fail (and unknown when a command would collect the data)
  /// unknown for missing data: the kind of reason, and the capture tool ids (capture/tools.cpp)
  /// whose output would let the rule judge the subject. Empty for other outcomes, and for an
  /// unknown that follows from another finding (e.g. no DSCP map while trust is pcp).
  ReasonKind reason_kind = ReasonKind::none;
  std::vector<std::string> needs;
};

}  // namespace rk

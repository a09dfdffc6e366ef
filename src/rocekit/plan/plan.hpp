// rocekit plan: the host's RoCE configuration as an ordered list of structured actions
// (issue 5). make_plan() compares a Snapshot with a Policy and emits one Action per value that
// differs; renderers turn the list into a bash script (render_sh) or JSON (render_json).
// Nothing here prints, runs commands or touches files.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/core/shell.hpp"
#include "rocekit/model/finding.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/plan/disruption.hpp"
#include "rocekit/plan/nv_db.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk::plan {

/// What an action changes. Plans are ordered firmware NV first, then PCIe MaxReadReq, then one
/// netdev after another with its disruptive steps back to back (see make_plan).
enum class ActionKind { nv_config, trust, dscp2prio, pfc, pause, ecn, mtu, max_read_request, coalesce,
                        traffic_class, roce_tos, firmware_image_check, firmware_burn };
std::string_view to_string(ActionKind k);

/// Tool family used for DCB/QoS (chosen from the snapshot: mlnx_qos output seen -> mlnx_qos).
enum class QosBackend { mlnx_qos, dcb };
/// Tool used for firmware NV settings (mlxconfig output seen -> mlxconfig, else mstconfig).
enum class NvBackend { mstconfig, mlxconfig };

/// One step: either run `argv`, or (when `write_path` is set) write `write_value` + "\n" into
/// the sysfs file `write_path` (absolute host path; the sh renderer prefixes $RK_SYSROOT).
/// The read-back runs `check_argv` (or reads `write_path`); each POSIX ERE of `check_regex`
/// must match some line of its output.
struct Action {
  ActionKind kind = ActionKind::trust;
  std::string rule;      ///< rule id the action satisfies, e.g. "qos.trust-dscp"
  std::string subject;   ///< netdev, BDF, or "dddd:bb:dd" (physical device, NV settings)
  std::string current;   ///< value now, as text ("pcp", "1500", "512")
  std::string desired;   ///< value after the action ("dscp", "4200", "4096")
  FixScope scope = FixScope::runtime;
  std::vector<std::string> argv;  ///< the command, one word per element (never a shell string)
  std::optional<std::string> write_path;
  std::string write_value;
  std::vector<std::string> check_argv;  ///< read-back command (empty with write_path)
  std::vector<std::string> check_regex; ///< EREs; each must match some read-back output line
  std::string note;                     ///< e.g. "needs reboot or mstfwreset"
  /// Effect on the port's traffic, set by make_plan from disruption_of() (plan/disruption.cpp).
  Disruption disruption = Disruption::none;
  std::string disruption_why;           ///< "" for none
  /// Restores `current` (`rocekit apply --rollback`): a command, or with write_path the value
  /// to write back. Empty undo_argv without write_path = not restorable (current not known).
  std::vector<std::string> undo_argv;
  std::string undo_write_value;
  /// Read-back after the undo (same check_argv / write_path): EREs matching the old value.
  std::vector<std::string> undo_check_regex;
};

/// Subjects the planner could not judge: unknown current value, rejected names.
struct Unplanned {
  std::string rule;
  std::string subject;
  std::string reason;
};

/// What the plan says about the host it was made for: apply, the sh script and the playbook
/// refuse to act on a host that does not match (identity_mismatches in apply.hpp).
struct PlanIdentity {
  std::vector<std::string> netdevs;  ///< every netdev an action names
  std::vector<std::string> bdfs;     ///< every PCI function an action names (MaxReadReq, NV owner)
  std::vector<std::pair<std::string, std::string>> node_guids;  ///< RDMA device -> node GUID
};

struct Plan {
  std::string hostname;
  /// The input the plan was made from (the snapshot's source path; `rocekit fleet`: the file
  /// it loaded): what names the plan when the input has no hostname.
  std::string input;
  PlanIdentity identity;
  std::string policy_name;
  QosBackend qos_backend = QosBackend::dcb;
  NvBackend nv_backend = NvBackend::mstconfig;
  std::vector<Action> actions;          ///< ordered; empty = host already matches the policy
  std::vector<Unplanned> unplanned;     ///< never silently dropped
  /// No rule of `check` passed or failed on the snapshot: an empty plan means "not judged",
  /// never "the host matches the policy".
  bool nothing_judged = false;
  bool no_roce_port = false;  ///< no RDMA device and no netdev judged: nothing RoCE to plan
  std::vector<std::string> warnings;    ///< e.g. shared firmware on multi-host NICs
  /// Set when firmware NV actions are planned: "validated against <db> (<n> parameters)" or
  /// "not validated: <path> not found" (then only the built-in name list was applied).
  std::string nv_validation;
};

/// iproute2 release (`ip -V` / `dcb -V`), e.g. {6, 1}.
struct IprouteVersion {
  int major = 0;
  int minor = 0;
  friend auto operator<=>(const IprouteVersion&, const IprouteVersion&) = default;
};
/// The first release with `dcb app` and `dcb -N` (iproute2 v5.12.0, dcb/dcb_app.c and commit
/// 0aebd32b "dcb: Support -N"). No plan uses `dcb apptrust` (v6.2.0, and mlx5 has no
/// dcbnl_setapptrust).
inline constexpr IprouteVersion k_dcb_app_min_iproute2{5, 12};

/// Parses the version out of `ip -V` / `dcb -V` output ("ip utility, iproute2-6.1.0, libbpf
/// 1.1.2"); snapshot-dated releases ("iproute2-ss200127", before v5.8) give {5, 7}.
std::optional<IprouteVersion> parse_iproute2_version(std::string_view text);

/// Inputs of make_plan besides the snapshot and the policy.
struct PlanOptions {
  /// iproute2 on the host the plan is for (the live binary's `ip -V`, or --iproute2-version).
  /// nullopt = not known: the dcb steps are planned in the v5.12 forms and the plan says so;
  /// below 5.12 the dcb app steps become `unplanned` (no `dcb app` object).
  std::optional<IprouteVersion> iproute2;
  /// mstflint's parameter DB (NvParamDb::open); nullptr = firmware values not validated.
  const NvParamDb* nv_db = nullptr;
  /// Why nv_db is null, as the plan states it: "not validated: <path> not found".
  std::string nv_db_missing = "not validated: " + std::string(k_default_mlxconfig_db) + " not found";
  /// Boot-time mode (render_systemd): one action for EVERY runtime setting of the policy the
  /// snapshot shows, also those already in place (current == desired), so the boot script
  /// re-applies them all after a reboot resets them; MTU and in-range coalescing values keep
  /// the larger/current value; no firmware actions.
  bool all_runtime = false;
  /// Netdevs that carry the default route or the current ssh session, with why
  /// ("carries the default route (/proc/net/route)"): no step for them unless the policy names
  /// them (Policy::named_netdevs, --netdev). See live_protected_netdevs (plan/host_guard.hpp).
  std::map<std::string, std::string> protected_netdevs;
  /// Non-empty when that could not be checked (a capture without routes): stated in the plan.
  std::string protected_unchecked;
  /// `--migrate-priority`: plan the PFC and DSCP-map moves although the host consistently runs
  /// RoCE lossless on another priority than the policy's (otherwise: "not planned" with why).
  bool migrate_priority = false;
  /// `--firmware-image PSID=FILE`: the local firmware image to burn on boards with that PSID
  /// when fw.driver-compat fails. A board without one gets the placeholder
  /// fix::firmware_image_placeholder, which apply and the sh script refuse to run.
  std::map<std::string, std::string> firmware_images;
  /// Restricts the plan (`rocekit fleet`: only the settings where a host differs from the
  /// fleet's reference): an action for which `keep_action` is false is dropped before the dcb
  /// version gate, the "not planned" lines of failing rules, the ordering and the identity (the
  /// netdevs, PCI functions and node GUIDs the guards check); with no firmware step left, the
  /// firmware steps' warnings go too. A "not planned" line for which `keep_unplanned` is false
  /// is dropped last (give both: a failing rule whose step was dropped gets a line otherwise).
  /// Unset: everything is kept. Every exclusion of make_plan (scope, protected netdevs) stays.
  std::function<bool(const Action&)> keep_action;
  std::function<bool(const Unplanned&)> keep_unplanned;
};

/// One line per firmware step without an image (no `--firmware-image` for its PSID), saying
/// what to rerun; apply, the sh script and the playbook refuse such a plan. Empty when none.
std::vector<std::string> missing_firmware_images(const Plan& plan);

/// Parses one `--firmware-image` value, "PSID=FILE" (PSID: 1..16 of [A-Za-z0-9_]; FILE: an
/// absolute path without a newline). Errors: malformed_input naming the value.
Result<std::pair<std::string, std::string>> parse_firmware_image_option(std::string_view value);

/// Builds the plan. Every action is idempotent (it sets an absolute value) and is emitted only
/// when the snapshot shows a current value different from the policy; a missing current value
/// becomes an Unplanned entry with the reason. Subjects whose names could inject into a shell
/// or a sysfs path (see valid_netdev_name, normalize_bdf) are rejected into `unplanned`.
/// Firmware NV actions (one per physical device and rule: LINK_TYPE_P<n>, CNP_DSCP_P<n> /
/// CNP_802P_PRIO_P<n>, ROCE_CC_PRIO_MASK_P<n>, ROCE_ADAPTIVE_ROUTING_EN) have every name and
/// value validated against `opts.nv_db` when given (a refused one becomes `unplanned` with the
/// DB's reason; a DB prerequisite such as ADVANCED_PCI_SETTINGS is added to the same step).
Plan make_plan(const Snapshot& snapshot, const Policy& policy, const PlanOptions& opts = {});

/// One port (netdev, or PCI device for firmware NV) the plan disrupts, for the summary that
/// plan and apply print first.
struct PortDisruption {
  std::string subject;
  Disruption worst = Disruption::none;
  std::vector<std::string> causes;  ///< "pfc: link_flap", "mtu: channel_restart"
};

/// The ports the plan disrupts, in plan order, each once with its most severe effect.
std::vector<PortDisruption> disruption_summary(const Plan& plan);

/// What plan and `apply --dry-run` print before the commands: the disruption summary (ports
/// and effects), then one table row per step: port, setting, current -> desired, [effect].
/// Empty for an empty plan.
std::vector<std::string> summary_lines(const Plan& plan);

/// Linux interface name rule (dev_valid_name): 1..15 bytes, no '/', ':' or whitespace, not "."
/// or ".."; rocekit also refuses a leading '-' (it would be read as an option by the tools).
bool valid_netdev_name(std::string_view name);

/// Validates a firmware parameter CLI name against the names rocekit emits, applying the
/// `_P<n>` port suffix rule of host-facts.md §A (port TLVs need `_P1`/`_P2`, device TLVs must
/// not have one). Errors: malformed_input naming the parameter.
Result<std::string> validate_nv_param(std::string_view cli_name);

/// Hex digits of a node GUID in lower case: "b859:9f03:00d4:5e1a" and "0xB8599F0300D45E1A"
/// both give "b8599f0300d45e1a" (how apply, the sh script and the playbook compare GUIDs).
std::string node_guid_hex(std::string_view guid);

/// Shell quoting: rk::text::shell_quote (core/shell.hpp), the one function for the whole code base.
using text::shell_quote;

/// A bash script: `set -euo pipefail`, dry run unless `--execute`, prints each step, stops at
/// the first failure, reads back each value. Every word from the snapshot is quoted with
/// shell_quote where the shell would split or expand it. Passes shellcheck.
std::string render_sh(const Plan& plan);

/// One generated file: name (no directory), where it belongs on the host, content.
struct GeneratedFile {
  std::string name;
  std::string install_path;
  std::string content;
};

/// Persistence for the runtime part (scope runtime) of `plan`, which should be made with
/// PlanOptions::all_runtime so that settings already in place are re-applied too:
/// `rocekit-roce-runtime.sh`
/// (render_sh of the runtime actions), `rocekit-roce.service` (oneshot, After=network-pre.target,
/// runs the script with --execute at boot) and `90-rocekit-roce.rules` (udev: re-runs the unit
/// when an mlx5 netdev appears: driver reload, hotplug). Firmware steps are left out.
std::vector<GeneratedFile> render_systemd(const Plan& plan);

/// An Ansible playbook: one play per plan, each run by every inventory host but acted on only
/// by the host whose hostname is the plan's (the others end the play), after checking the
/// netdevs, PCI functions and node GUIDs the plan names; a last play fails hosts that have no
/// plan. Per action a read-back (changed_when false), the command only when a read-back regex
/// does not match (MTU: only when the MTU read is below the plan's, so a larger MTU is never
/// lowered) (ansible.builtin.command argv, no shell; sysfs writes via `tee` with stdin), then
/// the read-back again with failed_when. Every string from the snapshot is tagged `!unsafe`,
/// so a name holding `{{ }}` is never templated. POSIX [[:space:]] becomes Python's \s.
/// Inventory variables: rk_sysroot (prefix of the identity paths, tests), rk_environment.
std::string render_ansible(const std::vector<Plan>& plans);
std::string render_ansible(const Plan& plan);

/// The plan as JSON (schema "rocekit-plan/1"), two-space indented, trailing newline.
std::string render_json(const Plan& plan);
/// One action as render_json writes it in `actions[]` ({kind, rule, subject, current, desired,
/// scope, argv/write, check_argv, check_regex, undo, note, disruption, disruption_why}); the
/// fleet report's per-host `actions` use it too.
nlohmann::ordered_json action_json(const Action& a);

}  // namespace rk::plan

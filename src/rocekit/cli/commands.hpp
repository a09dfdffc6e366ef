// Subcommand registration and the shared CLI context. Only cli/ writes to stdout/stderr.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/model/finding.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::plan {
struct Plan;
}

namespace rk::cli {

/// Documented exit codes (docs/check.md "Exit codes").
enum class ExitCode { ok = 0, findings = 1, usage = 2, not_judged = 3 };

/// One documented exit code of a command: shown by `--help` (the footer) and in the man page's
/// EXIT STATUS (rocekit-docgen), both from document_exit_codes().
struct ExitDoc {
  ExitCode code;
  std::string meaning;
};
/// Declares `cmd`'s exit codes (sets its --help footer). Commands that declare none have
/// 0 (done) and 2 (usage or input error).
void document_exit_codes(CLI::App& cmd, std::vector<ExitDoc> codes);
/// The codes declared for `cmd`, or the default pair.
std::vector<ExitDoc> exit_codes_of(const CLI::App& cmd);

struct Context {
  std::ostream& out;
  std::ostream& err;
  ExitCode exit_code;
};

/// Parses argv into `app` (running the chosen subcommand) and returns the process exit code:
/// CLI11's for --help/--version (0) and parse errors (2), else ctx.exit_code; 2 when standard
/// output could not be written.
int run_app(CLI::App& app, int argc, char** argv, Context& ctx);

/// Prints "rocekit: error: <context>: <message>" and sets the usage/input exit code.
void report_error(Context& ctx, const Error& e);

/// Writes `text` to `path` atomically (temp file + rename), or to ctx.out when path is "-" or
/// empty. Returns false (and reports) on failure.
bool write_output(Context& ctx, const std::string& path, const std::string& text);
/// The same, the text written by `write` as it is made (a report too large to hold twice);
/// `write` returns false when its stream failed.
bool write_output(Context& ctx, const std::string& path, const std::function<bool(std::ostream&)>& write);

/// What a reporting command's exit code holds the report to (--fail-on, --rule, --require).
struct GateOptions {
  std::string fail_on = "error";       ///< a severity, or "unknown": any failure, then any unknown
  std::vector<std::string> required;   ///< rule ids / areas that must be judged on every subject
};
void add_gate_options(CLI::App& cmd, GateOptions& o);
/// -q/--quiet and --color, the same on every reporting command (check, diagnose, fleet, switch
/// check); `quiet_help` says what -q leaves out of that command's report.
struct LookOptions {
  bool quiet = false;
  std::string color = "auto";
};
void add_look_options(CLI::App& cmd, LookOptions& o, const std::string& quiet_help);
/// --color: always, or auto when the report goes to a terminal (no -o file).
bool use_color(const LookOptions& o, const std::string& output);
/// The exit code of a host report: 1 when a failure at or above fail_on exists; else 3 when the
/// report cannot be called healthy: no RDMA device in the input, an input file not used, no rule
/// passed or failed, a required rule unknown on a subject, or (fail_on "unknown") any unknown;
/// else 0. Each reason for 3 is printed to stderr as "rocekit: not judged: <why>".
ExitCode gate(Context& ctx, const Snapshot& s, const std::vector<Finding>& findings, const GateOptions& o);
/// The same decision without printing: the exit code and, for 3, each reason.
struct GateDecision {
  ExitCode code = ExitCode::ok;
  std::vector<std::string> reasons;
};
GateDecision decide_gate(const Snapshot& s, const std::vector<Finding>& findings, const GateOptions& o);

void add_check_command(CLI::App& app, Context& ctx);
void add_snapshot_command(CLI::App& app, Context& ctx);
void add_rules_command(CLI::App& app, Context& ctx);
void add_policy_command(CLI::App& app, Context& ctx);
void add_parse_command(CLI::App& app, Context& ctx);
void add_diagnose_command(CLI::App& app, Context& ctx);
void add_collect_command(CLI::App& app, Context& ctx);
/// The commands a live collection may run (none by default): `--nv-config` (mstconfig|mlxconfig
/// -d <BDF> -e q), `--devlink` (devlink port show, devlink dev eswitch show pci/<BDF>).
struct LiveTools {
  bool nv_config = false;
  bool devlink = false;
};
/// Collects the host under `root` live (cmd_collect.cpp). False (error reported) when `root`
/// is not a directory.
bool collect_live(Context& ctx, const std::string& root, const LiveTools& tools, Snapshot& out);
void add_select_command(CLI::App& app, Context& ctx);  // also adds `catalog`
void add_plan_command(CLI::App& app, Context& ctx);
/// The plan for `input` (a capture, tarball or snapshot; "" or "live" = this host under `root`)
/// under `policy_file` ("" = built-in) with firmware names checked against `mlxconfig_db` when
/// present (cmd_plan.cpp; `plan` and `apply` share it). `boot`, when given, also gets the plan
/// that re-applies every runtime setting (the systemd boot script). False: the error is reported.
/// Options `plan` and `apply` share beyond the input: --netdev (netdevs to plan for although
/// they have no RDMA port or carry the default route / ssh session: Policy::named_netdevs) and
/// --migrate-priority (PlanOptions::migrate_priority).
struct PlanScopeOptions {
  std::vector<std::string> netdevs;
  bool migrate_priority = false;
  std::vector<std::string> firmware_images;  ///< --firmware-image PSID=FILE
  std::string compat;                        ///< --compat FILE (fw.driver-compat's table)
};
void add_plan_scope_options(CLI::App& cmd, PlanScopeOptions& o);

bool make_cli_plan(Context& ctx, const std::string& input, const std::string& root,
                   const std::string& policy_file, const std::string& mlxconfig_db,
                   const PlanScopeOptions& scope, plan::Plan& out, plan::Plan* boot = nullptr);
void add_apply_command(CLI::App& app, Context& ctx);
/// The exporter subcommand (cmd_exporter.cpp), linked into rocekit-exporter only.
void add_exporter_command(CLI::App& app, Context& ctx);
/// In rocekit: lists `exporter` in --help (exec_exporter.cpp).
void add_exporter_stub(CLI::App& app);
/// In rocekit: replaces this process with rocekit-exporter from the same directory, passing
/// argv[2..]. Returns only on failure (message printed; exit code 2).
int exec_exporter(int argc, char** argv);
void add_switch_command(CLI::App& app, Context& ctx);
void add_fleet_command(CLI::App& app, Context& ctx);

}  // namespace rk::cli

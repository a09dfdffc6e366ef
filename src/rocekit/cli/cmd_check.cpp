#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "rocekit/catalog/compat.hpp"
#include "rocekit/cli/commands.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/render/gate.hpp"

namespace rk::cli {

namespace {

struct CheckOptions {
  std::string input;
  std::string format = "text";
  std::string policy;
  GateOptions gate;
  bool detail = false;
  std::vector<std::string> hide;
  std::string group_by = "subject";
  std::string save_snapshot;
  std::string output;
  std::vector<std::string> only;
  LookOptions look;
  std::string root = "/";
  LiveTools tools;
  std::vector<std::string> netdevs;
  std::string compat;
};

/// The host captures a directory holds when it is a directory of several hosts (a fleet), not one
/// capture: no tool output at its top level, and two or more subdirectories with tool outputs,
/// tarballs or snapshots.
std::vector<std::string> fleet_members(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return {};
  auto has_outputs = [](const fs::path& d) {
    std::error_code e;
    for (fs::directory_iterator it(d, e), end; !e && it != end; it.increment(e)) {
      std::string n = it->path().filename().string();
      if (n == "rocekit-capture.log" || (n.ends_with(".txt") && it->is_regular_file(e))) return true;
    }
    return false;
  };
  if (has_outputs(dir)) return {};
  std::vector<std::string> hosts;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string n = it->path().filename().string();
    if ((it->is_directory(ec) && has_outputs(it->path())) || n.ends_with(".tar.gz") || n.ends_with(".tgz") ||
        (n.ends_with(".json") && n != "expected.json"))
      hosts.push_back(n);
  }
  std::sort(hosts.begin(), hosts.end());
  return hosts.size() >= 2 ? hosts : std::vector<std::string>{};
}

void run_check(Context& ctx, const CheckOptions& o) {
  if (!o.output.empty() && o.output != "-" && o.output == o.save_snapshot) {
    report_error(ctx, Error{ErrorKind::malformed_input,
                            "--output and --save-snapshot name the same file", o.output});
    return;
  }
  // A mistyped --rule selects nothing: refuse it rather than report "0 fail" (exit 0).
  for (const std::string& sel : o.only)
    if (std::optional<std::string> why = rules::host_selector_error(sel))
      return report_error(ctx, Error{ErrorKind::malformed_input, *why, "--rule"});
  for (const std::string& sel : o.gate.required)
    if (std::optional<std::string> why = rules::host_selector_error(sel))
      return report_error(ctx, Error{ErrorKind::malformed_input, *why, "--require"});
  if (!o.input.empty() && (o.root != "/" || o.tools.nv_config || o.tools.devlink))
    return report_error(ctx, Error{ErrorKind::malformed_input,
                                   "--root, --nv-config and --devlink apply to live collection only (no input given)",
                                   o.root != "/" ? "--root" : o.tools.nv_config ? "--nv-config" : "--devlink"});
  if (std::vector<std::string> hosts = fleet_members(o.input); !hosts.empty()) {
    std::string some;
    for (std::size_t i = 0; i < hosts.size() && i < 3; ++i) some += (i ? ", " : "") + hosts[i];
    return report_error(ctx, Error{ErrorKind::malformed_input,
                                   "holds " + std::to_string(hosts.size()) + " host captures (" + some +
                                       (hosts.size() > 3 ? ", ..." : "") + "): check one (rocekit check " +
                                       o.input + "/" + hosts[0] + ") or compare them with rocekit fleet " + o.input,
                                   o.input});
  }
  Result<Policy> policy = load_policy(o.policy);
  if (!policy) return report_error(ctx, policy.error());
  policy->named_netdevs = o.netdevs;
  if (!o.compat.empty()) {
    Result<catalog::CompatTable> t = catalog::CompatTable::load_file(o.compat);
    if (!t) return report_error(ctx, t.error());
    catalog::CompatTable::use(std::move(*t));
  }
  // No input: collect this host (or the tree under --root) live.
  Result<Snapshot> snap = o.input.empty() ? Result<Snapshot>(Snapshot{}) : load_input(o.input);
  if (!snap) return report_error(ctx, snap.error());
  if (o.input.empty() && !collect_live(ctx, o.root, o.tools, *snap)) return;
  // A capture in which no file could be used still gets its report: every rule unknown, the
  // files under "input problems", and exit 3 (gate: a file not used, nothing judged).
  if (!o.save_snapshot.empty() &&
      !write_output(ctx, o.save_snapshot, snapshot_to_json(*snap).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"))
    return;
  rules::Report report = rules::evaluate(*snap, *policy, o.only);
  render::Options ro;
  ro.policy_name = policy->name;
  ro.detail = o.detail;
  ro.hide_pass = o.look.quiet;
  ro.hide_not_applicable = o.look.quiet;
  for (const std::string& h : o.hide) {
    if (h == "pass") ro.hide_pass = true;
    if (h == "na") ro.hide_not_applicable = true;
    if (h == "unknown") ro.hide_unknown = true;
  }
  ro.group_by = o.group_by == "rule" ? render::GroupBy::rule : render::GroupBy::subject;
  ro.color = use_color(o.look, o.output);
  GateOptions held = o.gate;
  held.required.insert(held.required.end(), o.only.begin(), o.only.end());
  if (o.format == "verdict") {
    // One line for node health checkers (docs/gates.md); the exit code is check's own.
    GateDecision d = decide_gate(*snap, report.findings, held);
    render::GateResult g;
    g.state = d.code == ExitCode::findings   ? render::GateState::fail
              : d.code == ExitCode::not_judged ? render::GateState::not_judged
                                               : render::GateState::ok;
    g.threshold = held.fail_on == "unknown" ? Severity::info
                                            : severity_from_string(held.fail_on).value_or(Severity::error);
    g.reasons = d.reasons;
    if (!write_output(ctx, o.output, render::verdict_line(*snap, report, g) + "\n")) return;
    ctx.exit_code = gate(ctx, *snap, report.findings, held);  // prints the reasons to stderr
    return;
  }
  static const std::map<std::string, render::Format> k_formats{
      {"text", render::Format::text}, {"json", render::Format::json},
      {"markdown", render::Format::markdown}, {"junit", render::Format::junit}};
  std::string text = render::report(*snap, report, k_formats.at(o.format), ro);
  if (!write_output(ctx, o.output, text)) return;
  ctx.exit_code = gate(ctx, *snap, report.findings, held);
}

}  // namespace

void add_check_command(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Audit a host capture (directory, archive or one pasted file) or snapshot .json against the policy");
  cmd->add_option("input", opts->input,
                  "Capture directory, archive (.tar.gz, .tar.xz, .zip, ...), one text file of pasted outputs, - for "
                  "stdin, or snapshot .json (none: collect this host)");
  cmd->add_option("--root", opts->root, "Without input: collect from /sys, /proc under this directory");
  cmd->add_flag("--nv-config", opts->tools.nv_config, "Without input: also query firmware NV config (mstconfig -e q)");
  cmd->add_flag("--devlink", opts->tools.devlink,
                "Without input: also read devlink ports and eswitch modes (devlink port show, devlink dev "
                "eswitch show)");
  cmd->add_option("-f,--format", opts->format,
                  "Output format: text, json, markdown, junit (JUnit XML) or verdict (one line for health "
                  "checkers: OK/FAIL/UNKNOWN, at most 200 bytes)")
      ->check(CLI::IsMember({"text", "json", "markdown", "junit", "verdict"}));
  cmd->add_option("-p,--policy", opts->policy, "Policy YAML file (default: built-in profile)");
  cmd->add_option("--compat", opts->compat,
                  "Firmware/driver compatibility table (JSON, schema fw-driver-compat/1 of data/compat/README.md) "
                  "to use instead of the built-in one, for fw.driver-compat and fw.releases-behind");
  add_gate_options(*cmd, opts->gate);
  cmd->add_option("--save-snapshot", opts->save_snapshot, "Also write the host snapshot JSON here");
  cmd->add_option("-o,--output", opts->output, "Write the report to this file (atomically)");
  cmd->add_option("--rule", opts->only, "Only these rule ids or areas (qos.trust-dscp, qos, pcie, ...; repeatable). An id that selects no host rule is an error (exit 2); a selected rule not judged on a subject exits 3");
  cmd->add_option("--netdev", opts->netdevs,
                  "Also judge this netdev by the RoCE rules although no RDMA port backs it (repeatable)");
  add_look_options(*cmd, opts->look, "Leave passes and not-applicable findings out (same as --hide pass,na)");
  cmd->add_flag("--detail", opts->detail,
                "Text: after the summary, every finding per subject with evidence, why, checks and alternatives");
  cmd->add_option("--hide", opts->hide, "Leave these outcomes out: pass, na, unknown (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember({"pass", "na", "unknown"}));
  cmd->add_option("--group-by", opts->group_by, "Detail grouped by subject (default) or rule")
      ->check(CLI::IsMember({"subject", "rule"}));
  document_exit_codes(*cmd, {{ExitCode::ok, "no failure at or above --fail-on (default error), and every subject was judged"},
       {ExitCode::findings, "at least one failure at or above --fail-on (--fail-on unknown: any failure)"},
       {ExitCode::usage, "usage or input error (the message on stderr names the file and line)"},
       {ExitCode::not_judged, "not judged: no failure, but the report cannot be called healthy (no RDMA device, an input file not used, no rule passed or failed, a --rule/--require rule unknown); each reason on stderr"}});
  cmd->callback([opts, &ctx] { run_check(ctx, *opts); });
}

void add_snapshot_command(CLI::App& app, Context& ctx) {
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "snapshot", "Convert a capture (directory or .tar.gz) into the host snapshot JSON");
  cmd->add_option("input", *input, "Capture directory, .tar.gz or snapshot .json")->required();
  cmd->add_option("-o,--output", *output, "Output file (default: stdout)");
  cmd->callback([input, output, &ctx] {
    Result<Snapshot> snap = load_input(*input);
    if (!snap) return report_error(ctx, snap.error());
    write_output(ctx, *output, snapshot_to_json(*snap).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  });
}

}  // namespace rk::cli

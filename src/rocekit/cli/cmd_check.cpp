#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "rocekit/cli/commands.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::cli {

namespace {

struct CheckOptions {
  std::string input;
  std::string format = "text";
  std::string policy;
  std::string fail_on = "error";
  std::string save_snapshot;
  std::string output;
  std::vector<std::string> only;
  bool quiet = false;
  std::string color = "auto";
  std::string root = "/";
  bool nv_config = false;
  std::vector<std::string> netdevs;
};

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
  Result<Policy> policy = load_policy(o.policy);
  if (!policy) return report_error(ctx, policy.error());
  policy->named_netdevs = o.netdevs;
  // No input: collect this host (or the tree under --root) live.
  Result<Snapshot> snap = o.input.empty() ? Result<Snapshot>(Snapshot{}) : load_input(o.input);
  if (!snap) return report_error(ctx, snap.error());
  if (o.input.empty() && !collect_live(ctx, o.root, o.nv_config, *snap)) return;
  // A capture in which no file could be used is an input error, not a clean bill of health.
  bool usable = snap->source.kind == SourceKind::snapshot || snap->source.kind == SourceKind::live || !snap->tool_runs.empty();
  for (const InputFile& in : snap->inputs)
    usable = usable || in.status == "parsed" || in.status == "parsed_with_warnings";
  if (!usable) {
    std::string why = "no usable tool output in the capture";
    for (const InputFile& in : snap->inputs)
      if (!in.messages.empty()) {
        why += " (" + in.messages.front() + (snap->inputs.size() > 1 ? ", ..." : "") + ")";
        break;
      }
    report_error(ctx, Error{ErrorKind::malformed_input, why, o.input});
    return;
  }
  if (!o.save_snapshot.empty() &&
      !write_output(ctx, o.save_snapshot, snapshot_to_json(*snap).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"))
    return;
  rules::Report report = rules::evaluate(*snap, *policy, o.only);
  render::Options ro;
  ro.policy_name = policy->name;
  ro.show_passes = !o.quiet;
  ro.color = o.color == "always" || (o.color == "auto" && o.output.empty() && ::isatty(1));
  static const std::map<std::string, render::Format> k_formats{
      {"text", render::Format::text}, {"json", render::Format::json},
      {"markdown", render::Format::markdown}};
  std::string text = render::report(*snap, report, k_formats.at(o.format), ro);
  if (!write_output(ctx, o.output, text)) return;
  Severity threshold = severity_from_string(o.fail_on).value_or(Severity::error);
  ctx.exit_code = report.has_failure_at_or_above(threshold) ? ExitCode::findings : ExitCode::ok;
}

}  // namespace

void add_check_command(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Audit a host capture (directory or .tar.gz) or snapshot .json against the policy");
  cmd->add_option("input", opts->input,
                  "Capture directory, capture .tar.gz or snapshot .json (none: collect this host)");
  cmd->add_option("--root", opts->root, "Without input: collect from /sys, /proc under this directory");
  cmd->add_flag("--nv-config", opts->nv_config, "Without input: also query firmware NV config (mstconfig -e q)");
  cmd->add_option("-f,--format", opts->format, "Output format: text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  cmd->add_option("-p,--policy", opts->policy, "Policy YAML file (default: built-in profile)");
  cmd->add_option("--fail-on", opts->fail_on,
                  "Exit 1 when a failure of this severity or higher exists (default error)")
      ->check(CLI::IsMember({"info", "warning", "error", "critical"}));
  cmd->add_option("--save-snapshot", opts->save_snapshot, "Also write the host snapshot JSON here");
  cmd->add_option("-o,--output", opts->output, "Write the report to this file (atomically)");
  cmd->add_option("--rule", opts->only, "Only these rule ids or areas (qos.trust-dscp, qos, pcie, ...; repeatable). An id that selects no host rule is an error (exit 2)");
  cmd->add_option("--netdev", opts->netdevs,
                  "Also judge this netdev by the RoCE rules although no RDMA port backs it (repeatable)");
  cmd->add_flag("-q,--quiet", opts->quiet, "Text: list only failures and unknowns");
  cmd->add_option("--color", opts->color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
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

// `rocekit fleet INPUT...`: check many hosts and compare them (issue 7; library rk_fleet).
#include <unistd.h>

#include <map>
#include <memory>

#include "rocekit/cli/commands.hpp"
#include "rocekit/fleet/fleet.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/render/render.hpp"

namespace rk::cli {

namespace {

struct FleetOptions {
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string policy;
  std::string fail_on = "error";
  std::string output;
  unsigned threads = 0;
  std::string progress = "auto";
  bool list_rules = false;
};

void run_fleet_command(Context& ctx, const FleetOptions& o) {
  if (o.list_rules) {
    ctx.out << fleet::rules_markdown();
    ctx.exit_code = ExitCode::ok;
    return;
  }
  if (o.inputs.empty()) {
    report_error(ctx, Error{ErrorKind::malformed_input,
                            "no input: give snapshot .json files, capture directories or tarballs, "
                            "or directories holding them", "fleet"});
    return;
  }
  Result<Policy> policy = load_policy(o.policy);
  if (!policy) return report_error(ctx, policy.error());

  std::vector<std::filesystem::path> args(o.inputs.begin(), o.inputs.end());
  fleet::Discovery found = fleet::discover_inputs(args);
  if (found.hosts.empty()) {
    std::string why = "no host snapshots or captures found";
    if (!found.problems.empty()) why += " (" + found.problems.front().file + ": " + found.problems.front().reason + ")";
    report_error(ctx, Error{ErrorKind::not_found, why, "fleet"});
    return;
  }

  fleet::Options fo;
  fo.policy = *policy;
  fo.threads = o.threads;
  bool bar = o.progress == "always" || (o.progress == "auto" && ::isatty(2));
  if (bar) {
    fo.progress = [&ctx](std::size_t done, std::size_t total) {
      constexpr std::size_t width = 30;
      std::size_t filled = total ? done * width / total : width;
      ctx.err << "\rrocekit fleet: [" << std::string(filled, '#') << std::string(width - filled, ' ')
              << "] " << done << "/" << total << " hosts" << (done == total ? "\n" : "") << std::flush;
    };
  }
  fleet::FleetReport report = fleet::run_fleet(found, fo);
  if (report.hosts_loaded == 0) {
    std::string why = "no host input could be loaded";
    if (!report.problems.empty()) why += " (" + report.problems.front().file + ": " + report.problems.front().reason + ")";
    report_error(ctx, Error{ErrorKind::malformed_input, why, "fleet"});
    return;
  }
  static const std::map<std::string, fleet::Format> k_formats{
      {"text", fleet::Format::text}, {"json", fleet::Format::json}, {"markdown", fleet::Format::markdown}};
  fleet::RenderOptions ro;
  ro.policy_name = policy->name;
  if (!write_output(ctx, o.output, fleet::render(report, k_formats.at(o.format), ro))) return;
  Severity threshold = severity_from_string(o.fail_on).value_or(Severity::error);
  ctx.exit_code = report.has_problem(threshold) ? ExitCode::findings : ExitCode::ok;
}

}  // namespace

void add_fleet_command(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<FleetOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fleet",
      "Check many hosts (snapshots, captures, tarballs, or directories of them) and compare "
      "their settings across the fleet");
  cmd->add_option("input", opts->inputs,
                  "Snapshot .json, capture directory, capture .tar.gz, or a directory holding many "
                  "of those (see README \"Fleet\")");
  cmd->add_option("-f,--format", opts->format, "Output format: text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  cmd->add_option("-p,--policy", opts->policy, "Policy YAML file (default: built-in profile)");
  cmd->add_option("--fail-on", opts->fail_on,
                  "Exit 1 when a host has a failure of this severity or higher (default error); "
                  "cross-host outliers and unloadable inputs always exit 1")
      ->check(CLI::IsMember({"info", "warning", "error", "critical"}));
  cmd->add_option("-o,--output", opts->output, "Write the report to this file (atomically)");
  cmd->add_option("-j,--threads", opts->threads, "Worker threads (default: hardware concurrency)");
  cmd->add_option("--progress", opts->progress, "Progress bar on stderr: auto (when a TTY), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_flag("--list-rules", opts->list_rules, "Print the fleet rules (docs/rules.md \"Fleet rules\") and exit");
  cmd->callback([opts, &ctx] { run_fleet_command(ctx, *opts); });
}

}  // namespace rk::cli

// rocekit diagnose: two samples of one host (snapshots or captures), or live sysfs sampling,
// -> ranked causes and a per-link rate table (src/rocekit/diagnose/).
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <memory>
#include <thread>

#include "rocekit/cli/commands.hpp"
#include "rocekit/cli/duration.hpp"
#include "rocekit/diagnose/diagnose.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::cli {

namespace {

struct DiagnoseOptions {
  std::vector<std::string> inputs;
  std::optional<double> interval_s;  ///< --interval: live sampling step, or the time between two inputs
  int count = 1;                     ///< live: number of intervals
  std::string root = "/";
  std::string policy;
  std::string format = "text";
  std::string output;
  std::vector<std::string> only;     ///< --rule
  std::string fail_on = "warning";
  LookOptions look;
};

/// 1 when a cause at or above --fail-on exists (info causes are healthy observations, counted only
/// with --fail-on info); 3 when a --rule rule could not be judged on some link, or with --fail-on
/// unknown when anything could not be judged; else 0. Each reason for 3 goes to stderr.
ExitCode diagnose_exit(Context& ctx, const diagnose::Diagnosis& d, const DiagnoseOptions& o) {
  const bool unknown_gate = o.fail_on == "unknown";
  const Severity threshold =
      unknown_gate ? Severity::warning : severity_from_string(o.fail_on).value_or(Severity::warning);
  for (const diagnose::Cause& c : d.causes)
    if (c.severity >= threshold) return ExitCode::findings;
  std::vector<std::string> why;
  if (unknown_gate && !d.unknowns.empty())
    why.push_back(std::to_string(d.unknowns.size()) + " diagnose check(s) could not be judged (--fail-on unknown)");
  else if (!o.only.empty())
    for (const diagnose::Unknown& u : d.unknowns) why.push_back(u.id + " on " + u.subject + ": " + u.reason);
  for (const std::string& w : why) ctx.err << "rocekit: not judged: " << w << "\n";
  return why.empty() ? ExitCode::ok : ExitCode::not_judged;
}

/// Live: count+1 samples of this host's sysfs, --interval apart. False: the error is reported.
bool sample_live(Context& ctx, const DiagnoseOptions& o, std::vector<Snapshot>& samples, double& interval_s) {
  const double step = *o.interval_s;
  if (step < 1 || step > 3600) {
    report_error(ctx, Error{ErrorKind::malformed_input, "live sampling takes an --interval of 1s..1h (e.g. 10s)",
                            "--interval"});
    return false;
  }
  if (o.count < 1 || o.count > 360 || step * o.count > 3600) {
    report_error(ctx, Error{ErrorKind::malformed_input, "--count must be 1..360 and the whole run at most one hour",
                            std::to_string(o.count)});
    return false;
  }
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i <= o.count; ++i) {
    if (i > 0)
      std::this_thread::sleep_until(t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(step * i)));
    Result<Snapshot> s = diagnose::sample_sysfs(o.root);
    if (!s) {
      report_error(ctx, s.error());
      return false;
    }
    samples.push_back(std::move(*s));
  }
  interval_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

void run_diagnose(Context& ctx, const DiagnoseOptions& o) {
  for (const std::string& sel : o.only)
    if (std::optional<std::string> why = rules::selector_error({rules::Family::diagnose}, sel))
      return report_error(ctx, Error{ErrorKind::malformed_input, *why, "--rule"});
  Result<Policy> policy = load_policy(o.policy);
  if (!policy) return report_error(ctx, policy.error());
  std::vector<Snapshot> samples;
  double interval_s = 0;
  std::string interval_source;
  if (o.inputs.empty() && o.interval_s) {
    if (!sample_live(ctx, o, samples, interval_s)) return;
    interval_source = "measured";
  } else {
    if (o.count != 1 || o.root != "/")
      return report_error(ctx, Error{ErrorKind::malformed_input,
                                     "--count and --root are for live sampling (--interval without inputs)",
                                     "diagnose"});
    if (o.inputs.size() != 2)
      return report_error(ctx, Error{ErrorKind::malformed_input,
                                     "give BEFORE and AFTER (snapshot .json, capture directory or "
                                     ".tar.gz), or --interval 10s for live sampling",
                                     "diagnose"});
    for (const std::string& in : o.inputs) {
      Result<Snapshot> s = load_input(in);
      if (!s) return report_error(ctx, s.error());
      if (!diagnose::has_counters(*s))
        return report_error(ctx, Error{ErrorKind::malformed_input,
                                       "no counters in this sample (need ethtool -S, hw_counters, "
                                       "show_counters or rdma statistic output)",
                                       in});
      samples.push_back(std::move(*s));
    }
    interval_s = o.interval_s.value_or(0);
    interval_source = "--interval";
  }
  Result<diagnose::Window> w = diagnose::build_window(samples, interval_s, interval_source);
  if (!w) return report_error(ctx, w.error());
  if (w->links.empty())
    return report_error(ctx, Error{ErrorKind::malformed_input,
                                   "no counters in the inputs (need ethtool -S, hw_counters, "
                                   "show_counters or rdma statistic output)",
                                   o.inputs.empty() ? o.root : o.inputs.front()});
  diagnose::Diagnosis d = diagnose::diagnose(*w, *policy);
  diagnose::keep_rules(d, o.only);
  static const std::map<std::string, diagnose::Format> k_formats{
      {"text", diagnose::Format::text}, {"json", diagnose::Format::json},
      {"markdown", diagnose::Format::markdown}};
  diagnose::RenderOptions ro;
  ro.quiet = o.look.quiet;
  ro.color = use_color(o.look, o.output);
  if (!write_output(ctx, o.output, diagnose::render(d, k_formats.at(o.format), ro))) return;
  ctx.exit_code = diagnose_exit(ctx, d, o);
}

}  // namespace

void add_diagnose_command(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<DiagnoseOptions>();
  CLI::App* cmd = app.add_subcommand(
      "diagnose",
      "Counter deltas between two samples of one host -> causes (PFC/ECN misalignment, lossy "
      "RoCE, discards, pause storms)");
  cmd->add_option("inputs", opts->inputs,
                  "BEFORE AFTER: snapshot .json, capture directory or .tar.gz of the same host");
  add_duration_option(*cmd, "--interval", opts->interval_s,
                      "Without inputs: sample this host's sysfs counters live every DURATION (1s to 1h). "
                      "With BEFORE AFTER: the time between them (default: from their collected_at)",
                      0.001, 31536000);
  cmd->add_option("--count", opts->count, "Live: number of intervals (default 1)");
  cmd->add_option("--root", opts->root, "Live: read sys/class/... under this directory (default /)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("-p,--policy", opts->policy, "Policy YAML file (RoCE priority, PFC, CNP)");
  cmd->add_option("-f,--format", opts->format, "Output format: text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  cmd->add_option("-o,--output", opts->output, "Write the report to this file (atomically)");
  cmd->add_option("--rule", opts->only,
                  "Only these diagnose rule ids (diag.pause-storm, ...) or the area diag (repeatable); a "
                  "selected one that could not be judged exits 3");
  cmd->add_option("--fail-on", opts->fail_on,
                  "Exit 1 when a cause of this severity or higher exists (default warning); 'unknown': "
                  "otherwise exit 3 when any check could not be judged")
      ->check(CLI::IsMember({"info", "warning", "error", "critical", "unknown"}));
  add_look_options(*cmd, opts->look,
                   "Text and Markdown: leave healthy observations (info causes) and the counter table out");
  document_exit_codes(*cmd, {{ExitCode::ok, "no cause at or above --fail-on"},
       {ExitCode::findings, "a cause at or above --fail-on"},
       {ExitCode::usage, "usage or input error (the message on stderr names the file and line)"},
       {ExitCode::not_judged, "a --rule rule could not be judged on some link, or --fail-on unknown and anything could not be judged; each reason on stderr"}});
  cmd->callback([opts, &ctx] { run_diagnose(ctx, *opts); });
}

}  // namespace rk::cli

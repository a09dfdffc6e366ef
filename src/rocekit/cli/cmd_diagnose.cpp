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
#include "rocekit/diagnose/diagnose.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::cli {

namespace {

struct DiagnoseOptions {
  std::vector<std::string> inputs;
  std::string interval_seconds;  ///< --interval-seconds for two inputs without collected_at
  std::string interval;         ///< live: "10s", "10", "2m"
  int count = 1;                ///< live: number of intervals
  std::string sysroot = "/";
  std::string policy;
  std::string format = "text";
  std::string output;
};

/// The number at the start of `s` (std::stod) and where it ends; nullopt when there is none.
std::optional<std::pair<double, std::size_t>> leading_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  std::size_t used = 0;
  try {
    double v = std::stod(s, &used);
    return std::make_pair(v, used);
  } catch (...) {
    return std::nullopt;
  }
}

/// "10s", "10", "2m" -> seconds; nullopt when malformed.
std::optional<double> parse_duration_s(const std::string& s) {
  std::optional<std::pair<double, std::size_t>> n = leading_number(s);
  if (!n) return std::nullopt;
  auto [v, used] = *n;
  std::string unit = s.substr(used);
  if (unit.empty() || unit == "s") return v;
  if (unit == "m") return v * 60;
  if (unit == "ms") return v / 1000;
  return std::nullopt;
}

/// --interval-seconds: a finite number of seconds in [0.001, 31536000] (one year); nullopt
/// otherwise ("nan", "inf", "0", "1e308", "10s").
std::optional<double> parse_interval_seconds(const std::string& s) {
  std::optional<std::pair<double, std::size_t>> n = leading_number(s);
  if (!n) return std::nullopt;
  auto [v, used] = *n;
  if (used != s.size() || !std::isfinite(v) || v < 0.001 || v > 31536000.0) return std::nullopt;
  return v;
}

void run_diagnose(Context& ctx, const DiagnoseOptions& o) {
  Result<Policy> policy = load_policy(o.policy);
  if (!policy) return report_error(ctx, policy.error());
  std::vector<Snapshot> samples;
  double interval_s = 0;
  std::string interval_source;
  std::optional<double> interval_flag;
  if (!o.interval_seconds.empty()) {
    interval_flag = parse_interval_seconds(o.interval_seconds);
    if (!interval_flag)
      return report_error(ctx, Error{ErrorKind::malformed_input,
                                     "--interval-seconds must be between 0.001 and 31536000 seconds",
                                     o.interval_seconds});
  }
  if (!o.interval.empty()) {
    if (interval_flag)
      return report_error(ctx, Error{ErrorKind::malformed_input,
                                     "--interval-seconds is for two inputs; live sampling measures "
                                     "its interval",
                                     "diagnose"});
    if (!o.inputs.empty())
      return report_error(ctx, Error{ErrorKind::malformed_input,
                                     "give either two inputs or --interval (live), not both",
                                     "diagnose"});
    std::optional<double> step = parse_duration_s(o.interval);
    if (!step || *step < 1 || *step > 3600)
      return report_error(ctx, Error{ErrorKind::malformed_input,
                                     "--interval must be 1s..3600s (e.g. 10s)", o.interval});
    if (o.count < 1 || o.count > 360 || *step * o.count > 3600)
      return report_error(ctx, Error{ErrorKind::malformed_input,
                                     "--count must be 1..360 and the whole run at most one hour",
                                     std::to_string(o.count)});
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i <= o.count; ++i) {
      if (i > 0)
        std::this_thread::sleep_until(
            t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(*step * i)));
      Result<Snapshot> s = diagnose::sample_sysfs(o.sysroot);
      if (!s) return report_error(ctx, s.error());
      samples.push_back(std::move(*s));
    }
    interval_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    interval_source = "measured";
  } else {
    if (o.count != 1 || o.sysroot != "/")
      return report_error(ctx, Error{ErrorKind::malformed_input,
                                     "--count and --sysroot need --interval (live sampling)",
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
    interval_s = interval_flag.value_or(0);
    interval_source = "--interval-seconds";
  }
  Result<diagnose::Window> w = diagnose::build_window(samples, interval_s, interval_source);
  if (!w) return report_error(ctx, w.error());
  if (w->links.empty())
    return report_error(ctx, Error{ErrorKind::malformed_input,
                                   "no counters in the inputs (need ethtool -S, hw_counters, "
                                   "show_counters or rdma statistic output)",
                                   o.inputs.empty() ? o.sysroot : o.inputs.front()});
  diagnose::Diagnosis d = diagnose::diagnose(*w, *policy);
  static const std::map<std::string, diagnose::Format> k_formats{
      {"text", diagnose::Format::text}, {"json", diagnose::Format::json},
      {"markdown", diagnose::Format::markdown}};
  if (!write_output(ctx, o.output, diagnose::render(d, k_formats.at(o.format)))) return;
  ctx.exit_code = d.has_fault() ? ExitCode::findings : ExitCode::ok;
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
  cmd->add_option("--interval-seconds", opts->interval_seconds,
                  "Seconds between BEFORE and AFTER, 0.001..31536000 (default: from their "
                  "collected_at)");
  cmd->add_option("--interval", opts->interval,
                  "Live: sample this host's sysfs counters every DURATION (e.g. 10s)");
  cmd->add_option("--count", opts->count, "Live: number of intervals (default 1)");
  cmd->add_option("--sysroot", opts->sysroot, "Live: read sys/class/... under this directory")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("-p,--policy", opts->policy, "Policy YAML file (RoCE priority, PFC, CNP)");
  cmd->add_option("-f,--format", opts->format, "Output format: text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  cmd->add_option("-o,--output", opts->output, "Write the report to this file (atomically)");
  cmd->callback([opts, &ctx] { run_diagnose(ctx, *opts); });
}

}  // namespace rk::cli

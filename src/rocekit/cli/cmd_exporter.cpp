// `rocekit exporter`: Prometheus metrics of this host (or a fixture tree) over HTTP
// (--listen) or as a node_exporter textfile (--textfile DIR, one-shot or every --interval).
// SIGTERM/SIGINT stop it cleanly (exit 0).
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <regex>
#include <thread>

#include "rocekit/cli/commands.hpp"
#include "rocekit/cli/duration.hpp"
#include "rocekit/exporter/exporter.hpp"
#include "rocekit/exporter/server.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::cli {

namespace {

struct ExporterOpts {
  std::string listen = "127.0.0.1:9857";
  std::string textfile;
  std::optional<double> interval_s;        ///< --interval (with --textfile); not given: write once
  std::string root = "/";
  std::string include;
  std::string exclude;
  std::string policy;
  std::optional<double> state_interval_s;  ///< --state-interval; default 60 s
  bool kernel_queries = false;
  std::string ethtool_stats_dir;
};

bool compile_regex(Context& ctx, const std::string& flag, const std::string& text,
                   std::optional<std::regex>& out) {
  if (text.empty()) return true;
  try {
    out.emplace(text, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    report_error(ctx, Error{ErrorKind::malformed_input, std::string("invalid regex: ") + e.what(), flag + " " + text});
    return false;
  }
  return true;
}

constexpr double k_max_interval_s = 31536000;

/// The exporter holds one descriptor per RDMA counter file between scrapes (and one per HTTP
/// connection): raise the soft RLIMIT_NOFILE to the hard limit, best effort, in both modes.
void raise_nofile_limit() {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur >= lim.rlim_max) return;
  lim.rlim_cur = lim.rlim_max;
  (void)::setrlimit(RLIMIT_NOFILE, &lim);
}

/// Blocks SIGINT/SIGTERM in this thread and every thread it starts later; they are taken with
/// sigwait/sigtimedwait instead of a handler.
sigset_t block_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

void run_exporter(Context& ctx, const ExporterOpts& o) {
  std::error_code ec;
  if (!std::filesystem::is_directory(o.root, ec)) {
    report_error(ctx, Error{ErrorKind::not_found, "not a directory", o.root});
    return;
  }
  exporter::ExporterOptions eo;
  eo.root = o.root;
  eo.kernel_ioctls = o.kernel_queries || std::filesystem::canonical(o.root, ec) == "/";
  eo.version = std::string(version());
  eo.state_interval_s = o.state_interval_s.value_or(60);
  if (!o.ethtool_stats_dir.empty() && !std::filesystem::is_directory(o.ethtool_stats_dir, ec)) {
    report_error(ctx, Error{ErrorKind::not_found, "not a directory", o.ethtool_stats_dir});
    return;
  }
  eo.ethtool_stats_dir = o.ethtool_stats_dir;
  if (!compile_regex(ctx, "--include-device", o.include, eo.include_devices) ||
      !compile_regex(ctx, "--exclude-device", o.exclude, eo.exclude_devices))
    return;
  Result<Policy> pol = load_policy(o.policy);
  if (!pol) {
    report_error(ctx, pol.error());
    return;
  }
  eo.policy = *pol;
  if (o.interval_s.value_or(0) > 0 && o.textfile.empty()) {
    report_error(ctx, Error{ErrorKind::malformed_input, "only with --textfile (an HTTP exporter is scraped, it does not repeat)",
                            "--interval"});
    return;
  }
  raise_nofile_limit();
  // One malloc arena: the HTTP event-loop thread's allocations are small and short-lived, and
  // an arena of its own would only add resident memory.
  mallopt(M_ARENA_MAX, 1);
  // A fixed mmap threshold: exposition strings and response buffers over 1 MiB (hosts with many
  // devices) are mapped and unmapped, not left on the heap after a burst (glibc's dynamic
  // threshold would grow to them and keep the memory).
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  sigset_t stop_set = block_stop_signals();
  exporter::Exporter ex(std::move(eo));
  // A filter that leaves no device to read would serve only the state metrics, silently.
  if (!o.include.empty() || !o.exclude.empty()) {
    std::filesystem::path ib = std::filesystem::path(o.root) / "sys/class/infiniband";
    std::size_t listed = 0, kept = 0;
    std::filesystem::directory_iterator it(ib, ec), end;
    for (; !ec && it != end; it.increment(ec)) {  // the non-throwing increment
      ++listed;
      kept += ex.included(it->path().filename().string()) ? 1 : 0;
    }
    if (listed > 0 && kept == 0)
      ctx.err << "rocekit: warning: --include-device/--exclude-device leave none of the " << listed
              << " RDMA devices under " << ib.string() << " to read\n";
  }

  if (!o.textfile.empty()) {
    exporter::remove_stale_textfile_temps(o.textfile);
    for (;;) {
      if (std::optional<exporter::WriteError> w = exporter::write_textfile(o.textfile, ex.scrape())) {
        report_error(ctx, Error{ErrorKind::io, w->message, w->path});
        return;
      }
      const double every = o.interval_s.value_or(0);
      if (every <= 0) break;
      timespec ts{static_cast<time_t>(every), static_cast<long>((every - std::floor(every)) * 1e9)};
      if (sigtimedwait(&stop_set, nullptr, &ts) > 0) break;  // SIGTERM/SIGINT: stop cleanly
    }
    ctx.exit_code = ExitCode::ok;
    return;
  }

  Result<std::pair<std::string, int>> addr = exporter::parse_listen_address(o.listen);
  if (!addr) {
    report_error(ctx, addr.error());
    return;
  }
  exporter::ServerOptions so;
  so.host = addr->first;
  so.port = addr->second;
  exporter::Server server(ex, so);
  if (Result<int> b = server.bind(); !b) {
    report_error(ctx, b.error());
    return;
  }
  ctx.err << "rocekit: exporter listening on " << o.listen << " (/metrics)\n";
  ctx.err.flush();
  std::thread serving([&server] { server.run(); });
  int sig = 0;
  sigwait(&stop_set, &sig);
  server.stop();
  serving.join();
  ctx.exit_code = ExitCode::ok;
}

}  // namespace

void add_exporter_command(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<ExporterOpts>();
  CLI::App* cmd = app.add_subcommand(
      "exporter", "Serve RoCE counters, link/PCIe/QoS state and rule outcomes as Prometheus metrics");
  cmd->add_option("--listen", o->listen, "HTTP address ADDR:PORT serving /metrics (default 127.0.0.1:9857)");
  cmd->add_option("--textfile", o->textfile,
                  "Write DIR/rocekit.prom atomically for node_exporter's textfile collector instead "
                  "of serving HTTP");
  add_duration_option(*cmd, "--interval", o->interval_s,
                      "With --textfile: rewrite every DURATION until SIGTERM (default: once)", 0, k_max_interval_s);
  cmd->add_option("--root", o->root, "Read /sys under this directory (a fixture tree; default /)");
  cmd->add_flag("--kernel-queries", o->kernel_queries,
                "With --root: still query this kernel (ethtool -S, dcbnl), for a container that "
                "mounts the host's /sys under --root and shares its network namespace");
  cmd->add_option("--ethtool-stats-dir", o->ethtool_stats_dir,
                  "Read `ethtool -S` per netdev from DIR/ethtool_S@<netdev>.txt (a capture) instead "
                  "of the ioctl, on every scrape");
  cmd->add_option("--include-device", o->include, "Only RDMA devices whose name matches this regex");
  cmd->add_option("--exclude-device", o->exclude,
                  "Skip RDMA devices whose name matches this regex (e.g. firmware-restricted PFs)");
  cmd->add_option("-p,--policy", o->policy, "Policy file (default: the built-in profile)");
  add_duration_option(*cmd, "--state-interval", o->state_interval_s,
                      "Time between refreshes of the configuration state and rule outcomes "
                      "(default 1m; counters are read on every scrape)",
                      0, k_max_interval_s);
  cmd->set_version_flag("--version", std::string(version()));
  cmd->callback([o, &ctx] { run_exporter(ctx, *o); });
}

}  // namespace rk::cli

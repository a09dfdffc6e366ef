// Benchmark: collect_snapshot over a fixture sysroot vs. two floors:
//   floor 1 (the issue's): a loop that only opens and reads the same files (the paths HostView
//           traced during one collection), nothing else;
//   floor 2: floor 1 plus the other filesystem calls the collection made, replayed bare
//           (opendir+readdir of each listed directory, readlink, stat, realpath).
// The three loops run interleaved in rounds, so load from other processes hits them alike; the
// figure per loop is the best round (least disturbed) and the median round, in CPU time of this
// thread (user + system: what the loop itself costs, not the time spent waiting for a CPU on a
// shared machine) and in wall time.
// The collection runs with the CLI's SystemRunner (the real posix_spawn runner) and
// nv_config = false: the runner's started() count must stay 0 (no process spawned).
// Usage: rk_collect_bench SYSROOT [RUNS_PER_ROUND] [ROUNDS]   (bench/run.sh: every fixture tree)
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "rocekit/collect/collect.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::size_t read_files(const std::vector<std::string>& paths) {
  static char buf[65536];
  std::size_t sink = 0;
  for (const std::string& p : paths) {
    int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ssize_t n = ::read(fd, buf, sizeof buf);
    sink += n > 0 ? static_cast<std::size_t>(n) : 0;
    ::close(fd);
  }
  return sink;
}

std::size_t other_ops(const std::vector<std::pair<char, std::string>>& ops) {
  std::size_t sink = 0;
  char buf[PATH_MAX];
  struct stat st;
  for (const auto& [kind, p] : ops) {
    switch (kind) {
      case 'l':
        if (DIR* d = ::opendir(p.c_str())) {
          while (::readdir(d) != nullptr) ++sink;
          ::closedir(d);
        }
        break;
      case 'k': {
        ssize_t n = ::readlink(p.c_str(), buf, sizeof buf);
        sink += n > 0 ? static_cast<std::size_t>(n) : 0;
        break;
      }
      case 's': sink += ::stat(p.c_str(), &st) == 0 ? 1 : 0; break;
      case 'c': sink += ::realpath(p.c_str(), buf) != nullptr ? 1 : 0; break;
      default: break;
    }
  }
  return sink;
}

double us_per_run(Clock::time_point a, Clock::time_point b, int runs) {
  return std::chrono::duration<double, std::micro>(b - a).count() / runs;
}

/// This thread's CPU time (user + system) in microseconds.
double cpu_us() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SYSROOT [RUNS_PER_ROUND] [ROUNDS]\n", argv[0]);
    return 2;
  }
  int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
  int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 20;
  rk::collect::HostView host(argv[1]);
  // Collecting this host ("/"): also the read-only ioctls and dcbnl queries live collection makes.
  rk::collect::CollectRequest req;
  std::error_code ec;
  req.kernel_ioctls = std::filesystem::canonical(argv[1], ec) == "/";
  req.nv_config = false;
  rk::collect::SystemRunner runner({"/usr/bin", "/usr/sbin", "/bin", "/sbin"});
  std::vector<std::string> paths;
  std::vector<std::pair<char, std::string>> ops;
  host.set_trace(&paths);
  host.set_op_trace(&ops);
  rk::Snapshot first = rk::collect::collect_snapshot(req, host, runner);
  host.set_trace(nullptr);
  host.set_op_trace(nullptr);
  std::size_t sink = first.netdevs.size();
  std::vector<double> collect_us, floor1_us, floor2_us, collect_cpu, floor1_cpu, floor2_cpu;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = Clock::now();
    double c0 = cpu_us();
    for (int i = 0; i < runs; ++i) sink += rk::collect::collect_snapshot(req, host, runner).rdma_devices.size();
    auto t1 = Clock::now();
    double c1 = cpu_us();
    for (int i = 0; i < runs; ++i) sink += read_files(paths);
    auto t2 = Clock::now();
    double c2 = cpu_us();
    for (int i = 0; i < runs; ++i) sink += read_files(paths) + other_ops(ops);
    auto t3 = Clock::now();
    double c3 = cpu_us();
    collect_us.push_back(us_per_run(t0, t1, runs));
    floor1_us.push_back(us_per_run(t1, t2, runs));
    floor2_us.push_back(us_per_run(t2, t3, runs));
    collect_cpu.push_back((c1 - c0) / runs);
    floor1_cpu.push_back((c2 - c1) / runs);
    floor2_cpu.push_back((c3 - c2) / runs);
  }
  std::size_t kinds[4] = {0, 0, 0, 0};
  for (const auto& [k, p] : ops) ++kinds[k == 'l' ? 0 : k == 'k' ? 1 : k == 's' ? 2 : 3];
  std::printf("sysroot %s: %zu files read; %zu dir listings, %zu readlink, %zu stat, %zu realpath per collection\n",
              argv[1], paths.size(), kinds[0], kinds[1], kinds[2], kinds[3]);
  auto line = [&](const char* what, const std::vector<double>& c, const std::vector<double>& f1,
                  const std::vector<double>& f2, double (*pick)(std::vector<double>)) {
    double a = pick(c), b = pick(f1), d = pick(f2);
    std::printf("  %-22s collect %6.0f us | open+read floor %6.0f us, ratio %.2f | with listings/links %6.0f us, ratio %.2f\n",
                what, a, b, a / b, d, a / d);
  };
  auto best = [](std::vector<double> v) { return *std::min_element(v.begin(), v.end()); };
  std::printf("  %d rounds x %d runs\n", rounds, runs);
  line("CPU, best round:", collect_cpu, floor1_cpu, floor2_cpu, best);
  line("CPU, median round:", collect_cpu, floor1_cpu, floor2_cpu, median);
  line("wall, best round:", collect_us, floor1_us, floor2_us, best);
  line("wall, median round:", collect_us, floor1_us, floor2_us, median);
  std::printf("  processes started: %d (sink %zu)\n", runner.started(), sink % 10);
  return runner.started() == 0 ? 0 : 1;
}

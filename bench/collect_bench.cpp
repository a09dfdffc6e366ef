// Benchmark: collect_snapshot over a fixture sysroot vs. a floor loop that only opens and reads
// the same files (the paths HostView traced during one collection). Prints both per-run times,
// their ratio and the number of processes started (must be 0: no vendor tool asked for).
// Usage: rk_collect_bench SYSROOT [RUNS]   (bench/run.sh runs it over the fixture trees)
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "rocekit/collect/collect.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SYSROOT [RUNS]\n", argv[0]);
    return 2;
  }
  int runs = argc > 2 ? std::atoi(argv[2]) : 200;
  rk::collect::HostView host(argv[1]);
  // Collecting this host ("/"): also the read-only ioctls and dcbnl queries live collection makes.
  rk::collect::CollectRequest req;
  std::error_code ec;
  req.kernel_ioctls = std::filesystem::canonical(argv[1], ec) == "/";
  rk::collect::NoToolsRunner runner("vendor tools not requested");
  std::vector<std::string> paths;
  host.set_trace(&paths);
  rk::Snapshot first = rk::collect::collect_snapshot(req, host, runner);
  host.set_trace(nullptr);
  using clock = std::chrono::steady_clock;
  std::size_t sink = first.netdevs.size();
  auto t0 = clock::now();
  for (int i = 0; i < runs; ++i) sink += rk::collect::collect_snapshot(req, host, runner).rdma_devices.size();
  auto t1 = clock::now();
  char buf[65536];
  for (int i = 0; i < runs; ++i)
    for (const std::string& p : paths) {
      int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      ssize_t n = ::read(fd, buf, sizeof buf);
      sink += n > 0 ? static_cast<std::size_t>(n) : 0;
      ::close(fd);
    }
  auto t2 = clock::now();
  double collect_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / runs;
  double floor_us = std::chrono::duration<double, std::micro>(t2 - t1).count() / runs;
  std::printf("sysroot %s: %zu files read per collection\n", argv[1], paths.size());
  std::printf("collect_snapshot: %.0f us/run; open+read floor: %.0f us/run; ratio %.2f; processes started: %d (sink %zu)\n",
              collect_us, floor_us, collect_us / floor_us, runner.started(), sink % 10);
  return runner.started() == 0 ? 0 : 1;
}

// The floor for `rocekit fleet`: read and JSON-parse (nlohmann, to a DOM) every *.json of a
// directory, on THREADS threads like `fleet`, and nothing else. Prints files, bytes, seconds and
// peak RSS (getrusage).
// Usage: rk_fleet_floor DIR [THREADS=hardware_concurrency]
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [THREADS]\n", argv[0]);
    return 2;
  }
  unsigned threads = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : std::thread::hardware_concurrency();
  threads = std::max(1u, threads);
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(argv[1]))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::atomic<std::size_t> next{0}, bytes{0}, keys{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
      std::ifstream in(files[i], std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      std::string text = ss.str();
      bytes += text.size();
      nlohmann::json j = nlohmann::json::parse(text);
      keys += j.size();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("floor: %zu files, %.1f MB, %.2f s (%u threads), peak RSS %.0f MiB\n", files.size(),
              static_cast<double>(bytes.load()) / 1e6, secs, threads, static_cast<double>(ru.ru_maxrss) / 1024.0);
  return keys.load() ? 0 : 1;
}

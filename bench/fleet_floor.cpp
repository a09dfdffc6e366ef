// The floors for `rocekit fleet` (bench/fleet_bench.sh): every *.json of a directory on THREADS
// threads like `fleet`, three passes: only read the files; read and parse them with nlohmann
// (to a DOM, as `fleet` did before the simdjson reader); read and parse them with simdjson's DOM
// parser (what `fleet` does now, before converting to the typed snapshot). Prints files, bytes,
// seconds per pass and the peak RSS (getrusage).
// Usage: rk_fleet_floor DIR [THREADS=hardware_concurrency]
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <simdjson.h>

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary | std::ios::ate);
  std::string text(static_cast<std::size_t>(std::max<std::streamoff>(in.tellg(), 0)), '\0');
  in.seekg(0);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR [THREADS]\n", argv[0]);
    return 2;
  }
  unsigned threads = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : std::thread::hardware_concurrency();
  threads = std::max(1u, threads);
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(argv[1]))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  bool ok = true;
  auto pass = [&](const char* name, const std::function<std::size_t(const std::string&)>& work) {
    auto t0 = std::chrono::steady_clock::now();
    std::atomic<std::size_t> next{0}, bytes{0}, items{0};
    auto run = [&] {
      for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
        const std::string text = read_file(files[i]);
        bytes += text.size();
        items += work(text);
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(run);
    for (auto& t : pool) t.join();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("floor %-16s %zu files, %.1f MB, %.2f s (%u threads)\n", name, files.size(),
                static_cast<double>(bytes.load()) / 1e6, secs, threads);
    ok = ok && items.load() > 0;
  };
  pass("read:", [](const std::string& t) { return t.empty() ? 0 : 1; });
  pass("nlohmann DOM:", [](const std::string& t) { return nlohmann::json::parse(t).size(); });
  pass("simdjson DOM:", [](const std::string& t) {
    thread_local simdjson::dom::parser parser;
    simdjson::dom::object o;
    return parser.parse(t).get_object().get(o) ? std::size_t{0} : o.size();
  });
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("floor peak RSS %.0f MiB\n", static_cast<double>(ru.ru_maxrss) / 1024.0);
  return ok ? 0 : 1;
}

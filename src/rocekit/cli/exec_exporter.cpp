// `rocekit exporter ARGS` runs `rocekit-exporter ARGS`, the exporter's own executable, found beside
// this one (else on PATH). The exporter is a long-running process: as its own executable it maps only the
// libraries it uses (no libarchive, SQLite or their dependencies), which halves its resident
// memory (README "rocekit exporter").
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "rocekit/cli/commands.hpp"

namespace rk::cli {

int exec_exporter(int argc, char** argv) {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::filesystem::path dir = ec ? std::filesystem::path(argv[0]).parent_path() : self.parent_path();
  std::string path = dir.empty() ? std::string("rocekit-exporter") : (dir / "rocekit-exporter").string();
  std::vector<char*> args;
  args.push_back(path.data());
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  if (!dir.empty()) {
    ::execv(path.c_str(), args.data());
    if (errno != ENOENT) {
      std::cerr << "rocekit: error: " << path << ": " << std::strerror(errno) << "\n";
      return static_cast<int>(ExitCode::usage);
    }
  }
  // Not beside rocekit (or where rocekit is cannot be told): the one on PATH.
  std::string beside = path;
  path = "rocekit-exporter";
  args[0] = path.data();
  ::execvp(path.c_str(), args.data());
  std::cerr << "rocekit: error: cannot run rocekit-exporter (" << std::strerror(errno) << "): not at " << beside
            << " nor on PATH; `rocekit exporter` runs that executable, built and installed beside rocekit\n";
  return static_cast<int>(ExitCode::usage);
}

void add_exporter_stub(CLI::App& app) {
  // Listed in `rocekit --help`; main() hands `rocekit exporter ...` to exec_exporter before parsing.
  app.add_subcommand("exporter",
                     "Serve RoCE counters, link/PCIe/QoS state and rule outcomes as Prometheus metrics "
                     "(runs rocekit-exporter)");
}

}  // namespace rk::cli

// `rocekit exporter ARGS` runs `rocekit-exporter ARGS`, the exporter's own executable, found beside
// this one. The exporter is a long-running process: as its own executable it maps only the
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
  if (dir.empty())
    ::execvp(path.c_str(), args.data());  // rocekit itself was found through PATH
  else
    ::execv(path.c_str(), args.data());
  std::cerr << "rocekit: error: " << path << ": " << std::strerror(errno)
            << " (`rocekit exporter` runs the rocekit-exporter executable, built and installed beside rocekit)\n";
  return static_cast<int>(ExitCode::usage);
}

void add_exporter_stub(CLI::App& app) {
  // Listed in `rocekit --help`; main() hands `rocekit exporter ...` to exec_exporter before parsing.
  app.add_subcommand("exporter",
                     "Serve RoCE counters, link/PCIe/QoS state and rule outcomes as Prometheus metrics "
                     "(runs rocekit-exporter)");
}

}  // namespace rk::cli

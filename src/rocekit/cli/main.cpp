// rocekit: check RoCE GPU-cluster hosts against a policy. The command tree is app.cpp; each
// subcommand lives in its own cmd_*.cpp.
#include <iostream>
#include <string_view>

#include <CLI/CLI.hpp>

#include "rocekit/cli/app.hpp"
#include "rocekit/cli/commands.hpp"

int main(int argc, char** argv) {
  using rk::cli::ExitCode;
  // The exporter is its own executable (exec_exporter.cpp); no other global option precedes it.
  if (argc >= 2 && std::string_view(argv[1]) == "exporter") return rk::cli::exec_exporter(argc, argv);
  CLI::App app;
  rk::cli::Context ctx{std::cout, std::cerr, ExitCode::ok};
  rk::cli::build_rocekit_app(app, ctx);
  return rk::cli::run_app(app, argc, argv, ctx);
}

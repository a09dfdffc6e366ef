// rocekit-exporter: `rocekit exporter` as its own executable (rocekit execs it, exec_exporter.cpp),
// so that the long-running exporter maps only the libraries it uses.
// `rocekit-exporter ARGS` is `rocekit exporter ARGS`: same options, help and exit codes.
#include <iostream>
#include <vector>

#include <CLI/CLI.hpp>

#include "rocekit/cli/app.hpp"
#include "rocekit/cli/commands.hpp"
#include "rocekit/version.hpp"

int main(int argc, char** argv) {
  using rk::cli::ExitCode;
  CLI::App app{std::string(rk::cli::k_rocekit_summary), "rocekit"};
  app.set_version_flag("--version", std::string(rk::version()));
  app.require_subcommand(1);
  rk::cli::Context ctx{std::cout, std::cerr, ExitCode::ok};
  rk::cli::add_exporter_command(app, ctx);
  // Parse as `rocekit exporter ARGS`.
  std::vector<char*> args;
  args.push_back(argv[0]);
  std::string sub = "exporter";
  args.push_back(sub.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  return rk::cli::run_app(app, static_cast<int>(args.size()), args.data(), ctx);
}

// rocekit: check RoCE GPU-cluster hosts against a policy. This file is the table of contents;
// each subcommand lives in its own cmd_*.cpp.
#include <iostream>
#include <string_view>

#include <CLI/CLI.hpp>

#include "rocekit/cli/commands.hpp"
#include "rocekit/pipeline.hpp"

int main(int argc, char** argv) {
  using rk::cli::ExitCode;
  // The exporter is its own executable (exec_exporter.cpp); no other global option precedes it.
  if (argc >= 2 && std::string_view(argv[1]) == "exporter") return rk::cli::exec_exporter(argc, argv);
  CLI::App app{"rocekit: audit RoCE/RDMA hosts (ConnectX NICs, BlueField DPUs) against a policy"};
  app.set_version_flag("--version", std::string(rk::version()));
  app.require_subcommand(1);
  rk::cli::Context ctx{std::cout, std::cerr, ExitCode::ok};
  rk::cli::add_check_command(app, ctx);
  rk::cli::add_snapshot_command(app, ctx);
  rk::cli::add_rules_command(app, ctx);
  rk::cli::add_policy_command(app, ctx);
  rk::cli::add_parse_command(app, ctx);
  rk::cli::add_diagnose_command(app, ctx);
  rk::cli::add_collect_command(app, ctx);
  rk::cli::add_select_command(app, ctx);
  rk::cli::add_plan_command(app, ctx);
  rk::cli::add_apply_command(app, ctx);
  rk::cli::add_exporter_stub(app);
  rk::cli::add_switch_command(app, ctx);
  rk::cli::add_fleet_command(app, ctx);
  return rk::cli::run_app(app, argc, argv, ctx);
}

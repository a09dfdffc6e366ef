// The command tree of rocekit (app.cpp); rocekit-exporter's is exporter_main.cpp.
#pragma once

#include <string_view>

#include <CLI/CLI.hpp>

#include "rocekit/cli/commands.hpp"

namespace rk::cli {

/// One line saying what rocekit is (the top-level help and the man page's NAME).
inline constexpr std::string_view k_rocekit_summary =
    "rocekit: audit RoCE/RDMA hosts (ConnectX NICs, BlueField DPUs) against a policy";

/// Every `rocekit` subcommand. `exporter` is the stub that execs rocekit-exporter unless
/// `with_exporter` (rocekit-docgen, which links the real one) leaves it out.
void build_rocekit_app(CLI::App& app, Context& ctx, bool with_exporter = false);

}  // namespace rk::cli

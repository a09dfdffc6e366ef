// The command tree of `rocekit`, built in one place: the executable parses with it and
// rocekit-docgen renders the man pages and bash completion from it (with the real exporter
// command in place of the stub), so the documentation cannot drift from the options.
#include "rocekit/cli/app.hpp"

#include "rocekit/cli/commands.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::cli {

void build_rocekit_app(CLI::App& app, Context& ctx, bool with_exporter) {
  app.name("rocekit");
  app.description(std::string(k_rocekit_summary));
  app.set_version_flag("--version", std::string(rk::version()));
  app.require_subcommand(1);
  document_exit_codes(app, {{ExitCode::ok, "done; a reporting command (check, diagnose, fleet, switch check): healthy"},
                            {ExitCode::findings, "a reporting command found failures (plan: actions planned); see each command's page"},
                            {ExitCode::usage, "usage or input error (the message on stderr names the file and line)"},
                            {ExitCode::not_judged, "a reporting command could not call the input healthy: something was not judged"}});
  add_check_command(app, ctx);
  add_snapshot_command(app, ctx);
  add_rules_command(app, ctx);
  add_policy_command(app, ctx);
  add_parse_command(app, ctx);
  add_diagnose_command(app, ctx);
  add_collect_command(app, ctx);
  add_select_command(app, ctx);
  add_plan_command(app, ctx);
  add_apply_command(app, ctx);
  if (!with_exporter) add_exporter_stub(app);
  add_switch_command(app, ctx);
  add_fleet_command(app, ctx);
}

}  // namespace rk::cli

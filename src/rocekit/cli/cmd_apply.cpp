// rocekit apply: run a plan on this host (src/rocekit/plan/apply.hpp). Shows the plan, asks
// unless --yes, locks, saves previous values, stops at the first failure; --rollback restores.
// Refuses (exit 2, nothing written) a plan of another host unless --force, and a step that
// disrupts traffic (link flap, queue restart) unless --allow-disruption.
// Exit 0: applied (or nothing to do, or dry run); 1: a step failed; 2: usage, input, lock error
// or a refusal.
#include <iostream>
#include <memory>
#include <optional>

#include "rocekit/cli/commands.hpp"
#include "rocekit/cli/duration.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/plan/apply.hpp"

namespace rk::cli {

namespace {

struct ApplyCliOptions {
  std::string input;
  std::string root = "/";
  std::string policy;
  std::string mlxconfig_db{plan::k_default_mlxconfig_db};
  std::string state = "/var/lib/rocekit/apply-state.json";
  std::string rollback;
  std::string lock = "/run/rocekit.lock";
  bool yes = false;
  bool dry_run = false;
  bool firmware = false;
  bool allow_disruption = false;
  bool force = false;
  std::optional<double> step_timeout_s;  ///< --step-timeout; default 120 s
  std::vector<std::string> tool_dirs;  ///< searched before the standard directories
  PlanScopeOptions scope;              ///< --netdev, --migrate-priority
};

const std::vector<std::string> k_tool_dirs{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
                                           "/usr/bin", "/sbin", "/bin"};

void print_report(Context& ctx, const plan::ApplyReport& rep) {
  for (const std::string& l : rep.log) ctx.out << l << "\n";
  if (!rep.ok) {
    ctx.err << "rocekit: error: stopped at the first failure: " << rep.error << "\n";
    ctx.exit_code = ExitCode::findings;
  }
}

void run_apply(Context& ctx, const ApplyCliOptions& o) {
  plan::ApplyOptions ao;
  ao.dry_run = o.dry_run;
  ao.firmware = o.firmware;
  ao.allow_disruption = o.allow_disruption;
  ao.lock_file = o.lock;
  std::vector<std::string> dirs = o.tool_dirs;
  dirs.insert(dirs.end(), k_tool_dirs.begin(), k_tool_dirs.end());
  auto runner = plan::make_system_runner(dirs, o.root, std::chrono::milliseconds(static_cast<long long>(o.step_timeout_s.value_or(120) * 1000)));
  if (!o.rollback.empty()) {
    ao.state_file = o.rollback;
    Result<plan::ApplyReport> rep = plan::rollback(ao, *runner);
    if (!rep) return report_error(ctx, rep.error());
    return print_report(ctx, *rep);
  }
  ao.state_file = o.state;
  plan::Plan p;
  if (!make_cli_plan(ctx, o.input, o.root, o.policy, o.mlxconfig_db, o.scope, p)) return;
  ctx.out << plan::render_sh(p);
  if (p.actions.empty()) return;
  // A plan made from another host's capture must not run here: refuse before the prompt, the
  // lock and the state file, so that nothing is written.
  if (std::vector<std::string> bad = plan::identity_mismatches(p, o.root); !bad.empty()) {
    std::string why;
    for (const std::string& b : bad) why += (why.empty() ? "" : "; ") + b;
    if (o.force) {
      ctx.err << "rocekit: warning: --force: applying although " << why << "\n";
    } else if (o.dry_run) {
      ctx.err << "rocekit: warning: apply would refuse this plan (" << why << "); --force overrides\n";
    } else {
      return report_error(ctx, Error{ErrorKind::unsupported,
                                     "not this host: " + why +
                                         ". Make the plan on this host (`rocekit apply live`), or "
                                         "pass --force if the host was renamed; nothing was changed",
                                     "apply"});
    }
  }
  // Refuse a disruptive plan before asking: apply_plan returns the refusal, touching nothing.
  if (!o.dry_run && !plan::disruptive_ports(p, ao).empty())
    if (Result<plan::ApplyReport> refused = plan::apply_plan(p, ao, *runner); !refused)
      return report_error(ctx, refused.error());
  if (!o.yes && !o.dry_run) {
    ctx.out << "Apply " << p.actions.size() << " steps? [y/N] " << std::flush;
    std::string answer;
    if (!std::getline(std::cin, answer) || (answer != "y" && answer != "yes")) {
      ctx.out << "nothing applied\n";
      return;
    }
  }
  Result<plan::ApplyReport> rep = plan::apply_plan(p, ao, *runner);
  if (!rep) return report_error(ctx, rep.error());
  print_report(ctx, *rep);
  if (rep->ok && !o.dry_run) ctx.out << "previous values saved in " << o.state << "\n";
}

}  // namespace

void add_apply_command(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<ApplyCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "apply", "Apply the plan on this host (asks first; --rollback STATEFILE restores)");
  cmd->add_option("input", o->input,
                  "Capture directory, .tar.gz, snapshot .json, or 'live' (default: this host)");
  cmd->add_option("--root", o->root, "Collect from and write sysfs under this directory");
  cmd->add_option("--mlxconfig-db", o->mlxconfig_db,
                  "mstflint's firmware parameter DB used to validate NV names and values "
                  "(default " + o->mlxconfig_db + "; absent = plan says 'not validated')");
  cmd->add_option("-p,--policy", o->policy, "Policy YAML file (default: built-in profile)");
  cmd->add_option("--state", o->state, "Where to save previous values (default " + o->state + ")");
  cmd->add_option("--rollback", o->rollback, "Restore the values saved in this state file");
  cmd->add_option("--lock", o->lock, "Lock file (default /run/rocekit.lock)");
  cmd->add_option("--tool-dir", o->tool_dirs,
                  "Look for mlnx_qos, dcb, setpci, ... here first (repeatable; tests)");
  add_duration_option(*cmd, "--step-timeout", o->step_timeout_s,
                      "How long one command may run before its process group is killed (default 2m)", 1, 3600);
  add_plan_scope_options(*cmd, o->scope);
  cmd->add_flag("-y,--yes", o->yes, "Do not ask");
  cmd->add_flag("--dry-run", o->dry_run, "Show the steps; run and write nothing");
  cmd->add_flag("--allow-disruption", o->allow_disruption,
                "Run steps that bounce a port's link (PFC) or restart its queues (trust, MTU); "
                "without it apply refuses and names the ports");
  cmd->add_flag("--force", o->force,
                "Apply although the plan's host (hostname, netdevs, PCI functions, node GUIDs) "
                "is not this host");
  cmd->add_flag("--firmware", o->firmware, "Also apply firmware steps: NV settings and firmware burns (need reboot/mstfwreset)");
  document_exit_codes(*cmd, {{ExitCode::ok, "every step applied and read back (or the dry run printed)"},
       {ExitCode::findings, "stopped at the first step that failed or did not read back (message on stderr)"},
       {ExitCode::usage, "usage or input error (the message on stderr names the file and line)"}});
  cmd->callback([o, &ctx] { run_apply(ctx, *o); });
}

}  // namespace rk::cli

// rocekit plan: the actions that bring a host to the policy, as a bash script or JSON
// (src/rocekit/plan/). Exit 0: nothing to do; 1: actions planned; 2: usage or input error.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "rocekit/cli/commands.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/plan/plan.hpp"

namespace rk::cli {

namespace {

/// iproute2 of this host: the first line of `ip -V` (read-only; changes nothing).
std::optional<plan::IprouteVersion> live_iproute2_version() {
  std::FILE* p = ::popen("ip -V 2>/dev/null", "r");
  if (!p) return std::nullopt;
  char buf[256] = {};
  std::string text = std::fgets(buf, sizeof buf, p) ? buf : "";
  ::pclose(p);
  return plan::parse_iproute2_version(text);
}

}  // namespace

bool make_cli_plan(Context& ctx, const std::string& input, const std::string& root,
                   const std::string& policy_file, const std::string& mlxconfig_db, plan::Plan& out,
                   plan::Plan* boot) {
  Result<Policy> policy = load_policy(policy_file);
  if (!policy) {
    report_error(ctx, policy.error());
    return false;
  }
  Snapshot snap;
  if (input.empty() || input == "live") {
    if (!collect_live(ctx, root, false, snap)) return false;
  } else {
    Result<Snapshot> loaded = load_input(input);
    if (!loaded) {
      report_error(ctx, loaded.error());
      return false;
    }
    snap = std::move(*loaded);
  }
  Result<plan::NvDbChoice> nv = plan::open_nv_db_if_present(mlxconfig_db);
  if (!nv) {
    report_error(ctx, nv.error());
    return false;
  }
  plan::PlanOptions popts;
  // The version decides the dcb forms; only the live binary of this very host says it (a
  // capture or a --root fixture tree is another host).
  if ((input.empty() || input == "live") && (root.empty() || root == "/"))
    popts.iproute2 = live_iproute2_version();
  popts.nv_db = nv->db ? &*nv->db : nullptr;
  popts.nv_db_missing = nv->missing;
  out = plan::make_plan(snap, *policy, popts);
  if (boot) {
    // The boot script re-applies every runtime setting, not only those that differ now.
    popts.all_runtime = true;
    *boot = plan::make_plan(snap, *policy, popts);
  }
  return true;
}

namespace {

struct PlanOptions {
  std::string input;
  std::string root = "/";
  std::string policy;
  std::string mlxconfig_db{plan::k_default_mlxconfig_db};
  std::string format = "sh";
  std::string output;
};

void run_plan(Context& ctx, const PlanOptions& o) {
  plan::Plan p, boot;
  if (!make_cli_plan(ctx, o.input, o.root, o.policy, o.mlxconfig_db, p, o.format == "systemd" ? &boot : nullptr))
    return;
  if (o.format == "systemd") {
    if (o.output.empty() || o.output == "-")
      return report_error(ctx, Error{ErrorKind::malformed_input,
                                     "--format systemd needs -o DIRECTORY", "plan"});
    std::error_code ec;
    std::filesystem::create_directories(o.output, ec);
    if (ec) return report_error(ctx, Error{ErrorKind::io, ec.message(), o.output});
    for (const plan::GeneratedFile& f : plan::render_systemd(boot)) {
      std::string path = (std::filesystem::path(o.output) / f.name).string();
      if (!write_output(ctx, path, f.content)) return;
      ctx.out << "wrote " << path << "  (install as " << f.install_path << ")\n";
    }
    ctx.out << "dry run: nothing installed. To install: copy each file to its path, chmod 0755 "
               "the script, then `systemctl daemon-reload && systemctl enable rocekit-roce.service "
               "&& udevadm control --reload`\n";
    ctx.exit_code = p.actions.empty() ? ExitCode::ok : ExitCode::findings;
    return;
  }
  std::string text = o.format == "json"      ? plan::render_json(p)
                     : o.format == "ansible" ? plan::render_ansible(p)
                                             : plan::render_sh(p);
  if (!write_output(ctx, o.output, text)) return;
  ctx.exit_code = p.actions.empty() ? ExitCode::ok : ExitCode::findings;
}

}  // namespace

void add_plan_command(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<PlanOptions>();
  CLI::App* cmd = app.add_subcommand(
      "plan", "Ordered, idempotent actions that bring a host to the policy (bash script or JSON)");
  cmd->add_option("input", opts->input,
                  "Capture directory, .tar.gz, snapshot .json, or 'live' (default: this host)");
  cmd->add_option("--root", opts->root, "Live: collect from /sys, /proc under this directory");
  cmd->add_option("--mlxconfig-db", opts->mlxconfig_db,
                  "mstflint's firmware parameter DB used to validate NV names and values "
                  "(default " + opts->mlxconfig_db + "; absent = plan says 'not validated')");
  cmd->add_option("-p,--policy", opts->policy, "Policy YAML file (default: built-in profile)");
  cmd->add_option("-f,--format", opts->format, "Output format: sh, json, ansible or systemd (-o DIR)")
      ->check(CLI::IsMember({"sh", "json", "ansible", "systemd"}));
  cmd->add_option("-o,--output", opts->output, "Write the plan to this file (atomically)");
  cmd->callback([opts, &ctx] { run_plan(ctx, *opts); });
}

}  // namespace rk::cli

// rocekit plan: the actions that bring a host to the policy, as a bash script or JSON
// (src/rocekit/plan/). Exit 0: nothing to do; 1: actions planned; 2: usage or input error;
// 3: no action, but not judged healthy (something not planned, or nothing judged).
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "rocekit/catalog/compat.hpp"
#include "rocekit/cli/commands.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/plan/host_guard.hpp"
#include "rocekit/plan/nccl.hpp"
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

namespace {

/// The policy and the snapshot a plan is made from (live, a capture or a snapshot file).
bool load_plan_input(Context& ctx, const std::string& input, const std::string& root,
                     const std::string& policy_file, const PlanScopeOptions& scope, Policy& policy, Snapshot& snap) {
  Result<Policy> loaded_policy = load_policy(policy_file);
  if (!loaded_policy) {
    report_error(ctx, loaded_policy.error());
    return false;
  }
  policy = std::move(*loaded_policy);
  policy.named_netdevs = scope.netdevs;
  if (!scope.compat.empty()) {
    Result<catalog::CompatTable> t = catalog::CompatTable::load_file(scope.compat);
    if (!t) {
      report_error(ctx, t.error());
      return false;
    }
    catalog::CompatTable::use(std::move(*t));
  }
  if (input.empty() || input == "live") return collect_live(ctx, root, LiveTools{}, snap);
  Result<Snapshot> loaded = load_input(input);
  if (!loaded) {
    report_error(ctx, loaded.error());
    return false;
  }
  snap = std::move(*loaded);
  return true;
}

}  // namespace

bool make_cli_plan(Context& ctx, const std::string& input, const std::string& root,
                   const std::string& policy_file, const std::string& mlxconfig_db,
                   const PlanScopeOptions& scope, plan::Plan& out, plan::Plan* boot) {
  Result<Policy> policy = Policy{};
  Snapshot snap;
  if (!load_plan_input(ctx, input, root, policy_file, scope, *policy, snap)) return false;
  plan::PlanOptions popts;
  popts.migrate_priority = scope.migrate_priority;
  for (const std::string& v : scope.firmware_images) {
    Result<std::pair<std::string, std::string>> img = plan::parse_firmware_image_option(v);
    if (!img) {
      report_error(ctx, img.error());
      return false;
    }
    if (!popts.firmware_images.emplace(img->first, img->second).second) {
      report_error(ctx, Error{ErrorKind::malformed_input, "--firmware-image: PSID " + img->first + " is given twice", v});
      return false;
    }
  }
  if (input.empty() || input == "live") {
    const char* ssh = std::getenv("SSH_CONNECTION");
    popts.protected_netdevs = plan::live_protected_netdevs(root, ssh ? ssh : "", popts.protected_unchecked);
  } else {
    // A capture holds no route table: say so rather than guess which port is the management path.
    popts.protected_unchecked = plan::k_no_route_table;
  }
  Result<plan::NvDbChoice> nv = plan::open_nv_db_if_present(mlxconfig_db);
  if (!nv) {
    report_error(ctx, nv.error());
    return false;
  }
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

void add_plan_scope_options(CLI::App& cmd, PlanScopeOptions& o) {
  cmd.add_option("--netdev", o.netdevs,
                 "Also plan for this netdev (no RDMA port needed; allowed even when it carries the "
                 "default route or this ssh session); repeatable");
  cmd.add_flag("--migrate-priority", o.migrate_priority,
               "Move PFC and the DSCP map to the policy's RoCE priority even where the host runs "
               "RoCE lossless on another priority (change the switch the same way)");
  cmd.add_option("--firmware-image", o.firmware_images,
                 "PSID=FILE: the local firmware image (absolute path on the host) to burn on boards with "
                 "that PSID where fw.driver-compat fails; without it the firmware step names a placeholder "
                 "and the plan refuses to run; repeatable");
  cmd.add_option("--compat", o.compat,
                 "Firmware/driver compatibility table (JSON, schema fw-driver-compat/1 of data/compat/README.md) "
                 "to use instead of the built-in one, for fw.driver-compat and fw.releases-behind");
}

namespace {

/// 1 when actions are planned; 3 when none are but the host is not known to match the policy
/// (a failure that cannot be planned, or no rule judged); else 0.
ExitCode plan_exit(Context& ctx, const std::vector<const plan::Plan*>& plans) {
  bool any = false;
  std::vector<std::string> why;
  for (const plan::Plan* p : plans) {
    any = any || !p->actions.empty();
    std::string host = p->hostname.empty() ? "the input" : p->hostname;
    if (p->nothing_judged) why.push_back(host + ": no rule could pass or fail, so nothing could be planned");
    else if (p->no_roce_port) why.push_back(host + ": no RDMA device and no RoCE netdev in the input, so nothing could be planned");
    else if (!p->unplanned.empty())
      why.push_back(host + ": " + std::to_string(p->unplanned.size()) +
                    (p->unplanned.size() == 1 ? " item" : " items") + " not planned (listed in the plan's header)");
  }
  if (any) return ExitCode::findings;
  if (why.empty()) return ExitCode::ok;
  for (const std::string& w : why) ctx.err << "rocekit: not judged: " << w << "\n";
  return ExitCode::not_judged;
}

struct PlanOptions {
  std::vector<std::string> inputs;  ///< one; several only with -f ansible (one play per host)
  std::string root = "/";
  std::string policy;
  std::string mlxconfig_db{plan::k_default_mlxconfig_db};
  std::string format = "sh";
  std::string output;
  PlanScopeOptions scope;
};

void run_plan(Context& ctx, const PlanOptions& o) {
  plan::Plan p, boot;
  if (o.inputs.size() > 1 && o.format != "ansible")
    return report_error(ctx, Error{ErrorKind::malformed_input,
                                   "several inputs need -f ansible (one play per host)", "plan"});
  if (o.format == "ansible" && o.inputs.size() > 1) {
    std::vector<plan::Plan> plans;
    for (const std::string& in : o.inputs)
      if (!make_cli_plan(ctx, in, o.root, o.policy, o.mlxconfig_db, o.scope, plans.emplace_back())) return;
    if (!write_output(ctx, o.output, plan::render_ansible(plans))) return;
    std::vector<const plan::Plan*> all;
    for (const plan::Plan& x : plans) all.push_back(&x);
    ctx.exit_code = plan_exit(ctx, all);
    return;
  }
  std::string input = o.inputs.empty() ? std::string() : o.inputs.front();
  if (o.format == "nccl" || o.format == "nccl-env") {
    // Settings for the application stack, not actions: nothing here is run or applied.
    Policy policy;
    Snapshot snap;
    if (!load_plan_input(ctx, input, o.root, o.policy, o.scope, policy, snap)) return;
    plan::NcclConf c = plan::make_nccl_conf(snap, policy);
    if (!write_output(ctx, o.output, o.format == "nccl" ? plan::render_nccl_conf(c) : plan::render_nccl_env(c))) return;
    // Exit 3 when a setting the rails need (HCAs, ToS, GID index) could not be derived.
    std::vector<std::string> left_out;
    for (const plan::NcclSetting& x : c.settings)
      if (x.value.empty() && x.name != "NCCL_SOCKET_IFNAME") left_out.push_back(x.name);
    for (const std::string& n : left_out) ctx.err << "rocekit: not judged: " << n << " left out (the file says why)\n";
    ctx.exit_code = left_out.empty() ? ExitCode::ok : ExitCode::not_judged;
    return;
  }
  if (!make_cli_plan(ctx, input, o.root, o.policy, o.mlxconfig_db, o.scope, p, o.format == "systemd" ? &boot : nullptr))
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
    ctx.exit_code = plan_exit(ctx, {&p});
    return;
  }
  std::string text = o.format == "json"      ? plan::render_json(p)
                     : o.format == "ansible" ? plan::render_ansible(p)
                                             : plan::render_sh(p);
  if (!write_output(ctx, o.output, text)) return;
  ctx.exit_code = plan_exit(ctx, {&p});
}

}  // namespace

void add_plan_command(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<PlanOptions>();
  CLI::App* cmd = app.add_subcommand(
      "plan", "Ordered, idempotent actions that bring a host to the policy (bash script or JSON)");
  cmd->add_option("input", opts->inputs,
                  "Capture directory, .tar.gz, snapshot .json, or 'live' (default: this host); "
                  "with -f ansible several, one play per host");
  cmd->add_option("--root", opts->root, "Live: collect from /sys, /proc under this directory");
  cmd->add_option("--mlxconfig-db", opts->mlxconfig_db,
                  "mstflint's firmware parameter DB used to validate NV names and values "
                  "(default " + opts->mlxconfig_db + "; absent = plan says 'not validated')");
  cmd->add_option("-p,--policy", opts->policy, "Policy YAML file (default: built-in profile)");
  cmd->add_option("-f,--format", opts->format, "Output format: sh, json, ansible, systemd (-o DIR), or nccl / nccl-env (the host's "
                  "/etc/nccl.conf, or the same as export lines)")
      ->check(CLI::IsMember({"sh", "json", "ansible", "systemd", "nccl", "nccl-env"}));
  cmd->add_option("-o,--output", opts->output, "Write the plan to this file (atomically)");
  add_plan_scope_options(*cmd, opts->scope);
  document_exit_codes(*cmd, {{ExitCode::ok, "nothing to do: the host already matches the policy"},
       {ExitCode::findings, "actions planned"},
       {ExitCode::usage, "usage or input error (the message on stderr names the file and line)"},
       {ExitCode::not_judged, "no action, but something could not be planned or nothing was judged"}});
  cmd->callback([opts, &ctx] { run_plan(ctx, *opts); });
}

}  // namespace rk::cli

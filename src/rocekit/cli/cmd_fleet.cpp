// `rocekit fleet INPUT...`: check many hosts and compare them (issue 7; library rk_fleet).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "rocekit/catalog/compat.hpp"
#include "rocekit/cli/commands.hpp"
#include "rocekit/fleet/fleet.hpp"
#include "rocekit/plan/host_guard.hpp"
#include "rocekit/plan/nv_db.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/render/render.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::cli {

namespace {

struct FleetOptions {
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string policy;
  std::string compat;  ///< --compat FILE: the firmware/driver table of fw.driver-compat
  std::string fail_on = "error";
  std::string output;
  unsigned threads = 0;
  std::string progress = "auto";
  bool list_rules = false;
  std::vector<std::string> switches;  ///< switch configurations (switch alignment)
  std::string port_map;               ///< host,netdev,switch,port mapping file
  std::string lldp_dir;               ///< directory of <hostname>.txt LLDP captures
  std::vector<std::string> only;      ///< --rule
  std::string baseline;               ///< --baseline HOST|SNAPSHOT
  LookOptions look;
};

/// The switch alignment as a fleet per-host checker: every host against every switch, paired
/// through the port map, the host's LLDP capture, or (single-port configurations only) every
/// RoCE netdev. Returns nullopt after reporting an error.
std::optional<fleet::HostChecker> switch_checker(Context& ctx, const FleetOptions& o, const Policy& policy) {
  auto switches = std::make_shared<std::vector<switchcfg::SwitchQos>>();
  for (const std::string& f : o.switches) {
    Result<switchcfg::SwitchQos> sw = switchcfg::load_switch_config(f);
    if (!sw) {
      report_error(ctx, sw.error());
      return std::nullopt;
    }
    // Configurations that do not name their switch are named by their file, so a port map's
    // `switch` column can tell them apart.
    if (sw->name.empty() && o.switches.size() > 1) sw->name = std::filesystem::path(f).stem().string();
    switches->push_back(std::move(*sw));
  }
  std::shared_ptr<const switchcfg::PortMap> map;
  if (!o.port_map.empty()) {
    Result<switchcfg::PortMap> m = switchcfg::load_port_map(o.port_map);
    if (!m) {
      report_error(ctx, m.error());
      return std::nullopt;
    }
    map = std::make_shared<const switchcfg::PortMap>(std::move(*m));
  } else if (o.lldp_dir.empty()) {
    for (const switchcfg::SwitchQos& sw : *switches)
      if (sw.ports.size() > 1) {
        report_error(ctx, Error{ErrorKind::malformed_input,
                                "the switch configuration has " + std::to_string(sw.ports.size()) +
                                    " ports: say which faces which host with --port-map or --lldp",
                                sw.file});
        return std::nullopt;
      }
  }
  if (!o.lldp_dir.empty() && !std::filesystem::is_directory(o.lldp_dir)) {
    report_error(ctx, Error{ErrorKind::not_found, "not a directory of <hostname>.txt LLDP captures", o.lldp_dir});
    return std::nullopt;
  }
  std::filesystem::path lldp_dir = o.lldp_dir;
  return fleet::HostChecker([switches, map, lldp_dir, policy](const Snapshot& s, const std::string& input_name) {
    std::vector<Finding> out;
    std::optional<switchcfg::PortMap> host_map;
    if (!lldp_dir.empty()) {
      // DIR/<hostname>.txt; when the snapshot has no hostname or that file is missing,
      // DIR/<input name>.txt (the name the report shows for a host without hostname).
      std::error_code ec;
      std::filesystem::path f;
      std::string host = s.hostname;
      if (!s.hostname.empty()) f = lldp_dir / (s.hostname + ".txt");
      if ((f.empty() || !std::filesystem::exists(f, ec)) && !input_name.empty() &&
          std::filesystem::exists(lldp_dir / (input_name + ".txt"), ec)) {
        f = lldp_dir / (input_name + ".txt");
        if (host.empty()) host = input_name;
      }
      Result<switchcfg::PortMap> m =
          f.empty() ? Result<switchcfg::PortMap>(unexpected(ErrorKind::not_found,
                                                            "the snapshot has no hostname and there is no " +
                                                                (lldp_dir / (input_name + ".txt")).string()))
                    : switchcfg::port_map_from_lldp(f, host);
      if (!m) {
        Finding u;
        u.rule = "switch.roce-lossless";
        u.subject = "host";
        u.outcome = Outcome::unknown;
        u.severity = Severity::critical;
        u.message = "no switch port known for this host: " + m.error().describe();
        if (!f.empty()) u.message += " (LLDP capture " + f.string() + ")";
        out.push_back(std::move(u));
        return out;
      }
      host_map = std::move(*m);
    }
    const switchcfg::PortMap* pm = host_map ? &*host_map : map.get();
    for (const switchcfg::SwitchQos& sw : *switches) {
      std::vector<Finding> f = switchcfg::check_alignment(s, sw, pm, policy);
      out.insert(out.end(), std::make_move_iterator(f.begin()), std::make_move_iterator(f.end()));
    }
    return out;
  });
}

/// A file name for a host's script: the host name with anything but [A-Za-z0-9._-] as '_'
/// (a host named by its input path), unique within `taken`.
std::string script_name(const std::string& host, std::set<std::string>& taken) {
  std::string base;
  for (char c : host)
    base += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
  if (base.empty() || base.front() == '.') base = "_" + base;
  std::string name = base + ".sh";
  for (int n = 2; !taken.insert(name).second; ++n) name = base + "-" + std::to_string(n) + ".sh";
  return name;
}

/// -f sh: one `rocekit plan` script per outlier host in the -o directory (each refuses to run on
/// another host: render_sh's identity guard); -f ansible: one playbook, a play per outlier host
/// (render_ansible). A host whose input could not be loaded again is said on stderr.
bool write_plans(Context& ctx, const FleetOptions& o, const fleet::FleetReport& report) {
  for (const fleet::HostPlan& p : report.plans)
    if (!p.error.empty()) ctx.err << "rocekit: " << p.host << " (" << p.file << "): " << p.error << "\n";
  if (o.format == "sh" && (o.output.empty() || o.output == "-")) {
    report_error(ctx, Error{ErrorKind::malformed_input,
                            "--format sh writes one script per outlier host: give -o DIRECTORY", "fleet"});
    return false;
  }
  std::vector<plan::Plan> plans;
  for (const fleet::HostPlan& p : report.plans)
    if (p.error.empty()) plans.push_back(p.plan);
  if (plans.empty()) {
    ctx.err << "rocekit: no outlier host to plan for: nothing written\n";
    return true;
  }
  if (o.format == "ansible") return write_output(ctx, o.output, plan::render_ansible(plans));
  std::error_code ec;
  std::filesystem::create_directories(o.output, ec);
  if (ec) {
    report_error(ctx, Error{ErrorKind::io, ec.message(), o.output});
    return false;
  }
  std::set<std::string> taken;
  for (const fleet::HostPlan& p : report.plans) {
    if (!p.error.empty()) continue;
    std::string path = (std::filesystem::path(o.output) / script_name(p.host, taken)).string();
    if (!write_output(ctx, path, plan::render_sh(p.plan))) return false;
    std::size_t n = p.plan.actions.size();
    ctx.out << "wrote " << path << "  (" << p.host << ": " << n << (n == 1 ? " action, " : " actions, ")
            << p.plan.unplanned.size() << " not planned)\n";
  }
  ctx.out << "dry run: each script changes nothing without --execute, and refuses to run on another host\n";
  return true;
}

void run_fleet_command(Context& ctx, const FleetOptions& o) {
  if (o.list_rules) {
    ctx.out << render::rules_list(render::Format::markdown, rules::Family::fleet);
    ctx.exit_code = ExitCode::ok;
    return;
  }
  if (o.inputs.empty()) {
    report_error(ctx, Error{ErrorKind::malformed_input,
                            "no input: give snapshot .json files, capture directories or tarballs, "
                            "or directories holding them", "fleet"});
    return;
  }
  for (const std::string& sel : o.only)
    if (std::optional<std::string> why =
            rules::selector_error({rules::Family::fleet, rules::Family::host, rules::Family::switch_port}, sel))
      return report_error(ctx, Error{ErrorKind::malformed_input, *why, "--rule"});
  Result<Policy> policy = load_policy(o.policy);
  if (!policy) return report_error(ctx, policy.error());
  if (!o.compat.empty()) {  // before any host is checked: the workers only read it
    Result<catalog::CompatTable> t = catalog::CompatTable::load_file(o.compat);
    if (!t) return report_error(ctx, t.error());
    catalog::CompatTable::use(std::move(*t));
  }

  std::vector<std::filesystem::path> args(o.inputs.begin(), o.inputs.end());
  fleet::Discovery found = fleet::discover_inputs(args);
  // A baseline snapshot outside the inputs joins the fleet (once: not again when an input
  // directory already holds it).
  std::error_code ec;
  bool baseline_is_copy = false;
  if (!o.baseline.empty() && std::filesystem::exists(o.baseline, ec)) {
    std::filesystem::path want = std::filesystem::weakly_canonical(o.baseline, ec);
    bool have = std::any_of(found.hosts.begin(), found.hosts.end(), [&](const std::filesystem::path& h) {
      std::error_code e2;
      return std::filesystem::weakly_canonical(h, e2) == want;
    });
    if (!have) {
      baseline_is_copy = true;
      fleet::Discovery more = fleet::discover_inputs({o.baseline});
      found.hosts.insert(found.hosts.end(), more.hosts.begin(), more.hosts.end());
      found.problems.insert(found.problems.end(), more.problems.begin(), more.problems.end());
    }
  }
  if (found.hosts.empty()) {
    std::string why = "no host snapshots or captures found";
    if (!found.problems.empty()) why += " (" + found.problems.front().file + ": " + found.problems.front().reason + ")";
    report_error(ctx, Error{ErrorKind::not_found, why, "fleet"});
    return;
  }

  fleet::Options fo;
  fo.policy = *policy;
  if (!o.switches.empty()) {
    std::optional<fleet::HostChecker> sc = switch_checker(ctx, o, *policy);
    if (!sc) return;
    fo.extra_checks.push_back(std::move(*sc));
  } else if (!o.port_map.empty() || !o.lldp_dir.empty()) {
    report_error(ctx, Error{ErrorKind::malformed_input, "--port-map and --lldp need --switch", "fleet"});
    return;
  }
  fo.threads = o.threads;
  fo.baseline = o.baseline;
  fo.baseline_is_copy = baseline_is_copy;
  bool bar = o.progress == "always" || (o.progress == "auto" && ::isatty(2));
  if (bar) {
    auto start = std::chrono::steady_clock::now();
    fo.progress = [&ctx, start](std::size_t done, std::size_t total) {
      constexpr std::size_t width = 30;
      std::size_t filled = total ? done * width / total : width;
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      // Rate and time left once a second of work gives a rate worth showing.
      std::string rate;
      if (secs >= 1 && done > 0) {
        double per_s = static_cast<double>(done) / secs;
        long left = std::lround(static_cast<double>(total - done) / per_s);
        rate = fmt::format(", {:.0f} hosts/s, {}", per_s,
                           done == total ? fmt::format("{:.1f} s", secs)
                                         : fmt::format("{}:{:02d} left", left / 60, left % 60));
      }
      ctx.err << "\rrocekit fleet: [" << std::string(filled, '#') << std::string(width - filled, ' ') << "] " << done
              << "/" << total << " hosts" << rate << "\033[K" << (done == total ? "\n" : "") << std::flush;
    };
  }
  fleet::FleetReport report = fleet::run_fleet(found, fo);
  if (!report.baseline_error.empty())
    return report_error(ctx, Error{ErrorKind::malformed_input, report.baseline_error, "--baseline"});
  if (report.hosts_loaded == 0) {
    std::string why = "no host input could be loaded";
    if (!report.problems.empty()) why += " (" + report.problems.front().file + ": " + report.problems.front().reason + ")";
    report_error(ctx, Error{ErrorKind::malformed_input, why, "fleet"});
    return;
  }
  static const std::map<std::string, fleet::Format> k_formats{
      {"text", fleet::Format::text}, {"json", fleet::Format::json}, {"markdown", fleet::Format::markdown},
      {"html", fleet::Format::html}};
  fleet::keep_rules(report, o.only);
  // The outlier hosts' plans (a second pass over their inputs): like `rocekit plan` on a capture,
  // with mstflint's parameter DB when it is installed and no route table to protect a port by.
  Result<plan::NvDbChoice> nv = plan::open_nv_db_if_present(plan::k_default_mlxconfig_db);
  if (!nv) return report_error(ctx, nv.error());
  plan::PlanOptions popts;
  popts.protected_unchecked = plan::k_no_route_table;
  popts.nv_db = nv->db ? &*nv->db : nullptr;
  popts.nv_db_missing = nv->missing;
  fleet::plan_outliers(report, *policy, popts, o.threads);
  if (o.format == "sh" || o.format == "ansible") {
    if (!write_plans(ctx, o, report)) return;
  } else {
    fleet::RenderOptions ro;
    ro.policy_name = policy->name;
    ro.quiet = o.look.quiet;
    ro.color = use_color(o.look, o.output);
    const fleet::Format format = k_formats.at(o.format);
    if (!write_output(ctx, o.output, [&](std::ostream& os) { return fleet::render_to(os, report, format, ro); }))
      return;
  }
  Severity threshold = severity_from_string(o.fail_on).value_or(Severity::error);
  if (report.has_problem(threshold)) {
    ctx.exit_code = ExitCode::findings;
    return;
  }
  // As `rocekit check` on each input (rules::not_judged_reasons): a host that check would not
  // call healthy keeps the fleet from exit 0.
  std::vector<std::string> why;
  for (const fleet::HostSummary& h : report.hosts)
    for (const std::string& r : h.not_judged) why.push_back(h.host + ": " + r);
  if (!fleet::anything_judged(report))
    why.push_back(std::string("no cross-host check and no per-host rule passed or failed") +
                  (o.only.empty() ? "" : " among the --rule selection"));
  for (const std::string& w : why) ctx.err << "rocekit: not judged: " << w << "\n";
  ctx.exit_code = why.empty() ? ExitCode::ok : ExitCode::not_judged;
}

}  // namespace

void add_fleet_command(CLI::App& app, Context& ctx) {
  auto opts = std::make_shared<FleetOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fleet",
      "Check many hosts (snapshots, captures, tarballs, or directories of them) and compare "
      "their settings across the fleet");
  cmd->add_option("input", opts->inputs,
                  "Snapshot .json, capture directory, capture .tar.gz, or a directory holding many "
                  "of those (docs/fleet.md)");
  cmd->add_option("-f,--format", opts->format,
                  "Output format: text, json, markdown or html (one self-contained page: hosts x rules "
                  "matrix, setting distributions, per-host detail); each lists per outlier host the `rocekit plan` "
                  "actions to the reference. sh: one plan script per outlier host (-o DIRECTORY, DIR/<host>.sh); "
                  "ansible: one playbook, a play per outlier host")
      ->check(CLI::IsMember({"text", "json", "markdown", "html", "sh", "ansible"}));
  cmd->add_option("-p,--policy", opts->policy, "Policy YAML file (default: built-in profile)");
  cmd->add_option("--compat", opts->compat,
                  "Firmware/driver compatibility table (JSON, schema fw-driver-compat/1 of data/compat/README.md) "
                  "to use instead of the built-in one, for fw.driver-compat, fw.releases-behind and "
                  "fleet.driver-firmware-compat");
  cmd->add_option("--fail-on", opts->fail_on,
                  "Exit 1 when a host has a failure of this severity or higher (default error); "
                  "cross-host outliers and unloadable inputs always exit 1")
      ->check(CLI::IsMember({"info", "warning", "error", "critical"}));
  cmd->add_option("-o,--output", opts->output,
                  "Write the report (or the playbook) to this file (atomically); with -f sh the directory for the "
                  "scripts");
  cmd->add_option("-j,--threads", opts->threads, "Worker threads (default: hardware concurrency)");
  cmd->add_option("--progress", opts->progress, "Progress bar on stderr: auto (when a TTY), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_option("--switch", opts->switches,
                  "Switch QoS configuration (SONiC config_db.json, NVUE JSON or `nv show qos roce`, "
                  "EOS running-config); repeatable: every host is checked against it (switch.* rules)");
  cmd->add_option("--port-map", opts->port_map,
                  "Which switch port faces which host netdev: CSV host,netdev,switch,port or YAML");
  cmd->add_option("--lldp", opts->lldp_dir,
                  "Directory of per-host LLDP captures named <hostname>.txt, or <input name>.txt for a host "
                  "without hostname (lldpctl, -f keyvalue/json, "
                  "lldptool -t -n -i IF)");
  cmd->add_option("--baseline", opts->baseline,
                  "Compare every host with this one (a host name as the report shows it, or a snapshot or capture "
                  "path, which joins the fleet) within each group (role, NIC model) instead of the majority");
  cmd->add_option("--rule", opts->only,
                  "Only these rule ids or areas: fleet.*, host (qos, net, ...) and switch.* rules (repeatable)");
  add_look_options(*cmd, opts->look, "Text and Markdown: leave passing cross-host checks out");
  cmd->add_flag("--list-rules", opts->list_rules, "Print the fleet rules (docs/rules.md \"Fleet rules\"; also `rocekit rules list`) and exit");
  document_exit_codes(*cmd, {{ExitCode::ok, "no fleet or per-host problem at or above --fail-on"},
       {ExitCode::findings, "a fleet or per-host problem at or above --fail-on"},
       {ExitCode::usage, "usage or input error (the message on stderr names the file and line)"},
       {ExitCode::not_judged, "no problem, but a host is not judged as `rocekit check` says (no RDMA device, an "
                              "input file not used, no rule passed or failed), or no cross-host check and no "
                              "per-host rule passed or failed; each reason on stderr"}});
  cmd->callback([opts, &ctx] { run_fleet_command(ctx, *opts); });
}

}  // namespace rk::cli

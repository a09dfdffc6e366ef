// rocekit switch: show a switch QoS configuration, or check hosts against it (issue 7).

#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "rocekit/cli/commands.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/rules/judged.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::cli {
namespace {

struct SwitchCheckOptions {
  std::string switch_config;
  std::string port;
  std::string port_map;
  std::string lldp;
  std::vector<std::string> hosts;
  std::string format = "text";
  std::string policy;
  std::string fail_on = "error";
  std::string output;
  LookOptions look;
  std::vector<std::string> only;  ///< --rule
};

void run_switch_check(Context& ctx, const SwitchCheckOptions& o) {
  const int selectors = !o.port.empty() + !o.port_map.empty() + !o.lldp.empty();
  if (selectors > 1)
    return report_error(ctx, Error{ErrorKind::malformed_input, "give one of --port, --port-map, --lldp", "switch check"});
  if (!o.lldp.empty() && o.hosts.size() != 1)
    return report_error(ctx, Error{ErrorKind::malformed_input,
                                   "--lldp is one host's capture: give exactly one HOST (or use --port-map)",
                                   "switch check"});
  for (const std::string& sel : o.only)
    if (std::optional<std::string> why = rules::selector_error({rules::Family::switch_port}, sel))
      return report_error(ctx, Error{ErrorKind::malformed_input, *why, "--rule"});
  Result<Policy> policy = load_policy(o.policy);
  if (!policy) return report_error(ctx, policy.error());
  Result<switchcfg::SwitchQos> sw = switchcfg::load_switch_config(o.switch_config);
  if (!sw) return report_error(ctx, sw.error());
  std::optional<switchcfg::PortMap> map;
  if (!o.port.empty()) {
    if (!sw->find_port(o.port)) {
      std::string ports;
      for (std::size_t i = 0; i < sw->ports.size() && i < 8; ++i) ports += (i ? ", " : "") + sw->ports[i].name;
      if (sw->ports.size() > 8) ports += ", ...";
      return report_error(ctx, Error{ErrorKind::not_found, "port " + o.port + " is not in the switch configuration (ports: " + ports + ")",
                                     o.switch_config});
    }
    map = switchcfg::PortMap{{switchcfg::Link{"", "*", "", o.port, Evidence{}}}};
  } else if (!o.port_map.empty()) {
    Result<switchcfg::PortMap> m = switchcfg::load_port_map(o.port_map);
    if (!m) return report_error(ctx, m.error());
    map = std::move(*m);
  } else if (o.lldp.empty() && sw->ports.size() > 1) {
    return report_error(ctx, Error{ErrorKind::malformed_input,
                                   "the switch configuration has " + std::to_string(sw->ports.size()) +
                                       " ports: say which faces the host with --port, --port-map or --lldp",
                                   o.switch_config});
  }
  render::Options ro;
  ro.policy_name = policy->name;
  ro.detail = true;  // a few findings per port pair: the detail is the report
  ro.hide_pass = o.look.quiet;
  ro.hide_not_applicable = o.look.quiet;
  ro.color = use_color(o.look, o.output);
  static const std::map<std::string, render::Format> k_formats{
      {"text", render::Format::text}, {"json", render::Format::json}, {"markdown", render::Format::markdown}};
  const render::Format fmt = k_formats.at(o.format);
  std::string text;
  nlohmann::json reports = nlohmann::json::array();
  bool failed = false;
  bool judged = false;
  std::vector<std::string> unjudged_hosts;
  std::vector<std::pair<std::string, std::string>> switch_side;  ///< host, why nothing was judged
  const Severity threshold = severity_from_string(o.fail_on).value_or(Severity::error);
  for (const std::string& h : o.hosts) {
    Result<Snapshot> snap = load_input(h);
    if (!snap) return report_error(ctx, snap.error());
    std::optional<switchcfg::PortMap> host_map = map;
    if (!o.lldp.empty()) {
      Result<switchcfg::PortMap> m = switchcfg::port_map_from_lldp(o.lldp, snap->hostname);
      if (!m) return report_error(ctx, m.error());
      host_map = std::move(*m);
    }
    rules::Report report;
    report.findings = switchcfg::check_alignment(*snap, *sw, host_map ? &*host_map : nullptr, *policy);
    std::erase_if(report.findings, [&](const Finding& f) { return !rules::selects_any(f.rule, o.only); });
    failed = failed || report.has_failure_at_or_above(threshold);
    // As the report's verdict: a host without an RDMA device whose netdevs no rule judged is
    // NOT JUDGED, even when switch rules compared its QoS.
    if (rules::no_roce_port_judged(*snap, report.findings)) unjudged_hosts.push_back(h);
    else if (rules::anything_judged(report.findings)) judged = true;
    else switch_side.emplace_back(h, switchcfg::unjudged_reason(*snap, *sw, report.findings));
    if (fmt == render::Format::json) {
      reports.push_back(render::report_json(*snap, report, ro));
    } else {
      if (!text.empty()) text += "\n";
      text += render::report(*snap, report, fmt, ro);
    }
  }
  if (fmt == render::Format::json) {
    nlohmann::json j = {{"switch", {{"file", sw->file}, {"dialect", switchcfg::to_string(sw->dialect)},
                                    {"name", sw->name}, {"ports", sw->ports.size()}}},
                        {"hosts", reports}};
    text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  } else {
    std::string head = (fmt == render::Format::markdown ? "Switch: `" : "switch: ") + sw->file +
                       (fmt == render::Format::markdown ? "`" : "") + " (" +
                       std::string(switchcfg::to_string(sw->dialect)) +
                       (sw->name.empty() ? "" : ", " + sw->name) + ")\n\n";
    text = head + text;
  }
  if (!write_output(ctx, o.output, text)) return;
  if (failed) {
    ctx.exit_code = ExitCode::findings;
  } else if (!unjudged_hosts.empty()) {
    for (const std::string& h : unjudged_hosts)
      ctx.err << "rocekit: not judged: " << h << ": no RDMA device and no RoCE netdev in the input\n";
    ctx.exit_code = ExitCode::not_judged;
  } else if (!judged) {
    for (const auto& [h, why] : switch_side)
      if (!why.empty()) ctx.err << "rocekit: not judged: " << h << ": " << why << "\n";
    ctx.err << "rocekit: not judged: no switch rule passed or failed (every check is unknown or not applicable)\n";
    ctx.exit_code = ExitCode::not_judged;
  } else {
    ctx.exit_code = ExitCode::ok;
  }
}

}  // namespace

void add_switch_command(CLI::App& app, Context& ctx) {
  CLI::App* cmd = app.add_subcommand(
      "switch", "Switch QoS configuration: show it, or check hosts against it (SONiC, Cumulus NVUE, Arista EOS, Cisco NX-OS, Juniper Junos, Dell Enterprise SONiC, NVIDIA Onyx show roce)");
  cmd->require_subcommand(1);

  auto file = std::make_shared<std::string>();
  auto show_format = std::make_shared<std::string>("text");
  auto show_output = std::make_shared<std::string>();
  CLI::App* show = cmd->add_subcommand("show", "Parse a switch configuration and print its QoS model with sources");
  show->add_option("config", *file, "SONiC config_db.json, `nv config show -o json`, `nv show qos roce`, EOS running-config")
      ->required();
  show->add_option("-f,--format", *show_format, "text or json")->check(CLI::IsMember({"text", "json"}));
  show->add_option("-o,--output", *show_output, "Write to this file (atomically)");
  show->callback([file, show_format, show_output, &ctx] {
    Result<switchcfg::SwitchQos> sw = switchcfg::load_switch_config(*file);
    if (!sw) return report_error(ctx, sw.error());
    write_output(ctx, *show_output, *show_format == "json" ? switchcfg::qos_json(*sw) : text::escape_control(switchcfg::qos_text(*sw), true));
  });

  auto o = std::make_shared<SwitchCheckOptions>();
  CLI::App* check = cmd->add_subcommand(
      "check", "Check host snapshots against the switch QoS (RoCE DSCP lossless, ECN, CNP, MTU, PFC watchdog)");
  check->add_option("--switch", o->switch_config, "Switch configuration file")->required();
  check->add_option("--port", o->port, "The switch port facing the host(s)");
  check->add_option("--port-map", o->port_map, "Mapping file host,netdev,switch,port (CSV or YAML)");
  check->add_option("--lldp", o->lldp, "LLDP capture from the host (lldpctl, -f keyvalue/json, lldptool -t -n -i IF)");
  check->add_option("hosts", o->hosts, "Host snapshot .json, capture directory or .tar.gz")->required();
  check->add_option("-f,--format", o->format, "text, json or markdown")->check(CLI::IsMember({"text", "json", "markdown"}));
  check->add_option("-p,--policy", o->policy, "Policy YAML (RoCE DSCP/priority, CNP DSCP, MTU minimum)");
  check->add_option("--fail-on", o->fail_on, "Exit 1 when a failure of this severity or higher exists (default error)")
      ->check(CLI::IsMember({"info", "warning", "error", "critical"}));
  check->add_option("-o,--output", o->output, "Write the report to this file (atomically)");
  add_look_options(*check, o->look, "Leave passes and not-applicable findings out");
  check->add_option("--rule", o->only,
                    "Only these switch rule ids or areas (switch.roce-lossless, switch; repeatable)");
  document_exit_codes(*check, {{ExitCode::ok, "no switch or alignment failure"},
       {ExitCode::findings, "a switch rule or host/switch alignment failed"},
       {ExitCode::usage, "usage or input error (the message on stderr names the file and line)"},
       {ExitCode::not_judged, "a host input has no RDMA device, or no switch rule passed or failed"}});
  check->callback([o, &ctx] { run_switch_check(ctx, *o); });
}

}  // namespace rk::cli

#include <algorithm>

#include "rocekit/core/text.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

Finding& Emitter::add(std::string subject, Outcome outcome, std::string message) {
  Finding& f = m_out.emplace_back();  // in place: a Finding is large to move
  f.rule = std::string(m_rule.id);
  f.subject = std::move(subject);
  f.outcome = outcome;
  f.severity = m_severity;
  f.message = std::move(message);
  return f;
}

std::string_view to_string(Family f) {
  switch (f) {
    case Family::host: return "host";
    case Family::switch_port: return "switch";
    case Family::fleet: return "fleet";
    case Family::diagnose: return "diagnose";
  }
  return "?";
}

std::string_view command_of(Family f) {
  switch (f) {
    case Family::host: return "rocekit check";
    case Family::switch_port: return "rocekit switch check";
    case Family::fleet: return "rocekit fleet";
    case Family::diagnose: return "rocekit diagnose";
  }
  return "?";
}

std::vector<Outcome> OutcomeSet::list() const {
  std::vector<Outcome> out;
  for (Outcome o : {Outcome::pass, Outcome::fail, Outcome::unknown, Outcome::not_applicable})
    if (has(o)) out.push_back(o);
  return out;
}

const std::vector<RuleInfo>& registry() {
  static const std::vector<RuleInfo> k_rules = [] {
    std::vector<RuleInfo> v;
    add_roce_rules(v);
    add_qos_rules(v);
    add_qos_ets_rules(v);
    add_app_rules(v);
    add_pcie_rules(v);
    add_host_rules(v);
    add_path_rules(v);
    add_fw_rules(v);
    add_fw_compat_rules(v);
    add_bluefield_rules(v);
    add_dpu_resource_rules(v);
    add_persistence_rules(v);
    add_switch_rules(v);
    add_fleet_rules(v);
    add_diagnose_rules(v);
    return v;
  }();
  return k_rules;
}

const std::vector<RuleInfo>& rules_of(Family f) {
  auto of = [](Family x) {
    std::vector<RuleInfo> v;
    for (const RuleInfo& r : registry())
      if (r.family == x) v.push_back(r);
    return v;
  };
  static const std::vector<RuleInfo> k_by[] = {of(Family::host), of(Family::switch_port),
                                               of(Family::fleet), of(Family::diagnose)};
  return k_by[static_cast<std::size_t>(f)];
}

const std::vector<RuleInfo>& all_rules() { return rules_of(Family::host); }

const RuleInfo* find_rule(std::string_view id) {
  for (const RuleInfo& r : registry())
    if (r.id == id) return &r;
  return nullptr;
}

std::vector<std::string> rule_ids() {
  std::vector<std::string> out;
  for (const RuleInfo& r : all_rules()) out.emplace_back(r.id);
  return out;
}

bool selects(std::string_view id, std::string_view selector) {
  return id == selector || id.substr(0, id.find('.')) == selector;
}

bool selects_any(std::string_view id, const std::vector<std::string>& selectors) {
  return selectors.empty() ||
         std::any_of(selectors.begin(), selectors.end(), [id](const std::string& s) { return selects(id, s); });
}

std::optional<std::string> selector_error(std::initializer_list<Family> families, std::string_view sel) {
  if (sel.empty()) return std::string("an empty --rule value selects no rule (give a rule id or an area such as qos)");
  std::vector<const RuleInfo*> rules;
  for (Family f : families)
    for (const RuleInfo& r : rules_of(f)) rules.push_back(&r);
  std::vector<std::string> areas;
  for (const RuleInfo* r : rules) {
    std::string area(r->id.substr(0, r->id.find('.')));
    if (selects(r->id, sel)) return std::nullopt;
    if (std::find(areas.begin(), areas.end(), area) == areas.end()) areas.push_back(area);
  }
  const std::string s(sel);
  const Family first = *families.begin();
  if (const RuleInfo* other = find_rule(s))
    return "'" + s + "' is a " + std::string(to_string(other->family)) + " rule: it is judged by `" +
           std::string(command_of(other->family)) + "`, not `" + std::string(command_of(first)) + "`";
  std::string best;
  std::size_t best_d = std::string::npos;
  auto consider = [&](const std::string& cand) {
    std::size_t d = text::edit_distance(text::to_lower(s), cand);
    if (d < best_d) best_d = d, best = cand;
  };
  for (const RuleInfo* r : rules) consider(std::string(r->id));
  for (const std::string& a : areas) consider(a);
  std::string msg = "unknown rule id or area '" + s + "'";
  if (best_d <= std::max<std::size_t>(2, s.size() / 4)) msg += ": did you mean '" + best + "'?";
  msg += " (areas: " + join(areas, ", ") + "; `rocekit rules list` shows every id)";
  return msg;
}

std::optional<std::string> host_selector_error(std::string_view sel) { return selector_error({Family::host}, sel); }

std::vector<std::string> policy_rule_ids() {
  std::vector<std::string> out;
  for (const RuleInfo& r : registry())
    if (r.family != Family::diagnose) out.emplace_back(r.id);
  return out;
}

std::size_t Report::count(Outcome o) const {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [o](const Finding& f) { return f.outcome == o; }));
}

bool Report::has_failure_at_or_above(Severity threshold) const {
  return std::any_of(findings.begin(), findings.end(), [threshold](const Finding& f) {
    return f.outcome == Outcome::fail && static_cast<int>(f.severity) >= static_cast<int>(threshold);
  });
}

namespace {
/// A BlueField in DPU mode applies firmware NV changes only at a power cycle of the host, not at
/// a warm reboot or mstfwreset (k8snetworkplumbingwg/sriov-network-operator issue 662), and a
/// firmware reset also resets its Arm OS: a fix's `mstfwreset -d <BDF>` for such a card becomes
/// a power-cycle note, as `rocekit plan` words the step (plan.cpp).
void dpu_power_cycle(const Snapshot& s, std::vector<Finding>& findings) {
  std::vector<std::string> dpu_devices;  // "0000:03:00"
  for (const PciFunction& p : s.pci_functions)
    if (p.bluefield_mode && p.bluefield_mode->mode == "dpu") dpu_devices.push_back(p.bdf.substr(0, 10));
  if (dpu_devices.empty()) return;
  for (Finding& f : findings) {
    std::vector<std::string>& cmds = f.remediation.commands;
    auto dpu_reset = [&](const std::string& c) {
      if (!c.starts_with("mstfwreset -d ") && !c.starts_with("mlxfwreset -d ")) return false;
      std::string dev = c.substr(14, 10);
      return std::find(dpu_devices.begin(), dpu_devices.end(), dev) != dpu_devices.end();
    };
    if (std::none_of(cmds.begin(), cmds.end(), dpu_reset)) continue;
    std::erase_if(cmds, dpu_reset);
    f.remediation.notes += std::string(f.remediation.notes.empty() ? "" : " ") +
                           "This BlueField is in DPU mode: the change takes effect only after a power cycle of the "
                           "host (a cold boot), not at a warm reboot or mstfwreset, and a firmware reset also resets "
                           "the Arm OS (k8snetworkplumbingwg/sriov-network-operator issue 662).";
  }
}
}  // namespace

Report evaluate(const Snapshot& snapshot, const Policy& policy,
                const std::vector<std::string>& only) {
  Report report;
  report.findings.reserve(256);  // an 8-NIC host gives about 200: no reallocation of large Findings
  for (const RuleInfo& rule : all_rules()) {
    std::string id(rule.id);
    if (!policy.rule_enabled(id)) continue;
    if (!selects_any(id, only)) continue;
    Emitter emit(rule, policy.severity_for(id, rule.severity), report.findings);
    rule.eval(snapshot, policy, emit);
  }
  dpu_power_cycle(snapshot, report.findings);
  return report;
}

}  // namespace rk::rules

#include "rocekit/rules/judged.hpp"

namespace rk::rules {

namespace {
bool judged(const Finding& f) { return f.outcome == Outcome::pass || f.outcome == Outcome::fail; }
}  // namespace

bool anything_judged(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), judged);
}

bool no_roce_port_judged(const Snapshot& s, const std::vector<Finding>& findings) {
  // A BlueField's Arm side judged for its DOCA services (dpu.*): the input was judged, though it
  // may hold no RDMA device.
  if (std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return judged(f) && f.rule.starts_with("dpu."); }))
    return false;
  // Switch findings name "<port> <-> <netdev>" (the netdev prefixed by "<hostname>:" when the
  // snapshot names its host): the netdev is the part after the arrow.
  auto netdev_of = [&](const std::string& subject) {
    std::size_t arrow = subject.rfind(" <-> ");
    std::string n = arrow == std::string::npos ? subject : subject.substr(arrow + 5);
    if (arrow != std::string::npos && !s.hostname.empty() && n.starts_with(s.hostname + ":")) n.erase(0, s.hostname.size() + 1);
    return n;
  };
  // A switch finding on a netdev of the input: the host has a RoCE netdev (QoS state or an RDMA
  // device) that was paired with a switch port; when nothing was judged, the switch side is why.
  const bool paired = std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
    return f.subject.find(" <-> ") != std::string::npos && s.find_netdev(netdev_of(f.subject));
  });
  return s.rdma_devices.empty() && !paired && std::none_of(findings.begin(), findings.end(), [&](const Finding& f) {
           return judged(f) && s.find_netdev(netdev_of(f.subject));
         });
}

std::vector<std::string> not_judged_reasons(const Snapshot& s, const std::vector<Finding>& findings) {
  std::vector<std::string> why;
  // A host with no RDMA device, where no netdev was judged either, is not a healthy RoCE host.
  if (no_roce_port_judged(s, findings))
    why.push_back("no RDMA device and no RoCE netdev in the input: no RoCE port was judged");
  for (const InputFile& in : s.inputs)
    if (in.status == "error" || in.status == "ignored") why.push_back(in.file + " was not used (" + in.status + ")");
  if (!anything_judged(findings)) why.push_back("no rule could pass or fail on this input");
  return why;
}

}  // namespace rk::rules

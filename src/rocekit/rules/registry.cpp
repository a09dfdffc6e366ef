#include <algorithm>

#include "rocekit/rules/rule.hpp"

namespace rk::rules {

Finding& Emitter::add(std::string subject, Outcome outcome, std::string message) {
  Finding f;
  f.rule = std::string(m_rule.id);
  f.subject = std::move(subject);
  f.outcome = outcome;
  f.severity = m_severity;
  f.message = std::move(message);
  m_out.push_back(std::move(f));
  return m_out.back();
}

const std::vector<RuleInfo>& all_rules() {
  static const std::vector<RuleInfo> k_rules = [] {
    std::vector<RuleInfo> v;
    add_roce_rules(v);
    add_qos_rules(v);
    add_pcie_rules(v);
    add_host_rules(v);
    add_fw_rules(v);
    add_persistence_rules(v);
    return v;
  }();
  return k_rules;
}

const RuleInfo* find_rule(std::string_view id) {
  for (const RuleInfo& r : all_rules())
    if (r.id == id) return &r;
  return nullptr;
}

std::vector<std::string> rule_ids() {
  std::vector<std::string> out;
  for (const RuleInfo& r : all_rules()) out.emplace_back(r.id);
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

Report evaluate(const Snapshot& snapshot, const Policy& policy,
                const std::vector<std::string>& only) {
  Report report;
  for (const RuleInfo& rule : all_rules()) {
    std::string id(rule.id);
    if (!policy.rule_enabled(id)) continue;
    if (!only.empty()) {
      std::string family = id.substr(0, id.find('.'));
      bool selected = std::any_of(only.begin(), only.end(), [&](const std::string& s) {
        return s == id || s == family;
      });
      if (!selected) continue;
    }
    Emitter emit(rule, policy.severity_for(id, rule.severity), report.findings);
    rule.eval(snapshot, policy, emit);
  }
  return report;
}

}  // namespace rk::rules

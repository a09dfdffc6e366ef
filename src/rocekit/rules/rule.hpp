// Rules: the RoCE policy evaluated on a snapshot. Each rule has a stable id (a public
// contract), a severity, a title, the rationale, the seed passage it implements, and an
// evaluator that emits one Finding per subject.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rocekit/model/finding.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk::rules {

class Emitter;
using EvalFn = void (*)(const Snapshot&, const Policy&, Emitter&);

struct RuleInfo {
  std::string_view id;         ///< "<family>.<kebab-name>", stable forever
  std::string_view title;
  Severity severity;           ///< built-in severity of a failure (policy may re-grade)
  std::string_view subject;    ///< what a subject is: "netdev", "rdma port", "pci function", ...
  std::string_view rationale;  ///< why it matters
  std::string_view seed;       ///< the seed passage implemented, and corrections to it
  EvalFn eval;
};

/// Collects findings for one rule; fills rule id and severity.
class Emitter {
 public:
  Emitter(const RuleInfo& rule, Severity severity, std::vector<Finding>& out)
      : m_rule(rule), m_severity(severity), m_out(out) {}
  Finding& add(std::string subject, Outcome outcome, std::string message);
  Finding& pass(std::string subject, std::string message) {
    return add(std::move(subject), Outcome::pass, std::move(message));
  }
  Finding& fail(std::string subject, std::string message) {
    return add(std::move(subject), Outcome::fail, std::move(message));
  }
  Finding& unknown(std::string subject, std::string message) {
    return add(std::move(subject), Outcome::unknown, std::move(message));
  }
  Finding& not_applicable(std::string subject, std::string message) {
    return add(std::move(subject), Outcome::not_applicable, std::move(message));
  }

 private:
  const RuleInfo& m_rule;
  Severity m_severity;
  std::vector<Finding>& m_out;
};

/// Every rule, in report order. The registry is this literal table (rules/registry.cpp).
const std::vector<RuleInfo>& all_rules();
const RuleInfo* find_rule(std::string_view id);
std::vector<std::string> rule_ids();

struct Report {
  std::vector<Finding> findings;
  std::size_t count(Outcome o) const;
  /// True when a failure at or above `threshold` exists.
  bool has_failure_at_or_above(Severity threshold) const;
};

/// Runs every enabled rule of the policy on the snapshot. `only` restricts to rule ids or
/// families (prefix before '.'); empty = all. Findings are ordered by rule table order, then
/// subject as emitted.
Report evaluate(const Snapshot& snapshot, const Policy& policy,
                const std::vector<std::string>& only = {});

// Rule families (one file each).
void add_roce_rules(std::vector<RuleInfo>& out);
void add_qos_rules(std::vector<RuleInfo>& out);
void add_pcie_rules(std::vector<RuleInfo>& out);
void add_host_rules(std::vector<RuleInfo>& out);
void add_fw_rules(std::vector<RuleInfo>& out);
void add_persistence_rules(std::vector<RuleInfo>& out);

}  // namespace rk::rules

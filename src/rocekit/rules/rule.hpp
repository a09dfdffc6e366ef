// Rules: the RoCE policy evaluated on a snapshot. Each rule has a stable id (a public
// contract), a severity, a title, the rationale, the passage it implements, the outcomes it can
// give, and (host rules) an evaluator that emits one Finding per subject.
//
// One registry holds every family: the host rules (`rocekit check`, evaluated here), the switch
// alignment rules (`rocekit switch check`, evaluated by switchcfg::check_alignment), the fleet
// rules (`rocekit fleet`, evaluated by fleet::compare) and the diagnosis rules (`rocekit
// diagnose`, evaluated by diagnose::diagnose). `rules list`, `rules explain`, docs/rules.md and
// the rule ids a policy may configure are all derived from it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/model/finding.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk::rules {

class Emitter;
using EvalFn = void (*)(const Snapshot&, const Policy&, Emitter&);

/// Which command evaluates a rule.
enum class Family : std::uint8_t {
  host,         ///< `rocekit check`: one host's snapshot (rules::evaluate)
  switch_port,  ///< `rocekit switch check`: host snapshot against a switch QoS configuration
  fleet,        ///< `rocekit fleet`: one setting compared across hosts
  diagnose,     ///< `rocekit diagnose`: counter deltas between two samples
};
/// "host", "switch", "fleet", "diagnose".
std::string_view to_string(Family f);
/// The command that evaluates the family: "rocekit check", "rocekit switch check", ...
std::string_view command_of(Family f);

/// The outcomes a rule can give (a set of Outcome).
class OutcomeSet {
 public:
  constexpr OutcomeSet() = default;
  constexpr OutcomeSet(std::initializer_list<Outcome> list) {
    for (Outcome o : list) m_bits = static_cast<std::uint8_t>(m_bits | bit(o));
  }
  constexpr bool has(Outcome o) const { return (m_bits & bit(o)) != 0; }
  constexpr bool empty() const { return m_bits == 0; }
  /// In the order pass, fail, unknown, not_applicable.
  std::vector<Outcome> list() const;

 private:
  static constexpr std::uint8_t bit(Outcome o) {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(o));
  }
  std::uint8_t m_bits = 0;
};
inline constexpr OutcomeSet k_any_outcome{Outcome::pass, Outcome::fail, Outcome::unknown,
                                          Outcome::not_applicable};
inline constexpr OutcomeSet k_pass_fail_unknown{Outcome::pass, Outcome::fail, Outcome::unknown};

/// One row of the rule registry. Every family uses this type; fields a family does not use are
/// empty.
struct RuleInfo {
  std::string_view id;         ///< "<area>.<kebab-name>", stable forever
  std::string_view title;
  Severity severity;           ///< built-in severity of a failure (policy may re-grade)
  std::string_view subject;    ///< what a subject is: "netdev", "rdma port", "all NICs", ...
  std::string_view rationale;  ///< why it matters
  std::string_view seed{};     ///< references: the passage implemented, and corrections to it
  EvalFn eval = nullptr;       ///< host rules: the evaluator; other families evaluate elsewhere
  OutcomeSet outcomes{};       ///< every outcome the rule can give (tests hold one case each)
  std::string_view inputs{};   ///< what the rule reads (and is `unknown` without)
  Family family = Family::host;
  std::string_view host_fix{};    ///< switch rules: what to change on the host side
  std::string_view switch_fix{};  ///< switch rules: what to change on the switch side
  std::string_view setting{};     ///< fleet rules: the setting id compared ("" = several)
  std::string_view value_form{};  ///< fleet rules: the canonical value string compared
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
  /// unknown because `c` is missing: "<what> not collected: <reason>", with its kind and tool.
  template <class T>
  Finding& missing(std::string subject, std::string_view what, const Collected<T>& c) {
    Finding& f = unknown(std::move(subject), std::string(what) + " not collected: " +
                                                 (c.reason.empty() ? std::string("not in the input") : c.reason));
    f.reason_kind = c.reason_kind;
    if (!c.needs.empty()) f.needs.push_back(c.needs);
    return f;
  }
  Finding& not_applicable(std::string subject, std::string message) {
    return add(std::move(subject), Outcome::not_applicable, std::move(message));
  }

 private:
  const RuleInfo& m_rule;
  Severity m_severity;
  std::vector<Finding>& m_out;
};

/// Every rule of every family: host rules in report order, then switch, fleet and diagnose
/// rules (rules/registry.cpp assembles the family tables).
const std::vector<RuleInfo>& registry();
/// The rules of one family, in registry order.
const std::vector<RuleInfo>& rules_of(Family f);
/// The host rules (Family::host), in report order: what evaluate() runs.
const std::vector<RuleInfo>& all_rules();
/// A rule of any family by id; nullptr when unknown.
const RuleInfo* find_rule(std::string_view id);
/// Ids of the host rules.
std::vector<std::string> rule_ids();
/// Why `selector` (a `--rule` value of `rocekit check`: a host rule id or its area, e.g.
/// "qos.trust-dscp" or "qos") selects no host rule, with the nearest id or area ("did you mean
/// ..."); nullopt when it selects one.
std::optional<std::string> host_selector_error(std::string_view selector);
/// The same for the rules of `families` (the first names the command in the message), e.g.
/// {Family::fleet, Family::host, Family::switch_port} for `rocekit fleet --rule`.
std::optional<std::string> selector_error(std::initializer_list<Family> families, std::string_view selector);
/// True when `selector` is the rule id or its area (the part before the first '.').
bool selects(std::string_view id, std::string_view selector);
/// True when `selectors` is empty or one of them selects `id`.
bool selects_any(std::string_view id, const std::vector<std::string>& selectors);
/// Ids a policy's `rules:` section may configure: host, switch and fleet rules (diagnose rules
/// take thresholds from the policy's `diagnose:` section instead).
std::vector<std::string> policy_rule_ids();

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
void add_qos_ets_rules(std::vector<RuleInfo>& out);  // ETS and PFC headroom (qos_ets_rules.cpp)
void add_app_rules(std::vector<RuleInfo>& out);
void add_pcie_rules(std::vector<RuleInfo>& out);
void add_host_rules(std::vector<RuleInfo>& out);
void add_path_rules(std::vector<RuleInfo>& out);
void add_fw_rules(std::vector<RuleInfo>& out);
void add_fw_compat_rules(std::vector<RuleInfo>& out);  // fw.driver-compat (fw_compat_rules.cpp)
void add_bluefield_rules(std::vector<RuleInfo>& out);  // fw.dpu-minimum (bluefield_rules.cpp)
void add_dpu_resource_rules(std::vector<RuleInfo>& out);  // dpu.service-resources (dpu_resources_rules.cpp)
void add_persistence_rules(std::vector<RuleInfo>& out);
// Rows of the families evaluated outside this library (table_*.cpp).
void add_switch_rules(std::vector<RuleInfo>& out);
void add_fleet_rules(std::vector<RuleInfo>& out);
void add_diagnose_rules(std::vector<RuleInfo>& out);

}  // namespace rk::rules

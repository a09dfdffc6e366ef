#include <gtest/gtest.h>

#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk {
namespace {

Result<Policy> load(std::string_view yaml) {
  return load_policy_text(yaml, "site.yaml", rules::rule_ids());
}

TEST(Policy, RulesSectionTakesSwitchAndFleetIdsFromTheRegistry) {
  Result<Policy> p = load_policy_text(
      "rules:\n  switch.extra-lossless: {enabled: false}\n  fleet.pfc-consistent: {severity: warning}\n",
      "site.yaml", rules::policy_rule_ids());
  ASSERT_TRUE(p.has_value()) << p.error().describe();
  EXPECT_FALSE(p->rule_enabled("switch.extra-lossless"));
  EXPECT_EQ(p->severity_for("fleet.pfc-consistent", Severity::critical), Severity::warning);
  EXPECT_TRUE(p->rule_enabled("switch.mtu"));
  // Diagnosis rules take thresholds (`diagnose:`), not `rules:` entries.
  Result<Policy> d = load_policy_text("rules:\n  diag.pause-storm: {enabled: false}\n", "site.yaml",
                                      rules::policy_rule_ids());
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.error().context, "site.yaml:2:3");
  EXPECT_EQ(d.error().message, "unknown rule id 'diag.pause-storm' (see `rocekit rules list`)");
  Result<Policy> input = load_policy_text("rules:\n  fleet.input-loaded: {enabled: false}\n",
                                          "site.yaml", rules::policy_rule_ids());
  ASSERT_FALSE(input.has_value());
  EXPECT_EQ(input.error().context, "site.yaml:2:3");
}

TEST(Policy, BadSeverityAndDuplicateRuleNameTheirLine) {
  Result<Policy> a = load("rules:\n  net.mtu: {severity: fatal}\n");
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().message, "severity must be info, warning, error or critical");
  EXPECT_EQ(a.error().context, "site.yaml:2:23");
  Result<Policy> b = load("rules:\n  net.mtu: {enabled: false}\n  net.mtu: {enabled: true}\n");
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(b.error().context, "site.yaml:3:3");
  EXPECT_NE(b.error().message.find("duplicate"), std::string::npos) << b.error().message;
}

TEST(Policy, DefaultIsTheSeedIntent) {
  Policy p = default_policy();
  EXPECT_EQ(p.roce_priority, 3);
  EXPECT_EQ(p.roce_dscp, 26);
  EXPECT_EQ(p.cnp_dscp, 48);
  EXPECT_EQ(p.cnp_priority, 6);
  EXPECT_EQ(p.trust, "dscp");
  EXPECT_EQ(p.pfc_priorities, std::vector<int>{3});
  EXPECT_EQ(p.netdev_mtu_min_bytes, 4200);
  EXPECT_EQ(p.roce_active_mtu_bytes, 4096);
  EXPECT_EQ(p.max_read_request_bytes, 4096);
  EXPECT_EQ(p.coalescing.name, "ai-training");
  EXPECT_EQ(p.coalescing.adaptive_rx, false);
}

TEST(Policy, OverridesValuesAndRules) {
  Result<Policy> p = load(
      "roce:\n  priority: 4\n  dscp: 34\n  pfc_priorities: [4]\ncnp:\n  dscp: 46\n"
      "rules:\n  irq.coalescing: {enabled: false}\n  fw.uniform-version: {severity: critical}\n");
  ASSERT_TRUE(p.has_value()) << p.error().describe();
  EXPECT_EQ(p->roce_priority, 4);
  EXPECT_EQ(p->roce_dscp, 34);
  EXPECT_EQ(p->pfc_priorities, std::vector<int>{4});
  EXPECT_EQ(p->cnp_dscp, 46);
  EXPECT_EQ(p->cnp_priority, 6);
  EXPECT_FALSE(p->rule_enabled("irq.coalescing"));
  EXPECT_TRUE(p->rule_enabled("net.mtu"));
  EXPECT_EQ(p->severity_for("fw.uniform-version", Severity::warning), Severity::critical);
}

TEST(Policy, UnknownKeyNamesFileLineAndColumn) {
  Result<Policy> p = load("roce:\n  priority: 3\n  dscpp: 26\n");
  ASSERT_FALSE(p.has_value());
  EXPECT_EQ(p.error().context, "site.yaml:3:3");
  EXPECT_NE(p.error().message.find("unknown key 'dscpp'"), std::string::npos);
}

TEST(Policy, RejectsOutOfRangeAndUnknownRule) {
  Result<Policy> a = load("roce:\n  dscp: 64\n");
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().context, "site.yaml:2:9");
  Result<Policy> b = load("rules:\n  qos.no-such-rule: {enabled: false}\n");
  ASSERT_FALSE(b.has_value());
  EXPECT_NE(b.error().message.find("unknown rule id"), std::string::npos);
  Result<Policy> c = load("pcie:\n  max_read_request_bytes: 3000\n");
  ASSERT_FALSE(c.has_value());
  Result<Policy> d = load("roce: [1, 2\n");
  ASSERT_FALSE(d.has_value());
  EXPECT_NE(d.error().context.find("site.yaml:"), std::string::npos);
}

TEST(Policy, ShowRoundTrips) {
  Result<Policy> p = load("roce:\n  priority: 5\n  pfc_priorities: [5]\nrules:\n  net.mtu: {severity: info}\n");
  ASSERT_TRUE(p.has_value());
  std::string yaml = policy_to_yaml(*p);
  Result<Policy> q = load(yaml);
  ASSERT_TRUE(q.has_value()) << q.error().describe() << "\n" << yaml;
  EXPECT_EQ(policy_to_yaml(*q), yaml);
  EXPECT_EQ(q->roce_priority, 5);
}

}  // namespace
}  // namespace rk

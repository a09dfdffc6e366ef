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

// The error of a policy that must not load, as the CLI prints it after "rocekit: error: ".
std::string refusal(std::string_view yaml) {
  Result<Policy> p = load(yaml);
  return p.has_value() ? "(loaded)" : p.error().describe();
}

// yaml-cpp converts "9000" and 9000 alike; a quoted scalar is a string in YAML and is refused
// where a number or a boolean goes, with the value to write instead.
TEST(PolicyStrict, QuotedScalarIsNotANumberOrABoolean) {
  EXPECT_EQ(refusal("rules:\n  net.mtu: {enabled: \"no\"}\n"),
            "site.yaml:2:22: rules.net.mtu.enabled: \"no\" is quoted, so it is a string, not true "
            "or false: write false without quotes");
  EXPECT_EQ(refusal("mtu:\n  netdev_min_bytes: \"9000\"\n"),
            "site.yaml:2:21: mtu.netdev_min_bytes: \"9000\" is quoted, so it is a string, not an "
            "integer: write 9000 without quotes");
  EXPECT_EQ(refusal("roce: {pfc_priorities: [3, '4']}\n"),
            "site.yaml:1:28: roce.pfc_priorities entry: \"4\" is quoted, so it is a string, not an "
            "integer: write 4 without quotes");
  EXPECT_EQ(refusal("diagnose: {storm_occupancy: \"0.5\"}\n"),
            "site.yaml:1:29: diagnose.storm_occupancy: \"0.5\" is quoted, so it is a string, not a "
            "number: write 0.5 without quotes");
  EXPECT_EQ(refusal("channels: {limit_to_numa_cores: !!str true}\n"),
            "site.yaml:1:33: channels.limit_to_numa_cores: \"true\" is quoted, so it is a string, "
            "not true or false: write true without quotes");
  // A quoted string that is no number at all keeps the plain type error.
  EXPECT_EQ(refusal("roce:\n  priority: \"3; reboot\"\n"),
            "site.yaml:2:13: roce.priority must be an integer");
  // Plain scalars (YAML 1.1 booleans included) and explicit core tags still load.
  Result<Policy> ok = load("mtu: {netdev_min_bytes: !!int 9000}\nrules:\n  net.mtu: {enabled: no}\n");
  ASSERT_TRUE(ok.has_value()) << ok.error().describe();
  EXPECT_EQ(ok->netdev_mtu_min_bytes, 9000);
  EXPECT_FALSE(ok->rule_enabled("net.mtu"));
}

TEST(PolicyStrict, PriorityListedTwiceIsRefusedAtItsSecondEntry) {
  EXPECT_EQ(refusal("roce:\n  pfc_priorities: [3, 3]\n"),
            "site.yaml:2:23: roce.pfc_priorities: priority 3 is listed twice");
  EXPECT_EQ(refusal("roce:\n  ecn_priorities:\n    - 3\n    - 2\n    - 3\n"),
            "site.yaml:5:7: roce.ecn_priorities: priority 3 is listed twice");
}

// Contradicting settings are refused at the key to change, saying what to change.
TEST(PolicyStrict, RocePriorityWithoutPfcIsRefused) {
  EXPECT_EQ(refusal("roce:\n  priority: 5\n  pfc_priorities: [3]\n"),
            "site.yaml:3:19: roce.pfc_priorities: [3] leaves the RoCE priority 5 (roce.priority) "
            "without PFC: RoCE needs a lossless priority; add 5 to roce.pfc_priorities or set "
            "roce.priority to a priority listed there");
  EXPECT_EQ(refusal("roce: {pfc_priorities: []}\n"),
            "site.yaml:1:24: roce.pfc_priorities: [] leaves the RoCE priority 3 (roce.priority) "
            "without PFC: RoCE needs a lossless priority; add 3 to roce.pfc_priorities or set "
            "roce.priority to a priority listed there");
}

TEST(PolicyStrict, CnpPriorityInPfcOrOnTheRocePriorityIsRefused) {
  EXPECT_EQ(refusal("roce: {pfc_priorities: [3, 6]}\n"),
            "site.yaml:1:24: roce.pfc_priorities: [3, 6] includes the CNP priority 6 (cnp.priority): "
            "CNPs must never wait for a PFC pause to end; remove 6 from roce.pfc_priorities or set "
            "cnp.priority to a priority without PFC");
  EXPECT_EQ(refusal("cnp:\n  priority: 3\n"),
            "site.yaml:2:13: cnp.priority: 3 is the RoCE priority (roce.priority): CNPs need a "
            "priority of their own, without PFC (docs/policy.md); set cnp.priority to another "
            "priority (the default is 6)");
  EXPECT_EQ(refusal("roce: {priority: 6}\n"),
            "site.yaml:1:18: roce.priority: 6 is the CNP priority (cnp.priority, by default 6): CNPs "
            "need a priority of their own, without PFC (docs/policy.md); set cnp.priority to "
            "another priority");
  EXPECT_EQ(refusal("cnp: {dscp: 26}\n"),
            "site.yaml:1:13: cnp.dscp: 26 is the RoCE DSCP (roce.dscp): one DSCP maps to one "
            "priority, and CNPs go to priority 6, RoCE data to 3; set cnp.dscp to another DSCP "
            "(the default is 48)");
}

TEST(PolicyStrict, EcnWithoutTheRocePriorityIsRefused) {
  EXPECT_EQ(refusal("roce:\n  ecn_priorities: [4]\n"),
            "site.yaml:2:19: roce.ecn_priorities: [4] does not include the RoCE priority 3 "
            "(roce.priority): DCQCN (ECN marking and CNPs) must run on the RoCE priority; add 3 to "
            "roce.ecn_priorities");
}

// Lists the file leaves out are the RoCE priority alone, as in the built-in profile: moving
// RoCE is one key, and a policy that names the lists keeps them.
TEST(PolicyStrict, UnlistedPfcAndEcnFollowTheRocePriority) {
  Result<Policy> p = load("roce: {priority: 5}\n");
  ASSERT_TRUE(p.has_value()) << p.error().describe();
  EXPECT_EQ(p->pfc_priorities, std::vector<int>{5});
  EXPECT_EQ(p->ecn_priorities, std::vector<int>{5});
  Result<Policy> q = load("roce: {priority: 5, pfc_priorities: [5, 2], ecn_priorities: [5, 3]}\n");
  ASSERT_TRUE(q.has_value()) << q.error().describe();
  EXPECT_EQ(q->pfc_priorities, (std::vector<int>{2, 5}));
  EXPECT_EQ(q->ecn_priorities, (std::vector<int>{3, 5}));
}

// fw.releases-behind warns at firmware.warn_releases_behind trains behind the newest (1..99).
TEST(Policy, FirmwareReleasesBehindIsValidated) {
  EXPECT_EQ(default_policy().firmware_warn_releases_behind, 5);
  Result<Policy> p = load("firmware:\n  warn_releases_behind: 3\n");
  ASSERT_TRUE(p.has_value()) << p.error().describe();
  EXPECT_EQ(p->firmware_warn_releases_behind, 3);
  EXPECT_NE(policy_to_yaml(*p).find("warn_releases_behind: 3"), std::string::npos);
  Result<Policy> zero = load("firmware:\n  warn_releases_behind: 0\n");
  ASSERT_FALSE(zero.has_value());
  EXPECT_EQ(zero.error().context, "site.yaml:2:25");
  EXPECT_NE(zero.error().message.find("firmware.warn_releases_behind"), std::string::npos);
  EXPECT_FALSE(load("firmware:\n  warn_releases_behind: 100\n").has_value());
  EXPECT_NE(refusal("firmware:\n  warn_releases_behind: \"4\"\n").find("is quoted"), std::string::npos);
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

// Renderers (render/render.hpp): one failing and one passing finding on a hand-built snapshot, as
// text, Markdown and JSON, line by line; and the rule list / explain of every family.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/render/render.hpp"

namespace rk {
namespace {

Snapshot host() {
  Snapshot s;
  s.hostname = "node-a";
  s.source = {SourceKind::capture_dir, "/captures/node-a"};
  s.netdev("eth4").bdf = "0000:3b:00.0";
  return s;
}

rules::Report report() {
  rules::Report r;
  Finding fail;
  fail.rule = "qos.trust-dscp";
  fail.subject = "eth4";
  fail.outcome = Outcome::fail;
  fail.severity = Severity::error;
  fail.message = "trust pcp, policy dscp";
  fail.evidence.push_back({"mlnx_qos@eth4.txt", 2, "Priority trust state: pcp"});
  fail.remediation.commands = {"mlnx_qos -i eth4 --trust dscp"};
  fail.remediation.notes = "Runtime only.";
  fail.remediation.scope = FixScope::runtime;
  Finding pass;
  pass.rule = "net.mtu";
  pass.subject = "eth4";
  pass.outcome = Outcome::pass;
  pass.severity = Severity::error;
  pass.message = "MTU 9000";
  r.findings = {pass, fail};
  return r;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(RenderText, SummaryFirstThenDetailWithEvidenceWhyAndFix) {
  std::string why(rules::find_rule("qos.trust-dscp")->rationale);
  std::vector<std::string> summary{
      "rocekit check: node-a (/captures/node-a)",
      "policy default: 1 fail, 0 unknown, 1 pass, 0 not applicable",
      "FAIL: 1 rule fails on 1 subject (1 error)",
      "",
      "FAIL  qos.trust-dscp [error] on eth4",
      "      trust pcp, policy dscp",
      "      fix:   $ mlnx_qos -i eth4 --trust dscp",
      "",
      "PASS  net.mtu",
      "",
      "per-subject detail (evidence, why, alternatives, checks): add --detail",
  };
  EXPECT_EQ(lines(render::report(host(), report(), render::Format::text, {})), summary);
  render::Options detail;
  detail.detail = true;
  std::vector<std::string> want(summary.begin(), summary.end() - 2);
  for (std::string l : {"", "---- detail ----", "", "eth4 (0000:3b:00.0)",
                        "  FAIL     qos.trust-dscp               [error] trust pcp, policy dscp",
                        "           evidence: mlnx_qos@eth4.txt:2: Priority trust state: pcp"})
    want.push_back(l);
  want.push_back("           why: " + why);
  want.push_back("           fix: $ mlnx_qos -i eth4 --trust dscp");
  want.push_back("           note (runtime): Runtime only.");
  want.push_back("  pass     net.mtu                      MTU 9000");
  EXPECT_EQ(lines(render::report(host(), report(), render::Format::text, detail)), want);
  // --hide pass: out of the summary and the detail.
  detail.hide_pass = true;
  std::vector<std::string> no_pass = lines(render::report(host(), report(), render::Format::text, detail));
  want.pop_back();
  want.erase(want.begin() + 7, want.begin() + 9);  // "PASS  net.mtu" and its blank line
  EXPECT_EQ(no_pass, want);
}

TEST(RenderMarkdown, VerdictFailuresWithFixThenAllFindingsFolded) {
  std::vector<std::string> want{
      "## rocekit check: node-a",
      "",
      "Policy `default`: 1 fail, 0 unknown, 1 pass, 0 not applicable",
      "",
      "**FAIL: 1 rule fails on 1 subject (1 error)**",
      "",
      "### Failures",
      "",
      "#### `qos.trust-dscp` (error) on eth4",
      "",
      "trust pcp, policy dscp",
      "",
      "- evidence (`eth4`): `mlnx_qos@eth4.txt:2: Priority trust state: pcp`",
      "",
      "Fix (runtime, lost at reboot):",
      "",
      "```sh",
      "mlnx_qos -i eth4 --trust dscp",
      "```",
      "",
      "*Note*: Runtime only.",
      "",
      "<details><summary>All findings (2)</summary>",
      "",
      "| outcome | severity | rule | subject | finding |",
      "|---|---|---|---|---|",
      "| FAIL | error | `qos.trust-dscp` | `eth4` | trust pcp, policy dscp |",
      "| pass | error | `net.mtu` | `eth4` | MTU 9000 |",
      "",
      "</details>",
  };
  EXPECT_EQ(lines(render::report(host(), report(), render::Format::markdown, {})), want);
}

TEST(RenderJson, FindingFieldsAndSummary) {
  nlohmann::json j = nlohmann::json::parse(render::report(host(), report(), render::Format::json, {}));
  EXPECT_EQ(j["report_version"], 1);
  EXPECT_EQ(j["hostname"], "node-a");
  EXPECT_EQ(j["summary"], (nlohmann::json{{"fail", 1}, {"unknown", 0}, {"pass", 1}, {"not_applicable", 0}}));
  ASSERT_EQ(j["findings"].size(), 2u);
  const nlohmann::json& f = j["findings"][1];
  EXPECT_EQ(f["rule"], "qos.trust-dscp");
  EXPECT_EQ(f["subject"], "eth4");
  EXPECT_EQ(f["outcome"], "fail");
  EXPECT_EQ(f["severity"], "error");
  EXPECT_EQ(f["message"], "trust pcp, policy dscp");
  EXPECT_EQ(f["evidence"][0], (nlohmann::json{{"file", "mlnx_qos@eth4.txt"}, {"line", 2}, {"text", "Priority trust state: pcp"}}));
  EXPECT_EQ(f["remediation"]["commands"][0], "mlnx_qos -i eth4 --trust dscp");
  EXPECT_EQ(f["remediation"]["scope"], "runtime");
  EXPECT_EQ(j["findings"][0]["outcome"], "pass");
}

TEST(RenderRules, ListCoversEveryFamilyInEveryFormat) {
  std::vector<std::string> text = lines(render::rules_list(render::Format::text));
  EXPECT_EQ(text.size(), rules::registry().size());
  EXPECT_EQ(text.front().substr(0, 35), "link.port-active                   ");
  nlohmann::json j = nlohmann::json::parse(render::rules_list(render::Format::json));
  ASSERT_EQ(j.size(), rules::registry().size());
  std::string md = render::rules_list(render::Format::markdown);
  for (const rules::RuleInfo& r : rules::registry()) {
    EXPECT_NE(md.find("\n### `" + std::string(r.id) + "`\n"), std::string::npos) << r.id;
    EXPECT_FALSE(render::rule_explain(r.id).empty()) << r.id;
  }
  for (std::string_view h : {"## Host rules (`rocekit check`)", "## Switch alignment rules (`rocekit switch check`)",
                             "## Fleet rules (`rocekit fleet`)", "## Diagnosis rules (`rocekit diagnose`)"})
    EXPECT_NE(md.find(h), std::string::npos) << h;
  std::string fleet_only = render::rules_list(render::Format::markdown, rules::Family::fleet);
  EXPECT_EQ(fleet_only.find("qos.trust-dscp"), std::string::npos);
  EXPECT_NE(md.find(fleet_only), std::string::npos);
}

TEST(RenderRules, DocsRulesMdIsTheGeneratedList) {
  EXPECT_EQ(test::read_file(test::testdata_dir().parent_path() / "docs" / "rules.md"),
            render::rules_list(render::Format::markdown))
      << "docs/rules.md is stale: run rocekit rules list -f markdown > docs/rules.md";
}

TEST(RenderRules, ExplainFleetSwitchAndDiagnoseRules) {
  std::vector<std::string> fleet = lines(render::rule_explain("fleet.pfc-consistent"));
  ASSERT_GE(fleet.size(), 8u);
  EXPECT_EQ(fleet[0], "fleet.pfc-consistent: Same PFC priorities across the fleet");
  EXPECT_EQ(fleet[1], "family: fleet (rocekit fleet)");
  EXPECT_EQ(fleet[2], "severity: critical");
  EXPECT_EQ(fleet[3], "subject: all NICs");
  EXPECT_EQ(fleet[4], "outcomes: pass, fail, unknown");
  EXPECT_NE(render::rule_explain("fleet.pfc-consistent").find("value compared: enabled priorities `3`, `3,4` or `none`\n"),
            std::string::npos);
  std::string sw = render::rule_explain("switch.pfc-watchdog");
  EXPECT_NE(sw.find("family: switch (rocekit switch check)\n"), std::string::npos);
  EXPECT_NE(sw.find("outcomes: pass, fail, unknown, not_applicable\n"), std::string::npos);
  EXPECT_NE(sw.find("fix (switch): SONiC `config pfcwd start_default`"), std::string::npos);
  std::string diag = render::rule_explain("diag.pause-storm");
  EXPECT_NE(diag.find("family: diagnose (rocekit diagnose)\n"), std::string::npos);
  EXPECT_NE(diag.find("reads: ethtool -S tx_pause_storm_error_events"), std::string::npos);
  EXPECT_EQ(render::rule_explain("no.such-rule"), "");
}

}  // namespace
}  // namespace rk

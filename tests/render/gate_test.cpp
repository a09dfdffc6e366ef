// Health-gate renderers (render/gate.hpp): the XML escaper on hostile bytes, the JUnit document
// of a hand-built report line by line, and the one-line verdict: forms, order, bound.
#include <gtest/gtest.h>

#include "rocekit/render/gate.hpp"

namespace rk {
namespace {

Finding finding(std::string rule, std::string subject, Outcome o, Severity sev, std::string msg) {
  Finding f;
  f.rule = std::move(rule);
  f.subject = std::move(subject);
  f.outcome = o;
  f.severity = sev;
  f.message = std::move(msg);
  return f;
}

Snapshot host() {
  Snapshot s;
  s.hostname = "gpu01";
  s.source = {SourceKind::capture_dir, "/cap/gpu01"};
  return s;
}

rules::Report report() {
  rules::Report r;
  Finding trust = finding("qos.trust-dscp", "ens6", Outcome::fail, Severity::error, "trust pcp, policy dscp");
  trust.evidence.push_back({"mlnx_qos@ens6.txt", 3, "Priority trust state: pcp"});
  trust.remediation.commands = {"mlnx_qos -i ens6 --trust dscp"};
  trust.remediation.scope = FixScope::runtime;
  trust.remediation.action = "trust";
  trust.remediation.current = "pcp";
  trust.remediation.desired = "dscp";
  Finding ecn = finding("qos.ecn", "ens6", Outcome::fail, Severity::warning, "ECN off on priority 3");
  Finding unknown = finding("pcie.mrrs", "0000:3b:00.0", Outcome::unknown, Severity::warning,
                            "lspci -vvv not captured");
  unknown.needs = {"lspci_vvv"};
  Finding pass = finding("net.mtu", "ens6", Outcome::pass, Severity::error, "MTU 9000");
  Finding na = finding("gpudirect.peer-memory", "host", Outcome::not_applicable, Severity::error, "no GPU");
  r.findings = {ecn, pass, trust, unknown, na};
  return r;
}

TEST(XmlEscape, MarkupQuotesAndWhitespace) {
  EXPECT_EQ(render::xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;\"c'");
  EXPECT_EQ(render::xml_escape("a<b>&\"c'", true), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(render::xml_escape("x\ty\nz\r"), "x\ty\nz&#13;");
  EXPECT_EQ(render::xml_escape("x\ty\nz", true), "x&#9;y&#10;z");
}

TEST(XmlEscape, ControlCharactersAndBadUtf8NeverReachTheDocument) {
  EXPECT_EQ(render::xml_escape(std::string("a\x01\x1b[31m\x7f", 8)), "a\\x01\\x1b[31m\\x7f");
  EXPECT_EQ(render::xml_escape(std::string("n\0x", 3)), "n\\x00x");
  // A stray continuation byte, a cut sequence, an overlong '/', a surrogate, U+FFFE.
  EXPECT_EQ(render::xml_escape("\x80"), "\xef\xbf\xbd");
  EXPECT_EQ(render::xml_escape("ab\xc3"), "ab\xef\xbf\xbd");
  EXPECT_EQ(render::xml_escape("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(render::xml_escape("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(render::xml_escape("\xef\xbf\xbe"), "\xef\xbf\xbd");
  // Well-formed UTF-8 passes unchanged.
  EXPECT_EQ(render::xml_escape("gpu-\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), "gpu-\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
}

TEST(Junit, OneSuiteFailuresWithEvidenceAndFixUnknownSkippedNotApplicableLeftOut) {
  render::Options o;
  std::string xml = render::report_junit(host(), report(), o);
  EXPECT_EQ(xml,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"rocekit check\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\">\n"
            "  <testsuite name=\"gpu01\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\" hostname=\"gpu01\">\n"
            "    <properties>\n"
            "      <property name=\"policy\" value=\"default\"/>\n"
            "      <property name=\"source\" value=\"/cap/gpu01\"/>\n"
            "      <property name=\"verdict\" value=\"FAIL\"/>\n"
            "      <property name=\"not_applicable\" value=\"1\"/>\n"
            "    </properties>\n"
            "    <testcase classname=\"rocekit.qos\" name=\"qos.ecn ens6\">\n"
            "      <failure message=\"ECN off on priority 3\" type=\"warning\"></failure>\n"
            "    </testcase>\n"
            "    <testcase classname=\"rocekit.net\" name=\"net.mtu ens6\"/>\n"
            "    <testcase classname=\"rocekit.qos\" name=\"qos.trust-dscp ens6\">\n"
            "      <failure message=\"trust pcp, policy dscp\" type=\"error\">trust: found pcp, policy wants dscp\n"
            "evidence: mlnx_qos@ens6.txt:3: Priority trust state: pcp\n"
            "fix (runtime): $ mlnx_qos -i ens6 --trust dscp\n"
            "</failure>\n"
            "    </testcase>\n"
            "    <testcase classname=\"rocekit.pcie\" name=\"pcie.mrrs 0000:3b:00.0\">\n"
            "      <skipped message=\"lspci -vvv not captured\">needs: lspci_vvv\n"
            "</skipped>\n"
            "    </testcase>\n"
            "  </testsuite>\n"
            "</testsuites>\n");
}

TEST(Verdict, OkCountsPassedRulesAndSaysWhatWasNotJudged) {
  rules::Report r;
  r.findings = {finding("net.mtu", "a", Outcome::pass, Severity::error, ""),
                finding("net.mtu", "b", Outcome::pass, Severity::error, ""),
                finding("qos.trust-dscp", "a", Outcome::pass, Severity::error, "")};
  EXPECT_EQ(render::verdict_line(host(), r, {}), "OK: 2 rules passed on gpu01");
  r.findings.push_back(finding("pcie.mrrs", "a", Outcome::unknown, Severity::warning, ""));
  r.findings.push_back(finding("qos.ecn", "a", Outcome::fail, Severity::warning, ""));
  EXPECT_EQ(render::verdict_line(host(), r, {}),
            "OK: 2 rules passed on gpu01, 1 check not judged, 1 failure below --fail-on error");
}

TEST(Verdict, FailMostSevereFirstWithFoundValueAndCount) {
  render::GateResult g;
  g.state = render::GateState::fail;
  EXPECT_EQ(render::verdict_line(host(), report(), g),
            "FAIL: qos.trust-dscp ens6 trust pcp; +1 more");
  g.threshold = Severity::warning;
  EXPECT_EQ(render::verdict_line(host(), report(), g),
            "FAIL: qos.trust-dscp ens6 trust pcp; qos.ecn ens6 ECN off on priority 3");
}

TEST(Verdict, BoundedOnUtf8BoundaryAndOneLine) {
  render::GateResult g;
  g.state = render::GateState::fail;
  rules::Report r;
  for (int i = 0; i < 40; ++i)
    r.findings.push_back(finding("qos.pfc-enabled", "ens" + std::to_string(i), Outcome::fail, Severity::error,
                                 "PFC off on priority 3\nsecond line"));
  std::string line = render::verdict_line(host(), r, g);
  EXPECT_LE(line.size(), render::k_verdict_max_bytes);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_TRUE(line.starts_with("FAIL: qos.pfc-enabled ens0 PFC off on priority 3\\x0asecond line; "));
  EXPECT_TRUE(line.ends_with("; +37 more")) << line;
  // One subject name longer than the bound, in multi-byte characters: cut, never mid-character.
  std::string eacute;
  for (int i = 0; i < 150; ++i) eacute += "\xc3\xa9";
  r.findings = {finding("net.mtu", eacute, Outcome::fail, Severity::error, "MTU 1500")};
  line = render::verdict_line(host(), r, g);
  EXPECT_LE(line.size(), render::k_verdict_max_bytes);
  EXPECT_TRUE(line.ends_with("\xc3\xa9...")) << line;
}

TEST(Verdict, UnknownGivesTheGateReasons) {
  render::GateResult g;
  g.state = render::GateState::not_judged;
  g.reasons = {"no rule could pass or fail on this input", "lspci.txt was not used (error)"};
  rules::Report r;
  r.findings = {finding("pcie.mrrs", "a", Outcome::unknown, Severity::warning, "")};
  EXPECT_EQ(render::verdict_line(host(), r, g),
            "UNKNOWN: no rule could pass or fail on this input; lspci.txt was not used (error)");
  // A failure below --fail-on is counted, after the reasons.
  r.findings.push_back(finding("qos.ecn", "ens6", Outcome::fail, Severity::warning, "ECN off"));
  g.reasons = {"no RDMA device and no RoCE netdev in the input: no RoCE port was judged"};
  EXPECT_EQ(render::verdict_line(host(), r, g),
            "UNKNOWN: no RDMA device and no RoCE netdev in the input: no RoCE port was judged; 1 failure below "
            "--fail-on error");
}

}  // namespace
}  // namespace rk

// `rocekit fleet -f html` (render_html.cpp): the matrix groups hosts by outcome, the outlier is
// its own row and is named in the settings, inputs never become markup. The 10,000-host page in
// Chromium: html_test.sh.
#include <string>

#include <gtest/gtest.h>

#include "fleet_support.hpp"

namespace rk::fleet::test {
namespace {

std::size_t count(const std::string& s, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

/// The text between `from` and the next `to` after it ("" when absent).
std::string between(const std::string& s, const std::string& from, const std::string& to) {
  std::size_t a = s.find(from);
  if (a == std::string::npos) return "";
  std::size_t b = s.find(to, a + from.size());
  return s.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

TEST(FleetHtml, MultihostOutlierIsItsOwnRowAndNamedInTheSettings) {
  Options o;
  FleetReport r = run_fleet(discover_inputs({td() / "fleet/multihost"}), o);
  std::string html = render(r, Format::html, {});
  ASSERT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<title>rocekit fleet: 4 hosts</title>"), std::string::npos);
  // Nothing is loaded from elsewhere: no src= or href= other than the in-page "#".
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(count(html, "href=\""), count(html, "href=\"#\""));
  // host-c (PFC off on its PF of the shared NIC) is the only row with a cross-host outlier.
  std::string matrix = between(html, "<table id=\"matrix\">", "</table>");
  std::string bad_row = between(matrix, "<tr class=\"bad outlier\">", "</tr>");
  EXPECT_NE(bad_row.find("<b>1 host</b> <a href=\"#\" data-host=\"host-c\">host-c</a>"), std::string::npos) << matrix;
  EXPECT_EQ(count(matrix, "<tr class=\"bad outlier\">"), 1u) << matrix;
  // host-a and host-b agree on every rule; host-d's capture lacks what fw.link-type-eth reads.
  EXPECT_NE(matrix.find("<b>2 hosts</b> <a href=\"#\" data-host=\"host-a\">host-a</a> "
                        "<a href=\"#\" data-host=\"host-b\">host-b</a> </td>"),
            std::string::npos) << matrix;
  EXPECT_NE(matrix.find("<b>1 host</b> <a href=\"#\" data-host=\"host-d\">host-d</a> </td>"), std::string::npos);
  EXPECT_EQ(count(matrix, "<tr class="), 3u);
  // Its failing per-host rule and its fleet.pfc-consistent column are red cells.
  EXPECT_NE(bad_row.find("<td class=\"c f\" title=\"qos.pfc-roce-priority: fail\"></td>"), std::string::npos) << bad_row;
  EXPECT_NE(bad_row.find("<td class=\"c o\" title=\"fleet.pfc-consistent: outlier\"></td>"), std::string::npos) << bad_row;
  // The settings: the PFC check fails with its bar (3 NICs say 3, the reference; 1 says none)
  // and host-c eth4 as its outlier.
  std::string pfc = between(html, "<code>fleet.pfc-consistent</code> pfc (all NICs)", "</div>\n");
  EXPECT_NE(pfc.find("<div class=\"seg ref\" style=\"flex-grow:3\" title=\"3: 3 NICs (reference)\">3</div>"),
            std::string::npos) << pfc;
  EXPECT_NE(pfc.find("<div class=\"seg\" style=\"flex-grow:1\" title=\"none: 1 NIC\">none</div>"), std::string::npos) << pfc;
  EXPECT_NE(pfc.find("<li><a href=\"#\" data-host=\"host-c\">host-c</a> <code>eth4</code>: <code>none</code></li>"),
            std::string::npos) << pfc;
  // The Multi-Host NIC with its four PFs, and host-c's detail in the page's data.
  std::string multi = between(html, "<section id=\"multi-host\">", "</section>");
  EXPECT_EQ(count(multi, "data-host="), 4u) << multi;
  std::string data = between(html, "<script type=\"application/json\" id=\"rk-hosts\">", "</script>");
  nlohmann::json hosts = nlohmann::json::parse(data.substr(data.find('>') + 1));
  ASSERT_TRUE(hosts.contains("host-c"));
  EXPECT_EQ(hosts["host-c"]["nics"], 1);
  bool pfc_failure = false;
  for (const nlohmann::json& f : hosts["host-c"]["failures"]) pfc_failure |= f[0] == "qos.pfc-roce-priority";
  EXPECT_TRUE(pfc_failure) << hosts["host-c"].dump();
  EXPECT_EQ(hosts["host-c"]["outliers"][0],
            (nlohmann::json::array({"fleet.pfc-consistent", "pfc", "eth4", "none", "baseline 3"})));
  EXPECT_TRUE(hosts["host-a"]["outliers"].empty());
}

TEST(FleetHtml, InputTextNeverBecomesMarkup) {
  FleetReport r;
  HostSummary h;
  h.host = "<img src=x onerror=alert(1)>";
  h.file = "a\"b.json";
  h.loaded = true;
  h.failures.push_back({"qos.trust-dscp", "eth0", Severity::error, "</script><script>alert(2)</script> & more"});
  h.rule_counts["qos.trust-dscp"][static_cast<std::size_t>(Outcome::fail)] = 1;
  r.hosts.push_back(h);
  r.hosts_loaded = 1;
  r.rules.push_back({"qos.trust-dscp", Severity::error, 1, 0, 0, 1, ""});
  r.problems.push_back({"<b>bad</b>.json", "not valid JSON at line 1, column 1"});
  std::string html = render_html(r, {});
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<b>bad"), std::string::npos);
  EXPECT_NE(html.find("data-host=\"&lt;img src=x onerror=alert(1)&gt;\""), std::string::npos) << html;
  EXPECT_NE(html.find("<code>&lt;b&gt;bad&lt;/b&gt;.json</code>"), std::string::npos);
  // The JSON block holds the message with <, > and & escaped, so only the page's own two
  // scripts open and close.
  EXPECT_EQ(count(html, "<script"), 2u);
  EXPECT_EQ(count(html, "</script>"), 2u);
  EXPECT_NE(html.find("\\u003c/script\\u003e\\u003cscript\\u003ealert(2)"), std::string::npos);
  EXPECT_NE(html.find("\\u0026 more"), std::string::npos);
}

TEST(FleetHtml, HostsWithTheSameOutcomesShareARowAndFailingRowsComeFirst) {
  FleetReport r;
  for (int i = 0; i < 5; ++i) {
    HostSummary h;
    h.host = "node" + std::to_string(i);
    h.file = h.host + ".json";
    h.loaded = true;
    auto& c = h.rule_counts["net.mtu"];
    c[static_cast<std::size_t>(i == 3 ? Outcome::fail : Outcome::pass)] = 2;
    h.rule_counts["qos.trust-dscp"][static_cast<std::size_t>(Outcome::unknown)] = 1;
    r.hosts.push_back(h);
  }
  r.hosts_loaded = 5;
  r.rules.push_back({"net.mtu", Severity::error, 1, 0, 4, 1, ""});
  r.rules.push_back({"qos.trust-dscp", Severity::error, 0, 5, 0, 0, "node0 eth0: no QoS output"});
  std::string matrix = between(render_html(r, {}), "<tbody>", "</tbody>");
  std::size_t bad = matrix.find("<tr class=\"bad\"><td class=\"hosts\"><b>1 host</b> <a href=\"#\" data-host=\"node3\">");
  std::size_t good = matrix.find("<tr class=\"good\"><td class=\"hosts\"><b>4 hosts</b> <a href=\"#\" data-host=\"node0\">");
  ASSERT_NE(bad, std::string::npos) << matrix;
  ASSERT_NE(good, std::string::npos) << matrix;
  EXPECT_LT(bad, good);
  EXPECT_EQ(count(matrix, "<tr "), 2u);
  // The fourth host of the big row is under "1 more"; each row has one cell per rule.
  EXPECT_NE(matrix.find("<details><summary>1 more</summary><a href=\"#\" data-host=\"node4\">node4</a> </details>"),
            std::string::npos) << matrix;
  EXPECT_EQ(count(matrix, "<td class=\"c "), 4u);
  EXPECT_EQ(count(matrix, "title=\"qos.trust-dscp: unknown\""), 2u);
}

}  // namespace
}  // namespace rk::fleet::test

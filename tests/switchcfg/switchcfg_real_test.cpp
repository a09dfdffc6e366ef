// Switch QoS parsers and host <-> switch alignment on full public configurations (issue 19):
// Juniper JVD leaves (a wildcard-bound lossless AI leaf, a lossy ECN-only compute leaf) and Dell
// Enterprise SONiC inputs as people paste them (a Klish session with prompts, one interface's
// running-config whose maps are defined elsewhere). Provenance: each file's header.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "rocekit/pipeline.hpp"
#include "switch_support.hpp"
#include "rocekit/rules/judged.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

using namespace test;

bool has_port(const SwitchQos& sw, const std::string& name) {
  return std::any_of(sw.ports.begin(), sw.ports.end(), [&](const PortQos& p) { return p.name == name; });
}

const Finding& find(const std::vector<Finding>& fs, const std::string& rule) {
  for (const Finding& f : fs)
    if (f.rule == rule) return f;
  throw std::runtime_error("no finding " + rule);
}

bool has_evidence_line(const Finding& f, const std::string& file_end, std::size_t line) {
  return std::any_of(f.evidence.begin(), f.evidence.end(),
                     [&](const Evidence& e) { return e.file.ends_with(file_end) && e.line == line; });
}

std::vector<Finding> check_port(const std::string& cfg, const std::string& p) {
  PortMap m{{Link{"", "*", "", p, {}}}};
  return check_alignment(host("netarbiter-eth4-qos-healthy"), load(cfg), &m, default_policy());
}

const char* k_aiml = "juniper/jvd-aiml-mtb-leaf1-qfx5240-full.conf";
const char* k_lossy = "juniper/jvd-5stage-compute-leaf1-qfx5120-lossy-ecn-full.conf";
const char* k_klish = "dell-sonic/sonic-mgmt-rocev2-hld-klish-session-dot1p-pfc3-queue1.cfg";
const char* k_slice = "dell-sonic/dellemc-ansible-qos-interfaces-doc-eth1-5-pfc0-1-maps-undefined.cfg";

TEST(Junos, WildcardEtStarAppliesToEveryPhysicalEtPort) {
  SwitchQos sw = load(k_aiml);
  EXPECT_EQ(sw.name, "GPU-R1-L1");
  EXPECT_FALSE(has_port(sw, "et-*"));        // no pseudo-port named after the wildcard
  EXPECT_FALSE(has_port(sw, "irb"));         // routing interface, not a port
  EXPECT_FALSE(has_port(sw, "lo0"));
  EXPECT_FALSE(has_port(sw, "et-0/0/12"));   // breakout parent (number-of-sub-ports): its channels are the ports
  ASSERT_TRUE(has_port(sw, "et-0/0/12:0"));
  ASSERT_TRUE(has_port(sw, "et-0/0/11"));    // no mtu, but the wildcard binds class of service to it
  const PortQos& p = port(sw, "et-0/0/12:0");
  EXPECT_EQ(*p.trust, "dscp");
  EXPECT_EQ(p.trust.source.line, 1212u);  // et-* { unit * { classifiers { dscp mydscp; } } }
  EXPECT_EQ(p.dscp_to_tc->at(26), 4);     // NO-LOSS, queue-num 4
  EXPECT_EQ(p.dscp_to_tc->at(48), 3);     // CNP, queue-num 3
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{3});
  EXPECT_EQ(p.pfc_priority_to_queue->at(3), 4);
  ASSERT_TRUE(p.pfc_watchdog.has_value());
  EXPECT_TRUE(p.pfc_watchdog->enabled);
  EXPECT_EQ(p.pfc_watchdog.source.line, 1189u);
  EXPECT_EQ(*p.queue(4)->ecn->threshold_text, "fill-level 55-90 %");
  EXPECT_EQ(p.queue(3)->scheduling->type, "strict");
  // IP MTU: `family inet mtu 9170` (line 166), not media MTU 9216 - 14.
  EXPECT_EQ(*p.mtu_bytes, 9170);
  EXPECT_EQ(p.mtu_bytes.source.line, 166u);
  EXPECT_NE(p.mtu_bytes.source.text.find("media MTU 9216 on line 163"), std::string::npos) << p.mtu_bytes.source.text;

  std::vector<Finding> fs = check_port(k_aiml, "et-0/0/12:0");
  for (const char* r : {"switch.trust-dscp", "switch.roce-lossless", "switch.roce-ecn", "switch.cnp-queue",
                        "switch.pfc-watchdog", "switch.extra-lossless", "switch.roce-buffer-lossless"})
    EXPECT_EQ(find(fs, r).outcome, Outcome::pass) << r << ": " << find(fs, r).message;
  EXPECT_TRUE(has_evidence_line(find(fs, "switch.roce-lossless"), k_aiml, 1193u)) << "input dscp 011010 pfc";
}

TEST(Junos, ExplicitInterfaceEntryBeatsTheWildcard) {
  const std::string set =
      "set class-of-service classifiers dscp c forwarding-class NL loss-priority low code-points 011010\n"
      "set class-of-service forwarding-classes class NL queue-num 3 no-loss pfc-priority 3\n"
      "set class-of-service congestion-notification-profile cnp input dscp code-point 011010 pfc\n"
      "set class-of-service interfaces et-* congestion-notification-profile cnp\n"
      "set class-of-service interfaces et-* unit * classifiers dscp c\n"
      "set class-of-service interfaces et-0/0/* unit 0 classifiers dscp c\n"
      "set class-of-service interfaces et-0/0/2 scheduler-map none-here\n"
      "set class-of-service scheduler-maps none-here forwarding-class NL scheduler s\n"
      "set class-of-service schedulers s priority strict-high\n"
      "set interfaces et-0/0/1 mtu 9216\n"
      "set interfaces et-0/0/2 mtu 9216\n"
      "set interfaces et-1/0/1 unit 0 family inet mtu 9000\n";
  Result<SwitchQos> r = parse_switch_config(set, "w.conf");
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(r->ports.size(), 3u);
  // et-0/0/1: et-0/0/* is more specific than et-*: its classifier, and no CNP (PFC off).
  const PortQos& a = port(*r, "et-0/0/1");
  EXPECT_EQ(a.trust.source.line, 6u);
  ASSERT_TRUE(a.pfc_enabled.has_value());
  EXPECT_TRUE(a.pfc_enabled->empty());
  // et-0/0/2: its own entry applies as a whole (no classifier, no CNP), with a note.
  const PortQos& b = port(*r, "et-0/0/2");
  EXPECT_FALSE(b.trust.has_value());
  EXPECT_EQ(b.queue(3)->scheduling->type, "strict");
  EXPECT_TRUE(std::any_of(r->notes.begin(), r->notes.end(), [](const std::string& n) {
    return n.find("class-of-service interfaces et-0/0/2 (line 7) is used instead of the wildcard et-0/0/*") != std::string::npos;
  }));
  // et-1/0/1: only et-* matches; IP MTU from family inet.
  const PortQos& c = port(*r, "et-1/0/1");
  EXPECT_EQ(*c.pfc_enabled, std::vector<int>{3});
  EXPECT_EQ(*c.mtu_bytes, 9000);
}

TEST(Junos, LossyLeafInterfaceLevelClassifierAndKnownNoPfc) {
  SwitchQos sw = load(k_lossy);
  const PortQos& up = port(sw, "et-0/0/48");
  EXPECT_EQ(*up.trust, "dscp");  // `classifiers { dscp dscp-classifier; }` on the physical interface
  EXPECT_EQ(up.trust.source.line, 1876u);
  EXPECT_EQ(up.dscp_to_tc->at(26), 5);
  EXPECT_EQ(up.dscp_to_tc->at(48), 7);
  // No congestion notification profile on any interface: PFC is off, stated with the binding line.
  ASSERT_TRUE(up.pfc_enabled.has_value());
  EXPECT_TRUE(up.pfc_enabled->empty());
  EXPECT_EQ(up.pfc_enabled.source.line, 1874u);
  EXPECT_NE(up.pfc_enabled.source.text.find("no congestion-notification-profile"), std::string::npos);
  // The multicast queue 8 is no traffic class.
  EXPECT_FALSE(up.tc_to_queue->count(8));
  EXPECT_FALSE(up.tc_to_pg->count(8));
  EXPECT_TRUE(std::any_of(sw.notes.begin(), sw.notes.end(),
                          [](const std::string& n) { return n.find("line 1859: forwarding class mcast-fc queue-num 8") != std::string::npos; }));
  // A host port without class-of-service: PFC off, trust unknown.
  const PortQos& xe = port(sw, "xe-0/0/0");
  EXPECT_TRUE(xe.pfc_enabled->empty());
  EXPECT_FALSE(xe.trust.has_value());
  EXPECT_FALSE(has_port(sw, "irb"));

  // A host with PFC on priority 3 against the lossy port: a failure, with the config line.
  std::vector<Finding> fs = check_port(k_lossy, "et-0/0/50");
  const Finding& l = find(fs, "switch.roce-lossless");
  EXPECT_EQ(l.outcome, Outcome::fail) << l.message;
  EXPECT_NE(l.message.find("no PFC on any priority"), std::string::npos) << l.message;
  EXPECT_NE(l.message.find("ECN-only RoCE is a legitimate design"), std::string::npos) << l.message;
  EXPECT_TRUE(has_evidence_line(l, k_lossy, 1892u)) << "scheduler-map sm1 of et-0/0/50";
  EXPECT_EQ(find(fs, "switch.roce-ecn").outcome, Outcome::pass);   // queue 5 marks ECN
  EXPECT_EQ(find(fs, "switch.cnp-queue").outcome, Outcome::pass);  // queue 7 strict
  EXPECT_EQ(find(fs, "switch.pfc-watchdog").outcome, Outcome::not_applicable);
}

TEST(Alignment, NothingJudgedNamesThePortNotTheHost) {
  const std::string set =
      "set class-of-service classifiers dscp c forwarding-class NL loss-priority low code-points 011010\n"
      "set class-of-service forwarding-classes class NL queue-num 3 no-loss pfc-priority 3\n"
      "set interfaces et-0/0/1 mtu 9216\n"
      "set interfaces et-0/0/2 mtu 9216\n";
  Result<SwitchQos> sw = parse_switch_config(set, "bare.conf");
  ASSERT_TRUE(sw) << sw.error().describe();
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  PortMap m{{Link{"", "*", "", "et-0/0/1", {}}}};
  std::vector<Finding> fs = check_alignment(h, *sw, &m, default_policy());
  EXPECT_FALSE(rules::anything_judged(fs));
  EXPECT_FALSE(rules::no_roce_port_judged(h, fs));  // eth4 was paired: the host is not the cause
  EXPECT_EQ(unjudged_reason(h, *sw, fs),
            "switch port et-0/0/1 has no QoS binding in bare.conf (no classifier, PFC priority or queue scheduling: "
            "the NOS defaults, which the configuration does not show); no port of the configuration has one");
  // The lossy leaf: et-0/0/48 is judged now; a host-less finding list gives "".
  EXPECT_EQ(unjudged_reason(h, *sw, {}), "");
}

TEST(DellSonic, KlishSessionWithPromptsIsRead) {
  SwitchQos sw = load(k_klish);
  EXPECT_EQ(sw.dialect, Dialect::dell_sonic_cli);
  ASSERT_EQ(sw.ports.size(), 1u);
  const PortQos& p = sw.ports[0];
  EXPECT_EQ(p.name, "Ethernet <id>");  // the HLD's placeholder, as written
  EXPECT_EQ(*p.trust, "pcp");          // dot1p-tc only
  EXPECT_FALSE(p.dscp_to_tc.has_value());
  EXPECT_EQ(*p.pfc_enabled, (std::vector<int>{3, 4}));
  EXPECT_EQ(p.pfc_enabled.source.line, 63u);
  EXPECT_EQ(p.pfc_enabled.source.text, "priority-flow-control priority 3");  // the prompt is not evidence
  EXPECT_EQ(p.tc_to_queue->at(3), 1);
  EXPECT_EQ(p.pfc_priority_to_queue->at(3), 1);
  EXPECT_EQ(p.queue(7)->scheduling->type, "strict");
  EXPECT_EQ(*p.queue(1)->scheduling->weight, 10);
  EXPECT_FALSE(p.queue(1)->ecn->ecn_marking);  // no wred-policy on the interface
  std::vector<Finding> fs = check_port(k_klish, "Ethernet <id>");
  EXPECT_EQ(find(fs, "switch.trust-dscp").outcome, Outcome::fail);  // host trust dscp, switch dot1p
}

TEST(DellSonic, UndefinedMapIsUnknownAndTheRestIsRead) {
  SwitchQos sw = load(k_slice);
  const PortQos& p = port(sw, "Eth1/5");
  EXPECT_FALSE(p.dscp_to_tc.has_value());
  EXPECT_EQ(p.dscp_to_tc.reason, "qos map dscp-tc dscp_map1 is not defined in this config: line 15");
  EXPECT_EQ(p.dscp_to_tc.source.line, 15u);
  EXPECT_EQ(*p.trust, "pcp,dscp");  // both maps are bound
  EXPECT_EQ(*p.pfc_enabled, (std::vector<int>{0, 1}));
  ASSERT_TRUE(p.pfc_watchdog.has_value());
  EXPECT_TRUE(p.pfc_watchdog->enabled);
  EXPECT_EQ(*p.pfc_watchdog->action, "alert");
  EXPECT_EQ(*p.pfc_watchdog->detection_time_ms, 100);
  EXPECT_EQ(*p.pfc_watchdog->restoration_time_ms, 200);
  EXPECT_EQ(p.queue(0)->ecn.reason, "qos wred-policy profile1 is not defined in this config: line 12");
  EXPECT_EQ(p.queue(0)->scheduling.reason, "qos scheduler-policy policy1 is not defined in this config: line 13");
  EXPECT_EQ(p.buffer_reason, "qos map pfc-priority-pg pfc_pg_map1 is not defined in this config: line 22");
  std::vector<Finding> fs = check_port(k_slice, "Eth1/5");
  const Finding& l = find(fs, "switch.roce-lossless");
  EXPECT_EQ(l.outcome, Outcome::fail) << l.message;  // host priority 3, switch PFC 0,1
  EXPECT_TRUE(has_evidence_line(l, k_slice, 23u)) << "priority-flow-control priority 0";
}

// The real Z9664F config with its port written as `interface range Eth1/1-1/4` (Dell Klish):
// each of the four ports gets the block's settings, with the block's lines as evidence.
TEST(DellSonic, InterfaceRangeAppliesToEachPort) {
  std::ifstream in(k_switch / "dell-sonic/sonic-cli-roce-z9664f.cfg", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t at = text.find("\ninterface Eth1/1\n");
  ASSERT_NE(at, std::string::npos);
  text.replace(at + 1, 16, "interface range Eth1/1-1/4");
  Result<SwitchQos> r = parse_switch_config(text, "range.cfg");
  ASSERT_TRUE(r) << r.error().describe();
  for (const char* name : {"Eth1/1", "Eth1/2", "Eth1/3", "Eth1/4"}) {
    const PortQos& p = port(*r, name);
    ASSERT_TRUE(p.pfc_enabled.has_value()) << name << ": " << p.pfc_enabled.reason;
    EXPECT_EQ(*p.pfc_enabled, (std::vector<int>{3, 4})) << name;
    EXPECT_EQ(*p.mtu_bytes, 9216) << name;
  }
  EXPECT_FALSE(has_port(*r, "range Eth1/1-1/4"));
  // Several items, a space after the prefix; a range across slots is kept as one named port.
  text.replace(text.find("interface range Eth1/1-1/4"), 26, "interface range Eth 1/1-1/2,1/6");
  Result<SwitchQos> r2 = parse_switch_config(text, "range.cfg");
  ASSERT_TRUE(r2) << r2.error().describe();
  EXPECT_TRUE(has_port(*r2, "Eth1/1") && has_port(*r2, "Eth1/2") && has_port(*r2, "Eth1/6"));
  EXPECT_FALSE(has_port(*r2, "Eth1/3"));
}

}  // namespace
}  // namespace rk::switchcfg

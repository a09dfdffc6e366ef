// Switch QoS parsers, port maps and host <-> switch alignment, on the real samples in
// testdata/switch (provenance in each file's header or SOURCES.md) and real host bundles from
// testdata/hosts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "rocekit/pipeline.hpp"
#include "switch_support.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

using namespace test;

const Finding* find(const std::vector<Finding>& fs, const std::string& rule) {
  for (const Finding& f : fs)
    if (f.rule == rule) return &f;
  return nullptr;
}

std::size_t count(const std::vector<Finding>& fs, Outcome o) {
  return static_cast<std::size_t>(std::count_if(fs.begin(), fs.end(), [o](const Finding& f) { return f.outcome == o; }));
}

// ------------------------------------------------------------------ SONiC -------------------

TEST(Sonic, MellanoxDefaultQosRender) {
  SwitchQos sw = load("sonic/qos-mellanox4600c-c64-remap-disabled.json");
  EXPECT_EQ(sw.dialect, Dialect::sonic_config_db);
  EXPECT_EQ(sw.ports.size(), 28u);  // PORT_QOS_MAP has 28 ports plus "global"
  const PortQos& p = port(sw, "Ethernet0");
  ASSERT_TRUE(p.dscp_to_tc.has_value());
  EXPECT_EQ(p.dscp_to_tc_map_name, "AZURE");
  EXPECT_EQ(p.dscp_to_tc->at(26), 1);  // the community default: RoCE DSCP 26 -> lossy TC1
  EXPECT_EQ(p.dscp_to_tc->at(3), 3);
  EXPECT_EQ(p.dscp_to_tc->at(48), 6);
  EXPECT_EQ(p.dscp_to_tc->at(46), 5);
  EXPECT_EQ(p.dscp_to_tc_lines.at(26), 66u);
  ASSERT_TRUE(p.pfc_enabled.has_value());
  EXPECT_EQ(*p.pfc_enabled, (std::vector<int>{3, 4}));
  EXPECT_EQ(p.pfc_enabled.source.line, 125u);
  EXPECT_EQ(p.pfc_enabled.source.text, "/PORT_QOS_MAP/Ethernet0/pfc_enable = \"3,4\"");
  EXPECT_EQ(*p.trust, "dscp");
  EXPECT_EQ(p.tc_to_queue->at(1), 1);
  EXPECT_EQ(p.tc_to_pg->at(3), 3);
  EXPECT_EQ(p.tc_to_pg->at(1), 0);
  EXPECT_EQ(p.pfc_priority_to_queue->at(3), 3);
  ASSERT_NE(p.queue(3), nullptr);
  EXPECT_TRUE(p.queue(3)->ecn->ecn_marking);
  EXPECT_EQ(*p.queue(3)->ecn->mode, "ecn_all");
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 2000000u);  // SN4600C-C64 override
  EXPECT_EQ(*p.queue(3)->ecn->max_threshold_bytes, 10000000u);
  EXPECT_EQ(p.queue(3)->scheduling->type, "dwrr");
  EXPECT_EQ(*p.queue(3)->scheduling->weight, 15);
  EXPECT_FALSE(p.queue(1)->ecn->ecn_marking);
  EXPECT_EQ(*p.queue(6)->scheduling->weight, 14);
  // Not in a qos render: MTU, watchdog, buffers are unknown with the documented default.
  EXPECT_FALSE(p.mtu_bytes.has_value());
  EXPECT_NE(p.mtu_bytes.reason.find("default, not in config"), std::string::npos);
  EXPECT_FALSE(p.pfc_watchdog.has_value());
  EXPECT_NE(p.pfc_watchdog.reason.find("PFC_WD not in config"), std::string::npos);
  EXPECT_TRUE(p.buffer_pgs.empty());
  EXPECT_NE(p.buffer_reason.find("BUFFER_PG not in config"), std::string::npos);
}

TEST(Sonic, Arista7060x6PerSkuMapAndPerQueueWred) {
  SwitchQos sw = load("sonic/qos-arista7060x6-trimmed.json");
  EXPECT_EQ(sw.ports.size(), 2u);
  const PortQos& p = port(sw, "Ethernet4");
  EXPECT_EQ(p.dscp_to_tc->at(26), 0);
  EXPECT_EQ(p.dscp_to_tc->at(44), 6);
  EXPECT_EQ(p.dscp_to_tc->at(47), 1);
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 131072u);
  EXPECT_EQ(*p.queue(3)->ecn->max_threshold_bytes, 262144u);
  EXPECT_EQ(p.queue(3)->ecn->profile, "WRED_LOSSLESS_Q3");
  EXPECT_EQ(*p.queue(6)->scheduling->weight, 70);
}

TEST(Sonic, FlatRedisDumpWithPfcWatchdogAndDynamicBuffer) {
  SwitchQos sw = load("sonic/mock_config_db-pfcwd-subset.json");
  const PortQos& p = port(sw, "Ethernet0");
  ASSERT_TRUE(p.pfc_watchdog.has_value());
  EXPECT_TRUE(p.pfc_watchdog->enabled);
  // No pfcwd_sw_enable in PORT_QOS_MAP|Ethernet0 (older schema): it covers the pfc_enable priorities.
  EXPECT_EQ(p.pfc_watchdog->priorities, (std::vector<int>{3, 4}));
  EXPECT_EQ(*p.pfc_watchdog->action, "drop");
  EXPECT_EQ(*p.pfc_watchdog->detection_time_ms, 600);
  EXPECT_EQ(*p.pfc_watchdog->restoration_time_ms, 600);
  EXPECT_EQ(*p.pfc_watchdog->poll_interval_ms, 600);
  EXPECT_EQ(*p.pfc_enabled, (std::vector<int>{3, 4}));
  ASSERT_EQ(p.buffer_pgs.size(), 2u);
  const BufferPg& lossless = p.buffer_pgs[0].first_pg == 3 ? p.buffer_pgs[0] : p.buffer_pgs[1];
  EXPECT_EQ(lossless.last_pg, 4);
  EXPECT_EQ(lossless.profile, "NULL");
  EXPECT_TRUE(*lossless.lossless);
  EXPECT_EQ(p.queue(3)->ecn->profile, "AZURE_LOSSLESS");
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 1048576u);
  // The scheduler row is not in this subset: reported, not guessed.
  EXPECT_FALSE(p.dscp_to_tc.has_value());
}

TEST(Sonic, StaticBufferModelMtuAndPfcwdStatus) {
  SwitchQos sw = load("sonic/config_db-acs-msn3700-t1-buffer-subset.json");
  EXPECT_EQ(sw.name, "sonic");
  const PortQos& p = port(sw, "Ethernet0");
  ASSERT_TRUE(p.mtu_bytes.has_value());
  EXPECT_EQ(*p.mtu_bytes, 9100);
  EXPECT_GT(p.mtu_bytes.source.line, 160u);
  const BufferPg* pg3 = nullptr;
  for (const BufferPg& b : p.buffer_pgs)
    if (b.first_pg == 3) pg3 = &b;
  ASSERT_NE(pg3, nullptr);
  EXPECT_EQ(pg3->profile, "pg_lossless_10000_300m_profile");
  EXPECT_TRUE(*pg3->lossless);
  EXPECT_NE(pg3->basis.find("xoff 40960"), std::string::npos);
  EXPECT_NE(p.pfc_watchdog.reason.find("default_pfcwd_status is \"disable\""), std::string::npos);
}

TEST(Sonic, DynamicBufferRender) {
  SwitchQos sw = load("sonic/buffers-mellanox4600c-t1-dynamic.json");
  const PortQos& p = port(sw, "Ethernet0");
  for (const BufferPg& b : p.buffer_pgs) {
    if (b.first_pg == 0) {
      EXPECT_EQ(b.profile, "ingress_lossy_profile");
      EXPECT_FALSE(*b.lossless);  // ingress_lossy_profile has no xoff
    } else {
      EXPECT_EQ(b.first_pg, 3);
      EXPECT_TRUE(*b.lossless);
    }
  }
}

TEST(Sonic, ErrorsNameFileAndLine) {
  Result<SwitchQos> bad = parse_switch_config("{\n  \"PORT_QOS_MAP\": {\n    \"Ethernet0\": {\"pfc_enable\": \"3,9\"}\n  }\n}\n", "cfg.json");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().context, "cfg.json:3");
  Result<SwitchQos> broken = parse_switch_config("{\n  \"PORT_QOS_MAP\": {\n    \"Ethernet0\": {,\n", "cfg.json");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().context, "cfg.json:3");
  // A subset that names a map it does not carry: unknown with the reason, not an error.
  Result<SwitchQos> dangling = parse_switch_config(
      "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"dscp_to_tc_map\": \"NOPE\"}}}", "cfg.json");
  ASSERT_TRUE(dangling);
  EXPECT_FALSE(dangling->ports[0].dscp_to_tc.has_value());
  EXPECT_NE(dangling->ports[0].dscp_to_tc.reason.find("DSCP_TO_TC_MAP|NOPE, which is not in the input"), std::string::npos);
  Result<SwitchQos> other = parse_switch_config("hello world\n", "x.txt");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().kind, ErrorKind::unsupported);
}

TEST(Sonic, InputChecksNameTheValueAndLine) {
  // A TC that is a JSON integer is accepted; a TC out of range names the value, not the key.
  Result<SwitchQos> int_tc = parse_switch_config(
      "{\"DSCP_TO_TC_MAP\": {\"AZURE\": {\"26\": 3, \"48\": \"6\"}},\n"
      " \"PORT_QOS_MAP\": {\"Ethernet0\": {\"dscp_to_tc_map\": \"AZURE\"}}}\n", "cfg.json");
  ASSERT_TRUE(int_tc) << int_tc.error().describe();
  EXPECT_EQ(int_tc->ports[0].dscp_to_tc->at(26), 3);
  EXPECT_EQ(int_tc->ports[0].dscp_to_tc->at(48), 6);
  Result<SwitchQos> big_tc = parse_switch_config(
      "{\"DSCP_TO_TC_MAP\": {\"AZURE\": {\n  \"26\": \"99999\"}},\n"
      " \"PORT_QOS_MAP\": {\"Ethernet0\": {\"dscp_to_tc_map\": \"AZURE\"}}}\n", "cfg.json");
  ASSERT_FALSE(big_tc);
  EXPECT_EQ(big_tc.error().context, "cfg.json:2");
  EXPECT_EQ(big_tc.error().message, "DSCP_TO_TC_MAP|AZURE: \"26\": value \"99999\" is not <0-7>");
  // Wrong JSON type for a table: an error naming the table.
  Result<SwitchQos> array = parse_switch_config("{\n  \"DSCP_TO_TC_MAP\": [],\n  \"PORT\": {}\n}\n", "cfg.json");
  ASSERT_FALSE(array);
  EXPECT_EQ(array.error().context, "cfg.json:2");
  EXPECT_EQ(array.error().message, "DSCP_TO_TC_MAP is a JSON array, not an object of rows");
  // WRED thresholds and scheduler weights that are not numbers in range fail with file:line.
  auto queue_cfg = [](const std::string& wred_field, const std::string& sched_weight) {
    return "{\"QUEUE\": {\"Ethernet0|3\": {\"scheduler\": \"S\", \"wred_profile\": \"W\"}},\n"
           " \"SCHEDULER\": {\"S\": {\"type\": \"DWRR\",\n  \"weight\": " + sched_weight + "}},\n"
           " \"WRED_PROFILE\": {\"W\": {\"ecn\": \"ecn_all\",\n  " + wred_field + "}}}\n";
  };
  ASSERT_TRUE(parse_switch_config(queue_cfg("\"green_min_threshold\": \"250000\"", "\"50\""), "q.json"));
  for (std::string thr : std::vector<std::string>{"\"-1\"", "-5", "\"lots\"", "\"99999999999999999999999\""}) {
    Result<SwitchQos> r = parse_switch_config(queue_cfg("\"green_min_threshold\": " + thr, "\"50\""), "q.json");
    ASSERT_FALSE(r) << thr;
    EXPECT_EQ(r.error().context, "q.json:5") << thr;
    EXPECT_EQ(r.error().message, "WRED_PROFILE|W: green_min_threshold " + thr + " is not a byte count <0-1099511627776>");
  }
  Result<SwitchQos> weight = parse_switch_config(queue_cfg("\"green_min_threshold\": \"250000\"", "1e400"), "q.json");
  ASSERT_FALSE(weight);  // nlohmann rejects the overflow: an error naming file:line and the number
  EXPECT_EQ(weight.error().context, "q.json:3");
  EXPECT_NE(weight.error().message.find("1e400"), std::string::npos) << weight.error().message;
  Result<SwitchQos> weight_float = parse_switch_config(queue_cfg("\"green_min_threshold\": \"250000\"", "12.5"), "q.json");
  ASSERT_FALSE(weight_float);
  EXPECT_EQ(weight_float.error().context, "q.json:3");
  EXPECT_EQ(weight_float.error().message, "SCHEDULER|S: weight 12.5 is not <0-1000000>");
}

// ------------------------------------------------------------------ NVUE / EOS --------------

TEST(Nvue, ShowQosRoceSystem) {
  SwitchQos sw = load("cumulus/nv-show-qos-roce.txt");
  EXPECT_EQ(sw.dialect, Dialect::nvue_show_roce);
  EXPECT_EQ(sw.name, "switch");
  const PortQos& p = port(sw, "swp1");  // system-wide "*" entry
  EXPECT_EQ(p.name, "*");
  EXPECT_EQ(*p.trust, "pcp,dscp");
  EXPECT_EQ(p.dscp_to_tc->at(26), 3);
  EXPECT_EQ(p.dscp_to_tc->at(48), 6);
  EXPECT_EQ(p.tc_to_queue->at(3), 3);
  EXPECT_EQ(p.tc_to_queue->at(1), 0);
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{3});
  EXPECT_EQ(p.pfc_enabled.source.line, 13u);
  EXPECT_EQ(p.queue(6)->scheduling->type, "strict");
  EXPECT_EQ(*p.queue(3)->scheduling->weight, 50);
  EXPECT_TRUE(p.queue(3)->ecn->ecn_marking);
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 149996u);  // 146.48 KB
  EXPECT_EQ(*p.queue(3)->ecn->max_threshold_bytes, 1499464u);  // 1.43 MB
  EXPECT_EQ(*p.queue(3)->ecn->mark_probability_percent, 100);
  EXPECT_FALSE(p.queue(6)->ecn->ecn_marking);
  EXPECT_FALSE(p.mtu_bytes.has_value());
}

TEST(Nvue, ShowInterfaceQosRoceStatus) {
  SwitchQos sw = load("cumulus/nv-show-interface-qos-roce-status.txt");
  const PortQos& p = port(sw, "swp16");
  EXPECT_EQ(p.name, "swp16");
  EXPECT_EQ(p.dscp_to_tc->at(26), 3);
  EXPECT_EQ(p.dscp_to_tc->at(48), 6);
  EXPECT_EQ(p.dscp_to_tc->size(), 2u);
  EXPECT_EQ(p.queue(6)->scheduling->type, "strict");
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 156672u);  // 153.00 KB
  const BufferPg* sp3 = nullptr;
  for (const BufferPg& b : p.buffer_pgs)
    if (b.first_pg == 3) sp3 = &b;
  ASSERT_NE(sp3, nullptr);
  EXPECT_EQ(sp3->profile, "roce-reserved-ingress");
  EXPECT_TRUE(*sp3->lossless);
}

TEST(Eos, RocmDcqcnSample) {
  SwitchQos sw = load("arista/eos-roce-dcqcn-7388.cfg");
  EXPECT_EQ(sw.dialect, Dialect::arista_eos);
  ASSERT_EQ(sw.ports.size(), 1u);
  const PortQos& p = port(sw, "Ethernet2/5/1");
  EXPECT_EQ(*p.trust, "dscp");
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{3});
  EXPECT_EQ(*p.mtu_bytes, 9214);
  EXPECT_TRUE(p.queue(3)->ecn->ecn_marking);
  EXPECT_EQ(*p.queue(3)->ecn->threshold_text, "2000 segments-10000 segments");
  EXPECT_EQ(*p.queue(3)->ecn->mark_probability_percent, 20);
  // No `qos map dscp` line: the DSCP map is the EOS default, which the config does not state.
  EXPECT_FALSE(p.dscp_to_tc.has_value());
  EXPECT_NE(p.dscp_to_tc.reason.find("default, not in config"), std::string::npos);
}

TEST(Eos, AvdQosSyntax) {
  SwitchQos sw = load("arista/avd-qos-profile-intended.cfg");
  const PortQos& p = port(sw, "Ethernet1");
  EXPECT_EQ(p.dscp_to_tc->at(26), 4);
  EXPECT_EQ(p.dscp_to_tc->at(46), 5);
  EXPECT_EQ(p.tc_to_queue->at(6), 2);
  EXPECT_EQ(p.tc_to_queue->at(3), 3);
  EXPECT_EQ(*p.mtu_bytes, 1500);
  EXPECT_EQ(p.queue(2)->scheduling->type, "strict");
  EXPECT_EQ(p.queue(1)->scheduling->type, "dwrr");
  EXPECT_EQ(*p.queue(1)->scheduling->weight, 50);
  EXPECT_TRUE(p.pfc_enabled->empty());
}

// ------------------------------------------------------------------ alignment ---------------

TEST(Alignment, DefaultSonicVsNvidiaDefaultHostIsNotLossless) {
  // Host: trust dscp, DSCP 26 -> priority 3, 48 -> 6, PFC on 3 (mlnx_qos -i eth4).
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("sonic/qos-mellanox4600c-c64-remap-disabled.json");
  PortMap m{{Link{"", "*", "", "Ethernet0", {}}}};
  std::vector<Finding> fs = check_alignment(h, sw, &m, default_policy());
  const Finding* lossless = find(fs, "switch.roce-lossless");
  ASSERT_NE(lossless, nullptr);
  EXPECT_EQ(lossless->outcome, Outcome::fail);
  EXPECT_EQ(lossless->severity, Severity::critical);
  EXPECT_NE(lossless->message.find("DSCP 26 to TC 1 (queue 1)"), std::string::npos) << lossless->message;
  EXPECT_NE(lossless->subject.find("Ethernet0 <-> "), std::string::npos);
  EXPECT_NE(lossless->subject.find("eth4"), std::string::npos);
  bool cites_entry = false;
  for (const Evidence& e : lossless->evidence) cites_entry = cites_entry || e.line == 66;
  EXPECT_TRUE(cites_entry);  // the "26": "1" line of DSCP_TO_TC_MAP|AZURE
  ASSERT_FALSE(lossless->remediation.commands.empty());
  EXPECT_EQ(lossless->remediation.commands[0], "sonic-db-cli CONFIG_DB HSET 'DSCP_TO_TC_MAP|AZURE' 26 3");
  // Running CONFIG_DB only until `config save`: the fix saves it, and says so.
  EXPECT_EQ(lossless->remediation.commands.back(), "config save -y");
  EXPECT_NE(lossless->remediation.notes.find("lost at reboot until `config save -y`"), std::string::npos);
  EXPECT_EQ(find(fs, "switch.trust-dscp")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.roce-ecn")->outcome, Outcome::fail);  // queue 1 has no WRED profile
  EXPECT_EQ(find(fs, "switch.cnp-queue")->outcome, Outcome::fail);  // DSCP 48 -> queue 6 DWRR 14 < 15
  EXPECT_EQ(find(fs, "switch.extra-lossless")->outcome, Outcome::fail);  // 3,4 vs 3
  EXPECT_EQ(find(fs, "switch.mtu")->outcome, Outcome::unknown);
  EXPECT_EQ(find(fs, "switch.pfc-watchdog")->outcome, Outcome::unknown);
  EXPECT_EQ(find(fs, "switch.roce-buffer-lossless")->outcome, Outcome::unknown);
}

TEST(Alignment, CumulusRoceDefaultsVsNvidiaDefaultHostPass) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("cumulus/nv-show-qos-roce.txt");
  std::vector<Finding> fs = check_alignment(h, sw, nullptr, default_policy());
  EXPECT_EQ(count(fs, Outcome::fail), 0u);
  EXPECT_EQ(find(fs, "switch.roce-lossless")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.roce-lossless")->message,
            "DSCP 26 -> host priority 3 -> switch TC 3 / queue 3, PFC on 3, PAUSE for priority 3 stops queue 3");
  EXPECT_EQ(find(fs, "switch.trust-dscp")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.roce-buffer-lossless")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.roce-ecn")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.cnp-queue")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.extra-lossless")->outcome, Outcome::pass);
  // Neither side states these: unknown, never a silent pass.
  EXPECT_EQ(find(fs, "switch.mtu")->outcome, Outcome::unknown);
  EXPECT_EQ(find(fs, "switch.pfc-watchdog")->outcome, Outcome::unknown);
}

TEST(Alignment, PolicyRulesSectionDisablesAndResetsSwitchRules) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("sonic/qos-mellanox4600c-c64-remap-disabled.json");
  PortMap m{{Link{"", "*", "", "Ethernet0", {}}}};
  Result<Policy> pol = load_policy_text(
      "rules:\n  switch.extra-lossless: {enabled: false}\n  switch.roce-lossless: {severity: warning}\n",
      "site.yaml", rules::policy_rule_ids());
  ASSERT_TRUE(pol) << pol.error().describe();
  std::vector<Finding> fs = check_alignment(h, sw, &m, *pol);
  EXPECT_EQ(find(fs, "switch.extra-lossless"), nullptr);
  ASSERT_NE(find(fs, "switch.roce-lossless"), nullptr);
  EXPECT_EQ(find(fs, "switch.roce-lossless")->outcome, Outcome::fail);
  EXPECT_EQ(find(fs, "switch.roce-lossless")->severity, Severity::warning);  // critical by default
}

TEST(Alignment, PolicyKnowsEverySwitchRuleId) {
  const std::vector<std::string> ids = rules::policy_rule_ids();
  std::size_t switch_ids = 0;
  for (const std::string& id : ids) switch_ids += id.rfind("switch.", 0) == 0 ? 1 : 0;
  EXPECT_EQ(switch_ids, switch_rules().size());
  for (const SwitchRule& r : switch_rules())
    EXPECT_NE(std::find(ids.begin(), ids.end(), std::string(r.id)), ids.end()) << r.id;
}

TEST(Alignment, EosSampleWithoutDscpMapIsUnknownNotPass) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("arista/eos-roce-dcqcn-7388.cfg");
  std::vector<Finding> fs = check_alignment(h, sw, nullptr, default_policy());
  EXPECT_EQ(find(fs, "switch.roce-lossless")->outcome, Outcome::unknown);
  EXPECT_NE(find(fs, "switch.roce-lossless")->message.find("EOS default DSCP->TC map"), std::string::npos);
  EXPECT_EQ(find(fs, "switch.trust-dscp")->outcome, Outcome::pass);
}

TEST(Alignment, HostWithTrustPcpAndPfcOffAgainstSonic) {
  Snapshot h = host("roce-server-8dev-trust-pcp-pfc-off");
  SwitchQos sw = load("sonic/qos-mellanox4600c-c64-remap-disabled.json");
  PortMap m{{Link{"", "*", "", "Ethernet4", {}}}};
  std::vector<Finding> fs = check_alignment(h, sw, &m, default_policy());
  const Finding* trust = nullptr;
  for (const Finding& f : fs)
    if (f.rule == "switch.trust-dscp" && f.subject == "Ethernet4 <-> ens6") trust = &f;
  ASSERT_NE(trust, nullptr);
  EXPECT_EQ(trust->outcome, Outcome::fail);  // host pcp, switch dscp
  EXPECT_EQ(trust->message, "host trust pcp, switch port classifies on dscp: RoCE lands in the switch's default class");
}

TEST(Alignment, UnknownPortAndMissingNetdev) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("sonic/qos-mellanox4600c-c64-remap-disabled.json");
  PortMap m{{Link{"", "eth9", "", "Ethernet0", {"map.csv", 2, "x"}}, Link{"", "eth4", "", "Ethernet999", {"map.csv", 3, "y"}}}};
  std::vector<Finding> fs = check_alignment(h, sw, &m, default_policy());
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].outcome, Outcome::unknown);
  EXPECT_NE(fs[0].message.find("eth9"), std::string::npos);
  EXPECT_EQ(fs[1].outcome, Outcome::unknown);
  EXPECT_NE(fs[1].message.find("Ethernet999 is not in the switch configuration"), std::string::npos);
}

TEST(Alignment, EveryRuleIsDocumented) {
  EXPECT_EQ(switch_rules().size(), 8u);
  for (const SwitchRule& r : switch_rules()) {
    EXPECT_EQ(r.id.substr(0, 7), "switch.");
    EXPECT_FALSE(r.host_fix.empty());
    EXPECT_FALSE(r.switch_fix.empty());
    EXPECT_EQ(r.family, rules::Family::switch_port);
  }
}


TEST(Nvue, ConfigShowJsonRoceProfileFromDocs) {
  SwitchQos sw = load("cumulus/nv-config-show-json-roce-lossless.json");
  EXPECT_EQ(sw.dialect, Dialect::nvue_config_json);
  EXPECT_EQ(sw.name, "leaf01");
  ASSERT_EQ(sw.ports.size(), 2u);
  const PortQos& p = port(sw, "swp2");
  EXPECT_EQ(*p.mtu_bytes, 9216);
  EXPECT_EQ(p.mtu_bytes.source.line, 30u);
  EXPECT_EQ(p.dscp_to_tc->at(26), 3);
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{3});
  EXPECT_EQ(p.pfc_enabled.source.text, "set/qos/roce = RoCE profile, mode lossless");
  EXPECT_EQ(p.queue(6)->scheduling->type, "strict");
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 150000u);
}

TEST(Nvue, ApplyApiTreeFactoryQos) {
  SwitchQos sw = load("cumulus/nvue-api-applied-cl551-vx-qos-subset.json");
  EXPECT_EQ(sw.dialect, Dialect::nvue_config_json);
  EXPECT_EQ(sw.name, "cumulus");
  ASSERT_EQ(sw.ports.size(), 1u);  // eth0 is management: no swp port, one system-wide entry
  const PortQos& p = sw.ports[0];
  EXPECT_EQ(*p.trust, "pcp");  // trust l2
  EXPECT_FALSE(p.dscp_to_tc.has_value());
  EXPECT_TRUE(p.pfc_enabled->empty());
  EXPECT_TRUE(p.queue(0)->ecn->ecn_marking);
  EXPECT_EQ(*p.queue(0)->ecn->max_threshold_bytes, 1500000u);
  EXPECT_FALSE(*p.queue(0)->ecn->wred_drop);
  EXPECT_EQ(*p.queue(1)->scheduling->weight, 13);
}

TEST(Alignment, CumulusFactoryQosVsNvidiaHost) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("cumulus/nvue-api-applied-cl551-vx-qos-subset.json");
  std::vector<Finding> fs = check_alignment(h, sw, nullptr, default_policy());
  EXPECT_EQ(find(fs, "switch.trust-dscp")->outcome, Outcome::fail);  // trust l2 vs host dscp
  EXPECT_EQ(find(fs, "switch.roce-lossless")->outcome, Outcome::fail);  // host priority 3, switch PFC none
}

// ------------------------------------------------------------------ LLDP --------------------

TEST(Lldp, KeyvalueIfnamePortId) {
  Result<PortMap> m = port_map_from_lldp(k_switch / "lldp/lldpctl-keyvalue-dell-s4100-cumulus.txt", "node7");
  ASSERT_TRUE(m) << m.error().describe();
  ASSERT_EQ(m->links.size(), 2u);
  EXPECT_EQ(m->links[0].host, "node7");
  EXPECT_EQ(m->links[0].netdev, "eno1");
  EXPECT_EQ(m->links[0].switch_name, "toto-chassis.dc42");
  EXPECT_EQ(m->links[0].port, "swp46");
  EXPECT_EQ(m->links[0].source.line, 15u);
  EXPECT_EQ(m->links[1].netdev, "eno2d1");
  EXPECT_EQ(m->links[1].switch_name, "");  // the capture keys that name line lldp.eno1
  EXPECT_EQ(m->links[1].port, "swp46");
}

TEST(Lldp, KeyvalueLocalPortIdUsesDescription) {
  Result<PortMap> m = port_map_from_lldp(k_switch / "lldp/lldpctl-keyvalue-juniper-qfx-local-portid.txt", "");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->links[0].port, "xe-0/0/1");
  EXPECT_EQ(m->links[1].switch_name, "sw-filer-f05.dc42");
}

TEST(Lldp, LldpcliText) {
  Result<PortMap> m = port_map_from_lldp(k_switch / "lldp/lldpcli-show-neighbors-cumulus-docs.txt", "");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->links.size(), 2u);
  EXPECT_EQ(m->links[0].netdev, "eth0");
  EXPECT_EQ(m->links[0].switch_name, "PIONEERMS22");
  EXPECT_EQ(m->links[0].port, "swp47");
  EXPECT_EQ(m->links[0].source.text, "PortID:       ifname swp47");
  EXPECT_EQ(m->links[1].port, "swp1");
}

TEST(Lldp, LldpctlJson) {
  Result<PortMap> m = port_map_from_lldp(k_switch / "lldp/lldpctl-json-puppet-lldpd.json", "");
  ASSERT_TRUE(m) << m.error().describe();
  ASSERT_EQ(m->links.size(), 1u);
  EXPECT_EQ(m->links[0].netdev, "eno1");
  EXPECT_EQ(m->links[0].switch_name, "router");
  EXPECT_EQ(m->links[0].port, "ge-1/0/1");
  EXPECT_EQ(m->links[0].source.line, 5u);
}

TEST(Lldp, LldptoolNeedsTheInterfaceAndFallsBackToDescription) {
  Result<PortMap> m = port_map_from_lldp(k_switch / "lldp/lldptool-t-n-hsn0-slingshot.txt", "uan01");
  ASSERT_TRUE(m) << m.error().describe();
  EXPECT_EQ(m->links[0].netdev, "hsn0");
  EXPECT_EQ(m->links[0].switch_name, "x3000c0r24b0");
  EXPECT_EQ(m->links[0].port, "Interface 36 as ros0p31");  // Port ID is a MAC
  Result<PortMap> no_if = parse_lldp("Chassis ID TLV\n\tMAC: 02:fe:00:00:00:1f\nPort ID TLV\n\tIfname: Ethernet0\n", "t.txt", "");
  ASSERT_FALSE(no_if);
  EXPECT_NE(no_if.error().message.find("# interface: IF"), std::string::npos);
  Result<PortMap> with_if = parse_lldp("# interface: eth2\nChassis ID TLV\n\tMAC: 02:fe:00:00:00:1f\nPort ID TLV\n\tIfname: Ethernet0\n", "t.txt", "");
  ASSERT_TRUE(with_if);
  EXPECT_EQ(with_if->links[0].port, "Ethernet0");
  EXPECT_EQ(with_if->links[0].netdev, "eth2");
}

// ------------------------------------------------------------------ port maps ---------------

TEST(PortMapFile, CsvAndYaml) {
  Result<PortMap> csv = parse_port_map("# rack 12\nhost,netdev,switch,port\nnode01,eth4,leaf01,Ethernet0\n", "map.csv");
  ASSERT_TRUE(csv);
  ASSERT_EQ(csv->links.size(), 1u);
  EXPECT_EQ(csv->links[0].host, "node01");
  EXPECT_EQ(csv->links[0].port, "Ethernet0");
  EXPECT_EQ(csv->links[0].source.line, 3u);
  Result<PortMap> yaml = parse_port_map("links:\n  - host: node01\n    netdev: eth4\n    switch: leaf01\n    port: swp16\n", "map.yaml");
  ASSERT_TRUE(yaml);
  EXPECT_EQ(yaml->links[0].port, "swp16");
  EXPECT_EQ(yaml->links[0].source.line, 2u);
  Result<PortMap> bad = parse_port_map("host,netdev,switch,port\nnode01,eth4,leaf01\n", "map.csv");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().context, "map.csv:2");
  Result<PortMap> badkey = parse_port_map("- host: a\n  netdev: eth4\n  prot: Ethernet0\n", "map.yaml");
  ASSERT_FALSE(badkey);
  EXPECT_EQ(badkey.error().context, "map.yaml:3");
}

TEST(PortMapFile, CsvQuotedFieldsAsSpreadsheetsExportThem) {
  Result<PortMap> csv = parse_port_map(
      "\"host\",\"netdev\",\"switch\",\"port\"\n"
      "\"node01\",\"eth4\",\"leaf01, rack 12\",\"Ethernet0\"\n"
      " node02 , eth5 ,\"say \"\"leaf02\"\"\", Ethernet4\n",
      "map.csv");
  ASSERT_TRUE(csv) << csv.error().describe();
  ASSERT_EQ(csv->links.size(), 2u);
  EXPECT_EQ(csv->links[0].switch_name, "leaf01, rack 12");
  EXPECT_EQ(csv->links[0].port, "Ethernet0");
  EXPECT_EQ(csv->links[1].host, "node02");
  EXPECT_EQ(csv->links[1].switch_name, "say \"leaf02\"");
  EXPECT_EQ(csv->links[1].port, "Ethernet4");
  Result<PortMap> open = parse_port_map("host,netdev,switch,port\nnode01,eth4,\"leaf01,Ethernet0\n", "map.csv");
  ASSERT_FALSE(open);
  EXPECT_EQ(open.error().context, "map.csv:2");
  EXPECT_NE(open.error().message.find("bad double quotes"), std::string::npos);
  Result<PortMap> trailing = parse_port_map("host,netdev,switch,port\nnode01,eth4,\"leaf01\"x,Ethernet0\n", "map.csv");
  ASSERT_FALSE(trailing);
  EXPECT_EQ(trailing.error().context, "map.csv:2");
}


// ------------------------------------------------------------------ detection ----------------

/// Every sample in testdata/switch, by directory: the dialect it is read as, or the NOS named in
/// the refusal. No sample is ever read as another NOS's dialect.
TEST(Detect, EverySampleIsReadAsItsOwnDialectOrRefusedByName) {
  struct Want {
    std::string dir;
    std::optional<Dialect> dialect;  ///< by extension below when several
    std::string refused;             ///< text the refusal names
  };
  const std::vector<Want> wants = {
      {"arista", Dialect::arista_eos, ""},
      {"cisco", Dialect::cisco_nxos, ""},
      {"sonic", Dialect::sonic_config_db, ""},
      {"dell-sonic", Dialect::dell_sonic_cli, ""},
      {"juniper", Dialect::juniper_junos, ""},
      {"onyx", Dialect::onyx_show_roce, ""},
  };
  std::size_t seen = 0;
  for (const Want& w : wants) {
    for (const auto& e : std::filesystem::directory_iterator(k_switch / w.dir)) {
      if (e.path().filename() == "SOURCES.md" || e.path().extension() == ".ini") continue;
      if (e.path().filename().string().find("running-config") != std::string::npos) continue;  // below
      SCOPED_TRACE(e.path().string());
      ++seen;
      Result<SwitchQos> r = load_switch_config(e.path());
      if (w.dialect) {
        ASSERT_TRUE(r) << r.error().describe();
        EXPECT_EQ(r->dialect, *w.dialect);
      } else {
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().kind, ErrorKind::unsupported);
        EXPECT_NE(r.error().describe().find(w.refused), std::string::npos) << r.error().describe();
        EXPECT_NE(r.error().describe().find("rocekit reads: SONiC config_db.json"), std::string::npos);
      }
    }
  }
  EXPECT_GE(seen, 17u);  // with the two JVD leaves and the two pasted Dell inputs (issue 19)
  // An Onyx running-config (its DCBX PFC lines) is Onyx, but not the `show roce` rocekit reads.
  Result<SwitchQos> onyx_rc = load_switch_config(k_switch / "onyx/onyx-running-config-ufm-switch16.txt");
  ASSERT_FALSE(onyx_rc);
  EXPECT_EQ(onyx_rc.error().context, (k_switch / "onyx/onyx-running-config-ufm-switch16.txt").string() + ":69");
  EXPECT_NE(onyx_rc.error().message.find("looks like NVIDIA Onyx running-config (line 69: `dcb priority-flow-control enable force`)"),
            std::string::npos) << onyx_rc.error().message;
  for (const char* f : {"cumulus/nv-commands-roce-lossless-sp2.txt", "cumulus/nv-commands-roce-lossy-sp4-pool.txt"})
    EXPECT_EQ(load(f).dialect, Dialect::nvue_commands);
  for (const char* f : {"cumulus/nv-show-qos-roce.txt", "cumulus/nv-show-interface-qos-roce-status.txt"})
    EXPECT_EQ(load(f).dialect, Dialect::nvue_show_roce);
  for (const char* f : {"cumulus/nv-config-show-json-roce-lossless.json", "cumulus/nvue-api-applied-cl551-vx-qos-subset.json"})
    EXPECT_EQ(load(f).dialect, Dialect::nvue_config_json);
}

TEST(Detect, UnknownNosIsRefusedNamingItNotParsedAsTheClosest) {
  // Dell OS10 shares `system qos`, `policy-map type network-qos` and `priority-flow-control mode
  // on` with NX-OS; its `trust-map` / `service-policy input type` give it away.
  const std::string os10 =
      "class-map type network-qos c1\n match qos-group 3\npolicy-map type network-qos pp1\n class c1\n  pause\n"
      "  pfc-cos 3\nsystem qos\n trust-map dscp default\ninterface ethernet1/1/1\n priority-flow-control mode on\n"
      " service-policy input type network-qos pp1\n";
  Result<SwitchQos> r = parse_switch_config(os10, "os10.cfg");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::unsupported);
  EXPECT_NE(r.error().describe().find("Dell SmartFabric OS10"), std::string::npos) << r.error().describe();
  EXPECT_NE(r.error().describe().find("os10.cfg:6"), std::string::npos) << r.error().describe();  // pfc-cos 3
  EXPECT_NE(r.error().describe().find("Cisco NX-OS running-config"), std::string::npos);  // in the known list
  // Lines of two dialects: refused, naming both.
  Result<SwitchQos> mixed =
      parse_switch_config("qos map dscp 26 to traffic-class 3\nsystem qos\n  service-policy type network-qos x\n", "m.cfg");
  ASSERT_FALSE(mixed);
  EXPECT_NE(mixed.error().describe().find("Arista EOS running-config (line 1"), std::string::npos) << mixed.error().describe();
  EXPECT_NE(mixed.error().describe().find("Cisco NX-OS running-config (line 2"), std::string::npos);
  // Cisco IOS and no QoS at all.
  EXPECT_NE(parse_switch_config("mls qos\ninterface Gi0/1\n mls qos trust dscp\n", "ios.cfg").error().describe().find("Cisco IOS"),
            std::string::npos);
  EXPECT_NE(parse_switch_config("hostname x\ninterface Ethernet1\n description y\n", "x.cfg").error().describe().find("no QoS line"),
            std::string::npos);
  // The old failure: the NX-OS sample was read as EOS with "PFC priorities: none".
  EXPECT_EQ(load("cisco/nxos-roce-dcqcn-n9364e.cfg").dialect, Dialect::cisco_nxos);
}

// ------------------------------------------------------------------ goldens ------------------

/// qos_json of testdata/switch/<rel> (evidence names the relative path) against
/// testdata/expected/switch/<rel>.json; RK_UPDATE_GOLDEN=1 rewrites it (review before committing).
void check_switch_golden(const std::string& rel) {
  SCOPED_TRACE(rel);
  std::ifstream in(k_switch / rel, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Result<SwitchQos> r = parse_switch_config(text, rel);
  ASSERT_TRUE(r) << r.error().describe();
  nlohmann::json got = nlohmann::json::parse(qos_json(*r));
  std::filesystem::path want = std::filesystem::path(RK_TESTDATA_DIR) / "expected" / "switch" / (rel + ".json");
  if (const char* u = std::getenv("RK_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::filesystem::create_directories(want.parent_path());
    std::ofstream(want, std::ios::binary | std::ios::trunc) << got.dump(2) << "\n";
    return;
  }
  std::ifstream g(want, std::ios::binary);
  ASSERT_TRUE(g) << "missing golden " << want << " (RK_UPDATE_GOLDEN=1)";
  std::string gt((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
  EXPECT_EQ(got, nlohmann::json::parse(gt)) << got.dump(2);
}

TEST(Golden, NewDialects) {
  for (const char* f : {"cisco/nxos-roce-dcqcn-n9364e.cfg", "cisco/nxos-azure-local-qos.cfg",
                        "cisco/nexus5k-network-qos-fcoe-no-drop-fragment.cfg", "juniper/junos-dcqcn-qfx5240.conf",
                        "cumulus/nv-commands-roce-lossless-sp2.txt", "cumulus/nv-commands-roce-lossy-sp4-pool.txt",
                        "dell-sonic/sonic-cli-roce-z9664f.cfg", "onyx/onyx-show-roce.txt",
                        "onyx/onyx-3.10-sn2700-show-roce.txt", "juniper/jvd-aiml-mtb-leaf1-qfx5240-full.conf",
                        "juniper/jvd-5stage-compute-leaf1-qfx5120-lossy-ecn-full.conf",
                        "dell-sonic/sonic-mgmt-rocev2-hld-klish-session-dot1p-pfc3-queue1.cfg",
                        "dell-sonic/dellemc-ansible-qos-interfaces-doc-eth1-5-pfc0-1-maps-undefined.cfg"})
    check_switch_golden(f);
}

// ------------------------------------------------------------------ Onyx ---------------------

TEST(Onyx, ShowRoceOfAnSn2700) {
  SwitchQos sw = load("onyx/onyx-3.10-sn2700-show-roce.txt");
  EXPECT_EQ(sw.dialect, Dialect::onyx_show_roce);
  const PortQos& p = port(sw, "*");
  EXPECT_EQ(*p.trust, "dscp");  // Port trust mode: L3
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{3});
  EXPECT_EQ(p.pfc_enabled.source.line, 19u);  // switch-priority 3: enabled
  EXPECT_EQ(p.tc_to_queue->at(3), 3);
  EXPECT_EQ(p.tc_to_queue->at(6), 6);
  EXPECT_EQ(p.queue(3)->scheduling->type, "dwrr");
  EXPECT_EQ(*p.queue(3)->scheduling->weight, 50);
  EXPECT_EQ(p.queue(6)->scheduling->type, "strict");
  EXPECT_EQ(p.queue(6)->scheduling.source.line, 26u);
  EXPECT_TRUE(p.queue(3)->ecn->ecn_marking);
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 150u * 1024);
  EXPECT_EQ(*p.queue(3)->ecn->max_threshold_bytes, 1500u * 1024);
  EXPECT_FALSE(p.queue(6)->ecn->ecn_marking);
  ASSERT_EQ(p.buffer_pgs.size(), 1u);
  EXPECT_EQ(p.buffer_pgs[0].first_pg, 3);
  EXPECT_EQ(p.buffer_pgs[0].profile, "roce-reserved");
  EXPECT_FALSE(p.dscp_to_tc.has_value());
  EXPECT_NE(p.dscp_to_tc.reason.find("show qos interface"), std::string::npos);
}

TEST(Onyx, ManualSampleWithoutPadding) {
  SwitchQos sw = load("onyx/onyx-show-roce.txt");
  const PortQos& p = port(sw, "*");
  EXPECT_EQ(*p.trust, "dscp");
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 150u * 1024);  // "Min : 150"
  EXPECT_TRUE(p.buffer_pgs.empty());  // the stored copy ends after the TC table
}

// ------------------------------------------------------------------ NX-OS --------------------

TEST(Nxos, RocmDcqcnSampleDscpBased) {
  SwitchQos sw = load("cisco/nxos-roce-dcqcn-n9364e.cfg");
  ASSERT_EQ(sw.ports.size(), 2u);  // interface Ethernet1/1/1 - 2
  EXPECT_EQ(sw.ports[0].name, "Ethernet1/1/1");
  EXPECT_EQ(sw.ports[1].name, "Ethernet1/1/2");
  const PortQos& p = port(sw, "Ethernet1/1/2");
  EXPECT_EQ(*p.trust, "dscp");
  EXPECT_EQ(p.dscp_to_tc->at(26), 3);
  EXPECT_EQ(p.dscp_to_tc->at(48), 7);
  EXPECT_EQ(p.dscp_to_tc->at(0), 0);
  EXPECT_EQ(p.dscp_to_tc->at(24), 0);  // only 26 is matched
  EXPECT_EQ(p.dscp_to_tc_lines.at(26), 16u);  // match dscp 26
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{3});
  EXPECT_EQ(p.pfc_enabled.source.line, 9u);  // pause pfc-cos 3
  EXPECT_EQ(p.pfc_priority_to_queue->at(3), 3);
  EXPECT_EQ(p.queue(7)->scheduling->type, "strict");
  EXPECT_EQ(p.queue(7)->scheduling.source.line, 42u);
  EXPECT_EQ(*p.queue(3)->scheduling->weight, 50);
  EXPECT_TRUE(p.queue(3)->ecn->ecn_marking);
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 950u * 1024);
  EXPECT_EQ(*p.queue(3)->ecn->max_threshold_bytes, 3000u * 1024);
  EXPECT_EQ(*p.queue(3)->ecn->mark_probability_percent, 7);
  EXPECT_EQ(*p.queue(0)->scheduling->weight, 50);  // c-out-8q-q-default
  EXPECT_FALSE(p.queue(0)->ecn->ecn_marking);
  EXPECT_EQ(*p.mtu_bytes, 9216);
  EXPECT_TRUE(p.pfc_watchdog->enabled);
  EXPECT_EQ(p.pfc_watchdog.source.line, 50u);
}

TEST(Nxos, AzureLocalSampleClassifiesOnCos) {
  SwitchQos sw = load("cisco/nxos-azure-local-qos.cfg");
  const PortQos& p = port(sw, "Ethernet1/17");
  EXPECT_EQ(*p.trust, "pcp");
  EXPECT_EQ(p.dscp_to_tc->at(26), 0);  // no DSCP class: qos-group 0
  EXPECT_NE(p.dscp_to_tc.source.text.find("CoS 3 -> qos-group 3"), std::string::npos) << p.dscp_to_tc.source.text;
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{3});  // mode on send-tlv
  EXPECT_EQ(*p.queue(3)->ecn->min_threshold_bytes, 300u * 1024);
  EXPECT_EQ(*p.queue(7)->scheduling->weight, 1);
  EXPECT_FALSE(p.pfc_watchdog.has_value());
  EXPECT_NE(p.pfc_watchdog.reason.find("default, not in config"), std::string::npos);
}

TEST(Nxos, ErrorsNameFileAndLine) {
  Result<SwitchQos> r = parse_switch_config(
      "class-map type qos match-any R\n  match dscp 26,99\npolicy-map type qos P\n  class R\n    set qos-group 3\n", "n.cfg");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::malformed_input);
  EXPECT_NE(r.error().describe().find("n.cfg:2"), std::string::npos) << r.error().describe();
  Result<SwitchQos> undefined = parse_switch_config(
      "system qos\n  service-policy type network-qos nope\ninterface Ethernet1/1\n  priority-flow-control mode on\n", "u.cfg");
  ASSERT_FALSE(undefined);
  EXPECT_NE(undefined.error().describe().find("u.cfg:2"), std::string::npos) << undefined.error().describe();
  EXPECT_NE(undefined.error().describe().find("nope is not defined"), std::string::npos);
}

TEST(Alignment, NxosDscpSampleVsNvidiaDefaultHostIsAligned) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("cisco/nxos-roce-dcqcn-n9364e.cfg");
  PortMap m{{Link{"", "*", "", "Ethernet1/1/1", {}}}};
  std::vector<Finding> fs = check_alignment(h, sw, &m, default_policy());
  EXPECT_EQ(count(fs, Outcome::fail), 0u);
  EXPECT_EQ(find(fs, "switch.roce-lossless")->outcome, Outcome::pass) << find(fs, "switch.roce-lossless")->message;
  EXPECT_EQ(find(fs, "switch.trust-dscp")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.roce-buffer-lossless")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.cnp-queue")->outcome, Outcome::pass) << find(fs, "switch.cnp-queue")->message;
  EXPECT_EQ(find(fs, "switch.pfc-watchdog")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.extra-lossless")->outcome, Outcome::pass);
}

TEST(Alignment, NxosCosSampleVsDscpHostIsNotLossless) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("cisco/nxos-azure-local-qos.cfg");
  std::vector<Finding> fs = check_alignment(h, sw, nullptr, default_policy());
  EXPECT_EQ(find(fs, "switch.trust-dscp")->outcome, Outcome::fail);  // switch classifies on CoS
  const Finding* l = find(fs, "switch.roce-lossless");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->outcome, Outcome::fail);
  EXPECT_NE(l->message.find("DSCP 26 to TC 0"), std::string::npos) << l->message;
  bool cites_policy = false;
  for (const Evidence& e : l->evidence) cites_policy = cites_policy || (e.line == 49 && e.file.find("nxos-azure") != std::string::npos);
  EXPECT_TRUE(cites_policy);  // service-policy type qos input AZLocal_SERVICES
  ASSERT_FALSE(l->remediation.commands.empty());
  EXPECT_NE(l->remediation.commands[0].find("match dscp 26"), std::string::npos) << l->remediation.commands[0];
  EXPECT_NE(l->remediation.commands[0].find("set qos-group 3"), std::string::npos);
  EXPECT_EQ(l->remediation.commands[0].find("qos map dscp"), std::string::npos);  // never an EOS command
}

// ------------------------------------------------------------------ Junos --------------------

TEST(Junos, RocmQfx5240SampleHierarchy) {
  SwitchQos sw = load("juniper/junos-dcqcn-qfx5240.conf");
  EXPECT_EQ(sw.dialect, Dialect::juniper_junos);
  ASSERT_EQ(sw.ports.size(), 1u);
  EXPECT_EQ(sw.ports[0].name, "et-*");
  const PortQos& p = port(sw, "et-0/0/12");  // matched by the et-* wildcard
  EXPECT_EQ(*p.trust, "dscp");
  EXPECT_EQ(p.dscp_to_tc->at(26), 4);  // NO-LOSS, queue-num 4
  EXPECT_EQ(p.dscp_to_tc->at(48), 3);  // CNP, queue-num 3
  EXPECT_EQ(p.dscp_to_tc_lines.at(26), 13u);
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{3});  // DSCP 26 pfc -> NO-LOSS pfc-priority 3
  EXPECT_EQ(p.tc_pfc_priority.at(4), 3);
  EXPECT_EQ(p.pfc_priority_to_queue->at(3), 4);  // output 011 flow-control-queue 4
  EXPECT_TRUE(p.queue(4)->ecn->ecn_marking);
  EXPECT_EQ(*p.queue(4)->ecn->threshold_text, "fill-level 45-90 %");
  EXPECT_EQ(p.queue(3)->scheduling->type, "strict");
  EXPECT_FALSE(p.mtu_bytes.has_value());
}

TEST(Junos, SetFormEqualsHierarchy) {
  const std::string set =
      "set class-of-service classifiers dscp mydscp forwarding-class CNP loss-priority low code-points 110000\n"
      "set class-of-service classifiers dscp mydscp forwarding-class NO-LOSS loss-priority low code-points 011010\n"
      "set class-of-service forwarding-classes class CNP queue-num 3\n"
      "set class-of-service forwarding-classes class NO-LOSS queue-num 4 no-loss pfc-priority 3\n"
      "set class-of-service congestion-notification-profile cnp input dscp code-point 011010 pfc\n"
      "set class-of-service congestion-notification-profile cnp output ieee-802.1 code-point 011 flow-control-queue 4\n"
      "set class-of-service interfaces et-0/0/1 congestion-notification-profile cnp\n"
      "set class-of-service interfaces et-0/0/1 scheduler-map sm1\n"
      "set class-of-service interfaces et-0/0/1 unit 0 classifiers dscp mydscp\n"
      "set class-of-service scheduler-maps sm1 forwarding-class CNP scheduler s2-cnp\n"
      "set class-of-service scheduler-maps sm1 forwarding-class NO-LOSS scheduler s1\n"
      "set class-of-service schedulers s1 explicit-congestion-notification\n"
      "set class-of-service schedulers s2-cnp transmit-rate percent 5\n"
      "set class-of-service schedulers s2-cnp priority strict-high\n"
      "set interfaces et-0/0/1 mtu 9216\n";
  Result<SwitchQos> r = parse_switch_config(set, "set.conf");
  ASSERT_TRUE(r) << r.error().describe();
  const PortQos& p = port(*r, "et-0/0/1");
  EXPECT_EQ(p.dscp_to_tc->at(26), 4);
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{3});
  EXPECT_EQ(p.pfc_enabled.source.line, 5u);
  EXPECT_EQ(p.pfc_priority_to_queue->at(3), 4);
  EXPECT_EQ(p.queue(3)->scheduling->type, "strict");
  EXPECT_EQ(p.queue(3)->scheduling.source.line, 14u);
  EXPECT_TRUE(p.queue(4)->ecn->ecn_marking);
  EXPECT_EQ(*p.mtu_bytes, 9202);  // media MTU 9216 - 14
  Result<SwitchQos> bad = parse_switch_config("classifiers {\n  dscp x {\n    forwarding-class A {\n", "b.conf");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::malformed_input);
  EXPECT_NE(bad.error().describe().find("b.conf:"), std::string::npos) << bad.error().describe();
}

TEST(Alignment, JunosSampleVsNvidiaDefaultHost) {
  // Queue numbers differ from PFC priorities here (NO-LOSS rides queue 4, paused by priority 3):
  // alignment compares PFC priorities, so this is lossless.
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("juniper/junos-dcqcn-qfx5240.conf");
  PortMap m{{Link{"", "*", "", "et-0/0/0", {}}}};
  std::vector<Finding> fs = check_alignment(h, sw, &m, default_policy());
  EXPECT_EQ(find(fs, "switch.roce-lossless")->outcome, Outcome::pass) << find(fs, "switch.roce-lossless")->message;
  EXPECT_EQ(find(fs, "switch.trust-dscp")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.roce-buffer-lossless")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.cnp-queue")->outcome, Outcome::pass) << find(fs, "switch.cnp-queue")->message;
  EXPECT_EQ(find(fs, "switch.extra-lossless")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.mtu")->outcome, Outcome::unknown);  // no interface mtu in the sample
  EXPECT_EQ(find(fs, "switch.pfc-watchdog")->outcome, Outcome::unknown);
}

// ------------------------------------------------------------------ NVUE commands ------------

TEST(NvueCommands, RoceLosslessMovedToSwitchPriority2) {
  SwitchQos sw = load("cumulus/nv-commands-roce-lossless-sp2.txt");
  EXPECT_EQ(sw.dialect, Dialect::nvue_commands);
  ASSERT_EQ(sw.ports.size(), 1u);
  const PortQos& p = sw.ports[0];
  EXPECT_EQ(*p.trust, "pcp,dscp");
  EXPECT_EQ(p.dscp_to_tc->at(26), 2);
  EXPECT_EQ(p.dscp_to_tc->at(27), 3);  // RoCE profile default: DSCP >> 3
  EXPECT_EQ(*p.pfc_enabled, std::vector<int>{2});
  EXPECT_EQ(p.pfc_enabled.source.line, 8u);
  EXPECT_NE(p.pfc_enabled.source.text.find("nv set qos pfc default-global switch-priority 2"), std::string::npos);
  EXPECT_EQ(p.tc_to_queue->at(2), 3);
  EXPECT_EQ(p.tc_to_queue->at(3), 0);
  EXPECT_EQ(p.queue(6)->scheduling->type, "strict");
}

TEST(NvueCommands, EqualsTheJsonFormOfTheSameConfig) {
  // The same settings as `nv config show -o json` prints them and as commands.
  const std::string json_form =
      "[{\"header\": {}}, {\"set\": {\"qos\": {\"roce\": {}, \"pfc\": {\"default-global\": {\"switch-priority\": {\"3\": {}}}},"
      " \"mapping\": {\"default-global\": {\"dscp\": {\"26\": {\"switch-priority\": 3}}}}},"
      " \"interface\": {\"swp1\": {\"link\": {\"mtu\": 9000}}, \"swp2\": {\"link\": {\"mtu\": 9000}}}}}]";
  const std::string commands =
      "nv set qos roce\nnv set qos pfc default-global switch-priority 3\n"
      "nv set qos mapping default-global dscp 26 switch-priority 3\nnv set interface swp1-2 link mtu 9000\n";
  Result<SwitchQos> a = parse_switch_config(json_form, "a.json");
  Result<SwitchQos> b = parse_switch_config(commands, "b.txt");
  ASSERT_TRUE(a) << a.error().describe();
  ASSERT_TRUE(b) << b.error().describe();
  EXPECT_EQ(b->dialect, Dialect::nvue_commands);
  ASSERT_EQ(a->ports.size(), b->ports.size());
  for (std::size_t i = 0; i < a->ports.size(); ++i) {
    EXPECT_EQ(a->ports[i].name, b->ports[i].name);
    EXPECT_EQ(*a->ports[i].dscp_to_tc, *b->ports[i].dscp_to_tc);
    EXPECT_EQ(*a->ports[i].pfc_enabled, *b->ports[i].pfc_enabled);
    EXPECT_EQ(a->ports[i].mtu_bytes.value, b->ports[i].mtu_bytes.value);
  }
  EXPECT_EQ(b->find_port("swp2")->mtu_bytes.source.line, 4u);
  EXPECT_EQ(b->find_port("swp2")->mtu_bytes.source.text.substr(0, 36), "nv set interface swp1-2 link mtu 900");
}

TEST(Alignment, NvueCommandsSp2VsNvidiaDefaultHost) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("cumulus/nv-commands-roce-lossless-sp2.txt");
  std::vector<Finding> fs = check_alignment(h, sw, nullptr, default_policy());
  const Finding* l = find(fs, "switch.roce-lossless");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->outcome, Outcome::fail);
  EXPECT_NE(l->message.find("host sends RoCE on priority 3 but the switch has no PFC on it (2)"), std::string::npos) << l->message;
  bool cites = false;
  for (const Evidence& e : l->evidence) cites = cites || e.line == 8;
  EXPECT_TRUE(cites);
  Snapshot h2 = host("netarbiter-eth4-qos-healthy");
  std::vector<Finding> lossy = check_alignment(h2, load("cumulus/nv-commands-roce-lossy-sp4-pool.txt"), nullptr, default_policy());
  EXPECT_EQ(find(lossy, "switch.roce-lossless")->outcome, Outcome::fail);  // mode lossy: no PFC at all
}

// ------------------------------------------------------------------ Dell Enterprise SONiC ----

TEST(DellSonic, RocmZ9664fSample) {
  SwitchQos sw = load("dell-sonic/sonic-cli-roce-z9664f.cfg");
  EXPECT_EQ(sw.dialect, Dialect::dell_sonic_cli);
  ASSERT_EQ(sw.ports.size(), 1u);
  const PortQos& p = port(sw, "Eth1/1");
  EXPECT_EQ(*p.trust, "pcp,dscp");
  EXPECT_EQ(p.dscp_to_tc->at(26), 3);
  EXPECT_EQ(p.dscp_to_tc->at(24), 3);
  EXPECT_EQ(p.dscp_to_tc->at(48), 6);
  EXPECT_EQ(p.dscp_to_tc->at(4), 4);
  EXPECT_EQ(p.dscp_to_tc_lines.at(26), 31u);
  EXPECT_EQ(p.tc_to_queue->at(6), 6);
  EXPECT_EQ(p.tc_to_pg->at(5), 7);
  EXPECT_EQ((*p.pfc_enabled), (std::vector<int>{3, 4}));
  EXPECT_EQ(p.pfc_enabled.source.line, 93u);
  EXPECT_EQ(p.pfc_priority_to_queue->at(3), 3);
  ASSERT_EQ(p.buffer_pgs.size(), 2u);
  EXPECT_EQ(p.buffer_pgs[0].source.line, 69u);
  EXPECT_EQ(p.queue(6)->scheduling->type, "strict");
  EXPECT_EQ(p.queue(6)->scheduling.source.line, 27u);
  EXPECT_EQ(*p.queue(3)->scheduling->weight, 50);
  EXPECT_TRUE(p.queue(3)->ecn->ecn_marking);
  EXPECT_EQ(*p.queue(3)->ecn->mode, "ecn_green");
  EXPECT_EQ(p.queue(3)->ecn.source.line, 84u);
  EXPECT_FALSE(p.queue(0)->ecn->ecn_marking);
  EXPECT_EQ(*p.mtu_bytes, 9216);
  EXPECT_TRUE(p.pfc_watchdog->enabled);
  EXPECT_EQ(*p.pfc_watchdog->detection_time_ms, 200);
  EXPECT_EQ(*p.pfc_watchdog->restoration_time_ms, 400);
  EXPECT_EQ(*p.pfc_watchdog->action, "drop");
  EXPECT_EQ(p.pfc_watchdog.source.line, 96u);
}

TEST(Alignment, DellSonicSampleVsNvidiaDefaultHost) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("dell-sonic/sonic-cli-roce-z9664f.cfg");
  std::vector<Finding> fs = check_alignment(h, sw, nullptr, default_policy());
  EXPECT_EQ(find(fs, "switch.roce-lossless")->outcome, Outcome::pass) << find(fs, "switch.roce-lossless")->message;
  EXPECT_EQ(find(fs, "switch.roce-buffer-lossless")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.cnp-queue")->outcome, Outcome::pass) << find(fs, "switch.cnp-queue")->message;
  EXPECT_EQ(find(fs, "switch.pfc-watchdog")->outcome, Outcome::pass);
  EXPECT_EQ(find(fs, "switch.mtu")->outcome, Outcome::unknown);  // the bundle has no host MTU
  // `enable roce` makes priority 4 lossless too; the host has PFC on 3 only.
  const Finding* extra = find(fs, "switch.extra-lossless");
  EXPECT_EQ(extra->outcome, Outcome::fail);
  EXPECT_NE(extra->message.find("switch also lossless on 4"), std::string::npos) << extra->message;
}

// The host's CNP DSCP comes from CNP_DSCP_P<port> of the port the netdev is (phys_port_name
// np<N>), never from the PCI function number; without a known port the policy value is used and
// the finding says why.
TEST(Alignment, CnpDscpOfThePhysicalPortNotThePciFunction) {
  Snapshot h = host("netarbiter-eth4-qos-healthy");
  SwitchQos sw = load("sonic/qos-mellanox4600c-c64-remap-disabled.json");
  PortMap m{{Link{"", "*", "", "Ethernet0", {}}}};
  ASSERT_EQ(h.netdevs.size(), 1u);
  h.netdevs[0].bdf = "0000:01:00.0";  // function 0, but the netdev is port 2 below
  PciFunction& f = h.pci("0000:01:00.0");
  NvConfig nv;
  nv.params.push_back(NvParam{"CNP_DSCP_P1", std::nullopt, std::string("48"), std::nullopt, std::nullopt, false, 1});
  nv.params.push_back(NvParam{"CNP_DSCP_P2", std::nullopt, std::string("24"), std::nullopt, std::nullopt, false, 2});
  f.nv_config.value = nv;
  f.nv_config.source.file = "mlxconfig_q@0000:01:00.0.txt";

  std::vector<Finding> fs = check_alignment(h, sw, &m, default_policy());
  const Finding* cnp = find(fs, "switch.cnp-queue");
  ASSERT_NE(cnp, nullptr);
  EXPECT_NE(cnp->message.find("CNP DSCP 48 (policy cnp_dscp (firmware CNP_DSCP_P<n>: the physical port of eth4 is not known))"),
            std::string::npos) << cnp->message;

  h.netdevs[0].name = "enp1s0f0np1";  // phys_port_name p1: the second port
  fs = check_alignment(h, sw, &m, default_policy());
  cnp = find(fs, "switch.cnp-queue");
  ASSERT_NE(cnp, nullptr);
  EXPECT_NE(cnp->message.find("CNP DSCP 24 (firmware CNP_DSCP_P2)"), std::string::npos) << cnp->message;
}

}  // namespace
}  // namespace rk::switchcfg

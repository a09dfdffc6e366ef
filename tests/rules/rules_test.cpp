// Rule tests on hand-built snapshots: the rules no host bundle exercises, and edge cases.
#include <gtest/gtest.h>

#include "rocekit/rules/rule.hpp"

namespace rk {
namespace {

// Returns a copy: callers pass temporary reports.
Finding find(const rules::Report& r, const std::string& rule, const std::string& subject) {
  for (const Finding& f : r.findings)
    if (f.rule == rule && f.subject == subject) return f;
  ADD_FAILURE() << "no finding " << rule << " on " << subject;
  return Finding{};
}

Snapshot one_port(const std::string& mode) {
  Snapshot s;
  RdmaDevice& d = s.rdma("mlx5_0");
  RdmaPort p;
  p.port = 1;
  p.link_layer = LinkLayer::ethernet;
  p.state.value = PortState::active;
  p.default_roce_mode.value = mode;
  p.default_roce_mode.source = {"cma_roce_mode@mlx5_0.txt", 4, mode};
  d.ports.push_back(p);
  return s;
}

TEST(RoceRules, CmDefaultV1FailsWithTheReadOnlyCheckAndTheRealFix) {
  rules::Report r = rules::evaluate(one_port("IB/RoCE v1"), default_policy(), {"roce"});
  const Finding f = find(r, "roce.cm-default-v2", "mlx5_0/1");
  EXPECT_EQ(f.outcome, Outcome::fail);
  ASSERT_EQ(f.remediation.commands.size(), 1u);
  EXPECT_EQ(f.remediation.commands[0], "cma_roce_mode -d mlx5_0 -p 1 -m 2");
  EXPECT_EQ(f.remediation.scope, FixScope::runtime);
  EXPECT_EQ(find(rules::evaluate(one_port("RoCE v2"), default_policy(), {"roce"}),
                 "roce.cm-default-v2", "mlx5_0/1").outcome,
            Outcome::pass);
}

Snapshot ecn_host(bool rp3, bool np3, const std::string& mask) {
  Snapshot s;
  NetDev& n = s.netdev("ens6");
  n.bdf = "0000:3b:00.0";
  EcnState e;
  e.rp_enabled[3] = rp3;
  e.np_enabled[3] = np3;
  n.ecn.value = e;
  n.ecn.source = {"sysfs_ecn@ens6.txt", 4, "/sys/class/net/ens6/ecn/roce_rp/enable/3:1"};
  PciFunction& p = s.pci("0000:3b:00.0");
  NvConfig c;
  c.params.push_back(NvParam{"ROCE_CC_PRIO_MASK_P1", std::nullopt, std::nullopt, mask,
                             std::nullopt, false, 10});
  p.nv_config.value = c;
  return s;
}

TEST(QosRules, EcnNeedsRuntimeSysfsAndFirmwareMask) {
  Policy pol = default_policy();
  EXPECT_EQ(find(rules::evaluate(ecn_host(true, true, "255"), pol, {"qos.ecn-roce-priority"}),
                 "qos.ecn-roce-priority", "ens6").outcome,
            Outcome::pass);
  // The seed's ROCE_CC_PRIO_MASK_P1=0x8 keeps priority 3 on; 0x10 (priority 4) does not.
  EXPECT_EQ(find(rules::evaluate(ecn_host(true, true, "16"), pol, {"qos.ecn-roce-priority"}),
                 "qos.ecn-roce-priority", "ens6").outcome,
            Outcome::fail);
  const Finding np_off = find(rules::evaluate(ecn_host(true, false, "255"), pol,
                                               {"qos.ecn-roce-priority"}),
                               "qos.ecn-roce-priority", "ens6");
  EXPECT_EQ(np_off.outcome, Outcome::fail);
  EXPECT_NE(np_off.message.find("NP off"), std::string::npos);
  EXPECT_NE(np_off.remediation.notes.find("no --ecn"), std::string::npos);
  // Without the firmware query the rule cannot pass.
  Snapshot s = ecn_host(true, true, "255");
  s.pci_functions.clear();
  const Finding u = find(rules::evaluate(s, pol, {"qos.ecn-roce-priority"}),
                          "qos.ecn-roce-priority", "ens6");
  EXPECT_EQ(u.outcome, Outcome::unknown);
  EXPECT_NE(u.message.find("firmware ROCE_CC_PRIO_MASK_P"), std::string::npos);
  // The fix keeps the other priorities' bits (16 | 8 = 24), as `rocekit plan` sets it.
  const Finding bad = find(rules::evaluate(ecn_host(true, true, "16"), pol, {"qos.ecn-roce-priority"}),
                           "qos.ecn-roce-priority", "ens6");
  EXPECT_EQ(bad.remediation.commands.back(), "mstconfig -y -d 0000:3b:00.0 set ROCE_CC_PRIO_MASK_P1=24");
  EXPECT_EQ(bad.remediation.action, "ecn");
  ASSERT_EQ(bad.remediation.steps.size(), 3u);  // roce_rp, roce_np sysfs, firmware mask
  EXPECT_EQ(bad.remediation.steps[0].write_path, "/sys/class/net/ens6/ecn/roce_rp/enable/3");
  EXPECT_EQ(bad.remediation.steps[2].argv,
            (std::vector<std::string>{"mstconfig", "-y", "-d", "0000:3b:00.0", "set", "ROCE_CC_PRIO_MASK_P1=24"}));
}

// Port identity (issue 14.7): from phys_port_name as the predictable name carries it (np<N>),
// not from the PCI function number, which is wrong with more PFs than ports.
TEST(QosRules, EcnFirmwarePortFromPhysPortNameNotPciFunction) {
  Policy pol = default_policy();
  Snapshot s;
  NetDev& n = s.netdev("enp59s0f0np1");  // function 0 of a card whose PF 0 drives port 2
  n.bdf = "0000:3b:00.0";
  EcnState e;
  e.rp_enabled[3] = true;
  e.np_enabled[3] = true;
  n.ecn.value = e;
  PciFunction& p = s.pci("0000:3b:00.0");
  NvConfig c;
  c.params.push_back(NvParam{"ROCE_CC_PRIO_MASK_P1", std::nullopt, std::nullopt, "255", std::nullopt, false, 10});
  c.params.push_back(NvParam{"ROCE_CC_PRIO_MASK_P2", std::nullopt, std::nullopt, "16", std::nullopt, false, 11});
  p.nv_config.value = c;
  const Finding f = find(rules::evaluate(s, pol, {"qos.ecn-roce-priority"}), "qos.ecn-roce-priority", "enp59s0f0np1");
  EXPECT_EQ(f.outcome, Outcome::fail);
  EXPECT_NE(f.message.find("ROCE_CC_PRIO_MASK_P2=16"), std::string::npos) << f.message;
  // A two-port query and a name without np<N>: the port is not known, the rule says so.
  Snapshot t = s;
  t.netdevs[0].name = "ens6";
  const Finding u = find(rules::evaluate(t, pol, {"qos.ecn-roce-priority"}), "qos.ecn-roce-priority", "ens6");
  EXPECT_EQ(u.outcome, Outcome::unknown);
  EXPECT_NE(u.message.find("physical port of ens6"), std::string::npos) << u.message;
}

// One MTU value: the rule advises the policy's netdev MTU, the value plan and the boot unit set.
TEST(RoceRules, NetMtuFixIsThePolicyValueAsData) {
  Snapshot s;
  NetDev& n = s.netdev("ens6");
  n.mtu_bytes.value = 1500;
  Policy pol = default_policy();
  const Finding f = find(rules::evaluate(s, pol, {"net.mtu"}), "net.mtu", "ens6");
  EXPECT_EQ(f.outcome, Outcome::fail);
  EXPECT_EQ(f.remediation.commands.at(0), "ip link set dev ens6 mtu " + std::to_string(pol.netdev_mtu_min_bytes));
  EXPECT_EQ(f.remediation.action, "mtu");
  EXPECT_EQ(f.remediation.current, "1500");
  EXPECT_EQ(f.remediation.desired, std::to_string(pol.netdev_mtu_min_bytes));
  ASSERT_EQ(f.remediation.steps.size(), 1u);
  EXPECT_EQ(f.remediation.steps[0].tool, "ip");
  EXPECT_EQ(f.remediation.steps[0].check_argv, (std::vector<std::string>{"ip", "-o", "link", "show", "dev", "ens6"}));
  for (const std::string& c : f.remediation.commands) EXPECT_EQ(c.find("9000"), std::string::npos) << c;
}

TEST(HostRules, ChannelsAgainstNumaCores) {
  Snapshot s;
  NetDev& n = s.netdev("ens6");
  n.numa_node = 1;
  n.channels.value = ChannelState{32, 63, std::nullopt, std::nullopt};
  s.numa_cpu_count.value = std::map<int, int>{{0, 24}, {1, 24}};
  const Finding f = find(rules::evaluate(s, default_policy(), {"irq.channels-numa"}),
                          "irq.channels-numa", "ens6");
  EXPECT_EQ(f.outcome, Outcome::fail);
  EXPECT_EQ(f.remediation.commands.at(0), "ethtool -L ens6 combined 24");
  s.netdevs[0].channels.value->combined = 16;
  EXPECT_EQ(find(rules::evaluate(s, default_policy(), {"irq.channels-numa"}), "irq.channels-numa",
                 "ens6").outcome,
            Outcome::pass);
  s.numa_cpu_count = Collected<std::map<int, int>>::missing("not captured");
  EXPECT_EQ(find(rules::evaluate(s, default_policy(), {"irq.channels-numa"}), "irq.channels-numa",
                 "ens6").outcome,
            Outcome::unknown);
}

// A reset loads the stored image: with an invalid one (255.255.65535) neither fw.image-state nor
// fw.pending-config may advise mstfwreset before a re-burn.
TEST(FwRules, InvalidStoredImageIsNeverReset) {
  Snapshot s;
  PciFunction& p = s.pci("0000:3b:00.0");
  p.device_name = "MT2892 Family [ConnectX-6 Dx]";
  p.firmware.value = FirmwareImage{"22.39.1002", "255.255.65535", "MT_0000000359", std::nullopt, std::nullopt, std::nullopt};
  NvConfig c;
  c.has_current_column = true;
  c.params.push_back(NvParam{"LINK_TYPE_P1", std::nullopt, "ETH(2)", "IB(1)", std::nullopt, false, 7});
  p.nv_config.value = c;
  rules::Report r = rules::evaluate(s, default_policy(), {"fw"});
  const Finding img = find(r, "fw.image-state", "0000:3b:00.0");
  EXPECT_EQ(img.outcome, Outcome::fail);
  EXPECT_TRUE(img.remediation.commands.empty());
  EXPECT_EQ(img.remediation.checks, std::vector<std::string>{"mstflint -d 0000:3b:00.0 q"});
  EXPECT_NE(img.remediation.notes.find("only then reset"), std::string::npos) << img.remediation.notes;
  const Finding pending = find(r, "fw.pending-config", "0000:3b:00.0");
  EXPECT_EQ(pending.outcome, Outcome::fail);
  EXPECT_TRUE(pending.remediation.commands.empty()) << pending.remediation.commands.front();
  EXPECT_NE(pending.remediation.notes.find("Do not reset or reboot yet"), std::string::npos);
  // A valid stored image: the reset is the fix, the query its check.
  s.pci("0000:3b:00.0").firmware.value->stored_version = "22.39.1002";
  const Finding ok = find(rules::evaluate(s, default_policy(), {"fw.pending-config"}), "fw.pending-config", "0000:3b:00.0");
  EXPECT_EQ(ok.remediation.commands, std::vector<std::string>{"mstfwreset -d 0000:3b:00.0 -y reset"});
  EXPECT_EQ(ok.remediation.checks, std::vector<std::string>{"mstconfig -d 0000:3b:00.0 -e q"});
}

TEST(FwRules, AdaptiveRoutingIsReportOnlyUnlessThePolicyAsks) {
  Snapshot s;
  PciFunction& p = s.pci("0000:3b:00.0");
  NvConfig c;
  c.params.push_back(NvParam{"ROCE_ADAPTIVE_ROUTING_EN", std::nullopt, std::nullopt, "False(0)",
                             std::nullopt, false, 7});
  p.nv_config.value = c;
  Policy pol = default_policy();
  EXPECT_EQ(find(rules::evaluate(s, pol, {"fw.adaptive-routing"}), "fw.adaptive-routing",
                 "0000:3b:00.0").outcome,
            Outcome::pass);
  pol.adaptive_routing = true;
  const Finding f = find(rules::evaluate(s, pol, {"fw.adaptive-routing"}), "fw.adaptive-routing",
                          "0000:3b:00.0");
  EXPECT_EQ(f.outcome, Outcome::fail);
  EXPECT_EQ(f.remediation.commands.at(0),
            "mstconfig -y -d 0000:3b:00.0 set ROCE_ADAPTIVE_ROUTING_EN=1");
}

TEST(QosRules, NetdevNamesAreQuotedInFixes) {
  Snapshot s;
  NetDev& n = s.netdev("eth0;reboot");
  QosState q;
  q.trust = Trust::pcp;
  n.qos.value = q;
  const Finding f = find(rules::evaluate(s, default_policy(), {"qos.trust-dscp"}),
                          "qos.trust-dscp", "eth0;reboot");
  EXPECT_EQ(f.remediation.commands.at(0), "mlnx_qos -i 'eth0;reboot' --trust dscp");
  // The dcb form of the same fix: DSCP APP entries (no `dcb apptrust`), read back as JSON.
  EXPECT_EQ(f.remediation.alternative_tool, "dcb");
  EXPECT_TRUE(f.remediation.alternative.at(0).starts_with("dcb app replace dev 'eth0;reboot' dscp-prio 0:0 1:0"));
  ASSERT_EQ(f.remediation.steps.size(), 2u);
  EXPECT_EQ(f.remediation.steps[1].tool, "dcb");
  EXPECT_EQ(f.remediation.steps[1].needs, "iproute2 >= 5.12 (dcb app, dcb -N)");
}

TEST(Rules, DisabledRuleIsSkippedAndSeverityRegraded) {
  Policy pol = default_policy();
  pol.rules["roce.cm-default-v2"].severity = Severity::critical;
  rules::Report r = rules::evaluate(one_port("IB/RoCE v1"), pol, {"roce"});
  EXPECT_EQ(find(r, "roce.cm-default-v2", "mlx5_0/1").severity, Severity::critical);
  EXPECT_TRUE(r.has_failure_at_or_above(Severity::critical));
  pol.rules["roce.cm-default-v2"].enabled = false;
  rules::Report r2 = rules::evaluate(one_port("IB/RoCE v1"), pol, {"roce"});
  for (const Finding& f : r2.findings) EXPECT_NE(f.rule, "roce.cm-default-v2");
}

}  // namespace
}  // namespace rk

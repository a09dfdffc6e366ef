// rk_plan: planner on real bundles (testdata/hosts) and hand-built hostile snapshots.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "golden.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/plan/plan.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::plan {
namespace {

Snapshot bundle(const std::string& name) {
  Result<Snapshot> s = load_input(rk::test::testdata_dir() / "hosts" / name);
  EXPECT_TRUE(s.has_value()) << name;
  return s ? *s : Snapshot{};
}

using Words = std::vector<std::string>;

TEST(PlanBundles, RoceServerTrustPcpPfcOffUsesMlnxQos) {
  Plan p = make_plan(bundle("roce-server-8dev-trust-pcp-pfc-off"), default_policy());
  EXPECT_EQ(p.qos_backend, QosBackend::mlnx_qos);
  ASSERT_EQ(p.actions.size(), 4u);
  EXPECT_EQ(p.actions[0].kind, ActionKind::trust);
  EXPECT_EQ(p.actions[0].current, "pcp");
  EXPECT_EQ(p.actions[0].argv, (Words{"mlnx_qos", "-i", "ens6", "--trust", "dscp"}));
  EXPECT_EQ(p.actions[1].argv, (Words{"mlnx_qos", "-i", "ens6", "--dscp2prio", "set,26,3"}));
  EXPECT_EQ(p.actions[2].argv, (Words{"mlnx_qos", "-i", "ens6", "--dscp2prio", "set,48,6"}));
  EXPECT_EQ(p.actions[3].rule, "qos.pfc-roce-priority");
  EXPECT_EQ(p.actions[3].current, "0,0,0,0,0,0,0,0");
  EXPECT_EQ(p.actions[3].argv, (Words{"mlnx_qos", "-i", "ens6", "--pfc", "0,0,0,1,0,0,0,0"}));
  EXPECT_EQ(p.actions[3].check_argv, (Words{"mlnx_qos", "-i", "ens6"}));
  // ib0 (mlx5_5, link layer InfiniBand) has no DCB QoS or RoCE ECN: nothing planned or listed
  // as not planned for it, while the Ethernet ports without mlnx_qos output are listed.
  bool ens4f1 = false;
  for (const Unplanned& u : p.unplanned) {
    EXPECT_NE(u.subject, "ib0") << u.rule << ": " << u.reason;
    ens4f1 |= u.subject == "ens4f1" && u.rule == "qos.trust-dscp";
  }
  EXPECT_TRUE(ens4f1);
  for (const Action& a : p.actions) EXPECT_NE(a.subject, "ib0");
}

TEST(PlanBundles, DellCx4LxMaxReadReq512ToMaskedSetpci) {
  Plan p = make_plan(bundle("homelab-host01-cx4lx-dell-fw14.14"), default_policy());
  ASSERT_EQ(p.actions.size(), 1u);
  const Action& a = p.actions[0];
  EXPECT_EQ(a.subject, "0000:01:00.0");
  EXPECT_EQ(a.current, "512");
  EXPECT_EQ(a.desired, "4096");
  // Mask 7000: only DevCtl bits 14:12 (MaxReadReq); setpci prints "%04x", lower case.
  EXPECT_EQ(a.argv, (Words{"setpci", "-s", "0000:01:00.0", "CAP_EXP+08.w=5000:7000"}));
  EXPECT_EQ(a.check_argv, (Words{"setpci", "-s", "0000:01:00.0", "CAP_EXP+08.w"}));
  EXPECT_EQ(a.check_regex, (Words{"^[5d][0-9a-f]{3}$"}));
  EXPECT_EQ(a.undo_argv, (Words{"setpci", "-s", "0000:01:00.0", "CAP_EXP+08.w=2000:7000"}));
}

TEST(PlanBundles, Cx4LxFw1432AdaptiveRxOff) {
  Plan p = make_plan(bundle("homelab-host01-cx4lx-fw14.32"), default_policy());
  ASSERT_EQ(p.actions.size(), 1u);  // CNP firmware already 48/6 on both ports: no NV action
  EXPECT_EQ(p.actions[0].rule, "irq.coalescing");
  EXPECT_EQ(p.actions[0].current, "adaptive-rx on");
  EXPECT_EQ(p.actions[0].argv, (Words{"ethtool", "-C", "enp1s0f0np0", "adaptive-rx", "off"}));
}

TEST(PlanBundles, AerialMtu1536And1514) {
  Plan p = make_plan(bundle("aerial-21-4-a100-cx6dx"), default_policy());
  ASSERT_EQ(p.actions.size(), 2u);
  EXPECT_EQ(p.actions[0].current, "1536");
  EXPECT_EQ(p.actions[0].argv, (Words{"ip", "link", "set", "dev", "ens6f0", "mtu", "4200"}));
  EXPECT_EQ(p.actions[1].current, "1514");
  EXPECT_EQ(p.actions[1].subject, "ens6f1");
}

NetDev qos_dev(const std::string& name, const std::string& trust, std::vector<bool> pfc) {
  NetDev n;
  n.name = name;
  n.rdma_device = "mlx5_0";
  QosState q;
  q.trust = trust_from_string(trust);
  q.pfc_enabled = std::move(pfc);
  for (int d = 0; d < 64; ++d) q.dscp_to_priority[d] = d >> 3;
  n.qos.value = q;
  n.mtu_bytes.value = 9000;
  return n;
}

TEST(PlanHand, MatchingHostGivesAnEmptyPlan) {
  Snapshot s;
  s.netdevs.push_back(qos_dev("eth2", "dscp", {false, false, false, true, false, false, false, false}));
  Plan p = make_plan(s, default_policy());
  EXPECT_TRUE(p.actions.empty());
  EXPECT_TRUE(p.unplanned.empty() || p.unplanned[0].rule == "qos.ecn-roce-priority");
  EXPECT_NE(render_sh(p).find("nothing to do"), std::string::npos);
}

TEST(PlanHand, UpstreamDcbWhenNoMlnxQosSeen) {
  Snapshot s;
  s.netdevs.push_back(qos_dev("eth2", "pcp", {false, false, false, false, true, false, false, false}));
  Plan p = make_plan(s, default_policy());
  EXPECT_EQ(p.qos_backend, QosBackend::dcb);
  ASSERT_EQ(p.actions.size(), 2u);
  // mlx5 has no dcbnl_setapptrust and iproute2 6.1 no `dcb apptrust`: trust dscp = DSCP APP
  // entries (the default map DSCP >> 3), read back as JSON; undo (pcp) flushes them.
  Words trust{"dcb", "app", "replace", "dev", "eth2", "dscp-prio"};
  for (int d = 0; d < 64; ++d) trust.push_back(std::to_string(d) + ":" + std::to_string(d >> 3));
  EXPECT_EQ(p.actions[0].argv, trust);
  EXPECT_EQ(p.actions[0].check_argv, (Words{"dcb", "-j", "app", "show", "dev", "eth2", "dscp-prio"}));
  EXPECT_EQ(p.actions[0].check_regex, (Words{"\"dscp_prio\":\\[\\["}));
  EXPECT_EQ(p.actions[0].undo_argv, (Words{"dcb", "app", "flush", "dev", "eth2", "dscp-prio"}));
  EXPECT_EQ(p.actions[0].undo_check_regex, (Words{"^\\{\\}$"}));
  EXPECT_EQ(p.actions[1].rule, "qos.pfc-roce-priority");
  EXPECT_EQ(p.actions[1].argv, (Words{"dcb", "pfc", "set", "dev", "eth2", "prio-pfc", "0:off", "1:off",
                                      "2:off", "3:on", "4:off", "5:off", "6:off", "7:off"}));
  EXPECT_EQ(p.actions[1].check_argv, (Words{"dcb", "-N", "pfc", "show", "dev", "eth2", "prio-pfc"}));
  for (const Action& a : p.actions)
    for (const std::string& w : a.argv) EXPECT_NE(w, "apptrust");
  // No iproute2 version known (a snapshot): the plan says which release the dcb forms need.
  ASSERT_FALSE(p.warnings.empty());
  EXPECT_NE(p.warnings.back().find("iproute2 version not known"), std::string::npos);
  EXPECT_NE(p.warnings.back().find(">= 5.12"), std::string::npos);
}

TEST(PlanHand, DcbFormsFollowTheIproute2Version) {
  Snapshot s;
  s.netdevs.push_back(qos_dev("eth2", "pcp", {false, false, false, false, true, false, false, false}));
  PlanOptions new_ip;
  new_ip.iproute2 = IprouteVersion{6, 1};
  Plan p = make_plan(s, default_policy(), new_ip);
  EXPECT_EQ(p.actions.size(), 2u);
  EXPECT_TRUE(p.warnings.empty());
  PlanOptions old_ip;
  old_ip.iproute2 = IprouteVersion{5, 10};  // Debian 11: no `dcb app`, no -N
  Plan q = make_plan(s, default_policy(), old_ip);
  EXPECT_TRUE(q.actions.empty());
  int refused = 0;
  for (const Unplanned& u : q.unplanned)
    if (u.reason.starts_with("iproute2 5.10 has no `dcb app`")) ++refused;
  EXPECT_EQ(refused, 2);
  EXPECT_EQ(parse_iproute2_version("ip utility, iproute2-6.1.0, libbpf 1.1.2\n"), (IprouteVersion{6, 1}));
  EXPECT_EQ(parse_iproute2_version("dcb utility, iproute2-5.12.0"), (IprouteVersion{5, 12}));
  EXPECT_EQ(parse_iproute2_version("ip utility, iproute2-ss200127"), (IprouteVersion{5, 7}));
  EXPECT_FALSE(parse_iproute2_version("ip: command not found"));
}

TEST(PlanHand, HostileNamesAreQuotedOrRejected) {
  Snapshot s;
  s.netdevs.push_back(qos_dev("eth$(touch_x)", "pcp", {false, false, false, true, false, false, false, false}));
  s.netdevs.push_back(qos_dev("eth'q", "pcp", {false, false, false, true, false, false, false, false}));
  s.netdevs.push_back(qos_dev("eth 1;reboot", "pcp", {false, false, false, true, false, false, false, false}));
  s.netdevs.push_back(qos_dev("../../x", "pcp", {false, false, false, true, false, false, false, false}));
  PciFunction f;
  f.bdf = "0000:01:00.0;reboot";
  f.max_read_request_bytes.value = 512;
  s.pci_functions.push_back(f);
  Plan p = make_plan(s, default_policy());
  ASSERT_EQ(p.actions.size(), 2u);
  std::string sh = render_sh(p);
  EXPECT_NE(sh.find("run dcb app replace dev 'eth$(touch_x)' dscp-prio 0:0 1:0"), std::string::npos) << sh;
  EXPECT_EQ(sh.find("\"eth$(touch_x)\""), std::string::npos);
  EXPECT_NE(sh.find("'eth'\\''q'"), std::string::npos);
  int rejected = 0;
  for (const Unplanned& u : p.unplanned)
    if (u.reason.starts_with("rejected")) ++rejected;
  EXPECT_EQ(rejected, 3);  // "eth 1;reboot", "../../x", the junk BDF
  EXPECT_EQ(sh.find("\n0000:01:00.0;reboot"), std::string::npos);
}

TEST(PlanHand, AnsibleNeverTemplatesNamesFromTheHost) {
  Snapshot s;
  s.netdevs.push_back(qos_dev("e{{x}}", "pcp", {false, false, false, true, false, false, false, false}));
  Plan p = make_plan(s, default_policy());
  ASSERT_EQ(p.actions.size(), 1u);
  std::string yml = render_ansible(p);
  EXPECT_NE(yml.find("argv: [!unsafe \"dcb\", !unsafe \"app\", !unsafe \"replace\", !unsafe \"dev\", "
                     "!unsafe \"e{{x}}\", !unsafe \"dscp-prio\", !unsafe \"0:0\""),
            std::string::npos)
      << yml;
  // Every line that carries the name is a comment or tags its strings !unsafe.
  std::size_t raw = 0;
  std::istringstream lines(yml);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("e{{x}}") == std::string::npos) continue;
    ++raw;
    EXPECT_TRUE(line.starts_with("#") || line.find("!unsafe \"") != std::string::npos) << line;
  }
  EXPECT_GT(raw, 0u);
  EXPECT_NE(yml.find("rk_res: [!unsafe \"\\\"dscp_prio\\\":\\\\[\\\\[\"]"), std::string::npos) << yml;
}

// A play for a host whose input has no hostname is named after the input, not "rocekit plan for ".
TEST(PlanHand, AnsiblePlayOfAnInputWithoutHostnameIsNamedAfterTheInput) {
  Snapshot s;
  s.source = {SourceKind::capture_dir, "/srv/captures/node-17/"};
  s.netdevs.push_back(qos_dev("eth4", "pcp", {false, false, false, true, false, false, false, false}));
  Plan p = make_plan(s, default_policy());
  ASSERT_EQ(p.actions.size(), 1u);
  std::string yml = render_ansible(p);
  EXPECT_NE(yml.find("\n- name: !unsafe \"rocekit plan for node-17 (no hostname in the input)\"\n"), std::string::npos) << yml;
  EXPECT_NE(yml.find("# host: node-17 (no hostname in the input)  policy: default"), std::string::npos) << yml;
  s.hostname = "node-17.example";
  yml = render_ansible(make_plan(s, default_policy()));
  EXPECT_NE(yml.find("\n- name: !unsafe \"rocekit plan for node-17.example\"\n"), std::string::npos) << yml;
}

TEST(PlanHand, PolicyValueWithShellSyntaxIsRejectedByTheLoader) {
  Result<Policy> p = load_policy_text("roce:\n  trust: \"dscp; reboot\"\n", "p.yaml", {});
  ASSERT_FALSE(p.has_value());
  EXPECT_NE(p.error().message.find("roce.trust must be dscp or pcp"), std::string::npos);
  Result<Policy> q = load_policy_text("roce:\n  priority: \"3; reboot\"\n", "p.yaml", {});
  EXPECT_FALSE(q.has_value());
}

TEST(PlanHand, FirmwareOncePerPhysicalDeviceWithWarning) {
  Snapshot s;
  for (std::string fn : {"0000:3b:00.0", "0000:3b:00.1"}) {
    PciFunction& f = s.pci(fn);
    NvConfig nv;
    nv.params.push_back(NvParam{"CNP_DSCP_P1", "4", "4", "4", std::nullopt, false, 1});
    nv.params.push_back(NvParam{"CNP_802P_PRIO_P1", "6", "6", "6", std::nullopt, false, 2});
    f.nv_config.value = nv;
    f.nv_config.source.file = "mstconfig_q@" + fn + ".txt";
  }
  Plan p = make_plan(s, default_policy());
  ASSERT_EQ(p.actions.size(), 1u);
  EXPECT_EQ(p.actions[0].subject, "0000:3b:00");
  EXPECT_EQ(p.actions[0].scope, FixScope::firmware_reboot);
  EXPECT_EQ(p.actions[0].argv, (Words{"mstconfig", "-y", "-d", "0000:3b:00.0", "set", "CNP_DSCP_P1=48"}));
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("0000:3b:00.0, 0000:3b:00.1"), std::string::npos);
}

TEST(PlanNvNames, PortSuffixRule) {
  EXPECT_TRUE(validate_nv_param("CNP_DSCP_P1"));
  EXPECT_TRUE(validate_nv_param("ROCE_CC_PRIO_MASK_P2"));
  EXPECT_TRUE(validate_nv_param("ROCE_ADAPTIVE_ROUTING_EN"));
  EXPECT_FALSE(validate_nv_param("CNP_DSCP"));
  EXPECT_FALSE(validate_nv_param("CNP_DSCP_P0"));
  EXPECT_FALSE(validate_nv_param("ROCE_ADAPTIVE_ROUTING_EN_P1"));
  EXPECT_FALSE(validate_nv_param("PCIE_MAX_READ_REQ"));
}

TEST(PlanQuote, OneQuotingFunction) {
  // rk::text::shell_quote: plain words stay as they are, anything else is single-quoted.
  EXPECT_EQ(shell_quote("eth0"), "eth0");
  EXPECT_EQ(shell_quote("CAP_EXP+08.w=5000:7000"), "CAP_EXP+08.w=5000:7000");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("$(reboot)"), "'$(reboot)'");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("x\ny"), "'x\ny'");
  EXPECT_EQ(shell_quote("*"), "'*'");
}

TEST(PlanHand, OptionLikeNamesAreRefused) {
  EXPECT_FALSE(valid_netdev_name("-rf"));
  EXPECT_FALSE(valid_netdev_name("--trust"));
  EXPECT_FALSE(valid_netdev_name("eth0:1"));
  EXPECT_TRUE(valid_netdev_name("enp1s0f0np0"));
  Snapshot s;
  s.netdevs.push_back(qos_dev("-rf", "pcp", {false, false, false, false, false, false, false, false}));
  s.netdevs.back().mtu_bytes.value = 1500;
  Plan p = make_plan(s, default_policy());
  EXPECT_TRUE(p.actions.empty());
  bool refused = false;
  for (const Unplanned& u : p.unplanned) {
    refused |= u.subject == "-rf" && u.reason.starts_with("rejected netdev name");
    EXPECT_TRUE(u.subject == "-rf" || u.subject == "host") << u.subject;
  }
  EXPECT_TRUE(refused);
  EXPECT_EQ(render_sh(p).find("\nrun "), std::string::npos);
}

TEST(PlanHand, PolicyMinimumsNeverLowerALargerValue) {
  Snapshot s;
  s.netdevs.push_back(qos_dev("eth2", "dscp", {false, false, false, true, false, false, false, false}));
  PciFunction& f = s.pci("0000:3b:00.0");
  f.vendor_id = 0x15b3;
  f.max_read_request_bytes.value = 4096;
  Policy pol = default_policy();
  pol.max_read_request_bytes = 512;
  Plan p = make_plan(s, pol);
  for (const Action& a : p.actions) EXPECT_NE(a.kind, ActionKind::max_read_request) << a.desired;
  for (const Action& a : p.actions) EXPECT_NE(a.kind, ActionKind::mtu) << a.desired;
  // Boot mode re-applies what is there: 9000 and 4096 stay, the policy's 4200 / 512 are minimums.
  PlanOptions boot;
  boot.all_runtime = true;
  Plan b = make_plan(s, pol, boot);
  int seen = 0;
  for (const Action& a : b.actions) {
    if (a.kind == ActionKind::mtu) {
      EXPECT_EQ(a.argv, (Words{"ip", "link", "set", "dev", "eth2", "mtu", "9000"}));
      ++seen;
    }
    if (a.kind == ActionKind::max_read_request) {
      EXPECT_EQ(a.desired, "4096");
      ++seen;
    }
  }
  EXPECT_EQ(seen, 2);
}

TEST(PlanHand, NoSetpciOnVirtualFunctions) {
  Snapshot s;
  PciFunction& vf = s.pci("0000:b1:00.2");
  vf.vendor_id = 0x15b3;
  vf.is_vf = true;
  vf.max_read_request_bytes.value = 128;
  PciFunction& other = s.pci("0000:02:00.0");
  other.vendor_id = 0x8086;  // not a ConnectX: not rocekit's to change
  other.max_read_request_bytes.value = 128;
  Plan p = make_plan(s, default_policy());
  for (const Action& a : p.actions) EXPECT_NE(a.kind, ActionKind::max_read_request) << a.subject;
}

TEST(PlanBundles, VfCaptureGetsNoSetpciStep) {
  Plan p = make_plan(bundle("cx7-vf-lspci-not-applicable"), default_policy());
  for (const Action& a : p.actions) EXPECT_NE(a.kind, ActionKind::max_read_request) << a.subject;
}

TEST(PlanHand, GlobalPauseOnBecomesAnEthtoolStep) {
  Snapshot s;
  s.netdevs.push_back(qos_dev("eth2", "dscp", {false, false, false, true, false, false, false, false}));
  PauseState ps;
  ps.autoneg = false;
  ps.rx = true;
  ps.tx = true;
  s.netdevs.back().pause.value = ps;
  Plan p = make_plan(s, default_policy());
  ASSERT_EQ(p.actions.size(), 1u);
  EXPECT_EQ(p.actions[0].rule, "qos.global-pause-off");
  EXPECT_EQ(p.actions[0].argv, (Words{"ethtool", "-A", "eth2", "autoneg", "off", "rx", "off", "tx", "off"}));
  EXPECT_EQ(p.actions[0].check_argv, (Words{"ethtool", "-a", "eth2"}));
  EXPECT_EQ(p.actions[0].undo_argv, (Words{"ethtool", "-A", "eth2", "autoneg", "off", "rx", "on", "tx", "on"}));
}

// Every failing rule of check is an action or a "not planned" line, and the plan's argv is one of
// the steps check advises (rk::fix builds both).
TEST(PlanBundles, EveryFailingRuleIsPlannedOrSaysWhyNot) {
  for (const char* name : {"roce-server-8dev-trust-pcp-pfc-off", "homelab-host01-cx4lx-dell-fw14.14",
                           "homelab-host01-cx4lx-fw14.32", "aerial-21-4-a100-cx6dx",
                           "cx7-vf-lspci-not-applicable"}) {
    Snapshot s = bundle(name);
    Plan p = make_plan(s, default_policy());
    rules::Report r = rules::evaluate(s, default_policy());
    for (const Finding& f : r.findings) {
      if (f.outcome != Outcome::fail) continue;
      bool acted = false, listed = false;
      for (const Action& a : p.actions)
        if (a.rule == f.rule && a.subject == f.subject) {
          acted = true;
          bool same = false;
          for (const FixStep& st : f.remediation.steps) same |= st.argv == a.argv;
          if (a.kind != ActionKind::coalesce && a.kind != ActionKind::nv_config) {
            EXPECT_TRUE(same) << name << " " << f.rule << " " << f.subject << ": plan argv not in check's fix";
          }
        }
      for (const Unplanned& u : p.unplanned) listed |= u.rule == f.rule && u.subject == f.subject;
      // One PFC step fixes both PFC rules; the netdev MTU step fixes roce.active-mtu.
      bool pfc_pair = f.rule.starts_with("qos.pfc-") || f.rule == "roce.active-mtu";
      bool nv = std::any_of(p.actions.begin(), p.actions.end(),
                            [&](const Action& a) { return a.kind == ActionKind::nv_config && f.subject.starts_with(a.subject); });
      EXPECT_TRUE(acted || listed || pfc_pair || nv) << name << ": " << f.rule << " " << f.subject << " silently dropped";
    }
  }
}

}  // namespace
}  // namespace rk::plan

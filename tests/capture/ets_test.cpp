// The ETS and PFC-headroom rules on real mlnx_qos outputs (testdata/corpus/mlnx_qos, sources in
// testdata/corpus/LOG.md): a ConnectX-7 host with RoCE on strict priority 5 and 30 m cables
// (3FS troubleshooting notes), the MLNX_OFED 4.2 mlnx_qos documentation example (TC6 strict),
// and a ConnectX-5 whose ETS came from an Onyx switch by DCBX (TC6 vendor, unmapped classes
// not printed).
#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

Snapshot from_corpus(const std::string& name, const std::string& rel) {
  CaptureSet set;
  set.files.push_back({name, test::read_file(test::testdata_dir() / "corpus" / "mlnx_qos" / rel), ""});
  return snapshot_from_capture(set);
}

const Finding& finding(const rules::Report& r, const std::string& rule) {
  for (const Finding& f : r.findings)
    if (f.rule == rule) return f;
  throw std::runtime_error("no finding of " + rule);
}

Policy prio5(int cnp_priority) {
  Policy p = default_policy();
  p.roce_priority = 5;
  p.roce_dscp = 40;
  p.pfc_priorities = p.ecn_priorities = {5};
  p.cnp_priority = cnp_priority;
  p.cable_length_m = 30;
  return p;
}

TEST(EtsRules, ThreeFsHostRoceStrictAndHeadroomFor30m) {
  Snapshot s = from_corpus("mlnx_qos@ens4np0.txt", "feishu-3fs-ens4np0-ets-prio5-strict.txt");
  ASSERT_EQ(s.netdevs.size(), 1u);
  const QosState& q = *s.netdevs[0].qos;
  ASSERT_EQ(q.tc_schedule.size(), 8u);
  EXPECT_EQ(q.tc_schedule[2].tsa, "ets");
  EXPECT_EQ(q.tc_schedule[2].bandwidth_percent, 80);
  EXPECT_EQ(q.tc_schedule[2].source.line, 27u);  // "tc: 2 ..." is line 27 of the file
  EXPECT_EQ(q.tc_schedule[5].tsa, "strict");
  EXPECT_EQ(q.cable_length_m, 30);
  ASSERT_TRUE(q.receive_buffer_bytes.has_value());
  EXPECT_EQ((*q.receive_buffer_bytes)[1], 220896u);

  rules::Report r = rules::evaluate(s, prio5(6), {"qos"});
  EXPECT_EQ(finding(r, "qos.ets-roce-share").outcome, Outcome::pass);
  EXPECT_EQ(finding(r, "qos.ets-roce-share").message, "RoCE priority 5 -> traffic class 5: strict priority");
  EXPECT_EQ(finding(r, "qos.ets-cnp-strict").outcome, Outcome::pass);
  // Speed and MTU are not in this capture: the buffer covers the driver's 40 Gb/s floor at MTU
  // 1500, (301 + 216 * 30 / 100) * 40 + 2.72 * 1500 + 1500 = 20180 B, but not 800 Gb/s at MTU
  // 9978, (301 + 64) * 800 + 27140 + 9978 = 329118 B: not judged, never a pass on a guess.
  const Finding& h = finding(r, "qos.pfc-headroom");
  EXPECT_EQ(h.outcome, Outcome::unknown) << h.message;
  EXPECT_NE(h.message.find("the link speed and MTU (priority 5 on receive buffer 1 of 220896 B covers 30 m, 40 Gb/s, "
                           "MTU 1500, 20180 B, but not 30 m, 800 Gb/s, MTU 9978, 329118 B)"),
            std::string::npos) << h.message;
  EXPECT_NE(h.message.find("read: cable length 30 m (policy 30 m)"), std::string::npos) << h.message;
}

TEST(EtsRules, CnpInAWeightedClassFailsWithARebalancedFix) {
  // The same host judged with CNPs on priority 2 (TC2, ETS 80%): the fix makes TC2 strict and
  // shares its 80% among TC0/TC1/TC3 in their 9:1:10 proportion.
  Snapshot s = from_corpus("mlnx_qos@ens4np0.txt", "feishu-3fs-ens4np0-ets-prio5-strict.txt");
  rules::Report r = rules::evaluate(s, prio5(2), {"qos.ets-cnp-strict"});
  const Finding& f = finding(r, "qos.ets-cnp-strict");
  ASSERT_EQ(f.outcome, Outcome::fail);
  EXPECT_EQ(f.message.substr(0, 56), "CNP priority 2 -> traffic class 2: ETS 80%: CNPs wait th");
  ASSERT_FALSE(f.evidence.empty());
  EXPECT_EQ(f.evidence[0].line, 27u);
  ASSERT_FALSE(f.remediation.commands.empty());
  EXPECT_EQ(f.remediation.commands[0],
            "mlnx_qos -i ens4np0 --tsa ets,ets,strict,ets,strict,strict,strict,strict --tcbw 45,5,0,50,0,0,0,0");
  ASSERT_FALSE(f.remediation.alternative.empty());
  EXPECT_EQ(f.remediation.alternative[0],
            "dcb ets set dev ens4np0 tc-tsa 0:ets 1:ets 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict "
            "tc-bw 0:45 1:5 2:0 3:50 4:0 5:0 6:0 7:0");
}

TEST(EtsRules, ShorterNicCableThanThePolicyFailsWithCableLenFix) {
  Snapshot s = from_corpus("mlnx_qos@ens4np0.txt", "feishu-3fs-ens4np0-ets-prio5-strict.txt");
  Policy p = prio5(6);
  p.cable_length_m = 100;
  rules::Report r = rules::evaluate(s, p, {"qos.pfc-headroom"});
  const Finding& f = finding(r, "qos.pfc-headroom");
  ASSERT_EQ(f.outcome, Outcome::fail);
  EXPECT_EQ(f.message.rfind("cable length 30 m, policy 100 m: the driver sizes the lossless headroom for 30 m", 0), 0u) << f.message;
  ASSERT_FALSE(f.remediation.commands.empty());
  EXPECT_EQ(f.remediation.commands[0], "mlnx_qos -i ens4np0 --cable_len 100");
  EXPECT_EQ(f.remediation.alternative.at(0), "dcb pfc set dev ens4np0 delay 100");
}

TEST(EtsRules, DocumentationExampleDefaultPolicy) {
  Snapshot s = from_corpus("mlnx_qos@eth2.txt", "mlnx-community-doc2792-eth2-ets-flattened.txt");
  rules::Report r = rules::evaluate(s, default_policy(), {"qos"});
  EXPECT_EQ(finding(r, "qos.ets-roce-share").message, "RoCE priority 3 -> traffic class 3: ETS 10%");
  EXPECT_EQ(finding(r, "qos.ets-cnp-strict").message, "CNP priority 6 -> traffic class 6: strict priority");
  // PFC is on 0, 2, 6, 7 there, not on 3.
  EXPECT_EQ(finding(r, "qos.pfc-headroom").outcome, Outcome::not_applicable);
}

TEST(EtsRules, DcbxNegotiatedVendorCnpClassPassesAndUnprintedClassesGiveNoCommand) {
  Snapshot s = from_corpus("mlnx_qos@mce0.txt", "cn-blog-sn2700-mce0-ets-dcbx-fw.txt");
  const QosState& q = *s.netdevs.at(0).qos;
  EXPECT_EQ(q.tc_schedule.size(), 3u);  // only TC0, TC3, TC6 have priorities mapped
  ASSERT_TRUE(q.priority_to_tc.has_value());
  EXPECT_EQ(*q.priority_to_tc, (std::vector<int>{0, 0, 0, 3, 0, 0, 6, 0}));
  rules::Report r = rules::evaluate(s, default_policy(), {"qos"});
  EXPECT_EQ(finding(r, "qos.ets-roce-share").message, "RoCE priority 3 -> traffic class 3: ETS 50%");
  EXPECT_EQ(finding(r, "qos.ets-cnp-strict").outcome, Outcome::pass);
  EXPECT_EQ(finding(r, "qos.ets-cnp-strict").message,
            "CNP priority 6 -> traffic class 6: tsa vendor (the mlx5 default: no ETS share configured)");
}

}  // namespace
}  // namespace rk::capture

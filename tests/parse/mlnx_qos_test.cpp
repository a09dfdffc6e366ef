#include "rocekit/parse/mlnx_qos.hpp"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json qos_json(std::string_view body) {
  auto r = parse_mlnx_qos(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

bool has_warning(const std::vector<Warning>& ws, std::string_view code) {
  for (const Warning& w : ws) {
    if (w.code == code) return true;
  }
  return false;
}

TEST(MlnxQosGolden, Corpus) {
  for (const char* path : {
           "mlnx_qos/cn-blog-sn2410-eth4-dscp-truncated.txt",
           "mlnx_qos/cn-notes-client-ens14f0-pcp-pfc-off.txt",
           "mlnx_qos/cn-notes-ens14f0-dscp-default.txt",
           "mlnx_qos/cn-notes-ens14f0-trust-pcp.txt",
           "mlnx_qos/cn-notes-ens6-dscp-but-pfc-off.txt",
           "mlnx_qos/cn-notes-ens6-pcp-pfc-off-default.txt",
           "mlnx_qos/netarbiter-eth4-dscp-pfc3.txt",
           "../hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt",
           "../hosts/roce-server-8dev-trust-pcp-pfc-off/mlnx_qos@ens6.txt",
           "../hosts/sn2410-host-eth4-qos-truncated/mlnx_qos@eth4.txt",
       }) {
    rk::test::check_golden(path, qos_json);
  }
}

TEST(MlnxQos, NetarbiterDscpPfc3) {
  auto r = parse_mlnx_qos(rk::test::corpus_body("mlnx_qos/netarbiter-eth4-dscp-pfc3.txt"));
  ASSERT_TRUE(r);
  const MlnxQos& q = r->value;
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(q.dcbx_mode, DcbxMode::os_controlled);
  EXPECT_EQ(q.trust, QosTrust::dscp);
  ASSERT_TRUE(q.pfc_enabled);
  for (std::size_t p = 0; p < 8; ++p) EXPECT_EQ((*q.pfc_enabled)[p], p == 3) << p;
  EXPECT_EQ(priority_for_dscp(q, 26), 3u);
  EXPECT_EQ(priority_for_dscp(q, 48), 6u);
  EXPECT_EQ(q.dscp_to_priority.size(), 64u);
  EXPECT_FALSE(q.receive_buffer_size_bytes);  // older format: no buffer rows
  EXPECT_FALSE(q.priority_to_buffer);
  EXPECT_EQ(q.cable_length_m, 7u);
  ASSERT_EQ(q.traffic_classes.size(), 8u);
  EXPECT_EQ(q.traffic_classes[0].tc, 0u);
  EXPECT_EQ(q.traffic_classes[0].priorities, std::vector<std::uint32_t>{1});
  EXPECT_EQ(q.traffic_classes[1].priorities, std::vector<std::uint32_t>{0});
  EXPECT_EQ(q.traffic_classes[3].tsa, Tsa::vendor);
  EXPECT_TRUE(q.traffic_classes[3].ratelimit_unlimited);
}

TEST(MlnxQos, BuffersAndBufferRow) {
  auto r = parse_mlnx_qos(rk::test::corpus_body("mlnx_qos/cn-notes-ens14f0-dscp-default.txt"));
  ASSERT_TRUE(r);
  const MlnxQos& q = r->value;
  ASSERT_TRUE(q.receive_buffer_size_bytes);
  EXPECT_EQ(*q.receive_buffer_size_bytes,
            (std::vector<std::uint64_t>{80256, 80256, 896, 80256, 896, 896, 896, 896}));
  ASSERT_TRUE(q.priority_to_buffer);
  EXPECT_EQ((*q.priority_to_buffer)[3], 7u);
  EXPECT_EQ((*q.pfc_enabled)[3], true);
}

TEST(MlnxQos, TrustPcpHasNoDscpMap) {
  auto r = parse_mlnx_qos(rk::test::corpus_body("mlnx_qos/cn-notes-ens6-pcp-pfc-off-default.txt"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value.trust, QosTrust::pcp);
  EXPECT_FALSE(r->value.dscp2prio_shown);
  EXPECT_TRUE(r->value.dscp_to_priority.empty());
  ASSERT_TRUE(r->value.pfc_enabled);
  for (bool b : *r->value.pfc_enabled) EXPECT_FALSE(b);
  EXPECT_EQ((*r->value.receive_buffer_size_bytes)[0], 524160u);
}

TEST(MlnxQos, TruncatedHostCaptureKeepsMapAndLeavesPfcUnknown) {
  auto r = parse_mlnx_qos(
      rk::test::corpus_body("../hosts/sn2410-host-eth4-qos-truncated/mlnx_qos@eth4.txt"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value.trust, QosTrust::dscp);
  EXPECT_EQ(priority_for_dscp(r->value, 26), 3u);
  EXPECT_EQ(r->value.dscp_to_priority.size(), 64u);
  EXPECT_FALSE(r->value.pfc_enabled);
  EXPECT_TRUE(r->value.traffic_classes.empty());
  EXPECT_TRUE(has_warning(r->warnings, "truncated"));
}

TEST(MlnxQos, DscpListSplitOverTwoLines) {
  std::string t =
      "DCBX mode: Firmware controlled\n"
      "Priority trust state: dscp\n"
      "default priority: 0\n"
      "dscp2prio mapping:\n"
      "\tprio:0 dscp:07,06,05,04,03,02,01,00,\n"
      "\tprio:3 dscp:31,30,29,28,27,26,25,24,\n"
      "\t\t23,22,\n"
      "\tprio:6 dscp:48,\n"
      "Receive buffer size (bytes): 130944,130944,0,0,0,0,0,0,max_buffer_size=262016\n"
      "Cable len: 7\n"
      "PFC configuration:\n"
      "\tpriority    0   1   2   3   4   5   6   7\n"
      "\tenabled     0   0   0   1   0   0   0   0\n"
      "\tbuffer      0   0   0   1   0   0   0   0\n"
      "tc: 0 ratelimit: unlimited, tsa: ets, bw: 50%\n"
      "\t priority:  0  1  2\n"
      "tc: 3 ratelimit: 25.0 Gbps, tsa: ets, bw: 50%\n"
      "\t priority:  3\n"
      "tc: 6 ratelimit: unlimited, tsa: strict\n"
      "\t priority:  6\n";
  auto r = parse_mlnx_qos(t);
  ASSERT_TRUE(r);
  const MlnxQos& q = r->value;
  EXPECT_TRUE(r->warnings.empty()) << warnings_to_json(r->warnings).dump();
  EXPECT_EQ(q.dcbx_mode, DcbxMode::firmware_controlled);
  EXPECT_EQ(q.default_priority, 0u);
  EXPECT_EQ(priority_for_dscp(q, 22), 3u);
  EXPECT_EQ(priority_for_dscp(q, 23), 3u);
  EXPECT_EQ(priority_for_dscp(q, 26), 3u);
  EXPECT_EQ(priority_for_dscp(q, 48), 6u);
  EXPECT_EQ(priority_for_dscp(q, 40), std::nullopt);
  EXPECT_EQ(q.max_buffer_size_bytes, 262016u);
  EXPECT_EQ(q.receive_buffer_size_bytes->size(), 8u);
  ASSERT_EQ(q.traffic_classes.size(), 3u);
  EXPECT_EQ(q.traffic_classes[0].bandwidth_percent, 50u);
  EXPECT_EQ(q.traffic_classes[0].priorities, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(q.traffic_classes[1].ratelimit_gbps, 25.0);
  EXPECT_FALSE(q.traffic_classes[1].ratelimit_unlimited);
  EXPECT_EQ(q.traffic_classes[2].tsa, Tsa::strict);
  EXPECT_FALSE(q.traffic_classes[2].bandwidth_percent);
}

TEST(MlnxQos, EmptyAndForeignInputAreErrors) {
  EXPECT_FALSE(parse_mlnx_qos(""));
  EXPECT_FALSE(parse_mlnx_qos("\n\n"));
  EXPECT_FALSE(parse_mlnx_qos("hca_id: mlx5_0\n\ttransport: InfiniBand (0)\n"));
}

TEST(MlnxQos, GarbledLineWarnsWithLineNumber) {
  std::string body = rk::test::corpus_body("mlnx_qos/netarbiter-eth4-dscp-pfc3.txt");
  std::size_t pos = body.find("Cable len: 7\n");
  ASSERT_NE(pos, std::string::npos);
  body.insert(pos, "@@garbage@@\n");  // becomes line 12
  auto r = parse_mlnx_qos(body);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 12u);
  EXPECT_EQ(r->value.cable_length_m, 7u);
}

TEST(MlnxQos, CrlfLineEndings) {
  std::string body = rk::test::corpus_body("mlnx_qos/cn-notes-ens14f0-dscp-default.txt");
  std::string crlf;
  for (char c : body) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  auto a = parse_mlnx_qos(body);
  auto b = parse_mlnx_qos(crlf);
  ASSERT_TRUE(a);
  ASSERT_TRUE(b);
  EXPECT_EQ(to_json(a->value), to_json(b->value));
  EXPECT_TRUE(b->warnings.empty());
}

TEST(MlnxQos, TruncatedInsidePfcBlock) {
  auto r = parse_mlnx_qos(
      "Priority trust state: pcp\nPFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->value.pfc_enabled);
  EXPECT_TRUE(has_warning(r->warnings, "truncated"));
}

TEST(MlnxQos, LooksLike) {
  for (const char* path : {
           "mlnx_qos/cn-blog-sn2410-eth4-dscp-truncated.txt",
           "mlnx_qos/cn-notes-client-ens14f0-pcp-pfc-off.txt",
           "mlnx_qos/cn-notes-ens14f0-dscp-default.txt",
           "mlnx_qos/cn-notes-ens14f0-trust-pcp.txt",
           "mlnx_qos/cn-notes-ens6-dscp-but-pfc-off.txt",
           "mlnx_qos/cn-notes-ens6-pcp-pfc-off-default.txt",
           "mlnx_qos/netarbiter-eth4-dscp-pfc3.txt",
       }) {
    EXPECT_TRUE(looks_like_mlnx_qos(rk::test::corpus_body(path))) << path;
  }
  for (const char* path : {
           "misc/aerial-21-4-cubb-system-checks-a100-cx6dx.txt",
           "misc/cn-blog-2019-cma_roce_mode-default-v1.txt",
           "ethtool_S/ethq-fixture-mlx5-cx4lx-k4.15.txt",
           "ibv_devinfo/rdma-notes-cx6dx-rocep61s0f1-v.txt",
           "sysfs/cn-notes-tc1-traffic_class-after-set.txt",
       }) {
    EXPECT_FALSE(looks_like_mlnx_qos(rk::test::corpus_body(path))) << path;
  }
}

TEST(MlnxQos, NeverCrashesOnOddInput) {
  for (std::string_view s : {"tc:", "tc: ratelimit:", "dscp2prio mapping:\nprio: dscp:",
                             "dscp2prio mapping:\nprio:9 dscp:99,", "PFC configuration:\nenabled",
                             "Receive buffer size (bytes): ,,x,max_buffer_size=",
                             "dscp2prio mapping:\n1,2,3", "priority: 1"}) {
    auto r = parse_mlnx_qos(s);
    if (!r) continue;
    // Whatever is read stays inside the value ranges: DSCP 0..63 -> priority 0..7.
    for (const auto& [dscp, prio] : r->value.dscp_to_priority) {
      EXPECT_LT(dscp, 64u) << s;
      EXPECT_LT(prio, 8u) << s;
    }
  }
}

}  // namespace
}  // namespace rk::parse

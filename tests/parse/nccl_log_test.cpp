#include "rocekit/parse/nccl_log.hpp"

#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

constexpr const char* k_gdr = "misc/do-nccl-info-channels-gdrdma-ok.txt";
constexpr const char* k_nogdr = "misc/do-nccl-info-channels-no-gdrdma.txt";
constexpr const char* k_warn = "misc/do-nccl-warn-ib-completion-errors.txt";
constexpr const char* k_host = "../hosts/h100-nccl-gdrdma-in-use/nccl_log.txt";
constexpr const char* k_moc1 = "nccl_log/moc-h100-roce-allreduce-1gpu-per-node-gid3-gdr-0-net-ib-1-index.txt";
constexpr const char* k_moc4 = "nccl_log/moc-h100-roce-sendrecv-4gpu-per-node-gdrdma-shared-pxn-p2p-direct-pointer.txt";
constexpr const char* k_pxb = "nccl_log/nccltests293-a100-hdr-gdr-level-2-printed-as-pxb-no-gdrdma-nps4.txt";
constexpr const char* k_sys = "nccl_log/nccltests293-a100-hdr-gdr-level-sys-forced-gdrdma-over-sys-path.txt";

TEST(NcclLogGolden, CorpusAndHost) {
  for (const char* p : {k_gdr, k_nogdr, k_warn, k_host, k_moc1, k_moc4, k_pxb, k_sys}) {
    rk::test::check_golden(p, [](std::string_view body) -> nlohmann::json {
      auto r = parse_nccl_log(body);
      if (!r) return {{"error", r.error().message}};
      return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
    });
  }
}

// What NCCL read from its environment ("<NAME> set by environment to <value>[.]", param.cc) and
// the network it chose ("Using network IB", init.cc).
TEST(NcclLog, EnvironmentEchoesAndNetwork) {
  auto r = parse_nccl_log(rk::test::corpus_body(k_moc1));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value.network, "IB");
  std::map<std::string, std::string> env;
  for (const NcclEnvEcho& e : r->value.env) env[e.name] = e.value;
  EXPECT_EQ(env["NCCL_SOCKET_IFNAME"], "eno7np0");
  EXPECT_EQ(env["NCCL_IB_DISABLE"], "0");  // "... set by environment to 0." without the dot
  EXPECT_EQ(env["NCCL_IB_GID_INDEX"], "3");
  EXPECT_EQ(env["NCCL_ALGO"], "RING");
  auto pxb = parse_nccl_log(rk::test::corpus_body(k_pxb));
  ASSERT_TRUE(pxb);
  EXPECT_EQ(pxb->value.network, "IBext_v8");
  for (const NcclEnvEcho& e : pxb->value.env) {
    if (e.name == "NCCL_NET_GDR_LEVEL") {
      EXPECT_EQ(e.value, "PXB");  // NCCL_NET_GDR_LEVEL=2, printed as its name
    }
  }
}

TEST(NcclLog, GdrdmaInUse) {
  auto r = parse_nccl_log(rk::test::corpus_body(k_host));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_TRUE(r->value.elided);
  ASSERT_EQ(r->value.channels.size(), 4u);
  EXPECT_TRUE(any_gdrdma(r->value));
  EXPECT_EQ(r->value.channels[3].channel, 3u);
  EXPECT_EQ(r->value.channels[0].net_device, 1u);
  EXPECT_EQ(r->value.channels[0].direction, "send");
  EXPECT_EQ(r->value.channels[0].host, "host05");
}

TEST(NcclLog, NoGdrdma) {
  auto r = parse_nccl_log(rk::test::corpus_body(k_nogdr));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->value.channels.size(), 4u);
  EXPECT_FALSE(any_gdrdma(r->value));
  EXPECT_EQ(r->value.channels[0].transport, "NET/IB/1");
  EXPECT_EQ(r->value.channels[0].direction, "receive");
}

TEST(NcclLog, CompletionErrors) {
  auto r = parse_nccl_log(rk::test::corpus_body(k_warn));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->value.warns.size(), 2u);
  EXPECT_EQ(r->value.warns[0].status, 5u);
  EXPECT_EQ(r->value.warns[0].vendor_err, 249u);
  EXPECT_EQ(r->value.warns[0].source, "transport/net_ib.cc:2244");
  EXPECT_EQ(r->value.warns[1].status, 12u);
  EXPECT_EQ(r->value.warns[1].vendor_err, 129u);
  EXPECT_EQ(r->value.warns[1].host, "host04");
  EXPECT_EQ(r->value.info_lines, 6u);
}

TEST(NcclLog, UsingAndGdrLinesCrlfGarbled) {
  std::string t =
      "n1:10:10 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\r\n"
      "n1:10:10 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_3:1/RoCE [RO]; OOB eth0:192.0.2.1<0>\r\n"
      "n1:10:10 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 1 'mlx5_3'\r\n"
      "garbage here\r\n";
  auto r = parse_nccl_log(t);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value.version, "2.21.5+cuda12.4");
  ASSERT_EQ(r->value.ib_devices.size(), 2u);
  EXPECT_EQ(r->value.ib_devices[1].rdma_device, "mlx5_3");
  EXPECT_EQ(r->value.ib_devices[1].index, 1u);
  EXPECT_EQ(r->value.ib_devices[1].port, 1u);
  EXPECT_EQ(r->value.ib_devices[1].link_layer, "RoCE");
  ASSERT_EQ(r->value.gdr_status.size(), 1u);
  EXPECT_FALSE(r->value.gdr_status[0].enabled);
  EXPECT_EQ(r->value.gdr_status[0].rdma_device, "mlx5_3");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].line, 4u);
  EXPECT_FALSE(parse_nccl_log(""));
  EXPECT_FALSE(parse_nccl_log("[...]\n"));
}

// NCCL_IB_MERGE_NICS: each virtual device lists its physical ones (the form of
// NVIDIA/nccl-tests#373), behind Open MPI's --tag-output prefix; and "Connected all rings".
TEST(NcclLog, MergedNicsMpiTagAndConnected) {
  auto r = parse_nccl_log(
      "[1,0]<stdout>:bigo:1884:2298 [0] NCCL INFO NET/IB : Using [0]={[0] mlx5_2:1/RoCE, [1] mlx5_3:1/RoCE} "
      "[1]={[2] mlx5_0:1/RoCE, [3] mlx5_1:1/RoCE} [RO]; OOB bond0.526:192.0.2.9<0>\n"
      "[1,0]<stdout>:bigo:1884:2298 [0] NCCL INFO Using network IBext_v8\n"
      "[1,0]<stdout>:bigo:1884:2301 [0] NCCL INFO Connected all rings\n");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.ib_devices.size(), 4u);
  EXPECT_EQ(r->value.ib_devices[0].rdma_device, "mlx5_2");
  EXPECT_EQ(r->value.ib_devices[0].index, 0u);
  EXPECT_EQ(r->value.ib_devices[1].rdma_device, "mlx5_3");
  EXPECT_EQ(r->value.ib_devices[1].index, 0u);
  EXPECT_EQ(r->value.ib_devices[3].rdma_device, "mlx5_1");
  EXPECT_EQ(r->value.ib_devices[3].index, 1u);
  EXPECT_EQ(r->value.ib_devices[3].port, 1u);
  EXPECT_EQ(r->value.ib_devices[3].link_layer.value_or(""), "RoCE");
  EXPECT_EQ(r->value.hosts, std::vector<std::string>{"bigo"});
  EXPECT_EQ(r->value.network.value_or(""), "IBext_v8");
  EXPECT_EQ(r->value.connected_line, 3u);
}

TEST(NcclLog, LooksLike) {
  for (const char* p : {k_gdr, k_nogdr, k_warn, k_host, k_moc1, k_moc4, k_pxb, k_sys}) {
    EXPECT_TRUE(looks_like_nccl_log(rk::test::corpus_body(p))) << p;
  }
  EXPECT_FALSE(looks_like_nccl_log(rk::test::corpus_body("misc/do-nccl-lsmod-grep-nvid-peermem.txt")));
  EXPECT_FALSE(looks_like_nccl_log(rk::test::corpus_body("mlnx_qos/netarbiter-eth4-dscp-pfc3.txt")));
}

}  // namespace
}  // namespace rk::parse

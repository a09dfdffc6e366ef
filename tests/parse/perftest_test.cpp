#include "rocekit/parse/perftest.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

constexpr const char* k_file = "misc/ocp-nno-ib_write_bw-cuda-mtu-fallback.txt";

TEST(PerftestGolden, Corpus) {
  rk::test::check_golden(k_file, [](std::string_view body) -> nlohmann::json {
    auto r = parse_perftest(body);
    if (!r) return {{"error", r.error().message}};
    return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
  });
}

TEST(Perftest, Cx7VfMtuFallback) {
  auto r = parse_perftest(rk::test::corpus_body(k_file));
  ASSERT_TRUE(r);
  const Perftest& p = r->value;
  EXPECT_EQ(p.test_name, "RDMA_Write BW Test");
  EXPECT_EQ(p.rdma_device, "mlx5_1");
  EXPECT_EQ(p.mtu_bytes, 1024u);
  EXPECT_EQ(p.link_type, "Ethernet");
  EXPECT_EQ(p.gid_index, 3u);
  EXPECT_EQ(p.tos, 41u);
  EXPECT_EQ(p.number_of_qps, 16u);
  EXPECT_EQ(p.connection_type, "RC");
  EXPECT_EQ(p.rdma_cm_qps, true);
  EXPECT_EQ(p.data_exchange_method, "rdma_cm");
  EXPECT_TRUE(p.mtu_fallback);
  ASSERT_EQ(p.local_gids.size(), 1u);
  EXPECT_TRUE(p.results.empty());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
}

TEST(Perftest, ResultsTableCrlfAndErrors) {
  std::string t =
      "---------------------------------------------------------------------------------------\r\n"
      "                    RDMA_Write BW Test\r\n"
      " Dual-port       : OFF\t\tDevice         : mlx5_0\r\n"
      " Mtu             : 4096[B]\r\n"
      " Link type       : Ethernet\r\n"
      "---------------------------------------------------------------------------------------\r\n"
      " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\r\n"
      " 65536      5000             11466.52            11465.28\t\t   0.183444\r\n"
      "---------------------------------------------------------------------------------------\r\n";
  auto r = parse_perftest(t);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty()) << warnings_to_json(r->warnings).dump();
  EXPECT_EQ(r->value.mtu_bytes, 4096u);
  EXPECT_EQ(r->value.rdma_device, "mlx5_0");
  ASSERT_EQ(r->value.results.size(), 1u);
  EXPECT_EQ(r->value.results[0].bytes, 65536u);
  EXPECT_DOUBLE_EQ(*r->value.results[0].bw_average_mb_per_sec, 11465.28);
  EXPECT_FALSE(parse_perftest(""));
  EXPECT_FALSE(parse_perftest("RoCE v2\n"));
  auto g = parse_perftest(
      "---------------------------------------------------------------------------------------\n"
      "  RDMA_Write BW Test\n Mtu : 1024[B]\n garbled\n");
  ASSERT_TRUE(g);
  ASSERT_GE(g->warnings.size(), 1u);
  EXPECT_EQ(g->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(g->warnings[0].line, 4u);
}

TEST(Perftest, LooksLike) {
  EXPECT_TRUE(looks_like_perftest(rk::test::corpus_body(k_file)));
  EXPECT_FALSE(looks_like_perftest(rk::test::corpus_body("mlnx_qos/netarbiter-eth4-dscp-pfc3.txt")));
  EXPECT_FALSE(looks_like_perftest(rk::test::corpus_body("ibv_devinfo/rdma-notes-cx6dx-rocep61s0f1-v.txt")));
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/show_gids.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<GidTable>> r = parse_show_gids(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_files[] = {
    "gids/cn-notes-cx4lx-show_gids-4port.txt",
    "gids/cn-notes-show_gids-19-mixed-ib-eth.txt",
    "gids/cn-notes-show_gids-hrn3-plus-mlx5-bond.txt",
    "gids/cn-notes-show_gids-mlx5_bond_0.txt",
    "gids/cn-notes-hiroce3-gids.txt",
    "../hosts/cx4lx-4port-fw-mismatch/show_gids.txt",
};

TEST(ShowGidsGolden, AllCaptures) {
  for (const char* f : k_files) rk::test::check_golden(f, golden_json);
}

TEST(ShowGids, Cx4LxFourPorts) {
  Result<Parsed<GidTable>> r =
      parse_show_gids(rk::test::corpus_body("gids/cn-notes-cx4lx-show_gids-4port.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  const GidTable& v = r->value;
  EXPECT_EQ(v.format, GidTableFormat::mlnx_show_gids);
  EXPECT_EQ(v.n_gids_found, 12u);
  ASSERT_EQ(v.entries.size(), 12u);
  const GidEntry& e = v.entries[3];  // mlx5_0 1 3 ... 192.0.2.36 v2 eth01
  EXPECT_EQ(e.rdma_device, "mlx5_0");
  EXPECT_EQ(e.port, 1u);
  EXPECT_EQ(e.gid_index, 3u);
  EXPECT_EQ(e.gid, "0000:0000:0000:0000:0000:ffff:c000:0224");
  EXPECT_EQ(e.ipv4, "192.0.2.36");
  EXPECT_EQ(e.type, GidType::roce_v2);
  EXPECT_EQ(e.netdev, "eth01");
  // mlx5_3 (eth04, Up) has only link-local GIDs.
  int mlx5_3_v2_ipv4 = 0;
  for (const GidEntry& g : v.entries) {
    if (g.rdma_device == "mlx5_3" && g.ipv4) ++mlx5_3_v2_ipv4;
  }
  EXPECT_EQ(mlx5_3_v2_ipv4, 0);
  EXPECT_EQ(v.entries[10].ipv4, std::nullopt);
  EXPECT_EQ(v.entries[10].type, GidType::ib_roce_v1);
}

TEST(ShowGids, SpacesIbPortWithoutNetdev) {
  Result<Parsed<GidTable>> r =
      parse_show_gids(rk::test::corpus_body("gids/cn-notes-show_gids-19-mixed-ib-eth.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.entries.size(), 19u);
  const GidEntry& ib = r->value.entries[14];
  EXPECT_EQ(ib.rdma_device, "mlx5_5");
  EXPECT_EQ(ib.type, GidType::ib_roce_v1);
  EXPECT_EQ(ib.netdev, std::nullopt);
  EXPECT_EQ(r->value.entries[11].ipv4, "192.0.2.156");
  EXPECT_EQ(r->value.entries[11].netdev, "ens14f0");
}

TEST(ShowGids, Hiroce3Format) {
  Result<Parsed<GidTable>> r =
      parse_show_gids(rk::test::corpus_body("gids/cn-notes-hiroce3-gids.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.format, GidTableFormat::hiroce3_gids);
  ASSERT_EQ(r->value.entries.size(), 6u);
  EXPECT_EQ(r->value.entries[1].rdma_device, "hrn3_bond_0");
  EXPECT_EQ(r->value.entries[1].netdev, "bond0");
  EXPECT_EQ(r->value.entries[1].ipv4, "192.0.2.3");
  EXPECT_EQ(r->value.entries[1].type, GidType::roce_v2);
  EXPECT_EQ(r->value.entries[1].link_up, true);
  EXPECT_EQ(r->value.entries[2].type, GidType::ib_roce_v1);
  EXPECT_EQ(r->value.entries[5].link_up, false);
}

TEST(ShowGids, EmptyIsError) { EXPECT_FALSE(parse_show_gids("").has_value()); }

TEST(ShowGids, TruncatedAndGarbledAndCrlf) {
  Result<Parsed<GidTable>> r = parse_show_gids(
      "DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\r\n"
      "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\r\n"
      "mlx5_0\t1\t0\tfe80:0000:0000:0000:0000:00ff:fe00:0011\t\t\tv1\teth01\r\n"
      "garbage here\r\n"
      "mlx5_0\t1\t3\t0000:0000:0000:0000:0000:ffff:c000:0224\t192.0.2.36  \tv2\teth01\r\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.entries.size(), 2u);
  EXPECT_EQ(r->value.entries[1].netdev, "eth01");
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 4u);
  EXPECT_EQ(r->warnings[1].code, "truncated");
}

TEST(ShowGids, CountMismatch) {
  Result<Parsed<GidTable>> r = parse_show_gids(
      "mlx5_0\t1\t0\tfe80:0000:0000:0000:0000:00ff:fe00:0011\t\t\tv1\teth01\n"
      "n_gids_found=2\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "count_mismatch");
}

TEST(ShowGids, LooksLike) {
  for (const char* f : k_files) EXPECT_TRUE(looks_like_show_gids(rk::test::corpus_body(f))) << f;
  EXPECT_FALSE(looks_like_show_gids(rk::test::corpus_body("gids/cn-notes-cx4lx-ibdev2netdev.txt")));
  EXPECT_FALSE(looks_like_show_gids(
      rk::test::corpus_body("ibv_devinfo/rdma-notes-cx6dx-rocep61s0f1-v.txt")));
}

}  // namespace
}  // namespace rk::parse

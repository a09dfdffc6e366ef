#include "rocekit/parse/ibdev2netdev.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<Ibdev2netdev>> r = parse_ibdev2netdev(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_files[] = {
    "gids/cn-blog-2019-ibdev2netdev-mixed-eth-ib.txt",
    "gids/cn-notes-cx4lx-ibdev2netdev.txt",
    "gids/cn-notes-ibdev2netdev-8dev-mixed.txt",
    "gids/cn-notes-ibdev2netdev-hrn3-mlx5-bonds.txt",
    "gids/cx7-gb10-ibdev2netdev-rocep.txt",
    "../hosts/cx4lx-4port-fw-mismatch/ibdev2netdev.txt",
    "../hosts/cx7-rocep-2domain-ports-down/ibdev2netdev.txt",
    "../hosts/roce-server-8dev-trust-pcp-pfc-off/ibdev2netdev.txt",
};

TEST(Ibdev2netdevGolden, AllCaptures) {
  for (const char* f : k_files) rk::test::check_golden(f, golden_json);
}

TEST(Ibdev2netdev, EightDevicesMixed) {
  Result<Parsed<Ibdev2netdev>> r =
      parse_ibdev2netdev(rk::test::corpus_body("gids/cn-notes-ibdev2netdev-8dev-mixed.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.entries.size(), 8u);
  EXPECT_EQ(r->value.entries[2].rdma_device, "mlx5_2");
  EXPECT_EQ(r->value.entries[2].port, 1u);
  EXPECT_EQ(r->value.entries[2].netdev, "ens6");
  EXPECT_EQ(r->value.entries[2].link_up, true);
  EXPECT_EQ(r->value.entries[0].link_up, false);
  EXPECT_EQ(r->value.entries[5].netdev, "ib0");
  EXPECT_EQ(r->value.entries[5].name_bdf, std::nullopt);
}

TEST(Ibdev2netdev, RocepNamesAndBonds) {
  Result<Parsed<Ibdev2netdev>> r =
      parse_ibdev2netdev(rk::test::corpus_body("gids/cx7-gb10-ibdev2netdev-rocep.txt"));
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.entries.size(), 4u);
  EXPECT_EQ(r->value.entries[2].rdma_device, "roceP2p1s0f0");
  EXPECT_EQ(r->value.entries[2].name_bdf, "0002:01:00.0");
  EXPECT_EQ(r->value.entries[2].netdev, "enP2p1s0f0np0");
  EXPECT_EQ(r->value.entries[2].link_up, false);
  EXPECT_EQ(r->value.entries[1].name_bdf, "0000:01:00.1");
  Result<Parsed<Ibdev2netdev>> b =
      parse_ibdev2netdev(rk::test::corpus_body("gids/cn-notes-ibdev2netdev-hrn3-mlx5-bonds.txt"));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value.entries[1].rdma_device, "mlx5_bond_0");
  EXPECT_EQ(b->value.entries[1].netdev, "bond1");
}

TEST(Ibdev2netdev, VerboseForm) {
  Result<Parsed<Ibdev2netdev>> r = parse_ibdev2netdev(
      "0000:3b:00.0 mlx5_0 (MT4119 - MCX516A-CCAT) CX516A - ConnectX-5 QSFP28 fw 16.35.2000 "
      "port 1 (ACTIVE) ==> ens1f0 (Up)\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  const Ibdev2netdevEntry& e = r->value.entries.at(0);
  EXPECT_EQ(e.bdf, "0000:3b:00.0");
  EXPECT_EQ(e.rdma_device, "mlx5_0");
  EXPECT_EQ(e.device_id, "MT4119");
  EXPECT_EQ(e.psid, "MCX516A-CCAT");
  EXPECT_EQ(e.description, "CX516A - ConnectX-5 QSFP28");
  EXPECT_EQ(e.fw_ver, "16.35.2000");
  EXPECT_EQ(e.port_state, PortState::active);
  EXPECT_EQ(e.netdev, "ens1f0");
  EXPECT_EQ(e.link_up, true);
}

TEST(Ibdev2netdev, EmptyIsError) {
  EXPECT_FALSE(parse_ibdev2netdev("").has_value());
  EXPECT_FALSE(parse_ibdev2netdev("hello world\n").has_value());
}

TEST(Ibdev2netdev, GarbledTruncatedCrlf) {
  Result<Parsed<Ibdev2netdev>> r =
      parse_ibdev2netdev("mlx5_0 port 1 ==> eth01 (Up)\r\n???\r\nmlx5_1 port 1 ==> eth02\r\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.entries.size(), 2u);
  EXPECT_EQ(r->value.entries[0].netdev, "eth01");
  EXPECT_EQ(r->value.entries[0].link_up, true);
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 2u);
  EXPECT_EQ(r->warnings[1].code, "truncated");
}

TEST(Ibdev2netdev, LooksLike) {
  for (const char* f : k_files) {
    EXPECT_TRUE(looks_like_ibdev2netdev(rk::test::corpus_body(f))) << f;
  }
  EXPECT_FALSE(
      looks_like_ibdev2netdev(rk::test::corpus_body("gids/cn-notes-cx4lx-show_gids-4port.txt")));
  EXPECT_FALSE(
      looks_like_ibdev2netdev(rk::test::corpus_body("gids/rdma-notes-rdma-link-irdma.txt")));
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/ethtool_ring.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<EthtoolRing>> r = parse_ethtool_ring(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_captures[] = {
    "ethtool_other/homelab-host01-ethtool-g-cx4lx.txt",
    "../hosts/homelab-host01-cx4lx-fw14.32/ethtool_g@enp1s0f0np0.txt",
};

TEST(EthtoolRingGolden, AllCaptures) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    rk::test::check_golden(path, golden_json);
  }
}

TEST(EthtoolRing, HomelabNetlinkDialect) {
  std::string body = rk::test::corpus_body("ethtool_other/homelab-host01-ethtool-g-cx4lx.txt");
  EXPECT_TRUE(looks_like_ethtool_ring(body));
  Result<Parsed<EthtoolRing>> r = parse_ethtool_ring(body);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  const EthtoolRing& g = r->value;
  EXPECT_EQ(g.netdev, "enp1s0f0np0");
  EXPECT_EQ(g.max.rx, 8192u);
  EXPECT_EQ(g.max.tx, 8192u);
  EXPECT_EQ(g.max.rx_mini, std::nullopt);
  EXPECT_EQ(g.current.rx, 1024u);
  EXPECT_EQ(g.current.tx, 1024u);
  EXPECT_EQ(g.rx_buf_len_bytes, std::nullopt);
  EXPECT_EQ(g.cqe_size_bytes, std::nullopt);
  EXPECT_EQ(g.tx_push, false);
  EXPECT_EQ(g.tcp_data_split, false);
  EXPECT_EQ(g.rx_push, std::nullopt);
}

TEST(EthtoolRing, IoctlDialectWithTabs) {
  Result<Parsed<EthtoolRing>> r = parse_ethtool_ring(
      "Ring parameters for ens6:\nPre-set maximums:\nRX:\t\t8192\nRX Mini:\t0\nRX Jumbo:\t0\n"
      "TX:\t\t8192\nCurrent hardware settings:\nRX:\t\t4096\nRX Mini:\t0\nRX Jumbo:\t0\n"
      "TX:\t\t4096\n\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.current.rx, 4096u);
  EXPECT_EQ(r->value.current.rx_mini, 0u);
  EXPECT_EQ(r->value.tx_push, std::nullopt);
}

TEST(EthtoolRing, EmptyAndForeignAreErrors) {
  EXPECT_FALSE(parse_ethtool_ring("").has_value());
  EXPECT_FALSE(parse_ethtool_ring("driver: mlx5_core\n").has_value());
}

TEST(EthtoolRing, Truncated) {
  Result<Parsed<EthtoolRing>> r = parse_ethtool_ring(
      "Ring parameters for ens6:\nPre-set maximums:\nRX:\t\t8192\nTX:\t\t8192\n"
      "Current hardware settings:\nRX:\t\t1024\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.current.rx, 1024u);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
}

TEST(EthtoolRing, GarbledLineNumberAndBadValue) {
  Result<Parsed<EthtoolRing>> r = parse_ethtool_ring(
      "Ring parameters for ens6:\nPre-set maximums:\nRX:\t\t8192\n??\n"
      "Current hardware settings:\nTX:\t\t1024\nTX Push:\tmaybe\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 4u);
  EXPECT_EQ(r->warnings[1].code, "bad_value");
  EXPECT_EQ(r->warnings[1].line, 7u);
}

TEST(EthtoolRing, CrlfLineEndings) {
  Result<Parsed<EthtoolRing>> r = parse_ethtool_ring(
      "Ring parameters for ens6:\r\nPre-set maximums:\r\nRX:\t\t8192\r\n"
      "Current hardware settings:\r\nRX:\t\t4096\r\nTX:\t\t4096\r\nTCP data split:\ton\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.current.rx, 4096u);
  EXPECT_EQ(r->value.tcp_data_split, true);
}

TEST(EthtoolRing, LooksLikeRejectsOtherTools) {
  const char* const others[] = {
      "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt",
      "ethtool_S/cn-notes-cx4lx-grep-discards.txt",
      "ethtool_c/cn-notes-cx4lx-eth03.txt",
      "ethtool_l/cn-notes-eth03-combined16.txt",
      "ethtool_other/homelab-host01-ethtool-settings-cx4lx-25g.txt",
  };
  for (const char* path : others) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(looks_like_ethtool_ring(rk::test::corpus_body(path)));
  }
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/ethtool_coalesce.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<EthtoolCoalesce>> r = parse_ethtool_coalesce(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_captures[] = {
    "ethtool_c/cn-notes-cx4lx-eth03.txt",
    "ethtool_c/cn-notes-ixgbe-82599-eth03.txt",
    "ethtool_c/homelab-host01-cx4lx-new-format.txt",
    "../hosts/homelab-host01-cx4lx-fw14.32/ethtool_c@enp1s0f0np0.txt",
};

TEST(EthtoolCoalesceGolden, AllCaptures) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    rk::test::check_golden(path, golden_json);
  }
}

TEST(EthtoolCoalesce, CapturesParseCleanAndSniff) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    std::string body = rk::test::corpus_body(path);
    Result<Parsed<EthtoolCoalesce>> r = parse_ethtool_coalesce(body);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->warnings.empty());
    EXPECT_TRUE(looks_like_ethtool_coalesce(body));
  }
}

TEST(EthtoolCoalesce, OldDialectCx4Lx) {
  Result<Parsed<EthtoolCoalesce>> r =
      parse_ethtool_coalesce(rk::test::corpus_body("ethtool_c/cn-notes-cx4lx-eth03.txt"));
  ASSERT_TRUE(r.has_value());
  const EthtoolCoalesce& c = r->value;
  EXPECT_EQ(c.netdev, "eth03");
  EXPECT_EQ(c.adaptive_rx, true);
  EXPECT_EQ(c.adaptive_tx, true);
  EXPECT_EQ(c.rx_usecs, 32u);
  EXPECT_EQ(c.rx_frames, 64u);
  EXPECT_EQ(c.tx_usecs, 8u);
  EXPECT_EQ(c.tx_frames, 128u);
  EXPECT_EQ(c.stats_block_usecs, 0u);  // old dialect prints 0, not n/a
  EXPECT_EQ(c.tx_frames_high, 0u);
  EXPECT_EQ(c.cqe_mode_rx, std::nullopt);  // not printed by the old dialect
}

TEST(EthtoolCoalesce, IxgbeAdaptiveOff) {
  Result<Parsed<EthtoolCoalesce>> r =
      parse_ethtool_coalesce(rk::test::corpus_body("ethtool_c/cn-notes-ixgbe-82599-eth03.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.adaptive_rx, false);
  EXPECT_EQ(r->value.adaptive_tx, false);
  EXPECT_EQ(r->value.rx_usecs, 1u);
}

TEST(EthtoolCoalesce, NetlinkDialectHomelab) {
  Result<Parsed<EthtoolCoalesce>> r = parse_ethtool_coalesce(
      rk::test::corpus_body("../hosts/homelab-host01-cx4lx-fw14.32/ethtool_c@enp1s0f0np0.txt"));
  ASSERT_TRUE(r.has_value());
  const EthtoolCoalesce& c = r->value;
  EXPECT_EQ(c.netdev, "enp1s0f0np0");
  EXPECT_EQ(c.adaptive_rx, true);  // irq.coalescing fails for profile ai-training
  EXPECT_EQ(c.adaptive_tx, true);
  EXPECT_EQ(c.rx_usecs, 8u);
  EXPECT_EQ(c.rx_frames, 128u);
  EXPECT_EQ(c.tx_usecs, 8u);
  EXPECT_EQ(c.tx_frames, 128u);
  EXPECT_EQ(c.stats_block_usecs, std::nullopt);  // n/a
  EXPECT_EQ(c.rx_usecs_irq, std::nullopt);
  EXPECT_EQ(c.cqe_mode_rx, true);
  EXPECT_EQ(c.cqe_mode_tx, false);
}

TEST(EthtoolCoalesce, NotAvailableBooleansAndAggr) {
  Result<Parsed<EthtoolCoalesce>> r = parse_ethtool_coalesce(
      "Coalesce parameters for ens1:\nAdaptive RX: n/a  TX: n/a\nrx-usecs:\t50\n"
      "tx-frame-high:\tn/a\n\nCQE mode RX: n/a  TX: n/a\n\ntx-aggr-max-bytes:\t0\n"
      "tx-aggr-max-frames:\t0\ntx-aggr-time-usecs\t0\n\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.adaptive_rx, std::nullopt);
  EXPECT_EQ(r->value.adaptive_tx, std::nullopt);
  EXPECT_EQ(r->value.cqe_mode_rx, std::nullopt);
  EXPECT_EQ(r->value.rx_usecs, 50u);
  EXPECT_EQ(r->value.tx_aggr_time_usecs, 0u);
}

TEST(EthtoolCoalesce, EmptyAndForeignAreErrors) {
  EXPECT_FALSE(parse_ethtool_coalesce("").has_value());
  EXPECT_FALSE(parse_ethtool_coalesce("driver: mlx5_core\n").has_value());
}

TEST(EthtoolCoalesce, Truncated) {
  Result<Parsed<EthtoolCoalesce>> r = parse_ethtool_coalesce(
      "Coalesce parameters for eth0:\nAdaptive RX: off  TX: on\nstats-block-usecs: 0\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.adaptive_rx, false);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
}

TEST(EthtoolCoalesce, GarbledLineNumberAndBadNumber) {
  Result<Parsed<EthtoolCoalesce>> r = parse_ethtool_coalesce(
      "Coalesce parameters for eth0:\nAdaptive RX: on  TX: on\n%%garbage%%\nrx-usecs: lots\n"
      "tx-frame-high: 0\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_EQ(r->warnings[1].code, "bad_number");
  EXPECT_EQ(r->warnings[1].line, 4u);
  EXPECT_EQ(r->value.rx_usecs, std::nullopt);
}

TEST(EthtoolCoalesce, CrlfLineEndings) {
  Result<Parsed<EthtoolCoalesce>> r = parse_ethtool_coalesce(
      "Coalesce parameters for eth0:\r\nAdaptive RX: off  TX: off\r\nrx-usecs: 128\r\n"
      "rx-frames: 512\r\ntx-frame-high: 0\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.netdev, "eth0");
  EXPECT_EQ(r->value.adaptive_rx, false);
  EXPECT_EQ(r->value.rx_usecs, 128u);
  EXPECT_EQ(r->value.rx_frames, 512u);
}

TEST(EthtoolCoalesce, LooksLikeRejectsOtherTools) {
  const char* const others[] = {
      "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt",
      "ethtool_S/cn-notes-cx4lx-grep-discards.txt",
      "ethtool_l/cn-notes-eth03-combined16.txt",
      "ethtool_other/homelab-host01-ethtool-g-cx4lx.txt",
      "ethtool_other/homelab-host01-ethtool-settings-cx4lx-25g.txt",
      "misc/devlink-dev-info-cx7-2pf-function-uid.txt",
  };
  for (const char* path : others) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(looks_like_ethtool_coalesce(rk::test::corpus_body(path)));
  }
}

}  // namespace
}  // namespace rk::parse

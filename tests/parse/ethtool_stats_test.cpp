#include "rocekit/parse/ethtool_stats.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/parse/devlink_dev_info.hpp"
#include "rocekit/parse/ethtool_channels.hpp"
#include "rocekit/parse/ethtool_coalesce.hpp"
#include "rocekit/parse/ethtool_driver.hpp"
#include "rocekit/parse/ethtool_link.hpp"
#include "rocekit/parse/ethtool_pause.hpp"
#include "rocekit/parse/ethtool_ring.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<EthtoolStats>> r = parse_ethtool_stats(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_captures[] = {
    "ethtool_S/cn-notes-cx4lx-grep-discards.txt",
    "ethtool_S/cn-notes-cx4lx-grep-pause-tx-global-pause.txt",
    "ethtool_S/cn-notes-cx4lx-grep-pause-zero.txt",
    "ethtool_S/cn-notes-cx4lx-grep-rdma-vport.txt",
    "ethtool_S/ethq-fixture-bnxt_en-broadcom.txt",
    "ethtool_S/ethq-fixture-ice-intel-e810.txt",
    "ethtool_S/ethq-fixture-mlx5-cx4lx-k4.15.txt",
    "ethtool_S/ethq-fixture-mlx5-old-k4.4.txt",
    "ethtool_S/lore-xdp-regression-mlx5-k5.15.txt",
};

TEST(EthtoolStatsGolden, AllCaptures) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    rk::test::check_golden(path, golden_json);
  }
}

TEST(EthtoolStats, CapturesParseWithoutWarnings) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    std::string body = rk::test::corpus_body(path);
    Result<Parsed<EthtoolStats>> r = parse_ethtool_stats(body);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->warnings.empty());
    EXPECT_TRUE(looks_like_ethtool_stats(body));
  }
}

TEST(EthtoolStats, GlobalPauseSentByHost) {
  std::string body =
      rk::test::corpus_body("ethtool_S/cn-notes-cx4lx-grep-pause-tx-global-pause.txt");
  Result<Parsed<EthtoolStats>> r = parse_ethtool_stats(body);
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->value.has_header);
  ASSERT_EQ(r->value.counters.size(), 17u);
  EXPECT_EQ(r->value.counters.front().name, "tx_mac_control_phy");
  EXPECT_EQ(find_stat(r->value, "tx_pause_ctrl_phy"), 1266552u);
  EXPECT_EQ(find_stat(r->value, "tx_global_pause"), 1266552u);
  EXPECT_EQ(find_stat(r->value, "tx_global_pause_duration"), 555665182u);
  EXPECT_EQ(find_stat(r->value, "tx_pci_signal_integrity"), 3u);
  EXPECT_EQ(find_stat(r->value, "rx_prio3_pause"), std::nullopt);
}

TEST(EthtoolStats, XdpRegressionDiscards) {
  std::string body = rk::test::corpus_body("ethtool_S/lore-xdp-regression-mlx5-k5.15.txt");
  Result<Parsed<EthtoolStats>> r = parse_ethtool_stats(body);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->value.has_header);
  EXPECT_EQ(find_stat(r->value, "rx_out_of_buffer"), 990473555u);
  EXPECT_EQ(find_stat(r->value, "rx_steer_missed_packets"), 1962570491u);
  ASSERT_TRUE(find_stat(r->value, "rx_discards_phy").has_value());
  EXPECT_GT(*find_stat(r->value, "rx_discards_phy"), 58'000'000'000u);
}

TEST(EthtoolStats, BnxtRingEntriesAreDistinguishable) {
  std::string body = rk::test::corpus_body("ethtool_S/ethq-fixture-bnxt_en-broadcom.txt");
  Result<Parsed<EthtoolStats>> r = parse_ethtool_stats(body);
  ASSERT_TRUE(r.has_value());
  ASSERT_FALSE(r->value.counters.empty());
  const EthtoolStat& first = r->value.counters.front();
  EXPECT_EQ(first.name, "rx_ucast_packets");
  EXPECT_EQ(first.ring, 0u);
  EXPECT_EQ(first.value, 10198513532u);
  EXPECT_EQ(r->value.counters[3].name, "rx_discards");
  EXPECT_EQ(r->value.counters[3].value, 11763190u);
  // Ring counters are not found by the plain-name lookup; the port total is.
  EXPECT_EQ(find_stat(r->value, "rx_total_ring_discards"), 655430134u);
  EXPECT_EQ(find_stat(r->value, "rx_ucast_packets"), std::nullopt);
}

TEST(EthtoolStats, Mlx5FullDumpKeepsEveryCounterInOrder) {
  std::string body = rk::test::corpus_body("ethtool_S/ethq-fixture-mlx5-cx4lx-k4.15.txt");
  Result<Parsed<EthtoolStats>> r = parse_ethtool_stats(body);
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->value.has_header);
  EXPECT_EQ(r->value.counters.size(), 751u);
  EXPECT_EQ(r->value.counters.front().name, "rx_packets");
  EXPECT_EQ(r->value.counters.front().value, 845320277u);
  EXPECT_EQ(r->value.counters.back().name, "tx15_xmit_more");
  EXPECT_EQ(r->value.counters.back().value, 5530u);
}

TEST(EthtoolStats, EmptyAndForeignInputAreErrors) {
  EXPECT_FALSE(parse_ethtool_stats("").has_value());
  EXPECT_FALSE(parse_ethtool_stats("\n\n").has_value());
  EXPECT_FALSE(parse_ethtool_stats("driver: mlx5_core\nversion: 5.0-2.1.8\n").has_value());
}

TEST(EthtoolStats, TruncatedLastLine) {
  Result<Parsed<EthtoolStats>> r =
      parse_ethtool_stats("NIC statistics:\n     rx_packets: 5\n     rx_prio3_pa");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.counters.size(), 1u);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
  EXPECT_EQ(r->warnings[0].line, 3u);
}

TEST(EthtoolStats, HeaderOnlyIsTruncated) {
  Result<Parsed<EthtoolStats>> r = parse_ethtool_stats("NIC statistics:\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->value.counters.empty());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
}

TEST(EthtoolStats, GarbledLineAndBadNumber) {
  Result<Parsed<EthtoolStats>> r = parse_ethtool_stats(
      "NIC statistics:\n     rx_packets: 5\nsome garbage here\n     tx_packets: -3\n"
      "     tx_bytes: 99999999999999999999999\n     rx_bytes: 7\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.counters.size(), 2u);
  ASSERT_EQ(r->warnings.size(), 3u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_EQ(r->warnings[1].code, "bad_number");
  EXPECT_EQ(r->warnings[1].line, 4u);
  EXPECT_EQ(r->warnings[2].code, "bad_number");
  EXPECT_EQ(r->warnings[2].line, 5u);
}

TEST(EthtoolStats, CrlfLineEndings) {
  Result<Parsed<EthtoolStats>> r =
      parse_ethtool_stats("NIC statistics:\r\n     rx_prio3_pause: 42\r\n     [2]: rx_discards: 7\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_TRUE(r->value.has_header);
  ASSERT_EQ(r->value.counters.size(), 2u);
  EXPECT_EQ(find_stat(r->value, "rx_prio3_pause"), 42u);
  EXPECT_EQ(r->value.counters[1].ring, 2u);
}

TEST(EthtoolStats, NoStatsAvailable) {
  Result<Parsed<EthtoolStats>> r = parse_ethtool_stats("no stats available\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "no_stats");
}

TEST(EthtoolStats, LooksLikeRejectsOtherTools) {
  const char* const others[] = {
      "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt",
      "ethtool_c/cn-notes-cx4lx-eth03.txt",
      "ethtool_l/cn-notes-eth03-combined16.txt",
      "ethtool_other/homelab-host01-ethtool-g-cx4lx.txt",
      "ethtool_other/homelab-host01-ethtool-settings-cx4lx-25g.txt",
      "misc/devlink-dev-info-cx7-2pf-function-uid.txt",
  };
  for (const char* path : others) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(looks_like_ethtool_stats(rk::test::corpus_body(path)));
  }
  EXPECT_FALSE(looks_like_ethtool_stats(""));
}

}  // namespace
}  // namespace rk::parse

// Robustness across the group-B parsers: every prefix of the small captures and byte-mutated
// copies must parse or fail cleanly (run under ASan/UBSan in the dev preset).

namespace rk::parse {
namespace {

/// Runs every group-B parser and sniff; returns how many parsers accepted the text.
int parse_all(std::string_view s) {
  int accepted = 0;
  accepted += parse_ethtool_stats(s).has_value() ? 1 : 0;
  accepted += parse_ethtool_coalesce(s).has_value() ? 1 : 0;
  accepted += parse_ethtool_channels(s).has_value() ? 1 : 0;
  accepted += parse_ethtool_driver(s).has_value() ? 1 : 0;
  accepted += parse_ethtool_pause(s).has_value() ? 1 : 0;
  accepted += parse_ethtool_ring(s).has_value() ? 1 : 0;
  accepted += parse_ethtool_link(s).has_value() ? 1 : 0;
  accepted += parse_devlink_dev_info(s).has_value() ? 1 : 0;
  (void)looks_like_ethtool_stats(s);
  (void)looks_like_ethtool_coalesce(s);
  (void)looks_like_ethtool_channels(s);
  (void)looks_like_ethtool_driver(s);
  (void)looks_like_ethtool_pause(s);
  (void)looks_like_ethtool_ring(s);
  (void)looks_like_ethtool_link(s);
  (void)looks_like_devlink_dev_info(s);
  return accepted;
}

TEST(GroupBRobustness, PrefixesAndMutationsDoNotCrash) {
  const char* const small[] = {
      "ethtool_S/cn-notes-cx4lx-grep-pause-tx-global-pause.txt",
      "ethtool_c/homelab-host01-cx4lx-new-format.txt",
      "ethtool_l/cn-notes-eth03-combined16.txt",
      "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt",
      "ethtool_other/homelab-host01-ethtool-g-cx4lx.txt",
      "ethtool_other/homelab-host01-ethtool-settings-cx4lx-25g.txt",
      "misc/devlink-dev-info-cx7-2pf-function-uid.txt",
      "misc/devlink-dev-info-mlx5-no-data-available.txt",
  };
  const char k_noise[] = {':', '\n', '[', ']', '(', ')', ' ', '\t', '\0', '9', '\r', '/', '-'};
  std::uint32_t seed = 12345;
  for (const char* path : small) {
    SCOPED_TRACE(path);
    std::string body = rk::test::corpus_body(path);
    EXPECT_GE(parse_all(body), 1);  // the real capture is accepted by its own parser
    EXPECT_EQ(parse_all(""), 0);
    for (std::size_t n = 0; n <= body.size(); ++n) parse_all(std::string_view(body).substr(0, n));
    for (int round = 0; round < 300 && !body.empty(); ++round) {
      std::string m = body;
      for (int k = 0; k < 4; ++k) {
        seed = seed * 1103515245u + 12345u;
        std::size_t at = (seed >> 8) % m.size();
        m[at] = k_noise[(seed >> 3) % sizeof(k_noise)];
      }
      parse_all(m);
    }
  }
  parse_all("[");
  parse_all("[]:");
  parse_all("[4294967296]: x: 1");
  parse_all("pci/:");
  parse_all("a/b:\n  versions:\n  versions:\n      fixed:\n");
  EXPECT_EQ(parse_all(":\n:\n:"), 0);
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/ethtool_pause.hpp"

#include <gtest/gtest.h>

#include "golden.hpp"

namespace rk::parse {
namespace {

// No capture of `ethtool -a` exists in the corpus; these inputs follow ethtool's printf formats
// (ioctl: "Autonegotiate:\t%s\nRX:\t\t%s\nTX:\t\t%s\n"; netlink adds negotiated/statistics).

TEST(EthtoolPause, IoctlGlobalPauseOn) {
  Result<Parsed<EthtoolPause>> r = parse_ethtool_pause(
      "Pause parameters for eth03:\nAutonegotiate:\toff\nRX:\t\ton\nTX:\t\ton\n\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.netdev, "eth03");
  EXPECT_EQ(r->value.autonegotiate, false);
  EXPECT_EQ(r->value.rx, true);
  EXPECT_EQ(r->value.tx, true);
  EXPECT_EQ(r->value.rx_negotiated, std::nullopt);
}

TEST(EthtoolPause, NetlinkNegotiatedAndStatistics) {
  Result<Parsed<EthtoolPause>> r = parse_ethtool_pause(
      "Pause parameters for ens6:\nAutonegotiate:\ton\nRX:\t\toff\nTX:\t\toff\n"
      "RX negotiated: off\nTX negotiated: off\nStatistics:\n  tx_pause_frames: 1266552\n"
      "  rx_pause_frames: 0\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.rx, false);
  EXPECT_EQ(r->value.tx, false);
  EXPECT_EQ(r->value.rx_negotiated, false);
  EXPECT_EQ(r->value.tx_pause_frames, 1266552u);
  EXPECT_EQ(r->value.rx_pause_frames, 0u);
  EXPECT_TRUE(looks_like_ethtool_pause("Pause parameters for ens6:\nRX:\toff\n"));
}

TEST(EthtoolPause, EmptyAndForeignAreErrors) {
  EXPECT_FALSE(parse_ethtool_pause("").has_value());
  EXPECT_FALSE(parse_ethtool_pause("NIC statistics:\n").has_value());
}

TEST(EthtoolPause, Truncated) {
  Result<Parsed<EthtoolPause>> r =
      parse_ethtool_pause("Pause parameters for eth0:\nAutonegotiate:\toff\nRX:\t\ton\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.rx, true);
  EXPECT_EQ(r->value.tx, std::nullopt);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
}

TEST(EthtoolPause, GarbledLineNumber) {
  Result<Parsed<EthtoolPause>> r = parse_ethtool_pause(
      "Pause parameters for eth0:\nAutonegotiate:\toff\nxx yy\nRX:\t\tsometimes\nTX:\t\toff\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_EQ(r->warnings[1].code, "bad_value");
  EXPECT_EQ(r->warnings[1].line, 4u);
}

TEST(EthtoolPause, CrlfLineEndings) {
  Result<Parsed<EthtoolPause>> r = parse_ethtool_pause(
      "Pause parameters for eth0:\r\nAutonegotiate:\toff\r\nRX:\t\toff\r\nTX:\t\toff\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.netdev, "eth0");
  EXPECT_EQ(r->value.tx, false);
}

TEST(EthtoolPause, LooksLikeRejectsOtherTools) {
  const char* const others[] = {
      "ethtool_S/cn-notes-cx4lx-grep-pause-zero.txt",
      "ethtool_c/cn-notes-cx4lx-eth03.txt",
      "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt",
      "ethtool_l/cn-notes-eth03-combined16.txt",
      "ethtool_other/homelab-host01-ethtool-g-cx4lx.txt",
      "ethtool_other/homelab-host01-ethtool-settings-cx4lx-25g.txt",
  };
  for (const char* path : others) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(looks_like_ethtool_pause(rk::test::corpus_body(path)));
  }
}

}  // namespace
}  // namespace rk::parse

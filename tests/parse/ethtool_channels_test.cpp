#include "rocekit/parse/ethtool_channels.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<EthtoolChannels>> r = parse_ethtool_channels(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_captures[] = {
    "ethtool_l/cn-notes-eth03-combined16.txt",
    "ethtool_l/cn-notes-eth03-combined32.txt",
    "ethtool_l/homelab-host01-cx4lx-combined12.txt",
    "../hosts/homelab-host01-cx4lx-fw14.32/ethtool_l@enp1s0f0np0.txt",
};

TEST(EthtoolChannelsGolden, AllCaptures) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    rk::test::check_golden(path, golden_json);
  }
}

TEST(EthtoolChannels, CapturesParseCleanAndSniff) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    std::string body = rk::test::corpus_body(path);
    Result<Parsed<EthtoolChannels>> r = parse_ethtool_channels(body);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->warnings.empty());
    EXPECT_TRUE(looks_like_ethtool_channels(body));
  }
}

TEST(EthtoolChannels, Combined16Of63) {
  Result<Parsed<EthtoolChannels>> r =
      parse_ethtool_channels(rk::test::corpus_body("ethtool_l/cn-notes-eth03-combined16.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.netdev, "eth03");
  EXPECT_EQ(r->value.max.rx, 0u);
  EXPECT_EQ(r->value.max.other, 1u);
  EXPECT_EQ(r->value.max.combined, 63u);
  EXPECT_EQ(r->value.current.combined, 16u);
}

TEST(EthtoolChannels, NetlinkNotAvailable) {
  Result<Parsed<EthtoolChannels>> r = parse_ethtool_channels(rk::test::corpus_body(
      "../hosts/homelab-host01-cx4lx-fw14.32/ethtool_l@enp1s0f0np0.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.netdev, "enp1s0f0np0");
  EXPECT_EQ(r->value.max.rx, std::nullopt);
  EXPECT_EQ(r->value.current.other, std::nullopt);
  EXPECT_EQ(r->value.max.combined, 12u);
  EXPECT_EQ(r->value.current.combined, 12u);
}

TEST(EthtoolChannels, EmptyAndForeignAreErrors) {
  EXPECT_FALSE(parse_ethtool_channels("").has_value());
  EXPECT_FALSE(parse_ethtool_channels("driver: mlx5_core\n").has_value());
}

TEST(EthtoolChannels, Truncated) {
  Result<Parsed<EthtoolChannels>> r = parse_ethtool_channels(
      "Channel parameters for eth0:\nPre-set maximums:\nRX:\t\t0\nTX:\t\t0\nOther:\t\t1\n"
      "Combined:\t63\nCurrent hardware settings:\nRX:\t\t0\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.max.combined, 63u);
  EXPECT_EQ(r->value.current.combined, std::nullopt);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
}

TEST(EthtoolChannels, GarbledLineNumber) {
  Result<Parsed<EthtoolChannels>> r = parse_ethtool_channels(
      "Channel parameters for eth0:\nPre-set maximums:\nwhat is this\nCombined:\t8\n"
      "Current hardware settings:\nCombined:\tmany\nCombined:\t4\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_EQ(r->warnings[1].code, "bad_number");
  EXPECT_EQ(r->warnings[1].line, 6u);
  EXPECT_EQ(r->value.current.combined, 4u);
}

TEST(EthtoolChannels, CrlfLineEndings) {
  Result<Parsed<EthtoolChannels>> r = parse_ethtool_channels(
      "Channel parameters for eth0:\r\nPre-set maximums:\r\nCombined:\t63\r\n"
      "Current hardware settings:\r\nCombined:\t32\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.netdev, "eth0");
  EXPECT_EQ(r->value.current.combined, 32u);
}

TEST(EthtoolChannels, LooksLikeRejectsOtherTools) {
  const char* const others[] = {
      "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt",
      "ethtool_S/cn-notes-cx4lx-grep-discards.txt",
      "ethtool_c/cn-notes-cx4lx-eth03.txt",
      "ethtool_other/homelab-host01-ethtool-g-cx4lx.txt",
      "ethtool_other/homelab-host01-ethtool-settings-cx4lx-25g.txt",
  };
  for (const char* path : others) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(looks_like_ethtool_channels(rk::test::corpus_body(path)));
  }
}

}  // namespace
}  // namespace rk::parse

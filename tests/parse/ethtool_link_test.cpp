#include "rocekit/parse/ethtool_link.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<EthtoolLink>> r = parse_ethtool_link(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_captures[] = {
    "ethtool_other/homelab-host01-ethtool-settings-cx4lx-25g.txt",
    "../hosts/homelab-host01-cx4lx-fw14.32/ethtool@enp1s0f0np0.txt",
};

TEST(EthtoolLinkGolden, AllCaptures) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    rk::test::check_golden(path, golden_json);
  }
}

TEST(EthtoolLink, HomelabCx4Lx25G) {
  std::string body =
      rk::test::corpus_body("../hosts/homelab-host01-cx4lx-fw14.32/ethtool@enp1s0f0np0.txt");
  EXPECT_TRUE(looks_like_ethtool_link(body));
  Result<Parsed<EthtoolLink>> r = parse_ethtool_link(body);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  const EthtoolLink& l = r->value;
  EXPECT_EQ(l.netdev, "enp1s0f0np0");
  ASSERT_TRUE(l.supported_ports.has_value());
  EXPECT_EQ(*l.supported_ports, std::vector<std::string>{"Backplane"});
  ASSERT_TRUE(l.supported_link_modes.has_value());
  EXPECT_EQ(l.supported_link_modes->size(), 5u);
  EXPECT_EQ(l.supported_link_modes->back(), "25000baseSR/Full");
  ASSERT_TRUE(l.supported_fec_modes.has_value());
  EXPECT_EQ(*l.supported_fec_modes, (std::vector<std::string>{"None", "RS", "BASER"}));
  ASSERT_TRUE(l.advertised_fec_modes.has_value());
  EXPECT_EQ(*l.advertised_fec_modes, std::vector<std::string>{"RS"});
  EXPECT_EQ(l.speed_mbps, 25000u);
  EXPECT_EQ(l.duplex, Duplex::full);
  EXPECT_EQ(l.autoneg, true);
  EXPECT_EQ(l.supports_autoneg, true);
  EXPECT_EQ(l.port, "Direct Attach Copper");
  EXPECT_EQ(l.phyad, 0u);
  EXPECT_EQ(l.transceiver, "internal");
  EXPECT_EQ(l.link_detected, true);
  EXPECT_EQ(l.partner_link_modes, std::nullopt);
  ASSERT_EQ(l.other.size(), 2u);
  EXPECT_EQ(l.other[0].first, "Supports Wake-on");
}

TEST(EthtoolLink, LinkDownNetlink) {
  Result<Parsed<EthtoolLink>> r = parse_ethtool_link(
      "Settings for ens6:\n\tSupported ports: [ FIBRE ]\n"
      "\tSupported link modes:   Not reported\n\tSpeed: Unknown!\n\tDuplex: Unknown! (255)\n"
      "\tAuto-negotiation: off\n\tLanes: 4\n\tPort: Other\n"
      "Cannot get wake-on-lan settings: Operation not permitted\n"
      "\tCurrent message level: 0x00000004 (4)\n\t\t\t       link\n"
      "\tLink detected: no (No cable)\n");
  ASSERT_TRUE(r.has_value());
  const EthtoolLink& l = r->value;
  EXPECT_EQ(l.speed_mbps, std::nullopt);
  EXPECT_EQ(l.duplex, Duplex::unknown);
  ASSERT_TRUE(l.supported_link_modes.has_value());
  EXPECT_TRUE(l.supported_link_modes->empty());
  EXPECT_EQ(l.lanes, 4u);
  EXPECT_EQ(l.link_detected, false);
  EXPECT_EQ(l.link_down_reason, "No cable");
  ASSERT_EQ(l.other.size(), 1u);
  EXPECT_EQ(l.other[0].second, "0x00000004 (4) link");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "tool_error");
  EXPECT_EQ(r->warnings[0].line, 9u);
}

TEST(EthtoolLink, EmptyAndForeignAreErrors) {
  EXPECT_FALSE(parse_ethtool_link("").has_value());
  EXPECT_FALSE(parse_ethtool_link("no colon anywhere\n").has_value());
}

TEST(EthtoolLink, Truncated) {
  Result<Parsed<EthtoolLink>> r = parse_ethtool_link(
      "Settings for ens6:\n\tSupported link modes:   1000baseKX/Full\n\t                        "
      "10000baseKR/Full\n\tSpeed: 100000Mb/s\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.speed_mbps, 100000u);
  ASSERT_TRUE(r->value.supported_link_modes.has_value());
  EXPECT_EQ(r->value.supported_link_modes->size(), 2u);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
}

TEST(EthtoolLink, GarbledLineNumber) {
  Result<Parsed<EthtoolLink>> r = parse_ethtool_link(
      "Settings for ens6:\n\tSpeed: fast\n\tDuplex: Full\n\tLink detected: yes\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "bad_value");
  EXPECT_EQ(r->warnings[0].line, 2u);
  Result<Parsed<EthtoolLink>> r2 =
      parse_ethtool_link("garbage first\nSettings for ens6:\n\tLink detected: yes\n");
  ASSERT_TRUE(r2.has_value());
  ASSERT_EQ(r2->warnings.size(), 1u);
  EXPECT_EQ(r2->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r2->warnings[0].line, 1u);
}

TEST(EthtoolLink, CrlfLineEndings) {
  Result<Parsed<EthtoolLink>> r = parse_ethtool_link(
      "Settings for ens6:\r\n\tSpeed: 200000Mb/s\r\n\tDuplex: Full\r\n\tLink detected: yes\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.netdev, "ens6");
  EXPECT_EQ(r->value.speed_mbps, 200000u);
  EXPECT_EQ(r->value.link_detected, true);
}

TEST(EthtoolLink, LooksLikeRejectsOtherTools) {
  const char* const others[] = {
      "ethtool_S/cn-notes-cx4lx-grep-discards.txt",
      "ethtool_c/cn-notes-cx4lx-eth03.txt",
      "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt",
      "ethtool_l/cn-notes-eth03-combined16.txt",
      "ethtool_other/homelab-host01-ethtool-g-cx4lx.txt",
  };
  for (const char* path : others) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(looks_like_ethtool_link(rk::test::corpus_body(path)));
  }
}

TEST(EthtoolLink, DuplexToString) {
  EXPECT_EQ(to_string(Duplex::full), "full");
  EXPECT_EQ(to_string(Duplex::half), "half");
  EXPECT_EQ(to_string(Duplex::unknown), "unknown");
}

}  // namespace
}  // namespace rk::parse

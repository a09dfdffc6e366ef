#include "rocekit/parse/ip_link.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_fn(std::string_view body) {
  auto r = parse_ip_link(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(IpLink, GoldenBriefAddressListing) {
  rk::test::check_golden("misc/do-ip-br-a-backend-link-local-only.txt", golden_fn);
}

TEST(IpLink, BriefFormRealValues) {
  auto r = parse_ip_link(rk::test::corpus_body("misc/do-ip-br-a-backend-link-local-only.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->value.brief);
  ASSERT_EQ(r->value.interfaces.size(), 16u);
  const IpLinkInterface& rail = r->value.interfaces[3];
  EXPECT_EQ(rail.name, "enp26s0np0");
  EXPECT_EQ(rail.state, "UP");
  ASSERT_EQ(rail.addresses.size(), 1u);
  EXPECT_EQ(rail.addresses[0], "fe80::ff:fe01:1/64");
  EXPECT_EQ(r->value.interfaces[1].state, "DOWN");
  EXPECT_TRUE(r->value.interfaces[1].addresses.empty());
  EXPECT_FALSE(rail.mtu_bytes.has_value());
  EXPECT_TRUE(r->warnings.empty());
}

// iproute2 6.x `ip -s -s link show dev ens6` (format from iproute2 ip/ipaddress.c).
constexpr std::string_view k_full =
    "4: ens6: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq state UP mode DEFAULT group "
    "default qlen 1000\n"
    "    link/ether 02:00:00:00:00:11 brd ff:ff:ff:ff:ff:ff\n"
    "    RX:  bytes packets errors dropped  missed   mcast           \n"
    "    918272635  1234567      0      12       0     345 \n"
    "    RX errors:  length    crc   frame    fifo overrun\n"
    "                     0      3       0       0       0 \n"
    "    TX:  bytes packets errors dropped carrier collsns           \n"
    "    71625348   765432      0       0       0       0 \n"
    "    TX errors: aborted   fifo window heartbt transns\n"
    "                     0      0      0       0       2 \n"
    "    altname enp59s0\n"
    "5: ens6.100@ens6: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN mode DEFAULT\n"
    "    link/ether 02:00:00:00:00:11 brd ff:ff:ff:ff:ff:ff\n";

TEST(IpLink, FullFormWithDoubleStatistics) {
  auto r = parse_ip_link(k_full);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.interfaces.size(), 2u);
  const IpLinkInterface& e = r->value.interfaces[0];
  EXPECT_EQ(e.name, "ens6");
  EXPECT_EQ(e.index, 4u);
  EXPECT_EQ(e.mtu_bytes, 9000u);
  EXPECT_EQ(e.state, "UP");
  EXPECT_EQ(e.mac, "02:00:00:00:00:11");
  EXPECT_EQ(e.flags.size(), 4u);
  EXPECT_EQ(e.stats.at("rx_bytes"), 918272635u);
  EXPECT_EQ(e.stats.at("rx_dropped"), 12u);
  EXPECT_EQ(e.stats.at("rx_crc"), 3u);
  EXPECT_EQ(e.stats.at("tx_packets"), 765432u);
  EXPECT_EQ(e.stats.at("tx_transns"), 2u);
  const IpLinkInterface& v = r->value.interfaces[1];
  EXPECT_EQ(v.name, "ens6.100");
  EXPECT_EQ(v.peer, "ens6");
  EXPECT_EQ(v.mtu_bytes, 1500u);
  EXPECT_EQ(v.state, "DOWN");
  EXPECT_TRUE(r->warnings.empty());
}

TEST(IpLink, ErrorsAndSniff) {
  EXPECT_FALSE(parse_ip_link("").has_value());
  EXPECT_FALSE(parse_ip_link("NIC statistics:\n     rx_packets: 1\n").has_value());
  EXPECT_TRUE(looks_like_ip_link(k_full));
  EXPECT_TRUE(looks_like_ip_link(rk::test::corpus_body("misc/do-ip-br-a-backend-link-local-only.txt")));
  EXPECT_FALSE(looks_like_ip_link(rk::test::corpus_body("mlnx_qos/netarbiter-eth4-dscp-pfc3.txt")));
  EXPECT_FALSE(looks_like_ip_link(rk::test::corpus_body("ethtool_S/ethq-fixture-mlx5-cx4lx-k4.15.txt")));
  auto r = parse_ip_link("4: eth0: <UP> mtu 1500 state UP\r\ngarbage line\r\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].line, 2u);
  EXPECT_EQ(r->value.interfaces[0].mtu_bytes, 1500u);
}

}  // namespace
}  // namespace rk::parse

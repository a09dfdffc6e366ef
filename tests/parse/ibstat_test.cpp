#include "rocekit/parse/ibstat.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<Ibstat>> r = parse_ibstat(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(IbstatGolden, AllCaptures) {
  rk::test::check_golden("misc/cn-blog-2019-ibstat-cx4lx-roce.txt", golden_json);
}

TEST(Ibstat, Cx4LxRoce) {
  Result<Parsed<Ibstat>> r =
      parse_ibstat(rk::test::corpus_body("misc/cn-blog-2019-ibstat-cx4lx-roce.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.cas.size(), 1u);
  const IbstatCa& ca = r->value.cas[0];
  EXPECT_EQ(ca.ca_name, "mlx5_0");
  EXPECT_EQ(ca.ca_type, "MT4117");
  EXPECT_EQ(ca.number_of_ports, 1u);
  EXPECT_EQ(ca.firmware_version, "14.23.1020");
  EXPECT_EQ(ca.node_guid, "0x0200000300000a01");
  ASSERT_EQ(ca.ports.size(), 1u);
  const IbstatPort& p = ca.ports[0];
  EXPECT_EQ(p.port, 1u);
  EXPECT_EQ(p.state, PortState::active);
  EXPECT_EQ(p.physical_state, PhysState::link_up);
  EXPECT_EQ(p.rate_gbps, 25.0);
  EXPECT_EQ(p.capability_mask, 0x04010000u);
  EXPECT_EQ(p.link_layer, LinkLayer::ethernet);
}

TEST(Ibstat, EmptyGarbledTruncatedCrlf) {
  EXPECT_FALSE(parse_ibstat("").has_value());
  Result<Parsed<Ibstat>> r = parse_ibstat(
      "CA 'mlx5_0'\r\n\tCA type: MT4117\r\n\tNumber of ports: 2\r\n\t???\r\n\tPort 1:\r\n"
      "\t\tState: Down\r\n\t\tPhysical state: Disabled\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.cas[0].ports[0].state, PortState::down);
  EXPECT_EQ(r->value.cas[0].ports[0].physical_state, PhysState::disabled);
  ASSERT_EQ(r->warnings.size(), 3u);
  EXPECT_EQ(r->warnings[0].line, 4u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[1].code, "truncated");
  EXPECT_EQ(r->warnings[2].code, "truncated");
}

TEST(Ibstat, LooksLike) {
  EXPECT_TRUE(looks_like_ibstat(rk::test::corpus_body("misc/cn-blog-2019-ibstat-cx4lx-roce.txt")));
  EXPECT_FALSE(
      looks_like_ibstat(rk::test::corpus_body("ibv_devinfo/cn-notes-cx4lx-4port-fw-mismatch.txt")));
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/rdma_link.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json link_json(std::string_view body) {
  Result<Parsed<RdmaLink>> r = parse_rdma_link(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

nlohmann::json res_json(std::string_view body) {
  Result<Parsed<RdmaRes>> r = parse_rdma_res(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(RdmaLinkGolden, AllCaptures) {
  rk::test::check_golden("gids/rdma-notes-rdma-link-irdma.txt", link_json);
  rk::test::check_golden("gids/cn-notes-rdma-link-index-form-6dev-one-ib.txt", link_json);
  rk::test::check_golden("gids/cn-notes-rdma-link-index-form-cx6dx-eth0-3.txt", link_json);
  rk::test::check_golden("misc/rdma-notes-rdma-res-show.txt", res_json);
}

TEST(RdmaLink, IrdmaOneDownOneUp) {
  Result<Parsed<RdmaLink>> r =
      parse_rdma_link(rk::test::corpus_body("gids/rdma-notes-rdma-link-irdma.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.ports.size(), 2u);
  EXPECT_EQ(r->value.ports[0].rdma_device, "irdma0");
  EXPECT_EQ(r->value.ports[0].port, 1u);
  EXPECT_EQ(r->value.ports[0].state, PortState::down);
  EXPECT_EQ(r->value.ports[0].physical_state, PhysState::disabled);
  EXPECT_EQ(r->value.ports[0].netdev, "enp23s0f0");
  EXPECT_EQ(r->value.ports[1].state, PortState::active);
  EXPECT_EQ(r->value.ports[1].physical_state, PhysState::link_up);
}

// The first iproute2 releases: "<dev index>/<port>: <dev>/<port>: ..." (rdma/link.c).
TEST(RdmaLink, DeviceIndexFormOfOlderIproute2) {
  Result<Parsed<RdmaLink>> r =
      parse_rdma_link(rk::test::corpus_body("gids/cn-notes-rdma-link-index-form-6dev-one-ib.txt"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.ports.size(), 6u);
  EXPECT_EQ(r->value.ports[0].rdma_device, "mlx5_0");
  EXPECT_EQ(r->value.ports[0].state, PortState::down);
  EXPECT_EQ(r->value.ports[3].rdma_device, "mlx5_5");
  EXPECT_EQ(r->value.ports[3].lid, 12u);
  EXPECT_EQ(r->value.ports[5].rdma_device, "mlx5_1");  // device index 16, as the kernel numbered it
  EXPECT_EQ(r->value.ports[5].netdev, std::nullopt);
  Result<Parsed<RdmaLink>> n =
      parse_rdma_link(rk::test::corpus_body("gids/cn-notes-rdma-link-index-form-cx6dx-eth0-3.txt"));
  ASSERT_TRUE(n.has_value());
  ASSERT_EQ(n->value.ports.size(), 4u);
  EXPECT_EQ(n->value.ports[2].netdev, "eth2");
  EXPECT_TRUE(looks_like_rdma_link(rk::test::corpus_body("gids/cn-notes-rdma-link-index-form-cx6dx-eth0-3.txt")));
  // `rdma res` ("0: mlx5_0: pd 2 ...") is not taken for it.
  EXPECT_FALSE(looks_like_rdma_link("0: mlx5_0: pd 2 cq 3 qp 1 cm_id 0 mr 0 ctx 0\n"));
}

TEST(RdmaLink, IbPortAndCaps) {
  Result<Parsed<RdmaLink>> r = parse_rdma_link(
      "link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 12 sm_lid 1 lmc 0 state ACTIVE "
      "physical_state LINK_UP caps <CM, IP_BASED_GIDS>\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.ports[0].lid, 12u);
  EXPECT_EQ(r->value.ports[0].attributes.at("caps"), "<CM, IP_BASED_GIDS>");
  EXPECT_EQ(r->value.ports[0].netdev, std::nullopt);
}

TEST(RdmaLink, EmptyGarbledTruncated) {
  EXPECT_FALSE(parse_rdma_link("").has_value());
  Result<Parsed<RdmaLink>> r =
      parse_rdma_link("link a/1 state ACTIVE\nxyz\nlink b/1 state DOWN physical_state\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 2u);
  EXPECT_EQ(r->warnings[1].code, "truncated");
  EXPECT_EQ(r->value.ports[1].state, PortState::down);
}

TEST(RdmaLink, LooksLike) {
  EXPECT_TRUE(looks_like_rdma_link(rk::test::corpus_body("gids/rdma-notes-rdma-link-irdma.txt")));
  EXPECT_FALSE(
      looks_like_rdma_link(rk::test::corpus_body("sysfs/cn-notes-rdma-statistic-show-4port.txt")));
  EXPECT_FALSE(looks_like_rdma_link(rk::test::corpus_body("misc/rdma-notes-rdma-res-show.txt")));
}

TEST(RdmaRes, Summary) {
  Result<Parsed<RdmaRes>> r =
      parse_rdma_res(rk::test::corpus_body("misc/rdma-notes-rdma-res-show.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.devices.size(), 2u);
  EXPECT_EQ(r->value.devices[1].index, 1u);
  EXPECT_EQ(r->value.devices[1].rdma_device, "mlx5_1");
  EXPECT_EQ(r->value.devices[1].counts.at("qp"), 65u);
  EXPECT_EQ(r->value.devices[0].counts.at("srq"), 2u);
}

TEST(RdmaRes, EmptyGarbledTruncatedCrlf) {
  EXPECT_FALSE(parse_rdma_res("").has_value());
  Result<Parsed<RdmaRes>> r =
      parse_rdma_res("0: mlx5_0: pd 2 cq 3\r\nbad\r\n1: mlx5_1: pd 3 cq\r\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].line, 2u);
  EXPECT_EQ(r->warnings[1].code, "truncated");
  EXPECT_EQ(r->value.devices[0].counts.at("cq"), 3u);
}

TEST(RdmaRes, LooksLike) {
  EXPECT_TRUE(looks_like_rdma_res(rk::test::corpus_body("misc/rdma-notes-rdma-res-show.txt")));
  EXPECT_FALSE(looks_like_rdma_res(rk::test::corpus_body("gids/rdma-notes-rdma-link-irdma.txt")));
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/rdma_statistic.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<RdmaStatistic>> r = parse_rdma_statistic(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(RdmaStatisticGolden, AllCaptures) {
  rk::test::check_golden("sysfs/cn-notes-rdma-statistic-show-4port.txt", golden_json);
  rk::test::check_golden("../hosts/cx4lx-4port-fw-mismatch/rdma_statistic.txt", golden_json);
}

TEST(RdmaStatistic, FourPorts) {
  Result<Parsed<RdmaStatistic>> r =
      parse_rdma_statistic(rk::test::corpus_body("sysfs/cn-notes-rdma-statistic-show-4port.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.ports.size(), 4u);
  const RdmaStatisticPort& p = r->value.ports[0];
  EXPECT_EQ(p.rdma_device, "mlx5_0");
  EXPECT_EQ(p.port, 1u);
  EXPECT_EQ(p.counters.size(), 29u);
  EXPECT_EQ(p.counters.at("out_of_buffer"), 135u);
  EXPECT_EQ(p.counters.at("resp_cqe_error"), 1009u);
  EXPECT_EQ(p.counters.at("req_cqe_error"), 22u);
  EXPECT_EQ(r->value.ports[3].rdma_device, "mlx5_3");
  EXPECT_EQ(r->value.ports[3].counters.at("out_of_buffer"), 0u);
}

TEST(RdmaStatistic, EmptyGarbledTruncatedCrlf) {
  EXPECT_FALSE(parse_rdma_statistic("").has_value());
  Result<Parsed<RdmaStatistic>> r = parse_rdma_statistic(
      "link mlx5_0/1 out_of_buffer 18446744073709551615 qp-type RC\r\n??\r\n"
      "link mlx5_1/1 out_of_buffer 1 np_cnp_sent\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.ports[0].counters.at("out_of_buffer"), 18446744073709551615ULL);
  EXPECT_EQ(r->value.ports[0].attributes.at("qp-type"), "RC");
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].line, 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[1].code, "truncated");
}

TEST(RdmaStatistic, LooksLike) {
  EXPECT_TRUE(looks_like_rdma_statistic(
      rk::test::corpus_body("sysfs/cn-notes-rdma-statistic-show-4port.txt")));
  EXPECT_FALSE(
      looks_like_rdma_statistic(rk::test::corpus_body("gids/rdma-notes-rdma-link-irdma.txt")));
  EXPECT_FALSE(looks_like_rdma_statistic(
      rk::test::corpus_body("sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt")));
}

}  // namespace
}  // namespace rk::parse

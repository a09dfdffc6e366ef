#include "rocekit/parse/show_counters.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<ShowCounters>> r = parse_show_counters(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_files[] = {
    "sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt",
    "sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt",
    "../hosts/cx4lx-4port-fw-mismatch/show_counters@mlx5_0.txt",
};

TEST(ShowCountersGolden, AllCaptures) {
  for (const char* f : k_files) rk::test::check_golden(f, golden_json);
}

TEST(ShowCounters, Cx4LxCompletionErrors) {
  Result<Parsed<ShowCounters>> r =
      parse_show_counters(rk::test::corpus_body("sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.ports.size(), 1u);
  EXPECT_EQ(r->value.ports[0].port, 1u);
  EXPECT_EQ(r->value.ports[0].hw_counters.size(), 30u);
  EXPECT_EQ(r->value.ports[0].hw_counters.at("out_of_buffer"), 135u);
  EXPECT_EQ(r->value.ports[0].hw_counters.at("resp_cqe_error"), 1009u);
  EXPECT_TRUE(r->value.ports[0].counters.empty());
}

TEST(ShowCounters, BondCongested) {
  Result<Parsed<ShowCounters>> r = parse_show_counters(
      rk::test::corpus_body("sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt"));
  ASSERT_TRUE(r.has_value());
  const auto& hw = r->value.ports.at(0).hw_counters;
  EXPECT_EQ(hw.at("np_ecn_marked_roce_packets"), 21278189006u);
  EXPECT_EQ(hw.at("np_cnp_sent"), 1052612505u);
  EXPECT_EQ(hw.at("rp_cnp_handled"), 0u);
  EXPECT_EQ(hw.at("out_of_sequence"), 1811101u);
}

TEST(ShowCounters, EmptyGarbledTruncatedCrlf) {
  EXPECT_FALSE(parse_show_counters("").has_value());
  EXPECT_FALSE(parse_show_counters("foo: 1\n").has_value());
  Result<Parsed<ShowCounters>> r = parse_show_counters(
      "Port 1 hw counters:\r\nnp_cnp_sent: 5\r\n@@\r\nPort 1 counters:\r\nport_rcv_data: 7\r\n"
      "port_xmit_data:\r\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.ports.size(), 1u);
  EXPECT_EQ(r->value.ports[0].hw_counters.at("np_cnp_sent"), 5u);
  EXPECT_EQ(r->value.ports[0].counters.at("port_rcv_data"), 7u);
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[1].code, "truncated");
}

TEST(ShowCounters, LooksLike) {
  for (const char* f : k_files) {
    EXPECT_TRUE(looks_like_show_counters(rk::test::corpus_body(f))) << f;
  }
  EXPECT_FALSE(looks_like_show_counters(
      rk::test::corpus_body("sysfs/cn-notes-rdma-statistic-show-4port.txt")));
  EXPECT_FALSE(
      looks_like_show_counters(rk::test::corpus_body("misc/cn-blog-2019-ibstat-cx4lx-roce.txt")));
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/cma_roce_mode.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

constexpr const char* k_file = "misc/cn-blog-2019-cma_roce_mode-default-v1.txt";

TEST(CmaRoceModeGolden, Corpus) {
  rk::test::check_golden(k_file, [](std::string_view body) -> nlohmann::json {
    auto r = parse_cma_roce_mode(body);
    if (!r) return {{"error", r.error().message}};
    return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
  });
}

TEST(CmaRoceMode, TranscriptDefaultV1ThenSetV2) {
  auto r = parse_cma_roce_mode(rk::test::corpus_body(k_file));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.readings.size(), 3u);
  EXPECT_EQ(r->value.readings[0].rdma_device, "mlx5_0");
  EXPECT_EQ(r->value.readings[0].port, 1u);
  EXPECT_EQ(r->value.readings[0].mode, CmRoceMode::v1);
  EXPECT_EQ(r->value.readings[1].set_mode, 2u);
  EXPECT_EQ(r->value.initial_mode, CmRoceMode::v1);
  EXPECT_EQ(r->value.final_mode, CmRoceMode::v2);
}

TEST(CmaRoceMode, BareOutputAndErrors) {
  auto r = parse_cma_roce_mode("RoCE v2\r\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value.final_mode, CmRoceMode::v2);
  EXPECT_FALSE(r->value.readings[0].rdma_device);
  EXPECT_FALSE(parse_cma_roce_mode(""));
  EXPECT_FALSE(parse_cma_roce_mode("hello world\n"));
  auto e = parse_cma_roce_mode("Module rdma_cm is not loaded or does not support configfs\n");
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->value.final_mode);
  EXPECT_EQ(e->value.errors.size(), 1u);
  auto g = parse_cma_roce_mode("RoCE v2\n%%garbled\n");
  ASSERT_TRUE(g);
  ASSERT_EQ(g->warnings.size(), 1u);
  EXPECT_EQ(g->warnings[0].line, 2u);
}

TEST(CmaRoceMode, LooksLike) {
  EXPECT_TRUE(looks_like_cma_roce_mode(rk::test::corpus_body(k_file)));
  EXPECT_FALSE(looks_like_cma_roce_mode(rk::test::corpus_body("mlnx_qos/netarbiter-eth4-dscp-pfc3.txt")));
  EXPECT_FALSE(looks_like_cma_roce_mode(rk::test::corpus_body("misc/cn-blog-2019-ibstat-cx4lx-roce.txt")));
}

}  // namespace
}  // namespace rk::parse

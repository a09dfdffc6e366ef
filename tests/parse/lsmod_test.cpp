#include "rocekit/parse/lsmod.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

constexpr const char* k_file = "misc/do-nccl-lsmod-grep-nvid-peermem.txt";

TEST(LsmodGolden, Corpus) {
  rk::test::check_golden(k_file, [](std::string_view body) -> nlohmann::json {
    auto r = parse_lsmod(body);
    if (!r) return {{"error", r.error().message}};
    return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
  });
}

TEST(Lsmod, PeermemLoadedAndUsedByIbUverbs) {
  auto r = parse_lsmod(rk::test::corpus_body(k_file));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_FALSE(r->value.header_shown);
  ASSERT_EQ(r->value.modules.size(), 7u);
  EXPECT_TRUE(has_module(r->value, "nvidia_peermem"));
  EXPECT_FALSE(has_module(r->value, "mlx5_core"));
  const LsmodModule& ib = r->value.modules[2];
  EXPECT_EQ(ib.name, "ib_uverbs");
  EXPECT_EQ(ib.size_bytes, 200704u);
  EXPECT_EQ(ib.use_count, 3u);
  EXPECT_EQ(ib.used_by, (std::vector<std::string>{"nvidia_peermem", "rdma_ucm", "mlx5_ib"}));
  EXPECT_EQ(r->value.modules[5].use_count, 63u);
}

TEST(Lsmod, HeaderCrlfGarbledEmpty) {
  auto r = parse_lsmod("Module                  Size  Used by\r\nmlx5_ib  401408  0\r\n?? x\r\n");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->value.header_shown);
  ASSERT_EQ(r->value.modules.size(), 1u);
  EXPECT_EQ(r->value.modules[0].name, "mlx5_ib");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_FALSE(parse_lsmod(""));
  EXPECT_FALSE(parse_lsmod("RoCE v2\n"));
}

TEST(Lsmod, LooksLike) {
  EXPECT_TRUE(looks_like_lsmod(rk::test::corpus_body(k_file)));
  for (const char* other : {"mlnx_qos/netarbiter-eth4-dscp-pfc3.txt",
                            "misc/cn-blog-2019-cma_roce_mode-default-v1.txt",
                            "misc/do-ip-br-a-backend-link-local-only.txt",
                            "sysfs/cn-notes-ls-hw_counters-mlx5_bond_0.txt"}) {
    EXPECT_FALSE(looks_like_lsmod(rk::test::corpus_body(other))) << other;
  }
}

}  // namespace
}  // namespace rk::parse

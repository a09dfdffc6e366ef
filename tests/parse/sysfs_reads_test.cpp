#include "rocekit/parse/sysfs_reads.hpp"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

template <class F>
nlohmann::json as_json(F parse, std::string_view body) {
  auto r = parse(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

constexpr const char* k_ls_counters = "sysfs/cn-notes-ls-counters-mlx5_bond_0.txt";
constexpr const char* k_ls_hw = "sysfs/cn-notes-ls-hw_counters-mlx5_bond_0.txt";
constexpr const char* k_tc = "sysfs/cn-notes-tc1-traffic_class-after-set.txt";

TEST(SysfsReadsGolden, Corpus) {
  rk::test::check_golden(k_ls_counters, [](std::string_view b) {
    return as_json(parse_sysfs_counters, b);
  });
  rk::test::check_golden(k_ls_hw, [](std::string_view b) {
    return as_json(parse_sysfs_hw_counters, b);
  });
  rk::test::check_golden(k_tc, [](std::string_view b) {
    return as_json(parse_sysfs_traffic_class, b);
  });
}

TEST(SysfsReads, LsListingGivesNamesWithoutValues) {
  auto r = parse_sysfs_hw_counters(rk::test::corpus_body(k_ls_hw));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.sets.size(), 1u);
  const SysfsCounterSet& s = r->value.sets[0];
  EXPECT_FALSE(s.rdma_device);
  EXPECT_EQ(s.counters.size(), 30u);
  ASSERT_TRUE(s.counters.count("np_cnp_sent"));
  EXPECT_FALSE(s.counters.at("np_cnp_sent"));
  EXPECT_TRUE(s.counters.count("lifespan"));
  EXPECT_TRUE(s.counters.count("rx_icrc_encapsulated"));

  auto c = parse_sysfs_counters(rk::test::corpus_body(k_ls_counters));
  ASSERT_TRUE(c);
  ASSERT_EQ(c->value.sets.size(), 1u);
  EXPECT_EQ(c->value.sets[0].counters.size(), 21u);
  EXPECT_TRUE(c->value.sets[0].counters.count("VL15_dropped"));
}

TEST(SysfsReads, TrafficClassCat) {
  auto r = parse_sysfs_traffic_class(rk::test::corpus_body(k_tc));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value.traffic_class, 106u);
  EXPECT_EQ(r->value.dscp, 26u);
  EXPECT_EQ(r->value.ecn_bits, 2u);
  EXPECT_FALSE(r->value.rdma_device);
}

TEST(SysfsReads, TrafficClassGrepForm) {
  auto r = parse_sysfs_traffic_class("/sys/class/infiniband/mlx5_2/tc/1/traffic_class:Global tclass=104\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value.rdma_device, "mlx5_2");
  EXPECT_EQ(r->value.port, 1u);
  EXPECT_EQ(r->value.traffic_class, 104u);
  EXPECT_EQ(r->value.dscp, 26u);
  EXPECT_EQ(r->value.ecn_bits, 0u);
  // A path listed without content (e.g. `ls`) means the file exists but nothing was read.
  auto e = parse_sysfs_traffic_class("/sys/class/infiniband/mlx5_2/tc/1/traffic_class\n");
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->value.traffic_class);
}

TEST(SysfsReads, GrepEcnForm) {
  std::string t =
      "/sys/class/net/ens6/ecn/roce_np/enable/3:1\n"
      "/sys/class/net/ens6/ecn/roce_np/enable/0:0\n"
      "/sys/class/net/ens6/ecn/roce_rp/enable/3:1\n"
      "/sys/class/net/ens6/ecn/roce_np/cnp_dscp:48\n"
      "/sys/class/net/ens6/ecn/roce_np/cnp_802p_prio:6\n"
      "/sys/class/net/ens6/ecn/roce_rp/rpg_time_reset:300\n"
      "/sys/class/net/ens7/ecn/roce_rp/enable/5:0\n"
      "/sys/class/net/ens7/ecn/roce_np/some_param:a:b\n";
  auto r = parse_sysfs_ecn(t);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty()) << warnings_to_json(r->warnings).dump();
  ASSERT_EQ(r->value.netdevs.size(), 2u);
  const SysfsEcnNetdev& n = r->value.netdevs[0];
  EXPECT_EQ(n.netdev, "ens6");
  EXPECT_EQ(n.np_enabled[3], true);
  EXPECT_EQ(n.np_enabled[0], false);
  EXPECT_EQ(n.rp_enabled[3], true);
  EXPECT_FALSE(n.rp_enabled[0]);  // not read: nullopt, not "off"
  EXPECT_EQ(n.np_params.at("cnp_dscp"), "48");
  EXPECT_EQ(n.np_params.at("cnp_802p_prio"), "6");
  EXPECT_EQ(n.rp_params.at("rpg_time_reset"), "300");
  EXPECT_EQ(r->value.netdevs[1].rp_enabled[5], false);
  EXPECT_EQ(r->value.netdevs[1].np_params.at("some_param"), "a:b");  // value keeps its colons
  EXPECT_TRUE(looks_like_sysfs_ecn(t));
}

TEST(SysfsReads, GrepHwCountersForm) {
  std::string t =
      "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:1234\r\n"
      "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rp_cnp_handled:99\r\n"
      "/sys/class/infiniband/mlx5_1/ports/1/hw_counters/out_of_sequence:18446744073709551615\r\n"
      "/sys/class/infiniband/mlx5_1/ports/1/hw_counters/lifespan:x\r\n";
  auto r = parse_sysfs_hw_counters(t);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->value.sets.size(), 2u);
  EXPECT_EQ(r->value.sets[0].rdma_device, "mlx5_0");
  EXPECT_EQ(r->value.sets[0].port, 1u);
  EXPECT_EQ(r->value.sets[0].kind, "hw_counters");
  EXPECT_EQ(r->value.sets[0].counters.at("np_cnp_sent"), 1234u);
  EXPECT_EQ(r->value.sets[1].counters.at("out_of_sequence"), 18446744073709551615ULL);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "bad_number");
  EXPECT_EQ(r->warnings[0].line, 4u);
  EXPECT_TRUE(looks_like_sysfs_hw_counters(t));
  EXPECT_FALSE(looks_like_sysfs_counters(t));
}

TEST(SysfsReads, ErrorsAndGarbledLines) {
  EXPECT_FALSE(parse_sysfs_reads(""));
  EXPECT_FALSE(parse_sysfs_ecn(""));
  EXPECT_FALSE(parse_sysfs_hw_counters("\n \n"));
  EXPECT_FALSE(parse_sysfs_traffic_class(""));
  EXPECT_FALSE(parse_sysfs_ecn(rk::test::corpus_body(k_ls_hw)));
  auto r = parse_sysfs_reads("/a/b:1\nthis is not a sysfs line\n/a/c:2\n");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].line, 2u);
  EXPECT_EQ(r->value.entries.size(), 2u);
}

TEST(SysfsReads, LooksLike) {
  EXPECT_TRUE(looks_like_sysfs_hw_counters(rk::test::corpus_body(k_ls_hw)));
  EXPECT_TRUE(looks_like_sysfs_counters(rk::test::corpus_body(k_ls_counters)));
  EXPECT_FALSE(looks_like_sysfs_hw_counters(rk::test::corpus_body(k_ls_counters)));
  EXPECT_FALSE(looks_like_sysfs_counters(rk::test::corpus_body(k_ls_hw)));
  EXPECT_TRUE(looks_like_sysfs_traffic_class(rk::test::corpus_body(k_tc)));
  for (const char* other : {"sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt",
                            "sysfs/cn-notes-rdma-statistic-show-4port.txt",
                            "mlnx_qos/netarbiter-eth4-dscp-pfc3.txt",
                            "misc/aerial-21-4-cubb-system-checks-a100-cx6dx.txt"}) {
    std::string b = rk::test::corpus_body(other);
    EXPECT_FALSE(looks_like_sysfs_hw_counters(b)) << other;
    EXPECT_FALSE(looks_like_sysfs_counters(b)) << other;
    EXPECT_FALSE(looks_like_sysfs_ecn(b)) << other;
    EXPECT_FALSE(looks_like_sysfs_traffic_class(b)) << other;
  }
}

}  // namespace
}  // namespace rk::parse

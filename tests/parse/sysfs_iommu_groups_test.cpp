#include "rocekit/parse/sysfs_iommu_groups.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

constexpr const char* k_arch = "sysfs_iommu_groups/arch-vfio-notes-find-intel-15-groups.txt";
constexpr const char* k_pve = "sysfs_iommu_groups/pve-notes-find-unsorted-gt710-group13.txt";
constexpr const char* k_pl = "sysfs_iommu_groups/pl-notes-find-amd-r7-260x-group2.txt";
constexpr const char* k_osx = "sysfs_iommu_groups/osx-kvm-notes-list-iommu-groups-skylake-rx570.txt";
constexpr const char* k_matisse = "sysfs_iommu_groups/macos-kvm-notes-ls-iommu-amd-matisse-25-groups.txt";
constexpr const char* k_coffee = "sysfs_iommu_groups/cn-blog-pve-homelab-ls-iommu-coffee-lake.txt";
constexpr const char* k_types = "sysfs_iommu_groups/qemu-devel-virtio-iommu-guest-cat-type-dma.txt";

nlohmann::json wrap(std::string_view body) {
  auto r = parse_sysfs_iommu_groups(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(SysfsIommuGroupsGolden, Corpus) {
  for (const char* f : {k_arch, k_pve, k_pl, k_osx, k_matisse, k_coffee, k_types}) rk::test::check_golden(f, wrap);
}

TEST(SysfsIommuGroups, FindListingsGiveEachGroupItsMembers) {
  auto r = parse_sysfs_iommu_groups(rk::test::corpus_body(k_arch));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.groups.size(), 15u);
  const IommuGroupListing* g = group_of(r->value, "0000:01:00.1");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->number, 1u);
  EXPECT_EQ(g->devices, (std::vector<std::string>{"0000:00:01.0", "0000:01:00.0", "0000:01:00.1"}));
  EXPECT_EQ(g->line, 2u);
  EXPECT_FALSE(g->type);  // find alone does not show the type
  EXPECT_EQ(group_of(r->value, "0000:05:00.0")->number, 9u);
  EXPECT_EQ(group_of(r->value, "0000:41:00.0"), nullptr);
  // find walks the directory unsorted: groups come out by number.
  auto u = parse_sysfs_iommu_groups(rk::test::corpus_body(k_pve));
  ASSERT_TRUE(u);
  ASSERT_EQ(u->value.groups.size(), 14u);
  EXPECT_EQ(u->value.groups.front().number, 0u);
  EXPECT_EQ(u->value.groups.front().line, 18u);
  EXPECT_EQ(group_of(u->value, "0000:05:00.0")->devices, (std::vector<std::string>{"0000:05:00.1", "0000:05:00.0"}));
  auto pl = parse_sysfs_iommu_groups(rk::test::corpus_body(k_pl));
  ASSERT_TRUE(pl);
  EXPECT_EQ(group_of(pl->value, "0000:01:00.0")->number, 2u);
  EXPECT_EQ(group_of(pl->value, "0000:00:18.5")->number, 10u);
}

TEST(SysfsIommuGroups, LsIommuLoopListings) {
  auto r = parse_sysfs_iommu_groups(rk::test::corpus_body(k_matisse));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.groups.size(), 25u);
  EXPECT_EQ(r->value.groups[15].devices.size(), 10u);
  EXPECT_EQ(group_of(r->value, "0000:0a:00.0")->number, 18u);  // lspci -nns has no domain: 0000
  auto osx = parse_sysfs_iommu_groups(rk::test::corpus_body(k_osx));
  ASSERT_TRUE(osx);
  ASSERT_EQ(osx->value.groups.size(), 2u);
  EXPECT_EQ(osx->value.groups[1].devices, (std::vector<std::string>{"0000:00:01.0", "0000:01:00.0", "0000:01:00.1"}));
  auto c = parse_sysfs_iommu_groups(rk::test::corpus_body(k_coffee));
  ASSERT_TRUE(c);
  EXPECT_EQ(group_of(c->value, "0000:00:1f.6")->number, 7u);
  EXPECT_EQ(group_of(c->value, "0000:00:1f.6")->devices.size(), 5u);
}

TEST(SysfsIommuGroups, TypesTaggedAndUntagged) {
  auto t = parse_sysfs_iommu_groups(rk::test::corpus_body(k_types));
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->value.groups.empty());
  EXPECT_EQ(t->value.untagged_types, std::vector<std::string>(6, "DMA"));
  EXPECT_EQ(t->value.untagged_first_line, 1u);
  // rocekit-capture's form: find, then grep -H of the type files (under a sysroot prefix).
  auto r = parse_sysfs_iommu_groups(
      "/tmp/root/sys/kernel/iommu_groups/7/devices/0000:40:00.0\n"
      "/tmp/root/sys/kernel/iommu_groups/7/devices/0000:43:00.0\n"
      "/tmp/root/sys/kernel/iommu_groups/12/devices/AMDI0096:00\n"
      "/tmp/root/sys/kernel/iommu_groups/7/type:DMA-FQ\n"
      "/tmp/root/sys/kernel/iommu_groups/12/type:identity\n"
      "/tmp/root/sys/kernel/iommu_groups/13/type:translated\n"
      "grep: /tmp/root/sys/kernel/iommu_groups/14/type: Permission denied\n");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->value.groups.size(), 3u);
  EXPECT_EQ(r->value.groups[0].type, "DMA-FQ");
  EXPECT_EQ(r->value.groups[0].type_line, 4u);
  EXPECT_EQ(r->value.groups[0].devices, (std::vector<std::string>{"0000:40:00.0", "0000:43:00.0"}));
  EXPECT_TRUE(r->value.groups[1].devices.empty());  // a platform device is a member, not a PCI function
  EXPECT_EQ(r->value.groups[1].type, "identity");
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].line, 6u);
  EXPECT_EQ(r->warnings[0].code, "unknown_type");
  EXPECT_EQ(r->warnings[1].line, 7u);
  EXPECT_EQ(r->warnings[1].code, "unrecognised_line");
}

TEST(SysfsIommuGroups, EmptyIsNoGroupAndGarbageIsAnError) {
  auto e = parse_sysfs_iommu_groups("");
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->value.groups.empty());
  EXPECT_TRUE(e->value.untagged_types.empty());
  auto bad = parse_sysfs_iommu_groups("Priority trust state: dscp\nfoo\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("no IOMMU group line"), std::string::npos);
  EXPECT_FALSE(parse_sysfs_iommu_groups("IOMMU Group x:\n"));
}

TEST(SysfsIommuGroups, LooksLike) {
  for (const char* f : {k_arch, k_pve, k_pl, k_osx, k_matisse, k_coffee})
    EXPECT_TRUE(looks_like_sysfs_iommu_groups(rk::test::corpus_body(f))) << f;
  // Bare type lines are too plain to tell: a file of them needs its name.
  EXPECT_FALSE(looks_like_sysfs_iommu_groups(rk::test::corpus_body(k_types)));
  for (const char* other : {"dmesg/osx-kvm-notes-dmesg-iommu-passthrough-skylake.txt",
                            "proc_cmdline/rccl1129-mi100-ubuntu-5.15-iommu-pt.txt", "lspci/homelab-host01-cx4lx-dell-x8.txt"})
    EXPECT_FALSE(looks_like_sysfs_iommu_groups(rk::test::corpus_body(other))) << other;
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/dmesg.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

constexpr const char* k_limited = "dmesg/jiegec-cx5-nfs-rdma-pcie-x8-limited.txt";
constexpr const char* k_full = "dmesg/netdev-2021-cx5-probe-failed-5.10.65.txt";
constexpr const char* k_aer = "dmesg/linux-perf-notes-nvme-aer-corrected.txt";
constexpr const char* k_pt = "dmesg/osx-kvm-notes-dmesg-iommu-passthrough-skylake.txt";
constexpr const char* k_amd = "dmesg/cn-looking-glass-amd-renoir-dmesg-iommu-pt.txt";
constexpr const char* k_translated = "dmesg/cn-notes-virtme-6.6.41-dmesg-iommu-translated-lazy.txt";

nlohmann::json wrap(std::string_view body) {
  auto r = parse_dmesg(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(DmesgGolden, Corpus) {
  for (const char* f : {k_limited, k_full, k_aer, k_pt, k_amd, k_translated}) rk::test::check_golden(f, wrap);
}

// drivers/iommu/iommu.c: "iommu: Default domain type: %s", iommu_group_add_device()'s "Adding to
// iommu group %d"; init/main.c's "Kernel command line: ".
TEST(Dmesg, IommuDefaultDomainGroupsAndCommandLine) {
  auto pt = parse_dmesg(rk::test::corpus_body(k_pt));
  ASSERT_TRUE(pt);
  ASSERT_TRUE(pt->value.iommu_default_domain);
  EXPECT_EQ(pt->value.iommu_default_domain->type, "Passthrough");
  EXPECT_TRUE(pt->value.iommu_default_domain->set_via_cmdline);
  EXPECT_EQ(pt->value.iommu_default_domain->line, 3u);
  ASSERT_EQ(pt->value.iommu_groups.size(), 4u);
  EXPECT_EQ(pt->value.iommu_groups[3].device, "0000:00:14.0");
  EXPECT_EQ(pt->value.iommu_groups[3].group, 3u);
  EXPECT_EQ(pt->value.iommu_groups[3].line, 7u);
  EXPECT_FALSE(pt->value.cmdline);
  auto amd = parse_dmesg(rk::test::corpus_body(k_amd));
  ASSERT_TRUE(amd);
  ASSERT_TRUE(amd->value.cmdline);
  EXPECT_EQ(amd->value.cmdline->line, 2u);  // "Kernel command line:", not x86's early "Command line:"
  EXPECT_EQ(amd->value.cmdline->iommu.parameters, (std::vector<std::string>{"amd_iommu=on", "iommu=pt"}));
  EXPECT_EQ(amd->value.cmdline->iommu.mode, "passthrough");
  EXPECT_EQ(amd->value.iommu_default_domain->type, "Passthrough");
  EXPECT_EQ(amd->value.iommu_groups.size(), 4u);
  EXPECT_TRUE(amd->warnings.empty());
  auto tr = parse_dmesg(rk::test::corpus_body(k_translated));
  ASSERT_TRUE(tr);  // no "<driver> <BDF>:" line at all: the IOMMU line is enough
  EXPECT_EQ(tr->value.kernel_lines, 0u);
  ASSERT_TRUE(tr->value.iommu_default_domain);
  EXPECT_EQ(tr->value.iommu_default_domain->type, "Translated");
  EXPECT_FALSE(tr->value.iommu_default_domain->set_via_cmdline);
  EXPECT_EQ(tr->value.iommu_default_domain->line, 6u);
  // Older kernels print "%s %s": a trailing space; a syslog prefix.
  auto old = parse_dmesg("May 27 15:47:45 host kernel: iommu: Default domain type: Translated \n");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->value.iommu_default_domain->type, "Translated");
  EXPECT_FALSE(parse_dmesg("iommu: Default domain type: \n"));
}

TEST(Dmesg, LimitedLinkWithItsBdfSpeedWidthAndCapability) {
  auto r = parse_dmesg(rk::test::corpus_body(k_limited));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.firmware.size(), 1u);
  EXPECT_EQ(r->value.firmware[0].device, "0001:43:00.0");
  EXPECT_EQ(r->value.firmware[0].driver, "mlx5_core");
  EXPECT_EQ(r->value.firmware[0].version, "16.35.4030");
  EXPECT_EQ(r->value.firmware[0].line, 1u);
  ASSERT_EQ(r->value.pcie_bandwidth.size(), 1u);
  const DmesgPcieBandwidth& b = r->value.pcie_bandwidth[0];
  EXPECT_EQ(b.device, "0001:43:00.0");
  EXPECT_TRUE(b.limited);
  EXPECT_DOUBLE_EQ(b.available_gbps, 63.008);
  EXPECT_EQ(b.available.speed_gts, 8.0);
  EXPECT_EQ(b.available.width_lanes, 8);
  EXPECT_EQ(b.limited_at, std::optional<std::string>("0001:42:01.0"));
  EXPECT_EQ(b.capable_gbps, 126.016);
  EXPECT_EQ(b.capable.speed_gts, 8.0);
  EXPECT_EQ(b.capable.width_lanes, 16);
  EXPECT_EQ(b.line, 2u);
  EXPECT_EQ(r->value.kernel_lines, 6u);
}

TEST(Dmesg, FullBandwidthOnBothFunctions) {
  auto r = parse_dmesg(rk::test::corpus_body(k_full));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->value.pcie_bandwidth.size(), 2u);
  EXPECT_FALSE(r->value.pcie_bandwidth[1].limited);
  EXPECT_EQ(r->value.pcie_bandwidth[1].device, "0000:41:00.1");
  EXPECT_EQ(r->value.pcie_bandwidth[1].capable.width_lanes, 16);
  EXPECT_EQ(r->value.pcie_bandwidth[1].available.speed_gts, 8.0);
  ASSERT_EQ(r->value.firmware.size(), 2u);
  EXPECT_EQ(r->value.firmware[1].version, "16.31.1014");
}

TEST(Dmesg, AerLines) {
  auto r = parse_dmesg(rk::test::corpus_body(k_aer));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->value.aer.size(), 4u);
  EXPECT_EQ(r->value.aer[0].device, "0000:00:1d.0");
  EXPECT_EQ(r->value.aer[0].source, std::optional<std::string>("0000:02:00.0"));
  EXPECT_EQ(r->value.aer[0].severity, std::optional<std::string>("Corrected"));
  EXPECT_EQ(r->value.aer[1].device, "0000:02:00.0");
  EXPECT_EQ(r->value.aer[1].type, std::optional<std::string>("Physical Layer"));
  EXPECT_TRUE(r->value.pcie_bandwidth.empty());
}

TEST(Dmesg, PrefixesFlitModeUnknownSpeedAndBadInput) {
  auto r = parse_dmesg(
      "May 27 15:47:45 host kernel: mlx5_core 0000:81:00.0: firmware version: 16.35.2000\n"
      "[Sun Dec  1 14:54:40 2024] mlx5_core 0000:81:00.0: 252.048 Gb/s available PCIe bandwidth, "
      "limited by Unknown x8 link at <unknown> (capable of 504.112 Gb/s with 32.0 GT/s PCIe x16 "
      "link), in Flit mode\n"
      "mlx5_core 0000:82:00.0: 12 Gb/s available PCIe bandwidth, limited by nonsense\n");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->value.firmware.size(), 1u);
  ASSERT_EQ(r->value.pcie_bandwidth.size(), 1u);
  EXPECT_FALSE(r->value.pcie_bandwidth[0].available.speed_gts);
  EXPECT_EQ(r->value.pcie_bandwidth[0].available.width_lanes, 8);
  EXPECT_FALSE(r->value.pcie_bandwidth[0].limited_at);
  EXPECT_EQ(r->value.pcie_bandwidth[0].capable.speed_gts, 32.0);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_EQ(r->warnings[0].code, "bad_bandwidth_line");
  EXPECT_FALSE(parse_dmesg(""));
  EXPECT_FALSE(parse_dmesg("Priority trust state: dscp\n"));
}

TEST(Dmesg, LooksLike) {
  for (const char* f : {k_limited, k_full, k_aer, k_pt, k_amd, k_translated})
    EXPECT_TRUE(looks_like_dmesg(rk::test::corpus_body(f))) << f;
  for (const char* other : {"mlnx_qos/netarbiter-eth4-dscp-pfc3.txt", "misc/do-nccl-lsmod-grep-nvid-peermem.txt",
                            "lspci/homelab-host01-cx4lx-dell-x8.txt", "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt"})
    EXPECT_FALSE(looks_like_dmesg(rk::test::corpus_body(other))) << other;
}

}  // namespace
}  // namespace rk::parse

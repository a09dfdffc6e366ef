#include "rocekit/parse/proc_cmdline.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

constexpr const char* k_pt = "proc_cmdline/rccl1129-mi100-ubuntu-5.15-iommu-pt.txt";
constexpr const char* k_force = "proc_cmdline/linux-hardening-intel-iommu-on-iommu-force.txt";
constexpr const char* k_coreos = "proc_cmdline/coreos-sosreport-rhcos-4.18-no-iommu-parameter.txt";
constexpr const char* k_vm = "proc_cmdline/libsystemctlm-soc-ubuntu2004-vm-intel-iommu-on.txt";
constexpr const char* k_azure = "proc_cmdline/azure-6.8-cloud-vm-no-iommu-parameter.txt";
constexpr const char* k_tdx = "proc_cmdline/cn-notes-tdx-host-6.16.9-no-iommu-parameter.txt";

nlohmann::json wrap(std::string_view body) {
  auto r = parse_proc_cmdline(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(ProcCmdlineGolden, Corpus) {
  for (const char* f : {k_pt, k_force, k_coreos, k_vm, k_azure, k_tdx}) rk::test::check_golden(f, wrap);
}

TEST(ProcCmdline, RealCommandLinesGiveTheirIommuMode) {
  auto pt = parse_proc_cmdline(rk::test::corpus_body(k_pt));
  ASSERT_TRUE(pt);
  EXPECT_TRUE(pt->warnings.empty());
  EXPECT_EQ(pt->value.line, 1u);
  EXPECT_EQ(pt->value.iommu.parameters, std::vector<std::string>{"iommu=pt"});
  EXPECT_EQ(pt->value.iommu.mode, "passthrough");
  EXPECT_EQ(pt->value.iommu.why, "iommu=pt (DMA bypasses the IOMMU by default)");
  auto force = parse_proc_cmdline(rk::test::corpus_body(k_force));
  ASSERT_TRUE(force);
  EXPECT_EQ(force->value.iommu.parameters, (std::vector<std::string>{"intel_iommu=on", "iommu=force"}));
  EXPECT_EQ(force->value.iommu.mode, "translated");
  auto vm = parse_proc_cmdline(rk::test::corpus_body(k_vm));
  ASSERT_TRUE(vm);
  EXPECT_EQ(vm->value.iommu.mode, "translated");
  for (const char* f : {k_coreos, k_azure, k_tdx}) {
    auto r = parse_proc_cmdline(rk::test::corpus_body(f));
    ASSERT_TRUE(r) << f;
    EXPECT_TRUE(r->value.iommu.parameters.empty()) << f;
    EXPECT_FALSE(r->value.iommu.mode) << f;  // the kernel's build default decides
  }
}

// kernel-parameters.txt: later parameters of a kind override earlier ones; "off" disables the
// IOMMU whatever else; amd_iommu has no "on"; iommu.passthrough takes kstrtobool values.
TEST(ProcCmdline, ParameterPrecedence) {
  EXPECT_EQ(iommu_from_cmdline("iommu=pt iommu=nopt").mode, "translated");
  EXPECT_EQ(iommu_from_cmdline("iommu.passthrough=0 iommu=pt").mode, "passthrough");
  EXPECT_EQ(iommu_from_cmdline("iommu.passthrough=1").mode, "passthrough");
  EXPECT_EQ(iommu_from_cmdline("iommu.passthrough=N").mode, "translated");
  EXPECT_EQ(iommu_from_cmdline("intel_iommu=on iommu=pt").mode, "passthrough");
  EXPECT_EQ(iommu_from_cmdline("intel_iommu=on,sm_on").mode, "translated");
  EXPECT_EQ(iommu_from_cmdline("iommu=pt intel_iommu=off").mode, "off");
  EXPECT_EQ(iommu_from_cmdline("amd_iommu=off").why, "amd_iommu=off (no IOMMU driver runs: DMA is not translated)");
  EXPECT_FALSE(iommu_from_cmdline("amd_iommu=on").mode);
  EXPECT_EQ(iommu_from_cmdline("amd_iommu=on").parameters, std::vector<std::string>{"amd_iommu=on"});
  EXPECT_EQ(iommu_from_cmdline("iommu.strict=1").parameters, std::vector<std::string>{"iommu.strict=1"});
  EXPECT_FALSE(iommu_from_cmdline("iommu.strict=1").mode);
  EXPECT_FALSE(iommu_from_cmdline("iommu.passthrough=maybe").mode);
  EXPECT_FALSE(iommu_from_cmdline("").mode);
}

TEST(ProcCmdline, BadInputIsAnErrorNamingTheLine) {
  auto two = parse_proc_cmdline("ro quiet\nsplash\n");
  ASSERT_FALSE(two);
  EXPECT_EQ(two.error().message, "line 2: a second line: /proc/cmdline is one line (`cat /proc/cmdline`)");
  EXPECT_FALSE(parse_proc_cmdline(""));
  EXPECT_FALSE(parse_proc_cmdline("\n  \n"));
}

TEST(ProcCmdline, LooksLike) {
  for (const char* f : {k_pt, k_force, k_coreos, k_vm, k_azure, k_tdx})
    EXPECT_TRUE(looks_like_proc_cmdline(rk::test::corpus_body(f))) << f;
  for (const char* other : {"uname/warp-ik-gh200-uname-a-nvidia-64k-aarch64.txt", "dmesg/jiegec-cx5-nfs-rdma-pcie-x8-limited.txt",
                            "dmesg/cn-looking-glass-amd-renoir-dmesg-iommu-pt.txt",
                            "sysfs_iommu_groups/arch-vfio-notes-find-intel-15-groups.txt"})
    EXPECT_FALSE(looks_like_proc_cmdline(rk::test::corpus_body(other))) << other;
  EXPECT_FALSE(looks_like_proc_cmdline("Priority trust state: dscp\n"));
}

}  // namespace
}  // namespace rk::parse

// The IOMMU facts from capture files, and pcie.iommu-ats on them: the mode from /proc/cmdline and
// dmesg (dmesg wins: it is what the kernel did), each function's group from lspci's "IOMMU group:"
// line with its type from sysfs_iommu_groups, and ATSCtl of the NIC and the GPU from lspci -vvv.
// Topology: the real nvidia-smi topo of an Aerial A100 + ConnectX-6 Dx host (GPU0 PIX mlx5_0);
// the lspci blocks are hand-written in pciutils' layout (lspci.c show_verbose(), ls-ecaps.c
// cap_ats()) for that host's functions.
#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

std::string lspci(bool nic_ats) {
  return std::string(
             "0000:b5:00.0 Ethernet controller [0200]: Mellanox Technologies MT2892 Family [ConnectX-6 Dx] [15b3:101d]\n"
             "\tSubsystem: Mellanox Technologies Device [15b3:0016]\n"
             "\tControl: I/O- Mem+ BusMaster+ SpecCycle- MemWINV- VGASnoop- ParErr- Stepping- SERR- FastB2B- DisINTx+\n"
             "\tNUMA node: 0\n"
             "\tIOMMU group: 21\n"
             "\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
             "\t\tDevCtl:\tCorrErr- NonFatalErr+ FatalErr+ UnsupReq+\n"
             "\t\t\tRlxdOrd+ ExtTag+ PhantFunc- AuxPwr- NoSnoop+ FLReset-\n"
             "\t\t\tMaxPayload 256 bytes, MaxReadReq 4096 bytes\n"
             "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported\n"
             "\t\tLnkSta:\tSpeed 16GT/s, Width x16\n"
             "\tCapabilities: [480 v1] Address Translation Service (ATS)\n"
             "\t\tATSCap:\tInvalidate Queue Depth: 00\n"
             "\t\tATSCtl:\tEnable") +
         (nic_ats ? "+" : "-") +
         ", Smallest Translation Unit: 00\n"
         "\tKernel driver in use: mlx5_core\n"
         "\n"
         "0000:b6:00.0 3D controller [0302]: NVIDIA Corporation GA100 [A100 PCIe 40GB] [10de:20f1] (rev a1)\n"
         "\tControl: I/O- Mem+ BusMaster+ SpecCycle- MemWINV- VGASnoop- ParErr- Stepping- SERR- FastB2B- DisINTx+\n"
         "\tNUMA node: 0\n"
         "\tIOMMU group: 22\n"
         "\tCapabilities: [68] Express (v2) Endpoint, MSI 00\n"
         "\t\tDevCtl:\tCorrErr- NonFatalErr+ FatalErr+ UnsupReq-\n"
         "\t\t\tRlxdOrd+ ExtTag+ PhantFunc- AuxPwr- NoSnoop+ FLReset-\n"
         "\t\t\tMaxPayload 256 bytes, MaxReadReq 512 bytes\n"
         "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported\n"
         "\t\tLnkSta:\tSpeed 16GT/s, Width x16\n"
         "\tCapabilities: [bb0 v1] Address Translation Service (ATS)\n"
         "\t\tATSCap:\tInvalidate Queue Depth: 00\n"
         "\t\tATSCtl:\tEnable+, Smallest Translation Unit: 00\n"
         "\tKernel driver in use: nvidia\n";
}

CaptureSet capture(bool nic_ats, std::vector<CaptureFile> more) {
  CaptureSet set;
  set.origin = "mem";
  set.files.push_back({"nvidia_smi_topo.txt",
                       test::read_file(test::testdata_dir() / "corpus" / "nvidia_smi_topo" / "aerial-21-4-a100-cx6dx-pix.txt"), ""});
  set.files.push_back({"lspci_vvv@tree.txt", lspci(nic_ats), ""});
  set.files.push_back({"sysfs_ib_links.txt",
                       "lrwxrwxrwx 1 root root 0 Dec  2 15:10 mlx5_0 -> ../../devices/pci0000:b4/0000:b4:00.0/0000:b5:00.0/infiniband/mlx5_0\n"
                       "lrwxrwxrwx 1 root root 0 Dec  2 15:10 mlx5_1 -> ../../devices/pci0000:b4/0000:b4:00.0/0000:b5:00.1/infiniband/mlx5_1\n",
                       ""});
  for (CaptureFile& f : more) set.files.push_back(std::move(f));
  return set;
}

CaptureFile corpus(const std::string& name, const std::string& rel) {
  return {name, test::read_file(test::testdata_dir() / "corpus" / rel), ""};
}

const Finding& pair_finding(const rules::Report& r) {
  for (const Finding& f : r.findings)
    if (f.subject == "gpu0 <-> mlx5_0") return f;
  throw std::runtime_error("no gpu0 <-> mlx5_0 finding");
}

TEST(CaptureIommu, CmdlineTranslatesAndNicWithoutAtsFails) {
  Snapshot s = snapshot_from_capture(
      capture(false, {corpus("proc_cmdline.txt", "proc_cmdline/libsystemctlm-soc-ubuntu2004-vm-intel-iommu-on.txt")}));
  ASSERT_TRUE(s.iommu.has_value()) << s.iommu.reason;
  EXPECT_EQ(s.iommu->mode, "translated");
  EXPECT_EQ(s.iommu->decided_by, "kernel command line");
  EXPECT_EQ(s.iommu->parameters, std::vector<std::string>{"intel_iommu=on"});
  EXPECT_EQ(s.iommu.source.file, "proc_cmdline.txt");
  EXPECT_EQ(s.iommu.source.line, 4u);
  const PciFunction* nic = s.find_pci("0000:b5:00.0");
  ASSERT_NE(nic, nullptr);
  ASSERT_TRUE(nic->ats_enabled.has_value()) << nic->ats_enabled.reason;
  EXPECT_FALSE(*nic->ats_enabled);
  EXPECT_EQ(nic->ats_enabled.source.line, 14u);
  EXPECT_EQ(nic->ats_enabled.source.text, "ATSCtl:\tEnable-, Smallest Translation Unit: 00");
  ASSERT_TRUE(nic->iommu_group.has_value()) << nic->iommu_group.reason;
  EXPECT_EQ(nic->iommu_group->number, 21);
  EXPECT_FALSE(nic->iommu_group->type);
  ASSERT_TRUE(s.gpus.has_value());
  const Gpu& g = s.gpus->front();
  EXPECT_EQ(g.bdf, "0000:b6:00.0");
  EXPECT_EQ(g.ats_enabled.value, std::optional<bool>(true));
  EXPECT_EQ(g.iommu_group.value->number, 22);
  rules::Report r = rules::evaluate(s, default_policy(), {"pcie.iommu-ats"});
  const Finding& f = pair_finding(r);
  EXPECT_EQ(f.outcome, Outcome::fail) << f.message;
  EXPECT_NE(f.message.find("(IOMMU group 21, type not in the input; the host's IOMMU is in translated mode (kernel command line))"),
            std::string::npos) << f.message;
  EXPECT_NE(f.message.find("ATS is off on mlx5_0 (0000:b5:00.0) (ATSCtl Enable-)"), std::string::npos) << f.message;
  ASSERT_EQ(f.evidence.size(), 2u);
  EXPECT_EQ(f.evidence[0].file, "proc_cmdline.txt");
  EXPECT_EQ(f.evidence[1].file, "lspci_vvv@tree.txt");
  EXPECT_EQ(f.evidence[1].line, 14u);
  EXPECT_EQ(f.remediation.commands.front(), "mstconfig -y -d 0000:b5:00.0 set ATS_ENABLED=1");
}

TEST(CaptureIommu, DmesgWinsOverTheCommandLine) {
  Snapshot s = snapshot_from_capture(
      capture(false, {corpus("proc_cmdline.txt", "proc_cmdline/libsystemctlm-soc-ubuntu2004-vm-intel-iommu-on.txt"),
                      corpus("dmesg.txt", "dmesg/osx-kvm-notes-dmesg-iommu-passthrough-skylake.txt")}));
  ASSERT_TRUE(s.iommu.has_value());
  EXPECT_EQ(s.iommu->mode, "passthrough");
  EXPECT_EQ(s.iommu->decided_by, "dmesg");
  EXPECT_EQ(s.iommu.source.file, "dmesg.txt");
  EXPECT_EQ(s.iommu.source.text, "[    0.330654] iommu: Default domain type: Passthrough (set via kernel command line)");
  rules::Report r = rules::evaluate(s, default_policy(), {"pcie.iommu-ats"});
  const Finding& f = pair_finding(r);
  EXPECT_EQ(f.outcome, Outcome::pass) << f.message;
  EXPECT_NE(f.message.find("the host's IOMMU is in passthrough mode (dmesg)"), std::string::npos) << f.message;
}

TEST(CaptureIommu, GroupTypeIsTheMostDirectEvidence) {
  // Passthrough host, but the NIC's group was switched to a translated domain at runtime.
  Snapshot s = snapshot_from_capture(
      capture(false, {corpus("dmesg.txt", "dmesg/osx-kvm-notes-dmesg-iommu-passthrough-skylake.txt"),
                      {"sysfs_iommu_groups.txt",
                       "/sys/kernel/iommu_groups/21/devices/0000:b5:00.0\n/sys/kernel/iommu_groups/21/type:DMA-FQ\n"
                       "/sys/kernel/iommu_groups/22/devices/0000:b6:00.0\n/sys/kernel/iommu_groups/22/type:identity\n",
                       ""}}));
  const PciFunction* nic = s.find_pci("0000:b5:00.0");
  ASSERT_TRUE(nic->iommu_group.has_value());
  EXPECT_EQ(nic->iommu_group->type, "DMA-FQ");
  EXPECT_EQ(nic->iommu_group.source.file, "sysfs_iommu_groups.txt");
  EXPECT_EQ(nic->iommu_group.source.line, 2u);
  EXPECT_EQ(s.gpus->front().iommu_group.value->type, "identity");
  rules::Report r = rules::evaluate(s, default_policy(), {"pcie.iommu-ats"});
  const Finding& f = pair_finding(r);
  EXPECT_EQ(f.outcome, Outcome::fail) << f.message;
  EXPECT_NE(f.message.find("IOMMU group 21 has type DMA-FQ (translated)"), std::string::npos) << f.message;
  EXPECT_EQ(f.evidence[0].text, "/sys/kernel/iommu_groups/21/type:DMA-FQ");
}

TEST(CaptureIommu, NoIommuFactsIsUnknownNamingTheFiles) {
  Snapshot s = snapshot_from_capture(capture(true, {}));
  EXPECT_FALSE(s.iommu.has_value());
  EXPECT_NE(s.iommu.reason.find("proc_cmdline.txt"), std::string::npos) << s.iommu.reason;
  const PciFunction* nic = s.find_pci("0000:b5:00.0");
  EXPECT_EQ(nic->ats_enabled.value, std::optional<bool>(true));
  rules::Report r = rules::evaluate(s, default_policy(), {"pcie.iommu-ats"});
  const Finding& f = pair_finding(r);
  EXPECT_EQ(f.outcome, Outcome::unknown) << f.message;
  EXPECT_NE(f.message.find("dmesg.txt"), std::string::npos) << f.message;
  // An empty groups listing: no IOMMU runs, whatever the command line says.
  Snapshot none = snapshot_from_capture(
      capture(false, {corpus("proc_cmdline.txt", "proc_cmdline/libsystemctlm-soc-ubuntu2004-vm-intel-iommu-on.txt"),
                      {"sysfs_iommu_groups.txt", "# source: rocekit-capture\n# notes: exit status 0\n# ---\n", ""}}));
  ASSERT_TRUE(none.iommu.has_value()) << none.iommu.reason;
  EXPECT_EQ(none.iommu->mode, "off");
  EXPECT_EQ(none.iommu->decided_by, "iommu groups");
  rules::Report rn = rules::evaluate(none, default_policy(), {"pcie.iommu-ats"});
  EXPECT_EQ(pair_finding(rn).outcome, Outcome::pass);
}

}  // namespace
}  // namespace rk::capture

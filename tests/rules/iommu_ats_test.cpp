// pcie.iommu-ats (rules/path_rules.cpp) on hand-built snapshots: gpu0 (0000:03:00.0) and mlx5_0
// (0000:04:00.0, a ConnectX-7 PF) under one PCIe switch (PIX). Translation decides by the NIC's
// IOMMU group type, else the host's IOMMU mode; ATS of the NIC and of the GPU then decides.
#include <gtest/gtest.h>

#include "host_cases.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::testcases {
namespace {

struct Pair {
  std::optional<std::string> host_mode = "translated";       ///< nullopt: iommu not in the input
  std::optional<std::string> nic_group_type = std::nullopt;   ///< nullopt: no group in the input
  std::optional<bool> nic_ats = true;                         ///< nullopt: not readable (needs root)
  std::optional<bool> gpu_ats = true;
  bool nic_has_ats = true;                                    ///< false: no ATS capability
  std::string relation = "PIX";
};

Snapshot pair(const Pair& p) {
  Snapshot s;
  Gpu g;
  g.index = 0;
  g.bdf = "0000:03:00.0";
  g.nics.push_back(GpuNicLink{"mlx5_0", p.relation, {"topo.txt", 2, "hand-built"}});
  if (p.gpu_ats) {
    g.ats_enabled.value = *p.gpu_ats;
    g.ats_enabled.source = {"lspci_vvv@tree.txt", 90, std::string("ATSCtl:\tEnable") + (*p.gpu_ats ? "+" : "-")};
  } else {
    g.ats_enabled.set_missing("lspci ran without root: Capabilities <access denied>", ReasonKind::needs_root);
  }
  s.gpus.value = std::vector<Gpu>{g};
  s.rdma("mlx5_0").bdf = "0000:04:00.0";
  PciFunction& f = s.pci("0000:04:00.0");
  f.vendor_id = 0x15b3;
  f.device_id = 0x1021;
  if (!p.nic_has_ats) {
    f.ats_enabled.set_missing("no Address Translation Service (ATS) capability in lspci -vvv", ReasonKind::not_applicable);
  } else if (p.nic_ats) {
    f.ats_enabled.value = *p.nic_ats;
    f.ats_enabled.source = {"lspci_vvv@tree.txt", 40, std::string("ATSCtl:\tEnable") + (*p.nic_ats ? "+" : "-")};
  } else {
    f.ats_enabled.set_missing("lspci ran without root: Capabilities <access denied> (save `lspci -vvv -D` as root)",
                              ReasonKind::needs_root);
  }
  if (p.nic_group_type) {
    f.iommu_group.value = IommuGroup{41, *p.nic_group_type};
    f.iommu_group.source = {"sysfs_iommu_groups.txt", 12, "/sys/kernel/iommu_groups/41/type:" + *p.nic_group_type};
  }
  if (p.host_mode) {
    s.iommu.value = IommuState{*p.host_mode, "dmesg", {}};
    s.iommu.source = {"dmesg.txt", 3, "iommu: Default domain type: hand-built"};
  } else {
    s.iommu.set_missing("not captured: the IOMMU mode comes from dmesg's \"iommu: Default domain type:\" line "
                        "(save `dmesg` as dmesg.txt, as root) or `cat /proc/cmdline` (proc_cmdline.txt)",
                        ReasonKind::not_captured);
  }
  return s;
}

std::vector<Finding> run(const Pair& p) { return rules::evaluate(pair(p), default_policy(), {"pcie.iommu-ats"}).findings; }

const Cases k_cases{
    host_case("pcie.iommu-ats", Outcome::pass, "gpu0 <-> mlx5_0", "the IOMMU does not translate mlx5_0 (0000:04:00.0)'s DMA",
              [] { return pair({.host_mode = "passthrough", .nic_ats = false}); }),
    host_case("pcie.iommu-ats", Outcome::fail, "gpu0 <-> mlx5_0", "ATS is off on mlx5_0 (0000:04:00.0) (ATSCtl Enable-)",
              [] { return pair({.nic_ats = false}); }),
    host_case("pcie.iommu-ats", Outcome::unknown, "gpu0 <-> mlx5_0", "whether the IOMMU translates mlx5_0 (0000:04:00.0)'s DMA is not known",
              [] { return pair({.host_mode = std::nullopt}); }),
    host_case("pcie.iommu-ats", Outcome::not_applicable, "gpu0", "no NIC shares a PCIe switch with gpu0",
              [] { return pair({.nic_ats = false, .relation = "SYS"}); }),
};

TEST(IommuAts, PassthroughPassesWhateverAts) {
  std::vector<Finding> f = run({.host_mode = "passthrough", .nic_ats = false, .gpu_ats = false});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].outcome, Outcome::pass);
  EXPECT_EQ(f[0].message,
            "the IOMMU does not translate mlx5_0 (0000:04:00.0)'s DMA (the host's IOMMU is in passthrough mode (dmesg)): "
            "its peer-to-peer requests to gpu0 (0000:03:00.0) need no translation at the root complex");
  ASSERT_EQ(f[0].evidence.size(), 1u);
  EXPECT_EQ(f[0].evidence[0].file, "dmesg.txt");
  // The group's type is more direct than the host mode: identity passes under a translating host.
  f = run({.nic_group_type = "identity", .nic_ats = false});
  EXPECT_EQ(f[0].outcome, Outcome::pass);
  EXPECT_NE(f[0].message.find("IOMMU group 41 has type identity (passthrough)"), std::string::npos) << f[0].message;
  EXPECT_EQ(f[0].evidence[0].text, "/sys/kernel/iommu_groups/41/type:identity");
  EXPECT_EQ(run({.host_mode = "off", .nic_ats = false})[0].outcome, Outcome::pass);
  // In no IOMMU group at all (no iommu_group link): not translated, whatever the host mode.
  Snapshot s = pair({.nic_ats = false});
  s.pci_functions.front().iommu_group.set_missing("/sys/bus/pci/devices/0000:04:00.0/iommu_group not present",
                                                  ReasonKind::not_applicable);
  f = rules::evaluate(s, default_policy(), {"pcie.iommu-ats"}).findings;
  EXPECT_EQ(f[0].outcome, Outcome::pass);
  EXPECT_NE(f[0].message.find("(it is in no IOMMU group)"), std::string::npos) << f[0].message;
}

TEST(IommuAts, AtsOnBothPasses) {
  std::vector<Finding> f = run({.nic_group_type = "DMA-FQ"});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].outcome, Outcome::pass);
  EXPECT_EQ(f[0].message,
            "the IOMMU translates mlx5_0 (0000:04:00.0)'s DMA (IOMMU group 41 has type DMA-FQ (translated)), and ATS is "
            "enabled on mlx5_0 (0000:04:00.0) and gpu0 (0000:03:00.0) (ATSCtl Enable+): they cache translations and "
            "send translated requests the switch routes directly");
  EXPECT_EQ(f[0].evidence.size(), 3u);
}

TEST(IommuAts, TranslatedWithoutAtsFailsWithTheFixAndItsCost) {
  std::vector<Finding> f = run({.nic_group_type = "DMA", .nic_ats = false});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].outcome, Outcome::fail);
  EXPECT_EQ(f[0].severity, Severity::warning);
  EXPECT_EQ(f[0].message,
            "the IOMMU translates mlx5_0 (0000:04:00.0)'s DMA (IOMMU group 41 has type DMA (translated)) and ATS is off "
            "on mlx5_0 (0000:04:00.0) (ATSCtl Enable-): every peer-to-peer request between gpu0 (0000:03:00.0) and "
            "mlx5_0 goes up to the root complex to be translated instead of across the switch");
  ASSERT_EQ(f[0].evidence.size(), 2u);
  EXPECT_EQ(f[0].evidence[0].text, "/sys/kernel/iommu_groups/41/type:DMA");
  EXPECT_EQ(f[0].evidence[1].text, "ATSCtl:\tEnable-");
  const Remediation& r = f[0].remediation;
  ASSERT_EQ(r.commands.size(), 2u);
  EXPECT_EQ(r.commands[0], "mstconfig -y -d 0000:04:00.0 set ATS_ENABLED=1");
  EXPECT_EQ(r.commands[1], "mstfwreset -d 0000:04:00.0 -y reset");
  EXPECT_EQ(r.checks[0], "mstconfig -d 0000:04:00.0 query ATS_ENABLED");
  EXPECT_EQ(r.checks[1], "lspci -vvv -s 0000:04:00.0 | grep ATSCtl");
  EXPECT_EQ(r.checks[2], "cat /sys/kernel/iommu_groups/41/type");
  EXPECT_EQ(r.scope, FixScope::firmware_reboot);
  for (const char* cost : {"iommu=pt", "iommu.passthrough=1", "no longer isolated", "trusts the NIC"})
    EXPECT_NE(r.notes.find(cost), std::string::npos) << cost;
  // No ATS capability at all: ATS_ENABLED is the fix too (the firmware then offers it).
  f = run({.nic_has_ats = false});
  EXPECT_EQ(f[0].outcome, Outcome::fail);
  EXPECT_NE(f[0].message.find("mlx5_0 (0000:04:00.0) has no ATS capability"), std::string::npos) << f[0].message;
  // The GPU's side: its own requests to the NIC are translated at the root complex too; no mstconfig.
  f = run({.gpu_ats = false});
  EXPECT_EQ(f[0].outcome, Outcome::fail);
  EXPECT_NE(f[0].message.find("ATS is off on gpu0 (0000:03:00.0) (ATSCtl Enable-)"), std::string::npos) << f[0].message;
  EXPECT_TRUE(f[0].remediation.commands.empty());
}

TEST(IommuAts, MissingFactsAreUnknownWithTheFileToSave) {
  std::vector<Finding> f = run({.host_mode = std::nullopt});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].outcome, Outcome::unknown);
  EXPECT_EQ(f[0].reason_kind, ReasonKind::not_captured);
  EXPECT_NE(f[0].message.find("proc_cmdline.txt"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("dmesg.txt"), std::string::npos) << f[0].message;
  // A group without its type, and no host mode: still unknown.
  EXPECT_EQ(run({.host_mode = std::nullopt, .nic_group_type = "blocked"})[0].outcome, Outcome::unknown);
  f = run({.nic_ats = std::nullopt});
  EXPECT_EQ(f[0].outcome, Outcome::unknown);
  EXPECT_EQ(f[0].reason_kind, ReasonKind::needs_root);
  EXPECT_NE(f[0].message.find("ATS of mlx5_0 (0000:04:00.0) is not known: lspci ran without root"), std::string::npos)
      << f[0].message;
  EXPECT_NE(f[0].message.find("`lspci -vvv -D` as root"), std::string::npos) << f[0].message;
  // NIC ATS off is a failure even when the GPU's is not known.
  EXPECT_EQ(run({.nic_ats = false, .gpu_ats = std::nullopt})[0].outcome, Outcome::fail);
}

}  // namespace
}  // namespace rk::testcases

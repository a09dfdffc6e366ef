// "Costs live" (issue 22): an Arm-side capture with the machine's memory, doca-hugepages'
// reservations and the DOCA services' static pods, judged by dpu.service-resources and shown in
// the check report. The doca-hugepages output is real (mlnx-tools' tool run against a scratch
// configuration, testdata/corpus/doca_hugepages); the meminfo/hugepage lines are those of a
// 32 GB BlueField-3 Arm (16 cores), written in the `grep -H` form rocekit-capture saves.
#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/render/render.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

// A static pod with the asks NVIDIA documents for SNAP (BlueField-3 SNAP 4.5.0 "SNAP Memory
// Consumption": requests memory 4Gi, limits hugepages-2Mi 4Gi; DPF's SNAP template: cpu 8).
constexpr const char* k_snap_pod =
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: snap\nspec:\n  containers:\n  - name: snap\n"
    "    resources:\n      requests:\n        cpu: \"8\"\n        memory: \"4Gi\"\n      limits:\n"
    "        hugepages-2Mi: \"4Gi\"\n";

std::string memory(int pages) {
  std::string n = std::to_string(pages);
  return "/proc/meminfo:MemTotal:       32505856 kB\n"
         "/proc/meminfo:MemAvailable:   20112396 kB\n"
         "/sys/devices/system/node/node0/cpulist:0-15\n"
         "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages:" + n + "\n"
         "/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages:" + n + "\n";
}

CaptureSet arm_capture(int pages) {
  CaptureSet set;
  set.files.push_back({"uname.txt", "5.15.0-1035-bluefield\n", ""});
  set.files.push_back({"host_resources.txt", memory(pages), ""});
  set.files.push_back({"doca_hugepages.txt",
                       test::read_file(test::testdata_dir() / "corpus" / "doca_hugepages" /
                                       "mlnx-tools-doca-hugepages-show-active-ovs-doca-snap.txt"),
                       ""});
  set.files.push_back({"kubelet_pod@doca_snap.txt", k_snap_pod, ""});
  return set;
}

const Finding* resources(const rules::Report& r) {
  for (const Finding& f : r.findings)
    if (f.rule == "dpu.service-resources") return &f;
  return nullptr;
}

TEST(DpuResources, SnapDoesNotFitTheBfbDefaultHugepages) {
  Snapshot s = snapshot_from_capture(arm_capture(512));
  ASSERT_TRUE(s.memory.has_value()) << s.memory.reason;
  EXPECT_EQ(s.memory->total_kib, 32505856u);
  ASSERT_EQ(s.memory->hugepages.size(), 1u);
  EXPECT_EQ(s.memory->hugepages[0].total, 512u);
  EXPECT_EQ(s.memory.source.file, "host_resources.txt");
  EXPECT_EQ(*s.numa_cpu_count, (std::map<int, int>{{0, 16}}));
  ASSERT_TRUE(s.static_pods.has_value());
  ASSERT_EQ(s.static_pods->size(), 1u);
  EXPECT_EQ(s.static_pods->front().file, "/etc/kubelet.d/doca_snap.yaml");
  EXPECT_EQ(s.static_pods->front().source.file, "kubelet_pod@doca_snap.txt");
  EXPECT_EQ(s.static_pods->front().source.line, 7u);
  ASSERT_TRUE(s.doca_hugepages.has_value());
  ASSERT_EQ(s.doca_hugepages->size(), 2u);
  EXPECT_EQ((*s.doca_hugepages)[1].app, "ovs-doca (default)");

  rules::Report r = rules::evaluate(s, default_policy(), {"dpu.service-resources"});
  const Finding* f = resources(r);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->outcome, Outcome::fail);
  EXPECT_NE(f->message.find("the pods ask 4 GiB of 2 MiB hugepages (snap 4 GiB) but the Arm reserves 1 GiB"),
            std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("16 Arm cores online, MemTotal 31 GiB, hugepages 512 x 2 MiB (1 GiB, 512 free)"),
            std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("doca-hugepages: snap 2048 x 2 MiB (active), ovs-doca (default) 512 x 2 MiB (active)"),
            std::string::npos)
      << f->message;
  EXPECT_NE(f->remediation.notes.find("doca-hugepages config --app"), std::string::npos);
}

TEST(DpuResources, FittingServicesAreShownUnderTheArmSideLine) {
  Snapshot s = snapshot_from_capture(arm_capture(2560));
  rules::Report r = rules::evaluate(s, default_policy(), {});
  const Finding* f = resources(r);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->outcome, Outcome::pass) << f->message;
  std::string text = render::report_text(s, r, render::Options{});
  EXPECT_NE(text.find("DOCA services on the Arm side: the DOCA services fit: 16 Arm cores online, MemTotal 31 GiB, "
                      "hugepages 2560 x 2 MiB (5 GiB, 2560 free)"),
            std::string::npos)
      << text;
  // The sections survive the snapshot JSON.
  Result<Snapshot> back = snapshot_from_json(snapshot_to_json(s));
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_TRUE(back->static_pods.has_value());
  EXPECT_EQ(back->static_pods->front().hugepages_bytes.at("hugepages-2Mi"), 4ull << 30);
  EXPECT_EQ(back->memory->hugepages[0].page_kib, 2048u);
}

// A manifest that cannot be read is not "not captured": the rule is unknown, and the YAML error's
// line is the file's (after the capture header).
TEST(DpuResources, UnreadableManifestMakesTheRuleUnknown) {
  CaptureSet set = arm_capture(2560);
  set.files.push_back({"kubelet_pod@broken.txt",
                       "# source: cat /etc/kubelet.d/broken.yaml\n# notes: test\n# ---\napiVersion: v1\nkind: Pod\n"
                       "spec: {containers: [unclosed\n",
                       ""});
  Snapshot s = snapshot_from_capture(set);
  ASSERT_TRUE(s.static_pods.has_value());
  ASSERT_EQ(s.static_pods.notes.size(), 1u);
  EXPECT_NE(s.static_pods.notes[0].find("kubelet_pod@broken.txt: line 7"), std::string::npos) << s.static_pods.notes[0];
  rules::Report r = rules::evaluate(s, default_policy(), {"dpu.service-resources"});
  ASSERT_NE(resources(r), nullptr);
  EXPECT_EQ(resources(r)->outcome, Outcome::unknown);
  EXPECT_NE(resources(r)->message.find("the DOCA services' asks are not all known: not read: kubelet_pod@broken.txt"),
            std::string::npos)
      << resources(r)->message;
  // Alone, it is the section's reason (unreadable), not "not captured".
  CaptureSet only;
  only.files.push_back(set.files.back());
  Snapshot o = snapshot_from_capture(only);
  EXPECT_EQ(o.static_pods.reason_kind, ReasonKind::unreadable);
  EXPECT_NE(o.static_pods.reason.find("could not be read"), std::string::npos) << o.static_pods.reason;
}

// select's assumption: the card's description tells a BlueField-3 SuperNIC from a DPU (both are
// PCI device ID 0xa2dc); the description is the real one of a B3140H (Red Hat H200 post).
TEST(DpuResources, CatalogAssumptionFromTheCardsDescription) {
  CaptureSet set = arm_capture(2560);
  Snapshot s = snapshot_from_capture(set);
  PciFunction& p = s.pci("0000:03:00.0");
  p.device_id = 0xa2dc;
  rules::Report ambiguous = rules::evaluate(s, default_policy(), {"dpu.service-resources"});
  EXPECT_NE(resources(ambiguous)->message.find("PCI device ID 0xa2dc is each of them"), std::string::npos)
      << resources(ambiguous)->message;
  FirmwareImage fw;
  fw.description = "Nvidia BlueField-3 B3140H E-series HHHL SuperNIC; 400GbE (default mode) / NDR IB; Single-port "
                   "QSFP112; PCIe Gen5.0 x16; 8 Arm cores; 16GB on board DDR; integrated BMC; Crypto Enabled";
  p.firmware.value = fw;
  rules::Report named = rules::evaluate(s, default_policy(), {"dpu.service-resources"});
  EXPECT_NE(resources(named)->message.find("`rocekit select` assumed BlueField-3 SuperNIC: 8 Arm cores, 16 GB DRAM"),
            std::string::npos)
      << resources(named)->message;
}

TEST(DpuResources, HostCaptureIsNotApplicableAndOldSnapshotsSayWhy) {
  CaptureSet set;
  set.files.push_back({"host_resources.txt", memory(0), ""});
  Snapshot s = snapshot_from_capture(set);
  rules::Report r = rules::evaluate(s, default_policy(), {"dpu.service-resources"});
  ASSERT_NE(resources(r), nullptr);
  EXPECT_EQ(resources(r)->outcome, Outcome::not_applicable);
  EXPECT_EQ(s.static_pods.reason_kind, ReasonKind::not_captured);
  nlohmann::json j = snapshot_to_json(s);
  j["schema_version"] = 7;
  j.erase("memory");
  Result<Snapshot> old = snapshot_from_json(j);
  ASSERT_TRUE(old);
  EXPECT_FALSE(old->memory.has_value());
  EXPECT_NE(old->memory.reason.find("written before schema 8"), std::string::npos);
}

}  // namespace
}  // namespace rk::capture

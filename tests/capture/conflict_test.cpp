// Two captures of one subject that disagree (MTU, PCIe link, firmware version, port state) are
// an input problem naming both files and lines; the rules that read the value are unknown with
// that reason instead of the last file merged deciding. Firmware an output names by MST device
// reaches fw.uniform-version through the capture's `mst status -v`, else the rule is unknown.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

std::string corpus(const std::string& rel) { return test::read_file(test::testdata_dir() / rel); }

Snapshot capture_of(const std::vector<std::pair<std::string, std::string>>& files) {
  CaptureSet set;
  set.origin = "mem";
  for (const auto& [name, bytes] : files) set.files.push_back({name, bytes, ""});
  return snapshot_from_capture(set);
}

/// The one finding of `rule` on `subject`.
Finding finding(const Snapshot& s, const std::string& rule, const std::string& subject) {
  for (const Finding& f : rules::evaluate(s, default_policy(), {rule}).findings)
    if (f.subject == subject) return f;
  ADD_FAILURE() << "no " << rule << " finding on " << subject;
  return {};
}

bool input_says(const Snapshot& s, const std::string& file, const std::string& text) {
  for (const InputFile& in : s.inputs)
    if (in.file == file)
      for (const std::string& m : in.messages)
        if (m.find(text) != std::string::npos) return true;
  return false;
}

// `mlxconfig -d 01:00.0 q` saved as mlxconfig_q@0000:3b:00.0.txt: its NV configuration is
// neither 3b:00.0's nor taken as 01:00.0's; the input problem names the file and both addresses.
TEST(Conflict, MlxconfigFiledUnderAnotherPciAddressThanItsDeviceLine) {
  std::string q = corpus("corpus/mlxconfig/homelab-host01-cx4lx-q-next-boot.txt");
  Snapshot s = capture_of({{"mlxconfig_q@0000:3b:00.0.txt", q}});
  for (const PciFunction& p : s.pci_functions) EXPECT_FALSE(p.nv_config.has_value()) << p.bdf;
  ASSERT_EQ(s.inputs.size(), 1u);
  EXPECT_EQ(s.inputs[0].status, "error");
  ASSERT_EQ(s.inputs[0].messages.size(), 1u);
  EXPECT_EQ(s.inputs[0].messages[0],
            "mlxconfig_q@0000:3b:00.0.txt: filed under 0000:3b:00.0, but the output is about 0000:01:00.0 "
            "(mlxconfig_q@0000:3b:00.0.txt:11): not used; if the output is right, name the file "
            "mlxconfig_q@0000:01:00.0.txt");
  // Filed under its own address (short or full form), it is taken.
  Snapshot ok = capture_of({{"mlxconfig_q@0000:01:00.0.txt", q}});
  const PciFunction* p = ok.find_pci("0000:01:00.0");
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->nv_config.has_value());
  EXPECT_NE(ok.inputs.at(0).status, "error");
}

// The cuBB system-check report says ens6f0's MTU is 1536 (line 83); a pasted `ip link show
// ens6f0` says 1500 (line 4). Whichever file is read first, net.mtu is unknown naming both.
TEST(Conflict, MtuFromIpLinkAndTheSystemCheckReport) {
  std::string report = corpus("hosts/aerial-21-4-a100-cx6dx/system_checks.txt");
  std::string ip = corpus("corpus/misc/k8s-sriov-ip-link-show-ens6f0-ixgbe-8-vfs-mtu-1500.txt");
  for (bool report_first : {true, false}) {
    Snapshot s = report_first ? capture_of({{"system_checks.txt", report}, {"ip_link@ens6f0.txt", ip}})
                              : capture_of({{"ip_link@ens6f0.txt", ip}, {"system_checks.txt", report}});
    const NetDev* n = s.find_netdev("ens6f0");
    ASSERT_NE(n, nullptr);
    EXPECT_FALSE(n->mtu_bytes.has_value());
    EXPECT_EQ(n->mtu_bytes.reason_kind, ReasonKind::conflicting);
    // The file merged first is named first.
    std::string both = report_first ? "system_checks.txt:83 and ip_link@ens6f0.txt:4 disagree (MTU 1536 vs 1500)"
                                    : "ip_link@ens6f0.txt:4 and system_checks.txt:83 disagree (MTU 1500 vs 1536)";
    EXPECT_EQ(n->mtu_bytes.reason, "conflicting captures of ens6f0: " + both +
                                       ": neither is used; capture it once more, or check each file on its own");
    Finding f = finding(s, "net.mtu", "ens6f0");
    EXPECT_EQ(f.outcome, Outcome::unknown) << f.message;
    EXPECT_NE(f.message.find(both), std::string::npos) << f.message;
    EXPECT_TRUE(report_first ? input_says(s, "ip_link@ens6f0.txt", "ip_link@ens6f0.txt:4: conflicting captures of ens6f0")
                             : input_says(s, "system_checks.txt", "system_checks.txt:83: conflicting captures of ens6f0"));
    // ens6f1 is in the report only: still judged on its MTU 1514.
    ASSERT_NE(s.find_netdev("ens6f1"), nullptr);
    EXPECT_EQ(s.find_netdev("ens6f1")->mtu_bytes.value, 1514);
  }
}

// Two lspci outputs of 0000:81:00.0: the homelab host's x8 (downgraded) LnkSta and the same
// output after the card was reseated in an x16 slot (LnkSta edited to x16).
TEST(Conflict, PcieLinkFromTwoLspciOutputs) {
  std::string x8 = corpus("corpus/lspci/homelab-host02-cx4-100g-x16-downgraded-x8.txt");
  std::string x16 = x8;
  x16.replace(x16.rfind("Width x8 (downgraded)"), 21, "Width x16");  // the LnkSta line, not the notes
  Snapshot s = capture_of({{"lspci_vvv@0000:81:00.0.txt", x8}, {"lspci-after-reseat.txt", x16}});
  const PciFunction* p = s.find_pci("0000:81:00.0");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->link.reason_kind, ReasonKind::conflicting);
  EXPECT_NE(p->link.reason.find("conflicting captures of the PCIe link of 0000:81:00.0: "
                                "lspci_vvv@0000:81:00.0.txt:25 and lspci-after-reseat.txt:25 disagree "
                                "(link status 8GT/s x8 vs 8GT/s x16)"),
            std::string::npos)
      << p->link.reason;
  Finding f = finding(s, "pcie.link-at-capability", "0000:81:00.0");
  EXPECT_EQ(f.outcome, Outcome::unknown) << f.message;
  // The same link twice is no conflict: the x8 link still fails the rule.
  Snapshot same = capture_of({{"lspci_vvv@0000:81:00.0.txt", x8}, {"again@0000:81:00.0.txt", x8}});
  EXPECT_EQ(finding(same, "pcie.link-at-capability", "0000:81:00.0").outcome, Outcome::fail);
}

// The homelab host's `ethtool -i` after the cross-flash (14.32.1900) and its `mstflint q` from
// before it (Dell 14.14.2320), both of 0000:01:00.0: fw.uniform-version is unknown, not a pass
// on whichever came last.
TEST(Conflict, FirmwareFromEthtoolAndFlint) {
  std::string ethtool = corpus("hosts/homelab-host01-cx4lx-fw14.32/ethtool_i@0000:01:00.0.txt");
  std::string flint = corpus("corpus/flint/homelab-host01-mstflint-q-dell-psid-fw14.14.txt");
  Snapshot s = capture_of({{"ethtool_i@0000:01:00.0.txt", ethtool}, {"flint_q@0000:01:00.0.txt", flint}});
  const PciFunction* p = s.find_pci("0000:01:00.0");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->firmware.reason_kind, ReasonKind::conflicting);
  Finding f = finding(s, "fw.uniform-version", "host");
  EXPECT_EQ(f.outcome, Outcome::unknown) << f.message;
  EXPECT_NE(f.message.find("conflicting captures of 0000:01:00.0: ethtool_i@0000:01:00.0.txt:6 and "), std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("flint_q@0000:01:00.0.txt:5 disagree (firmware 14.32.1900 vs 14.14.2320)"),
            std::string::npos)
      << f.message;
  // Both files alone pass.
  EXPECT_EQ(finding(capture_of({{"flint_q@0000:01:00.0.txt", flint}}), "fw.uniform-version", "host").outcome,
            Outcome::pass);
}

// ibv_devinfo of the 4-port ConnectX-4 Lx host says mlx5_1 port 1 is PORT_DOWN; an `rdma link`
// (old index form) of the same names says ACTIVE (and mlx5_0 DOWN where ibv_devinfo says
// ACTIVE). Both ports are unknown; mlx5_2, on which they agree, is judged.
TEST(Conflict, PortStateFromIbvDevinfoAndRdmaLink) {
  std::string ibv = corpus("hosts/cx4lx-4port-fw-mismatch/ibv_devinfo.txt");
  std::string link = corpus("corpus/gids/cn-notes-rdma-link-index-form-6dev-one-ib.txt");
  Snapshot s = capture_of({{"ibv_devinfo.txt", ibv}, {"rdma_link.txt", link}});
  const RdmaDevice* d = s.find_rdma("mlx5_1");
  ASSERT_NE(d, nullptr);
  ASSERT_FALSE(d->ports.empty());
  EXPECT_EQ(d->ports[0].state.reason_kind, ReasonKind::conflicting);
  EXPECT_NE(d->ports[0].state.reason.find("conflicting captures of mlx5_1 port 1: rdma_link.txt:9 and ibv_devinfo.txt:"),
            std::string::npos)
      << d->ports[0].state.reason;
  EXPECT_NE(d->ports[0].state.reason.find("disagree (port state ACTIVE vs DOWN)"), std::string::npos)
      << d->ports[0].state.reason;
  std::size_t unknown = 0, judged = 0;
  for (const Finding& f : rules::evaluate(s, default_policy(), {"link.port-active"}).findings) {
    if (f.subject.starts_with("mlx5_1") || f.subject.starts_with("mlx5_0")) {
      EXPECT_EQ(f.outcome, Outcome::unknown) << f.subject << ": " << f.message;
      ++unknown;
    }
    if (f.subject.starts_with("mlx5_2")) {
      EXPECT_EQ(f.outcome, Outcome::pass) << f.message;
      ++judged;
    }
  }
  EXPECT_EQ(unknown, 2u);
  EXPECT_EQ(judged, 1u);
}

// mlxup names its two ConnectX-7 by MST path only. With an `mst status -v` that maps the MST
// names (composed for the test: the DGX Spark's, whose MST column names mt4129_pciconf0 and
// mt4129_pciconf1), the versions reach each function and fw.uniform-version, citing each
// device's own FW row.
TEST(MstFirmware, MlxupVersionsReachTheFunctionsThroughMstStatus) {
  std::string mlxup_text = corpus("corpus/flint/ocp-nno-mlxup-cx7-2dev-mst-names-28.42-update-required.txt");
  std::string mst = corpus("corpus/misc/aerial-dgx-spark-mst-status-v-gb100-gpu-rows-vfio-column.txt");
  Snapshot s = capture_of({{"mlxfwmanager.txt", mlxup_text}, {"mst_status.txt", mst}});
  const PciFunction* p0 = s.find_pci("0000:01:00.0");  // /dev/mst/mt4129_pciconf0: mlxup's Device #2
  const PciFunction* p1 = s.find_pci("0002:01:00.0");  // /dev/mst/mt4129_pciconf1: Device #1
  ASSERT_NE(p0, nullptr);
  ASSERT_NE(p1, nullptr);
  ASSERT_TRUE(p0->firmware.has_value()) << p0->firmware.reason;
  ASSERT_TRUE(p1->firmware.has_value()) << p1->firmware.reason;
  EXPECT_EQ(p0->firmware->version, "28.42.1000");
  EXPECT_EQ(p0->firmware->psid, "MT_0000001244");
  EXPECT_EQ(p0->firmware->update_status, "Update required");
  EXPECT_EQ(p0->firmware.source.line, 36u);  // Device #2's Status line
  EXPECT_EQ(p1->firmware.source.line, 20u);  // Device #1's
  EXPECT_TRUE(s.unplaced_firmware.empty());
  Finding f = finding(s, "fw.uniform-version", "host");
  EXPECT_EQ(f.outcome, Outcome::pass) << f.message;
  EXPECT_NE(f.message.find("board MT_0000001244 28.42.1000"), std::string::npos) << f.message;
}

// The same mlxup with its own host's `mst status -v`, whose MST column is NA (mst not started):
// nothing maps the MST names, so fw.uniform-version is unknown naming both devices, and the
// snapshot keeps the versions as unplaced firmware.
TEST(MstFirmware, WithoutAMappingTheRuleIsUnknownNamingTheMstDevices) {
  std::string mlxup_text = corpus("corpus/flint/ocp-nno-mlxup-cx7-2dev-mst-names-28.42-update-required.txt");
  std::string mst = corpus("corpus/misc/ocp-nno-mst-status-v-cx7-vfs.txt");
  Snapshot s = capture_of({{"mlxfwmanager.txt", mlxup_text}, {"mst_status.txt", mst}});
  ASSERT_EQ(s.unplaced_firmware.size(), 2u);
  EXPECT_EQ(s.unplaced_firmware[0].mst_device, "/dev/mst/mt4129_pciconf1");
  EXPECT_EQ(s.unplaced_firmware[0].version, "28.42.1000");
  EXPECT_EQ(s.unplaced_firmware[0].source.line, 16u);  // Device #1's FW row
  EXPECT_EQ(s.unplaced_firmware[1].mst_device, "/dev/mst/mt4129_pciconf0");
  EXPECT_EQ(s.unplaced_firmware[1].source.line, 32u);
  Finding f = finding(s, "fw.uniform-version", "host");
  EXPECT_EQ(f.outcome, Outcome::unknown) << f.message;
  EXPECT_NE(f.message.find("/dev/mst/mt4129_pciconf1 (28.42.1000), /dev/mst/mt4129_pciconf0 (28.42.1000)"),
            std::string::npos)
      << f.message;
  ASSERT_EQ(f.evidence.size(), 2u);
  EXPECT_EQ(f.evidence[0].text, "FW             28.42.1000     28.43.1014");
  EXPECT_TRUE(input_says(s, "mlxfwmanager.txt", "/dev/mst/mt4129_pciconf1 is an MST device that no `mst status -v`"));
  // The unplaced versions survive the snapshot JSON.
  Result<Snapshot> back = snapshot_from_json(snapshot_to_json(s));
  ASSERT_TRUE(back) << back.error().describe();
  ASSERT_EQ(back->unplaced_firmware.size(), 2u);
  EXPECT_EQ(back->unplaced_firmware[1].source.line, 32u);
}

}  // namespace
}  // namespace rk::capture

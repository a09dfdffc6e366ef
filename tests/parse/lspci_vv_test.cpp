#include "rocekit/parse/lspci_vv.hpp"

#include <stdexcept>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<LspciVv>> r = parse_lspci_vv(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(LspciVvGolden, CorpusFiles) {
  for (const char* f : {"lspci/homelab-host01-cx4lx-dell-x8.txt",
                        "lspci/homelab-host02-cx4-100g-x16-downgraded-x8.txt",
                        "lspci/iommu-list-cx7-vf-speed-unknown-x0.txt",
                        "lspci/oci-h100-lspci-vv-grep-mellanox-flash-recovery.txt",
                        "lspci/k8s-runbook-grep-lnk-fragment-81-00-0-downgraded.txt",
                        "pcie_path/n1sdp-plx8749-lspci-vvxxx-acs-redirect-on.txt",
                        "pcie_path/ben-blog-pex8747-dsp-03-08-lspci-vvv-acs-cap-all-plus-ctl-all-minus.txt",
                        "pcie_path/rccl547-mi100-cx6-starship-gpp-40-01-1-lspci-vvv-acs-redirect-on-elided.txt"}) {
    test::check_golden(f, run);
  }
}

// `lspci -vv -s 81:00.0 | grep -E 'LnkCap|LnkSta'`: registers without the device header. One
// headerless device whose address the caller supplies; indented or not, DevCtl's second line too.
TEST(LspciVv, GrepFragmentWithoutDeviceHeader) {
  Result<Parsed<LspciVv>> r = parse_lspci_vv(test::corpus_body("lspci/k8s-runbook-grep-lnk-fragment-81-00-0-downgraded.txt"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->warnings.empty()) << r->warnings.front().message;
  ASSERT_EQ(r->value.devices.size(), 1u);
  const LspciDevice& d = r->value.devices[0];
  EXPECT_TRUE(d.headerless);
  EXPECT_EQ(d.bdf, "");
  ASSERT_TRUE(d.link_status.has_value());
  EXPECT_EQ(d.link_status->speed_gts, 2.5);
  EXPECT_EQ(d.link_status->width_lanes, 4u);
  EXPECT_TRUE(d.link_status->speed_downgraded);
  ASSERT_TRUE(d.link_capability.has_value());
  EXPECT_EQ(d.link_capability->width_lanes, 8u);
  Result<Parsed<LspciVv>> flat = parse_lspci_vv(
      "LnkSta: Speed 8GT/s (ok), Width x8 (downgraded)\n"
      "DevCtl: CorrErr- NonFatalErr+ FatalErr+ UnsupReq-\n"
      "MaxPayload 256 bytes, MaxReadReq 512 bytes\n");
  ASSERT_TRUE(flat.has_value()) << flat.error().message;
  ASSERT_EQ(flat->value.devices.size(), 1u);
  EXPECT_EQ(flat->value.devices[0].max_read_request_bytes, 512u);
  EXPECT_FALSE(parse_lspci_vv("MaxPayload 256 bytes, MaxReadReq 512 bytes\n").has_value());  // nothing to attach it to
}

// A PCIe switch tree (Arm N1SDP, PLX PEX 8749; lspci -vvxxx): bridges with their bus ranges, the
// downstream ports' ACS redirect bits, DevCtl flags, and the hex dump lines skipped silently.
TEST(LspciVv, SwitchTreeWithAcsAndHexDump) {
  std::string body = test::corpus_body("pcie_path/n1sdp-plx8749-lspci-vvxxx-acs-redirect-on.txt");
  Result<Parsed<LspciVv>> r = parse_lspci_vv(body);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->warnings.empty()) << r->warnings.front().message;
  ASSERT_EQ(r->value.devices.size(), 16u);
  auto dev = [&](const std::string& bdf) -> const LspciDevice& {
    for (const LspciDevice& d : r->value.devices)
      if (d.bdf == bdf) return d;
    throw std::runtime_error("no " + bdf);
  };
  const LspciDevice& root = dev("0000:00:00.0");
  EXPECT_EQ(root.class_name, "PCI bridge");
  EXPECT_EQ(root.secondary_bus, 0x01u);
  EXPECT_EQ(root.subordinate_bus, 0x19u);
  EXPECT_FALSE(root.has_acs);
  EXPECT_EQ(root.relaxed_ordering, true);
  EXPECT_EQ(root.no_snoop, true);
  const LspciDevice& up = dev("0000:01:00.0");
  EXPECT_EQ(up.express_type, "Upstream Port");
  EXPECT_EQ(up.primary_bus, 0x01u);
  EXPECT_EQ(up.secondary_bus, 0x02u);
  EXPECT_EQ(up.subordinate_bus, 0x08u);
  const LspciDevice& dsp = dev("0000:02:12.0");
  EXPECT_EQ(dsp.express_type, "Downstream Port (Slot-)");
  EXPECT_EQ(dsp.secondary_bus, 0x06u);
  ASSERT_TRUE(dsp.has_acs);
  ASSERT_TRUE(dsp.acs_control.has_value());
  EXPECT_EQ(dsp.acs_control->get("ReqRedir"), true);
  EXPECT_EQ(dsp.acs_control->get("CmpltRedir"), true);
  EXPECT_EQ(dsp.acs_control->get("SrcValid"), true);
  EXPECT_EQ(dsp.acs_control->get("EgressCtrl"), false);
  EXPECT_EQ(dsp.acs_control->flags.size(), 7u);
  EXPECT_EQ(dsp.acs_capability->get("DirectTrans"), true);
  EXPECT_EQ(dsp.max_payload_bytes, 128u);
  EXPECT_EQ(dev("0000:06:00.0").express_type, "Legacy Endpoint");
}

// The PEX 8747 port of a GPU workstation: ACS capable, every control bit off.
TEST(LspciVv, AcsCapableButOff) {
  Result<Parsed<LspciVv>> r = parse_lspci_vv(
      test::corpus_body("pcie_path/ben-blog-pex8747-dsp-03-08-lspci-vvv-acs-cap-all-plus-ctl-all-minus.txt"));
  ASSERT_TRUE(r.has_value());
  const LspciDevice& d = r->value.devices.at(0);
  ASSERT_TRUE(d.acs_control.has_value());
  for (const auto& [name, on] : d.acs_control->flags) EXPECT_FALSE(on) << name;
  EXPECT_EQ(d.acs_capability->get("ReqRedir"), true);
  EXPECT_EQ(d.secondary_bus, 0x04u);
  EXPECT_EQ(d.relaxed_ordering, false);
}

// Host-bundle captures are byte-identical to corpus files; they are compared with their twin
// rather than given a golden inside the bundle directory.
TEST(LspciVvGolden, HostBundleFiles) {
  const std::pair<const char*, const char*> k_twins[] = {
      {"../hosts/cx7-vf-lspci-not-applicable/lspci_vvv@0000:b1:00.2.txt",
       "lspci/iommu-list-cx7-vf-speed-unknown-x0.txt"},
      {"../hosts/homelab-host01-cx4lx-dell-fw14.14/lspci_vvv@0000:01:00.0.txt",
       "lspci/homelab-host01-cx4lx-dell-x8.txt"},
      {"../hosts/homelab-host02-cx4-100g-pcie-x8/lspci_vvv@0000:81:00.0.txt",
       "lspci/homelab-host02-cx4-100g-x16-downgraded-x8.txt"},
      {"../hosts/oci-h100-cx7-flash-recovery/lspci_vvv.txt",
       "lspci/oci-h100-lspci-vv-grep-mellanox-flash-recovery.txt"},
  };
  for (const auto& [host, twin] : k_twins) {
    SCOPED_TRACE(host);
    EXPECT_EQ(run(test::corpus_body(host)), run(test::corpus_body(twin)));
  }
}

}  // namespace
}  // namespace rk::parse

// ---- looks_like_* of the six group-D tools against every corpus capture ----

#include <filesystem>
#include <functional>
#include <map>

#include "rocekit/parse/flint_query.hpp"
#include "rocekit/parse/mlxconfig_query.hpp"
#include "rocekit/parse/mlxfwmanager.hpp"
#include "rocekit/parse/mst_status.hpp"
#include "rocekit/parse/nvidia_smi_topo.hpp"

namespace rk::parse {
namespace {

/// Which tool a corpus file belongs to, from its path; "" for other tools.
std::string tool_of(const std::string& rel) {
  if (rel.starts_with("lspci/") || (rel.starts_with("pcie_path/") && rel.find("lspci-vv") != std::string::npos))
    return "lspci";
  if (rel.starts_with("mlxconfig/")) return "mlxconfig";
  if (rel.starts_with("nvidia_smi_topo/")) return "topo";
  // mlxup prints mlxfwmanager's query format.
  if (rel.starts_with("flint/") && (rel.find("mlxfwmanager") != std::string::npos || rel.find("mlxup") != std::string::npos))
    return "fwm";
  if (rel.starts_with("flint/")) return "flint";
  if (rel.find("mst-status") != std::string::npos) return "mst";
  return "";
}

TEST(GroupDLooksLike, EveryCorpusCapture) {
  const std::map<std::string, std::function<bool(std::string_view)>> k_sniffers = {
      {"lspci", looks_like_lspci_vv},         {"mlxconfig", looks_like_mlxconfig_query},
      {"topo", looks_like_nvidia_smi_topo},   {"fwm", looks_like_mlxfwmanager},
      {"flint", looks_like_flint_query},      {"mst", looks_like_mst_status}};
  std::filesystem::path root = test::testdata_dir() / "corpus";
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".txt") continue;
    std::string rel = std::filesystem::relative(entry.path(), root).generic_string();
    std::string body = test::corpus_body(rel);
    std::string tool = tool_of(rel);
    ++files;
    for (const auto& [name, sniff] : k_sniffers) {
      EXPECT_EQ(sniff(body), name == tool) << name << " on " << rel;
    }
  }
  EXPECT_GT(files, 30u);
}

TEST(GroupDLooksLike, EveryHostBundleCapture) {
  const std::map<std::string, std::function<bool(std::string_view)>> k_sniffers = {
      {"lspci_vvv", looks_like_lspci_vv},          {"mlxconfig_q", looks_like_mlxconfig_query},
      {"nvidia_smi_topo", looks_like_nvidia_smi_topo}, {"mlxfwmanager", looks_like_mlxfwmanager},
      {"flint_q", looks_like_flint_query},         {"mst_status", looks_like_mst_status}};
  std::filesystem::path root = test::testdata_dir() / "hosts";
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".txt") continue;
    std::string stem = entry.path().stem().string();
    std::string tool = stem.substr(0, stem.find('@'));
    std::string rel = "../hosts/" + std::filesystem::relative(entry.path(), root).generic_string();
    std::string body = test::corpus_body(rel);
    ++files;
    for (const auto& [name, sniff] : k_sniffers) {
      EXPECT_EQ(sniff(body), name == tool) << name << " on " << rel;
    }
  }
  EXPECT_GT(files, 30u);
}

}  // namespace
}  // namespace rk::parse

namespace rk::parse {
namespace {

LspciVv parse_ok(std::string_view text) {
  Result<Parsed<LspciVv>> r = parse_lspci_vv(text);
  EXPECT_TRUE(r.has_value());
  return r ? r->value : LspciVv{};
}

TEST(LspciVvBehaviour, Host02X16CardTrainedX8) {
  LspciVv v = parse_ok(test::corpus_body("lspci/homelab-host02-cx4-100g-x16-downgraded-x8.txt"));
  ASSERT_EQ(v.devices.size(), 1u);
  const LspciDevice& d = v.devices[0];
  EXPECT_EQ(d.bdf, "0000:81:00.0");
  EXPECT_EQ(d.bdf_raw, "81:00.0");
  EXPECT_EQ(d.link_capability->width_lanes, 16u);
  EXPECT_EQ(d.link_status->width_lanes, 8u);
  EXPECT_TRUE(d.link_status->width_downgraded);
  EXPECT_EQ(d.link_status->speed_gts, 8.0);
  EXPECT_EQ(d.max_read_request_bytes, 4096u);
  EXPECT_EQ(d.max_payload_bytes, 256u);
  EXPECT_EQ(d.numa_node, 1);
  EXPECT_EQ(d.vpd->part_number, "MCX416A-CCAT");
  EXPECT_EQ(d.sriov->total_vfs, 8u);
}

TEST(LspciVvBehaviour, Host01MaxReadReq512) {
  LspciVv v = parse_ok(test::corpus_body("lspci/homelab-host01-cx4lx-dell-x8.txt"));
  ASSERT_EQ(v.devices.size(), 1u);
  EXPECT_EQ(v.devices[0].max_read_request_bytes, 512u);
  EXPECT_EQ(v.devices[0].vpd->part_number, "020NJD");
  EXPECT_FALSE(v.devices[0].link_status->width_downgraded);
}

TEST(LspciVvBehaviour, VfReportsUnknownSpeedAndX0) {
  LspciVv v = parse_ok(test::corpus_body("lspci/iommu-list-cx7-vf-speed-unknown-x0.txt"));
  const LspciDevice& d = v.devices.at(0);
  EXPECT_TRUE(d.is_virtual_function);
  EXPECT_TRUE(d.link_status->speed_unknown);
  EXPECT_FALSE(d.link_status->speed_gts.has_value());
  EXPECT_EQ(d.link_status->width_lanes, 0u);
  EXPECT_EQ(d.max_read_request_bytes, 128u);
  EXPECT_EQ(d.kernel_driver, "mlx5_vfio_pci");
}

TEST(LspciVvBehaviour, OciFlashRecoveryDevice) {
  LspciVv v =
      parse_ok(test::corpus_body("lspci/oci-h100-lspci-vv-grep-mellanox-flash-recovery.txt"));
  ASSERT_EQ(v.devices.size(), 17u);
  std::size_t recovery = 0;
  for (const LspciDevice& d : v.devices) recovery += d.flash_recovery ? 1 : 0;
  EXPECT_EQ(recovery, 1u);
  EXPECT_EQ(v.devices.back().bdf, "0000:d5:00.0");
  EXPECT_EQ(v.devices.back().class_name, "Memory controller");
  EXPECT_TRUE(v.devices.back().flash_recovery);
}

TEST(LspciVvBehaviour, NumericIdsDomainAndOldDevCtlWording) {
  std::string text =
      "0000:3b:00.0 Ethernet controller [0200]: Mellanox Technologies MT2892 Family "
      "[ConnectX-6 Dx] [15b3:101d] (rev 01)\r\n"
      "\tSubsystem: Mellanox Technologies Device [15b3:0016]\r\n"
      "\tPhysical Slot: 3\r\n"
      "\tCapabilities: [60] Express (v2) Endpoint, MSI 00\r\n"
      "\t\tDevCtl:\tReport errors: Correctable- Non-Fatal- Fatal- Unsupported-\r\n"
      "\t\t\tRlxdOrd+ ExtTag+ PhantFunc- AuxPwr- NoSnoop+ FLReset- MaxPayload 256 bytes, "
      "MaxReadReq 4096 bytes\r\n"
      "\t\tLnkSta:\tSpeed 16GT/s (ok), Width x16 (ok)\r\n"
      "0000:af:00.0 Ethernet controller [0200]: Mellanox Technologies Device [15b3:0218]\r\n";
  LspciVv v = parse_ok(text);
  ASSERT_EQ(v.devices.size(), 2u);
  const LspciDevice& d = v.devices[0];
  EXPECT_EQ(d.class_id, "0200");
  EXPECT_EQ(d.vendor_id, "15b3");
  EXPECT_EQ(d.device_id, "101d");
  EXPECT_EQ(d.revision, "01");
  EXPECT_EQ(d.name, "Mellanox Technologies MT2892 Family [ConnectX-6 Dx]");
  EXPECT_EQ(d.subsystem_device_id, "0016");
  EXPECT_EQ(d.physical_slot, "3");
  EXPECT_EQ(d.max_read_request_bytes, 4096u);
  EXPECT_EQ(d.link_status->speed_gts, 16.0);
  EXPECT_FALSE(d.link_status->width_downgraded);
  EXPECT_TRUE(v.devices[1].flash_recovery);  // device id 0x0218 = ConnectX-7 recovery
}

TEST(LspciVvBehaviour, EmptyAndForeignInputAreErrors) {
  EXPECT_FALSE(parse_lspci_vv("").has_value());
  EXPECT_FALSE(parse_lspci_vv("hello world\n").has_value());
}

TEST(LspciVvBehaviour, TruncatedInsideExpressCapability) {
  std::string body = test::corpus_body("lspci/homelab-host01-cx4lx-dell-x8.txt");
  std::string cut = body.substr(0, body.find("LnkCap:"));
  Result<Parsed<LspciVv>> r = parse_lspci_vv(cut);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
  EXPECT_EQ(r->value.devices[0].max_read_request_bytes, 512u);
}

TEST(LspciVvBehaviour, GarbledLineReportsLineNumber) {
  Result<Parsed<LspciVv>> r =
      parse_lspci_vv("01:00.0 Ethernet controller: X\n\tNUMA node: 0\n#garbage here\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 3u);
}

TEST(LspciVvBehaviour, NormaliseBdf) {
  EXPECT_EQ(normalise_bdf("01:00.0"), "0000:01:00.0");
  EXPECT_EQ(normalise_bdf("0001:AF:00.1"), "0001:af:00.1");
  EXPECT_FALSE(normalise_bdf("01:00").has_value());
  EXPECT_FALSE(normalise_bdf("1:00.0").has_value());
}

}  // namespace
}  // namespace rk::parse

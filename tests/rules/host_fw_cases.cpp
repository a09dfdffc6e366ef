// Per-outcome cases of the firmware and persistence host rules (rules/fw_rules.cpp,
// rules/fw_compat_rules.cpp, rules/persistence_rules.cpp) on hand-built snapshots.
#include "host_cases.hpp"
#include "rocekit/model/bluefield.hpp"

namespace rk::testcases {
namespace {

const std::string k_bdf = "0000:3b:00.0";

Snapshot two_devices(const std::string& fw0, const std::string& fw1) {
  Snapshot s;
  for (auto [name, fw] : {std::pair{"mlx5_0", fw0}, std::pair{"mlx5_1", fw1}}) {
    RdmaDevice& d = s.rdma(name);
    d.fw_ver = fw;
    d.board_id = "MT_0000000222";
  }
  return s;
}

/// 0000:3b:00.0 a BlueField with INTERNAL_CPU_MODEL `model` (the BlueField-2 of Mellanox/mstflint
/// issue 830 shows EMBEDDED_CPU(1)) and flint's FW Version `fw` ("" = not queried).
Snapshot bluefield(const std::string& model, const std::string& fw) {
  Snapshot s = with_nv({nv("INTERNAL_CPU_MODEL", model)});
  if (!fw.empty()) {
    FirmwareImage img;
    img.version = fw;
    s.pci_functions.front().firmware.value = img;
    s.pci_functions.front().firmware.source = {"flint_q@0000:3b:00.0.txt", 4, "FW Version:            " + fw};
  }
  fill_bluefield_modes(s);
  return s;
}

Snapshot nv_e(std::vector<NvParam> params) {
  Snapshot s = with_nv(std::move(params));
  s.pci_functions.front().nv_config.value->has_current_column = true;
  return s;
}

Snapshot image(std::optional<FirmwareImage> info, bool vf = false) {
  Snapshot s;
  PciFunction& p = s.pci(k_bdf);
  p.device_id = 0x101d;
  p.device_name = "MT2892 Family [ConnectX-6 Dx]";
  p.is_vf = vf;
  if (info) p.firmware.value = *info;
  else p.firmware.reason = "no flint query in the input";
  return s;
}
FirmwareImage fw(std::string version) {
  FirmwareImage f;
  f.version = std::move(version);
  f.psid = "MT_0000000222";
  return f;
}

Snapshot qos_host(bool with_persistence, PersistenceState p = {}) {
  Snapshot s;
  NetDev& n = s.netdev("eth4");
  QosState q;
  q.trust = Trust::dscp;
  q.pfc_enabled = std::vector<bool>{false, false, false, true, false, false, false, false};
  n.qos.value = q;
  if (with_persistence) s.persistence.value = p;
  else s.persistence.reason = "no persistence listing in the input";
  return s;
}

Policy adaptive_routing_required() {
  Policy p = default_policy();
  p.adaptive_routing = true;
  return p;
}


/// A ConnectX-7 PF (device 0x1021) at k_bdf with `fw` and PSID `psid`, and `ofed` as
/// `ofed_info -s` prints it ("" = not captured).
Snapshot compat(const std::string& fw, const std::string& ofed, std::uint16_t device = 0x1021,
                const std::string& psid = "MT_0000000838") {
  Snapshot s = image(std::nullopt);
  PciFunction& p = s.pci_functions.front();
  p.device_id = device;
  FirmwareImage f;
  f.version = fw;
  f.psid = psid;
  p.firmware.value = f;
  p.firmware.reason.clear();
  p.firmware.source = {"flint_q@0000:3b:00.0.txt", 4, "FW Version:            " + fw};
  if (!ofed.empty()) {
    DriverStack d;
    d.release = ofed;
    d.stack = ofed.starts_with("MLNX_OFED_LINUX") ? "MLNX_OFED" : "DOCA-OFED";
    d.version = ofed.substr(ofed.find_first_of("0123456789"));
    s.driver_stack.value = d;
    s.driver_stack.source = {"ofed_info.txt", 4, ofed + ":"};
  } else {
    s.driver_stack.reason = "not captured (no ofed_info -s output in the capture)";
  }
  return s;
}

const Cases k_cases{
    host_case("fw.uniform-version", Outcome::pass, "host", "one version per model: board MT_0000000222 28.41.1000",
              [] { return two_devices("28.41.1000", "28.41.1000"); }),
    host_case("fw.uniform-version", Outcome::fail, "host", "firmware differs within one model",
              [] { return two_devices("28.41.1000", "28.39.1002"); }),
    host_case("fw.uniform-version", Outcome::unknown, "host", "no firmware version in the input", [] { return Snapshot{}; }),
    host_case("fw.pending-config", Outcome::pass, k_bdf, "Current equals Next Boot for every parameter",
              [] { return nv_e({nv("NUM_OF_VFS", "0")}); }),
    host_case("fw.pending-config", Outcome::fail, k_bdf, "Next Boot differs from Current: NUM_OF_VFS current 0, next boot 8",
              [] {
                return nv_e({NvParam{"NUM_OF_VFS", std::nullopt, "0", "8", std::nullopt, true, 10}});
              }),
    host_case("fw.pending-config", Outcome::unknown, k_bdf, "plain `q` shows only the Next Boot column",
              [] { return with_nv({nv("NUM_OF_VFS", "0")}); }),
    host_case("fw.image-state", Outcome::pass, k_bdf, "normal PCI identity, firmware 22.41.1000",
              [] { return image(fw("22.41.1000")); }),
    host_case("fw.image-state", Outcome::fail, k_bdf, "device enumerates in flash recovery",
              [] {
                Snapshot s = image(fw("22.41.1000"));
                s.pci_functions.front().flash_recovery = true;
                return s;
              }),
    host_case("fw.image-state", Outcome::unknown, k_bdf, "flash image not queried: no flint query",
              [] { return image(std::nullopt); }),
    host_case("fw.image-state", Outcome::not_applicable, k_bdf, "SR-IOV VF: firmware belongs to the PF",
              [] { return image(fw("22.41.1000"), true); }),
    host_case("fw.link-type-eth", Outcome::pass, k_bdf, "= ETH(2)",
              [] { return with_nv({nv("LINK_TYPE_P1", "ETH(2)")}); }),
    host_case("fw.link-type-eth", Outcome::fail, k_bdf, "VPI port not in Ethernet mode",
              [] { return with_nv({nv("LINK_TYPE_P1", "IB(1)")}); }),
    host_case("fw.link-type-eth", Outcome::unknown, k_bdf, "firmware NV configuration not collected: no mlxconfig",
              [] {
                Snapshot s;
                s.pci(k_bdf).nv_config.reason = "no mlxconfig query in the input";
                return s;
              }),
    host_case("fw.link-type-eth", Outcome::not_applicable, k_bdf, "no LINK_TYPE_P<n> parameter",
              [] { return with_nv({nv("NUM_OF_VFS", "0")}); }),
    host_case("fw.adaptive-routing", Outcome::pass, k_bdf, "ROCE_ADAPTIVE_ROUTING_EN enabled (report only)",
              [] { return with_nv({nv("ROCE_ADAPTIVE_ROUTING_EN", "True(1)")}); }),
    host_case("fw.adaptive-routing", Outcome::fail, k_bdf, "ROCE_ADAPTIVE_ROUTING_EN disabled, policy enabled",
              [] { return with_nv({nv("ROCE_ADAPTIVE_ROUTING_EN", "False(0)")}); }, adaptive_routing_required()),
    host_case("fw.adaptive-routing", Outcome::not_applicable, k_bdf, "ROCE_ADAPTIVE_ROUTING_EN is not in the firmware query",
              [] { return with_nv({nv("NUM_OF_VFS", "0")}); }),
    // MLNX_OFED 23.10-1.1.9.0: MFT 4.26.1's table gives 28.39.2048 for ConnectX-7 (data/compat).
    host_case("fw.driver-compat", Outcome::pass, k_bdf,
              "firmware 28.39.2048 (ConnectX-7) with MLNX_OFED 23.10-1.1.9.0: the recommended firmware in its release notes",
              [] { return compat("28.39.2048", "MLNX_OFED_LINUX-23.10-1.1.9.0"); }),
    host_case("fw.driver-compat", Outcome::fail, k_bdf,
              "firmware 28.35.1012 (ConnectX-7) with MLNX_OFED 23.10-1.1.9.0: not in the release notes for this driver, which give 28.39.2048",
              [] { return compat("28.35.1012", "MLNX_OFED_LINUX-23.10-1.1.9.0"); }),
    host_case("fw.driver-compat", Outcome::fail, k_bdf, "the release notes say MLNX_OFED does not support BlueField-3",
              [] { return compat("32.39.2048", "MLNX_OFED_LINUX-23.10-1.1.9.0", 0xa2dc); }),
    host_case("fw.driver-compat", Outcome::unknown, "host", "the driver release (`ofed_info -s`) not collected",
              [] { return compat("28.39.2048", ""); }),
    host_case("fw.driver-compat", Outcome::unknown, "host", "is DOCA-OFED, whose `ofed_info -s` does not name the DOCA-Host release",
              [] { return compat("28.47.1088", "OFED-internal-25.10-1.7.1"); }),
    host_case("fw.driver-compat", Outcome::unknown, k_bdf, "an OEM-branded board (PSID DEL0000000027)",
              [] { return compat("28.39.2048", "MLNX_OFED_LINUX-23.10-1.1.9.0", 0x1021, "DEL0000000027"); }),
    host_case("fw.driver-compat", Outcome::not_applicable, k_bdf, "not an NVIDIA NIC (PCI vendor 0x14e4)",
              [] {
                Snapshot s = compat("22.31.13.70", "MLNX_OFED_LINUX-23.10-1.1.9.0", 0x1750);
                s.pci_functions.front().vendor_id = 0x14e4;  // Broadcom
                return s;
              }),
    host_case("fw.driver-compat", Outcome::unknown, k_bdf, "device id 0x101d is ConnectX-6 Dx (firmware major 22), but the firmware 28.39.2048 has major 28",
              [] { return compat("28.39.2048", "MLNX_OFED_LINUX-23.10-1.1.9.0", 0x101d); }),
    // MLNX_OFED 5.8-3.0.7.0 has only a release-level firmware train, no ConnectX-7 row.
    host_case("fw.driver-compat", Outcome::unknown, k_bdf, "the table has no ConnectX-7 row for this release (its release-level firmware train is xx.35.3006)",
              [] { return compat("28.35.3006", "MLNX_OFED_LINUX-5.8-3.0.7.0"); }),
    // ConnectX-7 trains in data/compat: 28.39, 28.40, 28.43 ... 28.47 (DOCA-Host 3.2.2: 28.47.2682).
    host_case("fw.releases-behind", Outcome::pass, k_bdf,
              "firmware 28.45.1020 (ConnectX-7) is 2 firmware releases (28.46, 28.47) behind the newest ConnectX-7 "
              "firmware the compatibility table knows, 28.47.2682 (DOCA-Host 3.2.2, "
              "https://docs.nvidia.com/doca/archive/3-2-2/General+Support); the policy warns at 5",
              [] { return compat("28.45.1020", ""); }),
    host_case("fw.releases-behind", Outcome::fail, k_bdf,
              "firmware 28.39.2048 (ConnectX-7) is 6 firmware releases behind the newest ConnectX-7 firmware the "
              "compatibility table knows, 28.47.2682 (DOCA-Host 3.2.2, https://docs.nvidia.com/doca/archive/3-2-2/General+Support): "
              "trains 28.40, 28.43, 28.44, 28.45, 28.46, 28.47 are newer; the policy warns at 5 (firmware.warn_releases_behind)",
              [] { return compat("28.39.2048", ""); }),
    host_case("fw.releases-behind", Outcome::unknown, k_bdf,
              "firmware 28.39.2048 (ConnectX-7): an OEM-branded board (PSID DEL0000000027)",
              [] { return compat("28.39.2048", "", 0x1021, "DEL0000000027"); }),
    host_case("fw.releases-behind", Outcome::unknown, k_bdf,
              "firmware 99.10.1000: the adapter family is not in the table (device id 0x1234)",
              [] { return compat("99.10.1000", "", 0x1234); }),
    host_case("fw.releases-behind", Outcome::not_applicable, k_bdf, "not an NVIDIA NIC (PCI vendor 0x14e4)",
              [] {
                Snapshot s = compat("22.31.13.70", "", 0x1750);
                s.pci_functions.front().vendor_id = 0x14e4;  // Broadcom
                return s;
              }),
    // 32.41.1000: the BlueField-3 of Mellanox/nic-configuration-operator PR 97 (mstflint q).
    host_case("fw.dpu-minimum", Outcome::fail, k_bdf,
              "BlueField-3 in DPU mode runs firmware 32.41.1000, below 32.43.1014, the oldest tested with DOCA 2.9.2 LTS",
              [] { return bluefield("EMBEDDED_CPU(1)", "32.41.1000"); }),
    // 32.43.2566: the BlueField-3 B3210E of j3soon/bluefield-dpu-setup-notes (bfvcheck, DOCA 2.9.2).
    host_case("fw.dpu-minimum", Outcome::pass, k_bdf, "BlueField-3 in DPU mode, firmware 32.43.2566 >= 32.43.1014",
              [] { return bluefield("EMBEDDED_CPU(1)", "32.43.2566"); }),
    host_case("fw.dpu-minimum", Outcome::unknown, k_bdf, "BlueField in DPU mode, firmware version not collected",
              [] { return bluefield("EMBEDDED_CPU(1)", ""); }),
    host_case("fw.dpu-minimum", Outcome::not_applicable, k_bdf, "BlueField not in DPU mode: separated_host",
              [] { return bluefield("SEPARATED_HOST(0)", "24.43.1014"); }),
    host_case("fw.dpu-minimum", Outcome::not_applicable, "host", "no BlueField", [] { return Snapshot{}; }),
    // A value the mstflint DB does not define (INTERNAL_CPU_MODEL is SEPARATED_HOST(0) or
    // EMBEDDED_CPU(1)): the mode is unknown, so is the rule.
    host_case("fw.dpu-minimum", Outcome::unknown, k_bdf, "BlueField operation mode unknown (INTERNAL_CPU_MODEL",
              [] { return bluefield("SOMETHING_ELSE(7)", "32.41.1000"); }),
    host_case("persist.runtime-settings", Outcome::pass, "host", "re-applied at boot by enabled",
              [] {
                PersistenceState p;
                p.units = {"/etc/systemd/system/rocekit-roce.service"};
                p.enabled_links = {"/etc/systemd/system/multi-user.target.wants/rocekit-roce.service"};
                return qos_host(true, p);
              }),
    host_case("persist.runtime-settings", Outcome::fail, "host", "runtime settings lost at reboot",
              [] { return qos_host(true); }),
    host_case("persist.runtime-settings", Outcome::unknown, "host", "boot-time mechanisms were not collected",
              [] { return qos_host(false); }),
    host_case("persist.runtime-settings", Outcome::not_applicable, "host", "no Ethernet RDMA port or netdev",
              [] { return Snapshot{}; }),
};

}  // namespace
}  // namespace rk::testcases

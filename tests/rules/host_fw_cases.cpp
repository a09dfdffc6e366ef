// Per-outcome cases of the firmware and persistence host rules (rules/fw_rules.cpp,
// rules/persistence_rules.cpp) on hand-built snapshots.
#include "host_cases.hpp"

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

// fw.driver-compat: each NIC's firmware against the release notes of the installed driver
// (data/compat/compat.json; how a row is read: data/compat/README.md "How a rule should read a
// row"). Firmware equal to the row's recommended version, or listed as supported, passes; other
// firmware of a family the release has a row for is "not in the release notes for this driver";
// a family the release notes say the driver does not support fails; a driver, release or family
// the table does not have is unknown, never a pass.
#include <cstdio>
#include <set>
#include <string>

#include "rocekit/catalog/compat.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

/// One NIC function with a firmware version: the RDMA device, else the netdev, else the PCI
/// function that showed it.
struct NicFirmware {
  std::string who;
  std::string bdf;
  std::string version;
  std::optional<std::string> psid;
  std::optional<std::uint16_t> device_id;
  Evidence source;
};

std::vector<NicFirmware> nic_firmware(const Snapshot& s) {
  std::vector<NicFirmware> out;
  std::set<std::string> seen;
  auto device_id_of = [&](const std::string& bdf) -> std::optional<std::uint16_t> {
    const PciFunction* p = bdf.empty() ? nullptr : s.find_pci(bdf);
    return p ? p->device_id : std::nullopt;
  };
  for (const RdmaDevice& d : s.rdma_devices) {
    if (!d.fw_ver) continue;
    NicFirmware n{d.name, d.bdf.value_or(""), *d.fw_ver, d.board_id, device_id_of(d.bdf.value_or("")), d.source};
    if (!n.device_id && d.vendor_part_id && *d.vendor_part_id <= 0xffff) n.device_id = static_cast<std::uint16_t>(*d.vendor_part_id);
    if (!n.bdf.empty() && !seen.insert(n.bdf).second) continue;
    out.push_back(std::move(n));
  }
  for (const NetDev& nd : s.netdevs) {
    if (!nd.driver.has_value() || !nd.driver->firmware_version) continue;
    std::string bdf = nd.driver->bus_info.value_or(nd.bdf.value_or(""));
    if (!bdf.empty() && !seen.insert(bdf).second) continue;
    out.push_back({nd.name, bdf, *nd.driver->firmware_version, nd.driver->psid, device_id_of(bdf), nd.driver.source});
  }
  for (const PciFunction& p : s.pci_functions) {
    if (!p.firmware.has_value() || !p.firmware->version || !seen.insert(p.bdf).second) continue;
    out.push_back({p.bdf, p.bdf, *p.firmware->version, p.firmware->psid, p.device_id, p.firmware.source});
  }
  return out;
}

/// The adapter family: by PCI device id, else by the firmware's major (the first field names the
/// chip: 28 is ConnectX-7).
const catalog::CompatFamily* family_of(const catalog::CompatTable& t, const NicFirmware& n, bool& by_major) {
  by_major = false;
  if (n.device_id)
    if (const catalog::CompatFamily* f = t.family_of_device(*n.device_id)) return f;
  std::size_t dot = n.version.find('.');
  std::optional<std::uint64_t> major = text::parse_uint(std::string_view(n.version).substr(0, dot));
  if (!major) return nullptr;
  for (const catalog::CompatFamily& f : t.families)
    if (f.fw_major && static_cast<std::uint64_t>(*f.fw_major) == *major) {
      by_major = true;
      return &f;
    }
  return nullptr;
}

std::string release_name(const catalog::CompatRelease& r) { return r.stack + " " + r.version; }

std::string hex4(std::uint16_t v) {
  char b[8];
  std::snprintf(b, sizeof b, "0x%04x", v);
  return b;
}

void eval_driver_compat(const Snapshot& s, const Policy&, Emitter& e) {
  const catalog::CompatTable& t = catalog::CompatTable::active();
  std::vector<NicFirmware> nics = nic_firmware(s);
  if (nics.empty()) {
    e.unknown("host", "no NIC firmware version in the input (ibv_devinfo, ethtool -i, flint, mlxfwmanager)").needs = {"ethtool_i"};
    return;
  }
  if (!s.driver_stack.has_value()) {
    e.missing("host", "the driver release (`ofed_info -s`)", s.driver_stack);
    return;
  }
  const DriverStack& d = *s.driver_stack;
  const catalog::CompatRelease* rel = t.release_by_ofed_info(d.release);
  if (!rel) {
    Finding& f = e.unknown(
        "host", d.stack == "DOCA-OFED"
                    ? d.release + " is DOCA-OFED, whose `ofed_info -s` does not name the DOCA-Host release the "
                                  "compatibility table is keyed by (data/compat/README.md)"
                    : d.release + " is not in the compatibility table (MLNX_OFED 5.8, 23.10, 24.01-24.10 and "
                                  "DOCA-Host 2.9-3.2 releases; data/compat/README.md)");
    add_evidence(f, s.driver_stack.source);
    return;
  }
  for (const NicFirmware& n : nics) {
    if (n.psid && !n.psid->starts_with("MT_")) {
      Finding& f = e.unknown(n.who, "firmware " + n.version + " on an OEM-branded board (PSID " + *n.psid +
                                        "): NVIDIA's tables cover NVIDIA-branded (MT_) cards, the vendor's notes this one");
      add_evidence(f, n.source);
      continue;
    }
    bool by_major = false;
    const catalog::CompatFamily* fam = family_of(t, n, by_major);
    if (!fam) {
      add_evidence(e.unknown(n.who, "firmware " + n.version + ": the adapter family is not in the table (device id " +
                                        (n.device_id ? hex4(*n.device_id) : std::string("not read")) + ")"),
                   n.source);
      continue;
    }
    const std::string head = "firmware " + n.version + " (" + fam->family + (by_major ? ", by its firmware major" : "") +
                             ") with " + release_name(*rel);
    bool unsupported = false;
    for (const std::string& u : rel->unsupported_families) unsupported = unsupported || u == fam->family;
    if (unsupported) {
      Finding& f = e.fail(n.who, head + ": the release notes say " + rel->stack + " does not support " + fam->family +
                                     " (" + rel->unsupported_source + ")");
      add_evidence(f, n.source);
      add_evidence(f, s.driver_stack.source);
      f.remediation.scope = FixScope::none;
      f.remediation.notes = "Install a driver release that supports " + fam->family +
                            " (DOCA-Host for BlueField-3 and ConnectX-8), with the firmware its release notes give.";
      continue;
    }
    const catalog::CompatRow* row = t.row(rel->id, fam->family);
    if (!row) {
      std::string why = head + ": the table has no " + fam->family + " row for this release";
      if (rel->firmware_train) why += " (its release-level firmware train is " + *rel->firmware_train + ")";
      add_evidence(e.unknown(n.who, why), n.source);
      continue;
    }
    bool listed = n.version == row->recommended;
    for (const std::string& v : row->supported) listed = listed || n.version == v;
    if (listed) {
      Finding& f = e.pass(n.who, head + ": " + (n.version == row->recommended ? "the recommended" : "a supported") +
                                     " firmware in its release notes (" + row->source + ")");
      add_evidence(f, n.source);
      continue;
    }
    std::string want = row->recommended;
    if (!row->supported.empty()) want += " (or " + join(row->supported) + ")";
    Finding& f = e.fail(n.who, head + ": not in the release notes for this driver, which give " + want + " for " +
                                   fam->family + " (" + row->source + ")");
    add_evidence(f, n.source);
    add_evidence(f, s.driver_stack.source);
    f.remediation.scope = FixScope::firmware_reboot;
    f.remediation.notes =
        "Burn firmware " + row->recommended + " from a local image whose PSID matches the board" +
        (n.psid ? " (" + *n.psid + ")" : std::string()) + ": `flint -d " + (n.bdf.empty() ? std::string("<bdf>") : n.bdf) +
        " -i <image.bin> burn` (mstflint) or `mlxfwmanager -u -i <image.bin>`, then a firmware reset or reboot; or "
        "install the driver release whose notes list " + n.version + ". Never mix firmware and driver generations "
        "across the cluster.";
  }
}

}  // namespace

void add_fw_compat_rules(std::vector<RuleInfo>& out) {
  out.push_back({"fw.driver-compat", "NIC firmware is in the installed driver's release notes", Severity::warning,
                 "rdma device / netdev / pci function",
                 "Firmware and driver ship as a tested pair: NVIDIA's MLNX_OFED and DOCA-Host release notes list "
                 "the firmware each adapter should run; other pairs are untested, and RoCE behaviour (congestion "
                 "control, PFC, counters) changes between firmware trains.",
                 "§4.2 firmware and driver: follow NVIDIA's compatibility matrix, do not mix firmware and driver "
                 "generations.",
                 eval_driver_compat, k_pass_fail_unknown,
                 "firmware version, PSID and device id per NIC (ethtool -i, ibv_devinfo, flint, lspci); the driver "
                 "release (ofed_info -s); data/compat/compat.json"});
}

}  // namespace rk::rules

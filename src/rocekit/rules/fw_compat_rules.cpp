// fw.driver-compat: each NIC's firmware against the release notes of the installed driver
// (data/compat/compat.json; how a row is read: data/compat/README.md "How a rule should read a
// row"). Firmware equal to the row's recommended version, or listed as supported, passes; other
// firmware of a family the release has a row for is "not in the release notes for this driver";
// a family the release notes say the driver does not support fails; a driver, release or family
// the table does not have is unknown, never a pass.
#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "rocekit/catalog/compat.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/fw_compat.hpp"
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
  std::optional<std::uint16_t> vendor_id;    ///< PCI vendor, when lspci/sysfs named it
  std::optional<std::string> driver;         ///< ethtool -i driver ("mlx5_core")
  std::optional<std::string> driver_version; ///< ethtool -i version ("23.10-1.1.9", or the kernel's)
  Evidence source;
  bool mlx5_name = false;                    ///< an RDMA device named mlx5_* (the mlx5_ib driver's names)
};

constexpr std::uint16_t k_nvidia_vendor = 0x15b3;

std::vector<NicFirmware> nic_firmware(const Snapshot& s) {
  std::vector<NicFirmware> out;
  std::set<std::string> seen_bdf, seen_rdma;
  auto pci_of = [&](const std::string& bdf) -> const PciFunction* { return bdf.empty() ? nullptr : s.find_pci(bdf); };
  auto netdev_of = [&](const RdmaDevice& d) -> const NetDev* {
    for (const NetDev& n : s.netdevs)
      if ((n.rdma_device && *n.rdma_device == d.name) || (d.bdf && n.bdf && *n.bdf == *d.bdf)) return &n;
    return nullptr;
  };
  auto fill_pci = [&](NicFirmware& f) {
    if (const PciFunction* p = pci_of(f.bdf)) {
      if (!f.device_id) f.device_id = p->device_id;
      f.vendor_id = p->vendor_id;
      if (!f.driver && p->driver) f.driver = p->driver;
    }
  };
  for (const RdmaDevice& d : s.rdma_devices) {
    if (!d.fw_ver) continue;
    NicFirmware n{d.name, d.bdf.value_or(""), *d.fw_ver, d.board_id, std::nullopt, std::nullopt, std::nullopt, std::nullopt, d.source};
    // The netdev of the same port: its PCI address (for the fix) and the running driver.
    if (const NetDev* nd = netdev_of(d)) {
      if (n.bdf.empty()) n.bdf = nd->pci_address();
      if (nd->driver.has_value()) {
        n.driver = nd->driver->driver;
        n.driver_version = nd->driver->version;
      }
    }
    fill_pci(n);
    if (!n.device_id && d.vendor_part_id && *d.vendor_part_id <= 0xffff) n.device_id = static_cast<std::uint16_t>(*d.vendor_part_id);
    if (!n.bdf.empty() && !seen_bdf.insert(n.bdf).second) continue;
    seen_rdma.insert(d.name);
    n.mlx5_name = d.name.starts_with("mlx5_");
    out.push_back(std::move(n));
  }
  for (const NetDev& nd : s.netdevs) {
    if (!nd.driver.has_value() || !nd.driver->firmware_version) continue;
    if (nd.rdma_device && seen_rdma.count(*nd.rdma_device)) continue;  // the same port, listed above
    std::string bdf = nd.pci_address();
    if (!bdf.empty() && !seen_bdf.insert(bdf).second) continue;
    NicFirmware n{nd.name, bdf, *nd.driver->firmware_version, nd.driver->psid, std::nullopt, std::nullopt,
                  nd.driver->driver, nd.driver->version, nd.driver.source};
    fill_pci(n);
    out.push_back(std::move(n));
  }
  for (const PciFunction& p : s.pci_functions) {
    if (!p.firmware.has_value() || !p.firmware->version || !seen_bdf.insert(p.bdf).second) continue;
    out.push_back({p.bdf, p.bdf, *p.firmware->version, p.firmware->psid, p.device_id, p.vendor_id, p.driver,
                   std::nullopt, p.firmware.source});
  }
  return out;
}

int major_of(const std::string& v) {
  std::optional<std::uint64_t> m = text::parse_uint(std::string_view(v).substr(0, v.find('.')));
  return m && *m < 1000 ? static_cast<int>(*m) : -1;
}

std::string hex4(std::uint16_t v) {
  char b[8];
  std::snprintf(b, sizeof b, "0x%04x", v);
  return b;
}

/// Where a NIC's firmware falls in the table: its adapter family, or why it has none.
struct Placement {
  const catalog::CompatFamily* family = nullptr;
  bool by_major = false;    ///< placed by its firmware major, without a device id
  bool not_nvidia = false;  ///< another vendor's NIC: no NVIDIA table applies
  std::string why;          ///< without a family: the reason (not_applicable or unknown)
};

Placement place(const NicFirmware& n, const catalog::CompatTable& t) {
  Placement pl;
  // Not an NVIDIA NIC: no NVIDIA table applies (a Broadcom 22.x firmware is no ConnectX-6 Dx).
  const bool other_vendor = (n.vendor_id && *n.vendor_id != k_nvidia_vendor) ||
                            (n.driver && *n.driver != "mlx5_core" && *n.driver != "mlx4_core");
  if (other_vendor) {
    pl.not_nvidia = true;
    pl.why = "not an NVIDIA NIC (" +
             (n.vendor_id && *n.vendor_id != k_nvidia_vendor ? "PCI vendor " + hex4(*n.vendor_id)
                                                              : "driver " + *n.driver) +
             ")";
    return pl;
  }
  if (!catalog::is_firmware_version(n.version)) {
    pl.why = "firmware version \"" + n.version + "\" is not in NVIDIA's NN.NN.NNNN form";
    return pl;
  }
  const int major = major_of(n.version);
  const catalog::CompatFamily* fam = n.device_id ? t.family_of_device(*n.device_id) : nullptr;
  if (fam && fam->fw_major && *fam->fw_major != major) {
    const catalog::CompatFamily* fm = t.family_of_major(major);
    pl.why = "device id " + hex4(*n.device_id) + " is " + fam->family + " (firmware major " +
             std::to_string(*fam->fw_major) + "), but the firmware " + n.version + " has major " +
             std::to_string(major) + (fm ? " (" + fm->family + ")" : std::string()) +
             ": the inputs disagree about the adapter";
    return pl;
  }
  // The firmware major names the chip only for an NVIDIA NIC (driver mlx5_core, PCI vendor
  // 0x15b3, an NVIDIA PSID, or an mlx5_* RDMA device).
  const bool nvidia = (n.vendor_id && *n.vendor_id == k_nvidia_vendor) || (n.driver && *n.driver == "mlx5_core") ||
                      (n.psid && n.psid->starts_with("MT_")) || n.mlx5_name;
  if (!fam && nvidia) {
    fam = t.family_of_major(major);
    pl.by_major = fam != nullptr;
  }
  if (!fam) {
    pl.why = "firmware " + n.version + ": the adapter family is not in the table (device id " +
             (n.device_id ? hex4(*n.device_id) : std::string("not read")) + ")";
    return pl;
  }
  pl.family = fam;
  return pl;
}

std::string release_name(const catalog::CompatRelease& r) { return r.stack + " " + r.version; }

/// fw.driver-compat; with `targets`, also the firmware to burn for each failing NIC.
void driver_compat(const Snapshot& s, Emitter& e, std::vector<FirmwareTarget>* targets) {
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
    std::string known;
    for (const catalog::CompatRelease& r : t.releases)
      if (r.ofed_info_s && r.stack == "MLNX_OFED") known += (known.empty() ? "" : ", ") + r.version;
    std::vector<std::string> fws;
    for (const NicFirmware& n : nics) fws.push_back(n.who + " " + n.version);
    Finding& f = e.unknown(
        "host", (d.stack == "DOCA-OFED"
                     ? d.release + " is DOCA-OFED, whose `ofed_info -s` does not name the DOCA-Host release the "
                                   "compatibility table is keyed by (data/compat/README.md)"
                     : d.release + " is not in the compatibility table, which knows MLNX_OFED " + known +
                           " and DOCA-Host releases by their DOCA version") +
                    "; firmware not judged: " + join(fws));
    add_evidence(f, s.driver_stack.source);
    return;
  }
  for (const NicFirmware& n : nics) {
    auto cite = [&](Finding& f) {
      add_evidence(f, n.source);
      add_evidence(f, s.driver_stack.source);
    };
    Placement pl = place(n, t);
    if (pl.not_nvidia) {
      e.not_applicable(n.who, pl.why);
      continue;
    }
    if (!pl.family) {
      cite(e.unknown(n.who, pl.why));
      continue;
    }
    const catalog::CompatFamily* fam = pl.family;
    const bool by_major = pl.by_major;
    const std::string head = "firmware " + n.version + " (" + fam->family + (by_major ? ", by its firmware major" : "") +
                             ") with " + release_name(*rel);
    bool unsupported = false;
    for (const std::string& u : rel->unsupported_families) unsupported = unsupported || u == fam->family;
    if (unsupported) {
      Finding& f = e.fail(n.who, head + ": the release notes say " + rel->stack + " does not support " + fam->family +
                                     " (" + rel->unsupported_source + ")");
      cite(f);
      f.remediation.scope = FixScope::none;
      f.remediation.notes = "Install a driver release that supports " + fam->family +
                            " (DOCA-Host for BlueField-3 and ConnectX-8), with the firmware its release notes give.";
      continue;
    }
    // The running mlx5_core must be the release ofed_info names: MLNX_OFED's reports its version
    // ("23.10-1.1.9" for 23.10-1.1.9.0); an inbox module reports the kernel's.
    if (n.driver_version && !d.version.starts_with(*n.driver_version)) {
      cite(e.unknown(n.who, head + ", but the running driver reports version " + *n.driver_version +
                                " (ethtool -i), not " + d.version + ": judge the driver that is loaded"));
      continue;
    }
    if (n.psid && !n.psid->starts_with("MT_")) {
      cite(e.unknown(n.who, head + ": an OEM-branded board (PSID " + *n.psid +
                                "); NVIDIA's tables cover NVIDIA-branded (MT_) cards, so judge it against the vendor's notes"));
      continue;
    }
    const catalog::CompatRow* row = t.row(rel->id, fam->family);
    if (!row) {
      std::string why = head + ": the table has no " + fam->family + " row for this release";
      if (rel->firmware_train) why += " (its release-level firmware train is " + *rel->firmware_train + ")";
      cite(e.unknown(n.who, why));
      continue;
    }
    bool listed = n.version == row->recommended;
    for (const std::string& v : row->supported) listed = listed || n.version == v;
    if (listed) {
      cite(e.pass(n.who, head + ": " + (n.version == row->recommended ? "the recommended" : "a supported") +
                             " firmware in its release notes (" + row->source + ")"));
      continue;
    }
    std::string want = row->recommended;
    if (!row->supported.empty()) want += " (or " + join(row->supported) + ")";
    Finding& f = e.fail(n.who, head + ": not in the release notes for this driver, which give " + want + " for " +
                                   fam->family + " (" + row->source + ")");
    cite(f);
    if (targets)
      targets->push_back({n.who, n.bdf, n.psid, n.version, row->recommended, fam->family, release_name(*rel),
                          row->source});
    const std::string psid = n.psid.value_or("<PSID>");
    if (n.psid && fix::valid_psid(*n.psid) && !n.bdf.empty()) {
      const std::string image = fix::firmware_image_placeholder(*n.psid);
      fix::set_fix(f.remediation, "firmware", n.version, row->recommended,
                   {fix::flint_image_check("mstflint", image, *n.psid, row->recommended),
                    fix::flint_burn("mstflint", n.bdf, image, row->recommended)});
    }
    f.remediation.scope = FixScope::firmware_reboot;
    f.remediation.notes =
        "Burn firmware " + row->recommended + " from a local image (" + fam->family + ", PSID " + psid +
        "): first `mstflint -i IMAGE query` must print `PSID: " + psid + "` and `FW Version: " + row->recommended +
        "`, then `mstflint -d " + (n.bdf.empty() ? std::string("<bdf>") : n.bdf) +
        " -i IMAGE -y burn`; it runs after a reboot or `mstfwreset -d <bdf> reset`. `rocekit plan --firmware-image " +
        psid + "=IMAGE` plans both. Or install the driver release whose notes list " + n.version +
        ". Never mix firmware and driver generations across the cluster.";
  }
}

void eval_driver_compat(const Snapshot& s, const Policy&, Emitter& e) { driver_compat(s, e, nullptr); }

/// The firmware versions the table gives for one family (recommended and supported, every
/// release), and the newest of them with the release whose notes recommend or list it.
struct FamilyFirmware {
  std::set<std::uint64_t> trains;  ///< the middle fields (28.43.4100 -> 43)
  std::string newest;    ///< "28.47.2682"
  std::string newest_release;
  std::string newest_source;
};

/// "28.43.4100" -> {28, 43, 4100}; callers checked catalog::is_firmware_version. No allocation:
/// fw.releases-behind runs it for every version of the table, for every NIC of every fleet host.
std::array<std::uint64_t, 3> version_key(std::string_view v) {
  std::array<std::uint64_t, 3> k{};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t dot = v.find('.');
    k[i] = text::parse_uint(v.substr(0, dot)).value_or(0);
    if (dot == std::string_view::npos) break;
    v.remove_prefix(dot + 1);
  }
  return k;
}

/// A version of another family's major (a documentation error a user's table may copy) is
/// left out.
FamilyFirmware family_firmware(const catalog::CompatTable& t, const catalog::CompatFamily& family) {
  FamilyFirmware out;
  std::array<std::uint64_t, 3> newest{};
  auto consider = [&](const catalog::CompatRow& r, const std::string& v) {
    if (!catalog::is_firmware_version(v)) return;
    const std::array<std::uint64_t, 3> key = version_key(v);
    if (family.fw_major && key[0] != static_cast<std::uint64_t>(*family.fw_major)) return;
    out.trains.insert(key[1]);
    if (!out.newest.empty() && key <= newest) return;
    newest = key;
    out.newest = v;
    out.newest_release = r.release;
    out.newest_source = r.source;
    for (const catalog::CompatRelease& rel : t.releases)
      if (rel.id == r.release) out.newest_release = release_name(rel);
  };
  for (const catalog::CompatRow& r : t.rows) {
    if (r.family != family.family) continue;
    consider(r, r.recommended);
    for (const std::string& v : r.supported) consider(r, v);
  }
  return out;
}

/// fw.releases-behind: each NIC's firmware against the newest firmware the table gives for its
/// adapter family, counted in firmware releases (trains: the middle field of the version).
void eval_releases_behind(const Snapshot& s, const Policy& p, Emitter& e) {
  const catalog::CompatTable& t = catalog::CompatTable::active();
  std::vector<NicFirmware> nics = nic_firmware(s);
  if (nics.empty()) {
    e.unknown("host", "no NIC firmware version in the input (ibv_devinfo, ethtool -i, flint, mlxfwmanager)").needs = {"ethtool_i"};
    return;
  }
  const int warn_at = p.firmware_warn_releases_behind;
  std::map<const catalog::CompatFamily*, FamilyFirmware> per_family;  // a host's NICs mostly share one
  for (const NicFirmware& n : nics) {
    // The PCI function when known: the same subject whichever tool showed the firmware.
    const std::string who = n.bdf.empty() ? n.who : n.bdf;
    Placement pl = place(n, t);
    if (pl.not_nvidia) {
      e.not_applicable(who, pl.why);
      continue;
    }
    if (!pl.family) {
      add_evidence(e.unknown(who, pl.why), n.source);
      continue;
    }
    const std::string& family = pl.family->family;
    const std::string head = "firmware " + n.version + " (" + family + (pl.by_major ? ", by its firmware major" : "") + ")";
    // NVIDIA's tables give the firmware of NVIDIA-branded boards; an OEM's trains are its own.
    if (n.psid && !n.psid->starts_with("MT_")) {
      add_evidence(e.unknown(who, head + ": an OEM-branded board (PSID " + *n.psid +
                                        "); NVIDIA's tables cover NVIDIA-branded (MT_) cards, so compare it with the "
                                        "vendor's firmware releases"),
                   n.source);
      continue;
    }
    auto known = per_family.find(pl.family);
    if (known == per_family.end()) known = per_family.emplace(pl.family, family_firmware(t, *pl.family)).first;
    const FamilyFirmware& ff = known->second;
    if (ff.newest.empty()) {
      add_evidence(e.unknown(who, head + ": the compatibility table gives no " + family +
                                        " firmware for any driver release, so the newest is not known"),
                   n.source);
      continue;
    }
    const std::array<std::uint64_t, 3> mine = version_key(n.version);
    std::vector<std::string> newer;
    for (std::uint64_t train : ff.trains)
      if (train > mine[1]) newer.push_back(std::to_string(mine[0]) + "." + std::to_string(train));
    const int behind = static_cast<int>(newer.size());
    const std::string newest = "the newest " + family + " firmware the compatibility table knows, " + ff.newest +
                               " (" + ff.newest_release + ", " + ff.newest_source + ")";
    const std::string count = std::to_string(behind) + " firmware release" + (behind == 1 ? "" : "s");
    if (behind < warn_at) {
      std::string what = behind == 0 ? (mine >= version_key(ff.newest) ? "is at or above " : "is on the train of ")
                                     : "is " + count + " (" + join(newer) + ") behind ";
      add_evidence(e.pass(who, head + " " + what + newest + "; the policy warns at " + std::to_string(warn_at)),
                   n.source);
      continue;
    }
    Finding& f = e.fail(who, head + " is " + count + " behind " + newest + ": trains " + join(newer) +
                                   " are newer; the policy warns at " + std::to_string(warn_at) +
                                   " (firmware.warn_releases_behind)");
    add_evidence(f, n.source);
    f.remediation.scope = FixScope::firmware_reboot;
    f.remediation.notes = "Plan a driver and firmware upgrade together: install a driver release whose notes give "
                          "newer " + family + " firmware (" + ff.newest_release + " gives " + ff.newest +
                          ") and burn that firmware from a local image whose PSID matches the board (see "
                          "fw.driver-compat and `rocekit plan --firmware-image PSID=IMAGE`), node by node.";
  }
}


}  // namespace

std::vector<FirmwareTarget> firmware_targets(const Snapshot& s) {
  std::vector<FirmwareTarget> out;
  const RuleInfo* rule = find_rule("fw.driver-compat");
  if (!rule) return out;
  std::vector<Finding> ignored;
  Emitter e(*rule, rule->severity, ignored);
  driver_compat(s, e, &out);
  return out;
}

void add_fw_compat_rules(std::vector<RuleInfo>& out) {
  out.push_back({"fw.driver-compat", "NIC firmware is in the installed driver's release notes", Severity::warning,
                 "rdma device / netdev / pci function",
                 "Firmware and driver ship as a tested pair: NVIDIA's MLNX_OFED and DOCA-Host release notes list "
                 "the firmware each adapter should run; other pairs are untested, and RoCE behaviour (congestion "
                 "control, PFC, counters) changes between firmware trains.",
                 "§4.2 firmware and driver: follow NVIDIA's compatibility matrix, do not mix firmware and driver "
                 "generations.",
                 eval_driver_compat, k_any_outcome,
                 "firmware version, PSID, PCI vendor and device id per NIC (ethtool -i, ibv_devinfo, flint, lspci); "
                 "the driver release (ofed_info -s); data/compat/compat.json"});
  out.push_back({"fw.releases-behind", "NIC firmware is not several releases behind the newest firmware of its adapter family",
                 Severity::warning, "rdma device / netdev / pci function",
                 "Each firmware train fixes RoCE behaviour (congestion control, PFC, counters, errata); a NIC "
                 "several trains behind the newest firmware its family has runs with fixes the rest of the "
                 "world has, and usually with a driver as old, so its upgrade is due before it falls off the "
                 "supported releases.",
                 "§4.2 firmware and driver: keep firmware current with NVIDIA's compatibility matrix.",
                 eval_releases_behind, k_any_outcome,
                 "firmware version, PSID, PCI vendor and device id per NIC (ethtool -i, ibv_devinfo, flint, lspci); "
                 "data/compat/compat.json (every release's firmware for the family); the policy "
                 "firmware.warn_releases_behind"});
}

}  // namespace rk::rules

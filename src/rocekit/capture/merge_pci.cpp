// PCI function outputs: lspci, firmware NV configuration (mlxconfig/mstconfig), firmware image
// queries (flint, mlxfwmanager, devlink), the kernel log (dmesg).
#include <algorithm>
#include <set>

#include "rocekit/build/builder.hpp"
#include "rocekit/capture/merge.hpp"
#include "rocekit/catalog/catalog.hpp"
#include "rocekit/parse/devlink_dev_eswitch.hpp"
#include "rocekit/parse/devlink_dev_info.hpp"
#include "rocekit/parse/dmesg.hpp"
#include "rocekit/parse/flint_query.hpp"
#include "rocekit/parse/lspci_vv.hpp"
#include "rocekit/parse/mlxlink_pcie.hpp"
#include "rocekit/parse/mlxconfig_query.hpp"
#include "rocekit/parse/mlxfwmanager.hpp"

namespace rk::capture {

void on_mlxconfig(Ctx& c) {
  auto v = c.take(parse::parse_mlxconfig_query(c.text.body));
  if (!v) return;
  PciFunction* p = pci_for_target(c, v->device ? v->device->device : std::nullopt);
  if (!p) return no_subject(c, "PCI address");
  NvConfig cfg = build::nv_config(*v, c.text.body_first_line - 1);
  p->nv_config.value = cfg;
  p->nv_config.source = v->is_set_transcript ? c.find("reboot").line ? c.find("reboot") : c.find("Applying")
                                             : (v->params.empty() ? c.whole() : c.at(v->params.front().line));
}

void on_flint(Ctx& c) {
  auto v = c.take(parse::parse_flint_query(c.text.body));
  if (!v) return;
  PciFunction* p = pci_for_target(c, std::nullopt);
  if (!p) return no_subject(c, "PCI address");
  if (!may_take_firmware(c, *p, v->fw_version_running ? v->fw_version_running : v->fw_version, c.find("FW Version")))
    return;
  FirmwareImage fw = p->firmware.value.value_or(FirmwareImage{});
  fw.version = v->fw_version_running ? v->fw_version_running : v->fw_version;
  if (v->fw_version_running && v->fw_version) fw.stored_version = v->fw_version;
  if (v->invalid_fw_version && v->fw_version) fw.stored_version = v->fw_version;
  if (v->psid) fw.psid = v->psid;
  if (auto d = std::find_if(v->other_fields.begin(), v->other_fields.end(),
                            [](const parse::FlintField& f) { return f.name == "Description"; });
      d != v->other_fields.end() && !fw.description)
    fw.description = d->value;
  p->firmware.value = fw;
  p->firmware.source = c.find("FW Version");
}

void on_mlxfwmanager(Ctx& c) {
  auto v = c.take(parse::parse_mlxfwmanager(c.text.body));
  if (!v) return;
  for (const parse::FwManagerDevice& d : v->devices) {
    std::optional<std::string> current;
    for (const parse::FwManagerVersion& ver : d.versions)
      if (ver.component == "FW" && ver.current && *ver.current != "N/A" && !current) current = ver.current;
    // This device's lines: from its `PCI Device Name:` (mlxfwmanager/mlxup print it before the
    // Versions table and Status, mlxfwmanager.py / mlxup's query print order), else the file's.
    std::size_t from = 1;
    if (d.pci_device_name)
      if (std::size_t at = c.field_line("PCI Device Name", *d.pci_device_name)) from = at;
    Evidence fw_line = current ? c.find(*current, from) : c.find("FW", from);
    // A device named by its MST path: the PCI address `mst status -v` gives it (a file named by
    // a PCI address, mlxfwmanager@<BDF>.txt, is about that address).
    std::optional<std::string> name = d.pci_device_name;
    if (name && !normalize_bdf(*name) && is_mst_name(*name) && !is_bdf(c.target)) {
      if (std::optional<std::string> b = c.bdf_of_mst(*name)) {
        name = b;
      } else {
        unplaced_firmware(c, *name, current, fw_line);
        continue;
      }
    }
    PciFunction* p = pci_for_target(c, name);
    if (!p) {
      no_subject(c, "PCI address");
      continue;
    }
    if (!may_take_firmware(c, *p, current, fw_line)) continue;
    FirmwareImage fw = p->firmware.value.value_or(FirmwareImage{});
    if (!fw.version) fw.version = current;
    auto useful = [](const std::optional<std::string>& s) { return s && *s != "N/A" && !s->empty(); };
    if (useful(d.psid)) fw.psid = d.psid;
    if (useful(d.part_number)) fw.part_number = d.part_number;
    if (useful(d.description)) fw.description = d.description;
    if (d.status_text) fw.update_status = d.status_text;
    p->firmware.value = fw;
    if (p->firmware.source.file.empty() || d.status_text)
      p->firmware.source = d.status_text ? c.find("Status:", from) : fw_line;
  }
}

void on_devlink(Ctx& c) {
  auto v = c.take(parse::parse_devlink_dev_info(c.text.body));
  if (!v) return;
  for (const parse::DevlinkDevice& d : v->devices) {
    if (d.bus != "pci") continue;
    auto bdf = normalize_bdf(d.name);
    if (!bdf) continue;
    PciFunction& p = c.snap.pci(*bdf);
    if (!may_take_firmware(c, p, parse::find_version(d.running, "fw.version"), c.find(d.name))) continue;
    FirmwareImage fw = p.firmware.value.value_or(FirmwareImage{});
    if (auto r = parse::find_version(d.running, "fw.version")) fw.version = r;
    if (auto s = parse::find_version(d.stored, "fw.version")) fw.stored_version = s;
    if (auto ps = parse::find_version(d.fixed, "fw.psid")) fw.psid = ps;
    p.firmware.value = fw;
    p.firmware.source = c.find(d.name);
    if (d.driver && !p.driver) p.driver = d.driver;
    if (d.board_serial_number && !d.board_serial_number->empty())
      p.board_serial_number = d.board_serial_number;
    if (d.function_uid && !d.function_uid->empty()) p.function_uid = d.function_uid;
  }
}

namespace {

/// The devlink answer rocekit-capture kept from a failed command's stderr in the file header
/// (`# notes: exit status 1; stderr: kernel answers: Operation not supported`), with its line.
std::optional<std::pair<std::string, Evidence>> header_devlink_answer(const Ctx& c) {
  std::vector<std::string_view> lines = text::lines(c.text.header);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::size_t at = lines[i].find("stderr: ");
    if (at == std::string_view::npos) continue;
    std::string_view err = text::trim(lines[i].substr(at + 8));
    if (std::optional<std::string_view> a = parse::devlink_answer(err))
      return std::pair{std::string(*a), Evidence{c.file.name, c.file.line_offset + i + 1, std::string(err)}};
  }
  return std::nullopt;
}

}  // namespace

void on_devlink_eswitch(Ctx& c) {
  // A failed command's body is empty: its answer is in the header rocekit-capture wrote.
  if (text::trim(c.text.body).empty()) {
    std::optional<std::pair<std::string, Evidence>> a = header_devlink_answer(c);
    PciFunction* p = a ? pci_for_target(c, std::nullopt) : nullptr;
    if (!p) return (void)c.take(parse::parse_devlink_dev_eswitch(c.text.body));
    build::devlink_eswitch_error(c.snap, p->bdf, a->first, a->second);
    return;
  }
  auto v = c.take(parse::parse_devlink_dev_eswitch(c.text.body));
  if (!v) return;
  bool any = false;
  for (const parse::DevlinkEswitch& d : v->devices) any = build::devlink_eswitch(c.snap, d, c.at(d.line)) || any;
  if (any || !v->kernel_error) {
    if (!any) no_subject(c, "PCI address");
    return;
  }
  PciFunction* p = pci_for_target(c, std::nullopt);
  if (!p) return no_subject(c, "PCI address");
  build::devlink_eswitch_error(c.snap, p->bdf, *v->kernel_error, c.find("answers:"));
}

namespace {

bool is_bridge(const parse::LspciDevice& d) {
  return d.class_id ? d.class_id->starts_with("0604") : d.class_name == "PCI bridge";
}

bool is_nvidia_gpu(const parse::LspciDevice& d) {
  if (!d.vendor_id ? !d.name.starts_with("NVIDIA") : text::to_lower(*d.vendor_id) != "10de") return false;
  if (d.class_id) return d.class_id->starts_with("0300") || d.class_id->starts_with("0302");
  return d.class_name == "3D controller" || d.class_name == "VGA compatible controller";
}

std::optional<std::uint16_t> hex_id(const std::optional<std::string>& s) {
  if (!s) return std::nullopt;
  std::optional<std::uint64_t> v = text::parse_hex(*s);
  if (!v || *v > 0xffff) return std::nullopt;
  return static_cast<std::uint16_t>(*v);
}

std::optional<PcieLinkState> link_of(const parse::LspciDevice& d) {
  if (!d.link_capability && !d.link_status) return std::nullopt;
  PcieLinkState l;
  if (d.link_capability) {
    l.capability.speed_gts = d.link_capability->speed_gts;
    if (d.link_capability->width_lanes) l.capability.width_lanes = static_cast<int>(*d.link_capability->width_lanes);
  }
  if (d.link_status) {
    l.status.speed_gts = d.link_status->speed_gts;
    if (d.link_status->width_lanes) l.status.width_lanes = static_cast<int>(*d.link_status->width_lanes);
    l.status.downgraded = d.link_status->speed_downgraded || d.link_status->width_downgraded;
  }
  if (d.max_payload_bytes) l.max_payload_bytes = static_cast<int>(*d.max_payload_bytes);
  if (d.devcap_max_payload_bytes) l.max_payload_cap_bytes = static_cast<int>(*d.devcap_max_payload_bytes);
  return l;
}

AcsBits acs_bits(const parse::PciFlags& f) {
  AcsBits b;
  b.source_validation = f.get("SrcValid").value_or(false);
  b.translation_blocking = f.get("TransBlk").value_or(false);
  b.request_redirect = f.get("ReqRedir").value_or(false);
  b.completion_redirect = f.get("CmpltRedir").value_or(false);
  b.upstream_forwarding = f.get("UpstreamFwd").value_or(false);
  b.egress_control = f.get("EgressCtrl").value_or(false);
  b.direct_translated = f.get("DirectTrans").value_or(false);
  return b;
}

/// Why a device block says nothing of its capabilities.
std::string no_capabilities(const parse::LspciDevice& d) {
  if (d.capabilities_denied) return "lspci ran without root: Capabilities <access denied>";
  return "the lspci output was filtered (no Capabilities lines for this device)";
}

void add_bridge(Ctx& c, const parse::LspciDevice& d) {
  if (!c.snap.pci_bridges.value) c.snap.pci_bridges.value.emplace();
  std::vector<PciBridge>& bridges = *c.snap.pci_bridges.value;
  auto it = std::find_if(bridges.begin(), bridges.end(), [&](const PciBridge& b) { return b.bdf == d.bdf; });
  if (it == bridges.end()) {
    bridges.push_back(PciBridge{});
    it = bridges.end() - 1;
  }
  PciBridge& b = *it;
  b.bdf = d.bdf;
  b.vendor_id = hex_id(d.vendor_id);
  b.device_id = hex_id(d.device_id);
  b.name = d.name;
  if (d.express_type) b.port_type = d.express_type->substr(0, d.express_type->find(" ("));  // "(Slot+)"
  if (d.secondary_bus) b.secondary_bus = static_cast<int>(*d.secondary_bus);
  if (d.subordinate_bus) b.subordinate_bus = static_cast<int>(*d.subordinate_bus);
  b.source = c.at(d.line);
  if (std::optional<PcieLinkState> l = link_of(d)) {
    b.link.value = *l;
    b.link.source = c.find("LnkSta:", d.line);
  } else {
    b.link.set_missing(no_capabilities(d), d.capabilities_denied ? ReasonKind::needs_root : ReasonKind::not_captured);
  }
  Evidence ctl_line = c.find("ACSCtl:", d.line);
  if (d.acs_control && d.acs_control->get("ReqRedir") && d.acs_control->get("CmpltRedir")) {
    PciAcs acs;
    if (d.acs_capability) acs.capability = acs_bits(*d.acs_capability);
    acs.control = acs_bits(*d.acs_control);
    b.acs.value = acs;
    b.acs.source = ctl_line;
  } else if (d.acs_control) {
    b.acs.set_missing(c.file.name + ":" + std::to_string(ctl_line.line) + ": the ACSCtl line does not show ReqRedir+/- "
                          "and CmpltRedir+/- (\"" + d.acs_control->raw + "\")",
                      ReasonKind::unreadable);
  } else if (d.has_acs) {
    b.acs.set_missing(c.file.name + ":" + std::to_string(c.at(d.line).line) + ": " + d.bdf +
                          " has an Access Control Services capability but no ACSCtl line (truncated or filtered output)",
                      ReasonKind::unreadable);
  } else if (d.capabilities_denied || !d.full_listing) {
    b.acs.set_missing(no_capabilities(d), d.capabilities_denied ? ReasonKind::needs_root : ReasonKind::not_captured);
  } else {
    b.acs.set_missing("no Access Control Services capability: the port cannot redirect peer-to-peer traffic",
                      ReasonKind::not_applicable);
  }
  if (c.snap.pci_bridges.source.file.empty()) c.snap.pci_bridges.source = c.at(d.line);
}

/// ATSCtl of a device block (pciutils ls-ecaps.c cap_ats(): "ATSCtl:\tEnable%c, Smallest
/// Translation Unit: %02x", printed with -vv and above).
Collected<bool> ats_of(const Ctx& c, const parse::LspciDevice& d) {
  Collected<bool> a;
  if (d.ats_enabled) {
    a.value = *d.ats_enabled;
    a.source = c.find("ATSCtl:", d.line);
  } else if (d.has_ats) {
    a.set_missing(c.file.name + ":" + std::to_string(c.at(d.line).line) + ": " + d.bdf +
                      " has an Address Translation Service capability but no ATSCtl line (save `lspci -vvv`)",
                  ReasonKind::unreadable);
  } else if (d.capabilities_denied) {
    a.set_missing("lspci ran without root: Capabilities <access denied> (save `lspci -vvv -D` as root)", ReasonKind::needs_root);
  } else if (!d.full_listing) {
    a.set_missing("the lspci output was filtered (no capability list): save `lspci -vvv -D` as root", ReasonKind::not_captured);
  } else {
    a.set_missing("no Address Translation Service (ATS) capability in lspci -vvv", ReasonKind::not_applicable);
  }
  return a;
}

/// lspci's "IOMMU group: N" line (the device's iommu_group link); the sysfs listing, which also
/// has the type, is read in preference.
void note_group(Ctx& c, const parse::LspciDevice& d) {
  if (!c.iommu || !d.iommu_group) return;
  c.iommu->by_bdf.emplace(d.bdf, IommuSeen::Group{IommuGroup{static_cast<int>(*d.iommu_group), std::nullopt},
                                                 c.find("IOMMU group:", d.line)});
}

}  // namespace

void on_lspci(Ctx& c) {
  auto v = c.take(parse::parse_lspci_vv(c.text.body));
  if (!v) return;
  for (parse::LspciDevice d : v->devices) {
    // A fragment without its header (`lspci -vvv -s BDF | grep Lnk`): the file name or the
    // paste's prompt names the function.
    if (d.headerless) {
      std::optional<std::string> bdf = is_bdf(c.target) ? normalize_bdf(c.target) : std::nullopt;
      if (!bdf) {
        no_subject(c, "PCI address");
        continue;
      }
      d.bdf = *bdf;
    }
    // A whole-tree lspci also lists bridges, GPUs, disks: bridges form the PCIe tree, NVIDIA
    // GPUs are placed once every file is read; other non-NVIDIA-networking functions are not
    // audited as NICs.
    if (is_bridge(d)) {
      add_bridge(c, d);
      continue;
    }
    if (is_nvidia_gpu(d)) {
      note_group(c, d);
      if (c.seen_gpus)
        c.seen_gpus->push_back({d.bdf, d.numa_node && *d.numa_node >= 0 ? std::optional<int>(static_cast<int>(*d.numa_node)) : std::nullopt,
                                c.at(d.line), ats_of(c, d)});
      continue;
    }
    bool mellanox = d.vendor_id ? text::to_lower(*d.vendor_id) == "15b3" : text::contains(d.name, "Mellanox");
    if (!mellanox && !c.snap.find_pci(d.bdf) && !is_bdf(c.target)) continue;
    PciFunction& p = c.snap.pci(d.bdf);
    if (!d.headerless || p.source.file.empty()) p.source = c.at(d.line);
    if (d.vendor_id) p.vendor_id = hex_id(d.vendor_id);
    if (d.device_id) p.device_id = hex_id(d.device_id);
    if (!d.headerless) {
      p.device_name = d.name;
      p.is_vf = d.is_virtual_function;
    }
    p.flash_recovery = d.flash_recovery ||
                       (p.device_id && catalog::Catalog::builtin().is_flash_recovery_id(*p.device_id));
    if (d.numa_node && *d.numa_node >= 0) p.numa_node = static_cast<int>(*d.numa_node);
    if (d.kernel_driver) p.driver = d.kernel_driver;
    if (d.vpd) {
      p.vpd_part_number = d.vpd->part_number;
      p.vpd_product_name = d.vpd->product_name;
      if (d.vpd->serial_number && !d.vpd->serial_number->empty() && !p.board_serial_number)
        p.board_serial_number = d.vpd->serial_number;
    }
    std::size_t from = d.line;
    if (std::optional<PcieLinkState> l = link_of(d)) {
      Evidence src = c.find("LnkSta:", from);
      if (may_take(c, p.link, "the PCIe link of " + p.bdf, src,
                   [&](const PcieLinkState& had) { return link_difference(had, *l); })) {
        p.link.value = *l;
        p.link.source = src;
      }
    } else if (d.capabilities_denied) {
      p.link.reason = "lspci ran without root: Capabilities <access denied>";
    } else if (!d.full_listing) {
      p.link.reason = "the lspci output was filtered (no LnkCap/LnkSta lines)";
    }
    if (d.relaxed_ordering) {
      p.relaxed_ordering.value = *d.relaxed_ordering;
      p.relaxed_ordering.source = c.find("RlxdOrd", from);
    } else if (d.capabilities_denied) {
      p.relaxed_ordering.set_missing("lspci ran without root: Capabilities <access denied>", ReasonKind::needs_root);
    } else {
      p.relaxed_ordering.set_missing("the lspci output has no DevCtl RlxdOrd flag for this function", ReasonKind::not_captured);
    }
    p.ats_enabled = ats_of(c, d);
    note_group(c, d);
    if (d.max_read_request_bytes) {
      build::max_read_request(p, *d.max_read_request_bytes, c.find("MaxReadReq", from));
    } else if (d.capabilities_denied) {
      p.max_read_request_bytes.reason = "lspci ran without root: Capabilities <access denied>";
    } else if (!d.full_listing) {
      p.max_read_request_bytes.reason = "the lspci output was filtered (no DevCtl line)";
    }
  }
}

void on_mlxlink_pcie(Ctx& c) {
  auto v = c.take(parse::parse_mlxlink_pcie(c.text.body));
  if (!v) return;
  if (v->depth && *v->depth != 0) {
    c.input.status = "unused";
    c.input.messages.push_back(c.file.name + ": depth " + std::to_string(*v->depth) +
                               ": a PCIe port above the NIC (mlxlink --depth), not the NIC's own link");
    return;
  }
  PciFunction* p = pci_for_target(c, std::nullopt);
  if (!p) return no_subject(c, "PCI address");
  auto end = [](std::optional<int> gen, std::optional<int> lanes) {
    PcieLinkEnd e;
    if (gen) e.speed_gts = parse::pcie_gen_gts(*gen);
    e.width_lanes = lanes;
    return e;
  };
  PcieLinkState l;
  l.status = end(v->gen_active, v->width_active);
  l.capability = end(v->gen_enabled, v->width_enabled);
  l.status.downgraded = (v->gen_active && v->gen_enabled && *v->gen_active < *v->gen_enabled) ||
                        (v->width_active && v->width_enabled && *v->width_active < *v->width_enabled);
  // lspci's registers (MaxPayload too) come first; mlxlink fills the link when lspci is absent,
  // and an active speed or width other than lspci's LnkSta is a conflict.
  Evidence src = c.at(v->speed_line ? v->speed_line : v->width_line);
  if (!may_take(c, p->link, "the PCIe link of " + p->bdf, src,
                [&](const PcieLinkState& had) { return link_difference(had, l); }) ||
      p->link.has_value())
    return;
  p->link.value = l;
  p->link.reason.clear();
  p->link.source = src;
  p->link.notes.push_back("mlxlink: the NIC's active link and the highest it enables; no MaxPayload");
}

void on_dmesg(Ctx& c) {
  auto v = c.take(parse::parse_dmesg(c.text.body));
  if (!v) return;
  // The functions the log is about: those an mlx5 line names, and those other files reported.
  // A host's log also holds GPUs, NVMe drives and bridges; they are not NICs rocekit audits.
  std::set<std::string> mlx5;
  for (const parse::DmesgFirmware& f : v->firmware)
    if (f.driver.starts_with("mlx5")) mlx5.insert(f.device);
  for (const parse::DmesgPcieBandwidth& b : v->pcie_bandwidth)
    if (b.driver.starts_with("mlx5")) mlx5.insert(b.device);
  auto wanted = [&](const std::string& bdf, const std::string&) {
    return mlx5.count(bdf) || c.snap.find_pci(bdf) != nullptr;
  };
  if (c.iommu) {
    for (const parse::DmesgIommuGroup& g : v->iommu_groups)
      c.iommu->by_bdf.emplace(g.device, IommuSeen::Group{IommuGroup{static_cast<int>(g.group), std::nullopt}, c.at(g.line)});
    if (v->iommu_default_domain) {
      c.iommu->host.default_domain = v->iommu_default_domain->type;
      c.iommu->host.domain_source = c.at(v->iommu_default_domain->line);
    }
    // /proc/cmdline, when captured, is read in preference: the same words, of this boot.
    if (v->cmdline && !c.iommu->host.cmdline) {
      c.iommu->host.cmdline = v->cmdline->iommu;
      c.iommu->host.cmdline_source = c.at(v->cmdline->line);
    }
  }
  for (const parse::DmesgFirmware& f : v->firmware)
    if (wanted(f.device, f.driver)) build::running_firmware(c.snap.pci(f.device), f.version, std::nullopt, c.at(f.line));
  for (const parse::DmesgPcieBandwidth& b : v->pcie_bandwidth) {
    if (!wanted(b.device, b.driver)) continue;
    build::kernel_pcie_link(c.snap.pci(b.device), b, c.at(b.line));
  }
}

}  // namespace rk::capture

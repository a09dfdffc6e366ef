// One host -> HostSummary: findings counted, failures kept, compared settings extracted.
#include <algorithm>
#include <set>

#include "rocekit/core/text.hpp"
#include "rocekit/fleet/fleet.hpp"
#include "rocekit/model/bluefield.hpp"
#include "rocekit/model/identity.hpp"
#include "rocekit/policy/scope.hpp"
#include "rocekit/rules/judged.hpp"
#include "rocekit/rules/qos_scope.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::fleet {

namespace {

std::string join_priorities(const std::vector<int>& v) {
  if (v.empty()) return "none";
  std::string s;
  for (int p : v) s += (s.empty() ? "" : ",") + std::to_string(p);
  return s;
}

std::string on_off(bool b) { return b ? "on" : "off"; }

std::string file_stem_of(const std::string& file) {
  std::filesystem::path p(file);
  std::string name = p.filename().string();
  if (name.empty()) name = p.parent_path().filename().string();
  for (std::string_view suf : {".tar.gz", ".tgz", ".tar", ".json"})
    if (name.size() > suf.size() && name.compare(name.size() - suf.size(), suf.size(), suf) == 0) {
      name.resize(name.size() - suf.size());
      break;
    }
  return name;
}

/// PCI function number from "dddd:bb:dd.f", or -1.
int function_number(const std::string& bdf) {
  auto dot = bdf.rfind('.');
  if (dot == std::string::npos || dot + 1 >= bdf.size()) return -1;
  char c = bdf[dot + 1];
  return c >= '0' && c <= '7' ? c - '0' : -1;
}

std::string device_part(const std::string& bdf) {
  auto dot = bdf.rfind('.');
  return dot == std::string::npos ? bdf : bdf.substr(0, dot);
}

std::optional<std::string> nv_value(const NvParam& p) {
  if (p.current_value) return p.current_value;
  if (p.next_boot_value) return p.next_boot_value;
  if (p.new_value) return p.new_value;
  return std::nullopt;
}

const RdmaDevice* rdma_for(const Snapshot& s, const NetDev* n, const std::string& bdf) {
  for (const RdmaDevice& r : s.rdma_devices) {
    if (n && n->rdma_device && r.name == *n->rdma_device) return &r;
    if (!bdf.empty() && r.bdf && *r.bdf == bdf) return &r;
  }
  return nullptr;
}

/// Board serial of this function, or of another function of the same PCI device.
std::optional<std::string> board_serial(const Snapshot& s, const std::string& bdf) {
  if (bdf.empty()) return std::nullopt;
  if (const PciFunction* p = s.find_pci(bdf))
    if (p->board_serial_number && !is_placeholder_id(*p->board_serial_number)) return p->board_serial_number;
  std::string dev = device_part(bdf);
  for (const PciFunction& p : s.pci_functions)
    if (device_part(p.bdf) == dev && p.board_serial_number && !is_placeholder_id(*p.board_serial_number))
      return p.board_serial_number;
  return std::nullopt;
}

struct Builder {
  const Snapshot& s;
  NicRecord rec;

  void set(std::string_view key, std::string value) { rec.values[std::string(key)] = std::move(value); }
  void missing(std::string_view key, std::string reason) {
    if (reason.empty()) reason = "not collected";
    rec.unknown[std::string(key)] = std::move(reason);
  }

  void from_netdev(const NetDev& n) {
    if (n.qos.has_value()) {
      const QosState& q = *n.qos;
      if (q.trust) set(setting::trust, str(*q.trust));
      else missing(setting::trust, "the QoS output shows no trust state");
      if (!q.dscp_to_priority.empty()) set(setting::dscp_map, dscp_map_text(q.dscp_to_priority));
      else missing(setting::dscp_map, "the QoS output shows no DSCP to priority map");
      if (q.pfc_enabled) {
        std::vector<int> on;
        for (std::size_t i = 0; i < q.pfc_enabled->size(); ++i)
          if ((*q.pfc_enabled)[i]) on.push_back(static_cast<int>(i));
        set(setting::pfc, join_priorities(on));
      } else {
        missing(setting::pfc, "the QoS output shows no PFC configuration");
      }
    } else {
      for (std::string_view k : {setting::trust, setting::dscp_map, setting::pfc})
        missing(k, n.qos.reason);
    }
    if (n.ecn.has_value()) {
      auto list = [](const std::map<int, bool>& m) {
        std::vector<int> on;
        for (auto [p, b] : m)
          if (b) on.push_back(p);
        return join_priorities(on);
      };
      set(setting::ecn, "rp:" + list(n.ecn->rp_enabled) + " np:" + list(n.ecn->np_enabled));
    } else {
      missing(setting::ecn, n.ecn.reason);
    }
    if (n.mtu_bytes.has_value()) set(setting::mtu, std::to_string(*n.mtu_bytes));
    else missing(setting::mtu, n.mtu_bytes.reason);
    if (n.coalesce.has_value()) {
      const CoalesceState& c = *n.coalesce;
      std::string v;
      auto add = [&v](const std::string& part) { v += (v.empty() ? "" : " ") + part; };
      if (c.adaptive_rx) add("adaptive-rx " + on_off(*c.adaptive_rx));
      if (c.adaptive_tx) add("adaptive-tx " + on_off(*c.adaptive_tx));
      if (c.rx_usecs) add("rx-usecs " + std::to_string(*c.rx_usecs));
      if (c.tx_usecs) add("tx-usecs " + std::to_string(*c.tx_usecs));
      if (c.rx_frames) add("rx-frames " + std::to_string(*c.rx_frames));
      if (c.tx_frames) add("tx-frames " + std::to_string(*c.tx_frames));
      if (v.empty()) missing(setting::coalescing, "the coalescing output shows no setting");
      else set(setting::coalescing, v);
    } else {
      missing(setting::coalescing, n.coalesce.reason);
    }
    if (n.driver.has_value() && n.driver->driver) {
      set(setting::driver, *n.driver->driver + (n.driver->version ? " " + *n.driver->version : ""));
    } else {
      missing(setting::driver, n.driver.has_value() ? "ethtool -i shows no driver" : n.driver.reason);
    }
  }

  void no_netdev() {
    for (std::string_view k : {setting::trust, setting::dscp_map, setting::pfc, setting::ecn,
                               setting::mtu, setting::coalescing, setting::driver})
      missing(k, "no netdev for this NIC in the input");
  }

  void from_pci(const NetDev* n, const PciFunction* p, const RdmaDevice* r) {
    // Firmware version: ethtool -i, else the firmware query, else the RDMA device.
    std::optional<std::string> fw;
    std::string fw_reason = "not collected (no ethtool -i, firmware query or RDMA device fw_ver)";
    if (n && n->driver.has_value() && n->driver->firmware_version) fw = n->driver->firmware_version;
    if (!fw && p && p->firmware.has_value() && p->firmware->version) fw = p->firmware->version;
    if (!fw && r && r->fw_ver) fw = r->fw_ver;
    if (fw) set(setting::firmware, *fw);
    else missing(setting::firmware, fw_reason);

    // Model group: PSID, else PCI device name, else board id (model/identity.hpp).
    NicIdentity id = nic_identity(n, p, r);
    if (id.psid) rec.model_ids["PSID"] = *id.psid;
    if (id.pci_device) rec.model_ids["PCI device"] = *id.pci_device;
    if (id.part_number) rec.model_ids["part number"] = *id.part_number;
    rec.model = id.model;

    if (!p) {
      missing(setting::max_read_request, "no PCI function for this NIC in the input");
      missing(setting::cnp, "no PCI function for this NIC in the input");
    } else {
      if (p->max_read_request_bytes.has_value())
        set(setting::max_read_request, std::to_string(*p->max_read_request_bytes));
      else missing(setting::max_read_request, p->max_read_request_bytes.reason);
      int fn = function_number(p->bdf);
      if (!p->nv_config.has_value()) {
        missing(setting::cnp, p->nv_config.reason);
      } else if (fn < 0) {
        missing(setting::cnp, "PCI function number unknown: cannot tell its port's CNP parameters");
      } else {
        std::string ps = "_P" + std::to_string(fn + 1);
        const NvParam* d = p->nv_config->find("CNP_DSCP" + ps);
        const NvParam* q = p->nv_config->find("CNP_802P_PRIO" + ps);
        std::optional<std::string> dv = d ? nv_value(*d) : std::nullopt;
        std::optional<std::string> qv = q ? nv_value(*q) : std::nullopt;
        if (dv || qv)
          set(setting::cnp, "dscp " + dv.value_or("?") + " priority " + qv.value_or("?"));
        else
          missing(setting::cnp, "the firmware query shows no CNP_DSCP" + ps + "/CNP_802P_PRIO" + ps);
      }
    }

    // A VF is not a PF of the board (and shows another PCI device id): it joins no physical NIC.
    if (p && p->is_vf && *p->is_vf) return;
    if (auto serial = board_serial(s, rec.bdf)) {
      rec.physical_id = "board serial " + *serial;
    } else if (r && r->sys_image_guid && !is_placeholder_id(*r->sys_image_guid)) {
      rec.physical_id = "system image GUID " + *r->sys_image_guid;
    }
  }
};

/// An NVIDIA (Mellanox) physical function: vendor 15b3, or, when the input shows no vendor id
/// (lspci -vv without -n), a ConnectX/BlueField name or a firmware query of the function.
bool is_nvidia_pf(const PciFunction& p) {
  if ((p.is_vf && *p.is_vf) || p.flash_recovery) return false;
  if (p.vendor_id) return *p.vendor_id == 0x15b3;
  if (p.device_name)
    for (std::string_view word : {"Mellanox", "ConnectX", "BlueField"})
      if (p.device_name->find(word) != std::string::npos) return true;
  return p.firmware.has_value() || p.nv_config.has_value();
}

/// Each NIC's (driver release, firmware) pair and fw.driver-compat's verdict on it; a "host"
/// finding (no driver release, or one the table lacks) is the verdict of every NIC.
void driver_firmware_pairs(const Snapshot& s, const rules::Report& report, std::vector<NicRecord>& nics) {
  const std::string key(setting::driver_firmware);
  for (NicRecord& n : nics) {
    auto fw = n.values.find(std::string(setting::firmware));
    if (!s.driver_stack.has_value())
      n.unknown[key] = "driver release not collected: " + s.driver_stack.reason;
    else if (fw == n.values.end())
      n.unknown[key] = "firmware version not collected";
    else
      n.values[key] = s.driver_stack->release + " + " + fw->second;
  }
  const Finding* host_wide = nullptr;
  for (const Finding& f : report.findings) {
    if (f.rule != "fw.driver-compat") continue;
    if (f.subject == "host") {
      host_wide = &f;
      continue;
    }
    const std::string bdf = s.subject_bdf(f.subject);
    for (NicRecord& n : nics)
      if (!n.compat && (n.subject == f.subject || (!bdf.empty() && n.bdf == bdf))) {
        n.compat = f.outcome;
        n.compat_why = f.message;
      }
  }
  for (NicRecord& n : nics)
    if (!n.compat && host_wide) {
      n.compat = host_wide->outcome;
      n.compat_why = host_wide->message;
    }
}

}  // namespace

bool is_placeholder_id(std::string_view id) {
  std::string t = text::to_lower(text::trim(id));
  if (t.empty()) return true;
  for (std::string_view filler :
       {"n/a", "na", "n.a.", "none", "null", "unknown", "not available", "not specified", "not applicable",
        "not set", "invalid", "to be filled by o.e.m.", "to be filled by oem", "default string",
        "system serial number", "serial number", "sn", "0123456789", "123456789", "1234567890"})
    if (t == filler) return true;
  std::string bare;  // without separators and a 0x prefix
  for (char c : text::starts_with(t, "0x") ? t.substr(2) : t)
    if (c != ':' && c != '-' && c != '.' && c != ' ') bare += c;
  auto only = [&bare](std::string_view set, std::size_t from) {
    return bare.size() > from && bare.find_first_not_of(set, from) == std::string::npos;
  };
  if (only("0x", 0) || only("f", 0)) return true;  // all zeros (or X's), all F's
  return text::starts_with(bare, "mt") && only("0x", 2);  // MT0000X00000: VPD never programmed
}

HostSummary summarize_host(const Snapshot& s, const std::string& file, const Policy& policy,
                           const std::vector<HostChecker>& extra_checks) {
  HostSummary h;
  h.file = file;
  // A hostname with a newline or escape in it would forge report lines: printable form only.
  h.host = text::escape_control(s.hostname.empty() ? file_stem_of(file) : s.hostname);
  h.loaded = true;

  // Findings: counted per rule; failures kept.
  rules::Report report = rules::evaluate(s, policy);
  for (const HostChecker& check : extra_checks) {
    std::vector<Finding> more = check(s, file_stem_of(file));
    report.findings.insert(report.findings.end(), std::make_move_iterator(more.begin()),
                           std::make_move_iterator(more.end()));
  }
  for (const Finding& f : report.findings) {
    ++h.rule_counts[f.rule][static_cast<std::size_t>(f.outcome)];
    if (f.outcome == Outcome::fail) h.failures.push_back({f.rule, f.subject, f.severity, f.message});
    if (f.outcome == Outcome::unknown) h.unknown_examples.emplace(f.rule, f.subject + ": " + f.message);
  }
  h.rule_counts.share_identical();
  h.not_judged = rules::not_judged_reasons(s, report.findings);

  // NIC records: every netdev with a PCI function or RDMA device, then NVIDIA PFs and RDMA
  // devices that no netdev covers.
  std::set<std::string> covered_bdf, covered_rdma;
  const std::optional<std::string> arm_side = bluefield_arm_side(s);
  for (const NetDev& n : s.netdevs) {
    if (!n.bdf && !n.rdma_device) continue;
    // Management netdevs and other non-RoCE ones (policy roles, IPoIB, non-NVIDIA NICs) are not
    // compared: the same scope as the host rules, so a 1500-MTU management port is no outlier.
    if (!roce_netdev_scope(s, n, policy).roce) continue;
    Builder b{s, {}};
    b.rec.subject = n.name;
    if (const InterfaceRoleRule* role = interface_role(policy, n)) b.rec.role = std::string(to_string(role->role));
    const RdmaDevice* r = rdma_for(s, &n, n.bdf.value_or(""));
    b.rec.bdf = n.bdf.value_or(r && r->bdf ? *r->bdf : "");
    if (!b.rec.bdf.empty()) covered_bdf.insert(b.rec.bdf);
    if (r) covered_rdma.insert(r->name);
    b.from_netdev(n);
    b.from_pci(&n, b.rec.bdf.empty() ? nullptr : s.find_pci(b.rec.bdf), r);
    // The host rules' scope (rules::port_qos_elsewhere): a DPU-mode BlueField's port QoS is set
    // on its Arm side, so the host's view of it is not compared (pair_dpus reports whether the
    // Arm side was audited).
    if (std::optional<std::string> elsewhere = rules::port_qos_elsewhere(s, n, arm_side))
      for (std::string_view k : {setting::trust, setting::dscp_map, setting::pfc, setting::ecn, setting::cnp}) {
        b.rec.values.erase(k);
        b.rec.unknown[k] = *elsewhere;
      }
    h.nics.push_back(std::move(b.rec));
  }
  for (const PciFunction& p : s.pci_functions) {
    if (!is_nvidia_pf(p) || covered_bdf.count(p.bdf)) continue;
    Builder b{s, {}};
    b.rec.subject = p.bdf;
    b.rec.bdf = p.bdf;
    const RdmaDevice* r = rdma_for(s, nullptr, p.bdf);
    if (r) covered_rdma.insert(r->name);
    b.no_netdev();
    b.from_pci(nullptr, &p, r);
    h.nics.push_back(std::move(b.rec));
  }
  for (const RdmaDevice& r : s.rdma_devices) {
    if (covered_rdma.count(r.name) || (r.bdf && covered_bdf.count(*r.bdf))) continue;
    Builder b{s, {}};
    b.rec.subject = r.name;
    b.rec.bdf = r.bdf.value_or("");
    b.no_netdev();
    b.from_pci(nullptr, b.rec.bdf.empty() ? nullptr : s.find_pci(b.rec.bdf), &r);
    h.nics.push_back(std::move(b.rec));
  }

  driver_firmware_pairs(s, report, h.nics);

  // Physical NICs with firmware NV configuration: once per physical NIC, from its lowest PF.
  std::map<std::string, PhysicalNicRecord> phys;
  for (const PciFunction& p : s.pci_functions) {
    if (!p.nv_config.has_value() || (p.is_vf && *p.is_vf)) continue;
    PhysicalNicRecord rec;
    auto serial = board_serial(s, p.bdf);
    const RdmaDevice* r = rdma_for(s, nullptr, p.bdf);
    if (serial) rec.key = "board serial " + *serial;
    else if (r && r->sys_image_guid && !is_placeholder_id(*r->sys_image_guid))
      rec.key = "system image GUID " + *r->sys_image_guid;
    rec.global_id = !rec.key.empty();
    if (rec.key.empty()) rec.key = h.host + "/" + device_part(p.bdf);
    auto seen = phys.find(rec.key);
    if (seen != phys.end() && seen->second.bdf < p.bdf) continue;  // the lowest PF wins
    rec.bdf = p.bdf;
    rec.model = "unknown model";
    for (const NicRecord& n : h.nics)
      if (n.bdf == p.bdf) rec.model = n.model;
    if (rec.model == "unknown model" && p.firmware.has_value() && p.firmware->psid)
      rec.model = "PSID " + *p.firmware->psid;
    for (const NvParam& prm : p.nv_config->params) {
      if (prm.name.rfind("CNP_", 0) == 0) continue;  // compared per port by fleet.cnp-consistent
      if (auto v = nv_value(prm)) rec.nv[prm.name] = *v;
    }
    std::string key = rec.key;
    phys.insert_or_assign(key, std::move(rec));
  }
  for (auto& [k, v] : phys) h.physical.push_back(std::move(v));
  note_bluefield(s, h);
  // Hosts of one fleet mostly reduce to equal settings: hold each distinct map once.
  for (NicRecord& n : h.nics) {
    n.values.share_identical();
    n.unknown.share_identical();
    n.model_ids.share_identical();
  }
  for (PhysicalNicRecord& p : h.physical) p.nv.share_identical();
  return h;
}

}  // namespace rk::fleet

// PCIe rules: link at capability, bandwidth feeds the ports, MaxReadReq.
#include <cmath>
#include <cstdio>
#include <string>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/catalog/pcie.hpp"
#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {


bool is_mellanox(const PciFunction& p) {
  return !p.vendor_id || *p.vendor_id == 0x15b3;
}

/// The lowest function of the same device shares the physical link with its siblings.
const PciFunction* link_owner(const Snapshot& s, const PciFunction& p) {
  std::string dev = p.bdf.substr(0, p.bdf.size() - 2);
  const PciFunction* best = &p;
  for (const PciFunction& o : s.pci_functions)
    if (o.bdf.size() == p.bdf.size() && o.bdf.substr(0, o.bdf.size() - 2) == dev &&
        o.bdf < best->bdf && !o.is_vf.value_or(false))
      best = &o;
  return best;
}

void eval_link_cap(const Snapshot& s, const Policy&, Emitter& e) {
  for (const PciFunction& p : s.pci_functions) {
    if (!judged_pci_function(p, e, "it has no link of its own (LnkSta reads unknown/x0)")) continue;
    if (!p.link.has_value()) {
      e.missing(p.bdf, "PCIe link", p.link);
      continue;
    }
    const PcieLinkState& l = *p.link;
    if (!l.capability.speed_gts || !l.capability.width_lanes || !l.status.width_lanes) {
      e.unknown(p.bdf, "LnkCap/LnkSta incomplete (run lspci -vv as root)");
      continue;
    }
    std::string msg = "LnkSta " + link_end_text(l.status) + " vs LnkCap " + link_end_text(l.capability);
    bool speed_ok = l.status.speed_gts && *l.status.speed_gts >= *l.capability.speed_gts - 0.01;
    bool width_ok = *l.status.width_lanes >= *l.capability.width_lanes;
    if (speed_ok && width_ok) {
      Finding& f = e.pass(p.bdf, msg);
      add_evidence(f, p.link.source);
      continue;
    }
    Finding& f = e.fail(p.bdf, msg + (width_ok ? "" : ": trained narrower than the card") +
                                   (speed_ok ? "" : ": trained slower than the card"));
    add_evidence(f, p.link.source);
    f.remediation.scope = FixScope::hardware;
    f.remediation.checks = {"lspci -vv -s " + p.bdf + " | grep -E 'LnkCap:|LnkSta:'"};
    f.remediation.notes =
        "Move the card to a slot wired for its full width and generation, check BIOS "
        "bifurcation/link-speed settings and riser cables; a speed downgrade can also come from "
        "signal-integrity errors (check AER counters in dmesg).";
  }
}

void eval_mrrs(const Snapshot& s, const Policy& pol, Emitter& e) {
  for (const PciFunction& p : s.pci_functions) {
    if (p.is_vf.value_or(false)) {
      e.not_applicable(p.bdf, "SR-IOV VF: its MaxReadReq field is reserved; the PF's applies");
      continue;
    }
    if (p.flash_recovery) {
      e.not_applicable(p.bdf, "function is in flash recovery");
      continue;
    }
    if (!p.max_read_request_bytes.has_value()) {
      e.missing(p.bdf, "MaxReadReq", p.max_read_request_bytes);
      continue;
    }
    int v = *p.max_read_request_bytes;
    std::string msg = "MaxReadReq " + std::to_string(v) + " bytes";
    if (v >= pol.max_read_request_bytes) {
      Finding& f = e.pass(p.bdf, msg);
      add_evidence(f, p.max_read_request_bytes.source);
      continue;
    }
    Finding& f = e.fail(p.bdf, msg + ", policy " + std::to_string(pol.max_read_request_bytes) +
                                   ": small read requests cut the NIC's transmit (DMA read) "
                                   "throughput");
    add_evidence(f, p.max_read_request_bytes.source);
    f.remediation.scope = FixScope::runtime;
    // Mask 7000: only DevCtl bits 14:12 are written (rk::fix::setpci_mrrs, the plan's form).
    if (std::optional<FixStep> st = fix::setpci_mrrs(p.bdf, pol.max_read_request_bytes))
      fix::set_fix(f.remediation, "max_read_request", std::to_string(v),
                   std::to_string(pol.max_read_request_bytes), {*st});
    f.remediation.checks.push_back("lspci -vv -s " + p.bdf + " | grep -o 'MaxReadReq [0-9]* bytes'");
    f.remediation.notes =
        "MaxReadReq is PCIe Device Control bits 14:12 (0=128 ... 5=4096 bytes), written with a "
        "mask so no other bit changes, then read back. It is lost at reboot: re-apply at boot "
        "(`rocekit plan` generates a unit). `mlxconfig ... set PCIE_MAX_READ_REQ=4096`, as some "
        "guides write it, does not exist: mstflint's mlxconfig database has no such parameter.";
  }
}

/// Port layout of the card behind `p`, and where it was read.
std::optional<std::pair<catalog::PortSpeeds, std::string>> card_ports(const Snapshot& s,
                                                                      const PciFunction& p) {
  std::vector<std::pair<std::string, std::string>> texts;  // (text, label)
  auto add = [&](const std::optional<std::string>& t, const std::string& label) {
    if (t && !t->empty()) texts.emplace_back(*t, label);
  };
  std::string dev = p.bdf.substr(0, p.bdf.size() - 2);
  for (const PciFunction& o : s.pci_functions) {
    if (o.bdf.substr(0, o.bdf.size() - 2) != dev) continue;
    if (o.firmware.has_value()) add(o.firmware->description, "firmware description");
    if (o.nv_config.has_value()) add(o.nv_config->description, "mlxconfig description");
    add(o.vpd_product_name, "VPD product name");
  }
  for (const auto& [t, label] : texts) {
    Result<catalog::PortSpeeds> r = catalog::port_speeds_from_text(t);
    if (r && r->port_count > 0 && r->total_gbps() > 0) return std::make_pair(*r, label + " \"" + t + "\"");
  }
  std::vector<std::string> parts;
  for (const PciFunction& o : s.pci_functions) {
    if (o.bdf.substr(0, o.bdf.size() - 2) != dev) continue;
    if (o.vpd_part_number) parts.push_back(*o.vpd_part_number);
    if (o.firmware.has_value() && o.firmware->part_number) parts.push_back(*o.firmware->part_number);
    if (o.nv_config.has_value() && o.nv_config->part_number)
      parts.push_back(*o.nv_config->part_number);
  }
  for (const std::string& pn : parts) {
    Result<catalog::PartMatch> m = catalog::Catalog::builtin().find_by_part_number(pn);
    if (m && m->part && m->part->port_count && m->part->speed_gbps) {
      catalog::PortSpeeds ps;
      ps.port_count = *m->part->port_count;
      ps.eth_speed_gbps = m->part->speed_gbps;
      return std::make_pair(ps, "part number " + pn);
    }
  }
  return std::nullopt;
}

void eval_bandwidth(const Snapshot& s, const Policy&, Emitter& e) {
  for (const PciFunction& p : s.pci_functions) {
    if (p.is_vf.value_or(false)) {
      e.not_applicable(p.bdf, "SR-IOV VF: no negotiated link of its own");
      continue;
    }
    if (p.flash_recovery) {
      e.not_applicable(p.bdf, "function is in flash recovery");
      continue;
    }
    if (!is_mellanox(p)) {
      e.not_applicable(p.bdf, "not an NVIDIA/Mellanox function: port speeds unknown to the catalog");
      continue;
    }
    const PciFunction* owner = link_owner(s, p);
    if (owner != &p) {
      e.not_applicable(p.bdf, "shares the PCIe link of " + owner->bdf + " (judged there)");
      continue;
    }
    if (!p.link.has_value()) {
      e.missing(p.bdf, "PCIe link", p.link);
      continue;
    }
    const PcieLinkState& l = *p.link;
    std::optional<int> gen = gen_of(l.status.speed_gts);
    if (!gen || !l.status.width_lanes || *l.status.width_lanes == 0 || !l.max_payload_bytes) {
      e.unknown(p.bdf, "negotiated speed, width or MaxPayload not shown");
      continue;
    }
    auto ports = card_ports(s, p);
    if (!ports) {
      e.unknown(p.bdf, "port count and speed of the card not known (no description, VPD or part "
                       "number the catalog recognises)");
      continue;
    }
    catalog::PcieLink link;
    link.gen = *gen;
    link.width_lanes = *l.status.width_lanes;
    link.max_payload_bytes = *l.max_payload_bytes;
    Result<double> eff = catalog::effective_gbps(link);
    if (!eff) {
      e.unknown(p.bdf, "PCIe model: " + eff.error().message);
      continue;
    }
    double need = ports->first.total_gbps();
    double ratio = *eff / need;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "Gen%d x%d MPS %d carries ~%.1f Gb/s; ports need %d x %g = %g Gb/s (ratio %.2f, "
                  "from %s)",
                  link.gen, link.width_lanes, link.max_payload_bytes, *eff,
                  ports->first.port_count, ports->first.line_rate_gbps(), need, ratio,
                  ports->second.c_str());
    if (ratio >= 1.0) {
      Finding& f = e.pass(p.bdf, buf);
      add_evidence(f, p.link.source);
      continue;
    }
    Finding& f = e.fail(p.bdf, std::string(buf) + ": the slot cannot feed the ports at line rate");
    add_evidence(f, p.link.source);
    f.remediation.scope = FixScope::hardware;
    f.remediation.notes =
        "Seat the card in a slot that negotiates its full generation and width (see "
        "pcie.link-at-capability), or plan for fewer active ports / a lower port speed. "
        "`rocekit select` sizes NICs to slots.";
  }
}

}  // namespace

void add_pcie_rules(std::vector<RuleInfo>& out) {
  out.push_back({"pcie.link-at-capability", "PCIe link trained at the card's capability",
                 Severity::error, "pci function",
                 "A card trained narrower or slower than it can (x16 card at x8) loses half its "
                 "host bandwidth.",
                 "§4.1 selection: ConnectX-7 400G needs PCIe 5.0 x16; check LnkSta vs LnkCap.",
                 eval_link_cap,
                 k_any_outcome,
                 "PCIe link status and capability (lspci -vv LnkSta/LnkCap, sysfs current/max_link_speed and width)"});
  out.push_back({"pcie.bandwidth-feeds-ports", "Negotiated PCIe bandwidth feeds all ports",
                 Severity::error, "pci function",
                 "If the effective PCIe rate (after encoding and TLP overhead) is below the sum of "
                 "port line rates, the ports can never run at line rate together.",
                 "§4.1: 200G on PCIe 4.0 x16, 400G on 5.0 x16, 800G needs 6.0; math per "
                 "catalog.md §3.", eval_bandwidth,
                 k_any_outcome,
                 "negotiated PCIe speed, width and MaxPayload (lspci -vv) and the card's port count and speed (VPD product name, firmware description or part number, via the catalog)"});
  out.push_back({"pcie.max-read-request", "PCIe MaxReadReq is 4096", Severity::warning,
                 "pci function",
                 "The NIC's transmit path reads host memory; a small MRRS multiplies read "
                 "requests and lowers throughput.",
                 "§4.2 `mlxconfig set PCIE_MAX_READ_REQ=4096` does not exist; MRRS is PCIe "
                 "DevCtl, set with setpci (host-facts §B, §K.4).", eval_mrrs,
                 k_any_outcome,
                 "PCIe DevCtl MaxReadReq (lspci -vv, PCI config space)"});
}

}  // namespace rk::rules

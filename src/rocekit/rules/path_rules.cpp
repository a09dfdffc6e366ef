// GPU <-> NIC data-path rules: what lies on the PCIe path between a GPU and a NIC it reaches
// through a PCIe switch (nvidia-smi PIX/PXB), the path GPUDirect RDMA takes.
#include <algorithm>
#include <cstdio>

#include "rocekit/build/builder.hpp"
#include "rocekit/build/pci_tree.hpp"
#include "rocekit/catalog/pcie.hpp"
#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

namespace {

std::string bridge_label(const PciBridge& b) {
  return b.bdf + (b.port_type ? " (" + *b.port_type + ")" : std::string());
}

void eval_acs(const Snapshot& s, const Policy&, Emitter& e) {
  const std::vector<Gpu>* gpus = judged_gpus(s, e);
  if (!gpus) return;
  for (const Gpu& g : *gpus) {
    std::string gs = "gpu" + std::to_string(g.index);
    std::vector<const GpuNicLink*> near;
    for (const GpuNicLink& l : g.nics)
      if (l.relation == "PIX" || l.relation == "PXB") near.push_back(&l);
    if (g.nics.empty()) {
      Finding& f = e.unknown(gs, "no NIC in the input to pair " + gs + " with: the RDMA devices and their PCI "
                                 "addresses are missing (`ls -l /sys/class/infiniband` as sysfs_ib_links.txt, "
                                 "`ibdev2netdev -v`, or `nvidia-smi topo -m`)");
      f.reason_kind = ReasonKind::not_captured;
      continue;
    }
    if (near.empty()) {
      e.not_applicable(gs, "no NIC shares a PCIe switch with " + gs +
                               ": its GPUDirect traffic crosses the root complex whatever ACS says "
                               "(see gpudirect.gpu-nic-affinity)");
      continue;
    }
    for (const GpuNicLink* l : near) {
      std::string subject = gs + " <-> " + l->nic;
      const PciFunction* fn = build::rdma_function(s, l->nic);
      if (!g.bdf || !fn) {
        Finding& f = e.unknown(subject, std::string("the PCI address of ") + (!g.bdf ? gs : l->nic) +
                                            " is not in the input (save `lspci -vvv -D` as root as lspci_vvv@tree.txt, "
                                            "and `ls -l /sys/class/infiniband` as sysfs_ib_links.txt, or run "
                                            "`rocekit check` live)");
        f.reason_kind = ReasonKind::not_captured;
        continue;
      }
      if (!s.pci_bridges.has_value()) {
        e.missing(subject, "PCIe bridges", s.pci_bridges);
        continue;
      }
      std::vector<const PciBridge*> up_gpu = build::bridges_above(s, g.parent_bdf);
      std::vector<const PciBridge*> up_nic = build::bridges_above(s, fn->parent_bdf);
      std::optional<std::vector<const PciBridge*>> between = build::bridges_between(up_gpu, up_nic);
      if (!between) {
        Finding& f = e.unknown(subject, "the input does not connect " + *g.bdf + " and " + fn->bdf +
                                            " through a shared bridge (the topology says " + l->relation +
                                            "): save `lspci -vvv -D` (the whole tree, as root) as lspci_vvv@tree.txt");
        f.reason_kind = ReasonKind::not_captured;
        continue;
      }
      std::vector<const PciBridge*> redirecting;
      std::vector<std::string> unknown;
      for (const PciBridge* b : *between) {
        if (!b->acs.has_value()) {
          if (b->acs.reason_kind != ReasonKind::not_applicable)
            unknown.push_back(b->bdf + ": " + (b->acs.reason.empty() ? std::string("not in the input") : b->acs.reason));
          continue;
        }
        if (b->acs->control.request_redirect || b->acs->control.completion_redirect) redirecting.push_back(b);
      }
      std::string pair = gs + " (" + *g.bdf + ") and " + l->nic + " (" + fn->bdf + ")";
      if (!redirecting.empty()) {
        std::string where;
        for (const PciBridge* b : redirecting) where += (where.empty() ? "" : ", ") + bridge_label(*b);
        Finding& f = e.fail(subject, "ACS redirects peer-to-peer traffic at " + where + " (ACSCtl " +
                                         acs_flags_text(redirecting.front()->acs->control) +
                                         "): GPUDirect RDMA between " + pair +
                                         " goes up to the root complex instead of across the switch");
        std::vector<FixStep> steps;
        std::string list;
        for (const PciBridge* b : redirecting) {
          add_evidence(f, b->acs.source);
          steps.push_back(fix::setpci_acs_redirect_off(b->bdf));
          list += (list.empty() ? "" : ";") + b->bdf;
        }
        fix::set_fix(f.remediation, "acs_redirect", "on", "off", steps);
        f.remediation.scope = FixScope::runtime;
        for (const PciBridge* b : redirecting)
          f.remediation.checks.push_back("lspci -vvv -s " + b->bdf + " | grep ACSCtl");
        f.remediation.notes =
            "The write clears ACS Control bits 2-3 (P2P Request and Completion Redirect) with a mask, "
            "then reads them back; it is lost at reboot. To keep it, boot with the kernel parameter "
            "`pci=disable_acs_redir=" + list + "` (drivers/pci/pci.c pci_setup(), Linux >= 4.19; it "
            "also clears Egress Control) or turn ACS off in the BIOS (often \"PCIe ACS Control\" or "
            "\"ACS Enable\"). NVIDIA's NCCL troubleshooting guide clears every ACS bit (`ECAP_ACS+0x6.w=0000`). "
            "The cost: the devices behind these ports are no longer isolated from each other, so "
            "their IOMMU groups merge and one of them cannot be passed to a VM on its own.";
        continue;
      }
      if (!unknown.empty()) {
        Finding& f = e.unknown(subject, "ACS state not known at " + unknown.front() +
                                            (unknown.size() > 1 ? " (+" + std::to_string(unknown.size() - 1) + " more)" : ""));
        f.reason_kind = ReasonKind::needs_root;
        continue;
      }
      std::string via;
      for (const PciBridge* b : *between) via += (via.empty() ? "" : ", ") + b->bdf;
      Finding& f = e.pass(subject, between->empty()
                                       ? pair + " share their parent bridge: no port redirects between them"
                                       : "no bridge between " + pair + " redirects peer-to-peer traffic (" + via + ")");
      for (const PciBridge* b : *between) add_evidence(f, b->acs.has_value() ? b->acs.source : b->source);
    }
  }
}

/// Whether the IOMMU translates one device's DMA, and why: its group's type (the most direct
/// evidence), else no group at all, else the host's default mode.
struct Translation {
  std::optional<bool> on;
  std::string why;      ///< "IOMMU group 41 has type DMA-FQ (translated)", "the host's IOMMU is in passthrough mode (dmesg)"
  Evidence source;
  std::string unknown;  ///< why it is not known
  ReasonKind kind = ReasonKind::none;
};

Translation translation(const Snapshot& s, const Collected<IommuGroup>& g) {
  Translation t;
  std::string group;
  if (g.has_value()) {
    group = "IOMMU group " + std::to_string(g->number);
    if (std::optional<bool> tr = build::group_translates(*g)) {
      t.on = *tr;
      t.why = group + " has type " + *g->type + (*tr ? " (translated)" : " (passthrough)");
      t.source = g.source;
      return t;
    }
  } else if (g.reason_kind == ReasonKind::not_applicable) {
    t.on = false;
    t.why = "it is in no IOMMU group";
    t.source = g.source;
    return t;
  }
  if (s.iommu.has_value()) {
    t.on = s.iommu->mode == "translated";
    t.why = (group.empty() ? std::string() : group + ", type not in the input; ") + "the host's IOMMU is in " +
            s.iommu->mode + " mode (" + s.iommu->decided_by + ")";
    t.source = s.iommu.source;
    return t;
  }
  t.unknown = s.iommu.reason.empty() ? std::string("the IOMMU mode is not in the input") : s.iommu.reason;
  t.kind = s.iommu.reason_kind == ReasonKind::none ? ReasonKind::not_captured : s.iommu.reason_kind;
  return t;
}

/// ATS of one device: on, off (Enable-, or no ATS capability), or not known.
struct AtsState {
  std::optional<bool> on;
  std::string text;     ///< "ATSCtl Enable-", "no ATS capability"
  Evidence source;
  std::string unknown;
  ReasonKind kind = ReasonKind::none;
};

AtsState ats(const Collected<bool>& a) {
  AtsState st;
  if (a.has_value()) {
    st.on = *a;
    st.text = std::string("ATSCtl Enable") + (*a ? "+" : "-");
    st.source = a.source;
  } else if (a.reason_kind == ReasonKind::not_applicable) {
    st.on = false;
    st.text = "no ATS capability";
  } else {
    st.unknown = a.reason.empty() ? std::string("not in the input") : a.reason;
    st.kind = a.reason_kind == ReasonKind::none ? ReasonKind::not_captured : a.reason_kind;
  }
  return st;
}

void eval_iommu_ats(const Snapshot& s, const Policy&, Emitter& e) {
  const std::vector<Gpu>* gpus = judged_gpus(s, e);
  if (!gpus) return;
  for (const Gpu& g : *gpus) {
    std::string gs = "gpu" + std::to_string(g.index);
    std::vector<const GpuNicLink*> near;
    for (const GpuNicLink& l : g.nics)
      if (l.relation == "PIX" || l.relation == "PXB") near.push_back(&l);
    if (g.nics.empty()) {
      Finding& f = e.unknown(gs, "no NIC in the input to pair " + gs + " with: the RDMA devices and their PCI "
                                 "addresses are missing (`ls -l /sys/class/infiniband` as sysfs_ib_links.txt, "
                                 "`ibdev2netdev -v`, or `nvidia-smi topo -m`)");
      f.reason_kind = ReasonKind::not_captured;
      continue;
    }
    if (near.empty()) {
      e.not_applicable(gs, "no NIC shares a PCIe switch with " + gs +
                               ": its GPUDirect traffic crosses the root complex anyway (see gpudirect.gpu-nic-affinity)");
      continue;
    }
    for (const GpuNicLink* l : near) {
      std::string subject = gs + " <-> " + l->nic;
      const PciFunction* fn = build::rdma_function(s, l->nic);
      if (!g.bdf || !fn) {
        Finding& f = e.unknown(subject, std::string("the PCI address of ") + (!g.bdf ? gs : l->nic) +
                                            " is not in the input (save `lspci -vvv -D` as root as lspci_vvv@tree.txt, "
                                            "and `ls -l /sys/class/infiniband` as sysfs_ib_links.txt, or run "
                                            "`rocekit check` live)");
        f.reason_kind = ReasonKind::not_captured;
        continue;
      }
      std::string nic = l->nic + " (" + fn->bdf + ")", gpu = gs + " (" + *g.bdf + ")";
      // GPUDirect RDMA is the NIC's DMA into GPU memory: the NIC's domain decides.
      Translation nt = translation(s, fn->iommu_group);
      if (!nt.on) {
        Finding& f = e.unknown(subject, "whether the IOMMU translates " + nic + "'s DMA is not known: " + nt.unknown);
        f.reason_kind = nt.kind;
        f.needs.push_back("proc_cmdline");
        f.needs.push_back("sysfs_iommu_groups");
        continue;
      }
      if (!*nt.on) {
        Finding& f = e.pass(subject, "the IOMMU does not translate " + nic + "'s DMA (" + nt.why +
                                         "): its peer-to-peer requests to " + gpu + " need no translation at the root complex");
        add_evidence(f, nt.source);
        continue;
      }
      // The GPU's own requests to the NIC (doorbells, GPU-initiated networking) follow its domain.
      Translation gt = translation(s, g.iommu_group);
      AtsState na = ats(fn->ats_enabled);
      std::optional<AtsState> ga;
      if (gt.on != false) ga = ats(g.ats_enabled);
      std::vector<std::string> off;
      if (na.on == false) off.push_back(na.text == "no ATS capability" ? nic + " has no ATS capability" : "ATS is off on " + nic + " (" + na.text + ")");
      if (ga && ga->on == false) off.push_back(ga->text == "no ATS capability" ? gpu + " has no ATS capability" : "ATS is off on " + gpu + " (" + ga->text + ")");
      if (!off.empty()) {
        std::string what = off.front() + (off.size() > 1 ? " and " + off[1] : std::string());
        Finding& f = e.fail(subject, "the IOMMU translates " + nic + "'s DMA (" + nt.why + ") and " + what +
                                         ": every peer-to-peer request between " + gpu + " and " + l->nic +
                                         " goes up to the root complex to be translated instead of across the switch");
        add_evidence(f, nt.source);
        if (na.on == false && !na.source.file.empty()) add_evidence(f, na.source);
        if (ga && ga->on == false && !ga->source.file.empty()) add_evidence(f, ga->source);
        f.remediation.scope = FixScope::firmware_reboot;
        bool nic_fix = na.on == false && fn->vendor_id == 0x15b3 && !fn->is_vf.value_or(false);
        if (nic_fix) {
          FixStep set = fix::nv_ats_enabled(fn->bdf);
          f.remediation.commands = {fix::command_line(set), "mstfwreset -d " + fn->bdf + " -y reset"};
          set.argv = set.check_argv;
          f.remediation.checks = {fix::command_line(set)};
        }
        f.remediation.checks.push_back("lspci -vvv -s " + fn->bdf + " | grep ATSCtl");
        f.remediation.checks.push_back("cat /sys/kernel/iommu_groups/" +
                                       (fn->iommu_group.has_value() ? std::to_string(fn->iommu_group->number) : std::string("*")) +
                                       "/type");
        f.remediation.notes =
            std::string(nic_fix ? "ATS_ENABLED (mstflint's mlxconfig database, nv_pci_conf; the firmware must report "
                                  "nv_pci_cap.ats_supported) makes the NIC offer ATS after a reboot or mstfwreset; the "
                                  "kernel's IOMMU driver then enables it (ATSCtl Enable+) for a translated domain. The "
                                  "cost: the NIC caches translations and the IOMMU must invalidate them on every unmap, "
                                  "and translated requests pass the root complex unchecked, so the host trusts the NIC. "
                                : "") +
            "The other way keeps ATS off and stops translating the host's own DMA: boot with `iommu=pt` (x86, Intel "
            "VT-d or AMD-Vi) or `iommu.passthrough=1` (arm64 SMMU) (Documentation/admin-guide/kernel-parameters.txt; "
            "the default domain becomes identity, dmesg then says \"Default domain type: Passthrough\"). The cost: "
            "host drivers' DMA is no longer isolated by the IOMMU (devices given to VMs through VFIO stay translated). "
            "NVIDIA's Network Operator sets ATS_ENABLED=0 for bare metal, where passthrough is the usual choice.";
        continue;
      }
      const AtsState* unknown = na.on ? (ga && !ga->on ? &*ga : nullptr) : &na;
      if (unknown) {
        Finding& f = e.unknown(subject, "the IOMMU translates " + nic + "'s DMA (" + nt.why + ") and ATS of " +
                                            (unknown == &na ? nic : gpu) + " is not known: " + unknown->unknown);
        f.reason_kind = unknown->kind;
        f.needs.push_back("lspci_vvv");
        continue;
      }
      Finding& f = e.pass(subject, "the IOMMU translates " + nic + "'s DMA (" + nt.why + "), and ATS is enabled on " +
                                       nic + (ga ? " and " + gpu : std::string()) +
                                       " (ATSCtl Enable+): they cache translations and send translated requests the "
                                       "switch routes directly");
      add_evidence(f, nt.source);
      add_evidence(f, na.source);
      if (ga) add_evidence(f, ga->source);
    }
  }
}

/// Payload rate of a link end after line encoding, Gb/s per direction (catalog/pcie.hpp).
std::optional<double> link_gbps(const PcieLinkEnd& e) {
  std::optional<int> gen = gen_of(e.speed_gts);
  if (!gen || !e.width_lanes || *e.width_lanes <= 0) return std::nullopt;
  return *catalog::raw_gbps_per_lane(*gen) * *catalog::encoding_efficiency(*gen) * *e.width_lanes;
}

void eval_path_link(const Snapshot& s, const Policy&, Emitter& e) {
  for (const PciFunction& p : s.pci_functions) {
    if (!judged_pci_function(p, e, "its traffic uses the PF's PCIe path")) continue;
    if (!s.pci_bridges.has_value()) {
      e.missing(p.bdf, "PCIe bridges above the NIC", s.pci_bridges);
      continue;
    }
    if (!p.link.has_value()) {
      e.missing(p.bdf, "PCIe link", p.link);
      continue;
    }
    std::vector<const PciBridge*> up = build::bridges_above(s, p.parent_bdf);
    if (up.empty()) {
      Finding& f = e.unknown(p.bdf, p.parent_bdf ? "the bridge above " + p.bdf + " (" + *p.parent_bdf + ") is not in the input"
                                                 : "the bridge above " + p.bdf + " is not known: save `lspci -vvv -D` "
                                                   "(the whole tree, as root) as lspci_vvv@tree.txt");
      f.reason_kind = ReasonKind::not_captured;
      continue;
    }
    const PcieLinkState& nl = *p.link;
    std::optional<double> nic_gbps = link_gbps(nl.status);
    std::vector<std::string> problems, unknown;
    if (!nic_gbps || !nl.max_payload_bytes)
      unknown.push_back(p.bdf + ": its own LnkSta or MaxPayload is not in the input (" + link_end_text(nl.status) + ")");
    std::vector<const PciBridge*> capping;
    std::string hops;
    Finding* f = nullptr;
    std::vector<Evidence> evidence{p.link.source};
    for (const PciBridge* b : up) {
      if (!b->link.has_value()) {
        unknown.push_back(b->bdf + ": " + (b->link.reason.empty() ? std::string("not in the input") : b->link.reason));
        continue;
      }
      const PcieLinkState& bl = *b->link;
      std::string label = b->bdf + (b->port_type ? " (" + *b->port_type + ")" : std::string());
      hops += (hops.empty() ? "" : ", ") + b->bdf + " " + link_end_text(bl.status) +
              (bl.max_payload_bytes ? " MPS " + std::to_string(*bl.max_payload_bytes) : std::string());
      bool bad = false;
      std::optional<double> g = link_gbps(bl.status);
      if (bl.status.downgraded) {
        problems.push_back(label + " trained at " + link_end_text(bl.status) + " of " + link_end_text(bl.capability));
        bad = true;
      } else if (g && nic_gbps && *g + 0.5 < *nic_gbps) {
        problems.push_back(label + " link " + link_end_text(bl.status) + " is slower than the NIC's " + link_end_text(nl.status));
        bad = true;
      }
      if (bl.max_payload_bytes && nl.max_payload_bytes && *bl.max_payload_bytes < *nl.max_payload_bytes) {
        problems.push_back(label + " MaxPayload " + std::to_string(*bl.max_payload_bytes) + " is below the NIC's " +
                           std::to_string(*nl.max_payload_bytes));
        bad = true;
      }
      if (!bad && (!g || !bl.max_payload_bytes))
        unknown.push_back(b->bdf + ": LnkSta " + link_end_text(bl.status) +
                          (bl.max_payload_bytes ? "" : ", MaxPayload not read"));
      if (bad) {
        evidence.push_back(b->link.source);
        capping.push_back(b);
      }
    }
    if (!problems.empty()) {
      std::string msg = problems.front();
      for (std::size_t i = 1; i < problems.size(); ++i) msg += "; " + problems[i];
      f = &e.fail(p.bdf, msg + ": the path to the root port caps " + p.bdf + " (NIC " + link_end_text(nl.status) +
                             (nl.max_payload_bytes ? " MPS " + std::to_string(*nl.max_payload_bytes) : std::string()) + ")");
      f->remediation.scope = FixScope::hardware;
      for (const PciBridge* b : capping)
        f->remediation.checks.push_back("lspci -vvv -s " + b->bdf + " | grep -E 'LnkCap:|LnkSta:|MaxPayload'");
      f->remediation.notes =
          "A bridge trained below its capability caps every device behind it: check the switch board's seating, "
          "riser and BIOS link-speed settings, and AER errors in dmesg. MaxPayload must not shrink along a "
          "path: the kernel sets it per hierarchy at boot (kernel parameter pci=pcie_bus_safe or pcie_bus_perf, "
          "Documentation/admin-guide/kernel-parameters.txt); a bridge below the device's MPS receives TLPs "
          "larger than it accepts.";
    } else if (!unknown.empty()) {
      Finding& u = e.unknown(p.bdf, "link not known at " + unknown.front() +
                                        (unknown.size() > 1 ? " (+" + std::to_string(unknown.size() - 1) + " more)" : ""));
      u.reason_kind = ReasonKind::not_captured;
      continue;
    } else {
      f = &e.pass(p.bdf, "no hop caps the NIC (" + link_end_text(nl.status) +
                             (nl.max_payload_bytes ? " MPS " + std::to_string(*nl.max_payload_bytes) : std::string()) +
                             "): " + hops);
      for (const PciBridge* b : up) evidence.push_back(b->link.source);
    }
    for (const Evidence& ev : evidence) add_evidence(*f, ev);
  }
}

/// Root ports whose Relaxed Ordering erratum makes Linux clear RO on every device below them
/// (drivers/pci/quirks.c quirk_relaxedordering_disable(): Intel Xeon E5 v3 "Haswell" root ports
/// 2F01h-2F0Eh and E5 v4 "Broadwell" 6F01h-6F0Eh, the ranges Intel's specification update names).
bool ro_erratum_root_port(const PciBridge& b) {
  if (b.vendor_id != 0x8086 || !b.device_id) return false;
  unsigned id = *b.device_id;
  return (id >= 0x2f01 && id <= 0x2f0e) || (id >= 0x6f01 && id <= 0x6f0e);
}

void eval_relaxed_ordering(const Snapshot& s, const Policy&, Emitter& e) {
  for (const PciFunction& p : s.pci_functions) {
    if (!judged_pci_function(p, e, "the PF's setting applies")) continue;
    if (!p.relaxed_ordering.has_value()) {
      e.missing(p.bdf, "DevCtl relaxed ordering", p.relaxed_ordering);
      continue;
    }
    if (*p.relaxed_ordering) {
      Finding& f = e.pass(p.bdf, "relaxed ordering enabled (DevCtl RlxdOrd+)");
      add_evidence(f, p.relaxed_ordering.source);
      continue;
    }
    std::vector<const PciBridge*> up = build::bridges_above(s, p.parent_bdf);
    if (!up.empty() && ro_erratum_root_port(*up.back())) {
      char id[16];
      std::snprintf(id, sizeof id, "8086:%04x", *up.back()->device_id);
      Finding& f = e.not_applicable(p.bdf, std::string("relaxed ordering off: the root port ") + up.back()->bdf + " (" + id +
                                               ") has the Xeon E5 v3/v4 Relaxed Ordering erratum, so Linux keeps it off");
      add_evidence(f, p.relaxed_ordering.source);
      continue;
    }
    Finding& f = e.fail(p.bdf, "relaxed ordering is off on the NIC (DevCtl RlxdOrd-): mlx5 then sends no relaxed-ordered "
                               "DMA writes, and GPUDirect RDMA loses bandwidth on CPUs that reorder them (AMD EPYC, Grace)");
    add_evidence(f, p.relaxed_ordering.source);
    f.remediation.scope = FixScope::persistent;
    f.remediation.checks = {"lspci -vvv -s " + p.bdf + " | grep -o 'RlxdOrd[+-]'"};
    f.remediation.notes =
        "Linux clears RlxdOrd on devices below a root port with a known Relaxed Ordering erratum "
        "(drivers/pci/quirks.c quirk_relaxedordering_disable(); dmesg says \"Disable Relaxed Ordering "
        "Attributes to avoid PCIe Completion erratum\"): then leave it off. Otherwise enable it in the BIOS "
        "(\"PCIe Relaxed Ordering\") and reboot; mlx5 reads the bit when the driver loads "
        "(pcie_relaxed_ordering_enabled()), so a runtime setpci does not reach the running driver. Measured: "
        "16 vs > 40 GB/s (openucx/ucx#10955), 150 vs 200 Gb/s on EPYC (openucx/ucx#8062). NCCL's "
        "NCCL_IB_PCI_RELAXED_ORDERING (default 2: use it when available) follows the same bit.";
  }
}

}  // namespace

void add_path_rules(std::vector<RuleInfo>& out) {
  out.push_back({"pcie.path-link", "No bridge between the NIC and its root port caps its link",
                 Severity::error, "pci function",
                 "A PCIe switch or root port link trained narrower or slower than the NIC's, or a bridge with a "
                 "smaller MaxPayload, caps every device behind it; the NIC's own LnkSta still looks right.",
                 "§4.1 PCIe bandwidth: the seed checks the card's LnkSta only; the whole path to the root port "
                 "counts (pcie.link-at-capability judges the card itself).",
                 eval_path_link, k_any_outcome,
                 "the NIC's link and MaxPayload, and LnkSta/LnkCap/DevCtl of every bridge up to its root port "
                 "(lspci -vvv of the whole tree, or live sysfs config space)"});
  out.push_back({"pcie.relaxed-ordering", "PCIe relaxed ordering is enabled on the NIC", Severity::warning,
                 "pci function",
                 "Without relaxed ordering the NIC's DMA writes are strictly ordered: on CPUs that can reorder "
                 "them (AMD EPYC, Grace) RDMA and GPUDirect bandwidth drops by half or more "
                 "(openucx/ucx#10955, #8062).",
                 "§4.1 PCIe: the seed does not name it; DevCtl Enable Relaxed Ordering of the NIC (lspci RlxdOrd).",
                 eval_relaxed_ordering, k_any_outcome,
                 "the NIC's DevCtl (lspci -vvv RlxdOrd, live sysfs config space) and its root port's device id"});
  out.push_back({"pcie.acs-redirect", "No PCIe switch port redirects GPU <-> NIC peer-to-peer traffic",
                 Severity::error, "gpu <-> rdma device",
                 "With ACS P2P Request/Completion Redirect on at a switch port, traffic between a GPU "
                 "and a NIC under the same switch goes up to the root complex: NCCL hangs or runs at a "
                 "fraction of its bandwidth (NVIDIA/nccl#304, #523, #606; openucx/ucx#11412).",
                 "§4.2 GPUDirect RDMA: the seed confirms it with `ibv_devinfo | grep peer`, which shows "
                 "nothing; the proof is the PCIe path (ACSCtl of every bridge between GPU and NIC).",
                 eval_acs, k_any_outcome,
                 "GPU and NIC PCI addresses, and ACSCtl of the bridges between them (lspci -vvv of the whole "
                 "tree as root, or live sysfs config space)"});
  out.push_back({"pcie.iommu-ats", "No translating IOMMU without ATS on a GPU <-> NIC path", Severity::warning,
                 "gpu <-> rdma device",
                 "With the IOMMU translating DMA (default domain DMA or DMA-FQ) and ATS off, every peer-to-peer "
                 "request between a GPU and a NIC under one PCIe switch carries an untranslated address: it must "
                 "go up to the root complex to be translated, and GPUDirect RDMA loses the switch's bandwidth and "
                 "latency. A warning, not an error: the traffic still arrives, and translation is often wanted "
                 "(DMA isolation, VFIO, confidential computing), so the fix (ATS on, or passthrough) is the "
                 "operator's trade.",
                 "Issue #17: the seed's GPUDirect check stops at peermem; with a translating IOMMU and no ATS, "
                 "P2P traffic is translated at the root complex.",
                 eval_iommu_ats, k_any_outcome,
                 "GPU and NIC PCI addresses, the NIC's IOMMU group and its type (/sys/kernel/iommu_groups) or the "
                 "host's IOMMU mode (/proc/cmdline, dmesg \"Default domain type:\"), and ATSCtl of the NIC and the "
                 "GPU (lspci -vvv as root, or live sysfs config space)"});
}

}  // namespace rk::rules

// GPU <-> NIC data-path rules: what lies on the PCIe path between a GPU and a NIC it reaches
// through a PCIe switch (nvidia-smi PIX/PXB), the path GPUDirect RDMA takes.
#include <algorithm>

#include "rocekit/build/pci_tree.hpp"
#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

namespace {

const RdmaDevice* rdma_named(const Snapshot& s, const std::string& name) {
  for (const RdmaDevice& d : s.rdma_devices)
    if (d.name == name) return &d;
  return nullptr;
}

std::string bridge_label(const PciBridge& b) {
  return b.bdf + (b.port_type ? " (" + *b.port_type + ")" : std::string());
}

/// The bridges between two devices below their lowest shared bridge (both sides), nearest the
/// GPU first; nullopt when the inputs do not connect them.
std::optional<std::vector<const PciBridge*>> bridges_between(const std::vector<const PciBridge*>& a,
                                                             const std::vector<const PciBridge*>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto j = std::find(b.begin(), b.end(), a[i]);
    if (j == b.end()) continue;
    std::vector<const PciBridge*> out(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(i));
    out.insert(out.end(), b.begin(), j);
    return out;
  }
  return std::nullopt;
}

void eval_acs(const Snapshot& s, const Policy&, Emitter& e) {
  if (!s.gpus.has_value()) {
    e.missing("host", "GPU topology", s.gpus);
    return;
  }
  if (s.gpus->empty()) {
    e.not_applicable("host", "no NVIDIA GPU in the topology");
    return;
  }
  for (const Gpu& g : *s.gpus) {
    std::string gs = "gpu" + std::to_string(g.index);
    std::vector<const GpuNicLink*> near;
    for (const GpuNicLink& l : g.nics)
      if (l.relation == "PIX" || l.relation == "PXB") near.push_back(&l);
    if (near.empty()) {
      e.not_applicable(gs, "no NIC shares a PCIe switch with " + gs +
                               ": its GPUDirect traffic crosses the root complex whatever ACS says "
                               "(see gpudirect.gpu-nic-affinity)");
      continue;
    }
    for (const GpuNicLink* l : near) {
      std::string subject = gs + " <-> " + l->nic;
      const RdmaDevice* d = rdma_named(s, l->nic);
      const PciFunction* fn = d && d->bdf ? s.find_pci(*d->bdf) : nullptr;
      if (!g.bdf || !fn) {
        Finding& f = e.unknown(subject, std::string("the PCI address of ") + (!g.bdf ? gs : l->nic) +
                                            " is not in the input (capture `lspci -vvv` of the whole tree as root, "
                                            "or run `rocekit check` live)");
        f.reason_kind = ReasonKind::not_captured;
        f.needs.push_back("lspci_vvv");
        continue;
      }
      if (!s.pci_bridges.has_value()) {
        e.missing(subject, "PCIe bridges", s.pci_bridges);
        continue;
      }
      std::vector<const PciBridge*> up_gpu = build::bridges_above(s, g.parent_bdf);
      std::vector<const PciBridge*> up_nic = build::bridges_above(s, fn->parent_bdf);
      std::optional<std::vector<const PciBridge*>> between = bridges_between(up_gpu, up_nic);
      if (!between) {
        Finding& f = e.unknown(subject, "the input does not connect " + *g.bdf + " and " + fn->bdf +
                                            " through a shared bridge (the topology says " + l->relation +
                                            "): capture `lspci -vvv` of the whole tree");
        f.reason_kind = ReasonKind::not_captured;
        f.needs.push_back("lspci_vvv");
        continue;
      }
      std::vector<const PciBridge*> redirecting;
      std::vector<std::string> unknown;
      for (const PciBridge* b : *between) {
        if (!b->acs.has_value()) {
          if (b->acs.reason_kind != ReasonKind::not_applicable) unknown.push_back(b->bdf + ": " + b->acs.reason);
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
        f.needs.push_back("lspci_vvv");
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

}  // namespace

void add_path_rules(std::vector<RuleInfo>& out) {
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
}

}  // namespace rk::rules

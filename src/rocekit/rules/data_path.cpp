#include "rocekit/rules/data_path.hpp"

#include <algorithm>

#include "rocekit/build/pci_tree.hpp"
#include "rocekit/catalog/pcie.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

namespace {

/// The rules whose findings on a GPU <-> NIC pair, the GPU or the NIC's function the table shows.
constexpr const char* k_path_rules[] = {"gpudirect.gpu-nic-affinity", "pcie.acs-redirect", "pcie.iommu-ats",
                                        "pcie.path-link", "pcie.relaxed-ordering"};

/// Payload rate of a negotiated link, one direction, Gb/s (MPS 256 when not read: the common
/// server default, and what catalog.md 3.2 tabulates).
std::optional<double> hop_gbps(const PcieLinkState& l) {
  std::optional<int> gen = gen_of(l.status.speed_gts);
  if (!gen || !l.status.width_lanes || *l.status.width_lanes <= 0) return std::nullopt;
  Result<double> r = catalog::effective_gbps({*gen, *l.status.width_lanes, l.max_payload_bytes.value_or(256), std::nullopt});
  return r ? std::optional<double>(*r) : std::nullopt;
}

PathHop bridge_hop(const PciBridge& b) {
  PathHop h{b.bdf, b.port_type.value_or("bridge"), std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  if (b.link.has_value()) {
    h.link = link_end_text(b.link->status);
    h.max_payload_bytes = b.link->max_payload_bytes;
    h.gbps = hop_gbps(*b.link);
  }
  if (b.acs.has_value()) h.acs = acs_flags_text(b.acs->control);
  return h;
}

void add_hops(const Snapshot& s, const Gpu& g, const PciFunction& fn, DataPath& row) {
  if (!s.pci_bridges.has_value()) {
    row.hops_unknown = "PCIe bridges not in the input: " + s.pci_bridges.reason;
    return;
  }
  std::vector<const PciBridge*> up_gpu = build::bridges_above(s, g.parent_bdf);
  std::vector<const PciBridge*> up_nic = build::bridges_above(s, fn.parent_bdf);
  if (up_gpu.empty() || up_nic.empty()) {
    row.hops_unknown = "the bridges above " + (up_gpu.empty() ? *g.bdf : fn.bdf) +
                       " are not in the input (save `lspci -vvv -D` as root as lspci_vvv@tree.txt)";
    return;
  }
  std::optional<std::vector<const PciBridge*>> between = build::bridges_between(up_gpu, up_nic);
  std::vector<const PciBridge*> gpu_side, nic_side;
  if (between) {
    // bridges_between: the GPU's side nearest the GPU first, then the NIC's side nearest the NIC.
    for (const PciBridge* b : *between)
      (std::find(up_gpu.begin(), up_gpu.end(), b) != up_gpu.end() ? gpu_side : nic_side).push_back(b);
  } else {
    row.through_root_complex = true;
    gpu_side = up_gpu;
    nic_side = up_nic;
  }
  row.hops.push_back({*g.bdf, "GPU", std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  for (const PciBridge* b : gpu_side) row.hops.push_back(bridge_hop(*b));
  for (auto it = nic_side.rbegin(); it != nic_side.rend(); ++it) row.hops.push_back(bridge_hop(**it));
  PathHop nic{fn.bdf, "NIC", std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  if (fn.link.has_value()) {
    nic.link = link_end_text(fn.link->status);
    nic.max_payload_bytes = fn.link->max_payload_bytes;
    nic.gbps = hop_gbps(*fn.link);
  }
  row.hops.push_back(nic);
  for (const PathHop& h : row.hops)
    if (h.gbps && (!row.ceiling_gbps || *h.gbps < *row.ceiling_gbps)) {
      row.ceiling_gbps = h.gbps;
      row.ceiling_at = h.bdf + " (" + h.role + ")";
    }
}

}  // namespace

std::vector<DataPath> data_paths(const Snapshot& s, const Policy& policy) {
  std::vector<DataPath> out;
  if (!s.gpus.has_value()) return out;
  std::vector<std::string> ids;
  for (const char* id : k_path_rules)
    if (find_rule(id)) ids.emplace_back(id);
  Report report = evaluate(s, policy, ids);
  for (const Gpu& g : *s.gpus) {
    DataPath row;
    row.gpu = g.index;
    row.gpu_bdf = g.bdf;
    row.gpu_model = g.model;
    row.c2c = build::c2c_coupling(g);
    const GpuNicLink* l = build::gpudirect_nic(s, g);
    const PciFunction* fn = nullptr;
    if (l) {
      row.nic = l->nic;
      row.relation = l->relation;
      fn = build::rdma_function(s, l->nic);
      if (fn) row.nic_bdf = fn->bdf;
    }
    if (!l && !g.nics.empty())
      row.hops_unknown = "which NIC hangs off GPU " + std::to_string(g.index) +
                         "'s own Grace CPU is not known: the NICs' NUMA nodes are not in the input (add `lspci -vvv -D`)";
    else if (!l) row.hops_unknown = "no NIC in the topology";
    else if (!g.bdf || !fn) row.hops_unknown = "the PCI address of " + (!g.bdf ? "GPU " + std::to_string(g.index) : l->nic) + " is not in the input";
    else add_hops(s, g, *fn, row);
    std::string gs = "gpu" + std::to_string(g.index);
    for (const Finding& f : report.findings) {
      bool mine = f.subject == gs || (l && f.subject == gs + " <-> " + l->nic) || (fn && f.subject == fn->bdf);
      if (mine) row.verdicts.push_back({f.rule, f.outcome, f.severity, f.message});
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace rk::rules

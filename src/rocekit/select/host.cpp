#include "rocekit/select/host.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "rocekit/build/pci_tree.hpp"
#include "rocekit/catalog/pcie.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk::select {

namespace cat = rk::catalog;

bool HostJudgement::any_error() const {
  for (const rules::DataPath& p : data_paths)
    for (const rules::PathVerdict& v : p.verdicts)
      if (v.outcome == Outcome::fail && v.severity == Severity::error) return true;
  return std::any_of(advice.begin(), advice.end(), [](const HostAdvice& a) { return a.severity == "error"; });
}

bool HostJudgement::anything_judged() const {
  for (const rules::DataPath& p : data_paths)
    for (const rules::PathVerdict& v : p.verdicts)
      if (v.outcome == Outcome::pass || v.outcome == Outcome::fail) return true;
  return std::any_of(nics.begin(), nics.end(), [](const HostNic& n) { return n.link_status.has_value(); });
}

namespace {

std::optional<int> gen_of(const std::optional<double>& gts) {
  if (!gts) return std::nullopt;
  const double k_rates[] = {2.5, 5, 8, 16, 32, 64};
  for (int g = 0; g < 6; ++g)
    if (std::fabs(*gts - k_rates[g]) < 0.01) return g + 1;
  return std::nullopt;
}

std::string link_text(const PcieLinkEnd& e) {
  std::optional<int> g = gen_of(e.speed_gts);
  std::string s = (g ? "Gen" + std::to_string(*g) : std::string("Gen?")) + " x" +
                  (e.width_lanes ? std::to_string(*e.width_lanes) : std::string("?"));
  if (e.downgraded) s += " (downgraded)";
  return s;
}

double round1(double v) { return std::round(v * 10) / 10; }
double round2(double v) { return std::round(v * 100) / 100; }

std::string num(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{:.0f}", v);
  return fmt::format("{:.1f}", v);
}

std::string device_of(const std::string& bdf) { return bdf.size() > 2 ? bdf.substr(0, bdf.size() - 2) : bdf; }

/// Ports of the card behind `p`: description texts first, then part numbers the catalog knows.
std::optional<cat::PortSpeeds> card_ports(const Snapshot& s, const PciFunction& p, const cat::Catalog& c,
                                          std::optional<std::string>& part) {
  std::vector<std::string> texts, parts;
  for (const PciFunction& o : s.pci_functions) {
    if (device_of(o.bdf) != device_of(p.bdf)) continue;
    if (o.firmware.has_value() && o.firmware->description) texts.push_back(*o.firmware->description);
    if (o.nv_config.has_value() && o.nv_config->description) texts.push_back(*o.nv_config->description);
    if (o.vpd_product_name) texts.push_back(*o.vpd_product_name);
    if (o.vpd_part_number) parts.push_back(*o.vpd_part_number);
    if (o.firmware.has_value() && o.firmware->part_number) parts.push_back(*o.firmware->part_number);
  }
  if (!parts.empty()) part = parts.front();
  for (const std::string& t : texts) {
    Result<cat::PortSpeeds> r = cat::port_speeds_from_text(t);
    if (r && r->port_count > 0 && r->total_gbps() > 0) return *r;
  }
  for (const std::string& pn : parts) {
    Result<cat::PartMatch> m = c.find_by_part_number(pn);
    if (m && m->part && m->part->port_count && m->part->speed_gbps) {
      cat::PortSpeeds ps;
      ps.port_count = *m->part->port_count;
      ps.eth_speed_gbps = m->part->speed_gbps;
      return ps;
    }
  }
  return std::nullopt;
}

/// The catalog NIC with the same port layout that the oldest PCIe generation feeds at ratio >= 1
/// (plain NICs before SuperNICs and DPUs): "ConnectX-6 Dx 2 x 100G on Gen4 x16 (207.9 Gb/s, 1.04)".
std::optional<std::string> same_ports_replacement(int ports, double port_gbps, const cat::Catalog& c) {
  const cat::NicModel* best = nullptr;
  double best_eff = 0;
  int best_gen = 0, best_lanes = 0;
  for (const cat::NicModel& m : c.models()) {
    if (!m.pcie_gen || !m.pcie_lanes) continue;
    bool has_layout = false;
    for (const cat::PortOption& po : m.port_options)
      has_layout = has_layout || (po.port_count == ports && po.speed_gbps && std::fabs(*po.speed_gbps - port_gbps) < 1e-9);
    if (!has_layout) continue;
    Result<double> eff = cat::effective_gbps(cat::PcieLink{*m.pcie_gen, *m.pcie_lanes, 256, std::nullopt});
    if (!eff || *eff < ports * port_gbps) continue;
    auto cost = [](const cat::NicModel& x) { return x.kind == cat::NicKind::nic ? 0 : 1; };
    if (!best || *m.pcie_gen < best_gen || (*m.pcie_gen == best_gen && cost(m) < cost(*best))) {
      best = &m;
      best_eff = *eff;
      best_gen = *m.pcie_gen;
      best_lanes = *m.pcie_lanes;
    }
  }
  if (!best) return std::nullopt;
  return fmt::format("{} {} x {}G on Gen{} x{} ({} Gb/s, ratio {:.2f})", best->name, ports, num(port_gbps),
                     best_gen, best_lanes, num(round1(best_eff)), best_eff / (ports * port_gbps));
}

}  // namespace

HostJudgement judge_host(const Snapshot& s, const cat::Catalog& c) {
  HostJudgement out;
  out.hostname = s.hostname;
  out.source = s.source.path;
  out.data_paths = rules::data_paths(s, default_policy());

  // ---- installed NICs: one per PCI device (function 0 judged, the link is shared).
  std::map<std::string, std::string> rdma_by_bdf;
  for (const RdmaDevice& r : s.rdma_devices)
    if (r.bdf) rdma_by_bdf[*r.bdf] = r.name;
  std::map<std::string, bool> seen_device;
  for (const PciFunction& p : s.pci_functions) {
    if (p.vendor_id && *p.vendor_id != 0x15b3) continue;
    if (!p.vendor_id && !(p.device_name && p.device_name->find("Mellanox") != std::string::npos)) continue;
    if (p.is_vf.value_or(false) || seen_device[device_of(p.bdf)]) continue;
    seen_device[device_of(p.bdf)] = true;
    HostNic n;
    n.bdf = p.bdf;
    if (auto it = rdma_by_bdf.find(p.bdf); it != rdma_by_bdf.end()) n.rdma_device = it->second;
    n.numa_node = p.numa_node;
    const cat::NicModel* model = nullptr;
    if (p.device_id) {
      std::optional<cat::DeviceMatch> m = c.find_by_pci_device_id(*p.device_id);
      if (m) model = m->unique();
    }
    std::optional<cat::PortSpeeds> ports = card_ports(s, p, c, n.part_number);
    if (!model && n.part_number) {  // lspci without -n shows names, not IDs: try the part number
      Result<cat::PartMatch> pm = c.find_by_part_number(*n.part_number);
      if (pm && pm->model) model = pm->model;
    }
    if (!model && p.device_name) {  // "... MT27700 Family [ConnectX-4]": the bracketed name
      std::size_t open = p.device_name->rfind('['), close = p.device_name->rfind(']');
      if (open != std::string::npos && close != std::string::npos && close > open) {
        std::string bracket = p.device_name->substr(open + 1, close - open - 1);
        for (const cat::NicModel& m : c.models())
          if (m.name == bracket) model = &m;
      }
    }
    n.model = model ? model->name : p.device_name.value_or("unknown");
    if (ports) {
      n.ports = ports->port_count;
      n.port_gbps = ports->line_rate_gbps();
    }
    std::string subject = n.rdma_device ? *n.rdma_device + " (" + p.bdf + ")" : p.bdf;
    if (p.flash_recovery) {
      out.advice.push_back(HostAdvice{"host.flash-recovery", "error", subject,
                                      "the card enumerates with a flash-recovery device ID: no usable firmware",
                                      "reflash the firmware (flint/mstflint) before judging its placement",
                                      p.source});
    }
    if (!p.link.has_value()) {
      out.advice.push_back(HostAdvice{"host.pcie-link", "unknown", subject,
                                      "PCIe link not known: " + p.link.reason,
                                      "capture `lspci -vvv` as root (scripts/rocekit-capture)", p.source});
      out.nics.push_back(n);
      continue;
    }
    const PcieLinkState& l = *p.link;
    n.link_capability = link_text(l.capability);
    n.link_status = link_text(l.status);
    n.max_payload_bytes = l.max_payload_bytes;
    std::optional<int> sg = gen_of(l.status.speed_gts), cg = gen_of(l.capability.speed_gts);
    int mps = l.max_payload_bytes.value_or(256);
    if (sg && l.status.width_lanes && *l.status.width_lanes > 0) {
      Result<double> eff = cat::effective_gbps(cat::PcieLink{*sg, *l.status.width_lanes, mps, std::nullopt});
      if (eff) n.effective_gbps = round1(*eff);
    }
    if (cg && l.capability.width_lanes && *l.capability.width_lanes > 0) {
      Result<double> eff = cat::effective_gbps(cat::PcieLink{*cg, *l.capability.width_lanes, mps, std::nullopt});
      if (eff) n.effective_at_capability_gbps = round1(*eff);
    }
    double line = ports ? ports->total_gbps() : 0;
    if (n.effective_gbps && line > 0) {
      n.ratio = round2(*n.effective_gbps / line);
      n.verdict = std::string(cat::to_string(cat::classify_feed_ratio(*n.effective_gbps / line)));
    }
    bool narrower = l.status.width_lanes && l.capability.width_lanes &&
                    *l.status.width_lanes < *l.capability.width_lanes;
    bool slower = sg && cg && *sg < *cg;
    if (narrower || slower || l.status.downgraded) {
      std::string msg = fmt::format("link trained at {} but the card can do {}", *n.link_status, *n.link_capability);
      if (n.effective_gbps && n.effective_at_capability_gbps)
        msg += fmt::format(": {} Gb/s effective instead of {} Gb/s", num(*n.effective_gbps),
                           num(*n.effective_at_capability_gbps));
      if (n.ratio && line > 0)
        msg += fmt::format(" for {} x {}G = {} Gb/s of ports (ratio {:.2f}, {})", *n.ports, num(*n.port_gbps),
                           num(line), *n.ratio, *n.verdict);
      std::string action = fmt::format(
          "move the card to a slot wired {} (an x16 slot not shared by bifurcation or a riser), then check "
          "LnkSta shows {}",
          *n.link_capability, *n.link_capability);
      if (n.effective_at_capability_gbps && line > 0 && *n.effective_at_capability_gbps < line) {
        action += fmt::format("; even at {} the link moves {} Gb/s (ratio {:.2f}): for all ports at line rate "
                              "replace it",
                              *n.link_capability, num(*n.effective_at_capability_gbps),
                              *n.effective_at_capability_gbps / line);
        std::optional<std::string> r = same_ports_replacement(*n.ports, *n.port_gbps, c);
        action += r ? " with " + *r + " in a slot of that generation" : " with a newer-generation NIC";
        action += ", or run one port";
      }
      out.advice.push_back(HostAdvice{"host.pcie-downgraded", "error", subject, msg, action, p.link.source});
    } else if (n.ratio && *n.ratio < 1.0) {
      std::optional<std::string> r = same_ports_replacement(*n.ports, *n.port_gbps, c);
      out.advice.push_back(HostAdvice{
          "host.pcie-oversubscribed", *n.ratio < 0.9 ? "error" : "warning", subject,
          fmt::format("{} moves {} Gb/s for {} Gb/s of ports (ratio {:.2f})", *n.link_status,
                      num(*n.effective_gbps), num(line), *n.ratio),
          r ? "replace with " + *r + " in a slot of that generation, or run fewer ports"
            : "replace with a NIC whose port rate the slot feeds (catalog.md 3.3), or a faster slot",
          p.link.source});
    } else if (!ports) {
      out.advice.push_back(HostAdvice{"host.pcie-feeds-ports", "unknown", subject,
                                      "port count and speed not known (no description, VPD or part number "
                                      "the catalog recognises)",
                                      "capture mlxfwmanager --query or lspci -vvv (VPD) as root", p.source});
    }
    out.nics.push_back(n);
  }
  // NICs only seen through RDMA (no lspci): keep them in the table. A further function of a
  // listed card (0000:29:00.1 of 0000:29:00.0) is that card's row, not a NIC of its own.
  auto on_listed_card = [&](const RdmaDevice& r) {
    return std::any_of(out.nics.begin(), out.nics.end(), [&](const HostNic& n) {
      return n.rdma_device == r.name || (r.bdf && n.bdf != "unknown" && device_of(n.bdf) == device_of(*r.bdf));
    });
  };
  for (const RdmaDevice& r : s.rdma_devices) {
    bool have = on_listed_card(r);
    if (have) continue;
    HostNic n;
    n.bdf = r.bdf.value_or("unknown");
    n.rdma_device = r.name;
    n.model = "unknown";
    if (r.vendor_part_id) {
      std::optional<cat::DeviceMatch> m = c.find_by_pci_device_id(static_cast<std::uint16_t>(*r.vendor_part_id));
      if (m && m->unique()) n.model = m->unique()->name;
      else n.model = fmt::format("vendor part id {}", *r.vendor_part_id);
    }
    out.advice.push_back(HostAdvice{"host.pcie-link", "unknown", r.name,
                                    "PCIe link not known: no lspci -vv output for this device",
                                    "capture `lspci -vvv` as root (scripts/rocekit-capture)", r.source});
    out.nics.push_back(n);
  }

  // ---- GPU placement.
  if (!s.gpus.has_value()) {
    out.advice.push_back(HostAdvice{"host.gpu-placement", "unknown", "host",
                                    "GPU topology not known: " + s.gpus.reason,
                                    "capture `nvidia-smi topo -m`", {}});
    return out;
  }
  std::map<std::string, std::vector<int>> gpus_by_nic;
  std::map<std::string, std::vector<int>> far_gpus;  // relation -> gpus (PHB/NODE/SYS)
  std::map<std::string, Evidence> far_evidence;
  std::map<std::string, std::vector<int>> pcie_gpus_by_nic;  // PCIe-attached GPUs only
  std::map<std::string, Evidence> nic_evidence;
  for (const Gpu& g : *s.gpus) {
    HostGpu hg;
    hg.index = g.index;
    hg.numa_node = g.numa_node;
    hg.cpu_affinity = g.cpu_affinity;
    for (const GpuNicLink& l : g.nics) nic_evidence.emplace(l.nic, l.source.file.empty() ? g.source : l.source);
    const GpuNicLink* best = build::gpudirect_nic(s, g);
    if (best) {
      hg.nic = best->nic;
      hg.relation = best->relation;
      gpus_by_nic[best->nic].push_back(g.index);
      // A Grace GPU (NVLink-C2C) reaches every NIC through its CPU by design: no PCIe-switch
      // placement advice; gpudirect.gpu-nic-affinity judges the CPU its NIC hangs off.
      if (!build::c2c_coupling(g)) {
        pcie_gpus_by_nic[best->nic].push_back(g.index);
        if (build::relation_rank(best->relation) >= 2) {
          far_gpus[best->relation].push_back(g.index);
          far_evidence.emplace(best->relation, g.source);
        }
      }
    }
    out.gpus.push_back(hg);
  }
  // NICs only named by the GPU topology (no lspci, no ibv_devinfo): list them, link unknown.
  for (const auto& [nic, ev] : nic_evidence) {
    const RdmaDevice* r = s.find_rdma(nic);
    bool have = r ? on_listed_card(*r)
                  : std::any_of(out.nics.begin(), out.nics.end(), [&](const HostNic& n) { return n.rdma_device == nic; });
    if (have) continue;
    HostNic n;
    n.bdf = "unknown";
    n.rdma_device = nic;
    n.model = "unknown";
    out.advice.push_back(HostAdvice{"host.pcie-link", "unknown", nic,
                                    "PCIe link and model not known: the NIC appears only in the GPU topology",
                                    "capture `lspci -vvv` as root and `ibv_devinfo` (scripts/rocekit-capture)",
                                    ev});
    out.nics.push_back(n);
  }
  // A card's GPUs: those whose GPUDirect NIC is any of its functions.
  for (HostNic& n : out.nics) {
    if (n.rdma_device) n.gpus = gpus_by_nic[*n.rdma_device];
    if (n.bdf == "unknown") continue;
    for (const RdmaDevice& r : s.rdma_devices)
      if (r.bdf && r.name != n.rdma_device && device_of(*r.bdf) == device_of(n.bdf))
        for (int g : gpus_by_nic[r.name]) n.gpus.push_back(g);
    std::sort(n.gpus.begin(), n.gpus.end());
  }
  auto affinity_of = [&](const std::vector<int>& idx) {
    std::vector<std::string> a;
    for (const HostGpu& g : out.gpus)
      if (std::find(idx.begin(), idx.end(), g.index) != idx.end() && g.cpu_affinity &&
          std::find(a.begin(), a.end(), *g.cpu_affinity) == a.end())
        a.push_back(*g.cpu_affinity);
    return a.empty() ? std::string("unknown") : fmt::format("{}", fmt::join(a, ", "));
  };
  auto gpu_list = [](const std::vector<int>& idx) {
    return fmt::format("{} {}", idx.size() > 1 ? "GPUs" : "GPU", fmt::join(idx, ", "));
  };
  if (auto it = far_gpus.find("SYS"); it != far_gpus.end()) {
    std::string nic = out.gpus.empty() ? "" : *std::find_if(out.gpus.begin(), out.gpus.end(), [&](const HostGpu& g) {
      return g.index == it->second.front();
    })->nic;
    out.advice.push_back(HostAdvice{
        "host.gpu-nic-cross-socket", "error", fmt::format("gpu {}", fmt::join(it->second, ",")),
        fmt::format("{} {} closest NIC {} only across the socket interconnect (SYS): GPUDirect RDMA from {} "
                    "crosses the inter-socket link",
                    gpu_list(it->second), it->second.size() > 1 ? "reach their" : "reaches its", nic,
                    it->second.size() > 1 ? "these GPUs" : "it"),
        fmt::format("add a NIC on the other socket (the root complex of CPUs {}), under the same PCIe switch as "
                    "GPU {}; or move those GPUs next to {}. Until then pin their ranks to the nearest NIC "
                    "(NCCL_IB_HCA) and expect lower GPUDirect bandwidth",
                    affinity_of(it->second), fmt::join(it->second, "/"), nic),
        far_evidence["SYS"]});
  }
  for (const char* rel : {"NODE", "PHB"}) {
    auto it = far_gpus.find(rel);
    if (it == far_gpus.end()) continue;
    out.advice.push_back(HostAdvice{
        "host.gpu-nic-through-cpu", "warning", fmt::format("gpu {}", fmt::join(it->second, ",")),
        fmt::format("{} {} closest NIC at {}: traffic goes through the CPU root complex, not a PCIe switch",
                    gpu_list(it->second), it->second.size() > 1 ? "reach their" : "reaches its", rel),
        "put each GPU's NIC under the GPU's PCIe switch (PIX/PXB), as HGX/DGX boards do",
        far_evidence[rel]});
  }
  for (const auto& [nic, idx] : pcie_gpus_by_nic) {
    if (idx.size() < 2) continue;
    std::set<int> numas;
    for (const HostGpu& g : out.gpus)
      if (std::find(idx.begin(), idx.end(), g.index) != idx.end() && g.numa_node) numas.insert(*g.numa_node);
    out.advice.push_back(HostAdvice{
        "host.nic-shared-by-gpus", idx.size() > 2 ? "error" : "warning", nic,
        fmt::format("one NIC ({}) for {} GPUs ({}){}: each GPU gets 1/{} of it and the rail design's 1 NIC : 1 "
                    "GPU pairing is lost",
                    nic, idx.size(), fmt::join(idx, ", "),
                    numas.size() > 1 ? fmt::format(" on {} NUMA nodes", numas.size()) : std::string(),
                    idx.size()),
        fmt::format("add NICs to reach one per GPU ({} more), each under its GPU's PCIe switch; with "
                    "GPUs on CPUs {}, at least one per socket",
                    idx.size() - 1, affinity_of(idx)),
        {}});
  }
  return out;
}

}  // namespace rk::select

#include "rocekit/build/pci_tree.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "rocekit/core/text.hpp"

namespace rk::build {

std::string pcie_relation(const std::vector<std::string>& a, std::optional<int> numa_a,
                          const std::vector<std::string>& b, std::optional<int> numa_b) {
  if (numa_a && numa_b && *numa_a != *numa_b) return "SYS";
  if (a.size() < 2 || b.size() < 2 || a.front() != b.front()) return numa_a && numa_b ? "NODE" : "SYS";
  // a: [host, bridge..., device]. `common` = components shared, host included.
  std::size_t common = 1;
  while (common < a.size() - 1 && common < b.size() - 1 && a[common] == b[common]) ++common;
  if (common == 1) return "PHB";
  std::size_t below_a = a.size() - 1 - common, below_b = b.size() - 1 - common;
  return below_a <= 1 && below_b <= 1 ? "PIX" : "PXB";
}

std::vector<const PciBridge*> bridges_above(const Snapshot& s, const std::optional<std::string>& parent) {
  std::vector<const PciBridge*> out;
  std::optional<std::string> cur = parent;
  for (int hops = 0; cur && hops < 64; ++hops) {
    const PciBridge* b = s.find_bridge(*cur);
    if (!b) break;
    out.push_back(b);
    cur = b->parent_bdf;
  }
  return out;
}

namespace {

/// "0000:3b:00.0" -> {"0000", 0x3b}.
std::optional<std::pair<std::string, unsigned>> domain_bus(const std::string& bdf) {
  if (bdf.size() != 12) return std::nullopt;
  std::optional<std::uint64_t> bus = text::parse_hex(std::string_view(bdf).substr(5, 2));
  if (!bus) return std::nullopt;
  return std::make_pair(bdf.substr(0, 4), static_cast<unsigned>(*bus));
}

std::string host_of(const std::string& bdf) {
  return bdf.size() == 12 ? "pci" + bdf.substr(0, 7) : "pci?";
}

}  // namespace

std::vector<std::string> pci_path(const Snapshot& s, const std::string& bdf, const std::optional<std::string>& parent) {
  std::vector<const PciBridge*> up = bridges_above(s, parent);
  std::vector<std::string> out;
  out.push_back(host_of(up.empty() ? bdf : up.back()->bdf));
  for (auto it = up.rbegin(); it != up.rend(); ++it) out.push_back((*it)->bdf);
  out.push_back(bdf);
  return out;
}

void link_pci_tree(Snapshot& s) {
  if (!s.pci_bridges.value) return;
  const std::vector<PciBridge>& bridges = *s.pci_bridges.value;
  auto parent_of = [&](const std::string& bdf) -> std::optional<std::string> {
    std::optional<std::pair<std::string, unsigned>> db = domain_bus(bdf);
    if (!db) return std::nullopt;
    const PciBridge* best = nullptr;
    int best_width = std::numeric_limits<int>::max();
    for (const PciBridge& b : bridges) {
      if (b.bdf == bdf || !b.secondary_bus || !b.subordinate_bus || b.bdf.substr(0, 4) != db->first) continue;
      int lo = *b.secondary_bus, hi = *b.subordinate_bus;
      if (static_cast<int>(db->second) < lo || static_cast<int>(db->second) > hi) continue;
      if (hi - lo < best_width) {
        best = &b;
        best_width = hi - lo;
      }
    }
    return best ? std::optional<std::string>(best->bdf) : std::nullopt;
  };
  std::vector<std::optional<std::string>> bridge_parents;
  for (const PciBridge& b : bridges) bridge_parents.push_back(b.parent_bdf ? b.parent_bdf : parent_of(b.bdf));
  for (std::size_t i = 0; i < bridges.size(); ++i) (*s.pci_bridges.value)[i].parent_bdf = bridge_parents[i];
  for (PciFunction& p : s.pci_functions)
    if (!p.parent_bdf) p.parent_bdf = parent_of(p.bdf);
  if (s.gpus.value)
    for (Gpu& g : *s.gpus.value)
      if (g.bdf && !g.parent_bdf) g.parent_bdf = parent_of(*g.bdf);
}

void place_gpus(Snapshot& s, std::vector<SeenGpu> seen) {
  std::sort(seen.begin(), seen.end(), [](const SeenGpu& a, const SeenGpu& b) { return a.bdf < b.bdf; });
  bool from_lspci = false;
  if (!seen.empty() && s.gpus.value && !s.gpus.value->empty()) {
    std::vector<Gpu>& gpus = *s.gpus.value;
    if (gpus.size() != seen.size()) {
      s.gpus.notes.push_back("lspci lists " + std::to_string(seen.size()) + " NVIDIA GPU(s), the topology " +
                             std::to_string(gpus.size()) + ": GPU PCI addresses not assigned");
    } else {
      std::vector<Gpu*> by_index;
      for (Gpu& g : gpus) by_index.push_back(&g);
      std::sort(by_index.begin(), by_index.end(), [](const Gpu* a, const Gpu* b) { return a->index < b->index; });
      for (std::size_t i = 0; i < seen.size(); ++i) {
        by_index[i]->bdf = seen[i].bdf;
        if (!by_index[i]->numa_node) by_index[i]->numa_node = seen[i].numa_node;
        by_index[i]->ats_enabled = seen[i].ats_enabled;
      }
      s.gpus.notes.push_back("GPU PCI addresses from lspci, matched to the topology's GPU indexes in PCI bus "
                             "order (nvidia-smi's enumeration order)");
    }
  } else if (!seen.empty()) {
    std::vector<Gpu> gpus;
    for (const SeenGpu& g : seen) {
      Gpu out;
      out.index = static_cast<int>(gpus.size());
      out.bdf = g.bdf;
      out.numa_node = g.numa_node;
      out.source = g.source;
      out.ats_enabled = g.ats_enabled;
      gpus.push_back(std::move(out));
    }
    s.gpus.value = std::move(gpus);
    s.gpus.reason.clear();
    s.gpus.source = seen.front().source;
    from_lspci = true;
  }
  link_pci_tree(s);
  if (!from_lspci) return;
  for (Gpu& g : *s.gpus.value) {
    std::vector<std::string> gp = pci_path(s, *g.bdf, g.parent_bdf);
    for (const RdmaDevice& d : s.rdma_devices) {
      if (!d.bdf) continue;
      const PciFunction* f = s.find_pci(*d.bdf);
      std::vector<std::string> np = pci_path(s, *d.bdf, f ? f->parent_bdf : std::nullopt);
      std::string rel = pcie_relation(gp, g.numa_node, np, f ? f->numa_node : std::nullopt);
      std::string how;
      for (std::size_t i = 1; i < np.size(); ++i) how += (i > 1 ? " > " : "") + np[i];
      g.nics.push_back(GpuNicLink{d.name, rel, Evidence{g.source.file, g.source.line, g.bdf.value() + " <-> " + how + ": " + rel}});
    }
  }
  s.gpus.notes.push_back("GPUs from lspci; relations computed from the PCI tree as nvidia-smi topo names them "
                         "(PIX/PXB/PHB/NODE/SYS); NVLink is not read");
}

int relation_rank(std::string_view relation) {
  static constexpr std::string_view k_order[] = {"PIX", "PXB", "PHB", "NODE", "SYS"};
  for (int i = 0; i < 5; ++i)
    if (relation == k_order[i]) return i;
  return 5;
}

const GpuNicLink* closest_nic(const Gpu& g) {
  const GpuNicLink* best = nullptr;
  for (const GpuNicLink& l : g.nics)
    if (!best || relation_rank(l.relation) < relation_rank(best->relation)) best = &l;
  return best;
}

const PciFunction* rdma_function(const Snapshot& s, const std::string& rdma_device) {
  const RdmaDevice* d = s.find_rdma(rdma_device);
  return d && d->bdf ? s.find_pci(*d->bdf) : nullptr;
}

std::optional<std::string> c2c_coupling(const Gpu& g) {
  if (g.memory_numa_node) return "GPU NUMA ID " + std::to_string(*g.memory_numa_node);
  if (!g.model) return std::nullopt;
  // NVIDIA's Grace superchips: Grace Hopper (GH200), Grace Blackwell (GB200, GB300, GB10).
  for (const char* name : {"GH200", "GB200", "GB300", "GB10"}) {
    std::size_t p = g.model->find(name);
    std::size_t end = p + std::string_view(name).size();
    // Whole word: "GB10" must not match a future "GB100".
    if (p != std::string::npos && (end == g.model->size() || !std::isalnum(static_cast<unsigned char>((*g.model)[end]))))
      return *g.model;
  }
  return std::nullopt;
}

const GpuNicLink* gpudirect_nic(const Snapshot& s, const Gpu& g) {
  const GpuNicLink* best = closest_nic(g);
  if (!best || !c2c_coupling(g)) return best;
  bool numa_known = false;
  for (const GpuNicLink& l : g.nics) {
    const PciFunction* fn = rdma_function(s, l.nic);
    if (!fn || !fn->numa_node) continue;
    numa_known = true;
    if (g.numa_node && fn->numa_node == g.numa_node) return &l;
  }
  // No NIC on the GPU's CPU: the closest one, across the CPU-to-CPU link. PHB/NODE: within the
  // GPU's NUMA node. Otherwise (SYS, NUMA nodes unknown) which NIC it uses is not known.
  if (numa_known || relation_rank(best->relation) <= relation_rank("NODE")) return best;
  return nullptr;
}

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

}  // namespace rk::build

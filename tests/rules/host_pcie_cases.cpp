// Per-outcome cases of the PCIe, interrupt and GPUDirect host rules (rules/pcie_rules.cpp,
// rules/host_rules.cpp) on hand-built snapshots.
#include "host_cases.hpp"

namespace rk::testcases {
namespace {

const std::string k_bdf = "0000:3b:00.0";

/// A ConnectX-4 Lx PF (2 x 25GbE by its VPD product name) with the given link status.
Snapshot pci(double sta_gts, int sta_width, std::optional<int> mrrs = 4096) {
  Snapshot s;
  PciFunction& p = s.pci(k_bdf);
  p.vendor_id = 0x15b3;
  p.is_vf = false;
  p.vpd_product_name = "Mellanox 25GBE 2P ConnectX-4 Lx Adapter";
  PcieLinkState l;
  l.capability = {16.0, 16, false};
  l.status = {sta_gts, sta_width, false};
  l.max_payload_bytes = 256;
  p.link.value = l;
  p.link.source = {"lspci-vv.txt", 40, "LnkSta: hand-built"};
  if (mrrs) p.max_read_request_bytes.value = *mrrs;
  else p.max_read_request_bytes.reason = "lspci -vv was not run as root";
  return s;
}
Snapshot vf() {
  Snapshot s = pci(16.0, 16);
  s.pci_functions.front().is_vf = true;
  return s;
}
Snapshot no_link() {
  Snapshot s = pci(16.0, 16);
  s.pci_functions.front().link = Collected<PcieLinkState>::missing("no lspci -vv in the input");
  return s;
}

Snapshot coalesce(std::optional<CoalesceState> c, const std::string& name = "eth4") {
  Snapshot s;
  NetDev& n = s.netdev(name);
  if (c) n.coalesce.value = *c;
  else n.coalesce.reason = "no ethtool -c in the input";
  return s;
}
const CoalesceState k_ai{false, false, 8, 8, std::nullopt, std::nullopt};

Snapshot channels(std::optional<std::uint32_t> combined, int node_cpus, const std::string& name = "eth4") {
  Snapshot s;
  NetDev& n = s.netdev(name);
  n.numa_node = 0;
  ChannelState c;
  c.combined = combined;
  n.channels.value = c;
  s.numa_cpu_count.value = std::map<int, int>{{0, node_cpus}};
  return s;
}

Snapshot gpudirect(std::optional<bool> loaded, std::optional<bool> registered, std::optional<bool> in_use) {
  Snapshot s;
  s.gpudirect.value = GpuDirectState{loaded, registered, in_use, {"lsmod.txt", 3, "hand-built"}};
  return s;
}

Snapshot gpus(std::vector<std::string> relations) {
  Snapshot s;
  std::vector<Gpu> v;
  Gpu g;
  g.index = 0;
  for (std::size_t i = 0; i < relations.size(); ++i)
    g.nics.push_back(GpuNicLink{"mlx5_" + std::to_string(i), relations[i], {"topo.txt", 2, "hand-built"}});
  v.push_back(g);
  s.gpus.value = v;
  return s;
}

const Cases k_cases{
    host_case("pcie.link-at-capability", Outcome::pass, k_bdf, "LnkSta 16GT/s x16 vs LnkCap 16GT/s x16",
              [] { return pci(16.0, 16); }),
    host_case("pcie.link-at-capability", Outcome::fail, k_bdf, "trained narrower than the card",
              [] { return pci(16.0, 8); }),
    host_case("pcie.link-at-capability", Outcome::unknown, k_bdf, "PCIe link not collected: no lspci -vv", no_link),
    host_case("pcie.link-at-capability", Outcome::not_applicable, k_bdf, "SR-IOV VF", vf),
    host_case("pcie.bandwidth-feeds-ports", Outcome::pass, k_bdf, "ports need 2 x 25 = 50 Gb/s",
              [] { return pci(16.0, 16); }),
    host_case("pcie.bandwidth-feeds-ports", Outcome::fail, k_bdf, "the slot cannot feed the ports at line rate",
              [] { return pci(2.5, 1); }),
    host_case("pcie.bandwidth-feeds-ports", Outcome::unknown, k_bdf, "PCIe link not collected", no_link),
    host_case("pcie.bandwidth-feeds-ports", Outcome::not_applicable, k_bdf, "SR-IOV VF", vf),
    host_case("pcie.max-read-request", Outcome::pass, k_bdf, "MaxReadReq 4096 bytes", [] { return pci(16.0, 16); }),
    host_case("pcie.max-read-request", Outcome::fail, k_bdf, "MaxReadReq 512 bytes, policy 4096",
              [] { return pci(16.0, 16, 512); }),
    host_case("pcie.max-read-request", Outcome::unknown, k_bdf, "MaxReadReq not collected: lspci -vv was not run as root",
              [] { return pci(16.0, 16, std::nullopt); }),
    host_case("pcie.max-read-request", Outcome::not_applicable, k_bdf, "SR-IOV VF", vf),
    host_case("irq.coalescing", Outcome::pass, "eth4", "coalescing matches (profile ai-training",
              [] { return coalesce(k_ai); }),
    host_case("irq.coalescing", Outcome::fail, "eth4", "adaptive-rx on, rx-usecs 64 outside 8..16",
              [] { return coalesce(CoalesceState{true, false, 64, 8, std::nullopt, std::nullopt}); }),
    host_case("irq.coalescing", Outcome::unknown, "eth4", "coalescing not collected: no ethtool -c",
              [] { return coalesce(std::nullopt); }),
    host_case("irq.coalescing", Outcome::not_applicable, "ib0", "IPoIB netdev", [] { return coalesce(k_ai, "ib0"); }),
    host_case("irq.channels-numa", Outcome::pass, "eth4", "combined 16, NUMA node 0 has 32", [] { return channels(16, 32); }),
    host_case("irq.channels-numa", Outcome::fail, "eth4", "queues spill onto the remote node's CPUs",
              [] { return channels(63, 32); }),
    host_case("irq.channels-numa", Outcome::unknown, "eth4", "combined channels not collected: not shown",
              [] { return channels(std::nullopt, 32); }),
    host_case("irq.channels-numa", Outcome::not_applicable, "ib0", "IPoIB netdev", [] { return channels(16, 32, "ib0"); }),
    host_case("gpudirect.peer-memory", Outcome::pass, "host", "NCCL uses GPUDirect RDMA",
              [] { return gpudirect(true, std::nullopt, true); }),
    host_case("gpudirect.peer-memory", Outcome::fail, "host", "nvidia_peermem is not loaded",
              [] { return gpudirect(false, std::nullopt, std::nullopt); }),
    host_case("gpudirect.peer-memory", Outcome::unknown, "host", "no proof of GPUDirect RDMA either way",
              [] { return gpudirect(std::nullopt, std::nullopt, std::nullopt); }),
    host_case("gpudirect.gpu-nic-affinity", Outcome::pass, "gpu0", "closest NIC mlx5_1 at PIX",
              [] { return gpus({"SYS", "PIX"}); }),
    host_case("gpudirect.gpu-nic-affinity", Outcome::fail, "gpu0", "closest NIC mlx5_0 at SYS: GPUDirect RDMA traffic crosses the inter-socket link",
              [] { return gpus({"SYS"}); }),
    host_case("gpudirect.gpu-nic-affinity", Outcome::unknown, "host", "GPU topology not collected",
              [] { Snapshot s; s.gpus.reason = "no nvidia-smi topo -m in the input"; return s; }),
    host_case("gpudirect.gpu-nic-affinity", Outcome::not_applicable, "host", "no NVIDIA GPU in the topology",
              [] { Snapshot s; s.gpus.value = std::vector<Gpu>{}; return s; }),
};

}  // namespace
}  // namespace rk::testcases

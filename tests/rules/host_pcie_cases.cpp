// Per-outcome cases of the PCIe, interrupt and GPUDirect host rules (rules/pcie_rules.cpp,
// rules/host_rules.cpp) on hand-built snapshots.
#include "host_cases.hpp"

#include <algorithm>

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

Snapshot gpudirect(std::optional<bool> loaded, std::optional<bool> registered, std::optional<bool> in_use,
                   std::optional<bool> dmabuf = std::nullopt) {
  Snapshot s;
  s.gpudirect.value = GpuDirectState{loaded, registered, in_use, dmabuf, {"lsmod.txt", 3, "hand-built"}};
  return s;
}

/// No nvidia-peermem (lsmod without it), with the NVIDIA driver and kernel release given.
Snapshot driver(bool open, std::string version, std::string kernel) {
  Snapshot s = gpudirect(false, std::nullopt, std::nullopt);
  s.nvidia_driver.value = NvidiaDriver{version, open};
  s.nvidia_driver.source = {"nvidia_version.txt", 1, "NVRM version: hand-built"};
  s.kernel_release.value = kernel;
  s.kernel_release.source = {"uname.txt", 1, kernel};
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

/// A GB200-style GPU (GPU NUMA ID 2, CPU NUMA node 0) that nvidia-smi puts at SYS to every NIC;
/// `nic_numa` gives each NIC mlx5_<i> (0009:0<i>:00.0) a NUMA node, or none.
Snapshot grace(std::vector<std::optional<int>> nic_numa, bool by_model = false) {
  Snapshot s;
  Gpu g;
  g.index = 0;
  g.numa_node = 0;
  if (by_model) g.model = "NVIDIA GB10";
  else g.memory_numa_node = 2;
  g.source = {"nvidia_smi_topo.txt", 2, "GPU0 X SYS 0-71 0,3-9,11-17 2"};
  for (std::size_t i = 0; i < nic_numa.size(); ++i) {
    std::string name = "mlx5_" + std::to_string(i), bdf = "0009:0" + std::to_string(i) + ":00.0";
    g.nics.push_back(GpuNicLink{name, by_model ? "NODE" : "SYS", g.source});
    s.rdma(name).bdf = bdf;
    s.pci(bdf).numa_node = nic_numa[i];
  }
  s.gpus.value = std::vector<Gpu>{g};
  return s;
}

/// gpu0 (0000:03:00.0) and mlx5_0 (0000:04:00.0) on two downstream ports (02:00.0, 02:01.0)
/// of one PCIe switch (upstream 01:00.0) under root port 00:01.0. `redirect` names the bridges
/// whose ACS Control has ReqRedir+ CmpltRedir+; `unreadable` one whose ACS was not readable.
Snapshot acs_tree(std::vector<std::string> redirect, std::string unreadable = "", std::string relation = "PIX") {
  Snapshot s;
  Gpu g;
  g.index = 0;
  g.bdf = "0000:03:00.0";
  g.parent_bdf = "0000:02:00.0";
  g.nics.push_back(GpuNicLink{"mlx5_0", relation, {"topo.txt", 2, "hand-built"}});
  s.gpus.value = std::vector<Gpu>{g};
  RdmaDevice& d = s.rdma("mlx5_0");
  d.bdf = "0000:04:00.0";
  PciFunction& p = s.pci("0000:04:00.0");
  p.vendor_id = 0x15b3;
  p.parent_bdf = "0000:02:01.0";
  std::vector<PciBridge> bridges;
  auto add = [&](std::string bdf, std::optional<std::string> parent, std::string type) {
    PciBridge b;
    b.bdf = bdf;
    b.parent_bdf = std::move(parent);
    b.port_type = std::move(type);
    if (bdf == unreadable) {
      b.acs.set_missing("needs root: lspci ran without root", ReasonKind::needs_root);
    } else {
      PciAcs acs;
      bool on = std::find(redirect.begin(), redirect.end(), bdf) != redirect.end();
      acs.control.source_validation = on;
      acs.control.request_redirect = on;
      acs.control.completion_redirect = on;
      b.acs.value = acs;
      b.acs.source = {"lspci.txt", 10, "ACSCtl: hand-built"};
    }
    bridges.push_back(std::move(b));
  };
  add("0000:00:01.0", std::nullopt, "Root Port");
  add("0000:01:00.0", "0000:00:01.0", "Upstream Port");
  add("0000:02:00.0", "0000:01:00.0", "Downstream Port");
  add("0000:02:01.0", "0000:01:00.0", "Downstream Port");
  s.pci_bridges.value = bridges;
  return s;
}

/// mlx5_0's function 0000:04:00.0 (Gen5 x16, MPS 256) under downstream port 02:01.0, upstream
/// port 01:00.0 (`up_width` lanes, MaxPayload `up_mps`) and root port 00:01.0.
Snapshot path_tree(int up_width, int up_mps, bool up_known = true) {
  Snapshot s = acs_tree({});
  PcieLinkState nic;
  nic.capability = {32.0, 16, false};
  nic.status = {32.0, 16, false};
  nic.max_payload_bytes = 256;
  s.pci_functions.front().link.value = nic;
  s.pci_functions.front().link.source = {"lspci.txt", 50, "LnkSta: hand-built"};
  for (PciBridge& b : *s.pci_bridges.value) {
    PcieLinkState l;
    l.capability = {32.0, 16, false};
    l.status = {32.0, b.bdf == "0000:01:00.0" ? up_width : 16, b.bdf == "0000:01:00.0" && up_width < 16};
    l.max_payload_bytes = b.bdf == "0000:01:00.0" ? up_mps : 256;
    if (b.bdf == "0000:01:00.0" && !up_known) b.link.set_missing("lspci ran without root", ReasonKind::needs_root);
    else b.link.value = l;
  }
  return s;
}

/// mlx5_0's function with DevCtl RlxdOrd `ro` (nullopt: not read) under root port 00:01.0 of
/// device id `root_id` (Intel).
Snapshot ro_tree(std::optional<bool> ro, std::uint16_t root_id = 0x352a) {
  Snapshot s = acs_tree({});
  PciFunction& p = s.pci_functions.front();
  if (ro) {
    p.relaxed_ordering.value = *ro;
    p.relaxed_ordering.source = {"lspci.txt", 44, std::string("RlxdOrd") + (*ro ? "+" : "-")};
  } else {
    p.relaxed_ordering.set_missing("lspci ran without root: Capabilities <access denied>", ReasonKind::needs_root);
  }
  for (PciBridge& b : *s.pci_bridges.value)
    if (b.bdf == "0000:00:01.0") {
      b.vendor_id = 0x8086;
      b.device_id = root_id;
    }
  return s;
}

const Cases k_cases{
    host_case("pcie.relaxed-ordering", Outcome::pass, "0000:04:00.0", "relaxed ordering enabled (DevCtl RlxdOrd+)",
              [] { return ro_tree(true); }),
    host_case("pcie.relaxed-ordering", Outcome::fail, "0000:04:00.0", "relaxed ordering is off on the NIC (DevCtl RlxdOrd-)",
              [] { return ro_tree(false); }),
    host_case("pcie.relaxed-ordering", Outcome::unknown, "0000:04:00.0",
              "DevCtl relaxed ordering not collected: lspci ran without root", [] { return ro_tree(std::nullopt); }),
    // A Xeon E5 v4 root port (8086:6f08): Linux keeps RO off below it on purpose.
    host_case("pcie.relaxed-ordering", Outcome::not_applicable, "0000:04:00.0",
              "the root port 0000:00:01.0 (8086:6f08) has the Xeon E5 v3/v4 Relaxed Ordering erratum",
              [] { return ro_tree(false, 0x6f08); }),
    host_case("pcie.path-link", Outcome::pass, "0000:04:00.0",
              "no hop caps the NIC (32GT/s x16 MPS 256): 0000:02:01.0 32GT/s x16 MPS 256, 0000:01:00.0 32GT/s x16 MPS 256",
              [] { return path_tree(16, 256); }),
    host_case("pcie.path-link", Outcome::fail, "0000:04:00.0",
              "0000:01:00.0 (Upstream Port) trained at 32GT/s x8 of 32GT/s x16: the path to the root port caps",
              [] { return path_tree(8, 256); }),
    host_case("pcie.path-link", Outcome::fail, "0000:04:00.0",
              "0000:01:00.0 (Upstream Port) MaxPayload 128 is below the NIC's 256",
              [] { return path_tree(16, 128); }),
    host_case("pcie.path-link", Outcome::unknown, "0000:04:00.0", "link not known at 0000:01:00.0: lspci ran without root",
              [] { return path_tree(16, 256, false); }),
    // A hop whose LnkSta speed was not read is not a pass.
    host_case("pcie.path-link", Outcome::unknown, "0000:04:00.0", "link not known at 0000:01:00.0: LnkSta unknown x16",
              [] {
                Snapshot s = path_tree(16, 256);
                for (PciBridge& b : *s.pci_bridges.value)
                  if (b.bdf == "0000:01:00.0") b.link.value->status.speed_gts.reset();
                return s;
              }),
    host_case("pcie.path-link", Outcome::not_applicable, "0000:04:00.0", "SR-IOV VF",
              [] { Snapshot s = path_tree(16, 256); s.pci_functions.front().is_vf = true; return s; }),
    host_case("pcie.acs-redirect", Outcome::pass, "gpu0 <-> mlx5_0",
              "no bridge between gpu0 (0000:03:00.0) and mlx5_0 (0000:04:00.0) redirects peer-to-peer traffic "
              "(0000:02:00.0, 0000:02:01.0)",
              [] { return acs_tree({}); }),
    // ACS on at the root port, above the switch both hang from, does not touch their traffic.
    host_case("pcie.acs-redirect", Outcome::pass, "gpu0 <-> mlx5_0", "no bridge between gpu0",
              [] { return acs_tree({"0000:00:01.0"}); }),
    host_case("pcie.acs-redirect", Outcome::fail, "gpu0 <-> mlx5_0",
              "ACS redirects peer-to-peer traffic at 0000:02:00.0 (Downstream Port) (ACSCtl SrcValid+ TransBlk- "
              "ReqRedir+ CmpltRedir+ UpstreamFwd- EgressCtrl- DirectTrans-): GPUDirect RDMA between gpu0",
              [] { return acs_tree({"0000:02:00.0"}); }),
    host_case("pcie.acs-redirect", Outcome::unknown, "gpu0 <-> mlx5_0",
              "ACS state not known at 0000:02:01.0: needs root",
              [] { return acs_tree({}, "0000:02:01.0"); }),
    host_case("pcie.acs-redirect", Outcome::not_applicable, "gpu0", "no NIC shares a PCIe switch with gpu0",
              [] { return acs_tree({"0000:02:00.0"}, "", "PHB"); }),
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
    // DMA-BUF without nvidia-peermem: a working mechanism (NVIDIA's recommended one).
    host_case("gpudirect.peer-memory", Outcome::pass, "host", "NCCL reports DMA-BUF available",
              [] { return gpudirect(false, std::nullopt, false, true); }),
    // The open GPU kernel module on a kernel with RDMA DMA-BUF import: DMA-BUF works without peermem.
    host_case("gpudirect.peer-memory", Outcome::pass, "host",
              "DMA-BUF can register GPU memory with the NIC: the NVIDIA open GPU kernel module 555.42.02 and kernel "
              "6.8.0-1013-nvidia-64k (RDMA DMA-BUF import since Linux 5.12)",
              [] { return driver(true, "555.42.02", "6.8.0-1013-nvidia-64k"); }),
    host_case("gpudirect.peer-memory", Outcome::fail, "host",
              "nvidia_peermem is not loaded and no peer-memory client is registered, and DMA-BUF cannot work: the "
              "NVIDIA driver 515.76 is the proprietary kernel module",
              [] { return driver(false, "515.76", "5.4.0-146-generic"); }),
    host_case("gpudirect.peer-memory", Outcome::fail, "host",
              "DMA-BUF cannot work: kernel 5.4.0-146-generic predates RDMA DMA-BUF import (Linux 5.12)",
              [] { return driver(true, "535.104.05", "5.4.0-146-generic"); }),
    // No peermem, and the driver and kernel are not in the input: DMA-BUF may work, so not a failure.
    host_case("gpudirect.peer-memory", Outcome::unknown, "host",
              "nvidia_peermem is not loaded and no peer-memory client is registered; whether DMA-BUF can replace it is "
              "not known: the NVIDIA driver "
              "(`cat /proc/driver/nvidia/version` as nvidia_version.txt) is not in the input",
              [] { return gpudirect(false, std::nullopt, std::nullopt); }),
    host_case("gpudirect.peer-memory", Outcome::unknown, "host",
              "whether DMA-BUF can replace it is not known: the kernel release (`uname -r` as uname.txt) is not in the input",
              [] {
                Snapshot s = driver(true, "555.42.02", "6.8.0");
                s.kernel_release.value.reset();
                return s;
              }),
    host_case("gpudirect.peer-memory", Outcome::fail, "host",
              "peer memory not registered (no /sys/kernel/mm/memory_peers entry) although nvidia_peermem is loaded, and "
              "DMA-BUF cannot work: the NVIDIA driver 515.76 is the proprietary kernel module",
              [] {
                Snapshot s = driver(false, "515.76", "5.4.0-146-generic");
                s.gpudirect.value->peermem_loaded = true;
                s.gpudirect.value->peer_memory_registered = false;
                return s;
              }),
    host_case("gpudirect.peer-memory", Outcome::unknown, "host", "no proof of GPUDirect RDMA either way",
              [] { return gpudirect(std::nullopt, std::nullopt, std::nullopt); }),
    host_case("gpudirect.gpu-nic-affinity", Outcome::pass, "gpu0", "closest NIC mlx5_1 at PIX",
              [] { return gpus({"SYS", "PIX"}); }),
    host_case("gpudirect.gpu-nic-affinity", Outcome::fail, "gpu0", "closest NIC mlx5_0 at SYS: GPUDirect RDMA traffic crosses the inter-socket link",
              [] { return gpus({"SYS"}); }),
    // Grace (NVLink-C2C): no PCIe switch by design; judged by the CPU the NIC hangs off.
    host_case("gpudirect.gpu-nic-affinity", Outcome::pass, "gpu0",
              "mlx5_1 on the GPU's CPU (NUMA node 0); GPU NUMA ID 2: the GPU is coupled to a Grace CPU over NVLink-C2C",
              [] { return grace({1, 0}); }),
    host_case("gpudirect.gpu-nic-affinity", Outcome::fail, "gpu0",
              "no NIC on the GPU's CPU (NUMA node 0), only mlx5_0 (NUMA node 1), mlx5_1 (NUMA node 1): GPUDirect RDMA "
              "crosses the CPU-to-CPU link",
              [] { return grace({1, 1}); }),
    // Without the NICs' NUMA nodes the CPU they hang off is not known: unknown, not a PCIe-switch failure.
    host_case("gpudirect.gpu-nic-affinity", Outcome::unknown, "gpu0",
              "closest NIC at SYS, through the Grace CPU, which is no fault (GPU NUMA ID 2: the GPU is coupled to a "
              "Grace CPU",
              [] { return grace({std::nullopt}); }),
    // nvidia-smi NODE (DGX Spark GB10): the NIC is within the GPU's NUMA node, on its own CPU.
    host_case("gpudirect.gpu-nic-affinity", Outcome::pass, "gpu0",
              "mlx5_0 at NODE, on the GPU's own CPU (nvidia-smi NODE: within one NUMA node); NVIDIA GB10: the GPU "
              "is coupled to a Grace CPU",
              [] { return grace({std::nullopt}, true); }),
    host_case("gpudirect.gpu-nic-affinity", Outcome::unknown, "host", "GPU topology not collected",
              [] { Snapshot s; s.gpus.reason = "no nvidia-smi topo -m in the input"; return s; }),
    host_case("gpudirect.gpu-nic-affinity", Outcome::not_applicable, "host", "no NVIDIA GPU in the topology",
              [] { Snapshot s; s.gpus.value = std::vector<Gpu>{}; return s; }),
};

}  // namespace
}  // namespace rk::testcases

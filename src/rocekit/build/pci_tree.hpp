// The PCIe tree of a snapshot: parent links from bridge bus ranges (captures), the chain of a
// device up to its root port, and nvidia-smi's name for the path between two devices. Live
// collection and capture both use these, so a relation is classified one way.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/model/snapshot.hpp"

namespace rk::build {

/// nvidia-smi topo's name for the PCIe path between two devices, each given as path components
/// host bridge first, then the bridges from the root port down, then the device
/// (["pci0000:00", "0000:00:01.0", "0000:01:00.0", "0000:02:00.0", "0000:03:00.0"]):
/// SYS (different NUMA nodes), NODE (different host bridges), PHB (same host bridge, no shared
/// bridge), PIX (at most one bridge below the shared one on each side: one PCIe switch), PXB.
std::string pcie_relation(const std::vector<std::string>& a, std::optional<int> numa_a,
                          const std::vector<std::string>& b, std::optional<int> numa_b);

/// Order of those names, nearest first: PIX 0, PXB 1, PHB 2, NODE 3, SYS 4, anything else 5.
int relation_rank(std::string_view relation);

/// A GPU's nearest NIC by relation (the first of equals, in topology order); nullptr without NICs.
const GpuNicLink* closest_nic(const Gpu& g);

/// Why a GPU is coupled to a Grace CPU over NVLink-C2C (no PCIe switch to its NICs by design):
/// nvidia-smi's `GPU NUMA ID` is set (NVML fills it only where the GPU is a NUMA node), or its
/// product name is a Grace superchip (GH200, GB200, GB300, GB10). nullopt for a PCIe GPU.
std::optional<std::string> c2c_coupling(const Gpu& g);

/// The NIC a GPU's GPUDirect RDMA uses: the closest by relation; on a Grace GPU (c2c_coupling),
/// the first NIC on the GPU's own CPU when the NICs' NUMA nodes are known, and nullptr when they
/// are not and nvidia-smi puts every NIC at SYS (no NIC can be named). nullptr without NICs.
const GpuNicLink* gpudirect_nic(const Snapshot& s, const Gpu& g);

/// The PCI function of an RDMA device, when the snapshot ties the device to an address it holds.
const PciFunction* rdma_function(const Snapshot& s, const std::string& rdma_device);

/// The bridges above a device, nearest first, from parent_bdf links (`parent` is the device's
/// own). Stops at a bridge the snapshot does not hold, and after 64 hops.
std::vector<const PciBridge*> bridges_above(const Snapshot& s, const std::optional<std::string>& parent);

/// The bridges between two devices below their lowest shared bridge, from bridges_above of each:
/// a's side nearest a first, then b's side nearest b first. nullopt when no bridge is shared
/// (the path crosses the root complex, or the input does not connect them).
std::optional<std::vector<const PciBridge*>> bridges_between(const std::vector<const PciBridge*>& a,
                                                             const std::vector<const PciBridge*>& b);

/// Path components for pcie_relation: "pci<domain>:<bus>" of the topmost bridge (or of the
/// device when it has none), the bridges top-down, then `bdf`.
std::vector<std::string> pci_path(const Snapshot& s, const std::string& bdf, const std::optional<std::string>& parent);

/// Captures: sets parent_bdf of every PCI function, GPU and bridge that has none to the
/// bridge whose secondary..subordinate bus range holds its bus most narrowly (lspci -vvv
/// `Bus: primary=.., secondary=.., subordinate=..`).
void link_pci_tree(Snapshot& s);

/// An NVIDIA GPU seen in lspci (3D or VGA controller of vendor 10de).
struct SeenGpu {
  std::string bdf;
  std::optional<int> numa_node;
  Evidence source;
  Collected<bool> ats_enabled;  ///< lspci ATSCtl of the GPU's function
};

/// Captures: gives the GPUs their PCI addresses. With nvidia-smi topo GPUs of the same count,
/// index i takes the i-th address in bus order (nvidia-smi enumerates in PCI bus order);
/// without any, the GPUs are those of lspci, with relations to every RDMA device from the tree.
/// Then links the tree (link_pci_tree): call it once, after every file is merged.
void place_gpus(Snapshot& s, std::vector<SeenGpu> seen);

}  // namespace rk::build

// The PCIe tree above the GPUs and NICs, read live: every bridge in their sysfs device paths
// (/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/... is the path from the root port down).
#pragma once

#include <string>
#include <vector>

#include "rocekit/collect/host_view.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::collect {

/// Sets parent_bdf of every PCI function and GPU (with a bdf) whose sysfs path resolves, and
/// fills s.pci_bridges with each bridge on those paths: vendor/device, PCIe port type, bus
/// range, link and MaxPayload, ACS (from `config`, 4096 bytes as root). Paths needing root go
/// to `needs_root`.
void read_pci_tree(const HostView& host, Snapshot& s, std::vector<std::string>& needs_root);

}  // namespace rk::collect

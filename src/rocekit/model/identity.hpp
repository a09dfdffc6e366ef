// Canonical forms that several consumers compare: the DSCP-to-priority map as one string and a
// NIC port's model identity. `rocekit fleet` compares them across snapshots, the exporter
// exposes them as labels for fleet drift in PromQL (deploy/prometheus/rocekit-fleet-rules.yml);
// both read them from here so that the two agree.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "rocekit/model/snapshot.hpp"

namespace rk {

/// "0:0-7 1:8-15 ...": per priority, its DSCPs as ranges; priorities in order.
std::string dscp_map_text(const std::map<int, int>& dscp_to_priority);

/// What names a NIC port's model, whatever the input shows.
struct NicIdentity {
  std::optional<std::string> psid;        ///< ethtool -i, else the firmware query, else RDMA board_id
  std::optional<std::string> pci_device;  ///< "0x1021": PCI device id, else RDMA vendor part id
  std::optional<std::string> part_number; ///< firmware query, else VPD [PN], else mlxconfig's
  /// The comparison group: "PSID MT_0000000834", else the PCI device name, else "vendor part
  /// 4129", else "unknown model".
  std::string model;
};

/// From any of the port's netdev, PCI function and RDMA device (each may be null).
NicIdentity nic_identity(const NetDev* n, const PciFunction* p, const RdmaDevice* r);

}  // namespace rk

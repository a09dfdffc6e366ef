// Which netdevs RoCE rules judge and plan steps change (issue 14 item 2): those backed by an
// Ethernet RDMA port (or otherwise shown to be a ConnectX/mlx5 port), plus netdevs named with
// --netdev or given a compute/storage role by the policy; never a management-role netdev.
#pragma once

#include <optional>
#include <string>

#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk {

struct NetdevScope {
  bool roce = false;    ///< judged by RoCE rules, changed by plan steps
  bool named = false;   ///< named on the command line (--netdev): the operator asked for it
  std::string why;      ///< why in or out, for not_applicable findings and "not planned" lines
};

/// The policy's interfaces: entry matching the netdev (name, PCI address or RDMA device),
/// or nullptr.
const InterfaceRoleRule* interface_role(const Policy& pol, const NetDev& n);

/// Why a netdev is never judged or changed, whatever its hardware: the policy gives it the
/// management role ("policy interface role management: never judged or changed"); nullopt
/// otherwise. The first decision of roce_netdev_scope, and the one rules on a netdev's RDMA
/// port ask (link.port-active).
std::optional<std::string> management_role_why(const Policy& pol, const NetDev& n);

/// In order: a management role -> out; --netdev -> in; a compute/storage role -> in; an
/// InfiniBand (IPoIB) netdev -> out; an RDMA device on the netdev's port, driver mlx5_core, a
/// Mellanox/NVIDIA (0x15b3) PCI function, QoS state read by mlnx_qos or mlx5 ECN sysfs -> in;
/// a capture that lists no RDMA devices at all and no driver for the netdev -> in (cannot
/// tell, said in `why`); else out.
NetdevScope roce_netdev_scope(const Snapshot& s, const NetDev& n, const Policy& pol);

}  // namespace rk

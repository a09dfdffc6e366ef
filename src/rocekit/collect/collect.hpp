// Live collection: read a host's kernel interfaces (sysfs, procfs, configfs) into a Snapshot,
// with no vendor tools and no writes. The only layer that touches the live kernel.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rocekit/collect/command_runner.hpp"
#include "rocekit/collect/host_view.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::collect {

/// What to collect. The library reads no clock and no environment: the caller fills the
/// stamps.
struct CollectRequest {
  std::string tool_version;   ///< rk::version()
  std::string collected_at;   ///< ISO 8601 UTC
  /// Run `mstconfig -d <BDF> -e q` (then `mlxconfig`) through the CommandRunner for every
  /// NVIDIA PF. Off by default: no process is spawned.
  bool nv_config = false;
  /// Run iproute2's read-only `devlink port show` once and `devlink dev eswitch show pci/<BDF>`
  /// for every NVIDIA PF through the CommandRunner: each netdev's devlink port (a BlueField's
  /// Arm side: uplinks and representors) and each PF's eswitch mode. Off by default: no process
  /// is spawned.
  bool devlink = false;
  /// Also query the running kernel with read-only ioctls (SIOCETHTOOL gets: driver info,
  /// coalescing, channels, pause). Only true when the HostView root is this host's "/"; under a
  /// fixture root those sections keep their "not collected" reasons.
  bool kernel_ioctls = false;
  /// With kernel_ioctls: read channels through ethtool netlink (libnl-genl, kernel >= 5.6),
  /// falling back to the ioctl when the family is absent. false: the ioctl only (`--ethtool-ioctl`).
  bool ethtool_netlink = true;
  /// Virtual netdevs (under /sys/devices/virtual: veth, bonds, ...) to audit anyway, by name.
  /// Others stay in the "virtual netdevs not audited" note.
  std::vector<std::string> virtual_netdevs;
  /// RDMA devices (by name, e.g. "mlx5_0") to read; empty = all. A device for which this
  /// returns false is not read at all and not in the snapshot (rocekit exporter: excluded or
  /// firmware-restricted devices whose reads fail).
  std::function<bool(const std::string&)> rdma_device_filter;
  /// Read RDMA port counters/hw_counters and `ethtool -S` statistics. The exporter reads them
  /// itself every scrape and turns this off for its slower state snapshot.
  bool counters = true;
};

/// Reads the host behind `host` into a Snapshot (source.kind "live", source.path = the root).
/// Never fails as a whole: each section that cannot be read is a Collected reason
/// ("needs root: cannot read /sys/bus/pci/devices/0000:2f:00.0/config beyond 64 bytes",
/// "/sys/class/net/eth0/ecn not present ..."), and host-wide facts go to Snapshot::notes
/// ("no RDMA devices found (/sys/class/infiniband is absent)"). Every value carries Evidence
/// whose `file` is the host path it was read from.
///
/// Sources: /sys/class/infiniband/*, /sys/class/net/*, /sys/bus/pci/devices/*,
/// /sys/devices/system/node/node*/cpulist, /sys/module/{nvidia_peermem,nv_peer_mem},
/// /sys/kernel/mm/memory_peers, /proc/modules, /proc/sys/kernel/hostname,
/// /sys/kernel/config/rdma_cm (read only when it exists; never created).
Snapshot collect_snapshot(const CollectRequest& request, const HostView& host, CommandRunner& runner);

/// RoCE active MTU the kernel derives from a netdev MTU (include/rdma/ib_addr.h iboe_get_mtu):
/// the largest IB MTU (256..4096 bytes) not above `netdev_mtu_bytes` - 96 header bytes; 0 when
/// even 256 does not fit.
int iboe_active_mtu_bytes(int netdev_mtu_bytes);

/// nvidia-smi's name for the PCIe path between two devices, from their resolved sysfs paths
/// ("/sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0") and NUMA nodes: SYS (different NUMA
/// nodes), NODE (different host bridges), PHB (same host bridge, no shared PCIe bridge), PIX (at
/// most one bridge below the shared one on each side, i.e. one PCIe switch), PXB (more).
std::string pcie_relation(const std::string& path_a, std::optional<int> numa_a,
                          const std::string& path_b, std::optional<int> numa_b);

/// Counts CPUs in a sysfs cpulist ("0-3,8-11" -> 8, "" -> 0); nullopt when malformed.
std::optional<int> cpulist_count(std::string_view cpulist);

}  // namespace rk::collect

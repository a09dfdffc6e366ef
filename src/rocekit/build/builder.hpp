// The snapshot builder: typed merges that a capture (capture/) and a live collection (collect/)
// both use to fill a Snapshot, so that a value is derived one way whatever the source. Only where
// the bytes come from (a capture file and line, a sysfs path, a command) differs between them:
// the caller passes the Evidence.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "rocekit/model/snapshot.hpp"
#include "rocekit/parse/devlink_dev_eswitch.hpp"
#include "rocekit/parse/devlink_port.hpp"
#include "rocekit/parse/dmesg.hpp"
#include "rocekit/parse/ibv_devinfo.hpp"
#include "rocekit/parse/mlnx_qos.hpp"
#include "rocekit/parse/cma_roce_mode.hpp"
#include "rocekit/parse/mlxconfig_query.hpp"

namespace rk::build {

// ---------------------------------------------------------------- vocabulary ---------------
// Parser enums and raw sysfs text to the snapshot's vocabulary (model/vocab.hpp).
PortState port_state(parse::PortState s);
/// sysfs ports/<p>/state "4: ACTIVE" -> active; unrecognised text -> unknown.
PortState port_state_sysfs(std::string_view state_file);
LinkLayer link_layer(parse::LinkLayer l);  ///< "unspecified" reads as Ethernet (a RoCE port)
Trust trust(parse::QosTrust t);
/// A parser's GID type on a port; `ib` when the port is InfiniBand (its GIDs are "IB").
std::optional<GidType> gid_type(const std::optional<parse::GidType>& t, bool ib);
/// sysfs gid_attrs/types/<i> ("IB/RoCE v1", "RoCE v2") on a port; nullopt when unreadable and
/// the port is not InfiniBand.
std::optional<GidType> gid_type_sysfs(const std::optional<std::string>& types_file, bool ib);
/// rdma_cm default RoCE mode as the snapshot spells it: "RoCE v2" or "IB/RoCE v1" (configfs
/// default_roce_mode, drivers/infiniband/core/cma_configfs.c); other text is kept as read.
std::string cm_roce_mode(parse::CmRoceMode m);
std::string cm_roce_mode_sysfs(std::string_view configfs_text);
/// IPv4 address of an IPv4-mapped GID "0000:0000:0000:0000:0000:ffff:c0a8:0684" -> "192.168.6.132".
std::optional<std::string> gid_ipv4(std::string_view gid);

// ---------------------------------------------------------------- RDMA / netdev -------------
/// The port of `d` numbered `port`, added (ports kept in order) when absent.
RdmaPort& rdma_port(RdmaDevice& d, int port);
/// Pairs a netdev with an RDMA device port: port.netdev, netdev.rdma_device/rdma_port, and the
/// netdev's PCI function from the RDMA device when it has none.
void pair_netdev(Snapshot& s, const std::string& rdma_device, int port, const std::string& netdev);
/// After every source is merged: a netdev without a PCI function takes its RDMA device's, and
/// a netdev without a NUMA node takes its PCI function's.
void finish_links(Snapshot& s);

/// A netdev MTU as read (ip link, sysfs, a system-check report): the value when it is one
/// (68..65535, model/validate.hpp), else the section absent with the reason, so that reading
/// back a snapshot rocekit wrote never refuses it.
void netdev_mtu(NetDev& n, long long mtu, const Evidence& source);

// ---------------------------------------------------------------- QoS -----------------------
/// mlnx_qos values (trust, DSCP->priority, PFC) without evidence; the caller adds the sources.
QosState qos_state(const parse::MlnxQos& v);

// ---------------------------------------------------------------- PCI / firmware ------------
/// Firmware NV configuration from an mlxconfig/mstconfig query or set transcript; parameter
/// lines are shifted by `line_offset` (capture: the header lines before the body).
NvConfig nv_config(const parse::MlxconfigQuery& q, std::size_t line_offset);

// ---------------------------------------------------------------- devlink -------------------
/// One `devlink port show` port into its netdev's devlink_port (an uplink's devlink instance is
/// its PCI function, which the netdev takes when it has none). false, nothing merged: the port
/// has no netdev (e.g. an unbound representor).
bool devlink_port(Snapshot& s, const parse::DevlinkPort& p, const Evidence& source);
/// One `devlink dev eswitch show` device into its PCI function's eswitch; false, nothing
/// merged, when the handle is not a PCI address.
bool devlink_eswitch(Snapshot& s, const parse::DevlinkEswitch& d, const Evidence& source);
/// The kernel's answer instead of an eswitch (`kernel answers: Operation not supported`) for
/// the PCI function `bdf` the command was run for.
void devlink_eswitch_error(Snapshot& s, const std::string& bdf, const std::string& answer,
                           const Evidence& source);
/// The running firmware of a PCI function as a driver or report states it (ethtool -i without
/// a netdev, dmesg "firmware version:", a system-check report): set only when no firmware query
/// (flint, mlxfwmanager, devlink) already filled it.
void running_firmware(PciFunction& p, const std::optional<std::string>& version,
                      const std::optional<std::string>& psid, const Evidence& source);
/// The kernel's probe-time PCIe bandwidth line as the function's link, when no LnkCap/LnkSta
/// (lspci, config space) is known: capability = the card's ("capable of ... with"), status =
/// the link the bandwidth is limited by (possibly a bridge upstream of the card, named in a
/// note).
void kernel_pcie_link(PciFunction& p, const parse::DmesgPcieBandwidth& b, const Evidence& source);
/// DevCtl MaxReadReq as read (lspci, config space, a system-check report): the value when it is
/// one (a power of two, 128..4096), else the section absent with the reason.
void max_read_request(PciFunction& p, long long bytes, const Evidence& source);

// ---------------------------------------------------------------- IOMMU -------------------

/// The evidence of the host's default IOMMU mode, each part with where it was read.
struct IommuEvidence {
  std::optional<parse::CmdlineIommu> cmdline;  ///< /proc/cmdline or dmesg "Kernel command line:"
  Evidence cmdline_source;
  std::optional<std::string> default_domain;   ///< dmesg "Default domain type:" value, "Translated"
  Evidence domain_source;
  /// How many IOMMU groups the host has (nullopt: not read). Zero: no IOMMU driver runs.
  std::optional<std::size_t> group_count;
  Evidence groups_source;
};

/// The host's mode: no IOMMU group at all -> off (decided_by "iommu groups"); an explicit "off"
/// parameter -> off (dmesg prints its default domain line whether or not an IOMMU driver runs);
/// dmesg's "Translated"/"Passthrough" (what the kernel did); else the command line's mode. Missing
/// (not_captured, the reason naming what to save) when none decides.
Collected<IommuState> iommu_state(const IommuEvidence& e);

/// True for group types whose default domain translates DMA: "DMA", "DMA-FQ" and "unmanaged" (a
/// user such as VFIO maps it); false for "identity"; nullopt for "blocked", "unknown" or no type.
std::optional<bool> group_translates(const IommuGroup& g);

}  // namespace rk::build

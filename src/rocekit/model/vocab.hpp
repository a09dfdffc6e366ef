// The typed vocabulary producers (capture, live collection) and consumers (rules, renderers,
// plan, fleet, exporter) of the snapshot agree on. Each enum has exactly one spelling per value,
// the one the snapshot JSON has always used (docs/snapshot-schema.md), via to_string /
// *_from_string; nothing outside this file spells "ACTIVE", "InfiniBand" or "RoCE v2".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rk {

/// RDMA port logical state, as the kernel names it (drivers/infiniband/core/sysfs.c
/// state_show(): "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"; anything else
/// "UNKNOWN"). ibv_devinfo prints the same names with a PORT_ prefix.
enum class PortState { nop, down, init, armed, active, active_defer, unknown };

/// RDMA port link layer (sysfs link_layer_show(): "InfiniBand", "Ethernet").
enum class LinkLayer { ethernet, infiniband };

/// GID type: "IB" (an InfiniBand port's GID), "RoCE v1", "RoCE v2"
/// (sysfs gid_attrs/types prints "IB/RoCE v1" or "RoCE v2").
enum class GidType { ib, roce_v1, roce_v2 };

/// Priority trust state of a netdev (mlnx_qos "Priority trust state", dcb apptrust): which field
/// of a received packet selects its priority.
enum class Trust { pcp, dscp };

/// Where a snapshot came from.
/// capture_file: one pasted or saved text file (or stdin), not a directory or archive.
enum class SourceKind { capture_dir, capture_tarball, snapshot, live, capture_file };

/// Why a Collected<T> has no value, so that consumers branch on a kind instead of matching the
/// reason text.
enum class ReasonKind {
  none,            ///< a value is present (or the producer did not classify the reason)
  not_captured,    ///< the capture holds no output of the tool that shows it
  tool_failed,     ///< the capture log records the tool as missing or failed on the host
  needs_root,      ///< the file or query needs root
  not_present,     ///< the kernel interface does not exist (driver, module, configfs)
  not_supported,   ///< the driver or tool does not report it
  not_requested,   ///< the caller chose not to read it
  not_applicable,  ///< the question does not arise on this host or device
  unreadable,      ///< present but could not be read or parsed
  conflicting,     ///< two inputs disagree about it: neither is taken
};

std::string_view to_string(PortState v);
std::string_view to_string(LinkLayer v);
std::string_view to_string(GidType v);
std::string_view to_string(Trust v);
std::string_view to_string(SourceKind v);
std::string_view to_string(ReasonKind v);

/// "ACTIVE" (also "PORT_ACTIVE", "4: ACTIVE", any case) -> active; other text -> nullopt.
std::optional<PortState> port_state_from_string(std::string_view s);
/// "Ethernet" / "InfiniBand" (any case) -> the link layer; other text -> nullopt.
std::optional<LinkLayer> link_layer_from_string(std::string_view s);
/// "IB", "RoCE v1", "IB/RoCE v1", "RoCE v2" -> the type; other text -> nullopt.
std::optional<GidType> gid_type_from_string(std::string_view s);
std::optional<Trust> trust_from_string(std::string_view s);
std::optional<SourceKind> source_kind_from_string(std::string_view s);
std::optional<ReasonKind> reason_kind_from_string(std::string_view s);

inline std::string str(PortState v) { return std::string(to_string(v)); }
inline std::string str(LinkLayer v) { return std::string(to_string(v)); }
inline std::string str(GidType v) { return std::string(to_string(v)); }
inline std::string str(Trust v) { return std::string(to_string(v)); }
inline std::string str(SourceKind v) { return std::string(to_string(v)); }

}  // namespace rk

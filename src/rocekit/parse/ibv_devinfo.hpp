// Parser for `ibv_devinfo [-v] [-d <dev>]` (rdma-core libibverbs/examples/devinfo.c), plus the
// RDMA vocabulary shared by the other RDMA device/port parsers (ibdev2netdev, show_gids,
// rdma_link, ibstat): port state, physical state, link layer, GID type, and helpers that decode
// rdma-core device names and IPv4-mapped GIDs.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// Logical port state (IBTA / `enum ibv_port_state`). ibv_devinfo prints `PORT_ACTIVE (4)`,
/// `rdma link` prints `ACTIVE`, ibstat prints `Active`.
enum class PortState { nop, down, init, armed, active, active_defer };
std::string_view to_string(PortState s);
/// Accepts `PORT_ACTIVE`, `ACTIVE`, `Active`, `Initializing` ... (case-insensitive); a trailing
/// ` (N)` code is ignored.
std::optional<PortState> port_state_from_text(std::string_view s);

/// Physical port state (IBTA PortPhysicalState). ibv_devinfo/rdma link print `LINK_UP`,
/// `DISABLED`, `POLLING`; ibstat prints `LinkUp`, `Disabled`, `Polling`.
enum class PhysState {
  sleep,
  polling,
  disabled,
  port_configuration_training,
  link_up,
  link_error_recovery,
  phy_test
};
std::string_view to_string(PhysState s);
std::optional<PhysState> phys_state_from_text(std::string_view s);

/// Port link layer: `Ethernet` means RoCE (or iWARP), `InfiniBand` native IB.
enum class LinkLayer { ethernet, infiniband, unspecified };
std::string_view to_string(LinkLayer l);
std::optional<LinkLayer> link_layer_from_text(std::string_view s);

/// GID type as the kernel names it in gid_attrs/types: `IB/RoCE v1` (ibv_devinfo may print
/// `RoCE v1`; show_gids prints `v1`) or `RoCE v2` (show_gids `v2`).
enum class GidType { ib_roce_v1, roce_v2 };
std::string_view to_string(GidType t);
/// Accepts `IB/RoCE v1`, `RoCE v1`, `v1`, `RoCE v2`, `v2` (case-insensitive).
std::optional<GidType> gid_type_from_text(std::string_view s);

/// The dotted IPv4 address of an IPv4-mapped GID (`::ffff:192.0.2.1` or
/// `0000:0000:0000:0000:0000:ffff:c000:0201`); nullopt for any other GID.
std::optional<std::string> ipv4_from_gid(std::string_view gid);

/// PCI address (`DDDD:BB:SS.F`, lower-case hex) encoded in an rdma-core NAME_PCI device name
/// (`rocep61s0f1` -> `0000:3d:00.1`, `roceP2p1s0f0` -> `0002:01:00.0`, `ibp0s12f4` ->
/// `0000:00:0c.4`). rdma_rename prints domain, bus, slot and function in decimal; the domain
/// (`P<n>`) only when non-zero, `f<n>` only for multi-function devices (absent -> function 0);
/// with ARI the function is slot*8+function. Prefixes: ib, roce, iw, opa, rdma. nullopt for
/// kernel names (`mlx5_0`), GUID names (`rocex...`), hot-plug slot names (`roces5`).
std::optional<std::string> bdf_from_rdma_name(std::string_view name);

/// One GID table entry of `ibv_devinfo -v`: `GID[  3]:  ::ffff:192.0.2.1, RoCE v2`.
struct IbvGid {
  std::uint32_t index = 0;          ///< GID index (the number in brackets)
  std::string gid;                  ///< as printed (compressed or full form)
  std::optional<GidType> type;      ///< nullopt: older libibverbs prints no type
  std::optional<std::string> ipv4;  ///< derived from an IPv4-mapped GID (ipv4_from_gid)
};

/// One `port: N` block.
struct IbvPort {
  std::optional<std::uint32_t> port;              ///< nullopt only when the `port:` line is missing
  std::optional<PortState> state;                 ///< `state: PORT_ACTIVE (4)`
  std::optional<std::uint32_t> max_mtu_bytes;     ///< `max_mtu: 4096 (5)` -> 4096
  std::optional<std::uint32_t> active_mtu_bytes;  ///< `active_mtu: 1024 (3)` -> 1024
  std::optional<std::uint32_t> sm_lid;
  std::optional<std::uint32_t> port_lid;
  std::optional<std::uint32_t> port_lmc;  ///< `port_lmc: 0x00` (hex)
  std::optional<LinkLayer> link_layer;    ///< `link_layer: Ethernet`
  // -v only:
  std::optional<std::uint32_t> gid_tbl_len;
  std::optional<std::uint32_t> active_width_lanes;  ///< `active_width: 4X (2)` -> 4
  std::optional<double> active_speed_gbps;          ///< `active_speed: 25.0 Gbps (32)` -> 25.0
  std::optional<PhysState> phys_state;              ///< `phys_state: LINK_UP (5)`
  std::vector<IbvGid> gids;                         ///< GID table (-v), in printed order
  std::map<std::string, std::string> attributes;    ///< every other `key: value` of the port
};

/// One `hca_id:` block.
struct IbvDevice {
  std::string hca_id;                           ///< RDMA device name (`mlx5_0`, `rocep1s0f0`)
  std::optional<std::string> name_bdf;          ///< bdf_from_rdma_name(hca_id)
  std::optional<std::string> transport;         ///< `InfiniBand (0)` -> "InfiniBand"
  std::optional<std::string> fw_ver;            ///< firmware version string, as printed
  std::optional<std::string> node_guid;         ///< as printed, `0200:0003:0000:0011`
  std::optional<std::string> sys_image_guid;    ///< as printed; all-zero on some VFs
  std::optional<std::uint32_t> vendor_id;       ///< `0x02c9` (hex): 0x02c9 Mellanox, 0x8086 Intel
  std::optional<std::uint32_t> vendor_part_id;  ///< decimal PCI device id (4117 = 0x1015 CX-4 Lx)
  std::optional<std::uint32_t> hw_ver;          ///< `0x0` (hex)
  std::optional<std::string> board_id;          ///< PSID, e.g. `MT_2420110034`
  std::optional<std::uint32_t> phys_port_cnt;
  std::vector<IbvPort> ports;
  /// -v device attributes, `key: value` as printed. Keys nested under a header line
  /// (`tso_caps:` / `max_tso:`) are joined with '.' (`tso_caps.max_tso`).
  std::map<std::string, std::string> attributes;
  /// -v flag lists printed one per line under a key (`device_cap_flags`, `rc_odp_caps`, ...).
  std::map<std::string, std::vector<std::string>> attribute_lists;
  /// -v lines without a value (`tag matching not supported`, `core clock not supported`).
  std::vector<std::string> remarks;
};

/// Whole `ibv_devinfo` output.
struct IbvDevinfo {
  std::vector<IbvDevice> devices;
  bool verbose = false;           ///< -v attributes seen (GID table present only then)
  bool no_devices_found = false;  ///< the tool printed `No IB devices found`
};

Result<Parsed<IbvDevinfo>> parse_ibv_devinfo(std::string_view text);
nlohmann::json to_json(const IbvDevinfo& v);
/// True when the text has an `hca_id:` line followed by ibv_devinfo keys.
bool looks_like_ibv_devinfo(std::string_view text);

}  // namespace rk::parse

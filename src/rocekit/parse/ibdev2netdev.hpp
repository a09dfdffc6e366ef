// Parser for MLNX_OFED / mlnx-tools `ibdev2netdev [-v]`: the RDMA device/port -> netdev map.
//   plain: `mlx5_0 port 1 ==> ens6 (Up)`
//   -v:    `0000:3b:00.0 mlx5_0 (MT4119 - MCX516A-CCAT) CX516A - ConnectX-5 QSFP28 fw 16.35.2000
//           port 1 (ACTIVE) ==> ens1f0 (Up)`
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/parse/ibv_devinfo.hpp"

namespace rk::parse {

struct Ibdev2netdevEntry {
  std::string rdma_device;              ///< `mlx5_0`, `rocep1s0f0`, `hrn3_bond_0`
  std::uint32_t port = 0;               ///< RDMA port number (1-based)
  std::optional<std::string> netdev;    ///< nullopt when the tool printed no netdev
  std::optional<bool> link_up;          ///< `(Up)` true, `(Down)` false: the netdev's state
  std::optional<std::string> name_bdf;  ///< bdf_from_rdma_name(rdma_device)
  // -v only:
  std::optional<std::string> bdf;          ///< leading PCI address, as printed
  std::optional<std::string> device_id;    ///< `MT4119`
  std::optional<std::string> psid;         ///< `MCX516A-CCAT` (part number / PSID as printed)
  std::optional<std::string> description;  ///< text between `(...)` and `fw`
  std::optional<std::string> fw_ver;       ///< after `fw`
  std::optional<PortState> port_state;     ///< `port 1 (ACTIVE)`
};

struct Ibdev2netdev {
  std::vector<Ibdev2netdevEntry> entries;
};

Result<Parsed<Ibdev2netdev>> parse_ibdev2netdev(std::string_view text);
nlohmann::json to_json(const Ibdev2netdev& v);
/// True when a line has `port N ==> `.
bool looks_like_ibdev2netdev(std::string_view text);

}  // namespace rk::parse

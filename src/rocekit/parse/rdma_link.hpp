// Parsers for iproute2 `rdma` text output:
//   tool id rdma_link: `rdma link [show]` ->
//     `link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens6`, or in the first iproute2
//     releases `0/1: mlx5_0/1: state ACTIVE physical_state LINK_UP` (device index/port first)
//   tool id rdma_res:  `rdma res [show]` -> `0: mlx5_0: pd 2 cq 3 qp 1 cm_id 0 mr 0 ctx 0 srq 2`
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
#include "rocekit/parse/ibv_devinfo.hpp"

namespace rk::parse {

/// One `link <dev>/<port> ...` line.
struct RdmaLinkPort {
  std::string rdma_device;
  std::uint32_t port = 0;
  std::optional<PortState> state;                 ///< `state ACTIVE`
  std::optional<PhysState> physical_state;        ///< `physical_state LINK_UP`
  std::optional<std::string> netdev;              ///< `netdev ens6` (Ethernet/RoCE ports only)
  std::optional<std::uint32_t> netdev_index;      ///< `netdev_index N` (-d)
  std::optional<std::uint32_t> lid;               ///< `lid N` (IB ports)
  std::optional<std::uint32_t> sm_lid;            ///< `sm_lid N` (IB ports)
  std::optional<std::uint32_t> lmc;               ///< `lmc N` (IB ports)
  std::optional<std::string> subnet_prefix;       ///< `subnet_prefix fe80:...` (IB ports)
  std::map<std::string, std::string> attributes;  ///< any other key/value pair (`caps <...>`)
};

struct RdmaLink {
  std::vector<RdmaLinkPort> ports;
};

Result<Parsed<RdmaLink>> parse_rdma_link(std::string_view text);
nlohmann::json to_json(const RdmaLink& v);
bool looks_like_rdma_link(std::string_view text);

/// One `rdma res` summary line: resource object counts of one RDMA device.
struct RdmaResDevice {
  std::optional<std::uint32_t> index;  ///< kernel device index (`0:`)
  std::string rdma_device;
  std::map<std::string, std::uint64_t> counts;  ///< `pd`, `cq`, `qp`, `cm_id`, `mr`, `ctx`, `srq`
};

struct RdmaRes {
  std::vector<RdmaResDevice> devices;
};

Result<Parsed<RdmaRes>> parse_rdma_res(std::string_view text);
nlohmann::json to_json(const RdmaRes& v);
bool looks_like_rdma_res(std::string_view text);

}  // namespace rk::parse

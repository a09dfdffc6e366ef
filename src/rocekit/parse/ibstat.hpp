// Parser for infiniband-diags `ibstat [dev]`: `CA 'mlx5_0'` blocks with CA attributes and
// `Port N:` sub-blocks (State, Physical state, Rate, Base lid, LMC, SM lid, Capability mask,
// Port GUID, Link layer).
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

struct IbstatPort {
  std::uint32_t port = 0;
  std::optional<PortState> state;           ///< `State: Active`
  std::optional<PhysState> physical_state;  ///< `Physical state: LinkUp`
  std::optional<double> rate_gbps;          ///< `Rate: 25` (Gb/s, whole link)
  std::optional<std::uint32_t> base_lid;
  std::optional<std::uint32_t> lmc;
  std::optional<std::uint32_t> sm_lid;
  std::optional<std::uint32_t> capability_mask;   ///< `Capability mask: 0x04010000` (hex)
  std::optional<std::string> port_guid;           ///< as printed, `0x000000fffe000a01`
  std::optional<LinkLayer> link_layer;            ///< `Link layer: Ethernet`
  std::map<std::string, std::string> attributes;  ///< other `Key: value` lines
};

struct IbstatCa {
  std::string ca_name;                 ///< RDMA device name from `CA 'mlx5_0'`
  std::optional<std::string> ca_type;  ///< `CA type: MT4117` (PCI device id, decimal)
  std::optional<std::uint32_t> number_of_ports;
  std::optional<std::string> firmware_version;
  std::optional<std::string> hardware_version;
  std::optional<std::string> node_guid;
  std::optional<std::string> system_image_guid;
  std::vector<IbstatPort> ports;
  std::map<std::string, std::string> attributes;  ///< other CA-level `Key: value` lines
};

struct Ibstat {
  std::vector<IbstatCa> cas;
};

Result<Parsed<Ibstat>> parse_ibstat(std::string_view text);
nlohmann::json to_json(const Ibstat& v);
/// True when a `CA '<name>'` line is followed by `CA type:` or `Number of ports:`.
bool looks_like_ibstat(std::string_view text);

}  // namespace rk::parse

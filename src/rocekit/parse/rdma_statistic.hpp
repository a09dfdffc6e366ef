// Parser for iproute2 `rdma statistic [show] [link <dev>/<port>]`: one line per port,
// `link mlx5_0/1 rx_write_requests 0 rx_read_requests 0 ... out_of_buffer 135 ...`, the same
// counters as /sys/class/infiniband/<dev>/ports/<port>/hw_counters/.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct RdmaStatisticPort {
  std::string rdma_device;
  std::uint32_t port = 0;
  std::map<std::string, std::uint64_t> counters;  ///< name -> cumulative count since reset
  std::map<std::string, std::string> attributes;  ///< non-numeric pairs (`qp-type RC`, `comm x`)
};

struct RdmaStatistic {
  std::vector<RdmaStatisticPort> ports;
};

Result<Parsed<RdmaStatistic>> parse_rdma_statistic(std::string_view text);
nlohmann::json to_json(const RdmaStatistic& v);
/// True for `link <dev>/<port> <name> <number> ...` lines.
bool looks_like_rdma_statistic(std::string_view text);

}  // namespace rk::parse

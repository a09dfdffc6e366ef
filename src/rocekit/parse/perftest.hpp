// Parser for perftest client/server output (ib_write_bw, ib_read_bw, ib_send_bw, *_lat), tool id
// "perftest". Reads the parameter header between the dashed rules
//   ---------------------------------------------------------------------------------------
//                       RDMA_Write BW Test
//    Dual-port       : OFF          Device         : mlx5_1
//    Mtu             : 1024[B]
//    ...
//   ---------------------------------------------------------------------------------------
// (two "Key : value" pairs per line, separated by tabs), the tool messages printed before it
// ("Requested mtu is higher than active mtu"), the local/remote address lines and the results
// table ("#bytes #iterations BW peak[MB/sec] BW average[MB/sec] MsgRate[Mpps]").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct PerftestField {
  std::string key;
  std::string value;
};

/// One row of the BW results table.
struct PerftestResult {
  std::uint64_t bytes = 0;
  std::uint64_t iterations = 0;
  std::optional<double> bw_peak_mb_per_sec;
  std::optional<double> bw_average_mb_per_sec;
  std::optional<double> msg_rate_mpps;
};

struct Perftest {
  std::optional<std::string> test_name;         ///< "RDMA_Write BW Test"
  std::optional<std::string> rdma_device;       ///< "Device"
  std::optional<std::string> link_type;         ///< "Link type" (Ethernet = RoCE, IB)
  std::optional<std::uint32_t> mtu_bytes;       ///< "Mtu" (the active RoCE MTU used)
  std::optional<std::uint32_t> gid_index;       ///< "GID index"
  std::optional<std::uint32_t> tos;             ///< "TOS" (IP ToS byte, rdma_cm only)
  std::optional<std::string> transport_type;    ///< "Transport type"
  std::optional<std::string> connection_type;   ///< "Connection type" (RC, UC, UD)
  std::optional<std::uint32_t> number_of_qps;   ///< "Number of qps"
  std::optional<bool> rdma_cm_qps;              ///< "rdma_cm QPs" ON/OFF
  std::optional<std::string> data_exchange_method;  ///< "Data ex. method"
  /// "Requested mtu is higher than active mtu": the -m MTU was lowered to the port's active MTU.
  bool mtu_fallback = false;
  std::vector<PerftestField> header;            ///< every header pair as printed
  std::vector<std::string> messages;            ///< lines printed before the header
  std::vector<std::string> local_gids;          ///< "GID:" lines after "local address:"
  std::vector<std::string> remote_gids;         ///< "GID:" lines after "remote address:"
  std::vector<PerftestResult> results;
};

/// Errors when no perftest header is present. Warns "truncated" when the output ends before the
/// results table.
Result<Parsed<Perftest>> parse_perftest(std::string_view text);
nlohmann::json to_json(const Perftest& v);
bool looks_like_perftest(std::string_view text);

}  // namespace rk::parse

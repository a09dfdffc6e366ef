// Parser for `ethtool -g <netdev>` (tool id `ethtool_g`): RX/TX ring sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// One block of `ethtool -g` (`Pre-set maximums:` or `Current hardware settings:`). Sizes are in
/// descriptors (ring entries). nullopt when the line is absent or reads `n/a`.
struct RingSizes {
  std::optional<std::uint32_t> rx;        ///< `RX:`
  std::optional<std::uint32_t> rx_mini;   ///< `RX Mini:`
  std::optional<std::uint32_t> rx_jumbo;  ///< `RX Jumbo:`
  std::optional<std::uint32_t> tx;        ///< `TX:`
  std::optional<std::uint32_t> tx_push_buf_len_bytes;  ///< `TX push buff len:` (ethtool >= 6.4)
};

/// `ethtool -g` output, ioctl and netlink dialects. The netlink dialect adds, after the current
/// sizes, `RX Buf Len`, `CQE Size`, `TX Push`, `RX Push` and `TCP data split`.
struct EthtoolRing {
  std::optional<std::string> netdev;  ///< from `Ring parameters for <netdev>:`
  RingSizes max;                      ///< `Pre-set maximums:`
  RingSizes current;                  ///< `Current hardware settings:`
  std::optional<std::uint32_t> rx_buf_len_bytes;  ///< `RX Buf Len:`
  std::optional<std::uint32_t> cqe_size_bytes;    ///< `CQE Size:`
  std::optional<bool> tx_push;                    ///< `TX Push: on|off`
  std::optional<bool> rx_push;                    ///< `RX Push: on|off`
  std::optional<bool> tcp_data_split;             ///< `TCP data split: on|off` (n/a -> nullopt)
};

/// Parses `ethtool -g` text; warns `truncated` when the current block ends before `TX:`.
Result<Parsed<EthtoolRing>> parse_ethtool_ring(std::string_view text);

/// `{"netdev", "max": {...}, "current": {...}, "rx_buf_len_bytes", "cqe_size_bytes", "tx_push",
/// "rx_push", "tcp_data_split"}`, nullopt as null.
nlohmann::json to_json(const EthtoolRing& v);

/// True when the text has a `Ring parameters for` line near the top.
bool looks_like_ethtool_ring(std::string_view text);

}  // namespace rk::parse

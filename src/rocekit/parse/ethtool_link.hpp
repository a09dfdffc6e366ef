// Parser for `ethtool <netdev>` (tool id `ethtool`): link settings and link state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// `Duplex:` value.
enum class Duplex { half, full, unknown };

std::string_view to_string(Duplex d);

/// `ethtool <netdev>` output (ioctl and netlink dialects). Link-mode lists are optional vectors:
/// nullopt when the line is absent, empty when it reads `Not reported`. Multi-line lists (modes
/// continued on following indented lines) are joined.
struct EthtoolLink {
  std::optional<std::string> netdev;  ///< from `Settings for <netdev>:`
  std::optional<std::vector<std::string>> supported_ports;  ///< `Supported ports: [ FIBRE ]`
  std::optional<std::vector<std::string>> supported_link_modes;  ///< e.g. `25000baseCR/Full`
  std::optional<std::string> supported_pause_frame_use;  ///< `No`, `Symmetric`, `Receive-only`..
  std::optional<bool> supports_autoneg;                   ///< `Supports auto-negotiation: Yes|No`
  std::optional<std::vector<std::string>> supported_fec_modes;  ///< `None RS BASER`
  std::optional<std::vector<std::string>> advertised_link_modes;
  std::optional<std::string> advertised_pause_frame_use;
  std::optional<bool> advertised_autoneg;  ///< `Advertised auto-negotiation: Yes|No`
  std::optional<std::vector<std::string>> advertised_fec_modes;
  std::optional<std::vector<std::string>> partner_link_modes;  ///< `Link partner advertised ...`
  std::optional<std::string> partner_pause_frame_use;
  std::optional<bool> partner_autoneg;
  std::optional<std::vector<std::string>> partner_fec_modes;
  /// `Speed: 25000Mb/s` -> 25000; nullopt when absent or `Unknown!` (link down).
  std::optional<std::uint32_t> speed_mbps;
  std::optional<std::uint32_t> lanes;  ///< `Lanes:` (netlink, kernel >= 5.10)
  std::optional<Duplex> duplex;        ///< `Duplex: Full|Half|Unknown! (255)`
  std::optional<bool> autoneg;         ///< `Auto-negotiation: on|off`
  std::optional<std::string> port;  ///< `Port:` e.g. `Direct Attach Copper`, `FIBRE`, `Other`
  std::optional<std::uint32_t> phyad;       ///< `PHYAD:`
  std::optional<std::string> transceiver;   ///< `Transceiver: internal|external`
  std::optional<bool> link_detected;        ///< `Link detected: yes|no`
  /// The reason in parentheses after `Link detected: no`, e.g. `No cable` (netlink link ext
  /// state), nullopt when not printed.
  std::optional<std::string> link_down_reason;
  /// Every other `Key: value` line (Wake-on, MDI-X, Current message level, SQI, ...), in order,
  /// with continuation lines joined by a space.
  std::vector<std::pair<std::string, std::string>> other;
};

/// Parses `ethtool <netdev>` text; warns `truncated` when `Link detected:` is missing, and
/// `tool_error` for lines such as `Cannot get wake-on-lan settings: Operation not permitted`.
Result<Parsed<EthtoolLink>> parse_ethtool_link(std::string_view text);

/// Every field under the names above; nullopt as null; `other` as an array of [key, value].
nlohmann::json to_json(const EthtoolLink& v);

/// True when the text has a `Settings for` line near the top.
bool looks_like_ethtool_link(std::string_view text);

}  // namespace rk::parse

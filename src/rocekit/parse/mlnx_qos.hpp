// Parser for `mlnx_qos -i <netdev>` (Mellanox/mlnx-tools python/mlnx_qos), tool id "mlnx_qos".
//
// The output is the tool's `pretty_print` state dump, also printed after `--trust`, `--pfc`, etc.:
//
//   DCBX mode: OS controlled
//   Priority trust state: dscp
//   dscp2prio mapping:                       (only when trust is dscp)
//           prio:0 dscp:07,06,05,04,03,02,01,00,
//           ...                              (a long list continues on an indented line)
//   Receive buffer size (bytes): 80256,...,max_buffer_size=N   (newer versions only)
//   Cable len: 7
//   PFC configuration:
//           priority    0   1   2   3   4   5   6   7
//           enabled     0   0   0   1   0   0   0   0
//           buffer      0   2   5   7   1   2   3   6      (newer versions only)
//   tc: 0 ratelimit: unlimited, tsa: vendor[, bw: N%]
//            priority:  1
//
// The output does not name its netdev; the caller knows it from the `-i` argument.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// "Priority trust state:" - which packet field selects the priority on receive.
enum class QosTrust { pcp, dscp };
std::string_view to_string(QosTrust v);

/// "DCBX mode:" - "OS controlled" or "Firmware controlled".
enum class DcbxMode { os_controlled, firmware_controlled };
std::string_view to_string(DcbxMode v);

/// Transmission selection algorithm of a traffic class ("tsa:" on a `tc:` line).
enum class Tsa { strict, ets, vendor };
std::string_view to_string(Tsa v);

/// One `tc: N ...` block: a traffic class and the priorities mapped to it.
struct MlnxQosTrafficClass {
  std::uint32_t tc = 0;                        ///< traffic class number
  bool ratelimit_unlimited = false;            ///< "ratelimit: unlimited"
  std::optional<double> ratelimit_gbps;        ///< "ratelimit: 10.0 Gbps" (nullopt if unlimited)
  std::optional<Tsa> tsa;                      ///< nullopt when missing or not a known word
  std::optional<std::string> tsa_text;         ///< the tsa word as printed
  std::optional<std::uint32_t> bandwidth_percent;  ///< ", bw: N%" (ETS bandwidth share)
  std::vector<std::uint32_t> priorities;       ///< from the following "priority:" line(s)
};

/// State of one netdev as printed by mlnx_qos. Every field is nullopt/empty when the output does
/// not show it (older versions, trust pcp, or a truncated capture).
struct MlnxQos {
  std::optional<DcbxMode> dcbx_mode;           ///< "DCBX mode:"
  std::optional<std::string> dcbx_mode_text;   ///< the DCBX mode as printed
  std::optional<QosTrust> trust;               ///< "Priority trust state:"
  std::optional<std::uint32_t> default_priority;  ///< "default priority:" (some versions)
  /// True when a "dscp2prio mapping:" block was printed (mlnx_qos prints it only for trust dscp).
  bool dscp2prio_shown = false;
  /// DSCP (0..63) -> priority (0..7), from the "prio:P dscp:a,b,..." rows (continuation lines
  /// included). Empty when no dscp2prio block was printed.
  std::map<std::uint32_t, std::uint32_t> dscp_to_priority;
  /// "Receive buffer size (bytes):" per receive buffer 0..7, in bytes.
  std::optional<std::vector<std::uint64_t>> receive_buffer_size_bytes;
  /// ",max_buffer_size=N" at the end of the receive buffer line, in bytes.
  std::optional<std::uint64_t> max_buffer_size_bytes;
  std::optional<std::uint32_t> cable_length_m;  ///< "Cable len:" in metres
  /// PFC "enabled" row, indexed by priority 0..7. nullopt when the row was not printed (for
  /// example a capture cut before "PFC configuration:"); never defaulted to "off".
  std::optional<std::array<bool, 8>> pfc_enabled;
  /// PFC "buffer" row: receive buffer index per priority 0..7 (newer versions only).
  std::optional<std::array<std::uint32_t, 8>> priority_to_buffer;
  std::vector<MlnxQosTrafficClass> traffic_classes;  ///< in printed order
};

/// Priority the dscp2prio table maps `dscp` to; nullopt if the table does not show it.
std::optional<std::uint32_t> priority_for_dscp(const MlnxQos& qos, std::uint32_t dscp);

/// Parses the output of `mlnx_qos -i <netdev>`. Errors only when nothing is recognised.
/// Warnings: "truncated" (output ends before the PFC/tc part or inside a block),
/// "unrecognised_line", "bad_number".
Result<Parsed<MlnxQos>> parse_mlnx_qos(std::string_view text);

/// Full JSON form: dscp_to_priority is an object keyed by the DSCP as a decimal string.
nlohmann::json to_json(const MlnxQos& v);

/// True when the text has the "Priority trust state:" or "PFC configuration:"/"dscp2prio mapping:"
/// lines of mlnx_qos.
bool looks_like_mlnx_qos(std::string_view text);

}  // namespace rk::parse

#include "rocekit/parse/ethtool_coalesce.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

using U32Field = std::optional<std::uint32_t> EthtoolCoalesce::*;

struct U32Key {
  std::string_view key;   // as printed, without ':'
  std::string_view json;  // JSON / struct field name
  U32Field field;
};

constexpr std::array<U32Key, 23> k_u32_keys = {{
    {"stats-block-usecs", "stats_block_usecs", &EthtoolCoalesce::stats_block_usecs},
    {"sample-interval", "sample_interval_s", &EthtoolCoalesce::sample_interval_s},
    {"pkt-rate-low", "pkt_rate_low_pps", &EthtoolCoalesce::pkt_rate_low_pps},
    {"pkt-rate-high", "pkt_rate_high_pps", &EthtoolCoalesce::pkt_rate_high_pps},
    {"rx-usecs", "rx_usecs", &EthtoolCoalesce::rx_usecs},
    {"rx-frames", "rx_frames", &EthtoolCoalesce::rx_frames},
    {"rx-usecs-irq", "rx_usecs_irq", &EthtoolCoalesce::rx_usecs_irq},
    {"rx-frames-irq", "rx_frames_irq", &EthtoolCoalesce::rx_frames_irq},
    {"tx-usecs", "tx_usecs", &EthtoolCoalesce::tx_usecs},
    {"tx-frames", "tx_frames", &EthtoolCoalesce::tx_frames},
    {"tx-usecs-irq", "tx_usecs_irq", &EthtoolCoalesce::tx_usecs_irq},
    {"tx-frames-irq", "tx_frames_irq", &EthtoolCoalesce::tx_frames_irq},
    {"rx-usecs-low", "rx_usecs_low", &EthtoolCoalesce::rx_usecs_low},
    {"rx-frame-low", "rx_frames_low", &EthtoolCoalesce::rx_frames_low},
    {"tx-usecs-low", "tx_usecs_low", &EthtoolCoalesce::tx_usecs_low},
    {"tx-frame-low", "tx_frames_low", &EthtoolCoalesce::tx_frames_low},
    {"rx-usecs-high", "rx_usecs_high", &EthtoolCoalesce::rx_usecs_high},
    {"rx-frame-high", "rx_frames_high", &EthtoolCoalesce::rx_frames_high},
    {"tx-usecs-high", "tx_usecs_high", &EthtoolCoalesce::tx_usecs_high},
    {"tx-frame-high", "tx_frames_high", &EthtoolCoalesce::tx_frames_high},
    {"tx-aggr-max-bytes", "tx_aggr_max_bytes", &EthtoolCoalesce::tx_aggr_max_bytes},
    {"tx-aggr-max-frames", "tx_aggr_max_frames", &EthtoolCoalesce::tx_aggr_max_frames},
    {"tx-aggr-time-usecs", "tx_aggr_time_usecs", &EthtoolCoalesce::tx_aggr_time_usecs},
}};

constexpr std::string_view k_header = "Coalesce parameters for ";
constexpr std::string_view k_last_always_printed = "tx-frame-high";

enum class BoolValue { on, off, not_available, bad };

BoolValue parse_on_off(std::string_view v) {
  if (v == "on") return BoolValue::on;
  if (v == "off") return BoolValue::off;
  if (v == "n/a") return BoolValue::not_available;
  return BoolValue::bad;
}

// Parses "<A>: on  TX: off" where the line starts with `prefix` (e.g. "Adaptive RX:").
// Returns false when the line does not have that shape.
bool parse_rx_tx_line(std::string_view t, std::string_view prefix, std::optional<bool>& rx,
                      std::optional<bool>& tx) {
  if (!t.starts_with(prefix)) return false;
  std::vector<std::string_view> w = text::words(t.substr(prefix.size()));
  if (w.size() != 3 || w[1] != "TX:") return false;
  BoolValue r = parse_on_off(w[0]);
  BoolValue x = parse_on_off(w[2]);
  if (r == BoolValue::bad || x == BoolValue::bad) return false;
  rx = r == BoolValue::not_available ? std::nullopt : std::optional<bool>(r == BoolValue::on);
  tx = x == BoolValue::not_available ? std::nullopt : std::optional<bool>(x == BoolValue::on);
  return true;
}

}  // namespace

Result<Parsed<EthtoolCoalesce>> parse_ethtool_coalesce(std::string_view text) {
  Parsed<EthtoolCoalesce> out;
  EthtoolCoalesce& v = out.value;
  std::vector<std::string_view> lines = text::lines(text);
  bool recognised = false;
  bool saw_last = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = text::trim(lines[i]);
    std::size_t line_no = i + 1;
    if (t.empty()) continue;
    if (t.starts_with(k_header) && t.ends_with(":") && t.size() > k_header.size() + 1) {
      v.netdev = std::string(t.substr(k_header.size(), t.size() - k_header.size() - 1));
      recognised = true;
      continue;
    }
    if (parse_rx_tx_line(t, "Adaptive RX:", v.adaptive_rx, v.adaptive_tx) ||
        parse_rx_tx_line(t, "CQE mode RX:", v.cqe_mode_rx, v.cqe_mode_tx)) {
      recognised = true;
      continue;
    }
    bool matched = false;
    for (const U32Key& k : k_u32_keys) {
      if (!t.starts_with(k.key)) continue;
      std::string_view rest = t.substr(k.key.size());
      // "tx-aggr-time-usecs" is printed without a colon by ethtool 6.x.
      if (!rest.empty() && rest.front() == ':') {
        rest.remove_prefix(1);
      } else if (rest.empty() || (rest.front() != ' ' && rest.front() != '\t')) {
        continue;
      }
      rest = text::trim(rest);
      matched = true;
      recognised = true;
      if (k.key == k_last_always_printed) saw_last = true;
      if (rest == "n/a") break;
      std::optional<std::uint64_t> n = text::parse_uint(rest);
      if (!n || *n > std::numeric_limits<std::uint32_t>::max()) {
        out.warnings.push_back(
            {line_no, "bad_number", std::string(k.key) + " is not a u32: " + std::string(rest)});
        break;
      }
      v.*k.field = static_cast<std::uint32_t>(*n);
      break;
    }
    if (matched) continue;
    out.warnings.push_back({line_no, "unrecognised_line", "not an ethtool -c line"});
  }
  if (!recognised) {
    return rk::unexpected(ErrorKind::malformed_input, "no ethtool -c fields found");
  }
  if (!saw_last) {
    out.warnings.push_back(
        {0, "truncated", "output ends before tx-frame-high; later fields are missing"});
  }
  return out;
}

nlohmann::json to_json(const EthtoolCoalesce& v) {
  nlohmann::json j = nlohmann::json::object();
  j["netdev"] = v.netdev;
  j["adaptive_rx"] = v.adaptive_rx;
  j["adaptive_tx"] = v.adaptive_tx;
  for (const U32Key& k : k_u32_keys) j[std::string(k.json)] = v.*k.field;
  j["cqe_mode_rx"] = v.cqe_mode_rx;
  j["cqe_mode_tx"] = v.cqe_mode_tx;
  return j;
}

bool looks_like_ethtool_coalesce(std::string_view text) {
  std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 512));
  return text::contains(head, k_header) || text::contains(head, "Adaptive RX:");
}

}  // namespace rk::parse

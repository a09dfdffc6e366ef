#include "rocekit/parse/ethtool_pause.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {
constexpr std::string_view k_header = "Pause parameters for ";
}  // namespace

Result<Parsed<EthtoolPause>> parse_ethtool_pause(std::string_view text) {
  Parsed<EthtoolPause> out;
  EthtoolPause& v = out.value;
  std::vector<std::string_view> lines = text::lines(text);
  bool recognised = false;
  bool saw_rx = false;
  bool saw_tx = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = text::trim(lines[i]);
    std::size_t line_no = i + 1;
    if (t.empty() || t == "Statistics:") continue;
    if (t.starts_with(k_header) && t.ends_with(":") && t.size() > k_header.size() + 1) {
      v.netdev = std::string(t.substr(k_header.size(), t.size() - k_header.size() - 1));
      recognised = true;
      continue;
    }
    std::size_t colon = t.find(':');
    if (colon == std::string_view::npos) {
      out.warnings.push_back({line_no, "unrecognised_line", "not an ethtool -a line"});
      continue;
    }
    std::string_view key = t.substr(0, colon);
    std::string_view value = text::trim(t.substr(colon + 1));
    std::optional<bool>* flag = nullptr;
    std::optional<std::uint64_t>* count = nullptr;
    if (key == "Autonegotiate") flag = &v.autonegotiate;
    if (key == "RX") flag = &v.rx;
    if (key == "TX") flag = &v.tx;
    if (key == "RX negotiated") flag = &v.rx_negotiated;
    if (key == "TX negotiated") flag = &v.tx_negotiated;
    if (key == "tx_pause_frames") count = &v.tx_pause_frames;
    if (key == "rx_pause_frames") count = &v.rx_pause_frames;
    if (flag == nullptr && count == nullptr) {
      out.warnings.push_back({line_no, "unrecognised_line", "unknown ethtool -a key"});
      continue;
    }
    recognised = true;
    if (key == "RX") saw_rx = true;
    if (key == "TX") saw_tx = true;
    if (value == "n/a") continue;
    if (count != nullptr) {
      std::optional<std::uint64_t> n = text::parse_uint(value);
      if (n) {
        *count = *n;
      } else {
        out.warnings.push_back({line_no, "bad_number", std::string(key) + " is not a u64"});
      }
    } else if (value == "on" || value == "off") {
      *flag = value == "on";
    } else {
      out.warnings.push_back(
          {line_no, "bad_value", std::string(key) + " is not on/off: " + std::string(value)});
    }
  }
  if (!recognised) {
    return rk::unexpected(ErrorKind::malformed_input, "no ethtool -a fields found");
  }
  if (!saw_rx || !saw_tx) {
    out.warnings.push_back({0, "truncated", "output lacks the RX or TX pause line"});
  }
  return out;
}

nlohmann::json to_json(const EthtoolPause& v) {
  nlohmann::json j = nlohmann::json::object();
  j["netdev"] = v.netdev;
  j["autonegotiate"] = v.autonegotiate;
  j["rx"] = v.rx;
  j["tx"] = v.tx;
  j["rx_negotiated"] = v.rx_negotiated;
  j["tx_negotiated"] = v.tx_negotiated;
  j["tx_pause_frames"] = v.tx_pause_frames;
  j["rx_pause_frames"] = v.rx_pause_frames;
  return j;
}

bool looks_like_ethtool_pause(std::string_view text) {
  std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 512));
  return text::contains(head, k_header);
}

}  // namespace rk::parse

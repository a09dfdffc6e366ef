#include "rocekit/parse/ethtool_ring.hpp"

#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_header = "Ring parameters for ";

enum class Section { none, max, current };

nlohmann::json sizes_json(const RingSizes& s) {
  nlohmann::json j = nlohmann::json::object();
  j["rx"] = s.rx;
  j["rx_mini"] = s.rx_mini;
  j["rx_jumbo"] = s.rx_jumbo;
  j["tx"] = s.tx;
  j["tx_push_buf_len_bytes"] = s.tx_push_buf_len_bytes;
  return j;
}

}  // namespace

Result<Parsed<EthtoolRing>> parse_ethtool_ring(std::string_view text) {
  Parsed<EthtoolRing> out;
  EthtoolRing& v = out.value;
  std::vector<std::string_view> lines = text::lines(text);
  Section section = Section::none;
  bool recognised = false;
  bool saw_current_tx = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = text::trim(lines[i]);
    std::size_t line_no = i + 1;
    if (t.empty()) continue;
    if (t.starts_with(k_header) && t.ends_with(":") && t.size() > k_header.size() + 1) {
      v.netdev = std::string(t.substr(k_header.size(), t.size() - k_header.size() - 1));
      recognised = true;
      continue;
    }
    if (t == "Pre-set maximums:") {
      section = Section::max;
      recognised = true;
      continue;
    }
    if (t == "Current hardware settings:") {
      section = Section::current;
      recognised = true;
      continue;
    }
    std::size_t colon = t.find(':');
    if (colon == std::string_view::npos || section == Section::none) {
      out.warnings.push_back({line_no, "unrecognised_line", "not an ethtool -g line"});
      continue;
    }
    std::string_view key = t.substr(0, colon);
    std::string_view value = text::trim(t.substr(colon + 1));
    RingSizes& sizes = section == Section::max ? v.max : v.current;
    std::optional<std::uint32_t>* num = nullptr;
    std::optional<bool>* flag = nullptr;
    if (key == "RX") num = &sizes.rx;
    if (key == "RX Mini") num = &sizes.rx_mini;
    if (key == "RX Jumbo") num = &sizes.rx_jumbo;
    if (key == "TX") num = &sizes.tx;
    if (key == "TX push buff len") num = &sizes.tx_push_buf_len_bytes;
    if (key == "RX Buf Len") num = &v.rx_buf_len_bytes;
    if (key == "CQE Size") num = &v.cqe_size_bytes;
    if (key == "TX Push") flag = &v.tx_push;
    if (key == "RX Push") flag = &v.rx_push;
    if (key == "TCP data split") flag = &v.tcp_data_split;
    if (num == nullptr && flag == nullptr) {
      out.warnings.push_back({line_no, "unrecognised_line", "unknown ring parameter"});
      continue;
    }
    recognised = true;
    if (section == Section::current && key == "TX") saw_current_tx = true;
    if (value == "n/a") continue;
    if (flag != nullptr) {
      if (value == "on" || value == "off") {
        *flag = value == "on";
      } else {
        out.warnings.push_back(
            {line_no, "bad_value", std::string(key) + " is not on/off: " + std::string(value)});
      }
      continue;
    }
    std::optional<std::uint64_t> n = text::parse_uint(value);
    if (!n || *n > std::numeric_limits<std::uint32_t>::max()) {
      out.warnings.push_back({line_no, "bad_number", std::string(key) + " is not a size"});
      continue;
    }
    *num = static_cast<std::uint32_t>(*n);
  }
  if (!recognised) {
    return rk::unexpected(ErrorKind::malformed_input, "no ethtool -g fields found");
  }
  if (!saw_current_tx) {
    out.warnings.push_back(
        {0, "truncated", "output ends before the current TX ring size"});
  }
  return out;
}

nlohmann::json to_json(const EthtoolRing& v) {
  nlohmann::json j = nlohmann::json::object();
  j["netdev"] = v.netdev;
  j["max"] = sizes_json(v.max);
  j["current"] = sizes_json(v.current);
  j["rx_buf_len_bytes"] = v.rx_buf_len_bytes;
  j["cqe_size_bytes"] = v.cqe_size_bytes;
  j["tx_push"] = v.tx_push;
  j["rx_push"] = v.rx_push;
  j["tcp_data_split"] = v.tcp_data_split;
  return j;
}

bool looks_like_ethtool_ring(std::string_view text) {
  std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 512));
  return text::contains(head, k_header);
}

}  // namespace rk::parse

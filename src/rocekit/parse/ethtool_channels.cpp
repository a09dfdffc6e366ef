#include "rocekit/parse/ethtool_channels.hpp"

#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_header = "Channel parameters for ";

enum class Section { none, max, current };

nlohmann::json counts_json(const ChannelCounts& c) {
  nlohmann::json j = nlohmann::json::object();
  j["rx"] = c.rx;
  j["tx"] = c.tx;
  j["other"] = c.other;
  j["combined"] = c.combined;
  return j;
}

}  // namespace

Result<Parsed<EthtoolChannels>> parse_ethtool_channels(std::string_view text) {
  Parsed<EthtoolChannels> out;
  std::vector<std::string_view> lines = text::lines(text);
  Section section = Section::none;
  bool recognised = false;
  bool saw_current = false;
  bool saw_current_combined = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = text::trim(lines[i]);
    std::size_t line_no = i + 1;
    if (t.empty()) continue;
    if (t.starts_with(k_header) && t.ends_with(":") && t.size() > k_header.size() + 1) {
      out.value.netdev = std::string(t.substr(k_header.size(), t.size() - k_header.size() - 1));
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
      saw_current = true;
      recognised = true;
      continue;
    }
    std::size_t colon = t.find(':');
    if (colon == std::string_view::npos || section == Section::none) {
      out.warnings.push_back({line_no, "unrecognised_line", "not an ethtool -l line"});
      continue;
    }
    std::string_view key = t.substr(0, colon);
    std::string_view value = text::trim(t.substr(colon + 1));
    ChannelCounts& counts = section == Section::max ? out.value.max : out.value.current;
    std::optional<std::uint32_t>* field = nullptr;
    if (key == "RX") field = &counts.rx;
    if (key == "TX") field = &counts.tx;
    if (key == "Other") field = &counts.other;
    if (key == "Combined") field = &counts.combined;
    if (field == nullptr) {
      out.warnings.push_back({line_no, "unrecognised_line", "unknown channel kind"});
      continue;
    }
    recognised = true;
    if (section == Section::current && key == "Combined") saw_current_combined = true;
    if (value == "n/a") continue;
    std::optional<std::uint64_t> n = text::parse_uint(value);
    if (!n || *n > std::numeric_limits<std::uint32_t>::max()) {
      out.warnings.push_back({line_no, "bad_number", std::string(key) + " is not a count"});
      continue;
    }
    *field = static_cast<std::uint32_t>(*n);
  }
  if (!recognised) {
    return rk::unexpected(ErrorKind::malformed_input, "no ethtool -l fields found");
  }
  if (!saw_current) {
    out.warnings.push_back({0, "truncated", "no Current hardware settings block"});
  } else if (!saw_current_combined) {
    out.warnings.push_back(
        {0, "truncated", "Current hardware settings block ends before Combined"});
  }
  return out;
}

nlohmann::json to_json(const EthtoolChannels& v) {
  nlohmann::json j = nlohmann::json::object();
  j["netdev"] = v.netdev;
  j["max"] = counts_json(v.max);
  j["current"] = counts_json(v.current);
  return j;
}

bool looks_like_ethtool_channels(std::string_view text) {
  std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 512));
  return text::contains(head, k_header);
}

}  // namespace rk::parse

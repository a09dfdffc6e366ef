#include "rocekit/parse/ethtool_stats.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_header = "NIC statistics:";
constexpr std::size_t k_sniff_lines = 8;

enum class LineKind { counter, bad_number, other };

struct CounterLine {
  LineKind kind = LineKind::other;
  EthtoolStat stat;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_sniff_name_char(char c) {
  return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '.' || c == '-';
}

// Parses "name: value" or "[N]: name: value" (already trimmed).
CounterLine parse_counter_line(std::string_view t) {
  CounterLine out;
  std::string_view rest = t;
  if (!rest.empty() && rest.front() == '[') {
    std::size_t close = rest.find(']');
    if (close == std::string_view::npos || close < 2) return out;
    std::optional<std::uint64_t> ring = text::parse_uint(rest.substr(1, close - 1));
    if (!ring || *ring > 0xffffffffULL) return out;
    rest.remove_prefix(close + 1);
    if (rest.empty() || rest.front() != ':') return out;
    rest.remove_prefix(1);
    out.stat.ring = static_cast<std::uint32_t>(*ring);
  }
  std::size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos) return out;
  std::string_view name = text::trim(rest.substr(0, colon));
  std::string_view value = text::trim(rest.substr(colon + 1));
  if (name.empty() || value.empty()) return out;
  std::optional<std::uint64_t> v = text::parse_uint(value);
  if (!v) {
    // A number that does not fit (negative, overflow) is still a counter line.
    std::string_view digits = value;
    if (digits.front() == '-') digits.remove_prefix(1);
    bool numeric = !digits.empty();
    for (char c : digits) numeric = numeric && is_digit(c);
    if (numeric) {
      out.kind = LineKind::bad_number;
      out.stat.name = std::string(name);
    }
    return out;
  }
  out.kind = LineKind::counter;
  out.stat.name = std::string(name);
  out.stat.value = *v;
  return out;
}

}  // namespace

Result<Parsed<EthtoolStats>> parse_ethtool_stats(std::string_view text) {
  Parsed<EthtoolStats> out;
  if (text::looks_binary(text)) {
    return rk::unexpected(ErrorKind::malformed_input, "binary data, not ethtool -S output");
  }
  std::vector<std::string_view> lines = text::lines(text);
  bool ends_with_newline = !text.empty() && text.back() == '\n';
  bool no_stats = false;
  std::size_t last_nonblank = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!text::trim(lines[i]).empty()) last_nonblank = i + 1;
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = text::trim(lines[i]);
    std::size_t line_no = i + 1;
    if (t.empty()) continue;
    if (t == k_header) {
      out.value.has_header = true;
      continue;
    }
    if (t == "no stats available") {
      no_stats = true;
      continue;
    }
    CounterLine c = parse_counter_line(t);
    if (c.kind == LineKind::counter) {
      out.value.counters.push_back(std::move(c.stat));
      continue;
    }
    if (c.kind == LineKind::bad_number) {
      out.warnings.push_back(
          {line_no, "bad_number", "counter " + c.stat.name + " has a value that is not a u64"});
      continue;
    }
    if (line_no == last_nonblank && !ends_with_newline) {
      out.warnings.push_back({line_no, "truncated", "last counter line is cut off"});
      continue;
    }
    out.warnings.push_back({line_no, "unrecognised_line", "not a `name: value` counter line"});
  }
  if (!out.value.has_header && out.value.counters.empty() && !no_stats) {
    return rk::unexpected(ErrorKind::malformed_input, "no ethtool -S counters found");
  }
  if (no_stats) {
    out.warnings.push_back({0, "no_stats", "driver reports no statistics"});
  } else if (out.value.counters.empty()) {
    out.warnings.push_back({0, "truncated", "no counters after the NIC statistics: header"});
  }
  return out;
}

std::optional<std::uint64_t> find_stat(const EthtoolStats& stats, std::string_view name) {
  for (const EthtoolStat& s : stats.counters) {
    if (!s.ring && s.name == name) return s.value;
  }
  return std::nullopt;
}

nlohmann::json to_json(const EthtoolStats& v) {
  nlohmann::json counters = nlohmann::json::array();
  for (const EthtoolStat& s : v.counters) {
    nlohmann::json c = nlohmann::json::object();
    c["name"] = s.name;
    if (s.ring) c["ring"] = *s.ring;
    c["value"] = s.value;
    counters.push_back(std::move(c));
  }
  return nlohmann::json{{"has_header", v.has_header}, {"counters", std::move(counters)}};
}

bool looks_like_ethtool_stats(std::string_view text) {
  std::size_t seen = 0;
  std::size_t start = 0;
  while (start < text.size() && seen < k_sniff_lines) {
    std::size_t nl = text.find('\n', start);
    std::string_view line = nl == std::string_view::npos ? text.substr(start)
                                                         : text.substr(start, nl - start);
    start = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view t = text::trim(line);
    if (t.empty()) continue;
    if (seen == 0 && t == k_header) return true;
    CounterLine c = parse_counter_line(t);
    if (c.kind != LineKind::counter) return false;
    for (char ch : c.stat.name) {
      if (!is_sniff_name_char(ch)) return false;
    }
    ++seen;
  }
  return seen > 0;
}

}  // namespace rk::parse

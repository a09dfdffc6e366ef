#include "rocekit/parse/show_counters.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

enum class Section { none, hw_counters, counters };

// `Port 1 hw counters:` -> (1, hw_counters).
bool parse_header(std::string_view t, std::uint32_t& port, Section& section) {
  std::vector<std::string_view> w = text::words(t);
  if (w.size() < 3 || w[0] != "Port" || !t.ends_with(':')) return false;
  std::optional<std::uint64_t> p = text::parse_uint(w[1]);
  if (!p || *p > 0xffffffffULL) return false;
  port = static_cast<std::uint32_t>(*p);
  if (w.size() == 4 && w[2] == "hw" && w[3] == "counters:") {
    section = Section::hw_counters;
    return true;
  }
  if (w.size() == 3 && w[2] == "counters:") {
    section = Section::counters;
    return true;
  }
  return false;
}

}  // namespace

Result<Parsed<ShowCounters>> parse_show_counters(std::string_view text) {
  if (text::looks_binary(text)) return unexpected(ErrorKind::malformed_input, "binary input");
  Parsed<ShowCounters> out;
  Section section = Section::none;
  std::size_t section_rows = 0;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t li = 0; li < ls.size(); ++li) {
    std::size_t line = li + 1;
    std::string_view t = text::trim(ls[li]);
    if (t.empty()) continue;
    std::uint32_t port = 0;
    Section s = Section::none;
    if (parse_header(t, port, s)) {
      if (out.value.ports.empty() || out.value.ports.back().port != port) {
        out.value.ports.push_back(ShowCountersPort{port, {}, {}});
      }
      section = s;
      section_rows = 0;
      continue;
    }
    std::size_t colon = t.find(':');
    if (colon == std::string_view::npos || section == Section::none) {
      out.warnings.push_back({line, "unrecognised_line", "not a 'name: value' counter line"});
      continue;
    }
    std::string name(text::trim(t.substr(0, colon)));
    std::string_view value = text::trim(t.substr(colon + 1));
    std::optional<std::uint64_t> n = text::parse_uint(value);
    if (!n) {
      if (value.empty() && li + 1 == ls.size()) {
        out.warnings.push_back({line, "truncated", "last counter '" + name + "' has no value"});
      } else {
        out.warnings.push_back({line, "bad_number", "bad value for counter '" + name + "'"});
      }
      continue;
    }
    ShowCountersPort& p = out.value.ports.back();
    (section == Section::hw_counters ? p.hw_counters : p.counters)[name] = *n;
    ++section_rows;
  }
  if (out.value.ports.empty()) {
    return unexpected(ErrorKind::malformed_input, "no 'Port N hw counters:' section found");
  }
  if (section_rows == 0) {
    out.warnings.push_back({ls.size(), "truncated", "last counter section is empty"});
  }
  return out;
}

nlohmann::json to_json(const ShowCounters& v) {
  nlohmann::json ports = nlohmann::json::array();
  for (const ShowCountersPort& p : v.ports) {
    ports.push_back({{"port", p.port}, {"hw_counters", p.hw_counters}, {"counters", p.counters}});
  }
  return {{"ports", ports}};
}

bool looks_like_show_counters(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::uint32_t port = 0;
    Section s = Section::none;
    if (parse_header(text::trim(l), port, s)) return true;
  }
  return false;
}

}  // namespace rk::parse

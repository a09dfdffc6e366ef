#include "rocekit/parse/lsmod.hpp"

#include <utility>

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

bool is_module_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::optional<LsmodModule> module_row(std::string_view t) {
  std::vector<std::string_view> w = text::words(t);
  if (w.size() < 3 || w.size() > 5 || !is_module_name(w[0])) return std::nullopt;
  auto size = text::parse_uint(w[1]);
  auto count = text::parse_uint(w[2]);
  if (!size || !count) return std::nullopt;
  LsmodModule m;
  m.name = std::string(w[0]);
  m.size_bytes = *size;
  m.use_count = *count;
  if (w.size() >= 4) {
    // "[permanent]" or "(F)"-style markers are not module names
    for (std::string_view u : text::split(w[3], ',')) {
      if (is_module_name(u)) m.used_by.emplace_back(u);
    }
  }
  return m;
}

}  // namespace

Result<Parsed<Lsmod>> parse_lsmod(std::string_view text) {
  Lsmod out;
  std::vector<Warning> warnings;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    std::vector<std::string_view> w = text::words(t);
    if (w.size() == 4 && w[0] == "Module" && w[1] == "Size") {
      out.header_shown = true;
      continue;
    }
    if (auto m = module_row(t)) {
      out.modules.push_back(std::move(*m));
      continue;
    }
    warnings.push_back(
        Warning{i + 1, "unrecognised_line", "unrecognised line: " + std::string(t.substr(0, 80))});
  }
  if (out.modules.empty() && !out.header_shown) {
    return rk::unexpected(ErrorKind::malformed_input, "no lsmod row recognised");
  }
  return Parsed<Lsmod>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const Lsmod& v) {
  nlohmann::json ms = nlohmann::json::array();
  for (const LsmodModule& m : v.modules) {
    ms.push_back({{"name", m.name},
                  {"size_bytes", m.size_bytes},
                  {"use_count", m.use_count},
                  {"used_by", m.used_by}});
  }
  return {{"header_shown", v.header_shown}, {"modules", ms}};
}

bool has_module(const Lsmod& v, std::string_view name) {
  for (const LsmodModule& m : v.modules) {
    if (m.name == name) return true;
  }
  return false;
}

bool looks_like_lsmod(std::string_view text) {
  std::string_view head = text.substr(0, 4096);
  if (text::starts_with(text::trim(head), "Module") && text::contains(head, "Used by")) return true;
  // every one of the first (up to 5) non-empty lines is a module row
  std::vector<std::string_view> ls = text::lines(head);
  std::size_t rows = 0;
  for (std::size_t i = 0; i < ls.size() && rows < 5; ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    if (i + 1 == ls.size() && head.size() < text.size()) break;  // possibly cut line
    if (!module_row(t)) return false;
    ++rows;
  }
  return rows > 0;
}

}  // namespace rk::parse

#include "rocekit/parse/persistence.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

/// The list a line of kind `kind` goes to; nullptr for an unknown kind.
std::vector<std::string>* list_for(PersistenceState& s, std::string_view kind) {
  if (kind == "unit") return &s.units;
  if (kind == "enabled") return &s.enabled_links;
  if (kind == "udev") return &s.udev_rules;
  if (kind == "other") return &s.other_scripts;
  return nullptr;
}

}  // namespace

Result<Parsed<PersistenceState>> parse_persistence(std::string_view text) {
  Parsed<PersistenceState> out;
  std::size_t n = 0;
  for (std::string_view line : text::split(text, '\n')) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::size_t sp = line.find(' ');
    std::string_view kind = line.substr(0, sp);
    std::string_view rest = sp == std::string_view::npos ? std::string_view() : line.substr(sp + 1);
    if (kind == "checked" && !rest.empty() && rest[0] == '/') continue;  // a directory searched
    std::vector<std::string>* list = list_for(out.value, kind);
    if (!list || rest.empty() || rest[0] != '/') {
      out.warnings.push_back({n, "unrecognised_line",
                              "expected '<checked|unit|enabled|udev|other> /path', got: " +
                                  std::string(line.substr(0, 120))});
      continue;
    }
    list->emplace_back(rest);
  }
  for (auto* v : {&out.value.units, &out.value.enabled_links, &out.value.udev_rules,
                  &out.value.other_scripts})
    std::sort(v->begin(), v->end());
  return out;
}

nlohmann::json to_json(const PersistenceState& v) {
  return nlohmann::json{{"units", v.units},
                        {"enabled_links", v.enabled_links},
                        {"udev_rules", v.udev_rules},
                        {"other_scripts", v.other_scripts}};
}

bool looks_like_persistence(std::string_view text) {
  bool any = false;
  for (std::string_view line : text::split(text, '\n')) {
    if (line.empty()) continue;
    if (!(line.starts_with("checked /") || line.starts_with("unit /") || line.starts_with("enabled /") || line.starts_with("udev /") ||
          line.starts_with("other /")))
      return false;
    any = true;
  }
  return any;
}

}  // namespace rk::parse

#include "rocekit/parse/sysfs_peermem.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

/// "<prefix>/sys/module/<m>/<attr>:<value>" -> {m, attr, value}.
struct ModuleAttr {
  std::string module;
  std::string attr;
  std::string value;
};

std::optional<ModuleAttr> module_attr(std::string_view t) {
  for (std::string_view m : {std::string_view("nvidia_peermem"), std::string_view("nv_peer_mem")}) {
    std::string dir = "/sys/module/" + std::string(m) + "/";
    std::size_t p = t.find(dir);
    if (p == std::string_view::npos) continue;
    std::string_view rest = t.substr(p + dir.size());
    std::size_t c = rest.find(':');
    if (c == std::string_view::npos || c == 0) return std::nullopt;
    return ModuleAttr{std::string(m), std::string(rest.substr(0, c)), std::string(text::trim(rest.substr(c + 1)))};
  }
  return std::nullopt;
}

/// A memory_peers entry: one word of letters, digits, '_' or '-'.
bool peer_name(std::string_view t) {
  if (t.empty() || t.size() > 64) return false;
  for (char c : t)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  return true;
}

}  // namespace

Result<Parsed<SysfsPeermem>> parse_sysfs_peermem(std::string_view text) {
  SysfsPeermem out;
  std::vector<Warning> warnings;
  std::vector<std::string_view> ls = text::lines(text);
  bool any = false;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    if (std::optional<ModuleAttr> a = module_attr(t)) {
      any = true;
      out.module = a->module;
      if (!out.module_line) out.module_line = i + 1;
      if (a->attr == "initstate") out.initstate = a->value;
      if (a->attr == "version") out.version = a->value;
      continue;
    }
    if (peer_name(t)) {
      any = true;
      out.memory_peers.emplace_back(t);
      if (!out.peer_line) out.peer_line = i + 1;
      continue;
    }
    warnings.push_back(Warning{i + 1, "unrecognised_line", "unrecognised line: " + std::string(t.substr(0, 80))});
  }
  if (!any)
    return rk::unexpected(ErrorKind::malformed_input,
                          "no /sys/kernel/mm/memory_peers name or /sys/module/nvidia_peermem attribute");
  return Parsed<SysfsPeermem>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const SysfsPeermem& v) {
  return {{"memory_peers", v.memory_peers}, {"module", v.module},          {"initstate", v.initstate},
          {"version", v.version},           {"module_line", v.module_line}, {"peer_line", v.peer_line}};
}

bool looks_like_sysfs_peermem(std::string_view text) {
  // A module attribute line, or a lone "nv_mem" (the only client rocekit knows by name).
  for (std::string_view l : text::lines(text)) {
    std::string_view t = text::trim(l);
    if (module_attr(t)) return true;
    if (t == "nv_mem") return true;
  }
  return false;
}

}  // namespace rk::parse

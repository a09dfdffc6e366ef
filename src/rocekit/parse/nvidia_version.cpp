#include "rocekit/parse/nvidia_version.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_nvrm = "NVRM version:";

/// "555.42.02", "535.104.05", "590.48.01": digits and at least one dot.
bool driver_version(std::string_view w) {
  if (w.empty() || w.front() == '.' || w.back() == '.' || w.find('.') == std::string_view::npos) return false;
  for (char c : w)
    if (!(c == '.' || (c >= '0' && c <= '9'))) return false;
  return true;
}

}  // namespace

Result<Parsed<NvidiaVersion>> parse_nvidia_version(std::string_view text) {
  Parsed<NvidiaVersion> out;
  NvidiaVersion& v = out.value;
  std::vector<std::string_view> ls = text::lines(text);
  bool seen = false;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    if (std::optional<PromptCommand> p = parse_prompt_line(t); p && p->tool == "nvidia_version") continue;
    if (t.starts_with(k_nvrm) && seen) {
      bool same = text::trim(t.substr(k_nvrm.size())) == v.banner;
      out.warnings.push_back({i + 1, same ? "duplicate_line" : "conflicting_line",
                              std::string(same ? "the same" : "a different") + " \"NVRM version:\" line again; line " +
                                  std::to_string(v.line) + " is used"});
      continue;
    }
    if (t.starts_with(k_nvrm) && !seen) {
      seen = true;
      v.line = i + 1;
      v.banner = std::string(text::trim(t.substr(k_nvrm.size())));
      std::vector<std::string_view> w = text::words(v.banner);
      bool after_module = false;
      for (std::size_t k = 0; k < w.size(); ++k) {
        if (w[k] == "Open" && k + 1 < w.size() && w[k + 1] == "Kernel") v.open_module = true;
        if (w[k] == "for" && k + 1 < w.size() && !v.arch) v.arch = std::string(w[k + 1]);
        if (w[k] == "Module") after_module = true;
        if (after_module && driver_version(w[k])) {
          v.version = std::string(w[k]);
          break;
        }
      }
      // Proprietary form: "NVIDIA UNIX x86_64 Kernel Module": the word before "Kernel".
      for (std::size_t k = 1; !v.arch && k + 1 < w.size(); ++k)
        if (w[k + 1] == "Kernel" && w[k] != "Open" && w[k - 1] == "UNIX") v.arch = std::string(w[k]);
      // A cut or garbled banner says nothing about the module type: an error, not "proprietary".
      if (!v.version || !text::contains(v.banner, "Kernel Module"))
        return rk::unexpected(ErrorKind::malformed_input,
                              "line " + std::to_string(i + 1) + ": \"NVRM version:\" without \"Kernel Module <version>\"");
      continue;
    }
    if (t.starts_with("GCC version:")) {
      v.gcc = std::string(text::trim(t.substr(12)));
      continue;
    }
    out.warnings.push_back({i + 1, "unrecognised_line", "unrecognised line: " + std::string(t.substr(0, 80))});
  }
  if (!seen) return rk::unexpected(ErrorKind::malformed_input, "no \"NVRM version:\" line (cat /proc/driver/nvidia/version)");
  return out;
}

nlohmann::json to_json(const NvidiaVersion& v) {
  return {{"banner", v.banner}, {"version", v.version}, {"open_module", v.open_module},
          {"arch", v.arch},     {"gcc", v.gcc},         {"line", v.line}};
}

bool looks_like_nvidia_version(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::string_view t = text::trim(l);
    if (t.empty()) continue;
    return t.starts_with(k_nvrm) && text::contains(t, "Kernel Module");
  }
  return false;
}

}  // namespace rk::parse

#include "rocekit/parse/ofed_info.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
namespace {

/// "MLNX_OFED_LINUX-23.10-1.1.9.0:" or "MLNX_OFED_LINUX-5.8-1.0.1.1 (OFED-5.8-1.0.1):".
std::optional<OfedInfo> release_line(std::string_view t) {
  std::string_view first = t.substr(0, t.find(' '));
  if (first.ends_with(':')) first.remove_suffix(1);
  // The version starts at the first "-<digit>" and holds only digits, '.' and '-'.
  std::size_t dash = std::string_view::npos;
  for (std::size_t i = 1; i + 1 < first.size(); ++i)
    if (first[i] == '-' && first[i + 1] >= '0' && first[i + 1] <= '9') {
      dash = i;
      break;
    }
  if (dash == std::string_view::npos) return std::nullopt;
  std::string_view prefix = first.substr(0, dash), version = first.substr(dash + 1);
  if (version.find_first_not_of("0123456789.-") != std::string_view::npos || version.find('.') == std::string_view::npos)
    return std::nullopt;
  if (prefix.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-") != std::string_view::npos)
    return std::nullopt;
  // Known names only: a bare "<word>-1.2" line is not an ofed_info output.
  if (prefix != "MLNX_OFED_LINUX" && prefix != "OFED-internal" && prefix != "MLNX_EN_LINUX" && prefix != "MLNX_EN" &&
      prefix != "OFED")
    return std::nullopt;
  // Whatever follows the name: nothing, or "(OFED-<base>):".
  std::string_view rest = text::trim(t.substr(first.size()));
  if (rest.starts_with(":")) rest.remove_prefix(1);
  rest = text::trim(rest);
  if (!rest.empty() && !(rest.front() == '(' && (rest.ends_with("):") || rest.ends_with(")")))) return std::nullopt;
  OfedInfo o;
  o.release = std::string(first);
  o.prefix = std::string(prefix);
  o.version = std::string(version);
  return o;
}

}  // namespace

Result<Parsed<OfedInfo>> parse_ofed_info(std::string_view text) {
  Parsed<OfedInfo> out;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    if (std::optional<PromptCommand> p = parse_prompt_line(t); p && p->tool == "ofed_info") continue;
    if (std::optional<OfedInfo> o = release_line(t)) {
      out.value = *o;
      out.value.line = i + 1;
      return out;
    }
    return rk::unexpected(ErrorKind::malformed_input,
                          "line " + std::to_string(i + 1) +
                              ": not an `ofed_info -s` release line (MLNX_OFED_LINUX-<version>: or OFED-internal-<version>:)");
  }
  return rk::unexpected(ErrorKind::malformed_input, "empty: no `ofed_info -s` output");
}

nlohmann::json to_json(const OfedInfo& v) {
  return {{"release", v.release}, {"prefix", v.prefix}, {"version", v.version}, {"line", v.line}};
}

bool looks_like_ofed_info(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::string_view t = text::trim(l);
    if (t.empty()) continue;
    if (std::optional<PromptCommand> p = parse_prompt_line(t); p && p->tool == "ofed_info") continue;
    return release_line(t).has_value();
  }
  return false;
}

}  // namespace rk::parse

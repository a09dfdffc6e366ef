#include "rocekit/parse/uname.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
std::optional<std::pair<int, int>> kernel_major_minor(std::string_view w) {
  std::size_t dot = w.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot > 2) return std::nullopt;
  std::size_t end = dot + 1;
  while (end < w.size() && w[end] >= '0' && w[end] <= '9') ++end;
  std::optional<std::uint64_t> a = text::parse_uint(w.substr(0, dot));
  std::optional<std::uint64_t> b = text::parse_uint(w.substr(dot + 1, end - dot - 1));
  if (!a || !b || *a > 99 || *b > 999) return std::nullopt;
  return std::pair<int, int>(static_cast<int>(*a), static_cast<int>(*b));
}

Result<Parsed<Uname>> parse_uname(std::string_view text) {
  Parsed<Uname> out;
  Uname& u = out.value;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    // A pasted prompt ("root@gpu01:~# uname -a") above the output.
    if (std::optional<PromptCommand> p = parse_prompt_line(t); p && p->tool == "uname") continue;
    if (u.line) {
      out.warnings.push_back({i + 1, "unrecognised_line", "more than one uname line"});
      continue;
    }
    std::vector<std::string_view> w = text::words(t);
    std::optional<std::pair<int, int>> mm;
    if (w.size() == 1 && (mm = kernel_major_minor(w[0]))) {
      u.release = std::string(w[0]);
    } else if (w.size() >= 3 && w[0] == "Linux" && (mm = kernel_major_minor(w[2]))) {
      u.nodename = std::string(w[1]);
      u.release = std::string(w[2]);
      // machine: the word after the version's year-ended timestamp is not marked; take the
      // first of the trailing words that names an architecture.
      for (std::size_t k = 3; k < w.size(); ++k)
        for (std::string_view arch : {"x86_64", "aarch64", "ppc64le", "s390x", "riscv64"})
          if (w[k] == arch && !u.machine) u.machine = std::string(arch);
    } else {
      return rk::unexpected(ErrorKind::malformed_input,
                            "line " + std::to_string(i + 1) + ": not a kernel release (`uname -r`) or a `uname -a` line");
    }
    u.major = mm->first;
    u.minor = mm->second;
    u.line = i + 1;
  }
  if (!u.line) return rk::unexpected(ErrorKind::malformed_input, "empty: no `uname -r` output");
  return out;
}

nlohmann::json to_json(const Uname& v) {
  return {{"release", v.release}, {"nodename", v.nodename}, {"machine", v.machine},
          {"major", v.major},     {"minor", v.minor},       {"line", v.line}};
}

bool looks_like_uname(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::string_view t = text::trim(l);
    if (t.empty()) continue;
    std::vector<std::string_view> w = text::words(t);
    return w.size() >= 3 && w[0] == "Linux" && kernel_major_minor(w[2]) && text::contains(t, " SMP ");
  }
  return false;
}

}  // namespace rk::parse

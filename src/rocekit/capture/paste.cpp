#include "rocekit/capture/paste.hpp"

#include <optional>

#include "rocekit/capture/tools.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::capture {

namespace {

bool fence(std::string_view t) { return t.starts_with("```") || t.starts_with("~~~"); }

}  // namespace

std::vector<PastePart> split_paste(std::string_view text) {
  // The body after the provenance header, the leading prompt line included.
  parse::CaptureText ct = parse::strip_capture_header(text);
  std::size_t body_first = ct.body_first_line - (ct.prompt_line.empty() ? 0 : 1);
  std::vector<std::string_view> ls = text::lines(text);
  std::vector<PastePart> parts;
  bool open = false;  // the last part still takes lines (no fence closed it)
  for (std::size_t i = body_first ? body_first - 1 : 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (fence(t)) {
      open = false;
      continue;
    }
    std::optional<parse::PromptCommand> p = parse::parse_prompt_line(t);
    if (p && find_tool(p->tool) != nullptr) {
      if (!parts.empty() && open && p->tool == "cma_roce_mode" && parts.back().tool == p->tool) {
        parts.back().last_line = i + 1;
        continue;
      }
      parts.push_back({i + 1, i + 1, p->tool, p->target});
      open = true;
      continue;
    }
    // Another command (`uptime`, `ssh gpu02 ...`): its output belongs to no part.
    if (parse::shell_prompt_line(t)) {
      open = false;
      continue;
    }
    if (open && !t.empty()) parts.back().last_line = i + 1;
  }
  // One command is a part too: its prompt names the tool and target, and the part ends at a
  // closing fence or the next prompt (a single pasted command inside ``` fences).
  return parts;
}

std::string paste_lines(std::string_view text, std::size_t first, std::size_t last) {
  std::vector<std::string_view> ls = text::lines(text);
  // The indentation every non-empty line shares (a paste indented as a block) is removed.
  std::optional<std::string_view> common;
  for (std::size_t n = first; n <= last && n >= 1 && n <= ls.size(); ++n) {
    std::string_view l = ls[n - 1];
    if (text::trim(l).empty()) continue;
    std::string_view lead = l.substr(0, l.find_first_not_of(" \t"));
    if (!common) common = lead;
    std::size_t k = 0;
    while (k < common->size() && k < lead.size() && (*common)[k] == lead[k]) ++k;
    common = common->substr(0, k);
  }
  std::string out;
  for (std::size_t n = first; n <= last && n >= 1 && n <= ls.size(); ++n) {
    std::string_view l = ls[n - 1];
    if (common && l.starts_with(*common)) l.remove_prefix(common->size());
    out.append(l);
    out.push_back('\n');
  }
  return out;
}

}  // namespace rk::capture

#include "rocekit/capture/paste.hpp"

#include "rocekit/capture/tools.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::capture {

namespace {

bool fence(std::string_view t) { return t.starts_with("```") || t.starts_with("~~~"); }

}  // namespace

std::vector<PastePart> split_paste(std::string_view text) {
  std::size_t body_first = parse::strip_capture_header(text).body_first_line;
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
    if (open && !t.empty()) parts.back().last_line = i + 1;
  }
  bool several = false;
  for (const PastePart& p : parts)
    several = several || p.tool != parts.front().tool || p.target != parts.front().target;
  if (!several) parts.clear();
  return parts;
}

std::string paste_lines(std::string_view text, std::size_t first, std::size_t last) {
  std::string out;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t n = first; n <= last && n >= 1 && n <= ls.size(); ++n) {
    out.append(ls[n - 1]);
    out.push_back('\n');
  }
  return out;
}

}  // namespace rk::capture

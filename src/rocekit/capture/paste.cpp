#include "rocekit/capture/paste.hpp"

#include <algorithm>
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
  // The fenced block being read: its first line inside the fence, and whether a prompt line
  // started a part in it. Blocks without one are identified by their content below.
  std::optional<std::size_t> block_first;
  bool block_prompted = false;
  std::vector<std::pair<std::size_t, std::size_t>> bare_blocks;
  for (std::size_t i = body_first ? body_first - 1 : 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (fence(t)) {
      open = false;
      if (!block_first) {
        block_first = i + 2;
        block_prompted = false;
      } else {
        if (!block_prompted && *block_first <= i) bare_blocks.emplace_back(*block_first, i);
        block_first.reset();
      }
      continue;
    }
    std::optional<parse::PromptCommand> p = parse::parse_prompt_line(t);
    if (p && find_tool(p->tool) != nullptr) {
      block_prompted = true;
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
      block_prompted = true;  // a block holding another command's output is not taken either
      continue;
    }
    if (open && !t.empty()) parts.back().last_line = i + 1;
  }
  // A fence left open at the end of the paste holds the rest of it.
  if (block_first && !block_prompted && *block_first <= ls.size()) bare_blocks.emplace_back(*block_first, ls.size());
  // One command is a part too: its prompt names the tool and target, and the part ends at a
  // closing fence or the next prompt (a single pasted command inside ``` fences). A fenced block
  // without a prompt is read like an unnamed file: by its content.
  bool added = false;
  for (const auto& block_lines : bare_blocks) {
    // Named copies, not a structured binding: clang 14 (the fuzz build) does not let a lambda
    // capture a structured binding.
    const std::size_t first = block_lines.first, last = block_lines.second;
    // A prompt with no output of its own right above the block ("$ ethtool -i eth4", then the
    // output in fences): the block is that command's output.
    auto prompt = std::find_if(parts.begin(), parts.end(), [&](const PastePart& p) {
      if (p.by_content || p.last_line != p.first_line || p.first_line + 1 >= first) return false;
      for (std::size_t n = p.first_line + 1; n + 1 < first; ++n)
        if (!text::trim(ls[n - 1]).empty()) return false;
      return true;
    });
    if (prompt != parts.end()) {
      prompt->first_line = first;
      prompt->last_line = last;
      continue;
    }
    std::string block = paste_lines(text, first, last);
    std::string_view body = parse::strip_capture_header(block).body;
    if (text::trim(body).empty()) continue;
    if (const Tool* t = identify(body)) {
      parts.push_back({first, last, std::string(t->id), "", true});
      added = true;
    }
  }
  if (added || !bare_blocks.empty())
    std::stable_sort(parts.begin(), parts.end(),
                     [](const PastePart& a, const PastePart& b) { return a.first_line < b.first_line; });
  return parts;
}

namespace {

/// A quoted line's text without its quote markers, at every level ("> > $ ethtool -i" -> "$
/// ethtool -i"); `l` itself when it is not quoted.
std::string_view strip_quote_markers(std::string_view l) {
  for (;;) {
    std::size_t gt = l.find_first_not_of(" \t");
    if (gt == std::string_view::npos || l[gt] != '>') return l;
    l.remove_prefix(gt + 1);
    if (l.starts_with(' ')) l.remove_prefix(1);
  }
}

bool is_quoted(std::string_view l) {
  std::string_view t = text::trim(l);
  return !t.empty() && t.front() == '>';
}

/// A quoted line that opens a fence or a command ("> ```", "> $ ethtool -i eth0"): the quote
/// carries command output, not prose or a tool's own ">" lines.
/// A line that opens a fence or is a prompt with a command, by the prompt rules split_paste uses.
bool opens_output(std::string_view t) {
  return fence(t) || parse::parse_prompt_line(t) || parse::shell_prompt_line(t);
}

bool quotes_a_command(std::string_view l) { return opens_output(text::trim(strip_quote_markers(l))); }

}  // namespace

std::optional<std::string> unquote(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<std::string_view> ls = text::lines(text);
  // Every non-empty line quoted (a reply pasted whole), or some quoted lines that carry a fence
  // or a command (a ticket whose reply quotes further outputs): the quoted lines lose their
  // markers, at every level, line for line; other lines stay as they are.
  bool any = false, all = true, command = false;
  for (std::string_view l : ls) {
    if (text::trim(l).empty()) continue;
    bool q = is_quoted(l);
    any = true;
    all = all && q;
    command = command || (q && quotes_a_command(l));
  }
  if (!any || (!all && !command)) return std::nullopt;
  std::string out;
  out.reserve(text.size());
  // In a ticket (not every line quoted), an unquoted line is an output only under an unquoted
  // prompt or inside an unquoted fence; other unquoted lines are the ticket's prose ("Thanks. Our
  // inventory says: driver: see CMDB") and become empty, so that no quoted output runs on into
  // them. Line numbers stay the file's.
  bool unquoted_part = false, in_fence = false;
  for (std::string_view l : ls) {
    std::string_view t = text::trim(l);
    if (is_quoted(l)) {
      // A blank line of the quote (">" alone) becomes empty; text::lines has dropped any CR.
      out.append(strip_quote_markers(l));
      unquoted_part = in_fence = false;
    } else if (all || t.empty()) {
      out.append(l);
    } else if (fence(t)) {
      in_fence = !in_fence;
      unquoted_part = in_fence;
      out.append(l);
    } else if (opens_output(t)) {
      unquoted_part = true;
      out.append(l);
    } else if (unquoted_part || in_fence) {
      out.append(l);
    }
    out.push_back('\n');
  }
  if (!text.ends_with('\n') && !out.empty()) out.pop_back();
  return out;
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

#include "rocekit/parse/common.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {

namespace {

// Moves a leading prompt line ("$ sudo mlnx_qos -i eth4") out of the body.
CaptureText split_prompt(CaptureText t) {
  std::size_t nl = t.body.find('\n');
  std::string_view first = t.body.substr(0, nl);
  if (!parse_prompt_line(first)) return t;
  // A transcript of several commands (cma_roce_mode, mlxconfig set) is the parser's to read.
  for (std::size_t pos = nl; pos != std::string_view::npos && pos + 1 < t.body.size();) {
    std::size_t next = t.body.find('\n', pos + 1);
    std::string_view line = t.body.substr(pos + 1, next == std::string_view::npos ? next : next - pos - 1);
    if (parse_prompt_line(line)) return t;
    pos = next;
  }
  t.prompt_line = first;
  if (!t.prompt_line.empty() && t.prompt_line.back() == '\r') t.prompt_line.remove_suffix(1);
  t.body = nl == std::string_view::npos ? std::string_view{} : t.body.substr(nl + 1);
  t.body_first_line += 1;
  return t;
}

}  // namespace

CaptureText strip_capture_header(std::string_view file_text) {
  // A UTF-8 byte-order mark (editors on Windows, some pastes) is not part of the first line.
  if (file_text.starts_with("\xEF\xBB\xBF")) file_text.remove_prefix(3);
  std::size_t pos = 0;
  std::size_t line_no = 0;
  while (pos < file_text.size()) {
    std::size_t nl = file_text.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? file_text.size() : nl;
    std::string_view line = file_text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_no;
    if (line == "# ---") {
      std::size_t body_start = nl == std::string_view::npos ? file_text.size() : nl + 1;
      return split_prompt(CaptureText{file_text.substr(0, body_start), file_text.substr(body_start),
                                      line_no + 1, {}});
    }
    if (!(line.starts_with("# ") || line == "#")) break;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return split_prompt(CaptureText{{}, file_text, 1, {}});
}

nlohmann::json warnings_to_json(const std::vector<Warning>& warnings) {
  nlohmann::json out = nlohmann::json::array();
  for (const Warning& w : warnings) {
    out.push_back({{"line", w.line}, {"code", w.code}, {"message", w.message}});
  }
  return out;
}

std::optional<std::string_view> devlink_answer(std::string_view line) {
  for (std::string_view p : {std::string_view("kernel answers:"), std::string_view("devlink answers:")})
    if (line.starts_with(p)) return text::trim(line.substr(p.size()));
  return std::nullopt;
}

}  // namespace rk::parse

#include "rocekit/parse/common.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"

namespace rk::parse {

CaptureText strip_capture_header(std::string_view file_text) {
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
      return CaptureText{file_text.substr(0, body_start), file_text.substr(body_start),
                         line_no + 1};
    }
    if (!(line.starts_with("# ") || line == "#")) break;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return CaptureText{{}, file_text, 1};
}

nlohmann::json warnings_to_json(const std::vector<Warning>& warnings) {
  nlohmann::json out = nlohmann::json::array();
  for (const Warning& w : warnings) {
    out.push_back({{"line", w.line}, {"code", w.code}, {"message", w.message}});
  }
  return out;
}

}  // namespace rk::parse

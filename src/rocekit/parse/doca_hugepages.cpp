#include "rocekit/parse/doca_hugepages.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_title = "Current Hugepages Configuration:";
constexpr std::string_view k_none = "No hugepages configuration found";

bool header_line(std::string_view t) { return t.starts_with("Application") && text::contains(t, "Page Size (kB)"); }
bool rule_line(std::string_view t) { return t.size() >= 10 && t.find_first_not_of('=') == std::string_view::npos; }

}  // namespace

Result<Parsed<DocaHugepages>> parse_doca_hugepages(std::string_view text) {
  Parsed<DocaHugepages> out;
  bool header = false, none = false, in_rows = false, done = false;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty() || t == k_title) continue;
    if (std::optional<PromptCommand> p = parse_prompt_line(t); p && p->tool == "doca_hugepages") continue;
    if (t.starts_with(k_none)) {
      none = true;
      continue;
    }
    if (header_line(t)) {
      header = true;
      continue;
    }
    if (rule_line(t)) {
      if (header && !in_rows && !done) in_rows = true;
      else if (in_rows) {
        in_rows = false;
        done = true;
      }
      continue;
    }
    if (in_rows) {
      std::vector<std::string_view> w = text::words(t);
      std::optional<std::uint64_t> pages = w.size() >= 4 ? text::parse_uint(w[w.size() - 3]) : std::nullopt;
      std::string_view size_word = w.size() >= 4 ? w[w.size() - 4] : std::string_view();
      std::optional<std::uint64_t> size = text::parse_uint(size_word);
      std::size_t name_end = size_word.empty() ? 0 : static_cast<std::size_t>(size_word.data() - t.data());
      // The name is printed `{app:<20}` with no separator: a name of 20 characters or more runs
      // into the page size ("doca_snap_virtio_blk2048"). Take the longest tail that is a page size
      // the kernel offers (KiB: 64 K, 2 M, 32 M, 512 M, 1 G, 16 G on arm64 and x86).
      if (!size && !size_word.empty()) {
        for (std::uint64_t kib : {16777216ull, 1048576ull, 524288ull, 32768ull, 2048ull, 64ull}) {
          std::string tail = std::to_string(kib);
          if (size_word.size() > tail.size() && size_word.ends_with(tail)) {
            size = kib;
            name_end += size_word.size() - tail.size();
            break;
          }
        }
      }
      if (!size || !pages || *size == 0 || name_end == 0) {
        out.warnings.push_back({i + 1, "bad_row", "not an application row: " + std::string(t.substr(0, 80))});
        continue;
      }
      // The name is everything before the page size (it may hold spaces).
      out.value.rows.push_back({std::string(text::trim(t.substr(0, name_end))), *size, *pages,
                                std::string(w.back()), i + 1});
      continue;
    }
    if (done && t.starts_with("Total")) continue;
    if (t.starts_with("Note:") || t.starts_with("To enable these configurations")) continue;
    out.warnings.push_back({i + 1, "unrecognised_line", "unrecognised line: " + std::string(t.substr(0, 80))});
  }
  if (!header && !none)
    return rk::unexpected(ErrorKind::malformed_input,
                          "no \"Application  Page Size (kB) ...\" table and no \"No hugepages configuration found\" line "
                          "(doca-hugepages show)");
  if (header && !done)
    out.warnings.push_back({0, "truncated", "the table has no closing \"====\" line: rows may be missing"});
  return out;
}

nlohmann::json to_json(const DocaHugepages& v) {
  nlohmann::json rows = nlohmann::json::array();
  for (const DocaHugepageRow& r : v.rows)
    rows.push_back({{"app", r.app}, {"page_kib", r.page_kib}, {"pages", r.pages}, {"state", r.state}, {"line", r.line}});
  return {{"rows", rows}};
}

bool looks_like_doca_hugepages(std::string_view text) {
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::string_view t = text::trim(l);
    if (t.empty()) continue;
    if (std::optional<PromptCommand> p = parse_prompt_line(t)) return p->tool == "doca_hugepages";
    return t == k_title || t.starts_with(k_none) || header_line(t);
  }
  return false;
}

}  // namespace rk::parse

#include "rocekit/switchcfg/common.hpp"

#include <algorithm>

#include "rocekit/core/text.hpp"

namespace rk::switchcfg::detail {

std::optional<std::string_view> strip_cli_prompt(std::string_view l) {
  std::size_t i = 0;
  auto host_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
  };
  while (i < l.size() && host_char(l[i])) ++i;
  if (i == 0 || i == l.size()) return std::nullopt;
  if (l[i] == '(') {
    const std::size_t close = l.find(')', i);
    if (close == std::string_view::npos || l.substr(i, close - i).find_first_of(" \t") != std::string_view::npos) return std::nullopt;
    i = close + 1;
  }
  if (i >= l.size() || l[i] != '#') return std::nullopt;
  return text::trim(l.substr(i + 1));
}

std::size_t json_key_line(std::string_view text, const std::vector<std::string>& keys) {
  std::size_t pos = 0;
  for (const std::string& key : keys) {
    const std::string quoted = "\"" + key + "\"";
    for (;;) {
      std::size_t hit = text.find(quoted, pos);
      if (hit == std::string_view::npos) return 0;
      std::size_t after = hit + quoted.size();
      while (after < text.size() && (text[after] == ' ' || text[after] == '\t' ||
                                     text[after] == '\r' || text[after] == '\n'))
        ++after;
      if (after < text.size() && text[after] == ':') {
        pos = after;
        break;
      }
      pos = hit + quoted.size();
    }
  }
  return static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n')) + 1;
}

JsonLineIndex::JsonLineIndex(std::string_view t) {
  struct Level {
    bool is_object;
    bool expect_key;
    std::string key;
  };
  std::vector<Level> stack;
  std::size_t line = 1;
  auto path = [&](const std::string& last) {
    std::string p;
    for (const Level& l : stack)
      if (l.is_object && &l != &stack.back()) p += l.key + '\x1f';
    return p + last;
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\n') {
      ++line;
    } else if (c == '{' || c == '[') {
      stack.push_back(Level{c == '{', c == '{', {}});
    } else if (c == '}' || c == ']') {
      if (!stack.empty()) stack.pop_back();
    } else if (c == ',') {
      if (!stack.empty() && stack.back().is_object) stack.back().expect_key = true;
    } else if (c == '"') {
      std::size_t start = i + 1, j = start;
      while (j < t.size() && t[j] != '"') {
        if (t[j] == '\\') ++j;
        else if (t[j] == '\n') ++line;
        ++j;
      }
      if (!stack.empty() && stack.back().is_object && stack.back().expect_key) {
        stack.back().key = std::string(t.substr(start, std::min(j, t.size()) - start));
        stack.back().expect_key = false;
        // Configs nest a handful of levels; deeper keys are never looked up (and recording
        // them would cost quadratic memory on adversarial input).
        if (stack.size() <= 16) m_lines.emplace(path(stack.back().key), line);
      }
      i = j;
    }
  }
}

std::size_t JsonLineIndex::line(const std::vector<std::string>& keys) const {
  std::string p;
  for (std::size_t i = 0; i < keys.size(); ++i) p += (i ? "\x1f" : "") + keys[i];
  auto it = m_lines.find(p);
  return it == m_lines.end() ? 0 : it->second;
}

std::optional<int> parse_small_int(std::string_view s, int lo, int hi) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

std::optional<std::vector<int>> parse_int_list(std::string_view s, int lo, int hi) {
  std::vector<int> out;
  s = text::trim(s);
  if (s.empty()) return out;
  for (std::string_view part : text::split(s, ',')) {
    part = text::trim(part);
    std::size_t dash = part.find('-');
    if (dash == std::string_view::npos) {
      std::optional<int> v = parse_small_int(part, lo, hi);
      if (!v) return std::nullopt;
      out.push_back(*v);
      continue;
    }
    std::optional<int> a = parse_small_int(text::trim(part.substr(0, dash)), lo, hi);
    std::optional<int> b = parse_small_int(text::trim(part.substr(dash + 1)), lo, hi);
    if (!a || !b || *a > *b) return std::nullopt;
    for (int v = *a; v <= *b; ++v) out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string int_list(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

std::string blank_comment_header(std::string_view in) {
  std::string text(in);
  std::size_t pos = text.find_first_not_of(" \t\r\n");
  while (pos != std::string::npos && text[pos] == '#') {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    for (std::size_t i = pos; i < nl; ++i) text[i] = ' ';
    pos = text.find_first_not_of(" \t\r\n", nl);
  }
  return text;
}

Unexpected<Error> malformed(const std::string& file, std::size_t line, std::string message) {
  return unexpected(ErrorKind::malformed_input, std::move(message),
                    line ? file + ":" + std::to_string(line) : file);
}

}  // namespace rk::switchcfg::detail

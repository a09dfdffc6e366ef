#include "rocekit/core/shell.hpp"

namespace rk::text {

std::string shell_quote(std::string_view word) {
  bool safe = !word.empty();
  for (char c : word) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '/' || c == ':' || c == '@' || c == '%' || c == '+' ||
              c == '=' || c == '-' || c == ',';
    if (!ok) safe = false;
  }
  if (safe) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += "'";
  return out;
}

}  // namespace rk::text

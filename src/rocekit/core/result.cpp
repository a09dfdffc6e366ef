#include "rocekit/core/result.hpp"

namespace rk {

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::not_found: return "not_found";
    case ErrorKind::permission_denied: return "permission_denied";
    case ErrorKind::unsupported: return "unsupported";
    case ErrorKind::malformed_input: return "malformed_input";
    case ErrorKind::tool_failed: return "tool_failed";
    case ErrorKind::io: return "io";
  }
  return "unknown";
}

std::string Error::describe() const {
  if (context.empty()) return message;
  return context + ": " + message;
}

}  // namespace rk

#include "rocekit/model/finding.hpp"

namespace rk {

std::string_view ansi_colour(Outcome o) {
  switch (o) {
    case Outcome::fail: return "\x1b[1;31m";
    case Outcome::unknown: return "\x1b[33m";
    case Outcome::pass: return "\x1b[32m";
    case Outcome::not_applicable: return "\x1b[2m";
  }
  return "";
}

std::string paint(bool color, Outcome o, std::string_view text) {
  if (!color) return std::string(text);
  return std::string(ansi_colour(o)) + std::string(text) + "\x1b[0m";
}

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::pass: return "pass";
    case Outcome::fail: return "fail";
    case Outcome::unknown: return "unknown";
    case Outcome::not_applicable: return "not_applicable";
  }
  return "unknown";
}

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
    case Severity::critical: return "critical";
  }
  return "warning";
}

std::string_view to_string(FixScope s) {
  switch (s) {
    case FixScope::runtime: return "runtime";
    case FixScope::persistent: return "persistent";
    case FixScope::firmware_reboot: return "firmware_reboot";
    case FixScope::hardware: return "hardware";
    case FixScope::none: return "none";
  }
  return "none";
}

std::optional<Outcome> outcome_from_string(std::string_view s) {
  for (Outcome o : {Outcome::pass, Outcome::fail, Outcome::unknown, Outcome::not_applicable})
    if (to_string(o) == s) return o;
  return std::nullopt;
}

std::optional<Severity> severity_from_string(std::string_view s) {
  for (Severity v : {Severity::info, Severity::warning, Severity::error, Severity::critical})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

}  // namespace rk

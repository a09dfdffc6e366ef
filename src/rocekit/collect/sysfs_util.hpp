// Small helpers of the live collector (collect.cpp, pci_tree.cpp): evidence, the reason a read
// failed, and setting a Collected<T>. Internal to rk_collect.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::collect {

inline Evidence ev(const std::string& file, std::string text) { return Evidence{file, 0, std::move(text)}; }

/// Why a read failed, in the words the report shows.
inline std::string why(const Error& e) {
  switch (e.kind) {
    case ErrorKind::permission_denied: return "needs root: cannot read " + e.context;
    case ErrorKind::not_found: return e.context + " not present";
    default: return e.describe();
  }
}

inline ReasonKind kind_of(const Error& e) {
  switch (e.kind) {
    case ErrorKind::permission_denied: return ReasonKind::needs_root;
    case ErrorKind::not_found: return ReasonKind::not_present;
    default: return ReasonKind::unreadable;
  }
}

/// Marks `c` absent because the read failed with `e`.
template <class T>
void set_failed(Collected<T>& c, const Error& e) {
  c.set_missing(why(e), kind_of(e));
}

template <class T>
void set_value(Collected<T>& c, T v, Evidence source) {
  c.value = std::move(v);
  c.reason.clear();
  c.source = std::move(source);
}

inline std::string basename(const std::string& p) {
  std::size_t s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

/// "0000:3b:00.0" (a sysfs device directory name).
inline bool is_full_bdf(std::string_view s) {
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u, 11u})
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

}  // namespace rk::collect

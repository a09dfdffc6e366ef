// Small helpers of the live collector (collect.cpp, pci_tree.cpp): evidence, the reason a read
// failed, and setting a Collected<T>. Internal to rk_collect.
#pragma once

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "rocekit/collect/host_view.hpp"
#include "rocekit/core/result.hpp"
#include "rocekit/core/text.hpp"
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

/// A sysfs hex id file ("0x15b3") as a 16-bit id; nullopt when unreadable or not one.
inline std::optional<std::uint16_t> read_hex16(const HostView& host, const std::string& path) {
  Result<std::string> t = host.read_text(path);
  if (!t) return std::nullopt;
  std::optional<std::uint64_t> v = text::parse_hex(*t);
  if (!v || *v > 0xffff) return std::nullopt;
  return static_cast<std::uint16_t>(*v);
}

/// "LnkCap 32GT/s x16, LnkSta 32GT/s x16, MaxPayload 256 of 512" (evidence text).
inline std::string link_text(const PcieLinkState& l) {
  auto gts = [](const std::optional<double>& g) {
    if (!g) return std::string("unknown");
    char b[32];
    std::snprintf(b, sizeof b, "%gGT/s", *g);
    return std::string(b);
  };
  return "LnkCap " + gts(l.capability.speed_gts) + " x" + std::to_string(l.capability.width_lanes.value_or(0)) +
         ", LnkSta " + gts(l.status.speed_gts) + " x" + std::to_string(l.status.width_lanes.value_or(0)) +
         (l.status.downgraded ? " (downgraded)" : "") + ", MaxPayload " +
         std::to_string(l.max_payload_bytes.value_or(0)) + " of " + std::to_string(l.max_payload_cap_bytes.value_or(0));
}

/// "0000:3b:00.0" (a sysfs device directory name).
inline bool is_full_bdf(std::string_view s) {
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u, 11u})
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

}  // namespace rk::collect

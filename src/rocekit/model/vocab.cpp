#include "rocekit/model/vocab.hpp"

#include "rocekit/core/text.hpp"

namespace rk {
namespace {

/// The value whose to_string is `s`: the enums are contiguous from 0 and each to_string returns
/// "?" past the last value, so the switches below are the only spelling of every value.
template <class E>
std::optional<E> find_name(std::string_view s, bool any_case) {
  const std::string want = any_case ? text::to_lower(s) : std::string(s);
  for (int i = 0;; ++i) {
    std::string_view n = to_string(static_cast<E>(i));
    if (n == "?") return std::nullopt;
    if ((any_case ? text::to_lower(n) : std::string(n)) == want) return static_cast<E>(i);
  }
}

}  // namespace

// Written as switches without default (CONTRIBUTING.md): -Wswitch names a value left out.
std::string_view to_string(PortState v) {
  switch (v) {
    case PortState::nop: return "NOP";
    case PortState::down: return "DOWN";
    case PortState::init: return "INIT";
    case PortState::armed: return "ARMED";
    case PortState::active: return "ACTIVE";
    case PortState::active_defer: return "ACTIVE_DEFER";
    case PortState::unknown: return "UNKNOWN";
  }
  return "?";
}

std::string_view to_string(LinkLayer v) {
  switch (v) {
    case LinkLayer::ethernet: return "Ethernet";
    case LinkLayer::infiniband: return "InfiniBand";
  }
  return "?";
}

std::string_view to_string(GidType v) {
  switch (v) {
    case GidType::ib: return "IB";
    case GidType::roce_v1: return "RoCE v1";
    case GidType::roce_v2: return "RoCE v2";
  }
  return "?";
}

std::string_view to_string(Trust v) {
  switch (v) {
    case Trust::pcp: return "pcp";
    case Trust::dscp: return "dscp";
  }
  return "?";
}

std::string_view to_string(SourceKind v) {
  switch (v) {
    case SourceKind::capture_dir: return "capture_dir";
    case SourceKind::capture_tarball: return "capture_tarball";
    case SourceKind::snapshot: return "snapshot";
    case SourceKind::live: return "live";
    case SourceKind::capture_file: return "capture_file";
  }
  return "?";
}

std::string_view to_string(ReasonKind v) {
  switch (v) {
    case ReasonKind::none: return "none";
    case ReasonKind::not_captured: return "not_captured";
    case ReasonKind::tool_failed: return "tool_failed";
    case ReasonKind::needs_root: return "needs_root";
    case ReasonKind::not_present: return "not_present";
    case ReasonKind::not_supported: return "not_supported";
    case ReasonKind::not_requested: return "not_requested";
    case ReasonKind::not_applicable: return "not_applicable";
    case ReasonKind::unreadable: return "unreadable";
    case ReasonKind::conflicting: return "conflicting";
  }
  return "?";
}

std::optional<PortState> port_state_from_string(std::string_view s) {
  s = text::trim(s);
  // sysfs "4: ACTIVE": the number, a colon, the name.
  if (std::size_t c = s.find(':'); c != std::string_view::npos) s = text::trim(s.substr(c + 1));
  if (s.size() > 5 && text::to_lower(s.substr(0, 5)) == "port_") s.remove_prefix(5);
  return find_name<PortState>(s, true);
}

std::optional<LinkLayer> link_layer_from_string(std::string_view s) {
  return find_name<LinkLayer>(text::trim(s), true);
}

std::optional<GidType> gid_type_from_string(std::string_view s) {
  s = text::trim(s);
  if (s == "IB/RoCE v1") return GidType::roce_v1;
  return find_name<GidType>(s, false);
}

std::optional<Trust> trust_from_string(std::string_view s) { return find_name<Trust>(text::trim(s), true); }
std::optional<SourceKind> source_kind_from_string(std::string_view s) { return find_name<SourceKind>(s, false); }
std::optional<ReasonKind> reason_kind_from_string(std::string_view s) { return find_name<ReasonKind>(s, false); }

}  // namespace rk

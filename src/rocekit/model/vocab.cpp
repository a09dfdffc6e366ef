#include "rocekit/model/vocab.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "rocekit/core/text.hpp"

namespace rk {
namespace {

template <class E, std::size_t N>
using Names = std::array<std::pair<E, std::string_view>, N>;

constexpr Names<PortState, 7> k_port_states{{{PortState::nop, "NOP"},
                                             {PortState::down, "DOWN"},
                                             {PortState::init, "INIT"},
                                             {PortState::armed, "ARMED"},
                                             {PortState::active, "ACTIVE"},
                                             {PortState::active_defer, "ACTIVE_DEFER"},
                                             {PortState::unknown, "UNKNOWN"}}};
constexpr Names<LinkLayer, 2> k_link_layers{{{LinkLayer::ethernet, "Ethernet"}, {LinkLayer::infiniband, "InfiniBand"}}};
constexpr Names<GidType, 3> k_gid_types{
    {{GidType::ib, "IB"}, {GidType::roce_v1, "RoCE v1"}, {GidType::roce_v2, "RoCE v2"}}};
constexpr Names<Trust, 2> k_trusts{{{Trust::pcp, "pcp"}, {Trust::dscp, "dscp"}}};
constexpr Names<SourceKind, 4> k_source_kinds{{{SourceKind::capture_dir, "capture_dir"},
                                               {SourceKind::capture_tarball, "capture_tarball"},
                                               {SourceKind::snapshot, "snapshot"},
                                               {SourceKind::live, "live"}}};
constexpr Names<ReasonKind, 9> k_reason_kinds{{{ReasonKind::none, "none"},
                                               {ReasonKind::not_captured, "not_captured"},
                                               {ReasonKind::tool_failed, "tool_failed"},
                                               {ReasonKind::needs_root, "needs_root"},
                                               {ReasonKind::not_present, "not_present"},
                                               {ReasonKind::not_supported, "not_supported"},
                                               {ReasonKind::not_requested, "not_requested"},
                                               {ReasonKind::not_applicable, "not_applicable"},
                                               {ReasonKind::unreadable, "unreadable"}}};

template <class E, std::size_t N>
std::string_view name_of(const Names<E, N>& names, E v) {
  for (const auto& [e, n] : names)
    if (e == v) return n;
  return "?";
}

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

template <class E, std::size_t N>
std::optional<E> find_name(const Names<E, N>& names, std::string_view s, bool any_case) {
  for (const auto& [e, n] : names)
    if (any_case ? iequal(n, s) : n == s) return e;
  return std::nullopt;
}


}  // namespace

std::string_view to_string(PortState v) { return name_of(k_port_states, v); }
std::string_view to_string(LinkLayer v) { return name_of(k_link_layers, v); }
std::string_view to_string(GidType v) { return name_of(k_gid_types, v); }
std::string_view to_string(Trust v) { return name_of(k_trusts, v); }
std::string_view to_string(SourceKind v) { return name_of(k_source_kinds, v); }
std::string_view to_string(ReasonKind v) { return name_of(k_reason_kinds, v); }

std::optional<PortState> port_state_from_string(std::string_view s) {
  s = text::trim(s);
  // sysfs "4: ACTIVE": the number, a colon, the name.
  if (std::size_t c = s.find(':'); c != std::string_view::npos) s = text::trim(s.substr(c + 1));
  if (s.size() > 5 && iequal(s.substr(0, 5), "PORT_")) s.remove_prefix(5);
  return find_name(k_port_states, s, true);
}

std::optional<LinkLayer> link_layer_from_string(std::string_view s) {
  return find_name(k_link_layers, text::trim(s), true);
}

std::optional<GidType> gid_type_from_string(std::string_view s) {
  s = text::trim(s);
  if (s == "IB/RoCE v1") return GidType::roce_v1;
  return find_name(k_gid_types, s, false);
}

std::optional<Trust> trust_from_string(std::string_view s) { return find_name(k_trusts, text::trim(s), true); }
std::optional<SourceKind> source_kind_from_string(std::string_view s) {
  return find_name(k_source_kinds, s, false);
}
std::optional<ReasonKind> reason_kind_from_string(std::string_view s) {
  return find_name(k_reason_kinds, s, false);
}

}  // namespace rk

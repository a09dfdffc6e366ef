// JSON form of the snapshot (docs/snapshot-schema.md). to_json/from_json for every model type,
// found by ADL; load/save helpers with errors that name the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/result.hpp"
#include "rocekit/model/json_fields.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk {

/// Reading a field: as nlohmann's get<T>(), but an integer field takes only a JSON integer in
/// the range of its type; a float (4200.9 must not read as 4200), a bool or a larger integer
/// (2^32 + 9000 must not read as 9000) is an error naming the field (JSON_DIAGNOSTICS). The
/// containers of the snapshot are walked here so that their elements are read the same way.
/// A Collected<T> section must be an object.
template <class T>
void read_json(const nlohmann::json& j, T& out);
template <class T>
void read_json(const nlohmann::json& j, std::optional<T>& out);
template <class T>
void read_json(const nlohmann::json& j, std::vector<T>& out);
template <class V>
void read_json(const nlohmann::json& j, std::map<std::string, V>& out);
template <class V>
void read_json(const nlohmann::json& j, std::map<int, V>& out);
template <class T>
void read_json(const nlohmann::json& j, Collected<T>& out);

/// The errors of read_json, at `j`'s JSON pointer: not an integer, or outside [min, max].
[[noreturn]] void throw_bad_integer(const nlohmann::json& j, long long min, unsigned long long max);
/// Not the JSON type `want` ("an object", "an array").
[[noreturn]] void throw_bad_type(const nlohmann::json& j, std::string_view want);

template <class T>
void read_json(const nlohmann::json& j, T& out) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (j.is_number_unsigned()) {
      std::uint64_t v = j.get<std::uint64_t>();
      if (std::in_range<T>(v)) {
        out = static_cast<T>(v);
        return;
      }
    } else if (j.is_number_integer()) {
      std::int64_t v = j.get<std::int64_t>();
      if (std::in_range<T>(v)) {
        out = static_cast<T>(v);
        return;
      }
    }
    throw_bad_integer(j, static_cast<long long>(std::numeric_limits<T>::min()),
                      static_cast<unsigned long long>(std::numeric_limits<T>::max()));
  } else {
    out = j.get<T>();
  }
}
template <class T>
void read_json(const nlohmann::json& j, std::optional<T>& out) {  // core/json_optional.hpp
  if (j.is_null()) {
    out.reset();
    return;
  }
  T v{};
  read_json(j, v);
  out = std::move(v);
}
template <class T>
void read_json(const nlohmann::json& j, std::vector<T>& out) {
  if (!j.is_array()) throw_bad_type(j, "an array");
  out.clear();
  out.reserve(j.size());
  for (const nlohmann::json& x : j) {
    T v{};
    read_json(x, v);
    out.push_back(std::move(v));
  }
}
template <class V>
void read_json(const nlohmann::json& j, std::map<std::string, V>& out) {
  if (!j.is_object()) throw_bad_type(j, "an object");
  out.clear();
  for (auto it = j.begin(); it != j.end(); ++it) read_json(it.value(), out[it.key()]);
}
/// nlohmann's form of a map with integer keys: an array of [key, value] pairs, the first key kept.
template <class V>
void read_json(const nlohmann::json& j, std::map<int, V>& out) {
  if (!j.is_array()) throw_bad_type(j, "an array of [key, value] pairs");
  out.clear();
  for (const nlohmann::json& p : j) {
    if (!p.is_array() || p.size() < 2) throw_bad_type(p, "a [key, value] pair");
    int k = 0;
    V v{};
    read_json(p[0], k);
    read_json(p[1], v);
    out.emplace(k, std::move(v));
  }
}

#define RK_JSON_READ_FIELD(f) \
  if (auto it = j.find(#f); it != j.end()) read_json(*it, out.f);
/// A struct's fields under their own names, a missing key keeping the default.
#define RK_JSON(Type, ...)                                                                     \
  inline void to_json(nlohmann::json& nlohmann_json_j, const Type& nlohmann_json_t) {          \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__))                   \
  }                                                                                            \
  inline void from_json(const nlohmann::json& j, Type& out) {                                  \
    if (!j.is_object()) throw_bad_type(j, "an object");                                        \
    out = Type{};                                                                              \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(RK_JSON_READ_FIELD, __VA_ARGS__))                 \
  }
RK_SNAPSHOT_JSON_EVIDENCE(RK_JSON)

/// The vocabulary enums as the strings of model/vocab.cpp; an unknown string is an error
/// naming the field (JSON_DIAGNOSTICS) and the accepted values.
[[noreturn]] void throw_bad_enum(const nlohmann::json& j, std::string_view what);
#define RK_JSON_ENUM(Enum, from_string, what)                                     \
  inline void to_json(nlohmann::json& j, Enum v) { j = std::string(to_string(v)); } \
  inline void from_json(const nlohmann::json& j, Enum& v) {                        \
    std::optional<Enum> e = j.is_string() ? from_string(j.get<std::string>()) : std::nullopt; \
    if (!e) throw_bad_enum(j, what);                                                \
    v = *e;                                                                         \
  }
RK_SNAPSHOT_JSON_ENUMS(RK_JSON_ENUM)
inline void to_json(nlohmann::json& j, SourceKind v) { j = std::string(to_string(v)); }
/// An empty kind (hand-written snapshots) reads as "snapshot".
inline void from_json(const nlohmann::json& j, SourceKind& v) {
  if (j.is_string() && j.get<std::string>().empty()) {
    v = SourceKind::snapshot;
    return;
  }
  std::optional<SourceKind> e = j.is_string() ? source_kind_from_string(j.get<std::string>()) : std::nullopt;
  if (!e) throw_bad_enum(j, "a source kind (capture_dir, capture_tarball, capture_file, snapshot, live)");
  v = *e;
}
#undef RK_JSON_ENUM

template <class T>
void to_json(nlohmann::json& j, const Collected<T>& c) {
  j = nlohmann::json::object();
  if (c.value) {
    j["value"] = *c.value;
  } else {
    j["value"] = nullptr;
    j["reason"] = c.reason;
    if (c.reason_kind != ReasonKind::none) j["reason_kind"] = c.reason_kind;
    if (!c.needs.empty()) j["needs"] = c.needs;
  }
  if (!c.source.file.empty() || !c.source.text.empty()) j["source"] = c.source;
  if (!c.notes.empty()) j["notes"] = c.notes;
}

template <class T>
void read_json(const nlohmann::json& j, Collected<T>& c) {
  c = Collected<T>{};
  if (!j.is_object()) throw_bad_type(j, "an object ({\"value\": ...} or {\"value\": null, \"reason\": ...})");
  if (j.contains("value") && !j.at("value").is_null()) {
    T v{};
    read_json(j.at("value"), v);
    c.value = std::move(v);
  }
  if (j.contains("reason")) c.reason = j.at("reason").get<std::string>();
  if (j.contains("reason_kind")) c.reason_kind = j.at("reason_kind").get<ReasonKind>();
  if (j.contains("needs")) c.needs = j.at("needs").get<std::string>();
  if (j.contains("source")) c.source = j.at("source").get<Evidence>();
  if (j.contains("notes")) c.notes = j.at("notes").get<std::vector<std::string>>();
}
template <class T>
void from_json(const nlohmann::json& j, Collected<T>& c) {
  read_json(j, c);
}


inline void to_json(nlohmann::json& j, const Gid& g) {
  j = nlohmann::json{{"index", g.index}, {"gid", g.gid}, {"ipv4", g.ipv4}, {"type", g.type}, {"netdev", g.netdev}};
}
/// Snapshots of rocekit before the typed vocabulary wrote an untyped GID as "type": "".
inline void from_json(const nlohmann::json& j, Gid& g) {
  const Gid d;
  if (!j.is_object()) throw_bad_type(j, "an object");
  g.index = d.index;
  if (j.contains("index")) read_json(j.at("index"), g.index);
  g.gid = j.value("gid", d.gid);
  g.ipv4 = j.contains("ipv4") ? j.at("ipv4").get<std::optional<std::string>>() : d.ipv4;
  if (j.contains("type") && !(j.at("type").is_string() && j.at("type").get<std::string>().empty()))
    g.type = j.at("type").get<std::optional<GidType>>();
  g.netdev = j.contains("netdev") ? j.at("netdev").get<std::optional<std::string>>() : d.netdev;
}
// Required keys: an ACS register with a bit left out must not read as "redirect off".
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(AcsBits, source_validation, translation_blocking, request_redirect,
                                   completion_redirect, upstream_forwarding, egress_control, direct_translated)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PciAcs, capability, control)
RK_SNAPSHOT_JSON_TYPES(RK_JSON)
#undef RK_JSON

nlohmann::json snapshot_to_json(const Snapshot& s);
/// Errors: malformed_input when the document is not a snapshot or its schema_version is newer
/// than this build understands.
Result<Snapshot> snapshot_from_json(const nlohmann::json& j);

/// Parses and reads a snapshot document; a syntax error is "not valid JSON at line L, column C".
/// With `without_counters_and_evidence` the keys of skipped_without_counters_and_evidence() are
/// dropped while parsing (`rocekit fleet`). model/json_fast.hpp is the faster reader of the same.
/// A key repeated in one object is read as its last value, and said: an input `file` (the
/// document's name; "" = "snapshot") with status parsed_with_warnings and a message per key
/// ("node.json: key \"mtu_bytes\" appears twice in /netdevs/0: the last one is used").
Result<Snapshot> snapshot_from_json_text(std::string_view text, bool without_counters_and_evidence,
                                         const std::string& file = {});

Result<Snapshot> load_snapshot_file(const std::filesystem::path& path);

/// What every reader does after the fields are read: the BlueField mode of snapshots older than
/// schema 7, then validate_snapshot().
Result<Snapshot> finish_snapshot_from_json(Snapshot s);

/// The keys a reader that keeps no counters and no evidence leaves out (`rocekit fleet`): the
/// counters (`stats`, `counters`: ethtool -S and the RDMA port counters, most of a live host's
/// document; no rule or fleet comparison reads them) at any depth, and the evidence objects
/// below the top level (`source`, `trust_source`, `dscp_source`, `pfc_source`, `mtu_source`).
/// `depth` is 1 for the snapshot's own keys.
bool skipped_without_counters_and_evidence(std::string_view key, int depth);

}  // namespace rk

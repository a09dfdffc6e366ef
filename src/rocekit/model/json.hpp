// JSON form of the snapshot (docs/snapshot-schema.md). to_json/from_json for every model type,
// found by ADL; load/save helpers with errors that name the file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/result.hpp"
#include "rocekit/model/json_fields.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk {

#define RK_JSON(Type, ...) NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Type, __VA_ARGS__)
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
void from_json(const nlohmann::json& j, Collected<T>& c) {
  c = Collected<T>{};
  if (!j.is_object()) return;
  if (j.contains("value") && !j.at("value").is_null()) c.value = j.at("value").get<T>();
  if (j.contains("reason")) c.reason = j.at("reason").get<std::string>();
  if (j.contains("reason_kind")) c.reason_kind = j.at("reason_kind").get<ReasonKind>();
  if (j.contains("needs")) c.needs = j.at("needs").get<std::string>();
  if (j.contains("source")) c.source = j.at("source").get<Evidence>();
  if (j.contains("notes")) c.notes = j.at("notes").get<std::vector<std::string>>();
}


inline void to_json(nlohmann::json& j, const Gid& g) {
  j = nlohmann::json{{"index", g.index}, {"gid", g.gid}, {"ipv4", g.ipv4}, {"type", g.type}, {"netdev", g.netdev}};
}
/// Snapshots of rocekit before the typed vocabulary wrote an untyped GID as "type": "".
inline void from_json(const nlohmann::json& j, Gid& g) {
  const Gid d;
  g.index = j.value("index", d.index);
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
Result<Snapshot> snapshot_from_json_text(std::string_view text, bool without_counters_and_evidence);

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

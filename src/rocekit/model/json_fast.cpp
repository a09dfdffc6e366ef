// simdjson reader of the snapshot (model/json_fast.hpp). Each Read<T> mirrors what nlohmann's
// from_json does for T in model/json.hpp (read_json) and nlohmann-json 3.11's conversions, but
// is stricter: where nlohmann would convert (a bool into a double field) or refuse (a float, a
// bool or an out-of-range integer in an integer field), it returns false and the whole
// document goes to snapshot_from_json_text(), which converts or names the field in its error.
// Keys: a missing key keeps the default; a key repeated in one object declines (nlohmann keeps
// the last one and says so in the snapshot's inputs); a key that is no field is skipped.
// tests/collect/json_fast_test.cpp and fuzz/fuzz_snapshot_fast.cpp compare the two readers.
#include "rocekit/model/json_fast.hpp"

#include "rocekit/model/json.hpp"

#ifdef RK_HAVE_SIMDJSON

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include <simdjson.h>

namespace rk {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

struct Ctx {
  bool lean = false;  // without counters and evidence
};

template <class T, class = void>
struct Read;  // Read<T>::get(element, T&, const Ctx&) -> false: not taken

template <class T>
bool read(element e, T& out, const Ctx& c) {
  return Read<T>::get(e, out, c);
}

/// The keys of one object that are none of its fields (unknown, or dropped without counters and
/// evidence), without allocating: past 8 of them the reader declines (nlohmann reads it).
struct OtherKeys {
  std::array<std::string_view, 8> keys;
  std::size_t n = 0;
};

/// False when `key`, which is none of the object's fields, was seen before in this object.
bool first_other(OtherKeys& others, std::string_view key) {
  const auto end = others.keys.begin() + static_cast<std::ptrdiff_t>(others.n);
  if (std::find(others.keys.begin(), end, key) != end || others.n == others.keys.size()) return false;
  others.keys[others.n++] = key;
  return true;
}

/// False when `key` was seen before in this object: `seen` has a bit per key of `keys`, `others`
/// the other keys.
bool first_time(unsigned& seen, OtherKeys& others, std::string_view key,
                std::initializer_list<std::string_view> keys) {
  unsigned bit = 1;
  for (std::string_view k : keys) {
    if (k == key) {
      if (seen & bit) return false;
      seen |= bit;
      return true;
    }
    bit <<= 1;
  }
  return first_other(others, key);
}

template <>
struct Read<std::string> {
  static bool get(element e, std::string& out, const Ctx&) {
    std::string_view s;
    if (e.get_string().get(s)) return false;
    out.assign(s.data(), s.size());
    return true;
  }
};

template <>
struct Read<bool> {
  static bool get(element e, bool& out, const Ctx&) { return !e.get_bool().get(out); }
};

template <class T>
struct Read<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static bool get(element e, T& out, const Ctx&) {
    if (e.type() == element_type::INT64) {
      std::int64_t v = e.get_int64().value_unsafe();
      if (!std::in_range<T>(v)) return false;
      out = static_cast<T>(v);
      return true;
    }
    if (e.type() == element_type::UINT64) {
      std::uint64_t v = e.get_uint64().value_unsafe();
      if (!std::in_range<T>(v)) return false;
      out = static_cast<T>(v);
      return true;
    }
    return false;
  }
};

template <>
struct Read<double> {
  static bool get(element e, double& out, const Ctx&) {
    switch (e.type()) {
      case element_type::INT64: out = static_cast<double>(e.get_int64().value_unsafe()); return true;
      case element_type::UINT64: out = static_cast<double>(e.get_uint64().value_unsafe()); return true;
      case element_type::DOUBLE: out = e.get_double().value_unsafe(); return true;
      default: return false;
    }
  }
};

#define RK_FAST_ENUM(Enum, from_string, what)                              \
  template <>                                                              \
  struct Read<Enum> {                                                      \
    static bool get(element e, Enum& out, const Ctx&) {                    \
      std::string_view s;                                                  \
      if (e.get_string().get(s)) return false;                             \
      std::optional<Enum> v = from_string(s);                              \
      if (!v) return false;                                                \
      out = *v;                                                            \
      return true;                                                         \
    }                                                                      \
  };
RK_SNAPSHOT_JSON_ENUMS(RK_FAST_ENUM)
#undef RK_FAST_ENUM

template <>
struct Read<SourceKind> {  // json.hpp: an empty kind reads as "snapshot"
  static bool get(element e, SourceKind& out, const Ctx&) {
    std::string_view s;
    if (e.get_string().get(s)) return false;
    if (s.empty()) {
      out = SourceKind::snapshot;
      return true;
    }
    std::optional<SourceKind> v = source_kind_from_string(s);
    if (!v) return false;
    out = *v;
    return true;
  }
};

template <class T>
struct Read<std::optional<T>> {  // core/json_optional.hpp: null <-> nullopt
  static bool get(element e, std::optional<T>& out, const Ctx& c) {
    if (e.is_null()) {
      out.reset();
      return true;
    }
    T v{};
    if (!read(e, v, c)) return false;
    out = std::move(v);
    return true;
  }
};

template <class T>
struct Read<std::vector<T>> {
  static bool get(element e, std::vector<T>& out, const Ctx& c) {
    simdjson::dom::array a;
    if (e.get_array().get(a)) return false;
    out.clear();
    out.reserve(a.size());
    for (element x : a) {
      T v{};
      if (!read(x, v, c)) return false;
      out.push_back(std::move(v));
    }
    return true;
  }
};

template <class V>
struct Read<std::map<std::string, V>> {  // a JSON object
  static bool get(element e, std::map<std::string, V>& out, const Ctx& c) {
    simdjson::dom::object o;
    if (e.get_object().get(o)) return false;
    out.clear();
    for (auto kv : o) {
      V v{};
      if (!read(kv.value, v, c)) return false;
      if (!out.emplace(std::string(kv.key), std::move(v)).second) return false;  // repeated
    }
    return true;
  }
};

template <class V>
struct Read<std::map<int, V>> {  // nlohmann: an array of [key, value] arrays, the first key kept
  static bool get(element e, std::map<int, V>& out, const Ctx& c) {
    simdjson::dom::array a;
    if (e.get_array().get(a)) return false;
    out.clear();
    for (element p : a) {
      simdjson::dom::array kv;
      if (p.get_array().get(kv) || kv.size() < 2) return false;
      int k = 0;
      V v{};
      if (!read(kv.at(0).value_unsafe(), k, c) || !read(kv.at(1).value_unsafe(), v, c)) return false;
      out.emplace(k, std::move(v));
    }
    return true;
  }
};

template <class T>
struct Read<Collected<T>> {  // json.hpp read_json(Collected<T>): not an object is an error there
  static bool get(element e, Collected<T>& out, const Ctx& c) {
    out = Collected<T>{};
    simdjson::dom::object o;
    if (e.get_object().get(o)) return false;
    unsigned seen = 0;
    OtherKeys others;
    for (auto kv : o) {
      std::string_view key = kv.key;
      if (!first_time(seen, others, key, {"value", "reason", "reason_kind", "needs", "source", "notes"})) return false;
      if (c.lean && skipped_without_counters_and_evidence(key, 2)) continue;
      bool ok = true;
      if (key == "value") {
        if (kv.value.is_null()) {
          out.value.reset();
        } else {
          T v{};
          ok = read(kv.value, v, c);
          out.value = std::move(v);
        }
      } else if (key == "reason") {
        ok = read(kv.value, out.reason, c);
      } else if (key == "reason_kind") {
        ok = read(kv.value, out.reason_kind, c);
      } else if (key == "needs") {
        ok = read(kv.value, out.needs, c);
      } else if (key == "source") {
        ok = read(kv.value, out.source, c);
      } else if (key == "notes") {
        ok = read(kv.value, out.notes, c);
      }
      if (!ok) return false;
    }
    return true;
  }
};

template <>
struct Read<Gid> {  // json.hpp from_json(Gid): "type": "" is an untyped GID
  static bool get(element e, Gid& out, const Ctx& c) {
    simdjson::dom::object o;
    if (e.get_object().get(o)) return false;
    out = Gid{};
    unsigned seen = 0;
    OtherKeys others;
    for (auto kv : o) {
      std::string_view key = kv.key;
      if (!first_time(seen, others, key, {"index", "gid", "ipv4", "type", "netdev"})) return false;
      bool ok = true;
      if (key == "index") {
        ok = read(kv.value, out.index, c);
      } else if (key == "gid") {
        ok = read(kv.value, out.gid, c);
      } else if (key == "ipv4") {
        ok = read(kv.value, out.ipv4, c);
      } else if (key == "type") {
        std::string_view s;
        if (!kv.value.get_string().get(s) && s.empty())
          out.type.reset();
        else
          ok = read(kv.value, out.type, c);
      } else if (key == "netdev") {
        ok = read(kv.value, out.netdev, c);
      }
      if (!ok) return false;
    }
    return true;
  }
};

#define RK_FAST_NAME(f) #f,
#define RK_FAST_REQUIRED(f)                                  \
  if (key == #f) {                                           \
    if (seen & bit(#f)) return false; /* repeated */         \
    if (!read(kv.value, out.f, c)) return false;             \
    seen |= bit(#f);                                         \
    continue;                                                \
  }
#define RK_FAST_REQUIRED_STRUCT(Type, ...)                                                        \
  template <>                                                                                     \
  struct Read<Type> {                                                                             \
    static constexpr std::string_view names[] = {NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(RK_FAST_NAME, __VA_ARGS__))}; \
    static unsigned bit(std::string_view name) {                                                  \
      for (unsigned i = 0; i < std::size(names); ++i)                                             \
        if (names[i] == name) return 1u << i;                                                     \
      return 0;                                                                                   \
    }                                                                                             \
    static bool get(element e, Type& out, const Ctx& c) {                                         \
      simdjson::dom::object o;                                                                    \
      if (e.get_object().get(o)) return false;                                                    \
      out = Type{};                                                                               \
      unsigned seen = 0;                                                                          \
      OtherKeys others;                                                                           \
      for (auto kv : o) {                                                                         \
        std::string_view key = kv.key;                                                            \
        NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(RK_FAST_REQUIRED, __VA_ARGS__))                  \
        if (!first_other(others, key)) return false;                                              \
      }                                                                                           \
      return seen == (1u << std::size(names)) - 1;                                                \
    }                                                                                             \
  };
// Every key required (json.hpp NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE).
RK_FAST_REQUIRED_STRUCT(AcsBits, source_validation, translation_blocking, request_redirect, completion_redirect,
                        upstream_forwarding, egress_control, direct_translated)
RK_FAST_REQUIRED_STRUCT(PciAcs, capability, control)
#undef RK_FAST_REQUIRED_STRUCT
#undef RK_FAST_REQUIRED
#undef RK_FAST_NAME

// Every other struct: a missing key keeps the default (NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT).
#define RK_FAST_FIELD(f)                                     \
  if (key == #f) {                                           \
    if (seen & bit) return false; /* repeated */             \
    seen |= bit;                                             \
    if (!read(kv.value, out.f, c)) return false;             \
    continue;                                                \
  }                                                          \
  bit <<= 1;
#define RK_FAST_STRUCT(Type, ...)                                                     \
  template <>                                                                         \
  struct Read<Type> {                                                                 \
    static bool get(element e, Type& out, const Ctx& c) {                             \
      simdjson::dom::object o;                                                        \
      if (e.get_object().get(o)) return false;                                        \
      out = Type{};                                                                   \
      std::uint64_t seen = 0; /* one bit per field, in the list's order */            \
      OtherKeys others;                                                               \
      for (auto kv : o) {                                                             \
        std::string_view key = kv.key;                                                \
        if (c.lean && skipped_without_counters_and_evidence(key, 2)) {                \
          if (!first_other(others, key)) return false;                                \
          continue;                                                                   \
        }                                                                             \
        std::uint64_t bit = 1;                                                        \
        NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(RK_FAST_FIELD, __VA_ARGS__))         \
        if (!first_other(others, key)) return false;                                  \
      }                                                                               \
      return true;                                                                    \
    }                                                                                 \
  };
RK_SNAPSHOT_JSON_EVIDENCE(RK_FAST_STRUCT)
RK_SNAPSHOT_JSON_TYPES(RK_FAST_STRUCT)
#undef RK_FAST_STRUCT
#undef RK_FAST_FIELD

/// json.cpp bad_float: a float that is not finite or beyond 1e9, anywhere in what is read.
bool has_bad_float(element e, int depth, const Ctx& c) {
  switch (e.type()) {
    case element_type::DOUBLE: {
      double v = e.get_double().value_unsafe();
      return !(v > -1e9 && v < 1e9);
    }
    case element_type::OBJECT: {
      simdjson::dom::object o = e.get_object().value_unsafe();
      for (auto kv : o) {
        if (c.lean && skipped_without_counters_and_evidence(kv.key, depth + 1)) continue;
        if (has_bad_float(kv.value, depth + 1, c)) return true;
      }
      return false;
    }
    case element_type::ARRAY: {
      simdjson::dom::array a = e.get_array().value_unsafe();
      for (element x : a)
        if (has_bad_float(x, depth + 1, c)) return true;
      return false;
    }
    default:
      return false;
  }
}

/// Whether the parsed document holds a float has_bad_float would refuse, anywhere: one pass over
/// simdjson's tape (its documented layout, simdjson doc/tape.md: word 0 is the root 'r' whose
/// payload is the index of the closing root word; a double is a 'd' word followed by the value's
/// 64 bits; int64 'l' and uint64 'u' are also followed by their value word). Most snapshots hold
/// no such float, and then the walk that honours the lean skip is not needed.
bool tape_has_bad_float(const simdjson::dom::document& doc) {
  const std::uint64_t* tape = doc.tape.get();
  const std::uint64_t end = tape[0] & simdjson::internal::JSON_VALUE_MASK;
  for (std::uint64_t i = 1; i < end; ++i) {
    const char type = static_cast<char>(tape[i] >> 56);
    if (type == 'd') {
      double v = 0;
      std::memcpy(&v, &tape[++i], sizeof v);
      if (!(v > -1e9 && v < 1e9)) return true;
    } else if (type == 'l' || type == 'u') {
      ++i;
    }
  }
  return false;
}

}  // namespace

bool fast_snapshot_reader_available() { return true; }

std::optional<Snapshot> snapshot_from_json_fast(std::string_view text, bool without_counters_and_evidence) {
  thread_local simdjson::dom::parser parser;
  const Ctx c{without_counters_and_evidence};
  element root;
  if (parser.parse(text.data(), text.size()).get(root)) return std::nullopt;
  simdjson::dom::object o;
  if (root.get_object().get(o)) return std::nullopt;
  // The object's keys are at depth 1, as in nlohmann's parser callback.
  if (tape_has_bad_float(parser.doc) && has_bad_float(root, 0, c)) return std::nullopt;
  Snapshot s;
  std::optional<std::int64_t> version;
  std::uint64_t seen = 0;  // one bit per top-level field, in RK_SNAPSHOT_TOP_FIELDS's order
  OtherKeys others;  // the other keys
  for (auto kv : o) {
    std::string_view key = kv.key;
    if (key == "schema_version") {
      std::int64_t v = 0;
      if (version) return std::nullopt;  // repeated
      if (kv.value.type() != element_type::INT64 || kv.value.get_int64().get(v)) return std::nullopt;
      version = v;
      continue;
    }
    if (c.lean && skipped_without_counters_and_evidence(key, 1)) {
      if (!first_other(others, key)) return std::nullopt;
      continue;
    }
    std::uint64_t bit = 1;
#define RK_FAST_TOP(f)                                   \
  if (key == #f) {                                       \
    if (seen & bit) return std::nullopt; /* repeated */  \
    seen |= bit;                                         \
    if (!read(kv.value, s.f, c)) return std::nullopt;    \
    continue;                                            \
  }                                                      \
  bit <<= 1;
    RK_SNAPSHOT_TOP_FIELDS(RK_FAST_TOP)
#undef RK_FAST_TOP
    if (!first_other(others, key)) return std::nullopt;
  }
  if (!version || *version < 1 || *version > k_snapshot_schema_version) return std::nullopt;
  s.schema_version = static_cast<int>(*version);
  Result<Snapshot> r = finish_snapshot_from_json(std::move(s));
  if (!r) return std::nullopt;
  return std::move(*r);
}

}  // namespace rk

#else  // no simdjson in this build

namespace rk {
bool fast_snapshot_reader_available() { return false; }
std::optional<Snapshot> snapshot_from_json_fast(std::string_view, bool) { return std::nullopt; }
}  // namespace rk

#endif

// A second reader of the snapshot's JSON form, for `rocekit fleet` (issue 23): simdjson's DOM
// parser (libsimdjson-dev) and the field lists of model/json_fields.hpp, about 15 times faster
// than nlohmann-json on the same document (docs/benchmarks.md). It takes only documents it reads
// exactly as snapshot_from_json() does; on anything else it returns nullopt and the caller reads
// the document with snapshot_from_json(), which gives the error with its line and field.
#pragma once

#include <optional>
#include <string_view>

#include "rocekit/model/snapshot.hpp"

namespace rk {

/// True when this build has the simdjson reader (a build without libsimdjson-dev, such as the
/// static portable build, reads every snapshot with nlohmann-json).
bool fast_snapshot_reader_available();

/// The snapshot in `text`, or nullopt when the reader does not take the document: not JSON, a
/// value of another type or out of the field's range, a missing required key, an unknown enum
/// string, a float beyond 1e9, a schema_version this build does not read, validate_snapshot()
/// failing, or no simdjson in this build. With `without_counters_and_evidence` the keys of
/// skipped_without_counters_and_evidence() are neither read nor checked, as the fleet's
/// nlohmann reader drops them while parsing. Thread-safe (one parser per thread); never throws
/// except std::bad_alloc.
std::optional<Snapshot> snapshot_from_json_fast(std::string_view text, bool without_counters_and_evidence);

}  // namespace rk

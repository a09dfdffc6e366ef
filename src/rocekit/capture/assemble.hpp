// Turning a capture (a set of tool outputs) into a host Snapshot.
#pragma once

#include "rocekit/capture/reader.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::capture {

/// Identifies each file (by its `<tool>[@<target>].txt` name, else by content), parses it with
/// the tool's parser and merges the result into one Snapshot. Never fails: unreadable, unknown
/// or malformed files are recorded in Snapshot::inputs with file:line messages, and sections
/// nothing reported stay Collected-missing with the reason.
Snapshot snapshot_from_capture(const CaptureSet& set);

}  // namespace rk::capture

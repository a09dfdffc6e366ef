// The library's front door: input -> Snapshot -> Report -> rendered text. No printing, no exit,
// no environment reads (STYLE.md §10).
#pragma once

#include <filesystem>
#include <string>

#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/render/render.hpp"
#include "rocekit/rules/rule.hpp"
#include "rocekit/version.hpp"

namespace rk {

/// Loads a host input: a saved snapshot (*.json), a capture directory or a capture tarball.
/// Errors name the path: not_found, io, malformed_input, unsupported.
Result<Snapshot> load_input(const std::filesystem::path& path);

/// Loads a policy file (or the built-in default when `path` is empty).
Result<Policy> load_policy(const std::filesystem::path& path);

}  // namespace rk

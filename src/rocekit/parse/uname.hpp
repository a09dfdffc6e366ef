// Parser for `uname -r` or `uname -a` (coreutils), tool id "uname". `uname -r` prints the kernel
// release alone ("6.8.0-1013-nvidia-64k"); `uname -a` prints, space-separated, the kernel name,
// node name, release, version (several words), machine, processor, hardware platform and
// operating system, omitting processor and platform when unknown (coreutils src/uname.c):
//   Linux 193b69069337 6.8.0-1013-nvidia-64k #14lambdaguest1 SMP PREEMPT_DYNAMIC ... aarch64 aarch64 aarch64 GNU/Linux
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct Uname {
  std::string release;                 ///< "6.8.0-1013-nvidia-64k"
  std::optional<std::string> nodename; ///< `uname -a` only
  std::optional<std::string> machine;  ///< `uname -a` only: "x86_64", "aarch64"
  /// Leading "major.minor" of the release: {6, 8}.
  std::optional<int> major;
  std::optional<int> minor;
  std::size_t line = 0;
};

/// The leading "<major>.<minor>" of a Linux kernel release ("6.8.0-1013-nvidia-64k" -> {6, 8});
/// nullopt when the word does not start that way.
std::optional<std::pair<int, int>> kernel_major_minor(std::string_view release);

/// Errors when the first non-blank line is neither a bare release nor a `Linux <host> <release>` line.
Result<Parsed<Uname>> parse_uname(std::string_view text);
nlohmann::json to_json(const Uname& v);
bool looks_like_uname(std::string_view text);

}  // namespace rk::parse

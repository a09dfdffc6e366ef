// Parser for `ofed_info -s` (mlnx-ofa_kernel's ofed_info script), tool id "ofed_info". It prints
// one line naming the installed NVIDIA driver release, with a trailing colon:
//   MLNX_OFED_LINUX-23.10-1.1.9.0:        (MLNX_OFED)
//   OFED-internal-25.10-1.7.1:            (DOCA-OFED, DOCA-Host 2.x/3.x)
// Plain `ofed_info` starts with the same name followed by the OFED base in parentheses,
// "MLNX_OFED_LINUX-5.8-1.0.1.1 (OFED-5.8-1.0.1):", then the component list; only that first
// line is read.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct OfedInfo {
  std::string release;  ///< "MLNX_OFED_LINUX-23.10-1.1.9.0" (trailing ':' removed)
  std::string prefix;   ///< "MLNX_OFED_LINUX", "OFED-internal", "MLNX_EN_LINUX", ...
  std::string version;  ///< "23.10-1.1.9.0"
  std::size_t line = 0;
};

/// Errors when no line has the `<NAME>-<digits>...` form.
Result<Parsed<OfedInfo>> parse_ofed_info(std::string_view text);
nlohmann::json to_json(const OfedInfo& v);
/// True when the first non-blank line (after a pasted prompt) is such a release line.
bool looks_like_ofed_info(std::string_view text);

}  // namespace rk::parse

// Parser for `lsmod` (possibly filtered through grep), tool id "lsmod".
//   Module                  Size  Used by          (header, absent when grepped)
//   ib_uverbs             200704  3 nvidia_peermem,rdma_ucm,mlx5_ib
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct LsmodModule {
  std::string name;
  std::uint64_t size_bytes = 0;           ///< "Size" column (module memory, bytes)
  std::uint64_t use_count = 0;            ///< "Used by" count
  std::vector<std::string> used_by;       ///< modules listed after the count (may be partial)
};

struct Lsmod {
  bool header_shown = false;              ///< "Module Size Used by" line present
  std::vector<LsmodModule> modules;       ///< in printed order
};

/// Errors when no module row is recognised.
Result<Parsed<Lsmod>> parse_lsmod(std::string_view text);
nlohmann::json to_json(const Lsmod& v);
/// Whether `name` is in the list (e.g. "nvidia_peermem"; loaded is not proof it works).
bool has_module(const Lsmod& v, std::string_view name);
bool looks_like_lsmod(std::string_view text);

}  // namespace rk::parse

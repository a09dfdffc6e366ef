// Parser for `cat /proc/driver/nvidia/version`, tool id "nvidia_version". The NVIDIA kernel
// driver prints (kernel-open/nvidia/nv-procfs.c and its proprietary twin, "NVRM version: "
// followed by the driver's banner):
//   NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  555.42.02  Release Build  (builder)  <date>
//   NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023
//   GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)
// "Open Kernel Module" names the open GPU kernel modules, which DMA-BUF GPUDirect RDMA needs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct NvidiaVersion {
  std::string banner;                ///< the text after "NVRM version: "
  std::optional<std::string> version;  ///< "555.42.02": the first dotted number after "Module"
  bool open_module = false;          ///< "Open Kernel Module"
  std::optional<std::string> arch;   ///< "x86_64", "aarch64"
  std::optional<std::string> gcc;    ///< the "GCC version:" line's value
  std::size_t line = 0;              ///< the NVRM line
};

/// Errors when no "NVRM version:" line is present, or its banner lacks "Kernel Module <version>".
Result<Parsed<NvidiaVersion>> parse_nvidia_version(std::string_view text);
nlohmann::json to_json(const NvidiaVersion& v);
bool looks_like_nvidia_version(std::string_view text);

}  // namespace rk::parse

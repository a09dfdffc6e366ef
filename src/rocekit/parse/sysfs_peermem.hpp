// Parser for rocekit-capture's GPUDirect RDMA peer-memory read, tool id "sysfs_peermem":
//   ls /sys/kernel/mm/memory_peers; grep -H . /sys/module/nvidia_peermem/*
//   nv_mem                                              (a registered peer-memory client)
//   /sys/module/nvidia_peermem/initstate:live           (the module's sysfs attributes)
//   /sys/module/nvidia_peermem/version:535.104.05
// /sys/kernel/mm/memory_peers/<name> is created by the MLNX_OFED peer-memory API when a client
// registers (nvidia-peermem registers "nv_mem": ib_register_peer_memory_client() in the
// NVIDIA open-gpu-kernel-modules kernel-open/nvidia-peermem/nvidia-peermem.c); the module
// attributes under /sys/module/<name>/ exist while the module is loaded. Paths may carry a
// sysroot prefix (the capture's --sysroot).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct SysfsPeermem {
  std::vector<std::string> memory_peers;   ///< names listed from /sys/kernel/mm/memory_peers
  std::optional<std::string> module;       ///< "nvidia_peermem" or "nv_peer_mem" when its attributes are shown
  std::optional<std::string> initstate;    ///< /sys/module/<m>/initstate ("live")
  std::optional<std::string> version;      ///< /sys/module/<m>/version
  std::size_t module_line = 0;             ///< first module attribute line
  std::size_t peer_line = 0;               ///< first memory_peers name line
};

/// Errors when no line is a memory_peers name or a peer-memory module attribute.
Result<Parsed<SysfsPeermem>> parse_sysfs_peermem(std::string_view text);
nlohmann::json to_json(const SysfsPeermem& v);
bool looks_like_sysfs_peermem(std::string_view text);

}  // namespace rk::parse

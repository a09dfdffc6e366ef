// Parser for `ls -l /sys/class/infiniband` (tool id "sysfs_ib_links"): each RDMA device is a
// symlink the kernel makes to its device directory, whose path is the PCI path from the host
// bridge down (drivers/infiniband/core/device.c ib_register_device() -> device_add()):
//   lrwxrwxrwx 1 root root 0 Dec  2 15:10 mlx5_0 -> ../../devices/pci0000:15/0000:15:01.0/
//     0000:16:00.0/0000:17:00.0/0000:18:00.0/infiniband/mlx5_0            (one line in ls)
// The RDMA device's PCI function is the last dddd:bb:dd.f component; the ones before it are the
// bridges above it. Paths may carry a sysroot prefix (rocekit-capture's ROCEKIT_SYSROOT).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct IbDeviceLink {
  std::string name;                ///< RDMA device, e.g. "mlx5_0"
  std::string target;              ///< the link target as printed
  std::optional<std::string> bdf;  ///< its PCI function (nullopt: not a PCI device, e.g. rxe)
  std::vector<std::string> bridges;  ///< the PCI components above it, root port first
  std::size_t line = 0;
};

struct SysfsIbLinks {
  std::vector<IbDeviceLink> devices;
};

/// Errors when no line is a symlink entry. Warnings: `unrecognised_line` for other lines
/// (except `total N`).
Result<Parsed<SysfsIbLinks>> parse_sysfs_ib_links(std::string_view text);
nlohmann::json to_json(const SysfsIbLinks& v);
/// An `ls -l` symlink line whose target holds "/infiniband/".
bool looks_like_sysfs_ib_links(std::string_view text);

}  // namespace rk::parse

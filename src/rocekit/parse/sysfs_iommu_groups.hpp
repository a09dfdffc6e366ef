// Parser for the IOMMU groups of sysfs, tool id "sysfs_iommu_groups". rocekit-capture runs
//   find /sys/kernel/iommu_groups/ -type l; grep -H . /sys/kernel/iommu_groups/*/type
// The kernel makes one directory per group (drivers/iommu/iommu.c iommu_group_alloc()):
// devices/<name> is a link per member device, and `type` (Linux >= 5.11) names the group's
// default domain as iommu_group_show_type() prints it: "DMA", "DMA-FQ" (translated, lazy
// flush queue), "identity" (passthrough), "blocked", "unmanaged" (owned by a user, e.g. VFIO)
// or "unknown". The lines read:
//   /sys/kernel/iommu_groups/17/devices/0000:41:00.0      (find)
//   /sys/kernel/iommu_groups/17/type:DMA                   (grep -H)
//   DMA                                                    (cat .../*/type: no group number)
// and the widely posted listing loop ("ls-iommu", Arch wiki "PCI passthrough via OVMF"):
//   IOMMU Group 17:
//   	41:00.0 Ethernet controller [0200]: Mellanox Technologies MT2910 Family [ConnectX-7] [15b3:1021]
// A prefix before "/sys/kernel/iommu_groups/" (a sysroot) is ignored. lspci prints addresses
// without the PCI domain unless -D: such addresses are taken as domain 0000.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct IommuGroupListing {
  unsigned number = 0;
  std::optional<std::string> type;   ///< the group's `type` line, as printed
  std::vector<std::string> devices;  ///< PCI addresses "dddd:bb:dd.f", in listing order
  std::size_t line = 0;              ///< first line naming the group
  std::size_t type_line = 0;         ///< the type line, 0 when none
};

struct SysfsIommuGroups {
  std::vector<IommuGroupListing> groups;  ///< by group number
  /// `cat /sys/kernel/iommu_groups/*/type` lines: types without their group number.
  std::vector<std::string> untagged_types;
  std::size_t untagged_first_line = 0;
};

/// The group of `bdf`, nullptr when it is in none of the listed groups.
const IommuGroupListing* group_of(const SysfsIommuGroups& g, std::string_view bdf);

/// An empty text is an empty listing (a host whose /sys/kernel/iommu_groups has no group: no
/// IOMMU translates DMA). Errors when no line has one of the forms above; unrecognised lines are
/// warnings, and so is a type the kernel does not print.
Result<Parsed<SysfsIommuGroups>> parse_sysfs_iommu_groups(std::string_view text);
nlohmann::json to_json(const SysfsIommuGroups& v);
bool looks_like_sysfs_iommu_groups(std::string_view text);

/// True for the strings iommu_group_show_type() prints.
bool known_iommu_group_type(std::string_view type);

}  // namespace rk::parse

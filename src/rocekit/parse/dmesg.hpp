// Parser for the kernel log (`dmesg`, `journalctl -k`, or either filtered through grep), tool
// id "dmesg". It reads the lines rocekit judges and ignores every other line:
//   mlx5_core 0000:41:00.0: firmware version: 16.31.1014
//   mlx5_core 0000:41:00.0: 126.016 Gb/s available PCIe bandwidth (8.0 GT/s PCIe x16 link)
//   mlx5_core 0001:43:00.0: 63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x8
//       link at 0001:42:01.0 (capable of 126.016 Gb/s with 8.0 GT/s PCIe x16 link)
//   pcieport 0000:00:1d.0: AER: Corrected error received: 0000:02:00.0
//   nvme 0000:02:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
// Formats: the bandwidth line is printed by __pcie_print_link_status() in the Linux source
// drivers/pci/pci.c ("%u.%03u Gb/s available PCIe bandwidth, limited by %s x%d link at %s
// (capable of %u.%03u Gb/s with %s x%d link)%s", the last %s ", in Flit mode" on 6.x kernels;
// "%u.%03u Gb/s available PCIe bandwidth (%s x%d link)%s" when not limited); the speed string
// is PCIE_SPEED2STR / pci_speed_string() ("8.0 GT/s PCIe", "Unknown"). mlx5 prints the firmware
// line at probe (drivers/net/ethernet/mellanox/mlx5/core/main.c: mlx5_core_info(dev, "firmware
// version: %d.%d.%d")) and calls pcie_print_link_status() there. AER lines come from
// drivers/pci/pcie/aer.c (aer_print_error(): "PCIe Bus Error: severity=%s, type=%s, (%s)";
// "AER: Corrected error received: %s", on 6.x "AER: Correctable error message received from
// %s"). A line may carry a "[ 13.409473]"
// or "[Sun Dec  1 14:54:40 2024]" stamp or a syslog "May 27 15:47:45 host kernel: " prefix.
// The IOMMU lines (drivers/iommu/iommu.c, pr_fmt "iommu: "): iommu_subsys_init() prints
// "Default domain type: %s %s" (older kernels "%s%s") with the type from iommu_domain_type_str()
// ("Translated" for DMA and DMA-FQ, "Passthrough" for identity, "Blocked", "Unmanaged") and
// "(set via kernel command line)" when a parameter chose it; iommu_group_add_device() prints
// "<driver> <BDF>: Adding to iommu group %d". The boot line "Kernel command line: <cmdline>"
// (init/main.c start_kernel()) holds /proc/cmdline's words.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/parse/proc_cmdline.hpp"

namespace rk::parse {

/// A speed and width as the kernel prints a PCIe link ("8.0 GT/s PCIe x8").
struct DmesgPcieLinkEnd {
  std::optional<double> speed_gts;  ///< nullopt for "Unknown"
  int width_lanes = 0;
};

/// The bandwidth line a driver prints at probe (pcie_print_link_status).
struct DmesgPcieBandwidth {
  std::string device;               ///< the printing device, "dddd:bb:dd.f"
  std::string driver;               ///< the printing driver ("mlx5_core", "pci", ...)
  double available_gbps = 0;
  DmesgPcieLinkEnd available;       ///< the link the available bandwidth is limited by
  bool limited = false;             ///< the ", limited by" form
  std::optional<std::string> limited_at;  ///< BDF of the limiting link's device (may be upstream)
  std::optional<double> capable_gbps;     ///< limited form only
  DmesgPcieLinkEnd capable;         ///< the device's own capability (= available when not limited)
  std::size_t line = 0;
};

/// "firmware version: X" at mlx5 probe.
struct DmesgFirmware {
  std::string device;
  std::string driver;
  std::string version;
  std::size_t line = 0;
};

/// One AER report: "PCIe Bus Error: severity=..., type=..." or "AER: ... error received: <bdf>".
struct DmesgAer {
  std::string device;               ///< the device the line is printed for
  std::string driver;
  std::optional<std::string> severity;  ///< "Corrected", "Uncorrected (Non-Fatal)", "Uncorrected (Fatal)"
  std::optional<std::string> type;      ///< "Physical Layer", "Data Link Layer", "Transaction Layer"
  std::optional<std::string> source;    ///< "error received: <bdf>": the reporting function
  std::size_t line = 0;
};

/// "iommu: Default domain type: Translated (set via kernel command line)".
struct DmesgIommuDomain {
  std::string type;                 ///< "Translated", "Passthrough", "Blocked", "Unmanaged", "Unknown"
  bool set_via_cmdline = false;     ///< "(set via kernel command line)"
  std::size_t line = 0;
};

/// "pci 0000:41:00.0: Adding to iommu group 17".
struct DmesgIommuGroup {
  std::string device;
  unsigned group = 0;
  std::size_t line = 0;
};

/// "Kernel command line: BOOT_IMAGE=... intel_iommu=on".
struct DmesgCmdline {
  std::string cmdline;
  CmdlineIommu iommu;
  std::size_t line = 0;
};

struct DmesgLog {
  std::vector<DmesgFirmware> firmware;
  std::vector<DmesgPcieBandwidth> pcie_bandwidth;
  std::vector<DmesgAer> aer;
  std::optional<DmesgIommuDomain> iommu_default_domain;  ///< the last such line (the latest boot)
  std::vector<DmesgIommuGroup> iommu_groups;
  std::optional<DmesgCmdline> cmdline;                   ///< the last "Kernel command line:"
  std::size_t kernel_lines = 0;     ///< lines of the form "<driver> <BDF>: ..." seen
};

/// Errors when no line has the kernel's "<driver> <BDF>: " form and none is an IOMMU default
/// domain or "Kernel command line:" line.
Result<Parsed<DmesgLog>> parse_dmesg(std::string_view text);
nlohmann::json to_json(const DmesgLog& v);
bool looks_like_dmesg(std::string_view text);

}  // namespace rk::parse

// PCI Express capability from raw PCI configuration space (the sysfs `config` file), decoded by
// hand so that fixtures need no libpci and a live read needs only the file.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::collect {

/// What the PCIe capability (ID 0x10) says. Sizes in bytes, speeds in GT/s, widths in lanes.
struct PcieConfigFacts {
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;
  PcieLinkState link;                         ///< LnkCap, LnkSta, DevCtl/DevCap MaxPayload
  int max_read_request_bytes = 0;             ///< DevCtl bits 14:12: 128 << n
  bool relaxed_ordering = false;              ///< DevCtl bit 4: Enable Relaxed Ordering
  std::size_t capability_offset = 0;          ///< where the PCIe capability starts
  /// The PCIe capability's device/port type (bits 7:4 of its flags), named as lspci does:
  /// "Endpoint", "Root Port", "Upstream Port", "Downstream Port", ...
  std::string port_type;
  std::optional<int> secondary_bus;           ///< type-1 (bridge) header, offset 0x19
  std::optional<int> subordinate_bus;         ///< offset 0x1a
  /// The ACS extended capability (ID 0x000d): control at +6, capability at +4. Missing with
  /// `acs_reason` when there is none or the extended space is not in the file.
  std::optional<PciAcs> acs;
  std::string acs_reason;
  ReasonKind acs_reason_kind = ReasonKind::none;
  /// The ATS extended capability (ID 0x000f): Control register at +6, bit 15 Enable (pciutils
  /// lib/header.h PCI_ATS_CTRL, PCI_ATS_CTRL_ENABLE 0x8000). Missing with `ats_reason` as for ACS.
  std::optional<bool> ats_enabled;
  std::string ats_reason;
  ReasonKind ats_reason_kind = ReasonKind::none;
};

/// Decodes `config` (at least 64 bytes: the header; 256 to reach the capability list).
/// Errors: malformed_input "config space shorter than 64 bytes"; unsupported "no PCI Express
/// capability (conventional PCI function)"; permission_denied "needs root ..." when only the
/// 64-byte header is readable (unprivileged sysfs reads stop there) and the capability pointer
/// points past it; malformed_input for a capability-list loop.
Result<PcieConfigFacts> parse_pcie_config(const std::vector<std::uint8_t>& config);

/// ACS register bits 0..6 (SrcValid .. DirectTrans).
AcsBits acs_bits(std::uint16_t reg);

/// PCIe link speed code (LnkCap/LnkSta bits 3:0) to GT/s: 1 -> 2.5 ... 6 -> 64; nullopt else.
std::optional<double> pcie_speed_gts(unsigned code);

}  // namespace rk::collect

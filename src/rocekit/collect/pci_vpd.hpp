// PCI Vital Product Data (the sysfs `vpd` file, PCI Local Bus spec 3.0 §6.4 / PCIe Base spec
// "VPD"), decoded by hand: the product name (ID string) and the read-only keywords lspci prints
// as "[PN] Part number", "[SN] Serial number", "[EC] Engineering changes", "[V0] ...".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>

#include "rocekit/core/result.hpp"

namespace rk::collect {

struct PciVpd {
  std::optional<std::string> product_name;         ///< large resource 0x82 (ID string)
  std::map<std::string, std::string> read_only;    ///< VPD-R (0x90) keyword -> value, e.g. "PN" -> "MCX416A-CCAT"; RV left out
  bool checksum_ok = false;                        ///< VPD-R "RV" byte makes the sum of bytes 0..RV zero
  bool truncated = false;  ///< the bytes ended inside a resource after the ID string / VPD-R were complete
};

/// Decodes raw VPD bytes up to the end tag (0x78) or the end of `vpd`, whichever is first. A
/// read cut short inside a later resource (the collector reads the first 1 KiB only: VPD reads
/// poll the card dword by dword) keeps what was complete and sets `truncated`. Text is trimmed
/// of spaces and NULs. Errors: malformed_input naming the byte offset ("VPD resource at byte 3
/// (40 bytes) runs past the 12 bytes read", "VPD-R keyword PN at byte 40 runs past its
/// resource"), or "no ID string or VPD-R resource" when neither was found (an empty or
/// all-0xff file: no VPD).
Result<PciVpd> parse_pci_vpd(std::span<const std::uint8_t> vpd);

}  // namespace rk::collect

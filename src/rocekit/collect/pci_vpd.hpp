// PCI Vital Product Data from the sysfs `vpd` file (binary, root-only), decoded by hand: the
// product name and the read-only keywords (PN part number, SN board serial number, EC, V0...).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rocekit/core/result.hpp"

namespace rk::collect {

struct PciVpdFacts {
  std::optional<std::string> product_name;    ///< the ID-string resource (tag 0x82)
  std::map<std::string, std::string> fields;  ///< VPD-R (0x90) keywords -> value, trailing blanks/NULs cut
};

/// Decodes the resource list (PCI Local Bus 3.0 §6.4 / PCIe Base §6.28): large resources
/// (bit 7 set, 16-bit little-endian length), small resources (length in bits 2:0), until the
/// end tag 0x78 or the end of the bytes. VPD-W (0x91) is skipped (writable, not a fact).
/// Errors: malformed_input "VPD is empty" / "VPD resource at byte N runs past the end (L bytes)"
/// / "VPD keyword at byte N runs past its resource".
Result<PciVpdFacts> decode_pci_vpd(const std::vector<std::uint8_t>& vpd);

}  // namespace rk::collect

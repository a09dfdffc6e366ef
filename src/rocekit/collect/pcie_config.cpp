#include "rocekit/collect/pcie_config.hpp"

#include "rocekit/catalog/pcie.hpp"

namespace rk::collect {

namespace {

std::uint16_t u16(const std::vector<std::uint8_t>& c, std::size_t off) {
  return static_cast<std::uint16_t>(c[off] | (c[off + 1] << 8));
}

std::uint32_t u32(const std::vector<std::uint8_t>& c, std::size_t off) {
  return static_cast<std::uint32_t>(u16(c, off)) | (static_cast<std::uint32_t>(u16(c, off + 2)) << 16);
}

std::string port_type_name(unsigned t) {
  // pciutils ls-caps.c cap_express(), PCI_EXP_TYPE_*.
  switch (t) {
    case 0x0: return "Endpoint";
    case 0x1: return "Legacy Endpoint";
    case 0x4: return "Root Port";
    case 0x5: return "Upstream Port";
    case 0x6: return "Downstream Port";
    case 0x7: return "PCI-Express to PCI/PCI-X Bridge";
    case 0x8: return "PCI/PCI-X to PCI-Express Bridge";
    case 0x9: return "Root Complex Integrated Endpoint";
    case 0xa: return "Root Complex Event Collector";
    default: return "Unknown type " + std::to_string(t);
  }
}

/// Walks the extended capability list (PCIe r6.0 §7.6) for ACS (ID 0x000d) and ATS (0x000f).
void read_ext_caps(const std::vector<std::uint8_t>& c, PcieConfigFacts& f) {
  auto both = [&](const std::string& why, ReasonKind k) {
    if (!f.acs) {
      f.acs_reason = why;
      f.acs_reason_kind = k;
    }
    if (!f.ats_enabled) {
      f.ats_reason = why;
      f.ats_reason_kind = k;
    }
  };
  if (c.size() < 0x108) {
    both("config space is " + std::to_string(c.size()) +
             " bytes: the extended capabilities (ACS, ATS) at 0x100 and above are not in it",
         ReasonKind::unreadable);
    return;
  }
  std::size_t off = 0x100;
  for (int hops = 0; hops < 512; ++hops) {
    std::uint32_t h = u32(c, off);
    if (h == 0 || h == 0xffffffff) break;
    if ((h & 0xffff) == 0x000d && !f.acs) {
      PciAcs acs;
      acs.capability = acs_bits(u16(c, off + 4));
      acs.control = acs_bits(u16(c, off + 6));
      f.acs = acs;
    } else if ((h & 0xffff) == 0x000f && !f.ats_enabled) {
      f.ats_enabled = (u16(c, off + 6) & 0x8000) != 0;
    }
    if (f.acs && f.ats_enabled) return;
    std::size_t next = (h >> 20) & 0xffc;
    if (next == 0) break;
    if (next < 0x100 || next + 8 > c.size()) {
      both("extended capability list points outside the extended space", ReasonKind::unreadable);
      return;
    }
    off = next;
  }
  if (!f.acs) {
    f.acs_reason = "no ACS capability: the port cannot redirect peer-to-peer traffic";
    f.acs_reason_kind = ReasonKind::not_applicable;
  }
  if (!f.ats_enabled) {
    f.ats_reason = "no Address Translation Service (ATS) capability";
    f.ats_reason_kind = ReasonKind::not_applicable;
  }
}

}  // namespace

AcsBits acs_bits(std::uint16_t r) {
  AcsBits b;
  b.source_validation = (r & 0x01) != 0;
  b.translation_blocking = (r & 0x02) != 0;
  b.request_redirect = (r & 0x04) != 0;
  b.completion_redirect = (r & 0x08) != 0;
  b.upstream_forwarding = (r & 0x10) != 0;
  b.egress_control = (r & 0x20) != 0;
  b.direct_translated = (r & 0x40) != 0;
  return b;
}

std::optional<double> pcie_speed_gts(unsigned code) {
  // The LnkCap/LnkSta speed code is the PCIe generation (1 = 2.5 GT/s ... 6 = 64 GT/s).
  if (code > 6) return std::nullopt;
  return catalog::raw_gbps_per_lane(static_cast<int>(code));
}

Result<PcieConfigFacts> parse_pcie_config(const std::vector<std::uint8_t>& c) {
  if (c.size() < 64)
    return unexpected(ErrorKind::malformed_input,
                      "config space is " + std::to_string(c.size()) + " bytes, shorter than the 64-byte header");
  PcieConfigFacts f;
  f.vendor_id = u16(c, 0x00);
  f.device_id = u16(c, 0x02);
  std::uint16_t status = u16(c, 0x06);
  if ((c[0x0e] & 0x7f) == 0x01) {  // header type 1: PCI-to-PCI bridge
    f.secondary_bus = c[0x19];
    f.subordinate_bus = c[0x1a];
  }
  if ((status & 0x10) == 0)
    return unexpected(ErrorKind::unsupported, "no capability list (conventional PCI function)");
  std::size_t ptr = c[0x34] & 0xfc;
  for (int hops = 0; ptr != 0; ++hops) {
    if (hops > 48) return unexpected(ErrorKind::malformed_input, "capability list loops");
    if (ptr < 0x40) return unexpected(ErrorKind::malformed_input, "capability pointer inside the header");
    if (ptr + 2 > c.size())
      return unexpected(ErrorKind::permission_denied,
                        "needs root: only " + std::to_string(c.size()) +
                            " bytes of config space are readable (capabilities start at 0x" +
                            [&] {
                              const char* hex = "0123456789abcdef";
                              return std::string{hex[(ptr >> 4) & 0xf], hex[ptr & 0xf]};
                            }() + ")");
    if (c[ptr] == 0x10) {
      if (ptr + 0x14 > c.size())
        return unexpected(ErrorKind::permission_denied,
                          "needs root: the PCIe capability lies beyond the readable config space");
      f.capability_offset = ptr;
      f.port_type = port_type_name((u16(c, ptr + 0x02) >> 4) & 0xf);
      std::uint32_t devcap = u32(c, ptr + 0x04);
      std::uint16_t devctl = u16(c, ptr + 0x08);
      std::uint32_t lnkcap = u32(c, ptr + 0x0c);
      std::uint16_t lnksta = u16(c, ptr + 0x12);
      f.link.max_payload_cap_bytes = 128 << (devcap & 0x7);
      f.link.max_payload_bytes = 128 << ((devctl >> 5) & 0x7);
      f.max_read_request_bytes = 128 << ((devctl >> 12) & 0x7);
      f.relaxed_ordering = (devctl & 0x0010) != 0;
      f.link.capability.speed_gts = pcie_speed_gts(lnkcap & 0xf);
      f.link.capability.width_lanes = static_cast<int>((lnkcap >> 4) & 0x3f);
      f.link.status.speed_gts = pcie_speed_gts(lnksta & 0xf);
      f.link.status.width_lanes = static_cast<int>((lnksta >> 4) & 0x3f);
      // lspci prints "(downgraded)" when the negotiated value is below the capability.
      const PcieLinkEnd& cap = f.link.capability;
      PcieLinkEnd& sta = f.link.status;
      sta.downgraded = (cap.speed_gts && sta.speed_gts && *sta.speed_gts < *cap.speed_gts) ||
                       (cap.width_lanes && sta.width_lanes && *sta.width_lanes < *cap.width_lanes);
      read_ext_caps(c, f);
      return f;
    }
    ptr = c[ptr + 1] & 0xfc;
  }
  return unexpected(ErrorKind::unsupported, "no PCI Express capability (conventional PCI function)");
}

}  // namespace rk::collect

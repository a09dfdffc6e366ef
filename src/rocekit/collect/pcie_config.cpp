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

}  // namespace

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
      std::uint32_t devcap = u32(c, ptr + 0x04);
      std::uint16_t devctl = u16(c, ptr + 0x08);
      std::uint32_t lnkcap = u32(c, ptr + 0x0c);
      std::uint16_t lnksta = u16(c, ptr + 0x12);
      f.link.max_payload_cap_bytes = 128 << (devcap & 0x7);
      f.link.max_payload_bytes = 128 << ((devctl >> 5) & 0x7);
      f.max_read_request_bytes = 128 << ((devctl >> 12) & 0x7);
      f.link.capability.speed_gts = pcie_speed_gts(lnkcap & 0xf);
      f.link.capability.width_lanes = static_cast<int>((lnkcap >> 4) & 0x3f);
      f.link.status.speed_gts = pcie_speed_gts(lnksta & 0xf);
      f.link.status.width_lanes = static_cast<int>((lnksta >> 4) & 0x3f);
      // lspci prints "(downgraded)" when the negotiated value is below the capability.
      const PcieLinkEnd& cap = f.link.capability;
      PcieLinkEnd& sta = f.link.status;
      sta.downgraded = (cap.speed_gts && sta.speed_gts && *sta.speed_gts < *cap.speed_gts) ||
                       (cap.width_lanes && sta.width_lanes && *sta.width_lanes < *cap.width_lanes);
      return f;
    }
    ptr = c[ptr + 1] & 0xfc;
  }
  return unexpected(ErrorKind::unsupported, "no PCI Express capability (conventional PCI function)");
}

}  // namespace rk::collect

#include "rocekit/collect/pci_vpd.hpp"

namespace rk::collect {

namespace {

std::string trimmed(std::span<const std::uint8_t> b) {
  std::size_t n = b.size();
  while (n > 0 && (b[n - 1] == ' ' || b[n - 1] == 0)) --n;
  std::size_t s = 0;
  while (s < n && b[s] == ' ') ++s;
  return std::string(reinterpret_cast<const char*>(b.data()) + s, n - s);
}

}  // namespace

Result<PciVpd> parse_pci_vpd(std::span<const std::uint8_t> v) {
  PciVpd out;
  bool found = false;
  std::size_t pos = 0;
  while (pos < v.size()) {
    const std::uint8_t tag = v[pos];
    if ((tag & 0x80) == 0) {  // small resource: bits 6:3 name, 2:0 length
      if (((tag >> 3) & 0x0f) == 0x0f) break;  // end tag
      pos += 1 + (tag & 0x07u);
      continue;
    }
    if (pos + 3 > v.size() && found) {
      out.truncated = true;
      break;
    }
    if (pos + 3 > v.size())
      return unexpected(ErrorKind::malformed_input,
                        "VPD resource header at byte " + std::to_string(pos) + " runs past the " +
                            std::to_string(v.size()) + " bytes read");
    const std::size_t len = v[pos + 1] | (static_cast<std::size_t>(v[pos + 2]) << 8);
    const std::size_t data = pos + 3;
    if (tag == 0xff) break;  // erased EEPROM / no VPD
    if (data + len > v.size() && found) {
      out.truncated = true;
      break;
    }
    if (data + len > v.size())
      return unexpected(ErrorKind::malformed_input,
                        "VPD resource at byte " + std::to_string(pos) + " (" + std::to_string(len) +
                            " bytes) runs past the " + std::to_string(v.size()) + " bytes read");
    if (tag == 0x82) {
      out.product_name = trimmed(v.subspan(data, len));
      found = true;
    } else if (tag == 0x90) {
      found = true;
      std::size_t k = data;
      while (k + 3 <= data + len) {
        const std::string key(reinterpret_cast<const char*>(v.data()) + k, 2);
        const std::size_t klen = v[k + 2];
        if (k + 3 + klen > data + len)
          return unexpected(ErrorKind::malformed_input,
                            "VPD-R keyword " + key + " at byte " + std::to_string(k) + " runs past its resource");
        if (key == "RV") {
          unsigned sum = 0;
          for (std::size_t i = 0; i <= k + 3; ++i) sum += v[i];
          out.checksum_ok = klen > 0 && (sum & 0xffu) == 0;
        } else {
          out.read_only[key] = trimmed(v.subspan(k + 3, klen));
        }
        k += 3 + klen;
      }
    }
    pos = data + len;
  }
  if (!found) return unexpected(ErrorKind::malformed_input, "no ID string or VPD-R resource");
  return out;
}

}  // namespace rk::collect

#include "rocekit/collect/pci_vpd.hpp"

namespace rk::collect {

namespace {

std::string clean(const std::uint8_t* p, std::size_t n) {
  std::string s(reinterpret_cast<const char*>(p), n);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
  return s;
}

}  // namespace

Result<PciVpdFacts> decode_pci_vpd(const std::vector<std::uint8_t>& vpd) {
  if (vpd.empty()) return unexpected(ErrorKind::malformed_input, "VPD is empty");
  PciVpdFacts out;
  std::size_t i = 0;
  while (i < vpd.size()) {
    std::uint8_t tag = vpd[i];
    std::size_t start = 0, len = 0;
    unsigned name = 0;
    if (tag & 0x80) {  // large resource
      if (i + 3 > vpd.size())
        return unexpected(ErrorKind::malformed_input, "VPD resource at byte " + std::to_string(i) + " runs past the end");
      name = tag;
      len = vpd[i + 1] | (static_cast<std::size_t>(vpd[i + 2]) << 8);
      start = i + 3;
    } else {  // small resource
      name = (tag >> 3) & 0x0f;
      if (name == 0x0f) break;  // end tag 0x78
      len = tag & 0x07;
      start = i + 1;
    }
    if (start + len > vpd.size())
      return unexpected(ErrorKind::malformed_input, "VPD resource at byte " + std::to_string(i) +
                                                        " runs past the end (" + std::to_string(len) + " bytes)");
    if (name == 0x82) {
      out.product_name = clean(&vpd[start], len);
    } else if (name == 0x90) {
      std::size_t k = start, end = start + len;
      while (k + 3 <= end) {
        std::string key = clean(&vpd[k], 2);
        std::size_t n = vpd[k + 2];
        if (k + 3 + n > end)
          return unexpected(ErrorKind::malformed_input,
                            "VPD keyword at byte " + std::to_string(k) + " runs past its resource");
        if (key != "RV") out.fields[key] = clean(&vpd[k + 3], n);  // RV: checksum + padding
        k += 3 + n;
      }
    }
    i = start + len;
  }
  return out;
}

}  // namespace rk::collect

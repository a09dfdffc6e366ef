// libFuzzer target for collect/pci_vpd (the sysfs `vpd` bytes): must never crash or hang.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rocekit/collect/pci_vpd.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  auto r = rk::collect::decode_pci_vpd(bytes);
  if (r) {
    std::size_t n = r->product_name ? r->product_name->size() : 0;
    for (const auto& [k, v] : r->fields) n += k.size() + v.size();
    if (n > size) __builtin_trap();  // decoded text cannot be longer than the input
  }
  return 0;
}

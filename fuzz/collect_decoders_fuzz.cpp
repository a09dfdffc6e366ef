// libFuzzer target for the live collector's binary decoders: PCI configuration space (the sysfs
// `config` file) and PCI Vital Product Data (the sysfs `vpd` file). Built as fuzz_collect_binary.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rocekit/collect/pci_vpd.hpp"
#include "rocekit/collect/pcie_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> bytes(data, size);
  if (rk::Result<rk::collect::PciVpd> v = rk::collect::parse_pci_vpd(bytes)) {
    for (const auto& [key, value] : v->read_only)
      if (key.size() != 2 || value.size() > size) __builtin_trap();
  }
  std::vector<std::uint8_t> config(bytes.begin(), bytes.end());
  if (rk::Result<rk::collect::PcieConfigFacts> f = rk::collect::parse_pcie_config(config)) {
    if (f->capability_offset + 2 > config.size()) __builtin_trap();
  }
  return 0;
}

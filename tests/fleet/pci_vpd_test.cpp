// The live collector fills PciFunction::board_serial_number from the sysfs `vpd` [SN] keyword
// (snapshot schema 2); the decoder itself is tested in tests/collect.
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/collect/collect.hpp"
#include "rocekit/collect/command_runner.hpp"
#include "rocekit/collect/host_view.hpp"
#include "rocekit/collect/pci_vpd.hpp"

namespace fs = std::filesystem;

namespace {

/// The VPD of testdata/corpus/lspci/homelab-host02-cx4-100g-x16-downgraded-x8.txt (lspci's
/// decoding of it: Product Name, [PN] [EC] [SN] [V0], [RV] "checksum good, 2 byte(s)
/// reserved"), encoded back into the resource format the `vpd` file holds.
std::vector<std::uint8_t> cx4_vpd() {
  std::vector<std::uint8_t> v;
  auto large = [&v](std::uint8_t tag, const std::string& data) {
    v.push_back(tag);
    v.push_back(static_cast<std::uint8_t>(data.size() & 0xff));
    v.push_back(static_cast<std::uint8_t>(data.size() >> 8));
    v.insert(v.end(), data.begin(), data.end());
  };
  auto kw = [](const std::string& k, const std::string& val) {
    return k + static_cast<char>(val.size()) + val;
  };
  large(0x82, "CX416A - ConnectX-4 QSFP28");
  large(0x90, kw("PN", "MCX416A-CCAT") + kw("EC", "AG") + kw("SN", "MT0000X00000") +
                  kw("V0", "PCIeGen3 x16") + kw("RV", std::string("\x5a\0\0", 3)));
  v.push_back(0x78);
  return v;
}

}  // namespace

TEST(PciVpd, CollectFillsTheBoardSerialFromSysfsVpd) {
  fs::path root = fs::temp_directory_path() / ("rk-vpd-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::copy(rk::test::testdata_dir() / "sysroots/cx4-100g-pcie-x8", root,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  {
    std::vector<std::uint8_t> v = cx4_vpd();
    std::ofstream out(root / "sys/devices/pci0000:00/0000:00:01.0/0000:81:00.0/vpd", std::ios::binary);
    out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size()));
  }
  rk::collect::NoToolsRunner runner("not requested");
  rk::Snapshot s = rk::collect::collect_snapshot({}, rk::collect::HostView(root), runner);
  const rk::PciFunction* p = s.find_pci("0000:81:00.0");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->board_serial_number, "MT0000X00000");
  EXPECT_EQ(p->vpd_part_number, "MCX416A-CCAT");
  EXPECT_EQ(p->vpd_product_name, "CX416A - ConnectX-4 QSFP28");
  fs::remove_all(root);
}

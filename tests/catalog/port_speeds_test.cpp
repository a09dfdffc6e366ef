#include <gtest/gtest.h>

#include "rocekit/catalog/catalog.hpp"

namespace rk::catalog {
namespace {

struct Case {
  const char* text;
  int ports;
  std::optional<double> eth_gbps;
  std::optional<double> ib_gbps;
};

// Every description string in the corpus (mlxconfig/mlxfwmanager Description, VPD Product Name,
// lspci Subsystem) that names ports and a speed, plus pci.ids subsystem names.
const Case k_cases[] = {
    {"ConnectX-4 Lx EN network interface card; 25GbE dual-port SFP28; PCIe3.0 x8; ROHS R6", 2, 25,
     std::nullopt},
    {"ConnectX-6 Dx EN adapter card; 100GbE; Dual-port QSFP56; PCIe 4.0/3.0 x16;", 2, 100,
     std::nullopt},
    {"Mellanox 25GBE 2P ConnectX-4 Lx Adapter", 2, 25, std::nullopt},
    {"Mellanox ConnectX-4 LX Dual Port 25 GbE SFP Network Adapter", 2, 25, std::nullopt},
    {"ConnectX-4 EN network interface card; 100GbE dual-port QSFP28; PCIe3.0 x16; ROHS R6", 2, 100,
     std::nullopt},
    {"ConnectX-4 Stand-up dual-port 100GbE MCX416A-CCAT", 2, 100, std::nullopt},
    {"ConnectX-4 VPI adapter card; FDR IB (56Gb/s) and 40GbE; dual-port QSFP28; PCIe3.0 x8; "
     "ROHS R6",
     2, 40, 56},
    {"NVIDIA ConnectX-7 HHHL Adapter Card; 400GbE (default mode) / NDR IB; Single-port QSFP112; "
     "Port Split Capable; PCIe 5.0 x16 with x16 PCIe extension option; Crypto Disabled; Secure "
     "Boot Enabled",
     1, 400, 400},
    {"Mellanox ConnectX-4 Single Port EDR PCIE Adapter LP", 1, std::nullopt, 100},
    {"ConnectX-3 VPI adapter card; single-port QSFP; FDR IB (56Gb/s) and 40GigE; PCIe3.0 x8 "
     "8GT/s; RoHS R6",
     1, 40, 56},
    {"MCX4421A-ACQN ConnectX-4 Lx EN OCP,2x25G", 2, 25, std::nullopt},
    {"ConnectX-5 EN network interface card, 10/25GbE dual-port SFP28, PCIe3.0 x8, tall bracket ; "
     "MCX512A-ACAT",
     2, 25, std::nullopt},
    {"MCX416A-BCAT, ConnectX-4 EN, 40/56GbE 2P, PCIe3.0 x16", 2, 56, std::nullopt},
    {"ConnectX-4 Lx EN network interface card, 25GbE single-port SFP28, PCIe3.0 x8, tall bracket, "
     "ROHS R6",
     1, 25, std::nullopt},
};

TEST(PortSpeedsFromText, CorpusDescriptions) {
  for (const Case& c : k_cases) {
    SCOPED_TRACE(c.text);
    auto r = port_speeds_from_text(c.text);
    ASSERT_TRUE(r.has_value()) << r.error().describe();
    EXPECT_EQ(r->port_count, c.ports);
    EXPECT_EQ(r->eth_speed_gbps, c.eth_gbps);
    EXPECT_EQ(r->ib_speed_gbps, c.ib_gbps);
  }
}

TEST(PortSpeedsFromText, TotalsUseTheFasterProtocol) {
  auto vpi = port_speeds_from_text(
      "ConnectX-4 VPI adapter card; FDR IB (56Gb/s) and 40GbE; dual-port QSFP28; PCIe3.0 x8");
  ASSERT_TRUE(vpi.has_value());
  EXPECT_DOUBLE_EQ(vpi->line_rate_gbps(), 56.0);
  EXPECT_DOUBLE_EQ(vpi->total_gbps(), 112.0);
  auto cx4lx = port_speeds_from_text("Mellanox 25GBE 2P ConnectX-4 Lx Adapter");
  ASSERT_TRUE(cx4lx.has_value());
  EXPECT_DOUBLE_EQ(cx4lx->total_gbps(), 50.0);
}

TEST(PortSpeedsFromText, RefusesToGuess) {
  // VPD product name of the MCX416A-CCAT: no port count, no speed.
  auto vpd = port_speeds_from_text("CX416A - ConnectX-4 QSFP28");
  ASSERT_FALSE(vpd.has_value());
  EXPECT_EQ(vpd.error().kind, ErrorKind::not_found);
  EXPECT_NE(vpd.error().message.find("no port count"), std::string::npos);

  auto no_speed = port_speeds_from_text("ConnectX-4 Lx dual-port SFP28; PCIe3.0 x8 8GT/s");
  ASSERT_FALSE(no_speed.has_value());
  EXPECT_NE(no_speed.error().message.find("no port speed"), std::string::npos);

  auto two_counts = port_speeds_from_text("25GbE dual-port SFP28 single-port");
  ASSERT_FALSE(two_counts.has_value());
  EXPECT_EQ(two_counts.error().kind, ErrorKind::malformed_input);

  auto two_speeds = port_speeds_from_text("dual-port 25GbE and 100GbE");
  ASSERT_FALSE(two_speeds.has_value());
  EXPECT_NE(two_speeds.error().message.find("25 and 100"), std::string::npos);

  EXPECT_FALSE(port_speeds_from_text("").has_value());
  EXPECT_FALSE(port_speeds_from_text("   ").has_value());
  // The mlxfwmanager Description of an unrecognised OEM card is empty / N/A.
  EXPECT_FALSE(port_speeds_from_text("N/A").has_value());
}

TEST(PortSpeedsFromText, PcieWidthsAndRatesAreNotPortSpeeds) {
  auto r = port_speeds_from_text("single-port 100GbE; PCIe Gen4 x16 16GT/s; x8 8GT/s");
  ASSERT_TRUE(r.has_value()) << r.error().describe();
  EXPECT_EQ(r->port_count, 1);
  EXPECT_EQ(r->eth_speed_gbps, 100.0);
  EXPECT_EQ(r->ib_speed_gbps, std::nullopt);
  // DDR4 memory is not InfiniBand DDR.
  auto dpu = port_speeds_from_text("BlueField-2 DPU 25GbE dual-port SFP56, 16GB on-board DDR4");
  ASSERT_TRUE(dpu.has_value()) << dpu.error().describe();
  EXPECT_EQ(dpu->ib_speed_gbps, std::nullopt);
}

}  // namespace
}  // namespace rk::catalog

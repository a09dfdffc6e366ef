// mlxlink --port_type PCIE (MFT mlxlink_commander.cpp showPcie()) over real pasted outputs.
#include "rocekit/parse/mlxlink_pcie.hpp"

#include <gtest/gtest.h>

#include "golden.hpp"

namespace rk::parse {
namespace {

// A CX6 OCP3 card behind a converter in a PCIe 4.0 x4 slot: Gen1 x4 of Gen4 x16.
TEST(MlxlinkPcie, DowngradedInAnX4Slot) {
  auto r = parse_mlxlink_pcie(test::corpus_body("mlxlink_pcie/cn-notes-cx6-ocp3-x4-slot-gen1-x4-of-gen4-x16.txt"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->warnings.empty()) << r->warnings.front().message;
  EXPECT_EQ(r->value.depth, 0);
  EXPECT_EQ(r->value.gen_active, 1);
  EXPECT_EQ(r->value.gen_enabled, 4);
  EXPECT_EQ(r->value.width_active, 4);
  EXPECT_EQ(r->value.width_enabled, 16);
  EXPECT_EQ(r->value.speed_line, 6u);  // body lines: the command, a blank, the title, its rule, depth
  EXPECT_TRUE(r->value.counters.empty());
}

// ConnectX-6 Dx at Gen4 x16 with -c: the error counters and the device status.
TEST(MlxlinkPcie, CountersAndDeviceStatus) {
  auto r = parse_mlxlink_pcie(test::corpus_body("mlxlink_pcie/cn-notes-cx6dx-41-00-0-gen4-x16-counters-eye.txt"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->value.gen_active, 4);
  EXPECT_EQ(r->value.width_active, 16);
  EXPECT_EQ(r->value.device_status, "Correctable Error detected, Unsupported Request detected.");
  EXPECT_EQ(r->value.counters.at("TX Errors"), 9u);
  EXPECT_EQ(r->value.counters.at("dl down"), 3u);
  EXPECT_EQ(r->value.counters.at("CRC Error tlp"), 0u);
}

TEST(MlxlinkPcie, GenerationsAndBadInput) {
  auto g6 = parse_mlxlink_pcie("Link Speed Active (Enabled)     : 32G PAM-4 Gen6 (32G PAM-4 Gen6)\nLink Width Active (Enabled)     : 16X (16X)\n");
  ASSERT_TRUE(g6);
  EXPECT_EQ(g6->value.gen_active, 6);
  EXPECT_EQ(pcie_gen_gts(6), 64.0);
  EXPECT_EQ(pcie_gen_gts(1), 2.5);
  EXPECT_FALSE(pcie_gen_gts(7));
  auto na = parse_mlxlink_pcie("Link Speed Active (Enabled)     : N/A (16G-Gen 4)\nLink Width Active (Enabled)     : garbage\n");
  ASSERT_TRUE(na);
  EXPECT_FALSE(na->value.gen_active);
  EXPECT_EQ(na->value.gen_enabled, 4);
  ASSERT_EQ(na->warnings.size(), 1u);  // the width; "N/A" is mlxlink's own word for no speed
  EXPECT_EQ(na->warnings[0].line, 2u);
  EXPECT_FALSE(parse_mlxlink_pcie("Operational Info\nSpeed : 100G\n"));  // the port view, not PCIe
  EXPECT_FALSE(looks_like_mlxlink_pcie("Operational Info\n----------------\nSpeed : 100G\n"));
  EXPECT_TRUE(looks_like_mlxlink_pcie(test::corpus_body("mlxlink_pcie/cn-notes-cx6-ocp3-x16-slot-gen3-x16-of-gen4-x16-eye.txt")));
}

}  // namespace
}  // namespace rk::parse

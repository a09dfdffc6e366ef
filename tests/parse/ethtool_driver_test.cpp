#include "rocekit/parse/ethtool_driver.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<EthtoolDriver>> r = parse_ethtool_driver(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_captures[] = {
    "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt",
    "ethtool_i/cn-notes-cx4lx-eth03-fw14.32.txt",
    "ethtool_i/homelab-host01-cx4lx-inbox-6.8-pve.txt",
    "ethtool_i/homelab-host02-cx4-inbox-fw12.28.txt",
    "../hosts/cx4lx-4port-fw-mismatch/ethtool_i@eth01.txt",
    "../hosts/cx4lx-4port-fw-mismatch/ethtool_i@eth03.txt",
    "../hosts/homelab-host01-cx4lx-fw14.32/ethtool_i@0000:01:00.0.txt",
    "../hosts/homelab-host02-cx4-100g-pcie-x8/ethtool_i@0000:81:00.0.txt",
};

TEST(EthtoolDriverGolden, AllCaptures) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    rk::test::check_golden(path, golden_json);
  }
}

TEST(EthtoolDriver, CapturesParseCleanAndSniff) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    std::string body = rk::test::corpus_body(path);
    Result<Parsed<EthtoolDriver>> r = parse_ethtool_driver(body);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->warnings.empty());
    EXPECT_TRUE(looks_like_ethtool_driver(body));
  }
}

TEST(EthtoolDriver, FirmwareMismatchAcrossCards) {
  Result<Parsed<EthtoolDriver>> a = parse_ethtool_driver(
      rk::test::corpus_body("../hosts/cx4lx-4port-fw-mismatch/ethtool_i@eth01.txt"));
  Result<Parsed<EthtoolDriver>> b = parse_ethtool_driver(
      rk::test::corpus_body("../hosts/cx4lx-4port-fw-mismatch/ethtool_i@eth03.txt"));
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(a->value.driver, "mlx5_core");
  EXPECT_EQ(a->value.version, "5.0-2.1.8");
  EXPECT_EQ(a->value.firmware_version, "14.28.2006");
  EXPECT_EQ(a->value.psid, "MT_2420110034");
  EXPECT_EQ(a->value.bus_info, "0000:2f:00.0");
  EXPECT_EQ(b->value.firmware_version, "14.32.1010");
  EXPECT_EQ(b->value.psid, "MT_2420110034");
  EXPECT_EQ(b->value.bus_info, "0000:30:00.0");
  EXPECT_EQ(a->value.expansion_rom_version, "");  // printed, empty
  EXPECT_EQ(a->value.supports_statistics, true);
  EXPECT_EQ(a->value.supports_eeprom_access, false);
  EXPECT_EQ(a->value.supports_priv_flags, true);
}

TEST(EthtoolDriver, InboxDriverVersionIsKernel) {
  Result<Parsed<EthtoolDriver>> r = parse_ethtool_driver(
      rk::test::corpus_body("../hosts/homelab-host02-cx4-100g-pcie-x8/ethtool_i@0000:81:00.0.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.version, "6.8.12-4-pve");
  EXPECT_EQ(r->value.firmware_version, "12.28.2006");
  EXPECT_EQ(r->value.psid, "MT_2150110033");
  EXPECT_EQ(r->value.bus_info, "0000:81:00.0");
}

TEST(EthtoolDriver, FirmwareWithoutPsidIsKeptWhole) {
  Result<Parsed<EthtoolDriver>> r = parse_ethtool_driver(
      "driver: ice\nversion: 1.9.11\nfirmware-version: 4.20 0x80017d17 1.2904.0\n"
      "bus-info: 0000:17:00.0\nsupports-priv-flags: yes\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.firmware_version, "4.20 0x80017d17 1.2904.0");
  EXPECT_EQ(r->value.psid, std::nullopt);
  EXPECT_EQ(r->value.expansion_rom_version, std::nullopt);  // not printed
}

TEST(EthtoolDriver, EmptyAndForeignAreErrors) {
  EXPECT_FALSE(parse_ethtool_driver("").has_value());
  EXPECT_FALSE(parse_ethtool_driver("NIC statistics:\n").has_value());
}

TEST(EthtoolDriver, Truncated) {
  Result<Parsed<EthtoolDriver>> r =
      parse_ethtool_driver("driver: mlx5_core\nversion: 5.0-2.1.8\nfirmware-version: 14.2");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.driver, "mlx5_core");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
}

TEST(EthtoolDriver, GarbledLineNumber) {
  Result<Parsed<EthtoolDriver>> r = parse_ethtool_driver(
      "driver: mlx5_core\nversion: 5.0\n#### junk\nsupports-test: maybe\n"
      "supports-priv-flags: yes\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_EQ(r->warnings[1].code, "bad_value");
  EXPECT_EQ(r->warnings[1].line, 4u);
}

TEST(EthtoolDriver, CrlfLineEndings) {
  Result<Parsed<EthtoolDriver>> r = parse_ethtool_driver(
      "driver: mlx5_core\r\nfirmware-version: 28.41.1000 (MT_0000000894)\r\n"
      "bus-info: 0000:08:00.0\r\nsupports-priv-flags: yes\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.firmware_version, "28.41.1000");
  EXPECT_EQ(r->value.psid, "MT_0000000894");
  EXPECT_EQ(r->value.bus_info, "0000:08:00.0");
}

TEST(EthtoolDriver, LooksLikeRejectsOtherTools) {
  const char* const others[] = {
      "ethtool_S/cn-notes-cx4lx-grep-discards.txt",
      "ethtool_c/cn-notes-cx4lx-eth03.txt",
      "ethtool_l/cn-notes-eth03-combined16.txt",
      "ethtool_other/homelab-host01-ethtool-g-cx4lx.txt",
      "ethtool_other/homelab-host01-ethtool-settings-cx4lx-25g.txt",
      "misc/devlink-dev-info-cx7-2pf-function-uid.txt",
  };
  for (const char* path : others) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(looks_like_ethtool_driver(rk::test::corpus_body(path)));
  }
}

}  // namespace
}  // namespace rk::parse

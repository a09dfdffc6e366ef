#include "rocekit/parse/flint_query.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<FlintQuery>> r = parse_flint_query(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(FlintQueryGolden, CorpusFiles) {
  for (const char* f : {"flint/homelab-host01-mstflint-q-after-fw14.32.txt",
                        "flint/homelab-host01-mstflint-q-dell-psid-fw14.14.txt",
                        "flint/homelab-host02-mstflint-q-cx4-fw12.28.txt",
                        "flint/ocp-nno-cx7-flint-q-28.43.txt"}) {
    test::check_golden(f, run);
  }
}

// Host-bundle captures are byte-identical to corpus files; they are compared with their twin
// rather than given a golden inside the bundle directory.
TEST(FlintQueryGolden, HostBundleFiles) {
  const std::pair<const char*, const char*> k_twins[] = {
      {"../hosts/homelab-host01-cx4lx-dell-fw14.14/flint_q@0000:01:00.0.txt",
       "flint/homelab-host01-mstflint-q-dell-psid-fw14.14.txt"},
      {"../hosts/homelab-host01-cx4lx-fw14.32/flint_q@0000:01:00.0.txt",
       "flint/homelab-host01-mstflint-q-after-fw14.32.txt"},
      {"../hosts/homelab-host02-cx4-100g-pcie-x8/flint_q@0000:81:00.0.txt",
       "flint/homelab-host02-mstflint-q-cx4-fw12.28.txt"},
  };
  for (const auto& [host, twin] : k_twins) {
    SCOPED_TRACE(host);
    EXPECT_EQ(run(test::corpus_body(host)), run(test::corpus_body(twin)));
  }
}


TEST(FlintQueryBehaviour, DellOemOldFirmware) {
  Result<Parsed<FlintQuery>> r =
      parse_flint_query(test::corpus_body("flint/homelab-host01-mstflint-q-dell-psid-fw14.14.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.fw_version, "14.14.2320");
  EXPECT_EQ(r->value.psid, "DEL2420110034");
  EXPECT_EQ(r->value.fw_release_date, "10.5.2016");
  EXPECT_EQ(r->value.product_version, "rel-14_14_2320");
  ASSERT_EQ(r->value.rom_info.size(), 2u);
  EXPECT_EQ(r->value.rom_info[1].type, "PXE");
  EXPECT_EQ(r->value.base_mac_count, 8u);
  EXPECT_FALSE(r->value.invalid_fw_version);
}

TEST(FlintQueryBehaviour, RunningVersionAndInvalidStoredImage) {
  std::string text =
      "Image type:            FS4\r\n"
      "FW Version:            255.255.65535\r\n"
      "FW Version(Running):   28.39.1002\r\n"
      "Default Update Method: fw_ctrl\r\n"
      "PSID:                  MT_0000000834\r\n";
  Result<Parsed<FlintQuery>> r = parse_flint_query(text);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->value.fw_version_running, "28.39.1002");
  EXPECT_TRUE(r->value.invalid_fw_version);
  ASSERT_EQ(r->value.other_fields.size(), 1u);
  EXPECT_EQ(r->value.other_fields[0].name, "Default Update Method");
}

TEST(FlintQueryBehaviour, TruncatedAndGarbage) {
  EXPECT_FALSE(parse_flint_query("").has_value());
  EXPECT_FALSE(parse_flint_query("nothing to see\n").has_value());
  Result<Parsed<FlintQuery>> r =
      parse_flint_query("Image type:  FS3\nFW Version:  14.32.1900\n@@@@\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_EQ(r->warnings[1].code, "truncated");
}

}  // namespace
}  // namespace rk::parse

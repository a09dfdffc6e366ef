#include "rocekit/parse/mlxfwmanager.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<Mlxfwmanager>> r = parse_mlxfwmanager(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(MlxfwmanagerGolden, CorpusFiles) {
  for (const char* f : {"flint/cn-blog-mlxfwmanager-dell-psid.txt",
                        "flint/homelab-host01-mlxfwmanager-dell-cx4lx.txt",
                        "flint/homelab-host02-mlxfwmanager-cx4.txt",
                        "flint/jiegec-mlxfwmanager-abridged-cx3-2.36.txt",
                        "flint/jiegec-mlxfwmanager-abridged-cx4-vpi-12.25.txt",
                        "flint/jiegec-mlxfwmanager-abridged-dell-cx4-edr-old-fw.txt",
                        "flint/ocp-nno-mlxup-cx7-2dev-mst-names-28.42-update-required.txt"}) {
    test::check_golden(f, run);
  }
}

// Host-bundle captures are byte-identical to corpus files; they are compared with their twin
// rather than given a golden inside the bundle directory.
TEST(MlxfwmanagerGolden, HostBundleFiles) {
  const std::pair<const char*, const char*> k_twins[] = {
      {"../hosts/homelab-host01-cx4lx-dell-fw14.14/mlxfwmanager@0000:01:00.0.txt",
       "flint/homelab-host01-mlxfwmanager-dell-cx4lx.txt"},
      {"../hosts/homelab-host02-cx4-100g-pcie-x8/mlxfwmanager@0000:81:00.0.txt",
       "flint/homelab-host02-mlxfwmanager-cx4.txt"},
      {"../hosts/sn2410-host-eth4-qos-truncated/mlxfwmanager@0000:06:00.0.txt",
       "flint/cn-blog-mlxfwmanager-dell-psid.txt"},
  };
  for (const auto& [host, twin] : k_twins) {
    SCOPED_TRACE(host);
    EXPECT_EQ(run(test::corpus_body(host)), run(test::corpus_body(twin)));
  }
}


TEST(MlxfwmanagerBehaviour, Host02NoMatchingImage) {
  Result<Parsed<Mlxfwmanager>> r =
      parse_mlxfwmanager(test::corpus_body("flint/homelab-host02-mlxfwmanager-cx4.txt"));
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.devices.size(), 1u);
  const FwManagerDevice& d = r->value.devices[0];
  EXPECT_EQ(d.index, 1u);
  EXPECT_EQ(d.part_number, "MCX416A-CCA_Ax");
  EXPECT_EQ(d.pci_device_name, "0000:81:00.0");
  EXPECT_EQ(d.status, FwManagerStatus::no_matching_image);
  ASSERT_EQ(d.versions.size(), 3u);
  EXPECT_EQ(d.versions[0].component, "FW");
  EXPECT_EQ(d.versions[0].current, "12.28.2006");
  EXPECT_EQ(d.versions[0].available, "N/A");
}

TEST(MlxfwmanagerBehaviour, TruncatedOemCaptureWithNa) {
  Result<Parsed<Mlxfwmanager>> r =
      parse_mlxfwmanager(test::corpus_body("flint/cn-blog-mlxfwmanager-dell-psid.txt"));
  ASSERT_TRUE(r.has_value());
  const FwManagerDevice& d = r->value.devices.at(0);
  EXPECT_EQ(d.device_type, "N/A");
  EXPECT_EQ(d.description, "");
  EXPECT_EQ(d.psid, "DEL2420110034");
  EXPECT_FALSE(d.status.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
}

TEST(MlxfwmanagerBehaviour, TwoDevicesUpdateRequiredCrlf) {
  std::string text =
      "Device #1:\r\n----------\r\n  Device Type:      ConnectX6DX\r\n  PSID:  MT_0000000359\r\n"
      "  Versions:         Current        Available\r\n     FW  22.31.1014  22.39.2048\r\n"
      "  Status:           Update required\r\n\r\n"
      "Device #2:\r\n----------\r\n  Device Type:      ConnectX6DX\r\n  PSID:  MT_0000000359\r\n"
      "  Status:           Up to date\r\n";
  Result<Parsed<Mlxfwmanager>> r = parse_mlxfwmanager(text);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.devices.size(), 2u);
  EXPECT_EQ(r->value.devices[0].status, FwManagerStatus::update_required);
  EXPECT_EQ(r->value.devices[0].versions.at(0).available, "22.39.2048");
  EXPECT_EQ(r->value.devices[1].status, FwManagerStatus::up_to_date);
  EXPECT_TRUE(r->warnings.empty());
}

TEST(MlxfwmanagerBehaviour, ErrorsAndGarbage) {
  EXPECT_FALSE(parse_mlxfwmanager("").has_value());
  EXPECT_FALSE(parse_mlxfwmanager("no fields here\n").has_value());
  Result<Parsed<Mlxfwmanager>> r = parse_mlxfwmanager("PSID: X\n???\nStatus: Up to date\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].line, 2u);
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/devlink_dev_info.hpp"

#include <gtest/gtest.h>

#include <optional>

#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<DevlinkDevInfo>> r = parse_devlink_dev_info(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_captures[] = {
    "misc/devlink-dev-info-cx7-2pf-function-uid.txt",
    "misc/devlink-dev-info-mlx5-no-data-available.txt",
};

TEST(DevlinkDevInfoGolden, AllCaptures) {
  for (const char* path : k_captures) {
    SCOPED_TRACE(path);
    rk::test::check_golden(path, golden_json);
    // An error-only capture ("kernel answers: No data available") is known by its prompt line.
    std::string text = rk::test::read_file(rk::test::testdata_dir() / "corpus" / path);
    CaptureText ct = strip_capture_header(text);
    std::optional<PromptCommand> pc = parse_prompt_line(ct.prompt_line);
    EXPECT_TRUE(looks_like_devlink_dev_info(ct.body) || (pc && pc->tool == "devlink_dev_info"));
  }
}

TEST(DevlinkDevInfo, Cx7TwoPfsWithAuxDevices) {
  Result<Parsed<DevlinkDevInfo>> r = parse_devlink_dev_info(
      rk::test::corpus_body("misc/devlink-dev-info-cx7-2pf-function-uid.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  const std::vector<DevlinkDevice>& d = r->value.devices;
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].bus, "pci");
  EXPECT_EQ(d[0].name, "0000:08:00.0");
  EXPECT_EQ(d[0].driver, "mlx5_core");
  EXPECT_EQ(d[0].board_serial_number, "MT0000XZ00AA");
  EXPECT_EQ(d[0].function_uid, "MT0000XZ00AAMLNXS0D0F0");
  EXPECT_EQ(find_version(d[0].fixed, "fw.psid"), "MT_0000000894");
  EXPECT_EQ(find_version(d[0].running, "fw.version"), "28.41.1000");
  EXPECT_EQ(find_version(d[0].stored, "fw.version"), "28.41.1000");
  EXPECT_EQ(d[0].running.size(), 2u);
  EXPECT_EQ(d[1].bus, "auxiliary");
  EXPECT_EQ(d[1].name, "mlx5_core.eth.0");
  EXPECT_EQ(d[1].driver, "mlx5_core.eth");
  EXPECT_TRUE(d[1].running.empty());
  EXPECT_EQ(d[2].name, "0000:08:00.1");
  EXPECT_EQ(d[2].function_uid, "MT0000XZ00AAMLNXS0D0F1");
  EXPECT_EQ(r->value.kernel_error, std::nullopt);
}

TEST(DevlinkDevInfo, NoDataAvailable) {
  Result<Parsed<DevlinkDevInfo>> r = parse_devlink_dev_info(
      rk::test::corpus_body("misc/devlink-dev-info-mlx5-no-data-available.txt"));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->value.devices.empty());
  EXPECT_EQ(r->value.kernel_error, "No data available");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "tool_error");
}

TEST(DevlinkDevInfo, EmptyAndForeignAreErrors) {
  EXPECT_FALSE(parse_devlink_dev_info("").has_value());
  EXPECT_FALSE(parse_devlink_dev_info("driver: mlx5_core\n").has_value());
}

TEST(DevlinkDevInfo, Truncated) {
  Result<Parsed<DevlinkDevInfo>> r = parse_devlink_dev_info(
      "pci/0000:08:00.0:\n  driver mlx5_core\n  versions:\n      fixed:\n        fw.psid MT_1\n"
      "      running:\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.devices.size(), 1u);
  EXPECT_EQ(find_version(r->value.devices[0].fixed, "fw.psid"), "MT_1");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
  Result<Parsed<DevlinkDevInfo>> r2 = parse_devlink_dev_info("pci/0000:08:00.0:\n");
  ASSERT_TRUE(r2.has_value());
  ASSERT_EQ(r2->warnings.size(), 1u);
  EXPECT_EQ(r2->warnings[0].code, "truncated");
}

TEST(DevlinkDevInfo, GarbledLineNumber) {
  Result<Parsed<DevlinkDevInfo>> r = parse_devlink_dev_info(
      "pci/0000:08:00.0:\n  driver mlx5_core\nrandom words here\n  lonely\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[0].line, 3u);
  EXPECT_EQ(r->warnings[1].line, 4u);
}

TEST(DevlinkDevInfo, CrlfLineEndings) {
  Result<Parsed<DevlinkDevInfo>> r = parse_devlink_dev_info(
      "pci/0000:81:00.0:\r\n  driver mlx5_core\r\n  versions:\r\n      fixed:\r\n"
      "        fw.psid MT_2150110033\r\n      running:\r\n        fw.version 12.28.2006\r\n"
      "      stored:\r\n        fw.version 12.28.2302\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.devices.size(), 1u);
  const DevlinkDevice& d = r->value.devices[0];
  EXPECT_EQ(d.name, "0000:81:00.0");
  // running != stored: a flashed image waits for a reset.
  EXPECT_EQ(find_version(d.running, "fw.version"), "12.28.2006");
  EXPECT_EQ(find_version(d.stored, "fw.version"), "12.28.2302");
}

TEST(DevlinkDevInfo, LooksLikeRejectsOtherTools) {
  const char* const others[] = {
      "ethtool_S/cn-notes-cx4lx-grep-discards.txt",
      "ethtool_c/cn-notes-cx4lx-eth03.txt",
      "ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt",
      "ethtool_other/homelab-host01-ethtool-settings-cx4lx-25g.txt",
      "misc/rdma-notes-rdma-res-show.txt",
      "misc/jiegec-mst-status-redacted.txt",
  };
  for (const char* path : others) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(looks_like_devlink_dev_info(rk::test::corpus_body(path)));
  }
}

}  // namespace
}  // namespace rk::parse

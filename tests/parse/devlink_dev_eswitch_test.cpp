#include "rocekit/parse/devlink_dev_eswitch.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<DevlinkEswitches>> r = parse_devlink_dev_eswitch(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_arm = "devlink_dev_eswitch/openshellbf-bf3-arm-devlink-dev-eswitch-show-ecpf-switchdev.txt";
const char* const k_host_dpu =
    "devlink_dev_eswitch/openshellbf-bf3-host-devlink-dev-eswitch-show-not-supported.txt";
const char* const k_tripleo =
    "devlink_dev_eswitch/tripleo-cx6dx-host-devlink-dev-eswitch-show-switchdev-encap-enable.txt";
const char* const k_legacy = "devlink_dev_eswitch/onedeploy-cx4lx-host-devlink-dev-eswitch-show-legacy-inline-link.txt";
const char* const k_i40e = "devlink_dev_eswitch/sriovdp-pr395-i40e-devlink-dev-eswitch-show-no-such-device.txt";

TEST(DevlinkEswitchGolden, AllCaptures) {
  for (const char* path : {k_arm, k_host_dpu, k_tripleo, k_legacy, k_i40e}) {
    SCOPED_TRACE(path);
    rk::test::check_golden(path, golden_json);
  }
  // The outputs are claimed by the sniff; a bare kernel answer is not (it could be any devlink
  // command's): its file name or prompt says which tool it is.
  for (const char* path : {k_arm, k_tripleo, k_legacy}) EXPECT_TRUE(looks_like_devlink_dev_eswitch(rk::test::corpus_body(path))) << path;
  for (const char* path : {k_host_dpu, k_i40e}) EXPECT_FALSE(looks_like_devlink_dev_eswitch(rk::test::corpus_body(path))) << path;
}

// The Arm side of a BlueField-3 in DPU mode: the ECPF manages the embedded switch.
TEST(DevlinkEswitch, BlueFieldArmEcpfInSwitchdevMode) {
  Result<Parsed<DevlinkEswitches>> r = parse_devlink_dev_eswitch(rk::test::corpus_body(k_arm));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.devices.size(), 1u);
  const DevlinkEswitch& d = r->value.devices[0];
  EXPECT_EQ(d.line, 1u);
  EXPECT_EQ(d.bus, "pci");
  EXPECT_EQ(d.device, "0000:03:00.0");
  EXPECT_EQ(d.mode, "switchdev");
  EXPECT_EQ(d.inline_mode, "none");
  EXPECT_EQ(d.encap_mode, "basic");
  EXPECT_TRUE(d.other.empty());
  EXPECT_FALSE(r->value.kernel_error.has_value());
}

// The host PF of the same card: the kernel refuses, the Arm side manages the switch.
TEST(DevlinkEswitch, BlueFieldHostPfAnswersNotSupported) {
  Result<Parsed<DevlinkEswitches>> r = parse_devlink_dev_eswitch(rk::test::corpus_body(k_host_dpu));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->value.devices.empty());
  EXPECT_EQ(r->value.kernel_error, "Operation not supported");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "tool_error");
  // Older iproute2 spells it `devlink answers:`.
  Result<Parsed<DevlinkEswitches>> old = parse_devlink_dev_eswitch(rk::test::corpus_body(k_i40e));
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->value.kernel_error, "No such device");
}

// Before iproute2 0b1875cd (2020-04) the encap mode printed as `encap enable|disable`: two PFs
// of a host ConnectX-6 Dx in switchdev mode (vDPA with VF representors).
TEST(DevlinkEswitch, OlderEncapEnableReadsAsBasic) {
  Result<Parsed<DevlinkEswitches>> r = parse_devlink_dev_eswitch(rk::test::corpus_body(k_tripleo));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.devices.size(), 2u);
  EXPECT_EQ(r->value.devices[0].device, "0000:06:00.0");
  EXPECT_EQ(r->value.devices[1].device, "0000:06:00.1");
  EXPECT_EQ(r->value.devices[1].line, 2u);
  for (const DevlinkEswitch& d : r->value.devices) {
    EXPECT_EQ(d.mode, "switchdev");
    EXPECT_EQ(d.inline_mode, "none");
    EXPECT_EQ(d.encap_mode, "basic");
  }
}

TEST(DevlinkEswitch, LegacyModeWithLinkInlineMode) {
  Result<Parsed<DevlinkEswitches>> r = parse_devlink_dev_eswitch(rk::test::corpus_body(k_legacy));
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.devices.size(), 1u);
  EXPECT_EQ(r->value.devices[0].device, "0000:c1:00.1");
  EXPECT_EQ(r->value.devices[0].mode, "legacy");
  EXPECT_EQ(r->value.devices[0].inline_mode, "link");
  EXPECT_EQ(r->value.devices[0].encap_mode, "basic");
}

// The -j form. Constructed, not a real output (no public `devlink -j dev eswitch show` output
// was found, 2026-12-06): the BlueField-3 Arm line above written as pr_out_eswitch() prints it
// with -j (pr_out_section_start "dev", the handle as the object key, print_string(PRINT_ANY,
// "mode" / "inline-mode" / "encap-mode")), once compact and once pretty (-jp).
TEST(DevlinkEswitch, JsonForm) {
  const char* compact =
      "{\"dev\":{\"pci/0000:03:00.0\":{\"mode\":\"switchdev\",\"inline-mode\":\"none\",\"encap-mode\":\"basic\"}}}\n";
  const char* pretty =
      "$ devlink -jp dev eswitch show pci/0000:03:00.0\n"
      "{\n"
      "    \"dev\": {\n"
      "        \"pci/0000:03:00.0\": {\n"
      "            \"mode\": \"switchdev\",\n"
      "            \"inline-mode\": \"none\",\n"
      "            \"encap-mode\": \"basic\"\n"
      "        }\n"
      "    }\n"
      "}\n";
  for (const char* text : {compact, pretty}) {
    SCOPED_TRACE(text);
    EXPECT_TRUE(looks_like_devlink_dev_eswitch(text));
    Result<Parsed<DevlinkEswitches>> r = parse_devlink_dev_eswitch(text);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->warnings.empty());
    ASSERT_EQ(r->value.devices.size(), 1u);
    const DevlinkEswitch& d = r->value.devices[0];
    EXPECT_EQ(d.device, "0000:03:00.0");
    EXPECT_EQ(d.mode, "switchdev");
    EXPECT_EQ(d.inline_mode, "none");
    EXPECT_EQ(d.encap_mode, "basic");
    EXPECT_EQ(d.line, text == compact ? 1u : 4u);
  }
  // `devlink -j dev show` (no eswitch attributes) is another command's output.
  EXPECT_FALSE(looks_like_devlink_dev_eswitch("{\"dev\":{\"pci/0000:03:00.0\":{}}}\n"));
}

// Values iproute2 does not print are warned about, not taken; `<unknown mode>` is what it prints
// for a kernel value it does not know (eswitch_mode_name's default).
TEST(DevlinkEswitch, UnknownValuesWarn) {
  Result<Parsed<DevlinkEswitches>> r =
      parse_devlink_dev_eswitch("pci/0000:03:00.0: mode <unknown mode> inline-mode none encap-mode bogus\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->value.devices.size(), 1u);
  EXPECT_FALSE(r->value.devices[0].mode.has_value());
  EXPECT_EQ(r->value.devices[0].inline_mode, "none");
  EXPECT_FALSE(r->value.devices[0].encap_mode.has_value());
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_EQ(r->warnings[0].message, "mode '<unknown mode>'");
  EXPECT_EQ(r->warnings[1].message, "encap-mode 'bogus'");
  EXPECT_FALSE(parse_devlink_dev_eswitch("pci/0000:03:00.0/196608: type eth netdev pf0hpf\n").has_value());
  EXPECT_FALSE(parse_devlink_dev_eswitch("").has_value());
}

TEST(DevlinkEswitch, PromptNamesTheToolAndTheFunction) {
  std::optional<PromptCommand> c = parse_prompt_line("$ sudo devlink dev eswitch show pci/0000:03:00.0");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->tool, "devlink_dev_eswitch");
  EXPECT_EQ(c->target, "0000:03:00.0");
  EXPECT_FALSE(parse_prompt_line("$ devlink dev eswitch set pci/0000:03:00.0 mode switchdev").has_value());
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/devlink_port.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
namespace {

nlohmann::json golden_json(std::string_view body) {
  Result<Parsed<DevlinkPorts>> r = parse_devlink_port(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

const char* const k_nova = "devlink_port/novaspecs-bf-arm-devlink-port-show-p0-pf0hpf-pf0vf0-3-no-controller.txt";
const char* const k_patch = "devlink_port/mlx5-patch-bf-arm-devlink-port-show-pf0hpf-controller1-external.txt";

TEST(DevlinkPortGolden, AllCaptures) {
  for (const char* path : {k_nova, k_patch}) {
    SCOPED_TRACE(path);
    rk::test::check_golden(path, golden_json);
    EXPECT_TRUE(looks_like_devlink_port(rk::test::corpus_body(path)));
  }
}

// The Arm side of a BlueField in DPU mode on an older kernel: one line per port.
TEST(DevlinkPort, ArmSideUplinksAndRepresentors) {
  Result<Parsed<DevlinkPorts>> r = parse_devlink_port(rk::test::corpus_body(k_nova));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  const std::vector<DevlinkPort>& p = r->value.ports;
  ASSERT_EQ(p.size(), 12u);
  EXPECT_EQ(p[0].bus, "pci");
  EXPECT_EQ(p[0].device, "0000:03:00.0");
  EXPECT_EQ(p[0].index, 262143u);
  EXPECT_EQ(p[0].type, "eth");
  EXPECT_EQ(p[0].netdev, "p0");
  EXPECT_EQ(p[0].flavour, "physical");
  EXPECT_EQ(p[0].port, 0u);
  EXPECT_FALSE(p[0].pfnum.has_value());
  EXPECT_EQ(p[0].line, 1u);
  EXPECT_EQ(p[1].netdev, "pf0hpf");
  EXPECT_EQ(p[1].flavour, "pcipf");
  EXPECT_EQ(p[1].pfnum, 0u);
  EXPECT_FALSE(p[1].controller.has_value());  // no controller/external on this kernel
  EXPECT_FALSE(p[1].external.has_value());
  EXPECT_FALSE(p[1].function.has_value());
  EXPECT_EQ(p[5].netdev, "pf0vf3");
  EXPECT_EQ(p[5].flavour, "pcivf");
  EXPECT_EQ(p[5].vfnum, 3u);
  EXPECT_EQ(p[6].device, "0000:03:00.1");
  EXPECT_EQ(p[6].index, 327679u);
  EXPECT_EQ(p[6].netdev, "p1");
  EXPECT_EQ(p[6].port, 1u);
  EXPECT_EQ(p[7].netdev, "pf1hpf");
  EXPECT_EQ(p[7].pfnum, 1u);
}

// A newer kernel: attributes on continuation lines and the `function:` object with the host
// PF's RoCE capability.
TEST(DevlinkPort, HostPfRepresentorWithFunctionRoce) {
  Result<Parsed<DevlinkPorts>> r = parse_devlink_port(rk::test::corpus_body(k_patch));
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(r->value.ports.size(), 1u);
  const DevlinkPort& p = r->value.ports[0];
  EXPECT_EQ(p.index, 196608u);
  EXPECT_EQ(p.netdev, "pf0hpf");
  EXPECT_EQ(p.flavour, "pcipf");
  EXPECT_EQ(p.controller, 1u);
  EXPECT_EQ(p.pfnum, 0u);
  EXPECT_EQ(p.external, true);
  EXPECT_EQ(p.splittable, false);
  ASSERT_TRUE(p.function.has_value());
  EXPECT_EQ(p.function->hw_addr, "b8:3f:d2:00:00:01");
  EXPECT_EQ(p.function->roce, true);
  EXPECT_EQ(p.function->max_io_eqs, 120u);
  EXPECT_TRUE(p.other.empty());
}

TEST(DevlinkPort, FunctionStatesAndNestedDevlink) {
  // Attribute order as pr_out_port_function prints it; the nested handle as an `other` pair.
  Result<Parsed<DevlinkPorts>> r = parse_devlink_port(
      "pci/0000:03:00.0/229409: type eth netdev en3f0pf0sf88 flavour pcisf controller 0 pfnum 0 "
      "sfnum 88 splittable false\n"
      "  function:\n"
      "    hw_addr 00:00:00:00:00:00 state inactive opstate detached roce disable\n"
      "    nested_devlink:\n"
      "      auxiliary/mlx5_core.sf.4\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->warnings.empty());
  const DevlinkPort& p = r->value.ports.at(0);
  EXPECT_EQ(p.sfnum, 88u);
  EXPECT_EQ(p.controller, 0u);
  EXPECT_EQ(p.function->state, "inactive");
  EXPECT_EQ(p.function->opstate, "detached");
  EXPECT_EQ(p.function->roce, false);
  ASSERT_EQ(p.function->other.size(), 1u);
  EXPECT_EQ(p.function->other[0].second, "auxiliary/mlx5_core.sf.4");
}

TEST(DevlinkPort, BadInputIsNamedByLine) {
  EXPECT_FALSE(parse_devlink_port("").has_value());
  EXPECT_FALSE(parse_devlink_port("driver: mlx5_core\n").has_value());
  EXPECT_FALSE(parse_devlink_port("pci/0000:03:00.0:\n  driver mlx5_core\n").has_value());
  Result<Parsed<DevlinkPorts>> r = parse_devlink_port(
      "pci/0000:03:00.0/1: type eth netdev p0 flavour physical port x\n"
      "garbage at column 0\n"
      "  pfnum\n"
      "  external maybe\n");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 4u);
  EXPECT_EQ(r->warnings[0].code, "bad_number");
  EXPECT_EQ(r->warnings[0].line, 1u);
  EXPECT_EQ(r->warnings[1].code, "unrecognised_line");
  EXPECT_EQ(r->warnings[1].line, 2u);
  EXPECT_EQ(r->warnings[2].code, "bad_pair");
  EXPECT_EQ(r->warnings[2].line, 3u);
  EXPECT_EQ(r->warnings[3].code, "bad_value");
  EXPECT_EQ(r->warnings[3].line, 4u);
  Result<Parsed<DevlinkPorts>> e = parse_devlink_port("kernel answers: Operation not supported\n");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->value.kernel_error, "Operation not supported");
}

TEST(DevlinkPort, SniffAndPrompt) {
  EXPECT_TRUE(looks_like_devlink_port("$ devlink port show\npci/0000:03:00.0/1: type eth netdev p0\n"));
  // devlink dev info opens with a bare device handle: not a port.
  EXPECT_FALSE(looks_like_devlink_port("pci/0000:08:00.0:\n  driver mlx5_core\n"));
  EXPECT_FALSE(looks_like_devlink_port("pci/0000:03:00.0: mode switchdev inline-mode none encap enable\n"));
  std::optional<PromptCommand> pc = parse_prompt_line("$ sudo devlink port show pci/0000:03:00.0/196608");
  ASSERT_TRUE(pc.has_value());
  EXPECT_EQ(pc->tool, "devlink_port");
  EXPECT_FALSE(parse_prompt_line("$ devlink port function set pci/0000:03:00.0/1 roce disable").has_value());
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/common.hpp"
#include "rocekit/parse/prompt.hpp"

#include <gtest/gtest.h>

namespace rk::parse {

TEST(StripCaptureHeader, ThreeLineHeader) {
  CaptureText t = strip_capture_header("# source: x\n# notes: y\n# ---\nline1\nline2\n");
  EXPECT_EQ(t.body, "line1\nline2\n");
  EXPECT_EQ(t.body_first_line, 4u);
}

TEST(StripCaptureHeader, NoHeaderIsWholeBody) {
  CaptureText t = strip_capture_header("# comment but no end\nx\n");
  EXPECT_EQ(t.body, "# comment but no end\nx\n");
  EXPECT_EQ(t.body_first_line, 1u);
}

}  // namespace rk::parse

namespace rk::parse {

TEST(PromptLine, RecognisesPromptsAndTools) {
  auto a = parse_prompt_line("$ sudo mlnx_qos -i eth4");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->tool, "mlnx_qos");
  EXPECT_EQ(a->target, "eth4");
  EXPECT_EQ(a->command, "sudo mlnx_qos -i eth4");
  auto b = parse_prompt_line("[root@gpu01 ~]# ethtool -S ens1f0np0 | grep prio");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->tool, "ethtool_S");
  EXPECT_EQ(b->target, "ens1f0np0");
  auto c = parse_prompt_line("user@host:~/x$ sudo -E mstconfig -d 0000:81:00.0 -e q");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->tool, "mlxconfig_q");
  EXPECT_EQ(c->target, "0000:81:00.0");
  auto d = parse_prompt_line("# ethtool --show-coalesce eth2");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->tool, "ethtool_c");
  EXPECT_EQ(d->target, "eth2");
  auto e = parse_prompt_line("$ lspci -vvv -s 81:00.0\r");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tool, "lspci_vvv");
  EXPECT_EQ(e->target, "81:00.0");
}

TEST(PromptLine, RejectsCommentsAndOtherCommands) {
  EXPECT_FALSE(parse_prompt_line("# notes: mlnx_qos output"));
  EXPECT_FALSE(parse_prompt_line("$ ls -l"));
  EXPECT_FALSE(parse_prompt_line("$ ethtool -K eth0 tso off"));  // a mode rocekit does not parse
  EXPECT_FALSE(parse_prompt_line("DCBX mode: OS controlled"));
  EXPECT_FALSE(parse_prompt_line("$"));
  EXPECT_FALSE(parse_prompt_line("$ sudo"));
}

TEST(StripCaptureHeader, MovesALeadingPromptOutOfTheBody) {
  CaptureText t = strip_capture_header("# source: x\n# ---\n$ sudo mlnx_qos -i eth4\nDCBX mode: OS controlled\n");
  EXPECT_EQ(t.prompt_line, "$ sudo mlnx_qos -i eth4");
  EXPECT_EQ(t.body, "DCBX mode: OS controlled\n");
  EXPECT_EQ(t.body_first_line, 4u);
}

TEST(StripCaptureHeader, KeepsMultiCommandTranscripts) {
  const char* text = "$ sudo cma_roce_mode -d mlx5_0 -p 1\nIB/RoCE v1\n$ sudo cma_roce_mode -d mlx5_0 -p 1 -m 2\nRoCE v2\n";
  CaptureText t = strip_capture_header(text);
  EXPECT_EQ(t.prompt_line, "");
  EXPECT_EQ(t.body, text);
}

}  // namespace rk::parse

// uname and /proc/driver/nvidia/version: the pasted forms people post, and the broken ones.
#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/parse/nvidia_smi_topo.hpp"
#include "rocekit/parse/nvidia_version.hpp"
#include "rocekit/parse/prompt.hpp"
#include "rocekit/parse/uname.hpp"

namespace rk::parse {
namespace {

constexpr const char* k_open =
    "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  555.42.02  Release Build  "
    "(dvs-builder@U16-I3-A03-02-4)  Mon May 13 17:10:33 UTC 2024\n";
constexpr const char* k_proprietary = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  515.76  Mon Sep 12 19:21:56 UTC 2022\n";

TEST(Uname, ReleaseBelowAPastedPrompt) {
  auto r = parse_uname("root@gpu01:~# uname -r\n6.8.0-1013-nvidia-64k\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->value.release, "6.8.0-1013-nvidia-64k");
  EXPECT_EQ(r->value.major, 6);
  EXPECT_EQ(r->value.minor, 8);
  EXPECT_EQ(r->value.line, 2u);
  EXPECT_TRUE(r->warnings.empty());
}

TEST(Uname, DashAWithBracketPrompt) {
  auto r = parse_uname(
      "[root@node1 ~]# uname -a\n"
      "Linux node1 5.14.0-362.8.1.el9_3.x86_64 #1 SMP PREEMPT_DYNAMIC Tue Nov 7 14:54:22 EST 2023 x86_64 x86_64 "
      "x86_64 GNU/Linux\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->value.release, "5.14.0-362.8.1.el9_3.x86_64");
  EXPECT_EQ(r->value.nodename, "node1");
  EXPECT_EQ(r->value.machine, "x86_64");
  EXPECT_EQ(r->value.minor, 14);
}

TEST(Uname, OtherTextIsAnErrorNamingTheLine) {
  auto r = parse_uname("6.8.0-45-generic\nnot a kernel\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->warnings.size(), 1u);  // a second line: the first release is kept
  auto bad = parse_uname("hello world\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("line 1"), std::string::npos);
}

TEST(NvidiaVersion, OpenAndProprietaryModules) {
  auto o = parse_nvidia_version(k_open);
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->value.version, "555.42.02");
  EXPECT_EQ(o->value.open_module, true);
  EXPECT_EQ(o->value.arch, "x86_64");
  auto p = parse_nvidia_version(k_proprietary);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->value.version, "515.76");
  EXPECT_EQ(p->value.open_module, false);
  EXPECT_EQ(p->value.arch, "x86_64");
}

// A cut banner says nothing about the module type: an error, never "proprietary".
TEST(NvidiaVersion, GarbledBannerIsAnError) {
  for (const char* text : {"NVRM version: garbage\n", "NVRM version: NVIDIA UNIX x86_64 Kernel Module\n",
                           "NVRM version: NVIDIA UNIX x86_64  515.76  Mon Sep 12 2022\n"}) {
    auto r = parse_nvidia_version(text);
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().message.find("line 1"), std::string::npos) << r.error().message;
  }
}

TEST(NvidiaVersion, PromptSkippedAndASecondBannerWarned) {
  std::string text = std::string("$ cat /proc/driver/nvidia/version\n") + k_open + k_proprietary;
  auto r = parse_nvidia_version(text);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->value.version, "555.42.02");
  EXPECT_EQ(r->value.line, 2u);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "conflicting_line");
  EXPECT_EQ(r->warnings[0].line, 3u);
}

TEST(Prompt, HostReleaseCommandsAreRecognised) {
  auto u = parse_prompt_line("user@gpu01:~$ uname -a");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->tool, "uname");
  auto n = parse_prompt_line("$ sudo cat /proc/driver/nvidia/version");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->tool, "nvidia_version");
  auto l = parse_prompt_line("# nvidia-smi -L");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->tool, "nvidia_smi_topo");
  EXPECT_FALSE(parse_prompt_line("$ cat /etc/hosts"));
}

// The DGX Spark capture, its "$ " prompts pasted as a user@host prompt: same GPU, model and NICs.
TEST(NvidiaSmiTopo, UserAtHostPromptsAboveListAndMatrix) {
  std::string body = rk::test::corpus_body("nvidia_smi_topo/dgx-spark-gb10-cx7-rocep-node-topo-m.txt");
  int replaced = 0;
  for (std::size_t p = 0; (p = body.find("\n$ nvidia-smi", p)) != std::string::npos; p += 14, ++replaced)
    body.replace(p + 1, 0, "user@spark:~");
  if (body.starts_with("$ nvidia-smi")) body.insert(0, "user@spark:~"), ++replaced;
  ASSERT_EQ(replaced, 2);
  auto r = parse_nvidia_smi_topo(body);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->warnings.empty()) << r->warnings.front().message;
  ASSERT_EQ(r->value.gpus.size(), 1u);
  EXPECT_EQ(r->value.gpus[0].model, "NVIDIA GB10");
  EXPECT_EQ(r->value.gpus[0].nics.size(), 4u);
}

}  // namespace
}  // namespace rk::parse

// Pasted outputs: several commands in one file, split at their prompt lines, are checked like the
// files rocekit-capture would have written; evidence cites the pasted file's own lines.
#include "rocekit/capture/paste.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

namespace fs = std::filesystem;

constexpr const char* k_bundle = "hosts/homelab-host01-cx4lx-fw14.32";

/// The bundle's seven outputs pasted into one text, each under the prompt that made it, in the
/// prompt forms people post; ``` fences around two of them.
std::string pasted_bundle() {
  fs::path b = test::testdata_dir() / k_bundle;
  auto body = [&](const char* file) {
    std::string whole = test::read_file(b / file);
    return std::string(parse::strip_capture_header(whole).body);
  };
  std::string out = "Here is what the host shows:\n\n";
  out += "$ sudo ethtool enp1s0f0np0\n" + std::string(body("ethtool@enp1s0f0np0.txt"));
  out += "[root@host01 ~]# ethtool -c enp1s0f0np0\n" + std::string(body("ethtool_c@enp1s0f0np0.txt"));
  out += "```\nuser@host01:~$ ethtool -g enp1s0f0np0\n" + std::string(body("ethtool_g@enp1s0f0np0.txt")) + "```\n";
  out += "$ ethtool -l enp1s0f0np0\n" + std::string(body("ethtool_l@enp1s0f0np0.txt"));
  out += "```text\n# ethtool -i enp1s0f0np0\n" + std::string(body("ethtool_i@0000:01:00.0.txt")) + "```\n";
  out += "$ sudo mstflint -d 0000:01:00.0 q\n" + std::string(body("flint_q@0000:01:00.0.txt"));
  out += "$ sudo mstconfig -d 0000:01:00.0 -e q\n" + std::string(body("mlxconfig_q@0000:01:00.0.txt"));
  return out;
}

using Verdicts = std::map<std::tuple<std::string, std::string>, Outcome>;

Verdicts verdicts(const Snapshot& s) {
  Verdicts v;
  for (const Finding& f : rules::evaluate(s, default_policy()).findings) v[{f.rule, f.subject}] = f.outcome;
  return v;
}

TEST(Paste, SplitsAtEachPromptAndFence) {
  std::string text = pasted_bundle();
  std::vector<PastePart> parts = split_paste(text);
  ASSERT_EQ(parts.size(), 7u);
  EXPECT_EQ(parts[0].tool, "ethtool");
  EXPECT_EQ(parts[0].target, "enp1s0f0np0");
  EXPECT_EQ(parts[0].first_line, 3u);
  EXPECT_EQ(parts[1].tool, "ethtool_c");
  EXPECT_EQ(parts[2].tool, "ethtool_g");
  EXPECT_EQ(parts[4].tool, "ethtool_i");
  EXPECT_EQ(parts[5].tool, "flint_q");
  EXPECT_EQ(parts[5].target, "0000:01:00.0");
  EXPECT_EQ(parts[6].tool, "mlxconfig_q");
  std::vector<std::string_view> ls = text::lines(text);
  for (const PastePart& p : parts) {
    EXPECT_EQ(ls[p.first_line - 1].find("```"), std::string_view::npos);
    EXPECT_EQ(ls[p.last_line - 1].find("```"), std::string_view::npos) << p.tool;  // the fence ends the part
    EXPECT_LE(p.first_line, p.last_line);
  }
  // One command, or the same command again, is not a paste to split.
  EXPECT_TRUE(split_paste("$ mlnx_qos -i eth4\nPriority trust state: dscp\n").empty());
  EXPECT_TRUE(split_paste("no prompt here\n").empty());
}

// The done-when of "a paste of several commands is checked like the files": same verdict on every
// rule and subject as the bundle directory, and the evidence lines are the paste's own.
TEST(Paste, OneFileOfSevenCommandsIsCheckedLikeTheBundle) {
  fs::path dir = fs::temp_directory_path() / ("rk-paste-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path paste = dir / "from-slack.txt";
  std::string text = pasted_bundle();
  std::ofstream(paste, std::ios::binary) << text;
  Result<Snapshot> from_paste = load_input(paste);
  Result<Snapshot> from_dir = load_input(test::testdata_dir() / k_bundle);
  fs::remove_all(dir);
  ASSERT_TRUE(from_paste) << from_paste.error().describe();
  ASSERT_TRUE(from_dir) << from_dir.error().describe();
  EXPECT_EQ(from_paste->source.kind, SourceKind::capture_file);
  EXPECT_EQ(from_paste->inputs.size(), 7u);
  for (const InputFile& in : from_paste->inputs) {
    EXPECT_EQ(in.file, "from-slack.txt");
    EXPECT_EQ(in.status, in.tool == "ethtool_g" ? "unused" : "parsed") << in.tool << ": " << (in.messages.empty() ? "" : in.messages.front());
  }
  Verdicts want = verdicts(*from_dir), got = verdicts(*from_paste);
  EXPECT_GT(want.size(), 20u);
  EXPECT_EQ(got, want);
  // Every cited line of the paste holds the evidence text.
  std::vector<std::string_view> ls = text::lines(text);
  std::size_t cited = 0;
  for (const Finding& f : rules::evaluate(*from_paste, default_policy()).findings)
    for (const Evidence& e : f.evidence) {
      if (e.file != "from-slack.txt" || e.line == 0 || e.text.empty()) continue;
      ASSERT_LE(e.line, ls.size());
      EXPECT_NE(ls[e.line - 1].find(e.text), std::string_view::npos) << f.rule << " line " << e.line << ": " << e.text;
      ++cited;
      if (f.rule == "fw.uniform-version") {
        EXPECT_EQ(e.text, "firmware-version: 14.32.1900 (MT_2420110034)");
      }
    }
  EXPECT_GE(cited, 3u);  // coalescing, the firmware version, an NV config line
}

}  // namespace
}  // namespace rk::capture

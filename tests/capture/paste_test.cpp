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
  // One command is not a paste to split.
  EXPECT_TRUE(split_paste("$ mlnx_qos -i eth4\nPriority trust state: dscp\n").empty());
  EXPECT_TRUE(split_paste("no prompt here\n").empty());
}

// Prompt forms from a new-user trial: conda prefix, redirections, another command's output
// between two parts, an indented block.
TEST(Paste, PromptFormsRedirectionsForeignCommandsAndIndentation) {
  std::string text =
      "(base) user@gpu01:~$ sudo ethtool -c eth4 2>&1\n"
      "Coalesce parameters for eth4:\n"
      "Adaptive RX: on  TX: on\n"
      "[root@gpu01 ~]# uptime\n"
      " 10:00:00 up 3 days\n"
      "$ ssh gpu02 sudo mlnx_qos -i eth4\n"
      "Priority trust state: pcp\n"
      "    $ mlnx_qos -i=eth4\n"
      "    DCBX mode: OS controlled\n"
      "    Priority trust state: dscp\n"
      "      indented more\n";
  std::vector<PastePart> parts = split_paste(text);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].tool, "ethtool_c");
  EXPECT_EQ(parts[0].target, "eth4");  // not "2" from 2>&1
  EXPECT_EQ(parts[0].last_line, 3u);   // uptime's output is not taken
  EXPECT_EQ(parts[1].tool, "mlnx_qos");
  EXPECT_EQ(parts[1].target, "eth4");  // -i=eth4
  EXPECT_EQ(parts[1].first_line, 8u);  // gpu02's output (ssh) belongs to no part
  EXPECT_EQ(paste_lines(text, parts[1].first_line, parts[1].last_line),
            "$ mlnx_qos -i=eth4\nDCBX mode: OS controlled\nPriority trust state: dscp\n  indented more\n");
}

// The same command pasted twice: a different second output is an input problem (exit 3, not
// healthy on whichever came first); an identical one is noted and not used.
TEST(Paste, TheSameCommandTwice) {
  std::string whole = test::read_file(test::testdata_dir() / "hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt");
  std::string qos(parse::strip_capture_header(whole).body);
  std::string changed = qos;
  changed.replace(changed.find("trust state: dscp"), 17, "trust state: pcp");
  for (bool same : {true, false}) {
    CaptureSet set;
    set.origin = "mem";
    set.kind = SourceKind::capture_file;
    set.files.push_back({"before-after.txt", "$ sudo mlnx_qos -i eth4\n" + qos + "$ sudo mlnx_qos -i eth4\n" + (same ? qos : changed), ""});
    Snapshot s = snapshot_from_capture(set);
    ASSERT_EQ(s.inputs.size(), 2u);
    const InputFile& second = s.inputs[0].status == "parsed" ? s.inputs[1] : s.inputs[0];
    EXPECT_EQ(second.status, same ? "unused" : "ignored");
    ASSERT_EQ(second.messages.size(), 1u);
    EXPECT_NE(second.messages[0].find(same ? "the same output as line 1" : "with a different output than line 1"),
              std::string::npos)
        << second.messages[0];
    ASSERT_NE(s.find_netdev("eth4"), nullptr);
    EXPECT_EQ(s.find_netdev("eth4")->qos->trust, Trust::dscp);  // the first is used
  }
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

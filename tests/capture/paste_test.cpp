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
  // One command is one part; inside fences it ends before the closing fence.
  std::vector<PastePart> one = split_paste("```\n$ mlnx_qos -i eth4\nPriority trust state: dscp\n```\n");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].tool, "mlnx_qos");
  EXPECT_EQ(one[0].target, "eth4");
  EXPECT_EQ(one[0].first_line, 2u);
  EXPECT_EQ(one[0].last_line, 3u);
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

namespace rk::capture {
namespace {

// Two captures of one netdev that disagree (trust dscp in one, pcp in the other) are a conflict:
// neither is used, the QoS rules are unknown naming both files, whatever their names' order.
TEST(Conflict, TwoFilesDisagreeingOnTrustMakeTheQosRulesUnknown) {
  std::string dscp = test::read_file(test::testdata_dir() / "hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt");
  std::string pcp = dscp;
  pcp.replace(pcp.find("trust state: dscp"), 17, "trust state: pcp");
  for (bool dscp_first : {true, false}) {
    CaptureSet set;
    set.origin = "mem";
    set.files.push_back({"mlnx_qos@eth4.txt", dscp_first ? dscp : pcp, ""});
    set.files.push_back({"qos-after-reboot@eth4.txt", dscp_first ? pcp : dscp, ""});
    Snapshot s = snapshot_from_capture(set);
    const NetDev* n = s.find_netdev("eth4");
    ASSERT_NE(n, nullptr);
    EXPECT_FALSE(n->qos.has_value());
    EXPECT_EQ(n->qos.reason_kind, ReasonKind::conflicting);
    EXPECT_NE(n->qos.reason.find("mlnx_qos@eth4.txt:"), std::string::npos) << n->qos.reason;
    EXPECT_NE(n->qos.reason.find("qos-after-reboot@eth4.txt:"), std::string::npos) << n->qos.reason;
    EXPECT_NE(n->qos.reason.find(dscp_first ? "trust dscp vs pcp" : "trust pcp vs dscp"), std::string::npos)
        << n->qos.reason;
    bool judged = false;
    for (const Finding& f : rules::evaluate(s, default_policy(), {"qos.trust-dscp"}).findings)
      if (f.subject == "eth4") {
        judged = true;
        EXPECT_EQ(f.outcome, Outcome::unknown) << f.message;
        EXPECT_NE(f.message.find("conflicting captures of eth4"), std::string::npos) << f.message;
      }
    EXPECT_TRUE(judged);
  }
  // The same state twice is no conflict.
  CaptureSet same;
  same.origin = "mem";
  same.files.push_back({"mlnx_qos@eth4.txt", dscp, ""});
  same.files.push_back({"qos-again@eth4.txt", dscp, ""});
  Snapshot s = snapshot_from_capture(same);
  ASSERT_TRUE(s.find_netdev("eth4")->qos.has_value());
  EXPECT_EQ(s.find_netdev("eth4")->qos->trust, Trust::dscp);
}

}  // namespace
}  // namespace rk::capture

namespace rk::capture {
namespace {

// A pasted `lspci -vv -s 81:00.0 | grep -E 'LnkCap|LnkSta'` (no device header): the prompt names
// the function, and the link rule judges it, citing the file's LnkSta line.
TEST(Paste, GrepLnkFragmentIsTiedToThePromptsAddress) {
  CaptureSet set;
  set.origin = "mem";
  set.kind = SourceKind::capture_file;
  set.files.push_back({"slow-nic.txt", test::read_file(test::testdata_dir() / "corpus/lspci/k8s-runbook-grep-lnk-fragment-81-00-0-downgraded.txt"), ""});
  Snapshot s = snapshot_from_capture(set);
  const PciFunction* p = s.find_pci("0000:81:00.0");
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->link.has_value()) << p->link.reason;
  EXPECT_EQ(p->link->status.width_lanes, 4);
  EXPECT_TRUE(p->link->status.downgraded);
  bool judged = false;
  for (const Finding& f : rules::evaluate(s, default_policy(), {"pcie.link-at-capability"}).findings)
    if (f.subject == "0000:81:00.0") {
      judged = true;
      EXPECT_EQ(f.outcome, Outcome::fail) << f.message;
      ASSERT_FALSE(f.evidence.empty());
      EXPECT_EQ(f.evidence[0].line, 6u);  // the LnkSta line of the file (3 header lines, the prompt, LnkCap)
    }
  EXPECT_TRUE(judged);
  // Without a prompt or an address in the file name, the fragment cannot be placed: said so.
  CaptureSet bare;
  bare.origin = "mem";
  bare.files.push_back({"lspci_vvv.txt", "\t\tLnkSta:\tSpeed 2.5GT/s (downgraded), Width x4 (downgraded)\n", ""});
  Snapshot b = snapshot_from_capture(bare);
  ASSERT_EQ(b.inputs.size(), 1u);
  EXPECT_EQ(b.inputs[0].status, "ignored");
  EXPECT_NE(b.inputs[0].messages.at(0).find("cannot tell which PCI address"), std::string::npos) << b.inputs[0].messages.at(0);
}

}  // namespace
}  // namespace rk::capture

namespace rk::capture {
namespace {

// `mst status` and `mlxlink -d /dev/mst/mt4123_pciconf0 --port_type PCIE` pasted together (the CX6
// OCP3 notes): the MST device is tied to 0000:04:00.0 through mst status, and the link rule fails
// the Gen1 x4 link of a Gen4 x16 card. Without the mst status, the file says why it is not used.
TEST(Paste, MlxlinkOnAnMstDeviceIsTiedToItsAddressThroughMstStatus) {
  std::string mlxlink_whole = test::read_file(test::testdata_dir() / "corpus/mlxlink_pcie/cn-notes-cx6-ocp3-x4-slot-gen1-x4-of-gen4-x16.txt");
  std::string mlxlink(parse::strip_capture_header(mlxlink_whole).body);
  mlxlink.replace(0, 5, "$ sudo ");  // "sudo mlxlink ..." as a prompt line
  std::string mst =
      "$ sudo mst status\n"
      "MST modules:\n------------\n    MST PCI module is not loaded\n    MST PCI configuration module loaded\n\n"
      "MST devices:\n------------\n"
      "/dev/mst/mt4123_pciconf0         - PCI configuration cycles access.\n"
      "                                   domain:bus:dev.fn=0000:04:00.0 addr.reg=88 data.reg=92 cr_bar.gw_offset=-1\n"
      "                                   Chip revision is: 00\n";
  CaptureSet set;
  set.origin = "mem";
  set.kind = SourceKind::capture_file;
  set.files.push_back({"ocp3.txt", mst + mlxlink, ""});
  Snapshot s = snapshot_from_capture(set);
  const PciFunction* p = s.find_pci("0000:04:00.0");
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->link.has_value()) << p->link.reason;
  EXPECT_EQ(p->link->status.speed_gts, 2.5);
  EXPECT_EQ(p->link->status.width_lanes, 4);
  EXPECT_EQ(p->link->capability.speed_gts, 16.0);
  EXPECT_TRUE(p->link->status.downgraded);
  EXPECT_EQ(p->link.source.file, "ocp3.txt");
  EXPECT_EQ(p->link.source.text, "Link Speed Active (Enabled)        : 2.5G-Gen 1 (16G-Gen 4)");
  bool judged = false;
  for (const Finding& f : rules::evaluate(s, default_policy(), {"pcie.link-at-capability"}).findings)
    if (f.subject == "0000:04:00.0") {
      judged = true;
      EXPECT_EQ(f.outcome, Outcome::fail) << f.message;
    }
  EXPECT_TRUE(judged);

  CaptureSet alone;
  alone.origin = "mem";
  alone.files.push_back({"ocp3.txt", mlxlink, ""});
  Snapshot a = snapshot_from_capture(alone);
  ASSERT_EQ(a.inputs.size(), 1u);
  EXPECT_EQ(a.inputs[0].status, "ignored");
  EXPECT_NE(a.inputs[0].messages.at(0).find("/dev/mst/mt4123_pciconf0 is an MST device that no `mst status` of this capture maps"),
            std::string::npos)
      << a.inputs[0].messages.at(0);
}

}  // namespace
}  // namespace rk::capture

// Paste forms beyond prompt lines: a paste quoted as a reply ("> " on every line), and fenced
// blocks without a prompt line, identified by their content like an unnamed file. Evidence
// cites the pasted file's own lines.
#include <map>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/capture/paste.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

/// The output of a capture file of testdata/, without its provenance header.
std::string body_of(const std::string& rel) {
  std::string whole = test::read_file(test::testdata_dir() / rel);
  return std::string(parse::strip_capture_header(whole).body);
}

/// Every line quoted as a mail or GitHub reply: "> line", a bare ">" for a blank one.
std::string reply_quote(const std::string& text, const std::string& mark = "> ") {
  std::string out;
  for (std::string_view l : text::lines(text)) {
    if (l.empty()) {
      out += std::string(text::trim(mark)) + "\n";
    } else {
      out += mark;
      out.append(l);
      out += "\n";
    }
  }
  return out;
}

Snapshot one_file(const std::string& name, const std::string& bytes) {
  CaptureSet set;
  set.origin = "mem";
  set.kind = SourceKind::capture_file;
  set.files.push_back({name, bytes, ""});
  return snapshot_from_capture(set);
}

using Verdicts = std::map<std::tuple<std::string, std::string>, Outcome>;

Verdicts verdicts(const Snapshot& s) {
  Verdicts v;
  for (const Finding& f : rules::evaluate(s, default_policy()).findings) v[{f.rule, f.subject}] = f.outcome;
  return v;
}

TEST(Unquote, StripsOneOrMoreLevelsLineForLine) {
  EXPECT_EQ(unquote("> a\n>\n>  b\n"), "a\n\n b\n");
  EXPECT_EQ(unquote("> > a\n> >\n> > b"), "a\n\nb");  // a reply to a reply, no final newline
  EXPECT_EQ(unquote("  > a\n\n  > b\n"), "a\n\nb\n");  // indented quote, a bare blank line
  EXPECT_FALSE(unquote("a\n> b\n").has_value());        // only some lines quoted, no command: not a quote
  EXPECT_FALSE(unquote("\n\n").has_value());
  // Some lines quoted, one of them a command: the quoted lines lose their markers; unquoted prose
  // becomes empty (no quoted output runs on into it), an unquoted prompt and its output stay;
  // line for line.
  EXPECT_EQ(unquote("Hi,\n> $ ethtool -i eth0\n> driver: mlx5_core\nthanks\n"),
            "\n$ ethtool -i eth0\ndriver: mlx5_core\n\n");
  EXPECT_EQ(unquote("see below\n> > ```\n> > x\n> > ```\n"), "\n```\nx\n```\n");
  EXPECT_EQ(unquote("> $ ethtool -i eth0\n> driver: mlx5_core\nours:\n$ ethtool -i eth1\ndriver: mlx5_core\n```\nx\n```\nbye\n"),
            "$ ethtool -i eth0\ndriver: mlx5_core\n\n$ ethtool -i eth1\ndriver: mlx5_core\n```\nx\n```\n\n");
}

// A ticket: the reporter's earlier output quoted ("> $ ethtool -i eth01" and its output), prose
// that looks like a key ("driver: see CMDB"), the reply's own output below it unquoted under its
// prompt. Both outputs are read, neither is dropped, the prose is no part of either, and each
// cites the ticket's own line.
TEST(Unquote, ATicketWithAQuotedAndAnUnquotedOutputReadsBoth) {
  std::string ticket = "Here is the QoS of the other host, below your output.\nOn Monday you wrote:\n> $ ethtool -i eth01\n" +
                       reply_quote(body_of("hosts/cx4lx-4port-fw-mismatch/ethtool_i@eth01.txt")) +
                       "\nThanks. Our inventory says:\ndriver: see CMDB\n\n$ sudo mlnx_qos -i eth4\n" +
                       body_of("hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt");
  Snapshot s = one_file("ticket.txt", ticket);
  ASSERT_EQ(s.inputs.size(), 2u);
  for (const InputFile& in : s.inputs) EXPECT_EQ(in.status, "parsed") << in.tool;
  const NetDev* q = s.find_netdev("eth4");
  ASSERT_NE(q, nullptr);
  ASSERT_TRUE(q->qos.has_value()) << q->qos.reason;
  EXPECT_EQ(q->qos->trust, Trust::dscp);
  const NetDev* d = s.find_netdev("eth01");
  ASSERT_NE(d, nullptr);
  ASSERT_TRUE(d->driver.has_value()) << d->driver.reason;
  EXPECT_EQ(d->driver->firmware_version, "14.28.2006");
  EXPECT_EQ(d->driver->driver, "mlx5_core");  // not the ticket's prose "driver: see CMDB"
  std::vector<std::string_view> ls = text::lines(ticket);
  ASSERT_GE(d->driver.source.line, 4u);
  EXPECT_EQ(ls[d->driver.source.line - 1], "> firmware-version: 14.28.2006 (MT_2420110034)");
  std::size_t prompt = 0;
  for (std::size_t i = 0; i < ls.size(); ++i)
    if (ls[i] == "$ sudo mlnx_qos -i eth4") prompt = i + 1;
  ASSERT_GT(prompt, 3u);
  EXPECT_GT(q->qos.source.line, prompt);  // the unquoted output under its prompt
}

// The real mlnx_qos output of a healthy host, pasted in a reply with its prompt: identified by
// the quoted prompt, and the trust rule cites the quoted line of the reply.
TEST(Unquote, AQuotedRealOutputIsReadWithTheRepliesLineNumbers) {
  std::string reply = "> $ sudo mlnx_qos -i eth4\n" + reply_quote(body_of("hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt"));
  Snapshot s = one_file("reply.txt", reply);
  ASSERT_EQ(s.inputs.size(), 1u);
  EXPECT_EQ(s.inputs[0].tool, "mlnx_qos");
  EXPECT_EQ(s.inputs[0].target, "eth4");
  EXPECT_EQ(s.inputs[0].status, "parsed") << (s.inputs[0].messages.empty() ? "" : s.inputs[0].messages[0]);
  const NetDev* n = s.find_netdev("eth4");
  ASSERT_NE(n, nullptr);
  ASSERT_TRUE(n->qos.has_value()) << n->qos.reason;
  EXPECT_EQ(n->qos->trust, Trust::dscp);
  std::vector<std::string_view> ls = text::lines(reply);
  bool judged = false;
  for (const Finding& f : rules::evaluate(s, default_policy(), {"qos.trust-dscp"}).findings) {
    if (f.subject != "eth4") continue;
    judged = true;
    EXPECT_EQ(f.outcome, Outcome::pass) << f.message;
    ASSERT_FALSE(f.evidence.empty());
    EXPECT_EQ(f.evidence[0].file, "reply.txt");
    ASSERT_GE(f.evidence[0].line, 2u);
    EXPECT_EQ(ls[f.evidence[0].line - 1], "> Priority trust state: dscp");
  }
  EXPECT_TRUE(judged);
}

// The homelab bundle's seven commands, each under its prompt, quoted twice over (a reply to a
// reply): the same verdicts as the bundle directory.
TEST(Unquote, AQuotedMultiCommandPasteIsCheckedLikeTheBundle) {
  const std::string b = "hosts/homelab-host01-cx4lx-fw14.32/";
  std::string paste = "$ sudo ethtool enp1s0f0np0\n" + body_of(b + "ethtool@enp1s0f0np0.txt") +
                      "$ ethtool -c enp1s0f0np0\n" + body_of(b + "ethtool_c@enp1s0f0np0.txt") +
                      "$ ethtool -g enp1s0f0np0\n" + body_of(b + "ethtool_g@enp1s0f0np0.txt") +
                      "$ ethtool -l enp1s0f0np0\n" + body_of(b + "ethtool_l@enp1s0f0np0.txt") +
                      "# ethtool -i enp1s0f0np0\n" + body_of(b + "ethtool_i@0000:01:00.0.txt") +
                      "$ sudo mstflint -d 0000:01:00.0 q\n" + body_of(b + "flint_q@0000:01:00.0.txt") +
                      "$ sudo mstconfig -d 0000:01:00.0 -e q\n" + body_of(b + "mlxconfig_q@0000:01:00.0.txt");
  std::string reply = reply_quote(reply_quote(paste));
  Snapshot from_reply = one_file("mail.txt", reply);
  Result<Snapshot> from_dir = load_input(test::testdata_dir() / "hosts/homelab-host01-cx4lx-fw14.32");
  ASSERT_TRUE(from_dir) << from_dir.error().describe();
  EXPECT_EQ(from_reply.inputs.size(), 7u);
  for (const InputFile& in : from_reply.inputs)
    EXPECT_EQ(in.status, in.tool == "ethtool_g" ? "unused" : "parsed") << in.tool;
  Verdicts want = verdicts(*from_dir);
  EXPECT_GT(want.size(), 20u);
  EXPECT_EQ(verdicts(from_reply), want);
  std::vector<std::string_view> ls = text::lines(reply);
  for (const Finding& f : rules::evaluate(from_reply, default_policy(), {"fw.uniform-version"}).findings) {
    ASSERT_FALSE(f.evidence.empty());
    EXPECT_EQ(f.evidence[0].text, "firmware-version: 14.32.1900 (MT_2420110034)");
    EXPECT_EQ(ls[f.evidence[0].line - 1], "> > firmware-version: 14.32.1900 (MT_2420110034)");
  }
}

// One fenced output without its command line, between sentences of a ticket: identified by its
// content (ethtool -i), the firmware kept on the function its bus-info names.
TEST(FencedBlocks, OneBlockWithoutAPromptIsIdentifiedByContent) {
  std::string text = "The card on 2f:00.0 reports:\n```text\n" +
                     body_of("hosts/cx4lx-4port-fw-mismatch/ethtool_i@eth01.txt") + "```\nThanks!\n";
  std::vector<PastePart> parts = split_paste(text);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].tool, "ethtool_i");
  EXPECT_TRUE(parts[0].by_content);
  EXPECT_EQ(parts[0].first_line, 3u);
  EXPECT_EQ(parts[0].last_line, 12u);  // the line before the closing fence
  Snapshot s = one_file("ticket.txt", text);
  const PciFunction* p = s.find_pci("0000:2f:00.0");
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->firmware.has_value()) << p->firmware.reason;
  EXPECT_EQ(p->firmware->version, "14.28.2006");
  EXPECT_EQ(p->firmware.source.file, "ticket.txt");
  EXPECT_EQ(p->firmware.source.line, 5u);
  EXPECT_EQ(p->firmware.source.text, "firmware-version: 14.28.2006 (MT_2420110034)");
}

// The prompt line above the fence, its output inside: the block is that command's output, for
// the netdev the prompt names.
TEST(FencedBlocks, APromptAboveTheFenceNamesTheBlock) {
  std::string text = "$ ethtool -i eth01\n\n```\n" + body_of("hosts/cx4lx-4port-fw-mismatch/ethtool_i@eth01.txt") + "```\n";
  std::vector<PastePart> parts = split_paste(text);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].tool, "ethtool_i");
  EXPECT_EQ(parts[0].target, "eth01");
  EXPECT_EQ(parts[0].first_line, 4u);
  Snapshot s = one_file("ticket.txt", text);
  const NetDev* n = s.find_netdev("eth01");
  ASSERT_NE(n, nullptr);
  ASSERT_TRUE(n->driver.has_value()) << n->driver.reason;
  EXPECT_EQ(n->driver->firmware_version, "14.28.2006");
  EXPECT_EQ(n->driver.source.line, 6u);
}

// Three fenced blocks, each a different tool, none with a prompt: each is its own part, and the
// host is judged on them (mlx5_1's port down, firmware 14.28 vs 14.32 on one model).
TEST(FencedBlocks, SeveralBlocksEachADifferentToolAreEachAPart) {
  const std::string b = "hosts/cx4lx-4port-fw-mismatch/";
  std::string text = "ibdev2netdev:\n```\n" + body_of(b + "ibdev2netdev.txt") + "```\n\nibv_devinfo:\n~~~\n" +
                     body_of(b + "ibv_devinfo.txt") + "~~~\n\nand ethtool -i for the first port:\n```console\n" +
                     body_of(b + "ethtool_i@eth01.txt") + "```\n";
  std::vector<PastePart> parts = split_paste(text);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].tool, "ibdev2netdev");
  EXPECT_EQ(parts[0].first_line, 3u);
  EXPECT_EQ(parts[1].tool, "ibv_devinfo");
  EXPECT_EQ(parts[2].tool, "ethtool_i");
  for (const PastePart& p : parts) EXPECT_TRUE(p.by_content);
  Snapshot s = one_file("issue.md.txt", text);
  EXPECT_EQ(s.inputs.size(), 3u);
  const RdmaDevice* d = s.find_rdma("mlx5_1");
  ASSERT_NE(d, nullptr);
  ASSERT_FALSE(d->ports.empty());
  ASSERT_TRUE(d->ports[0].state.has_value()) << d->ports[0].state.reason;
  EXPECT_EQ(*d->ports[0].state, PortState::down);
  std::vector<std::string_view> ls = text::lines(text);
  bool fw = false;
  for (const Finding& f : rules::evaluate(s, default_policy(), {"fw.uniform-version"}).findings) {
    fw = true;
    EXPECT_EQ(f.outcome, Outcome::fail) << f.message;
    EXPECT_NE(f.message.find("14.28.2006"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("14.32.1010"), std::string::npos) << f.message;
    for (const Evidence& e : f.evidence) {
      EXPECT_EQ(e.file, "issue.md.txt");
      ASSERT_GE(e.line, 1u);
      EXPECT_NE(ls[e.line - 1].find(e.text), std::string_view::npos) << e.line << ": " << e.text;
    }
  }
  EXPECT_TRUE(fw);
  // A fenced block of prose is no part, and a file of prose only has none.
  EXPECT_TRUE(split_paste("```\nplease help, the link is slow\n```\n").empty());
}

}  // namespace
}  // namespace rk::capture

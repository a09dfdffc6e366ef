// The tool table (src/rocekit/capture/tools.cpp) against everything that names a tool id: the
// tool table of testdata/hosts/README.md, the captures scripts/rocekit-capture writes, the fuzz
// target list (fuzz/tools.cmake), the "not captured" reasons, and the parser goldens over the
// corpus files of each tool. A dmesg capture alone judges pcie.link-at-capability.
#include "rocekit/capture/tools.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

namespace fs = std::filesystem;

std::set<std::string> table_ids() {
  std::set<std::string> out;
  for (const Tool& t : all_tools()) out.insert(std::string(t.id));
  return out;
}

/// Tool ids in the first column of the README's "| tool | command |" table.
std::set<std::string> documented_ids() {
  std::string text = test::read_file(test::testdata_dir() / "hosts" / "README.md");
  std::set<std::string> out;
  bool in_table = false;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("| tool |")) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (!line.starts_with("|")) break;
    std::string first = line.substr(1, line.find('|', 1) - 1);
    static const std::regex k_id("`([a-zA-Z0-9_]+)`");
    for (std::sregex_iterator it(first.begin(), first.end(), k_id), end; it != end; ++it) out.insert((*it)[1]);
  }
  return out;
}

/// Tool ids of `capture <id> ...` and `skip <id> ...` in scripts/rocekit-capture; "ethtool_$f"
/// and "sysfs_$kind" are expanded over the values of the enclosing `for f in ...` loop.
std::set<std::string> captured_ids() {
  std::string text = test::read_file(test::testdata_dir().parent_path() / "scripts" / "rocekit-capture");
  std::set<std::string> out;
  std::map<std::string, std::vector<std::string>> loop;  // variable -> values
  static const std::regex k_for("^\\s*for ([a-z]+) in ([a-zA-Z0-9_ ]+); do");
  static const std::regex k_cap("^\\s*(capture|skip) \"?([a-zA-Z0-9_]+)(\\$([a-z]+))?\"? ");
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, k_for)) {
      std::istringstream vs(m[2].str());
      std::vector<std::string> values;
      for (std::string v; vs >> v;) values.push_back(v);
      loop[m[1]] = values;
      continue;
    }
    if (!std::regex_search(line, m, k_cap)) continue;
    if (m[4].matched) {
      for (const std::string& v : loop[m[4]]) out.insert(m[2].str() + v);
    } else {
      out.insert(m[2]);
    }
  }
  return out;
}

TEST(ToolTable, IdsAreUniqueAndEveryRowHasSniffAndParser) {
  std::set<std::string> seen;
  for (const Tool& t : all_tools()) {
    EXPECT_TRUE(seen.insert(std::string(t.id)).second) << "duplicate tool id " << t.id;
    EXPECT_NE(t.looks_like, nullptr) << t.id;
    EXPECT_NE(t.parse_to_json, nullptr) << t.id;
    EXPECT_FALSE(t.command.empty()) << t.id;
  }
}

TEST(ToolTable, EveryDocumentedToolHasARowAndEveryRowIsDocumented) {
  std::set<std::string> doc = documented_ids(), ids = table_ids();
  EXPECT_GT(doc.size(), 20u);
  for (const std::string& d : doc) EXPECT_TRUE(ids.count(d)) << "testdata/hosts/README.md documents " << d << ", which has no parser";
  for (const std::string& i : ids) EXPECT_TRUE(doc.count(i)) << i << " is missing from the tool table of testdata/hosts/README.md";
}

TEST(ToolTable, EveryCapturedToolHasAParserAndAMerge) {
  std::set<std::string> cap = captured_ids();
  EXPECT_GT(cap.size(), 20u);
  for (const std::string& c : cap) {
    const Tool* t = find_tool(c);
    ASSERT_NE(t, nullptr) << "scripts/rocekit-capture writes " << c << ", which has no parser";
    // The script captures only what a rule uses, except listings kept for a reader.
    if (c != "ethtool_g" && c != "mst_status") {
      EXPECT_NE(t->merge, nullptr) << c << " is captured but never merged";
    }
  }
}

TEST(ToolTable, FuzzTargetsAreTheTable) {
  std::string text = test::read_file(test::testdata_dir().parent_path() / "fuzz" / "tools.cmake");
  std::vector<std::string> listed;
  std::istringstream in(text.substr(text.find("set(RK_FUZZ_TOOLS") + 18));
  for (std::string w; in >> w && w != ")";) listed.push_back(w);
  std::vector<std::string> ids;
  for (const Tool& t : all_tools()) ids.emplace_back(t.id);
  EXPECT_EQ(listed, ids) << "fuzz/tools.cmake must list the tool ids of capture/tools.cpp in table order";
}

TEST(ToolTable, EverySectionHasExactlyOneGap) {
  std::map<int, int> owners;
  for (const Tool& t : all_tools())
    for (const Gap& g : t.gaps) ++owners[static_cast<int>(g.section)];
  for (int s = 0; s <= static_cast<int>(Section::host_iommu); ++s)
    EXPECT_EQ(owners[s], 1) << "section " << s << " needs exactly one \"not captured\" reason";
}

/// Every corpus file that a sniff claims, and every host-bundle capture with a golden, is
/// compared with its golden through the table's parser; every tool has at least one.
TEST(ToolTable, EveryParserHasAGoldenOverItsCorpusFiles) {
  std::map<std::string, int> goldens;
  fs::path corpus = test::testdata_dir() / "corpus";
  for (const auto& e : fs::recursive_directory_iterator(corpus)) {
    if (!e.is_regular_file() || e.path().extension() != ".txt") continue;
    std::string rel = fs::relative(e.path(), corpus).generic_string();
    const Tool* t = identify(test::corpus_body(rel));
    if (!t) continue;  // e.g. an rc_pingpong transcript: no tool of the table
    test::check_golden(rel, t->parse_to_json);
    ++goldens[std::string(t->id)];
  }
  fs::path hosts = test::testdata_dir() / "hosts";
  for (const auto& e : fs::recursive_directory_iterator(hosts)) {
    if (!e.is_regular_file() || e.path().extension() != ".txt") continue;
    std::string rel = fs::relative(e.path(), hosts).generic_string();
    fs::path golden = test::testdata_dir() / "expected" / "hosts" / fs::path(rel).replace_extension(".json");
    std::string tool, target;
    if (!fs::exists(golden) || !split_capture_name(rel, tool, target) || !find_tool(tool)) continue;
    test::check_golden("../hosts/" + rel, find_tool(tool)->parse_to_json);
    ++goldens[tool];
  }
  // Parsers whose tests use inline text only: no public output of the tool is in the corpus yet.
  // The list may only shrink: a tool listed here that gains a golden fails the test.
  static const std::set<std::string> k_no_corpus_yet{"ethtool_a", "sysfs_ecn", "persistence", "sysfs_peermem", "cma_roce_tos",
                                                      "kubelet_pod"};
  for (const Tool& t : all_tools()) {
    std::string id(t.id);
    if (k_no_corpus_yet.count(id)) {
      EXPECT_EQ(goldens[id], 0) << id << " now has a golden: remove it from k_no_corpus_yet";
    } else {
      EXPECT_GT(goldens[id], 0) << id << " has no golden over a corpus file";
    }
  }
}

/// A capture of one corpus file saved as `name` (testdata/corpus/<corpus_rel>).
Snapshot capture_of(const std::string& name, const std::string& corpus_rel) {
  CaptureSet set;
  set.origin = "mem";
  set.files.push_back({name, test::read_file(test::testdata_dir() / "corpus" / corpus_rel), ""});
  return snapshot_from_capture(set);
}

// A real NCCL log (nccl-tests#293, default GDR level): DMA-BUF available, no GDRDMA channel and no
// nvidia-peermem in the input. The mechanism rule passes on DMA-BUF, NVIDIA's recommended path.
TEST(Capture, NcclDmaBufLineProvesTheGpuDirectMechanism) {
  Snapshot s = capture_of("nccl_log.txt", "nccl_log/nccltests293-a100-hdr-default-gdr-level-no-gdrdma-cut-by-author.txt");
  ASSERT_TRUE(s.gpudirect.has_value()) << s.gpudirect.reason;
  EXPECT_EQ(s.gpudirect->dmabuf_available, true);
  EXPECT_EQ(s.gpudirect->gdrdma_in_use, false);
  EXPECT_EQ(s.gpudirect.source.line, 24u);  // the file line of "DMA-BUF is available on GPU device 0"
  rules::Report r = rules::evaluate(s, default_policy(), {"gpudirect.peer-memory"});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].outcome, Outcome::pass);
  EXPECT_NE(r.findings[0].message.find("DMA-BUF"), std::string::npos) << r.findings[0].message;
}

// The same log holds both nodes' lines (test1, test2): a host capture reads only one node's, and
// says which. test1 prints 4 of the 8 NET channel lines (file lines 35..42, alternating).
TEST(Capture, NcclLogOfSeveralHostsReadsOneAndSaysSo) {
  Snapshot s = capture_of("nccl_log.txt", "nccl_log/nccltests293-a100-hdr-default-gdr-level-no-gdrdma-cut-by-author.txt");
  ASSERT_TRUE(s.nccl_run.has_value()) << s.nccl_run.reason;
  EXPECT_EQ(s.nccl_run->net_channels, 4);
  EXPECT_EQ(s.nccl_run->gdrdma_channels, 0);
  EXPECT_EQ(s.nccl_run->network.value_or(""), "IBext_v8");
  EXPECT_EQ(s.nccl_run->network_source.line, 20u);  // test1's "Using network IBext_v8"
  EXPECT_EQ(s.nccl_run->channel_source.line, 36u);  // test1's first NET channel line
  ASSERT_EQ(s.inputs.size(), 1u);
  EXPECT_EQ(s.inputs[0].status, "parsed_with_warnings");
  bool said = false;
  for (const std::string& m : s.inputs[0].messages)
    said = said || m == "nccl_log.txt: several_hosts: the log holds the lines of test1, test2: only test1's are read "
                        "(the first; the capture names none of them)";
  EXPECT_TRUE(said);
}

// Real Grace captures: every GPU<->NIC pair is SYS (GB200, GPU NUMA ID set) or NODE (DGX Spark
// GB10, named by the pasted `nvidia-smi -L`). No PCIe switch by design, so the affinity rule does not
// fail. GB200 puts every NIC at SYS and a topology alone lacks the NICs' NUMA nodes, so which CPU
// they hang off is unknown; GB10 puts them at NODE, within the GPU's NUMA node: a pass.
TEST(Capture, GracePlatformIsNotFailedForHavingNoPcieSwitch) {
  struct Case {
    const char* file;
    std::size_t gpus;
    std::optional<int> memory_numa;
    const char* model;
    std::size_t gpu0_line;
    const char* why;
    Outcome outcome;
  };
  for (const Case& k : {Case{"gb200-4gpu-8nic-all-sys-gpu-numa-id-topo-m.txt", 4, 2, "", 6,
                             "closest NIC at SYS, through the Grace CPU, which is no fault (GPU NUMA ID 2: the GPU is coupled",
                             Outcome::unknown},
                        Case{"dgx-spark-gb10-cx7-rocep-node-topo-m.txt", 1, std::nullopt, "NVIDIA GB10", 9,
                             "rocep1s0f0 at NODE, on the GPU's own CPU (nvidia-smi NODE: within one NUMA node); NVIDIA GB10: the GPU is coupled",
                             Outcome::pass}}) {
    SCOPED_TRACE(k.file);
    Snapshot s = capture_of("nvidia_smi_topo.txt", std::string("nvidia_smi_topo/") + k.file);
    ASSERT_TRUE(s.gpus.has_value()) << s.gpus.reason;
    ASSERT_EQ(s.gpus->size(), k.gpus);
    const Gpu& g0 = s.gpus->front();
    EXPECT_EQ(g0.memory_numa_node, k.memory_numa);
    EXPECT_EQ(g0.model.value_or(""), k.model);
    EXPECT_EQ(g0.numa_node, 0);
    EXPECT_EQ(g0.source.line, k.gpu0_line);
    rules::Report r = rules::evaluate(s, default_policy(), {"gpudirect.gpu-nic-affinity"});
    ASSERT_EQ(r.findings.size(), k.gpus);
    for (const Finding& f : r.findings) {
      EXPECT_EQ(f.outcome, k.outcome) << f.subject << ": " << f.message;
      if (k.outcome == Outcome::unknown) {
        EXPECT_EQ(f.reason_kind, ReasonKind::not_captured) << f.subject;
      }
    }
    EXPECT_EQ(r.findings[0].message.rfind(k.why, 0), 0u) << r.findings[0].message;
  }
  // GB200 GPU2 sits on the second Grace: NUMA Affinity "1,19-25,27-33", GPU NUMA ID 18.
  Snapshot s = capture_of("nvidia_smi_topo.txt", "nvidia_smi_topo/gb200-4gpu-8nic-all-sys-gpu-numa-id-topo-m.txt");
  ASSERT_TRUE(s.gpus.has_value());
  EXPECT_EQ((*s.gpus)[2].numa_node, 1);
  EXPECT_EQ((*s.gpus)[2].memory_numa_node, 18);
}

// Real /proc/driver/nvidia/version and uname outputs: the open GPU kernel module 555.42.02 on a
// 6.8 kernel makes DMA-BUF GPUDirect possible without nvidia-peermem; the proprietary 515.76
// does not, and the failure says why.
TEST(Capture, NvidiaDriverAndKernelDecideWhetherDmaBufCanWork) {
  auto capture = [](const char* driver) {
    CaptureSet set;
    set.origin = "mem";
    set.files.push_back({"nvidia_version.txt", test::read_file(test::testdata_dir() / "corpus" / "nvidia_version" / driver), ""});
    set.files.push_back({"uname.txt",
                         test::read_file(test::testdata_dir() / "corpus" / "uname" /
                                         "warp-ik-gh200-uname-a-nvidia-64k-aarch64.txt"),
                         ""});
    // lsmod header and no nvidia_peermem: the module is proven absent only in a full listing.
    std::string lsmod = "Module                  Size  Used by\n";
    for (int i = 0; i < 25; ++i) lsmod += "mod" + std::to_string(i) + "                  16384  0\n";
    set.files.push_back({"lsmod.txt", lsmod, ""});
    return snapshot_from_capture(set);
  };
  Snapshot open = capture("cloud-t4-ubuntu2204-proc-driver-nvidia-version-open-kernel-module-555.42.02.txt");
  ASSERT_TRUE(open.nvidia_driver.has_value()) << open.nvidia_driver.reason;
  EXPECT_EQ(open.nvidia_driver->version, "555.42.02");
  EXPECT_EQ(open.nvidia_driver->open_module, true);
  EXPECT_EQ(open.nvidia_driver.source.line, 4u);
  ASSERT_TRUE(open.kernel_release.has_value()) << open.kernel_release.reason;
  EXPECT_EQ(*open.kernel_release, "6.8.0-1013-nvidia-64k");
  rules::Report r = rules::evaluate(open, default_policy(), {"gpudirect.peer-memory"});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].outcome, Outcome::pass) << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("open GPU kernel module 555.42.02 and kernel 6.8.0-1013-nvidia-64k"),
            std::string::npos) << r.findings[0].message;
  Snapshot prop = capture("cn-notes-gpu-driver-troubleshooting-proprietary-515.76.txt");
  ASSERT_TRUE(prop.nvidia_driver.has_value());
  EXPECT_EQ(prop.nvidia_driver->open_module, false);
  r = rules::evaluate(prop, default_policy(), {"gpudirect.peer-memory"});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].outcome, Outcome::fail) << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("the NVIDIA driver 515.76 is the proprietary kernel module"), std::string::npos)
      << r.findings[0].message;
  // Without the driver file: the gap says which file would tell.
  CaptureSet none;
  none.origin = "mem";
  none.files.push_back({"uname.txt", "5.15.0-91-generic\n", ""});
  Snapshot n = snapshot_from_capture(none);
  EXPECT_FALSE(n.nvidia_driver.has_value());
  EXPECT_NE(n.nvidia_driver.reason.find("/proc/driver/nvidia/version"), std::string::npos) << n.nvidia_driver.reason;
  ASSERT_TRUE(n.kernel_release.has_value());
  EXPECT_EQ(*n.kernel_release, "5.15.0-91-generic");
}

TEST(ToolTable, MissingToolReasonsComeFromTheTable) {
  CaptureSet set;
  set.origin = "mem";
  set.files.push_back(
      {"mlnx_qos@eth4.txt", test::read_file(test::testdata_dir() / "corpus" / "mlnx_qos" / "netarbiter-eth4-dscp-pfc3.txt"), ""});
  set.files.push_back({"rocekit-capture.log", "hostname: h\nmissing\tethtool_a\teth4\tethtool -a eth4\n", ""});
  Snapshot s = snapshot_from_capture(set);
  const NetDev* n = s.find_netdev("eth4");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->pause.reason, "ethtool_a missing on the host");
  EXPECT_EQ(n->pause.reason_kind, ReasonKind::tool_failed);
  EXPECT_EQ(n->coalesce.reason, "not captured (no ethtool -c eth4 output in the capture)");
  EXPECT_EQ(n->coalesce.reason_kind, ReasonKind::not_captured);
  EXPECT_EQ(n->qos->trust, Trust::dscp);
}

/// A dmesg capture alone, by name or by content: the kernel's bandwidth line judges the link.
TEST(Dmesg, LoneCaptureJudgesTheLinkWithTheKernelLine) {
  std::string file = test::read_file(test::testdata_dir() / "corpus" / "dmesg" / "jiegec-cx5-nfs-rdma-pcie-x8-limited.txt");
  for (const char* name : {"dmesg.txt", "kernel-log.txt"}) {
    SCOPED_TRACE(name);
    fs::path dir = fs::temp_directory_path() / ("rk-dmesg-" + std::string(name));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary) << file;
    Result<Snapshot> snap = load_input(dir);
    ASSERT_TRUE(snap.has_value());
    ASSERT_EQ(snap->inputs.size(), 1u);
    EXPECT_EQ(snap->inputs[0].tool, "dmesg");
    EXPECT_EQ(snap->inputs[0].status, "parsed");
    rules::Report report = rules::evaluate(*snap, default_policy());
    const Finding* f = nullptr;
    for (const Finding& x : report.findings)
      if (x.rule == "pcie.link-at-capability" && x.subject == "0001:43:00.0") f = &x;
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->outcome, Outcome::fail) << f->message;
    ASSERT_FALSE(f->evidence.empty());
    EXPECT_EQ(f->evidence[0].file, name);
    EXPECT_EQ(f->evidence[0].line, 5u);
    EXPECT_NE(f->evidence[0].text.find("limited by 8.0 GT/s PCIe x8 link at 0001:42:01.0"), std::string::npos);
    for (const PciFunction& p : snap->pci_functions)
      if (p.bdf == "0001:43:00.0") {
        ASSERT_TRUE(p.firmware.has_value());
        EXPECT_EQ(p.firmware->version, std::optional<std::string>("16.35.4030"));
      }
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace rk::capture

// Capture reading on bad input: the bad file is reported with its name, the rest still checked.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/reader.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/pipeline.hpp"

namespace rk {
namespace {
namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "rk-reader-XXXXXX").string();
    m_path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  const fs::path& path() const { return m_path; }
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(m_path / name, std::ios::binary) << bytes;
  }

 private:
  fs::path m_path;
};

const InputFile* input(const Snapshot& s, const std::string& name) {
  for (const InputFile& i : s.inputs)
    if (i.file == name) return &i;
  return nullptr;
}

TEST(CaptureReader, BadFilesAreNamedAndTheRestIsChecked) {
  TempDir dir;
  std::string qos = test::read_file(test::testdata_dir() /
                                    "hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt");
  dir.write("mlnx_qos@eth4.txt", qos);
  dir.write("empty.txt", "");
  dir.write("blob.bin", std::string("\x7f" "ELF\0\0\0binary", 13));
  dir.write("notes.txt", "hello, this is not a tool output\n");
  dir.write("ethtool_c@eth4.txt", "Coalesce parameters for eth4:\nAdaptive RX: banana\n\x01\x02\n");
  fs::create_symlink("/etc/passwd", dir.path() / "link.txt");

  Result<Snapshot> snap = load_input(dir.path());
  ASSERT_TRUE(snap.has_value()) << snap.error().describe();
  const NetDev* eth4 = snap->find_netdev("eth4");
  ASSERT_NE(eth4, nullptr);
  ASSERT_TRUE(eth4->qos.has_value());
  EXPECT_EQ(eth4->qos->trust, Trust::dscp);
  EXPECT_EQ(eth4->qos->dscp_to_priority.at(26), 3);

  ASSERT_NE(input(*snap, "empty.txt"), nullptr);
  for (const char* name : {"blob.bin", "notes.txt", "link.txt"})
    ASSERT_NE(input(*snap, name), nullptr) << name;
  EXPECT_EQ(input(*snap, "empty.txt")->status, "error");
  EXPECT_EQ(input(*snap, "blob.bin")->status, "error");
  EXPECT_NE(input(*snap, "blob.bin")->messages.at(0).find("binary"), std::string::npos);
  EXPECT_EQ(input(*snap, "notes.txt")->status, "ignored");
  EXPECT_NE(input(*snap, "notes.txt")->messages.at(0).find("notes.txt:1: unknown tool output"),
            std::string::npos);
  EXPECT_EQ(input(*snap, "link.txt")->status, "ignored");
  EXPECT_NE(input(*snap, "link.txt")->messages.at(0).find("symbolic link"), std::string::npos);
  const InputFile* garbled = input(*snap, "ethtool_c@eth4.txt");
  ASSERT_NE(garbled, nullptr);
  EXPECT_NE(garbled->status, "parsed");
  ASSERT_FALSE(garbled->messages.empty());
  EXPECT_NE(garbled->messages[0].find("ethtool_c@eth4.txt"), std::string::npos);

  rules::Report r = rules::evaluate(*snap, default_policy());
  bool trust_pass = false;
  for (const Finding& f : r.findings)
    if (f.rule == "qos.trust-dscp" && f.subject == "eth4") trust_pass = f.outcome == Outcome::pass;
  EXPECT_TRUE(trust_pass);
}

TEST(CaptureReader, MissingPathIsAnErrorNamingIt) {
  Result<Snapshot> snap = load_input("/nonexistent/rocekit/capture");
  ASSERT_FALSE(snap.has_value());
  EXPECT_EQ(snap.error().kind, ErrorKind::not_found);
  EXPECT_EQ(snap.error().context, "/nonexistent/rocekit/capture");
}

TEST(CaptureReader, CorruptTarballIsAnError) {
  TempDir dir;
  dir.write("capture.tar.gz", "this is not gzip");
  Result<Snapshot> snap = load_input(dir.path() / "capture.tar.gz");
  ASSERT_FALSE(snap.has_value());
  EXPECT_EQ(snap.error().kind, ErrorKind::malformed_input);
}

TEST(CaptureReader, SplitsToolAndTarget) {
  std::string tool;
  std::string target;
  ASSERT_TRUE(capture::split_capture_name("dir/lspci_vvv@0000:01:00.0.txt", tool, target));
  EXPECT_EQ(tool, "lspci_vvv");
  EXPECT_EQ(target, "0000:01:00.0");
  ASSERT_TRUE(capture::split_capture_name("show_gids.txt", tool, target));
  EXPECT_EQ(tool, "show_gids");
  EXPECT_EQ(target, "");
  EXPECT_FALSE(capture::split_capture_name("EXPECTED.md", tool, target));
}

TEST(CaptureReader, NormalizesBdf) {
  EXPECT_EQ(normalize_bdf("3d:00.1"), "0000:3d:00.1");
  EXPECT_EQ(normalize_bdf("0002:01:00.0"), "0002:01:00.0");
  EXPECT_EQ(normalize_bdf("pci/0000:AF:00.7"), "0000:af:00.7");
  EXPECT_EQ(normalize_bdf("eth0"), std::nullopt);
  EXPECT_EQ(normalize_bdf("00:20.0"), std::nullopt);  // device > 0x1f
}

}  // namespace
}  // namespace rk

namespace rk {
namespace {

// Output pasted with the shell prompt above it is used under the netdev the command names,
// and evidence line numbers still count the prompt line.
TEST(CaptureReader, PastedPromptNamesTheToolAndTarget) {
  TempDir dir;
  std::string qos = test::read_file(test::testdata_dir() /
                                    "hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt");
  std::string body(rk::parse::strip_capture_header(qos).body);
  dir.write("pasted.txt", "[root@gpu01 ~]# sudo mlnx_qos -i ens1f0np0\n" + body);
  Result<Snapshot> snap = load_input(dir.path());
  ASSERT_TRUE(snap.has_value()) << snap.error().describe();
  const InputFile* in = input(*snap, "pasted.txt");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->status, "parsed");
  EXPECT_EQ(in->tool, "mlnx_qos");
  EXPECT_EQ(in->target, "ens1f0np0");
  const NetDev* nd = snap->find_netdev("ens1f0np0");
  ASSERT_NE(nd, nullptr);
  ASSERT_TRUE(nd->qos.has_value());
  EXPECT_EQ(nd->qos->trust, Trust::dscp);
  EXPECT_EQ(nd->qos.source.file, "pasted.txt");
  EXPECT_EQ(nd->qos->trust_source.file, "pasted.txt");
  EXPECT_GE(nd->qos->trust_source.line, 2u);  // the prompt is line 1
}

}  // namespace
}  // namespace rk

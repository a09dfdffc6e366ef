// fw.driver-compat on real captures (testdata/corpus/ofed_info, ibv_devinfo, flint; sources in
// testdata/corpus/LOG.md). None of the public hosts found pairs an NVIDIA-branded board with a
// driver release the table has rows for, so each is `unknown`, and the reason says which part
// is missing: an OEM PSID, a release the table lacks, a DOCA-OFED string.
#include <algorithm>

#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/catalog/compat.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

CaptureFile corpus(const std::string& name, const std::string& rel) {
  return {name, test::read_file(test::testdata_dir() / "corpus" / rel), ""};
}

std::vector<Finding> compat(std::vector<CaptureFile> files) {
  CaptureSet set;
  set.files = std::move(files);
  return rules::evaluate(snapshot_from_capture(set), default_policy(), {"fw.driver-compat"}).findings;
}

TEST(DriverCompat, TheEmbeddedTableLoadsWhole) {
  // builtin() falls back to an empty table on a parse error: the counts of data/compat/README.md.
  const catalog::CompatTable& t = catalog::CompatTable::builtin();
  EXPECT_EQ(t.releases.size(), 26u);
  EXPECT_EQ(t.rows.size(), 112u);
  EXPECT_EQ(t.families.size(), 10u);
  const catalog::CompatRelease* r = t.release_by_ofed_info("MLNX_OFED_LINUX-23.10-1.1.9.0:");
  ASSERT_NE(r, nullptr);
  ASSERT_NE(t.row(r->id, "ConnectX-7"), nullptr);
  EXPECT_EQ(t.row(r->id, "ConnectX-7")->recommended, "28.39.2048");
}

// MLNX_OFED 5.8 LTS GA (basis mft-tested, data/compat/README.md): the ConnectX-4 Lx of the
// cn-notes host (real ethtool -i, firmware 14.32.1010, PSID MT_2420110034) under that release
// passes with its recommended firmware; the same board's 14.28.2006 (the host's other card) is
// not in the release notes and fails naming 14.32.1010 (the family by the firmware major: ethtool
// -i gives no PCI device id). The ofed_info line and the running
// module's version are what 5.8-1.0.1.1 prints; no public capture of that release was found.
TEST(DriverCompat, MlnxOfed58GaRowsJudgeTheConnectX4Lx) {
  const catalog::CompatTable& t = catalog::CompatTable::builtin();
  const catalog::CompatRelease* r = t.release_by_ofed_info("MLNX_OFED_LINUX-5.8-1.0.1.1:");
  ASSERT_NE(r, nullptr);
  ASSERT_NE(t.row(r->id, "ConnectX-6 Dx"), nullptr);
  EXPECT_EQ(t.row(r->id, "ConnectX-6 Dx")->recommended, "22.35.1012");
  EXPECT_EQ(t.row(r->id, "ConnectX-4"), nullptr);  // not in the MFT 4.22.0 table
  auto judge = [](const std::string& rel) {
    std::string eth = test::read_file(test::testdata_dir() / "corpus" / rel);
    std::size_t v = eth.find("version: 5.0-2.1.8");
    EXPECT_NE(v, std::string::npos);
    eth.replace(v, 18, "version: 5.8-1.0.1");
    return compat({{"ofed_info.txt", "MLNX_OFED_LINUX-5.8-1.0.1.1:\n", ""}, {"ethtool_i@eth01.txt", eth, ""}});
  };
  std::vector<Finding> ok = judge("ethtool_i/cn-notes-cx4lx-eth03-fw14.32.txt");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].outcome, Outcome::pass) << ok[0].message;
  EXPECT_EQ(ok[0].message.rfind("firmware 14.32.1010 (ConnectX-4 Lx, by its firmware major) with MLNX_OFED 5.8-1.0.1.1: the recommended firmware", 0), 0u)
      << ok[0].message;
  std::vector<Finding> old = judge("ethtool_i/cn-notes-cx4lx-eth01-fw14.28.txt");
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].outcome, Outcome::fail) << old[0].message;
  EXPECT_NE(old[0].message.find("14.32.1010"), std::string::npos) << old[0].message;
}

TEST(DriverCompat, UserTablesAreValidatedWithThePlaceOfTheError) {
  auto err = [](const std::string& json) {
    Result<catalog::CompatTable> t = catalog::CompatTable::parse(json, "t.json");
    return t ? std::string("ok") : t.error().message;
  };
  const std::string head = R"({"schema": "fw-driver-compat/1", "families": [{"family": "ConnectX-7", "device_ids": ["0x1021"], "fw_major": )";
  const std::string rel = R"(], "releases": [{"id": "r1", "stack": "MLNX_OFED", "version": "1.0", "match": {"ofed_info_s": "MLNX_OFED_LINUX-1.0"}}], "rows": [)";
  EXPECT_EQ(err(head + "28}" + rel + R"({"release": "r1", "family": "ConnectX-7", "recommended": "28.1.1", "source": "s"}]})"), "ok");
  EXPECT_EQ(err(head + "4294967310}" + rel + "]}"), "families[0]: fw_major 4294967310 is not 1..999");
  EXPECT_EQ(err(head + "28}" + rel + R"({"release": "r2", "family": "ConnectX-7", "recommended": "28.1.1", "source": "s"}]})"),
            "rows[0]: release \"r2\" is not in releases");
  EXPECT_EQ(err(head + "28}" + rel + R"({"release": "r1", "family": "ConnectX-7", "recommended": "banana", "source": "s"}]})"),
            "rows[0]: firmware \"banana\" is not NN.NN.NNNN");
  EXPECT_EQ(err(head + "28}" + rel + R"({"release": "r1", "family": "ConnectX-7", "recommended": "28.1.1"}]})"),
            "rows[0]: needs \"release\", \"family\", \"recommended\" and \"source\"");
}

TEST(DriverCompat, AzureVmOemPsidsAreUnknownNotJudgedAgainstNvidiaTables) {
  std::vector<Finding> f = compat({corpus("ofed_info.txt", "ofed_info/azure-nd-h200-mlnx-ofed-23.10-1.1.9.0.txt"),
                                   corpus("ibv_devinfo.txt", "ibv_devinfo/azure-nd-h200-cx7-vf-msf-psid.txt")});
  ASSERT_EQ(f.size(), 9u);  // mlx5_ib0..7 and mlx5_an0
  for (const Finding& x : f) {
    EXPECT_EQ(x.outcome, Outcome::unknown) << x.subject << ": " << x.message;
    EXPECT_NE(x.message.find(": an OEM-branded board (PSID MSF00000000"), std::string::npos) << x.message;
  }
  auto ib0 = std::find_if(f.begin(), f.end(), [](const Finding& x) { return x.subject == "mlx5_ib0"; });
  ASSERT_NE(ib0, f.end());
  // The ConnectX-7 VF's device id (0x101e) is no PF in the table: the family comes from the
  // firmware major of an mlx5_* device.
  EXPECT_EQ(ib0->message.rfind("firmware 28.40.1702 (ConnectX-7, by its firmware major) with MLNX_OFED 23.10-1.1.9.0: an "
                               "OEM-branded board (PSID MSF0000000047)", 0),
            0u) << ib0->message;
}

TEST(DriverCompat, ReleaseMissingFromTheTableIsUnknownWithTheRelease) {
  std::vector<Finding> f = compat({corpus("ofed_info.txt", "ofed_info/cn-note-cx7-mlnx-ofed-24.10-3.2.5.0-prompt.txt"),
                                   corpus("ibv_devinfo.txt", "ibv_devinfo/azure-nd-h200-cx7-vf-msf-psid.txt")});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].subject, "host");
  EXPECT_EQ(f[0].outcome, Outcome::unknown);
  EXPECT_EQ(f[0].message.rfind("MLNX_OFED_LINUX-24.10-3.2.5.0 is not in the compatibility table, which knows MLNX_OFED 5.8-1.0.1.1, 5.8-3.0.7.0", 0), 0u) << f[0].message;
  EXPECT_NE(f[0].message.find("firmware not judged: mlx5_an0 16.30.5000"), std::string::npos) << f[0].message;
  ASSERT_FALSE(f[0].evidence.empty());
  EXPECT_EQ(f[0].evidence[0].file, "ofed_info.txt");
  EXPECT_EQ(f[0].evidence[0].line, 5u);  // after the 3 header lines and the prompt line
}

TEST(DriverCompat, DocaOfedStringDoesNotNameTheDocaRelease) {
  std::vector<Finding> f = compat({corpus("ofed_info.txt", "ofed_info/dgx-spark-doca-ofed-internal-25.10.txt"),
                                   corpus("ibv_devinfo.txt", "ibv_devinfo/azure-nd-h200-cx7-vf-msf-psid.txt")});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].outcome, Outcome::unknown);
  EXPECT_EQ(f[0].message.rfind("OFED-internal-25.10-1.7.1 is DOCA-OFED", 0), 0u) << f[0].message;
}

TEST(DriverCompat, NoDriverReleaseCapturedSaysWhatToRun) {
  std::vector<Finding> f = compat({corpus("ibv_devinfo.txt", "ibv_devinfo/azure-nd-h200-cx7-vf-msf-psid.txt")});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].outcome, Outcome::unknown);
  EXPECT_NE(f[0].message.find("ofed_info -s"), std::string::npos) << f[0].message;
}

}  // namespace
}  // namespace rk::capture

// Acceptance: every host bundle in testdata/hosts, checked with the default policy, reports each
// outcome of its expected.json for the same rule and subject (extra findings are allowed).
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/pipeline.hpp"

namespace rk {
namespace {

std::vector<std::string> bundle_names() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(test::testdata_dir() / "hosts"))
    if (e.is_directory() && std::filesystem::exists(e.path() / "expected.json"))
      out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class Bundle : public ::testing::TestWithParam<std::string> {};

TEST_P(Bundle, ReportsEveryExpectedOutcome) {
  std::filesystem::path dir = test::testdata_dir() / "hosts" / GetParam();
  nlohmann::json expected = nlohmann::json::parse(test::read_file(dir / "expected.json"));
  Result<Snapshot> snap = load_input(dir);
  ASSERT_TRUE(snap.has_value()) << snap.error().describe();
  rules::Report report = rules::evaluate(*snap, default_policy());
  ASSERT_FALSE(expected["findings"].empty());
  for (const nlohmann::json& row : expected["findings"]) {
    std::string rule = row["rule"];
    std::string subject = row["subject"];
    std::string outcome = row["outcome"];
    const Finding* found = nullptr;
    for (const Finding& f : report.findings)
      if (f.rule == rule && f.subject == subject) found = &f;
    ASSERT_NE(found, nullptr) << rule << " on " << subject << ": no finding";
    EXPECT_EQ(std::string(to_string(found->outcome)), outcome)
        << rule << " on " << subject << ": " << found->message;
    if (found->outcome == Outcome::fail) {
      EXPECT_FALSE(found->evidence.empty()) << rule << " on " << subject << " has no evidence";
      EXPECT_TRUE(!found->remediation.commands.empty() || !found->remediation.notes.empty())
          << rule << " on " << subject << " has no remediation";
    }
  }
  // Every input file of the bundle was identified and parsed.
  for (const InputFile& in : snap->inputs)
    EXPECT_NE(in.status, "error") << in.file << ": " << (in.messages.empty() ? "" : in.messages[0]);
}

TEST(SnapshotJson, WrongTypeNamesTheFieldWithoutLibraryJargon) {
  Result<Snapshot> snap = load_input(test::testdata_dir() / "hosts" / "cx4lx-4port-fw-mismatch");
  ASSERT_TRUE(snap.has_value());
  nlohmann::json j = snapshot_to_json(*snap);
  j["netdevs"][0]["mtu_bytes"]["value"] = "big";
  Result<Snapshot> back = snapshot_from_json(j);
  ASSERT_FALSE(back.has_value());
  EXPECT_EQ(back.error().message,
            "bad snapshot field: (/netdevs/0/mtu_bytes/value) expected an integer, got \"big\"");
}

TEST_P(Bundle, SnapshotRoundTripsThroughJson) {
  std::filesystem::path dir = test::testdata_dir() / "hosts" / GetParam();
  Result<Snapshot> snap = load_input(dir);
  ASSERT_TRUE(snap.has_value());
  nlohmann::json once = snapshot_to_json(*snap);
  Result<Snapshot> back = snapshot_from_json(once);
  ASSERT_TRUE(back.has_value()) << back.error().describe();
  EXPECT_EQ(snapshot_to_json(*back), once);
  // Evaluating the reloaded snapshot gives the same findings.
  rules::Report a = rules::evaluate(*snap, default_policy());
  rules::Report b = rules::evaluate(*back, default_policy());
  ASSERT_EQ(a.findings.size(), b.findings.size());
  for (std::size_t i = 0; i < a.findings.size(); ++i) {
    EXPECT_EQ(a.findings[i].rule, b.findings[i].rule);
    EXPECT_EQ(a.findings[i].subject, b.findings[i].subject);
    EXPECT_EQ(a.findings[i].outcome, b.findings[i].outcome);
  }
}

/// Whole-word occurrence of `name` in `line` (mlx5_1 is not in mlx5_10).
bool names(std::string_view line, const std::string& name) {
  for (std::size_t p = line.find(name); p != std::string_view::npos; p = line.find(name, p + 1)) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    bool left = p == 0 || !word(line[p - 1]);
    bool right = p + name.size() >= line.size() || !word(line[p + name.size()]);
    if (left && right) return true;
  }
  return false;
}

// Evidence never contradicts its finding: every cited line holds the cited text, and in a file
// that covers several netdevs or RDMA devices (a system-check report, ibv_devinfo of all
// devices), the last device named at or above the cited line is the finding's own subject.
TEST_P(Bundle, EvidenceCitesTheSubjectsOwnLine) {
  std::filesystem::path dir = test::testdata_dir() / "hosts" / GetParam();
  Result<Snapshot> snap = load_input(dir);
  ASSERT_TRUE(snap.has_value()) << snap.error().describe();
  std::vector<std::string> devices;
  for (const NetDev& n : snap->netdevs) devices.push_back(n.name);
  for (const RdmaDevice& r : snap->rdma_devices) devices.push_back(r.name);
  std::map<std::string, std::vector<std::string>> files;
  std::size_t checked = 0, judged = 0;
  for (const Finding& f : rules::evaluate(*snap, default_policy()).findings) {
    judged += f.outcome == Outcome::pass || f.outcome == Outcome::fail;
    std::string subject = f.subject.substr(0, f.subject.find('/'));  // "mlx5_0/1": the device
    for (const Evidence& e : f.evidence) {
      if (e.line == 0 || e.text.empty() || !std::filesystem::exists(dir / e.file)) continue;
      auto [it, fresh] = files.try_emplace(e.file);
      if (fresh) {
        std::string whole = test::read_file(dir / e.file);
        for (std::string_view l : text::lines(whole)) it->second.emplace_back(l);
      }
      const std::vector<std::string>& ls = it->second;
      ASSERT_LE(e.line, ls.size()) << f.rule << " " << f.subject << ": " << e.file << ":" << e.line;
      EXPECT_NE(ls[e.line - 1].find(e.text), std::string::npos)
          << f.rule << " " << f.subject << ": " << e.file << ":" << e.line << " does not hold \"" << e.text << "\"";
      ++checked;
      bool own = std::find(devices.begin(), devices.end(), subject) != devices.end();
      std::set<std::string> in_file;
      for (const std::string& l : ls)
        for (const std::string& d : devices)
          if (names(l, d)) in_file.insert(d);
      if (!own || in_file.size() < 2 || !in_file.count(subject)) continue;
      for (std::size_t k = e.line; k >= 1; --k) {
        std::vector<std::string> named;
        for (const std::string& d : devices)
          if (names(ls[k - 1], d)) named.push_back(d);
        if (named.empty()) continue;
        EXPECT_NE(std::find(named.begin(), named.end(), subject), named.end())
            << f.rule << " on " << f.subject << " cites " << e.file << ":" << e.line << " (\"" << e.text
            << "\"), which is in the section of " << named.front() << " (line " << k << ")";
        break;
      }
    }
  }
  if (judged > 0) {  // a VF's bundle judges nothing
    EXPECT_GT(checked, 0u) << "no finding cites a line";
  }
}

INSTANTIATE_TEST_SUITE_P(Hosts, Bundle, ::testing::ValuesIn(bundle_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

TEST(Bundles, AllEighteenArePresent) { EXPECT_EQ(bundle_names().size(), 18u); }

}  // namespace
}  // namespace rk

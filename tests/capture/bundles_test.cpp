// Acceptance: every host bundle in testdata/hosts, checked with the default policy, reports each
// outcome of its expected.json for the same rule and subject (extra findings are allowed).
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"
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
            "bad snapshot field: (/netdevs/0/mtu_bytes/value) type must be number, but is string");
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

INSTANTIATE_TEST_SUITE_P(Hosts, Bundle, ::testing::ValuesIn(bundle_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

TEST(Bundles, AllFourteenArePresent) { EXPECT_EQ(bundle_names().size(), 14u); }

}  // namespace
}  // namespace rk

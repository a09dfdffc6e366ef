// Walks the rule registry: every outcome a rule declares has a case that gives it, and every case
// gives the outcome it names (cases in tests/rules/*_cases.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cases.hpp"
#include "golden.hpp"

namespace rk::testcases {

std::vector<OutcomeCase>& all_cases() {
  static std::vector<OutcomeCase> k_cases;
  return k_cases;
}

Cases::Cases(std::initializer_list<OutcomeCase> cases) {
  for (const OutcomeCase& c : cases) all_cases().push_back(c);
}

namespace {

std::string case_name(const ::testing::TestParamInfo<std::size_t>& info) {
  const OutcomeCase& c = all_cases()[info.param];
  std::string name = std::to_string(info.param) + "_" + c.rule + "_" + std::string(to_string(c.outcome));
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

std::vector<std::size_t> case_indexes() {
  std::vector<std::size_t> v;
  for (std::size_t i = 0; i < all_cases().size(); ++i) v.push_back(i);
  return v;
}

class RuleOutcome : public ::testing::TestWithParam<std::size_t> {};

TEST_P(RuleOutcome, CaseGivesItsOutcome) {
  const OutcomeCase& c = all_cases()[GetParam()];
  ASSERT_NE(rules::find_rule(c.rule), nullptr) << "no rule " << c.rule;
  std::vector<Finding> fs = c.run();
  std::string seen;
  for (const Finding& f : fs) {
    if (f.rule != c.rule) continue;
    seen += "\n  " + std::string(to_string(f.outcome)) + " " + f.subject + ": " + f.message;
    if (f.outcome != c.outcome) continue;
    if (!c.subject.empty() && f.subject != c.subject) continue;
    if (!c.message.empty() && f.message.find(c.message) == std::string::npos) continue;
    SUCCEED();
    return;
  }
  ADD_FAILURE() << c.rule << ": no " << to_string(c.outcome) << " finding"
                << (c.subject.empty() ? "" : " on " + c.subject)
                << (c.message.empty() ? "" : " with \"" + c.message + "\"")
                << "; the rule gave:" << (seen.empty() ? " nothing" : seen);
}

INSTANTIATE_TEST_SUITE_P(Cases, RuleOutcome, ::testing::ValuesIn(case_indexes()), case_name);

TEST(RuleOutcomes, EveryDeclaredOutcomeOfEveryRuleHasACase) {
  std::set<std::pair<std::string, Outcome>> covered;
  for (const OutcomeCase& c : all_cases()) covered.emplace(c.rule, c.outcome);
  std::size_t needed = 0;
  for (const rules::RuleInfo& r : rules::registry()) {
    EXPECT_FALSE(r.outcomes.empty()) << r.id << " declares no outcome";
    for (Outcome o : r.outcomes.list()) {
      ++needed;
      EXPECT_TRUE(covered.count({std::string(r.id), o}))
          << r.id << " can give " << to_string(o) << " but tests/rules has no case for it";
    }
  }
  EXPECT_GE(needed, rules::registry().size());
}

TEST(RuleOutcomes, EveryCaseNamesADeclaredOutcome) {
  for (const OutcomeCase& c : all_cases()) {
    const rules::RuleInfo* r = rules::find_rule(c.rule);
    ASSERT_NE(r, nullptr) << c.rule;
    EXPECT_TRUE(r->outcomes.has(c.outcome))
        << c.rule << ": a case gives " << to_string(c.outcome) << ", which its RuleInfo does not declare";
  }
}

// The other direction: every outcome the host bundles and fixture trees give (their
// expected.json) is one its rule declares.
TEST(RuleOutcomes, EveryOutcomeSeenOnTestdataIsDeclared) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(test::testdata_dir() / "hosts"))
    if (std::filesystem::exists(e.path() / "expected.json")) files.push_back(e.path() / "expected.json");
  for (const auto& e : std::filesystem::directory_iterator(test::testdata_dir() / "sysroots"))
    if (e.path().string().ends_with(".expected.json")) files.push_back(e.path());
  ASSERT_GE(files.size(), 14u);
  std::size_t seen = 0;
  for (const std::filesystem::path& f : files) {
    nlohmann::json j = nlohmann::json::parse(test::read_file(f));
    for (const nlohmann::json& x : j["findings"]) {
      const rules::RuleInfo* r = rules::find_rule(x["rule"].get<std::string>());
      ASSERT_NE(r, nullptr) << f << ": " << x.dump();
      std::optional<Outcome> o = outcome_from_string(x["outcome"].get<std::string>());
      ASSERT_TRUE(o.has_value()) << f << ": " << x.dump();
      EXPECT_TRUE(r->outcomes.has(*o)) << f << ": " << r->id << " gave " << to_string(*o)
                                       << ", which its RuleInfo does not declare";
      ++seen;
    }
  }
  EXPECT_GT(seen, 100u);
}

TEST(RuleRegistry, IdsAreUniqueAndPrefixedByFamily) {
  std::set<std::string_view> ids;
  for (const rules::RuleInfo& r : rules::registry()) {
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_FALSE(r.title.empty() || r.rationale.empty() || r.inputs.empty() || r.subject.empty()) << r.id;
    std::string_view prefix = r.id.substr(0, r.id.find('.') + 1);
    switch (r.family) {
      case rules::Family::host:
        EXPECT_NE(r.eval, nullptr) << r.id;
        EXPECT_TRUE(prefix != "switch." && prefix != "fleet." && prefix != "diag.") << r.id;
        break;
      case rules::Family::switch_port: EXPECT_EQ(prefix, "switch.") << r.id; break;
      case rules::Family::fleet: EXPECT_EQ(prefix, "fleet.") << r.id; break;
      case rules::Family::diagnose: EXPECT_EQ(prefix, "diag.") << r.id; break;
    }
    if (r.family != rules::Family::host) {
      EXPECT_EQ(r.eval, nullptr) << r.id;
    }
  }
  EXPECT_EQ(rules::rules_of(rules::Family::host).size(), 42u);
  EXPECT_EQ(rules::rules_of(rules::Family::switch_port).size(), 8u);
  EXPECT_EQ(rules::rules_of(rules::Family::fleet).size(), 14u);
  EXPECT_EQ(rules::rules_of(rules::Family::diagnose).size(), 15u);
}

TEST(RuleRegistry, PolicyMayConfigureHostSwitchAndFleetRules) {
  std::vector<std::string> ids = rules::policy_rule_ids();
  std::size_t expected = 0;
  for (const rules::RuleInfo& r : rules::registry())
    if (r.family != rules::Family::diagnose) {
      ++expected;
      EXPECT_NE(std::find(ids.begin(), ids.end(), std::string(r.id)), ids.end()) << r.id;
    }
  EXPECT_EQ(ids.size(), expected);
  EXPECT_EQ(std::find(ids.begin(), ids.end(), "diag.pause-storm"), ids.end());
}

}  // namespace
}  // namespace rk::testcases

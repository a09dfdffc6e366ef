// One cross-host comparison (judge.hpp): majority or policy reference, ties, too few values.
#include "rocekit/fleet/judge.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace rk::fleet {

namespace {

const std::string k_no_reason = "not collected";

/// "not captured (10); no netdev for this NIC in the input (4)": why the unknown subjects are
/// unknown, most common first (three at most); one reason alone without its count.
std::string reasons_of(const std::vector<Sample>& samples) {
  std::map<std::string_view, std::size_t> n;
  for (const Sample& s : samples)
    if (!s.value) ++n[s.reason ? *s.reason : k_no_reason];
  std::vector<std::pair<std::string_view, std::size_t>> v(n.begin(), n.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (v.size() == 1) return std::string(v[0].first);
  std::string out;
  for (std::size_t i = 0; i < v.size() && i < 3; ++i)
    out += (out.empty() ? "" : "; ") + std::string(v[i].first) + " (" + std::to_string(v[i].second) + ")";
  if (v.size() > 3) out += "; " + plural(v.size() - 3, "other reason", "other reasons");
  return out;
}

/// "tie: 2 NICs say 9000, 2 say 1500" (every value, five at most).
std::string tie_text(const Consistency& c, Nouns nouns) {
  std::string out = "tie: ";
  for (std::size_t i = 0; i < c.distribution.size(); ++i) {
    const auto& [v, n] = c.distribution[i];
    if (i == 5) {
      out += ", ... (" + std::to_string(c.distribution.size()) + " values)";
      break;
    }
    if (i > 0) out += ", ";
    out += i == 0 ? plural(n, nouns.one, nouns.many) + (n == 1 ? " says " : " say ")
                  : std::to_string(n) + (n == 1 ? " says " : " say ");
    out += v;
  }
  return out;
}

}  // namespace

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

Consistency blank_check(std::string_view rule_id, std::string setting, std::string group) {
  Consistency c;
  c.rule = std::string(rule_id);
  const FleetRule* rule = find_fleet_rule(rule_id);
  c.severity = rule ? rule->severity : Severity::warning;
  c.setting = std::move(setting);
  c.group = std::move(group);
  return c;
}

namespace {

/// The check with its counts filled in (known, unknown, distribution most common first) and the
/// "(N NICs unknown: reasons)" note for its message.
std::pair<Consistency, std::string> tally(std::string_view rule_id, std::string setting, std::string group,
                                          const std::vector<Sample>& samples, Nouns nouns,
                                          const std::optional<PolicyValue>& policy) {
  Consistency c = blank_check(rule_id, std::move(setting), std::move(group));
  if (policy) c.policy_value = policy->text;
  std::unordered_map<std::string_view, std::size_t> counts;
  for (const Sample& s : samples) {
    if (s.value) {
      ++counts[*s.value];
      ++c.known;
    } else {
      ++c.unknown_count;
      if (c.unknown.size() < 20) c.unknown.push_back({*s.host, *s.subject, s.reason ? *s.reason : k_no_reason});
    }
  }
  for (auto& [v, n] : counts) c.distribution.emplace_back(std::string(v), n);
  std::sort(c.distribution.begin(), c.distribution.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::string unknown_note =
      c.unknown_count ? " (" + plural(c.unknown_count, nouns.one, nouns.many) + " unknown: " + reasons_of(samples) + ")"
                      : "";
  return {std::move(c), std::move(unknown_note)};
}

}  // namespace

Consistency judge(std::string_view rule_id, std::string setting, std::string group,
                  const std::vector<Sample>& samples, Nouns nouns, const std::optional<PolicyValue>& policy) {
  auto [c, unknown_note] = tally(rule_id, std::move(setting), std::move(group), samples, nouns, policy);
  if (c.known == 0) {
    c.message = "no " + std::string(nouns.one) + " reports " + c.setting + unknown_note;
    return c;
  }
  if (c.known == 1) {  // consistency needs two values to compare
    const std::string& v = c.distribution.front().first;
    c.message = samples.size() == 1
                    ? "only 1 " + std::string(nouns.one) + " in this group (" + v + "): nothing to compare it with"
                    : "only 1 " + std::string(nouns.one) + " of " + std::to_string(samples.size()) + " reports " +
                          c.setting + " (" + v + "): consistency needs at least two" + unknown_note;
    return c;
  }
  const auto& [top, top_count] = c.distribution.front();
  c.tie = c.distribution.size() > 1 && c.distribution[1].second == top_count;
  if (policy && (c.tie || !policy->meets(top))) {
    for (const Sample& s : samples)
      if (s.value && !policy->meets(*s.value)) c.outliers.push_back({*s.host, *s.subject, *s.value});
    if (c.outliers.empty()) {  // a tie between values that all meet the policy
      for (const Sample& s : samples)
        if (s.value) c.tied.push_back({*s.host, *s.subject, *s.value});
      c.message = tie_text(c, nouns) + "; every value meets the policy (" + policy->text +
                  "): no reference to tell the outliers" + unknown_note;
      return c;
    }
    c.reference = "policy";
    c.baseline = policy->text;
    c.baseline_count = c.known - c.outliers.size();
    c.outcome = Outcome::fail;
    c.message = (c.tie ? tie_text(c, nouns) + "; the policy value (" + policy->text + ") is the reference"
                       : "majority " + top + " violates the policy (" + policy->text +
                             "); the policy value is the reference") +
                ": " + plural(c.outliers.size(), nouns.one, nouns.many) + " of " + std::to_string(c.known) +
                (c.outliers.size() == 1 ? " violates it" : " violate it") + unknown_note;
    return c;
  }
  if (c.tie) {  // no majority and no policy value: no half is "the outliers"
    for (const Sample& s : samples)
      if (s.value) c.tied.push_back({*s.host, *s.subject, *s.value});
    c.message = tie_text(c, nouns) + ": no majority and no policy value to take as the reference" + unknown_note;
    return c;
  }
  c.reference = "majority";
  c.baseline = top;
  c.baseline_count = top_count;
  for (const Sample& s : samples)
    if (s.value && *s.value != c.baseline) c.outliers.push_back({*s.host, *s.subject, *s.value});
  if (c.outliers.empty()) {
    c.outcome = Outcome::pass;
    c.message = "all " + plural(c.known, nouns.one, nouns.many) + ": " + c.baseline + unknown_note;
  } else {
    c.outcome = Outcome::fail;
    c.message = plural(c.outliers.size(), nouns.one, nouns.many) + " of " + std::to_string(c.known) +
                (c.outliers.size() == 1 ? " differs" : " differ") + " from the majority baseline " + c.baseline +
                " (" + std::to_string(c.baseline_count) + "/" + std::to_string(c.known) + ")" + unknown_note;
  }
  return c;
}

Consistency judge_against(std::string_view rule_id, std::string setting, std::string group,
                          const std::vector<Sample>& samples, Nouns nouns, const std::optional<PolicyValue>& policy,
                          const std::string& baseline_host) {
  auto [c, unknown_note] = tally(rule_id, std::move(setting), std::move(group), samples, nouns, policy);
  std::map<std::string, std::size_t> own;  // the baseline host's values in this group
  for (const Sample& s : samples)
    if (s.value && *s.host == baseline_host) ++own[*s.value];
  if (own.empty()) {
    c.message = "the baseline host " + baseline_host + " has no " + std::string(nouns.one) + " in this group that reports " +
                c.setting + ": not compared" + unknown_note;
    return c;
  }
  if (own.size() > 1) {
    std::string values;
    for (const auto& [v, n] : own) values += (values.empty() ? "" : ", ") + v + " on " + plural(n, nouns.one, nouns.many);
    c.message = "the baseline host " + baseline_host + " itself has " + std::to_string(own.size()) + " values (" +
                values + "): no single reference" + unknown_note;
    for (const Sample& s : samples)
      if (s.value) c.tied.push_back({*s.host, *s.subject, *s.value});
    return c;
  }
  c.reference = "baseline";
  c.baseline = own.begin()->first;
  for (const Sample& s : samples) {
    if (!s.value) continue;
    if (*s.value == c.baseline) ++c.baseline_count;
    else c.outliers.push_back({*s.host, *s.subject, *s.value});
  }
  c.reference_violates_policy = policy && !policy->meets(c.baseline);
  const std::string violates =
      c.reference_violates_policy ? "; the baseline's value violates the policy (" + policy->text + ")" : "";
  if (c.outliers.empty()) {
    c.outcome = Outcome::pass;
    c.message = "all " + plural(c.known, nouns.one, nouns.many) + " as the baseline host " + baseline_host + ": " +
                c.baseline + violates + unknown_note;
  } else {
    c.outcome = Outcome::fail;
    c.message = plural(c.outliers.size(), nouns.one, nouns.many) + " of " + std::to_string(c.known) +
                (c.outliers.size() == 1 ? " differs" : " differ") + " from the baseline host " + baseline_host + " (" +
                c.baseline + ")" + violates + unknown_note;
  }
  return c;
}

}  // namespace rk::fleet

// One cross-host comparison: samples of one setting within one group -> Consistency (the
// reference, outliers, ties, unknowns; fleet.hpp `Consistency` gives the rule). Internal to
// rk_fleet (compare.cpp builds the groups).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/fleet/fleet.hpp"
#include "rocekit/fleet/reference.hpp"

namespace rk::fleet {

struct Sample {
  const std::string* host;
  const std::string* subject;
  const std::string* value;   ///< nullptr = unknown
  const std::string* reason;  ///< when unknown (nullptr: "not collected")
};

/// What is compared: "NIC"/"NICs", "PF"/"PFs", "physical NIC"/"physical NICs".
struct Nouns {
  std::string_view one, many;
};

std::string plural(std::size_t n, std::string_view one, std::string_view many);

/// A Consistency with the rule's id, built-in severity, setting and group filled in.
Consistency blank_check(std::string_view rule_id, std::string setting, std::string group);

/// Judges `samples`: needs two known values; the majority is the reference unless it violates
/// `policy` or there is a tie (then the policy value is, when there is one).
Consistency judge(std::string_view rule_id, std::string setting, std::string group,
                  const std::vector<Sample>& samples, Nouns nouns, const std::optional<PolicyValue>& policy);

/// Judges `samples` against the value `baseline_host` has in this group (fleet --baseline):
/// every subject with another value is an outlier. Unknown when the baseline host has no value
/// here, or several. A baseline value that violates `policy` is still the reference (said in the
/// message; the host rules judge the policy).
Consistency judge_against(std::string_view rule_id, std::string setting, std::string group,
                          const std::vector<Sample>& samples, Nouns nouns, const std::optional<PolicyValue>& policy,
                          const std::string& baseline_host);

}  // namespace rk::fleet

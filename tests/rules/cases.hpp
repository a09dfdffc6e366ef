// Per-outcome rule cases: every rule of the registry (rules/rule.hpp) declares the outcomes it
// can give; tests/rules holds one hand-built case per (rule, outcome), and
// outcomes_test.cpp fails when a declared outcome has no case or a case does not give it.
// Each family file (host_*_cases.cpp, switch_cases.cpp, fleet_cases.cpp, diagnose_cases.cpp)
// adds its cases with a static `Cases` object.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "rocekit/model/finding.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::testcases {

struct OutcomeCase {
  std::string rule;     ///< rule id
  Outcome outcome;      ///< the outcome the case must give
  std::string subject;  ///< the subject of that finding ("" = any subject)
  std::string message;  ///< a piece of the finding's message ("" = any)
  /// Runs the rule's family on a hand-built input; returns its findings (every family's result
  /// is expressed as findings: see diagnose_findings and fleet_findings).
  std::function<std::vector<Finding>()> run;
};

/// Every case, in registration order.
std::vector<OutcomeCase>& all_cases();

/// Registers cases at static-initialisation time.
struct Cases {
  Cases(std::initializer_list<OutcomeCase> cases);
};

}  // namespace rk::testcases

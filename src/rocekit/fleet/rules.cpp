// The fleet rules: the Family::fleet rows of the one rule registry (rules/table_fleet.cpp).
#include "rocekit/fleet/fleet.hpp"

namespace rk::fleet {

const std::vector<FleetRule>& fleet_rules() { return rules::rules_of(rules::Family::fleet); }

const FleetRule* find_fleet_rule(std::string_view id) {
  const rules::RuleInfo* r = rules::find_rule(id);
  return r && r->family == rules::Family::fleet ? r : nullptr;
}

}  // namespace rk::fleet

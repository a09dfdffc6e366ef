// What the policy requires of a compared fleet setting, in the setting's canonical value form
// (fleet.hpp `setting`). Internal to rk_fleet: compare.cpp uses it to pick the reference of a
// comparison when the majority violates the policy or there is no majority.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "rocekit/policy/policy.hpp"

namespace rk::fleet {

struct PolicyValue {
  std::string text;  ///< the requirement as the report shows it: "dscp", "3", ">= 4200"
  std::function<bool(std::string_view value)> meets;  ///< a canonical value meets the policy
};

/// The policy's requirement for `setting`, the same the per-host rules check: trust ==
/// policy.trust; dscp_map sends the RoCE and CNP DSCPs to their priorities (only with trust
/// dscp); pfc on exactly the policy's priorities; ecn RP and NP on each ECN priority; cnp the
/// policy's CNP DSCP and priority; mtu >= netdev_mtu_min_bytes; max_read_request >=
/// max_read_request_bytes; coalescing the profile's adaptive-rx and usecs ranges. nullopt for
/// settings the policy has no value for (firmware, driver, nv.*).
std::optional<PolicyValue> policy_value(std::string_view setting, const Policy& policy);

}  // namespace rk::fleet

// Helpers for the host rule cases (host_*_cases.cpp): hand-built snapshots and a case that runs
// one host rule through rules::evaluate.
#pragma once

#include <functional>

#include "cases.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::testcases {

/// A case for host rule `rule`: evaluates only that rule on `build()` with `policy`.
inline OutcomeCase host_case(std::string rule, Outcome o, std::string subject, std::string message,
                             std::function<Snapshot()> build, Policy policy = default_policy()) {
  std::string id = rule;
  return OutcomeCase{std::move(rule), o, std::move(subject), std::move(message),
                     [id, build, policy] { return rules::evaluate(build(), policy, {id}).findings; }};
}

/// An NV parameter as `mlxconfig q` shows it (current = next boot = `value`).
inline NvParam nv(std::string name, std::string value) {
  return NvParam{std::move(name), std::nullopt, value, value, std::nullopt, false, 10};
}

/// Snapshot with one PCI function 0000:3b:00.0 whose firmware query shows `params`.
inline Snapshot with_nv(std::vector<NvParam> params) {
  Snapshot s;
  PciFunction& p = s.pci("0000:3b:00.0");
  NvConfig c;
  c.params = std::move(params);
  p.nv_config.value = c;
  p.nv_config.source = {"mlxconfig_q@0000:3b:00.0.txt", 1, "hand-built"};
  return s;
}

}  // namespace rk::testcases

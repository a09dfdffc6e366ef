// What the QoS rule files share: the netdevs they judge and the backend a fix is written for.
#pragma once

#include "rocekit/policy/scope.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

/// The QoS backend a fix is written for first: iproute2 `dcb` when the state was read through
/// dcbnl (a live host, a `dcb` capture), else mlnx_qos (its output is what the capture shows).
inline bool prefers_dcb(const NetDev& n) {
  const std::string& from = n.qos.source.file;
  return from.starts_with("dcbnl") || from.starts_with("/sys/") || from.find("dcb") != std::string::npos;
}

/// The netdevs QoS rules are judged on: RoCE netdevs (roce_netdev_scope); the others get
/// not_applicable with the reason.
template <class Fn>
void for_roce_netdevs(const Snapshot& s, const Policy& pol, Emitter& e, Fn fn) {
  if (s.netdevs.empty()) {
    e.unknown("host", "no netdev in the input (needs mlnx_qos -i, ethtool or a live collection)").needs = {"mlnx_qos"};
    return;
  }
  for (const NetDev& n : s.netdevs) {
    if (NetdevScope sc = roce_netdev_scope(s, n, pol); !sc.roce) {
      e.not_applicable(n.name, sc.why);
      continue;
    }
    fn(n);
  }
}

}  // namespace rk::rules

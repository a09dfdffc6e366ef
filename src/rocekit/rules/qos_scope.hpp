// What the QoS rule files share: the netdevs they judge and the backend a fix is written for.
#pragma once

#include <optional>
#include <string>

#include "rocekit/model/bluefield.hpp"
#include "rocekit/policy/scope.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

/// The QoS backend a fix is written for first: iproute2 `dcb` when the state was read through
/// dcbnl (a live host, a `dcb` capture), else mlnx_qos (its output is what the capture shows).
inline bool prefers_dcb(const NetDev& n) {
  const std::string& from = n.qos.source.file;
  return from.starts_with("dcbnl") || from.starts_with("/sys/") || from.find("dcb") != std::string::npos;
}

/// Why a RoCE netdev's port QoS (trust, DSCP map, PFC, ETS, buffers, global pause) is not set
/// on this netdev: the host PF of a BlueField in DPU mode (the Arm side owns it), or an Arm-side
/// representor of a host function (its uplink p<N> carries the port's QoS). nullopt: judge it.
/// `arm_side` is bluefield_arm_side(s). rules/bluefield_rules.cpp.
std::optional<std::string> port_qos_elsewhere(const Snapshot& s, const NetDev& n,
                                              const std::optional<std::string>& arm_side);

/// Why a netdev's port QoS cannot be judged: it is a BlueField's (by name, VPD, NV description or
/// its 24.x/32.x firmware) whose operation mode is not known (no NV query, or one without the
/// mode), so its port QoS may live on the Arm side. nullopt when the mode is known, on the Arm
/// side, or for another NIC. rules/bluefield_rules.cpp.
std::optional<std::string> port_qos_mode_unknown(const Snapshot& s, const NetDev& n,
                                                 const std::optional<std::string>& arm_side);

/// The netdevs QoS rules are judged on: RoCE netdevs (roce_netdev_scope); the others get
/// not_applicable with the reason. `port_qos`: the rule judges port QoS, which on a BlueField in
/// DPU mode lives on the Arm side (port_qos_elsewhere: not_applicable there too).
template <class Fn>
void for_roce_netdevs(const Snapshot& s, const Policy& pol, Emitter& e, Fn fn, bool port_qos = true) {
  if (s.netdevs.empty()) {
    e.unknown("host", "no netdev in the input (needs mlnx_qos -i, ethtool or a live collection)").needs = {"mlnx_qos"};
    return;
  }
  std::optional<std::string> arm_side = port_qos ? bluefield_arm_side(s) : std::nullopt;
  for (const NetDev& n : s.netdevs) {
    std::optional<std::string> elsewhere = port_qos ? port_qos_elsewhere(s, n, arm_side) : std::nullopt;
    // An Arm-side representor first: it has no RDMA port of its own (driver mlx5e_rep), which
    // the scope would report as "not backed by an RDMA port".
    if (elsewhere && arm_side) {
      Finding& f = e.not_applicable(n.name, *elsewhere);
      if (n.devlink_port) add_evidence(f, n.devlink_port->source);
      else if (n.driver.has_value()) add_evidence(f, n.driver.source);
      continue;
    }
    if (NetdevScope sc = roce_netdev_scope(s, n, pol); !sc.roce) {
      e.not_applicable(n.name, sc.why);
      continue;
    }
    if (elsewhere) {
      Finding& f = e.not_applicable(n.name, *elsewhere);
      for (const PciFunction* p : {s.find_pci(n.bdf.value_or("")), nv_source_for(s, n.bdf.value_or(""))})
        if (p && p->bluefield_mode && f.evidence.empty()) add_evidence(f, p->bluefield_mode->source);
      continue;
    }
    if (std::optional<std::string> unsure = port_qos ? port_qos_mode_unknown(s, n, arm_side) : std::nullopt) {
      e.unknown(n.name, *unsure).needs = {"mlxconfig_q"};
      continue;
    }
    fn(n);
  }
}

}  // namespace rk::rules

// Why `switch check` judged nothing for a host whose RoCE netdevs were paired with switch ports.
#include <algorithm>
#include <set>

#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

/// The port states something about QoS of its own (beyond MTU).
bool has_qos(const PortQos& p) {
  return p.trust.has_value() || p.dscp_to_tc.has_value() || (p.pfc_enabled.has_value() && !p.pfc_enabled->empty()) ||
         !p.queues.empty();
}

std::string listed(const std::vector<std::string>& v, std::size_t max) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < max; ++i) s += (i ? ", " : "") + v[i];
  if (v.size() > max) s += ", ... (" + std::to_string(v.size()) + " in all)";
  return s;
}

}  // namespace

std::string unjudged_reason(const Snapshot& host, const SwitchQos& sw, const std::vector<Finding>& findings) {
  std::vector<std::string> ports;
  bool paired = false;
  for (const Finding& f : findings) {
    const std::size_t arrow = f.subject.rfind(" <-> ");
    if (arrow == std::string::npos) continue;
    std::string nd = f.subject.substr(arrow + 5);
    if (!host.hostname.empty() && nd.starts_with(host.hostname + ":")) nd.erase(0, host.hostname.size() + 1);
    if (!host.find_netdev(nd)) continue;
    paired = true;
    std::string port = f.subject.substr(0, arrow);
    if (!sw.name.empty() && port.starts_with(sw.name + ":")) port.erase(0, sw.name.size() + 1);
    if (port == "all ports") port = "*";
    if (std::find(ports.begin(), ports.end(), port) == ports.end()) ports.push_back(port);
  }
  if (!paired) return {};
  std::vector<std::string> bare;
  for (const std::string& p : ports)
    if (const PortQos* q = sw.find_port(p); q && !has_qos(*q)) bare.push_back(p);
  std::vector<std::string> with;
  for (const PortQos& q : sw.ports)
    if (has_qos(q)) with.push_back(q.name);
  if (bare.empty())
    return "no switch rule passed or failed on port " + listed(ports, 8) +
           " (every check is unknown or not applicable: see the findings)";
  return std::string(bare.size() == 1 ? "switch port " : "switch ports ") + listed(bare, 8) + " ha" +
         (bare.size() == 1 ? "s" : "ve") + " no QoS binding in " + sw.file +
         " (no classifier, PFC priority or queue scheduling: the NOS defaults, which the configuration does not show)" +
         (with.empty() ? std::string("; no port of the configuration has one")
                       : "; ports with QoS bindings: " + listed(with, 8));
}

}  // namespace rk::switchcfg

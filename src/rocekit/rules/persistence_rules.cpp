// Persistence rules: runtime RoCE settings (DCB/QoS) that nothing re-applies at boot. The
// evidence is Snapshot::persistence (rocekit-capture --list-persistence, or /etc under the
// collector's root): a rocekit-*.service unit and its *.wants link, a udev rule, or another
// boot-time script that calls mlnx_qos, dcb, setpci or writes ecn sysfs.
#include <string>

#include "rocekit/core/shell.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

/// Runtime settings in place that differ from the mlx5 driver defaults after a reboot (trust
/// pcp, PFC off, DSCP -> priority dscp>>3). Each item: "ens6: trust dscp".
/// `unknown_qos` gets each Ethernet netdev whose trust or PFC state is not known, with why.
std::vector<std::string> runtime_settings(const Snapshot& s, const Policy& pol, std::vector<Evidence>& ev,
                                          std::vector<std::string>& unknown_qos, bool& any_roce) {
  std::vector<std::string> out;
  for (const NetDev& n : s.netdevs) {
    if (!roce_netdev_scope(s, n, pol).roce) continue;
    any_roce = true;
    if (!n.qos.has_value()) {
      unknown_qos.push_back(n.name + ": " + n.qos.reason);
      continue;
    }
    const QosState& q = *n.qos;
    if (!q.trust || !q.pfc_enabled) unknown_qos.push_back(n.name + ": trust or PFC state not shown");
    if (q.trust && *q.trust == Trust::dscp) {
      out.push_back(n.name + ": trust dscp");
      ev.push_back(q.trust_source);
    }
    if (q.pfc_enabled) {
      std::vector<std::string> on;
      for (std::size_t p = 0; p < q.pfc_enabled->size(); ++p)
        if ((*q.pfc_enabled)[p]) on.push_back(std::to_string(p));
      if (!on.empty()) {
        out.push_back(n.name + ": PFC on priority " + join(on, ","));
        ev.push_back(q.pfc_source);
      }
    }
    std::vector<std::string> moved;
    for (const auto& [dscp, prio] : q.dscp_to_priority)
      if (prio != (dscp >> 3)) moved.push_back(std::to_string(dscp) + "->" + std::to_string(prio));
    if (!moved.empty()) {
      out.push_back(n.name + ": dscp2prio " + join(moved, ","));
      ev.push_back(q.dscp_source);
    }
  }
  return out;
}

void eval_runtime_persistence(const Snapshot& s, const Policy& pol, Emitter& e) {
  std::vector<Evidence> ev;
  std::vector<std::string> unknown_qos;
  bool any_roce = false;
  std::vector<std::string> settings = runtime_settings(s, pol, ev, unknown_qos, any_roce);
  if (settings.empty()) {
    std::vector<std::string> eth_ports;  // RDMA ports on Ethernet, whatever netdevs were captured
    for (const RdmaDevice& d : s.rdma_devices)
      for (const RdmaPort& p : d.ports)
        if (p.link_layer && *p.link_layer == LinkLayer::ethernet) eth_ports.push_back(d.name + "/" + std::to_string(p.port));
    if (!any_roce && eth_ports.empty()) {
      e.not_applicable("host", "no Ethernet RDMA port or netdev in the input");
    } else if (!any_roce) {
      e.unknown("host", "RDMA ports on Ethernet (" + join(eth_ports, ", ") +
                            ") but no netdev or QoS state in the input: cannot tell which runtime "
                            "settings need re-applying at boot");
    } else if (!unknown_qos.empty()) {
      e.unknown("host", "cannot tell which runtime settings need re-applying at boot: QoS state not "
                            "known for " + join(unknown_qos, "; ")).needs = {"mlnx_qos"};
    } else {
      e.not_applicable("host", "no runtime QoS setting differs from the driver defaults (trust "
                               "pcp, PFC off, dscp>>3): nothing to re-apply at boot");
    }
    return;
  }
  std::string what = join(settings, "; ");
  if (!s.persistence.has_value()) {
    Finding& f = e.unknown("host", "runtime settings in place (" + what +
                                       ") but the boot-time mechanisms were not collected: " +
                                       s.persistence.reason);
    f.reason_kind = s.persistence.reason_kind;
    if (!s.persistence.needs.empty()) f.needs = {s.persistence.needs};
    f.remediation.checks = {
        "ls -l /etc/systemd/system/rocekit-*.service /etc/systemd/system/*.wants/rocekit-*.service "
        "/etc/udev/rules.d/*rocekit*.rules"};
    f.remediation.notes = "rocekit-capture 0.1 and later record this listing (persistence.txt).";
    return;
  }
  const PersistenceState& p = *s.persistence;
  auto basename = [](const std::string& path) { return path.substr(path.rfind('/') + 1); };
  std::vector<std::string> enabled, disabled;
  for (const std::string& u : p.units) {
    bool on = false;
    for (const std::string& l : p.enabled_links)
      if (basename(l) == basename(u)) on = true;
    (on ? enabled : disabled).push_back(u);
  }
  std::string udev = p.udev_rules.empty() ? "; no udev rule: a driver reload loses them until the next boot"
                                          : "; udev rule " + join(p.udev_rules);
  if (!enabled.empty()) {
    Finding& f = e.pass("host", "runtime settings (" + what + ") re-applied at boot by enabled " +
                                    join(enabled) + udev);
    for (const Evidence& x : ev) add_evidence(f, x);
    add_evidence(f, s.persistence.source);
    return;
  }
  if (!p.other_scripts.empty()) {
    Finding& f = e.pass("host", "runtime settings (" + what + ") may be re-applied at boot by " +
                                    join(p.other_scripts) +
                                    " (not rocekit's: what they set is not verified)");
    add_evidence(f, s.persistence.source);
    return;
  }
  Finding& f = e.fail(
      "host", disabled.empty()
                  ? "runtime settings lost at reboot, nothing re-applies them (no rocekit-*.service, "
                    "no udev rule, no boot script calling mlnx_qos/dcb/setpci/ecn sysfs): " + what
                  : join(disabled) + " present but not enabled (no *.wants link): " + what +
                        " lost at reboot");
  for (const Evidence& x : ev) add_evidence(f, x);
  add_evidence(f, s.persistence.source);
  f.remediation.scope = FixScope::persistent;
  if (disabled.empty()) {
    f.remediation.commands = {
        "rocekit plan live -f systemd -o /tmp/rocekit-boot",
        "install -D -m 0755 /tmp/rocekit-boot/rocekit-roce-runtime.sh "
        "/usr/local/libexec/rocekit/rocekit-roce-runtime.sh",
        "install -m 0644 /tmp/rocekit-boot/rocekit-roce.service /etc/systemd/system/",
        "install -m 0644 /tmp/rocekit-boot/90-rocekit-roce.rules /etc/udev/rules.d/",
        "systemctl daemon-reload && systemctl enable rocekit-roce.service && udevadm control --reload"};
  } else {
    for (const std::string& u : disabled)
      f.remediation.commands.push_back("systemctl enable " + text::shell_quote(basename(u)));
  }
  f.remediation.notes =
      "mlnx_qos/dcb settings (trust, PFC, dscp2prio), ECN sysfs and setpci MaxReadReq live in the "
      "driver and device registers: a reboot or driver reload resets them to trust pcp, PFC off. "
      "The generated unit re-applies every runtime setting of the policy at boot, the udev rule "
      "on driver reload or hotplug. Alternatively let the switch push DCB over DCBX (firmware "
      "LLDP_NB_DCBX_P<n>).";
}

}  // namespace

void add_persistence_rules(std::vector<RuleInfo>& out) {
  out.push_back({"persist.runtime-settings", "Runtime RoCE settings are re-applied at boot",
                 Severity::warning, "host",
                 "Trust, PFC and DSCP->priority set with mlnx_qos or dcb are lost at reboot and "
                 "driver reload; a host that passes today silently falls back to trust pcp and "
                 "lossy RoCE after the next reboot unless something re-applies them.",
                 "§4 persistence: peer-tool users report settings silently lost at reboot; "
                 "`rocekit plan -f systemd` generates the unit and udev rule.",
                 eval_runtime_persistence,
                 k_any_outcome,
                 "boot-time mechanisms under /etc (systemd units, udev rules, NetworkManager dispatcher, lldpad) and the runtime QoS state of the netdevs"});
}

}  // namespace rk::rules

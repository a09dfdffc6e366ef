// RoCE and link rules: roce.enabled, roce.v2-gid, roce.cm-default-v2, roce.active-mtu,
// link.port-active, net.mtu.
#include <string>

#include "rocekit/core/shell.hpp"
#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

/// InfiniBand port: by link layer, else (link layer not captured) by an IPoIB netdev name.
bool port_is_ib(const RdmaPort& p) {
  if (p.link_layer) return *p.link_layer == LinkLayer::infiniband;
  return p.netdev && is_ipoib_name(*p.netdev);
}

// Port state: "ACTIVE" passes; unknown state -> nullopt.
std::optional<bool> port_active(const RdmaPort& p) {
  if (!p.state.has_value()) return std::nullopt;
  return *p.state == PortState::active;
}

/// The policy's management role of an RDMA port's netdev (management_role_why): the snapshot's
/// netdev, else one with the port's netdev name and the device's name and PCI address. The
/// snapshot's netdev is not copied: this runs for every port of every rule of every fleet host.
std::optional<std::string> port_management_why(const Snapshot& s, const Policy& pol, const RdmaDevice& d,
                                               const RdmaPort& p) {
  if (p.netdev)
    if (const NetDev* n = s.find_netdev(*p.netdev)) return management_role_why(pol, *n);
  NetDev n;
  n.name = p.netdev.value_or("");
  n.rdma_device = d.name;
  n.bdf = d.bdf;
  return management_role_why(pol, n);
}

/// True, with the port's not_applicable finding emitted, for a port of a management-role netdev
/// (policy interfaces:, management_role_why): no rule judges it, as fleet leaves it out.
bool management_port(const Snapshot& s, const Policy& pol, const RdmaDevice& d, const RdmaPort& p,
                     const std::string& subject, Emitter& e) {
  std::optional<std::string> why = port_management_why(s, pol, d, p);
  if (why) e.not_applicable(subject, *why + (p.netdev ? " (" + *p.netdev + ")" : ""));
  return why.has_value();
}

void eval_port_active(const Snapshot& s, const Policy& pol, Emitter& e) {
  bool any = false;
  for (const RdmaDevice& d : s.rdma_devices) {
    for (const RdmaPort& p : d.ports) {
      any = true;
      std::string subject = port_subject(d, p);
      if (management_port(s, pol, d, p, subject, e)) continue;
      if (!p.state.has_value()) {
        e.missing(subject, "port state", p.state);
        continue;
      }
      if (*p.state == PortState::active) {
        Finding& f = e.pass(subject, "port is ACTIVE" + (p.netdev ? " (" + *p.netdev + ")" : ""));
        add_evidence(f, p.state.source);
      } else {
        Finding& f = e.fail(subject, "port is " + str(*p.state) +
                                         (p.netdev ? " (netdev " + *p.netdev + ")" : "") +
                                         ": no RDMA traffic can use it");
        add_evidence(f, p.state.source);
        std::string nd = p.netdev ? text::shell_quote(*p.netdev) : "<netdev>";
        f.remediation.scope = FixScope::hardware;
        if (p.netdev) f.remediation.commands = {"ip link set dev " + nd + " up"};
        if (p.netdev) f.remediation.checks.push_back("ethtool " + nd);
        f.remediation.checks.push_back("rdma link show " + text::shell_quote(d.name + "/" + std::to_string(p.port)));
        if (d.bdf) f.remediation.checks.push_back("mlxlink -d " + *d.bdf);
        f.remediation.notes =
            "Bring the netdev up and check cable, transceiver and the switch port (admin state, "
            "speed, FEC); mlxlink (NVIDIA MFT) shows the physical-layer reason.";
      }
    }
  }
  if (!any) e.unknown("host", "no RDMA device port state in the input (ibv_devinfo, ibdev2netdev, "
                              "rdma link or /sys/class/infiniband)").needs = {"ibv_devinfo"};
}

void eval_active_mtu(const Snapshot& s, const Policy& pol, Emitter& e) {
  bool any = false;
  for (const RdmaDevice& d : s.rdma_devices) {
    for (const RdmaPort& p : d.ports) {
      std::string subject = port_subject(d, p);
      any = true;
      if (management_port(s, pol, d, p, subject, e)) continue;
      if (port_is_ib(p)) {
        e.not_applicable(subject, "InfiniBand port: the RoCE MTU rule does not apply");
        continue;
      }
      std::optional<bool> active = port_active(p);
      if (active && !*active) {
        e.not_applicable(subject, "port is " + str(*p.state) + "; active_mtu is judged on active ports");
        continue;
      }
      if (!p.active_mtu_bytes) {
        e.unknown(subject, "active_mtu not collected (needs ibv_devinfo or verbs port query)").needs = {"ibv_devinfo"};
        continue;
      }
      std::string got = std::to_string(*p.active_mtu_bytes);
      if (*p.active_mtu_bytes == pol.roce_active_mtu_bytes) {
        Finding& f = e.pass(subject, "active_mtu " + got);
        add_evidence(f, p.mtu_source.file.empty() ? d.source : p.mtu_source);
        continue;
      }
      std::string msg = "active_mtu " + got + ", policy " +
                        std::to_string(pol.roce_active_mtu_bytes);
      if (p.max_mtu_bytes) msg += " (max_mtu " + std::to_string(*p.max_mtu_bytes) + ")";
      Finding& f = e.fail(subject, msg);
      add_evidence(f, p.mtu_source.file.empty() ? d.source : p.mtu_source);
      std::string nd = p.netdev ? text::shell_quote(*p.netdev) : "<netdev>";
      f.remediation.scope = FixScope::runtime;
      f.remediation.commands.clear();
      // The policy's one netdev MTU (mtu.netdev_min_bytes), the value `rocekit plan` sets.
      const NetDev* nd_state = p.netdev ? s.find_netdev(*p.netdev) : nullptr;
      if (!nd_state || !nd_state->mtu_bytes.has_value() || *nd_state->mtu_bytes < pol.netdev_mtu_min_bytes)
        f.remediation.commands.push_back(
            p.netdev ? fix::command_line(fix::ip_mtu(*p.netdev, pol.netdev_mtu_min_bytes))
                     : "ip link set dev " + nd + " mtu " + std::to_string(pol.netdev_mtu_min_bytes));
      f.remediation.checks.push_back("ibv_devinfo -d " + text::shell_quote(d.name) + " | grep active_mtu");
      f.remediation.notes =
          "RoCE picks the largest IB MTU (256..4096) that fits in the netdev MTU; 4096 needs a "
          "netdev MTU of at least 4192 (the policy's " + std::to_string(pol.netdev_mtu_min_bytes) +
          "; a larger one such as 9000 is kept) and the same or larger MTU on every switch port. `ip link set` is lost at reboot: make it persistent in the OS network config "
          "(netplan, NetworkManager, systemd-networkd) or with `rocekit plan`.";
    }
  }
  if (!any) e.unknown("host", "no RDMA port data in the input").needs = {"ibv_devinfo"};
}

bool gid_is_link_local(const Gid& g) {
  return g.gid.starts_with("fe80") || g.gid.starts_with("FE80");
}

/// RDMA bytes through the port (port_rcv_data + port_xmit_data), when its counters were read.
std::optional<std::uint64_t> port_traffic(const RdmaPort& p) {
  if (!p.counters.has_value()) return std::nullopt;
  auto rx = p.counters->find("port_rcv_data");
  auto tx = p.counters->find("port_xmit_data");
  if (rx == p.counters->end() && tx == p.counters->end()) return std::nullopt;
  return (rx == p.counters->end() ? 0 : rx->second) + (tx == p.counters->end() ? 0 : tx->second);
}

void eval_v2_gid(const Snapshot& s, const Policy& pol, Emitter& e) {
  for (const RdmaDevice& d : s.rdma_devices) {
    for (const RdmaPort& p : d.ports) {
      std::string subject = port_subject(d, p);
      if (management_port(s, pol, d, p, subject, e)) continue;
      if (port_is_ib(p)) {
        e.not_applicable(subject, "InfiniBand port: no RoCE GIDs");
        continue;
      }
      std::optional<bool> active = port_active(p);
      if (active && !*active) {
        e.not_applicable(subject, "port is " + str(*p.state) + "; a down port has no routable GID");
        continue;
      }
      if (!p.gids.has_value()) {
        e.missing(subject, "GID table", p.gids);
        continue;
      }
      const Gid* best = nullptr;
      for (const Gid& g : *p.gids)
        if (g.type && *g.type == GidType::roce_v2 && !gid_is_link_local(g)) {
          best = &g;
          break;
        }
      if (best) {
        Finding& f = e.pass(subject, "routable RoCE v2 GID at index " + std::to_string(best->index) +
                                         (best->ipv4 ? " (" + *best->ipv4 + ")" : ""));
        add_evidence(f, p.gids.source);
        continue;
      }
      if (!p.netdev) {
        e.not_applicable(subject, "no netdev on this port: it carries no IP, so no routable GID is expected");
        continue;
      }
      // An unused port (no address, no traffic) is not a fault; one the policy or the traffic
      // says is in use is.
      const NetDev* nd_state = s.find_netdev(*p.netdev);
      const InterfaceRoleRule* role = nd_state ? interface_role(pol, *nd_state) : nullptr;
      bool assigned = role && role->role != InterfaceRole::management;
      std::optional<std::uint64_t> traffic = port_traffic(p);
      if (!assigned && traffic && *traffic == 0) {
        e.not_applicable(subject, "unused port: no routable GID (no IP address on " + *p.netdev +
                                      ") and no RDMA traffic (port_rcv_data + port_xmit_data 0)");
        continue;
      }
      Finding& f = e.fail(subject,
                          "no routable RoCE v2 GID: only link-local or v1 GIDs; RoCEv2 over L3 "
                          "needs an IP address on " + *p.netdev +
                              (assigned ? ""
                               : traffic ? " (the port carries RDMA traffic)"
                                         : " (a warning: the port may be unused; give it a compute "
                                           "or storage role in the policy's interfaces: to make it "
                                           "an error)"));
      if (!assigned && !traffic && f.severity > Severity::warning) f.severity = Severity::warning;
      add_evidence(f, p.gids.source);
      f.remediation.scope = FixScope::persistent;
      f.remediation.checks = {"ip -br addr show dev " + text::shell_quote(*p.netdev),
                              "show_gids " + text::shell_quote(d.name)};
      f.remediation.notes =
          "Configure the port's IPv4/IPv6 address in the OS network config (netplan, "
          "NetworkManager or systemd-networkd); the driver then adds RoCE v1 and v2 GIDs for it. "
          "NCCL selects the v2 GID automatically (NCCL_IB_GID_INDEX=-1, "
          "NCCL_IB_ROCE_VERSION_NUM=2).";
    }
  }
}

void eval_roce_enabled(const Snapshot& s, const Policy& pol, Emitter& e) {
  for (const RdmaDevice& d : s.rdma_devices) {
    for (const RdmaPort& p : d.ports) {
      std::string subject = port_subject(d, p);
      if (management_port(s, pol, d, p, subject, e)) continue;
      if (port_is_ib(p)) {
        e.not_applicable(subject, "InfiniBand port");
        continue;
      }
      if (!p.gids.has_value()) {
        e.missing(subject, "GID table", p.gids);
        continue;
      }
      bool roce = false;
      for (const Gid& g : *p.gids)
        if (g.type && (*g.type == GidType::roce_v1 || *g.type == GidType::roce_v2)) roce = true;
      if (roce) {
        Finding& f = e.pass(subject, "RoCE GIDs present");
        add_evidence(f, p.gids.source);
        continue;
      }
      std::optional<bool> active = port_active(p);
      if (active && !*active) {
        e.not_applicable(subject, "port is " + str(*p.state) + " and shows no RoCE GIDs");
        continue;
      }
      Finding& f = e.fail(subject, "no RoCE GID in the port's GID table: RoCE is disabled");
      add_evidence(f, p.gids.source);
      f.remediation.scope = FixScope::firmware_reboot;
      std::string bdf = d.bdf ? *d.bdf : "<BDF>";
      f.remediation.commands = {
          "devlink dev param set pci/" + bdf + " name enable_roce value true cmode driverinit",
          "devlink dev reload pci/" + bdf, "mstconfig -d " + bdf + " set ROCE_CONTROL=2"};
      f.remediation.notes =
          "RoCE can be off in the driver (devlink enable_roce, takes effect after devlink reload) "
          "or in firmware (ROCE_CONTROL=ROCE_DISABLE(1); set ROCE_ENABLE(2), then reboot or "
          "mstfwreset).";
    }
  }
}

void eval_cm_default(const Snapshot& s, const Policy& pol, Emitter& e) {
  for (const RdmaDevice& d : s.rdma_devices) {
    for (const RdmaPort& p : d.ports) {
      std::string subject = port_subject(d, p);
      if (management_port(s, pol, d, p, subject, e)) continue;
      if (port_is_ib(p)) {
        e.not_applicable(subject, "InfiniBand port");
        continue;
      }
      if (!p.default_roce_mode.has_value()) {
        e.missing(subject, "rdma_cm default RoCE mode", p.default_roce_mode);
        continue;
      }
      const std::string& mode = *p.default_roce_mode;
      if (mode.find("v2") != std::string::npos) {
        Finding& f = e.pass(subject, "rdma_cm default_roce_mode is " + mode);
        add_evidence(f, p.default_roce_mode.source);
        continue;
      }
      Finding& f = e.fail(subject, "rdma_cm default_roce_mode is " + mode +
                                       ": RDMA-CM connections use RoCE v1 (not routable)");
      add_evidence(f, p.default_roce_mode.source);
      f.remediation.scope = FixScope::runtime;
      f.remediation.commands = {"cma_roce_mode -d " + text::shell_quote(d.name) + " -p " +
                                std::to_string(p.port) + " -m 2"};
      f.remediation.notes =
          "Sets the RDMA-CM default only (configfs /sys/kernel/config/rdma_cm/<dev>/ports/<p>/"
          "default_roce_mode, needs root, rdma_cm loaded); lost at reboot. Verbs applications "
          "such as NCCL choose the RoCE version by GID index, not by this setting.";
    }
  }
}

void eval_net_mtu(const Snapshot& s, const Policy& pol, Emitter& e) {
  for (const NetDev& n : s.netdevs) {
    if (NetdevScope sc = roce_netdev_scope(s, n, pol); !sc.roce) {
      e.not_applicable(n.name, sc.why);
      continue;
    }
    if (!n.mtu_bytes.has_value()) {
      e.missing(n.name, "netdev MTU", n.mtu_bytes);
      continue;
    }
    int mtu = *n.mtu_bytes;
    if (mtu >= pol.netdev_mtu_min_bytes) {
      Finding& f = e.pass(n.name, "MTU " + std::to_string(mtu));
      add_evidence(f, n.mtu_bytes.source);
      continue;
    }
    Finding& f = e.fail(n.name, "MTU " + std::to_string(mtu) + " is below " +
                                    std::to_string(pol.netdev_mtu_min_bytes) +
                                    ": RoCE active_mtu cannot reach 4096");
    add_evidence(f, n.mtu_bytes.source);
    f.remediation.scope = FixScope::runtime;
    // The policy's one MTU value: the rule, `rocekit plan` and the boot unit all set it.
    fix::set_fix(f.remediation, "mtu", std::to_string(mtu), std::to_string(pol.netdev_mtu_min_bytes),
                 {fix::ip_mtu(n.name, pol.netdev_mtu_min_bytes)});
    f.remediation.notes =
        "Lost at reboot: set the MTU in the OS network config too. The policy value is a minimum: "
        "a larger MTU (9000 for TCP and storage on a jumbo fabric) is never lowered. Every switch "
        "port on the path needs an MTU of at least the host's (9216 is usual).";
  }
}

}  // namespace

void add_roce_rules(std::vector<RuleInfo>& out) {
  out.push_back({"link.port-active", "RDMA port is active", Severity::error, "rdma port",
                 "A port that is down carries no RoCE traffic; jobs that expect it will fall back "
                 "or hang at connection setup.",
                 "§4.2 configuration: each RoCE port must be up on the fabric.", eval_port_active,
                 k_any_outcome,
                 "RDMA port state (ibv_devinfo, rdma link, ibstat, sysfs ports/<n>/state)"});
  out.push_back({"roce.enabled", "RoCE is enabled on the port", Severity::critical, "rdma port",
                 "Without RoCE GIDs the port cannot carry RDMA over Ethernet.",
                 "§4.2 'enable RoCE v2': RoCE itself is ROCE_CONTROL / devlink enable_roce; the "
                 "seed's ROCE_CC_PRIO_MASK_P1 does not enable RoCE (host-facts §K.2).",
                 eval_roce_enabled,
                 k_any_outcome,
                 "RDMA port link layer and GID table (show_gids, sysfs ports/<n>/gids and gid_attrs)"});
  out.push_back({"roce.v2-gid", "Port has a routable RoCE v2 GID", Severity::error, "rdma port",
                 "RoCE v2 (UDP/IP, routable) is what a leaf-spine fabric carries; a port with only "
                 "link-local or v1 GIDs cannot reach other subnets.",
                 "§4.2 'use RoCEv2': the RoCE version is chosen per GID; show_gids lists the types.",
                 eval_v2_gid,
                 k_any_outcome,
                 "GID table with types (show_gids, sysfs gid_attrs/types)"});
  out.push_back({"roce.cm-default-v2", "rdma_cm default RoCE mode is v2", Severity::warning,
                 "rdma port",
                 "RDMA-CM applications (not NCCL) use this default; v1 is not routable.",
                 "§4.2 `cma_roce_mode -d mlx5_0 -p 1 -m 2`: correct syntax, but it only sets the "
                 "RDMA-CM default, is not persistent, and upstream kernels already prefer v2 "
                 "(host-facts §K.1).",
                 eval_cm_default,
                 k_any_outcome,
                 "RDMA-CM default RoCE mode (cma_roce_mode -d <dev> -p <port>, configfs rdma_cm)"});
  out.push_back({"roce.active-mtu", "RoCE active MTU is 4096", Severity::error, "rdma port",
                 "A 1024-byte RoCE MTU quadruples per-packet overhead and caps large-message "
                 "bandwidth well below line rate.",
                 "§4.2 MTU: jumbo frames end to end so RoCE runs at MTU 4096.", eval_active_mtu,
                 k_any_outcome,
                 "RDMA port active MTU (ibv_devinfo)"});
  out.push_back({"net.mtu", "Netdev MTU allows RoCE MTU 4096", Severity::error, "netdev",
                 "RoCE's active MTU follows the netdev MTU; below 4200 it drops to 2048 or 1024.",
                 "§4.2 MTU: jumbo frames (9000) on host and switch.", eval_net_mtu,
                 k_any_outcome,
                 "netdev MTU (ip link, sysfs /sys/class/net/<netdev>/mtu)"});
}

}  // namespace rk::rules

// Per-netdev tool outputs: mlnx_qos, ethtool (link, -i, -c, -l, -a, -S), ECN sysfs, ip link, and
// devlink port show (each port's netdev: uplink or representor).
#include <map>

#include "rocekit/build/builder.hpp"
#include "rocekit/capture/merge.hpp"
#include "rocekit/parse/devlink_port.hpp"
#include "rocekit/parse/ethtool_channels.hpp"
#include "rocekit/parse/ethtool_coalesce.hpp"
#include "rocekit/parse/ethtool_driver.hpp"
#include "rocekit/parse/ethtool_link.hpp"
#include "rocekit/parse/ethtool_pause.hpp"
#include "rocekit/parse/ethtool_stats.hpp"
#include "rocekit/parse/ip_link.hpp"
#include "rocekit/parse/mlnx_qos.hpp"
#include "rocekit/parse/sysfs_reads.hpp"

namespace rk::capture {

void on_mlnx_qos(Ctx& c) {
  auto v = c.take(parse::parse_mlnx_qos(c.text.body));
  if (!v) return;
  auto nd = netdev_target(c, std::nullopt);
  if (!nd) return no_subject(c, "netdev");
  NetDev& n = c.snap.netdev(*nd);
  QosState q = build::qos_state(*v);
  if (q.trust) q.trust_source = c.find("trust state");
  if (!q.dscp_to_priority.empty()) {
    auto it = v->dscp_to_priority.find(26);
    std::string needle = "prio:" + std::to_string(it != v->dscp_to_priority.end() ? it->second : 0);
    q.dscp_source = c.find(needle);
  }
  if (q.pfc_enabled) q.pfc_source = c.find("enabled");
  for (TcSchedule& t : q.tc_schedule) t.source = c.find("tc: " + std::to_string(t.tc) + " ");
  if (q.receive_buffer_bytes) q.buffer_source = c.find("Receive buffer size");
  if (q.cable_length_m) q.cable_source = c.find("Cable len");
  set_qos(c, n, std::move(q), c.find("trust state"), c.truncation_notes());
}

void on_ethtool_c(Ctx& c) {
  auto v = c.take(parse::parse_ethtool_coalesce(c.text.body));
  if (!v) return;
  auto nd = netdev_target(c, v->netdev);
  if (!nd) return no_subject(c, "netdev");
  CoalesceState s{v->adaptive_rx, v->adaptive_tx, v->rx_usecs, v->tx_usecs, v->rx_frames, v->tx_frames};
  NetDev& n = c.snap.netdev(*nd);
  n.coalesce.value = s;
  n.coalesce.source = c.find("Adaptive");
}

void on_ethtool_l(Ctx& c) {
  auto v = c.take(parse::parse_ethtool_channels(c.text.body));
  if (!v) return;
  auto nd = netdev_target(c, v->netdev);
  if (!nd) return no_subject(c, "netdev");
  NetDev& n = c.snap.netdev(*nd);
  n.channels.value = ChannelState{v->current.combined, v->max.combined, v->current.rx, v->current.tx};
  n.channels.source = c.find("Combined", 1);
}

void on_ethtool_i(Ctx& c) {
  auto v = c.take(parse::parse_ethtool_driver(c.text.body));
  if (!v) return;
  std::optional<std::string> bdf = v->bus_info ? normalize_bdf(*v->bus_info) : std::nullopt;
  if (!bdf && is_bdf(c.target)) bdf = normalize_bdf(c.target);
  DriverInfo d{v->driver, v->version, v->firmware_version, v->psid, bdf};
  // An mlx5 SF's netdev prints its auxiliary device (`bus-info: mlx5_core.sf.2`, the Arm OS's own
  // SF on a BlueField, lshca issue 62): kept as read; it is no PCI address.
  if (!bdf && v->bus_info && v->bus_info->starts_with("mlx5_core.sf.")) d.bus_info = v->bus_info;
  std::optional<std::string> nd = (!c.target.empty() && !is_bdf(c.target)) ? std::optional(c.target) : std::nullopt;
  if (!nd && bdf)
    for (const NetDev& n : c.snap.netdevs)
      if (n.bdf && *n.bdf == *bdf) nd = n.name;
  Evidence fw_line = c.find("firmware-version");
  if (nd) {
    NetDev& n = c.snap.netdev(*nd);
    if (bdf) n.bdf = bdf;
    if (!may_take_netdev_firmware(c, n, bdf, v->firmware_version, fw_line)) return;
    n.driver.value = d;
    n.driver.source = fw_line;
  } else if (bdf) {
    // No netdev name: keep the running firmware on the PCI function.
    PciFunction& p = c.snap.pci(*bdf);
    if (!may_take_firmware(c, p, v->firmware_version, fw_line)) return;
    build::running_firmware(p, v->firmware_version, v->psid, fw_line);
    if (!p.driver) p.driver = v->driver;
  } else {
    return no_subject(c, "netdev");
  }
}

void on_ethtool_a(Ctx& c) {
  auto v = c.take(parse::parse_ethtool_pause(c.text.body));
  if (!v) return;
  auto nd = netdev_target(c, v->netdev);
  if (!nd) return no_subject(c, "netdev");
  NetDev& n = c.snap.netdev(*nd);
  n.pause.value = PauseState{v->autonegotiate, v->rx, v->tx};
  n.pause.source = c.find("RX:");
}

void on_ethtool(Ctx& c) {
  auto v = c.take(parse::parse_ethtool_link(c.text.body));
  if (!v) return;
  auto nd = netdev_target(c, v->netdev);
  if (!nd) return no_subject(c, "netdev");
  NetDev& n = c.snap.netdev(*nd);
  LinkSettings l;
  if (v->speed_mbps) l.speed_mbps = *v->speed_mbps;
  l.link_detected = v->link_detected;
  n.link.value = l;
  n.link.source = c.find("Speed:");
}

void on_ethtool_S(Ctx& c) {
  auto v = c.take(parse::parse_ethtool_stats(c.text.body));
  if (!v) return;
  auto nd = netdev_target(c, std::nullopt);
  if (!nd) return no_subject(c, "netdev");
  std::map<std::string, std::uint64_t> m;
  for (const parse::EthtoolStat& s : v->counters)
    m[s.ring ? "[" + std::to_string(*s.ring) + "]: " + s.name : s.name] = s.value;
  NetDev& n = c.snap.netdev(*nd);
  n.stats.value = std::move(m);
  n.stats.source = c.whole();
}

void on_sysfs_ecn(Ctx& c) {
  auto v = c.take(parse::parse_sysfs_ecn(c.text.body));
  if (!v) return;
  for (const parse::SysfsEcnNetdev& e : v->netdevs) {
    std::string name = e.netdev.empty() ? c.target : e.netdev;
    if (name.empty()) return no_subject(c, "netdev");
    EcnState s;
    for (int p = 0; p < 8; ++p) {
      if (e.rp_enabled[static_cast<std::size_t>(p)]) s.rp_enabled[p] = *e.rp_enabled[static_cast<std::size_t>(p)];
      if (e.np_enabled[static_cast<std::size_t>(p)]) s.np_enabled[p] = *e.np_enabled[static_cast<std::size_t>(p)];
    }
    NetDev& n = c.snap.netdev(name);
    n.ecn.value = std::move(s);
    n.ecn.source = c.find("enable");
  }
}

void on_ip_link(Ctx& c) {
  auto v = c.take(parse::parse_ip_link(c.text.body));
  if (!v) return;
  for (const parse::IpLinkInterface& i : v->interfaces) {
    // A host-wide listing also shows lo, bridges and management NICs: only netdevs the capture
    // already knows (RDMA, QoS, ethtool) or the file's own @target are taken.
    bool wanted = c.snap.find_netdev(i.name) != nullptr || i.name == c.target;
    if (!wanted) continue;
    NetDev& n = c.snap.netdev(i.name);
    Evidence ev = c.at(i.line);
    if (i.mtu_bytes) take_mtu(c, n, *i.mtu_bytes, ev);
    if (i.state) {
      n.operstate.value = text::to_lower(*i.state);
      n.operstate.source = ev;
    }
  }
}

void on_devlink_port(Ctx& c) {
  auto v = c.take(parse::parse_devlink_port(c.text.body));
  if (!v) return;
  bool any = false;
  for (const parse::DevlinkPort& p : v->ports) any = build::devlink_port(c.snap, p, c.at(p.line)) || any;
  if (!any) no_subject(c, "netdev");
}

}  // namespace rk::capture

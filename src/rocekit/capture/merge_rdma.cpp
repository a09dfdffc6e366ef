// RDMA device and port outputs: ibv_devinfo, show_gids, ibdev2netdev, rdma link/statistic,
// ibstat, counters (show_counters, sysfs), rdma_cm default RoCE mode.
#include <algorithm>
#include <map>

#include "rocekit/build/builder.hpp"
#include "rocekit/capture/merge.hpp"
#include "rocekit/parse/cma_roce_mode.hpp"
#include "rocekit/parse/ibdev2netdev.hpp"
#include "rocekit/parse/ibstat.hpp"
#include "rocekit/parse/ibv_devinfo.hpp"
#include "rocekit/parse/rdma_link.hpp"
#include "rocekit/parse/rdma_statistic.hpp"
#include "rocekit/parse/sysfs_ib_links.hpp"
#include "rocekit/parse/show_counters.hpp"
#include "rocekit/parse/show_gids.hpp"
#include "rocekit/parse/sysfs_reads.hpp"

namespace rk::capture {

namespace {

void merge_counters(RdmaPort& p, const std::map<std::string, std::uint64_t>& m, const Evidence& ev) {
  std::map<std::string, std::uint64_t> all = p.counters.value.value_or(std::map<std::string, std::uint64_t>{});
  for (const auto& [k, val] : m) all[k] = val;
  p.counters.value = std::move(all);
  if (p.counters.source.file.empty()) p.counters.source = ev;
}

}  // namespace

void on_cma_roce_mode(Ctx& c) {
  auto v = c.take(parse::parse_cma_roce_mode(c.text.body));
  if (!v || v->readings.empty()) return;
  const parse::CmaRoceModeReading& r = v->readings.front();  // the state before any -m change
  std::string dev = r.rdma_device.value_or(c.target);
  if (dev.empty()) return no_subject(c, "RDMA device");
  RdmaPort& p = build::rdma_port(c.snap.rdma(dev), static_cast<int>(r.port.value_or(1)));
  p.default_roce_mode.value = build::cm_roce_mode(r.mode);
  p.default_roce_mode.source = c.at(r.line);
}

void on_cma_roce_tos(Ctx& c) {
  auto v = c.take(parse::parse_cma_roce_tos(c.text.body));
  if (!v) return;
  for (const parse::RoceTosReading& r : v->readings) {
    std::string dev = r.rdma_device.value_or(c.target);
    if (dev.empty()) return no_subject(c, "RDMA device");
    RdmaPort& p = build::rdma_port(c.snap.rdma(dev), static_cast<int>(r.port.value_or(1)));
    p.default_roce_tos.value = static_cast<int>(r.tos);
    p.default_roce_tos.source = c.at(r.line);
  }
}

void on_sysfs_traffic_class(Ctx& c) {
  auto v = c.take(parse::parse_sysfs_traffic_class(c.text.body));
  if (!v) return;
  std::string dev = v->rdma_device.value_or(c.target);
  if (dev.empty()) return no_subject(c, "RDMA device");
  RdmaPort& p = build::rdma_port(c.snap.rdma(dev), static_cast<int>(v->port.value_or(1)));
  Evidence ev = c.find("tclass=");
  if (!ev.line) ev = c.find("traffic_class");
  if (v->traffic_class) {
    p.global_traffic_class.value = static_cast<int>(*v->traffic_class);
  } else {
    p.global_traffic_class.set_missing("no global traffic class is set (" + dev + " tc/" +
                                           std::to_string(p.port) + "/traffic_class reads back empty)",
                                       ReasonKind::not_applicable);
  }
  p.global_traffic_class.source = ev;
}

void on_ibv_devinfo(Ctx& c) {
  auto v = c.take(parse::parse_ibv_devinfo(c.text.body));
  if (!v) return;
  for (const parse::IbvDevice& d : v->devices) {
    RdmaDevice& r = c.snap.rdma(d.hca_id);
    if (d.name_bdf && !r.bdf) r.bdf = d.name_bdf;
    r.fw_ver = d.fw_ver;
    r.board_id = d.board_id;
    r.node_guid = d.node_guid;
    r.sys_image_guid = d.sys_image_guid;
    r.vendor_part_id = d.vendor_part_id;
    r.transport = d.transport;
    r.source = c.find("hca_id:\t" + d.hca_id).line ? c.find("hca_id:\t" + d.hca_id) : c.find(d.hca_id);
    std::size_t from = r.source.line >= c.text.body_first_line ? r.source.line - c.text.body_first_line + 1 : 1;
    // The firmware line is the decisive one for fw.uniform-version.
    if (Evidence fw = c.find("fw_ver:", from); fw.line) r.source = fw;
    for (const parse::IbvPort& p : d.ports) {
      if (!p.port) continue;
      RdmaPort& rp = build::rdma_port(r, static_cast<int>(*p.port));
      // This port's "port:\t<n>" line: its state, MTU and GIDs follow it, not port 1's.
      std::size_t port_line = c.field_line("port", std::to_string(*p.port), from);
      std::size_t port_from = port_line ? port_line : from;
      if (p.state) {
        PortState st = build::port_state(*p.state);
        Evidence src = c.find("state:", port_from);
        if (may_take_port_state(c, rp, r.name, st, src)) {
          rp.state.value = st;
          rp.state.source = src;
        }
      }
      if (p.link_layer) rp.link_layer = build::link_layer(*p.link_layer);
      if (p.active_mtu_bytes) {
        rp.active_mtu_bytes = static_cast<int>(*p.active_mtu_bytes);
        rp.mtu_source = c.find("active_mtu:", port_from);
      }
      if (p.max_mtu_bytes) rp.max_mtu_bytes = static_cast<int>(*p.max_mtu_bytes);
      if (v->verbose && (!p.gids.empty() || p.gid_tbl_len)) {
        bool ib = rp.link_layer == LinkLayer::infiniband;
        std::vector<Gid> gids;
        for (const parse::IbvGid& g : p.gids)
          gids.push_back(Gid{static_cast<int>(g.index), g.gid, g.ipv4, build::gid_type(g.type, ib), std::nullopt});
        rp.gids.value = gids;
        rp.gids.source = c.find("GID[", port_from);
      }
    }
  }
}

void on_show_gids(Ctx& c) {
  auto v = c.take(parse::parse_show_gids(c.text.body));
  if (!v) return;
  std::map<std::pair<std::string, int>, std::vector<Gid>> ports;
  std::map<std::pair<std::string, int>, Evidence> ev;
  for (const parse::GidEntry& e : v->entries) {
    auto key = std::make_pair(e.rdma_device, static_cast<int>(e.port));
    bool ib = !e.netdev && !e.type;
    ports[key].push_back(Gid{static_cast<int>(e.gid_index), e.gid, e.ipv4, build::gid_type(e.type, ib), e.netdev});
    // Prefer the routable v2 line as evidence, else the first line of the port. The row's own
    // line: a v1 and a v2 GID of one address print the same GID text.
    Evidence line = e.line ? c.at(e.line) : c.find(e.gid);
    if (!ev.count(key) || (e.type == parse::GidType::roce_v2 && e.ipv4)) ev[key] = line;
    if (e.netdev) build::pair_netdev(c.snap, e.rdma_device, static_cast<int>(e.port), *e.netdev);
  }
  for (auto& [key, gids] : ports) {
    RdmaPort& p = build::rdma_port(c.snap.rdma(key.first), key.second);
    p.gids.value = gids;
    p.gids.source = ev[key];
    if (!p.link_layer && std::any_of(gids.begin(), gids.end(), [](const Gid& g) {
          return g.type == GidType::roce_v1 || g.type == GidType::roce_v2;
        }))
      p.link_layer = LinkLayer::ethernet;
  }
}

void on_ibdev2netdev(Ctx& c) {
  auto v = c.take(parse::parse_ibdev2netdev(c.text.body));
  if (!v) return;
  for (const parse::Ibdev2netdevEntry& e : v->entries) {
    RdmaDevice& d = c.snap.rdma(e.rdma_device);
    if (e.bdf) d.bdf = normalize_bdf(*e.bdf);
    else if (e.name_bdf && !d.bdf) d.bdf = e.name_bdf;
    if (e.fw_ver && !d.fw_ver) d.fw_ver = e.fw_ver;
    RdmaPort& p = build::rdma_port(d, static_cast<int>(e.port));
    Evidence ev = c.find(e.rdma_device + " port " + std::to_string(e.port));
    if (e.port_state) {
      PortState st = build::port_state(*e.port_state);
      if (may_take_port_state(c, p, e.rdma_device, st, ev)) {
        p.state.value = st;
        p.state.source = ev;
      }
    } else if (e.link_up && !p.state.has_value() && p.state.reason_kind != ReasonKind::conflicting) {
      // ibdev2netdev's (Up)/(Down) is the netdev state; for RoCE it follows the port.
      p.state.value = *e.link_up ? PortState::active : PortState::down;
      p.state.source = ev;
    }
    if (e.netdev) {
      build::pair_netdev(c.snap, e.rdma_device, static_cast<int>(e.port), *e.netdev);
      if (e.link_up) {
        NetDev& n = c.snap.netdev(*e.netdev);
        n.operstate.value = *e.link_up ? "up" : "down";
        n.operstate.source = ev;
      }
    }
  }
}

void on_rdma_link(Ctx& c) {
  auto v = c.take(parse::parse_rdma_link(c.text.body));
  if (!v) return;
  for (const parse::RdmaLinkPort& l : v->ports) {
    RdmaPort& p = build::rdma_port(c.snap.rdma(l.rdma_device), static_cast<int>(l.port));
    if (l.state) {
      PortState st = build::port_state(*l.state);
      std::string id = l.rdma_device + "/" + std::to_string(l.port);
      Evidence src = c.find("link " + id);
      if (!src.line) src = c.find(" " + id + ":");  // the old index form, "16/1: mlx5_1/1: state ACTIVE"
      if (may_take_port_state(c, p, l.rdma_device, st, src)) {
        p.state.value = st;
        p.state.source = src;
      }
    }
    if (l.netdev) build::pair_netdev(c.snap, l.rdma_device, static_cast<int>(l.port), *l.netdev);
  }
}

void on_ibstat(Ctx& c) {
  auto v = c.take(parse::parse_ibstat(c.text.body));
  if (!v) return;
  for (const parse::IbstatCa& ca : v->cas) {
    RdmaDevice& d = c.snap.rdma(ca.ca_name);
    if (ca.firmware_version && !d.fw_ver) d.fw_ver = ca.firmware_version;
    for (const parse::IbstatPort& ip : ca.ports) {
      RdmaPort& p = build::rdma_port(d, static_cast<int>(ip.port));
      if (ip.state) {
        PortState st = build::port_state(*ip.state);
        // This CA's "Port <n>:" block, not the first CA's State line.
        auto body_line = [&](const Evidence& e) {
          return e.line >= c.text.body_first_line ? e.line - c.text.body_first_line + 1 : 1;
        };
        std::size_t ca_from = body_line(c.find("CA '" + ca.ca_name + "'"));
        std::size_t port_from = body_line(c.find("Port " + std::to_string(ip.port) + ":", ca_from));
        Evidence src = c.find("State:", std::max(ca_from, port_from));
        if (may_take_port_state(c, p, ca.ca_name, st, src) && !p.state.has_value()) {
          p.state.value = st;
          p.state.source = src;
        }
      }
      if (ip.link_layer && !p.link_layer)
        p.link_layer = build::link_layer(*ip.link_layer);
    }
  }
}


void on_show_counters(Ctx& c) {
  auto v = c.take(parse::parse_show_counters(c.text.body));
  if (!v) return;
  if (c.target.empty()) return no_subject(c, "RDMA device");
  for (const parse::ShowCountersPort& sp : v->ports) {
    RdmaPort& p = build::rdma_port(c.snap.rdma(c.target), static_cast<int>(sp.port));
    merge_counters(p, sp.hw_counters, c.whole());
    merge_counters(p, sp.counters, c.whole());
  }
}

void on_rdma_statistic(Ctx& c) {
  auto v = c.take(parse::parse_rdma_statistic(c.text.body));
  if (!v) return;
  for (const parse::RdmaStatisticPort& sp : v->ports) {
    RdmaPort& p = build::rdma_port(c.snap.rdma(sp.rdma_device), static_cast<int>(sp.port));
    merge_counters(p, sp.counters, c.find("link " + sp.rdma_device));
  }
}

void on_sysfs_counters(Ctx& c) {
  auto r = c.tool == "sysfs_counters" ? parse::parse_sysfs_counters(c.text.body)
                                       : parse::parse_sysfs_hw_counters(c.text.body);
  auto v = c.take(std::move(r));
  if (!v) return;
  for (const parse::SysfsCounterSet& set : v->sets) {
    std::string dev = set.rdma_device.value_or(c.target);
    if (dev.empty()) continue;
    std::map<std::string, std::uint64_t> m;
    for (const auto& [k, val] : set.counters)
      if (val) m[k] = *val;
    if (m.empty()) continue;
    merge_counters(build::rdma_port(c.snap.rdma(dev), static_cast<int>(set.port.value_or(1))), m, c.whole());
  }
}

void on_sysfs_ib_links(Ctx& c) {
  auto v = c.take(parse::parse_sysfs_ib_links(c.text.body));
  if (!v) return;
  for (const parse::IbDeviceLink& l : v->devices) {
    if (!l.bdf) continue;  // a software device (rxe, siw) has no PCI function
    RdmaDevice& d = c.snap.rdma(l.name);
    if (!d.bdf) d.bdf = l.bdf;
    if (d.source.file.empty()) d.source = c.at(l.line);
    if (!l.bridges.empty())
      if (PciFunction* p = c.snap.find_pci(*l.bdf); p && !p->parent_bdf) p->parent_bdf = l.bridges.back();
  }
}

}  // namespace rk::capture

// Capture -> Snapshot. One function per tool id; each parses with rk::parse and merges into the
// snapshot. Every value keeps its evidence (capture file and line).
#include "rocekit/capture/assemble.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/cma_roce_mode.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/parse/devlink_dev_info.hpp"
#include "rocekit/parse/ethtool_channels.hpp"
#include "rocekit/parse/ethtool_coalesce.hpp"
#include "rocekit/parse/ethtool_driver.hpp"
#include "rocekit/parse/ethtool_link.hpp"
#include "rocekit/parse/ethtool_pause.hpp"
#include "rocekit/parse/ethtool_stats.hpp"
#include "rocekit/parse/flint_query.hpp"
#include "rocekit/parse/ibdev2netdev.hpp"
#include "rocekit/parse/ibstat.hpp"
#include "rocekit/parse/ibv_devinfo.hpp"
#include "rocekit/parse/ip_link.hpp"
#include "rocekit/parse/lspci_vv.hpp"
#include "rocekit/parse/lsmod.hpp"
#include "rocekit/parse/persistence.hpp"
#include "rocekit/parse/mlnx_qos.hpp"
#include "rocekit/parse/mlxconfig_query.hpp"
#include "rocekit/parse/mlxfwmanager.hpp"
#include "rocekit/parse/nccl_log.hpp"
#include "rocekit/parse/nvidia_smi_topo.hpp"
#include "rocekit/parse/rdma_link.hpp"
#include "rocekit/parse/rdma_statistic.hpp"
#include "rocekit/parse/prompt.hpp"
#include "rocekit/parse/registry.hpp"
#include "rocekit/parse/show_counters.hpp"
#include "rocekit/parse/show_gids.hpp"
#include "rocekit/parse/sysfs_reads.hpp"
#include "rocekit/parse/system_checks.hpp"

namespace rk::capture {
namespace {

/// One file being merged.
struct Ctx {
  Snapshot& snap;
  const CaptureFile& file;
  std::string tool;
  std::string target;
  parse::CaptureText text;
  InputFile& input;
  std::vector<std::string_view> body_lines = text::lines(text.body);  ///< split once per file

  /// Evidence for the first body line containing `needle` (line numbers are file lines).
  Evidence find(std::string_view needle, std::size_t from_body_line = 1) const {
    const std::vector<std::string_view>& ls = body_lines;
    for (std::size_t i = from_body_line ? from_body_line - 1 : 0; i < ls.size(); ++i)
      if (ls[i].find(needle) != std::string_view::npos)
        return Evidence{file.name, text.body_first_line + i, std::string(text::trim(ls[i]))};
    return Evidence{file.name, 0, ""};
  }
  /// Evidence for a body line number (1-based).
  Evidence at(std::size_t body_line) const {
    const std::vector<std::string_view>& ls = body_lines;
    if (body_line == 0 || body_line > ls.size()) return Evidence{file.name, 0, ""};
    return Evidence{file.name, text.body_first_line + body_line - 1,
                    std::string(text::trim(ls[body_line - 1]))};
  }
  Evidence whole() const { return Evidence{file.name, 0, ""}; }

  template <class T>
  std::optional<T> take(Result<parse::Parsed<T>> r) {
    if (!r) {
      input.status = "error";
      std::string hint;
      if (const parse::ToolParser* t = parse::identify(text.body); t && t->id != tool)
        hint = " (the content looks like " + std::string(t->id) + " output: rename the file " +
               std::string(t->id) + (target.empty() ? "" : "@" + target) + ".txt)";
      input.messages.push_back(file.name + ": " + r.error().message + hint);
      return std::nullopt;
    }
    for (const parse::Warning& w : r->warnings) {
      input.status = "parsed_with_warnings";
      std::string loc = file.name;
      if (w.line) loc += ":" + std::to_string(text.body_first_line + w.line - 1);
      input.messages.push_back(loc + ": " + w.code + ": " + w.message);
    }
    return std::move(r->value);
  }
  std::vector<std::string> truncation_notes() const {
    std::vector<std::string> out;
    for (const std::string& m : input.messages)
      if (m.find(": truncated:") != std::string::npos) out.push_back(m);
    return out;
  }
};

bool is_bdf(const std::string& t) { return normalize_bdf(t).has_value() && t.find(':') != std::string::npos; }

/// The netdev a per-netdev file is about: the @target, else the name the output prints.
std::optional<std::string> netdev_target(Ctx& c, const std::optional<std::string>& printed) {
  if (!c.target.empty() && !is_bdf(c.target)) return c.target;
  if (printed && !printed->empty()) return *printed;
  if (!c.target.empty() && is_bdf(c.target)) {
    std::string bdf = *normalize_bdf(c.target);
    for (const NetDev& n : c.snap.netdevs)
      if (n.bdf && *n.bdf == bdf) return n.name;
  }
  return std::nullopt;
}

void no_subject(Ctx& c, const std::string& what) {
  c.input.status = "ignored";
  c.input.messages.push_back(c.file.name + ": cannot tell which " + what +
                             " this output is about: name the file <tool>@<" + what + ">.txt");
}

std::string port_state_text(parse::PortState s) {
  switch (s) {
    case parse::PortState::nop: return "NOP";
    case parse::PortState::down: return "DOWN";
    case parse::PortState::init: return "INIT";
    case parse::PortState::armed: return "ARMED";
    case parse::PortState::active: return "ACTIVE";
    case parse::PortState::active_defer: return "ACTIVE_DEFER";
  }
  return "UNKNOWN";
}

RdmaPort& rdma_port(RdmaDevice& d, int port) {
  for (RdmaPort& p : d.ports)
    if (p.port == port) return p;
  RdmaPort p;
  p.port = port;
  d.ports.push_back(std::move(p));
  std::sort(d.ports.begin(), d.ports.end(), [](const RdmaPort& a, const RdmaPort& b) { return a.port < b.port; });
  for (RdmaPort& q : d.ports)
    if (q.port == port) return q;
  return d.ports.back();
}

void link_netdev(Snapshot& s, const std::string& dev, int port, const std::string& netdev) {
  RdmaDevice& d = s.rdma(dev);
  rdma_port(d, port).netdev = netdev;
  NetDev& n = s.netdev(netdev);
  n.rdma_device = dev;
  n.rdma_port = port;
  if (!n.bdf && d.bdf) n.bdf = d.bdf;
}

std::string gid_type_text(const std::optional<parse::GidType>& t, bool ib) {
  if (!t) return ib ? "IB" : "";
  if (*t == parse::GidType::roce_v2) return "RoCE v2";
  return ib ? "IB" : "RoCE v1";
}

// ------------------------------------------------------------------ per tool ---------------

void on_mlnx_qos(Ctx& c) {
  auto v = c.take(parse::parse_mlnx_qos(c.text.body));
  if (!v) return;
  auto nd = netdev_target(c, std::nullopt);
  if (!nd) return no_subject(c, "netdev");
  NetDev& n = c.snap.netdev(*nd);
  QosState q;
  if (v->trust) {
    q.trust = std::string(parse::to_string(*v->trust));
    q.trust_source = c.find("trust state");
  }
  for (const auto& [d, p] : v->dscp_to_priority) q.dscp_to_priority[static_cast<int>(d)] = static_cast<int>(p);
  if (!q.dscp_to_priority.empty()) {
    auto it = v->dscp_to_priority.find(26);
    std::string needle = "prio:" + std::to_string(it != v->dscp_to_priority.end() ? it->second : 0);
    q.dscp_source = c.find(needle);
  }
  if (v->pfc_enabled) {
    q.pfc_enabled = std::vector<bool>(v->pfc_enabled->begin(), v->pfc_enabled->end());
    q.pfc_source = c.find("enabled");
  }
  if (v->priority_to_buffer) {
    q.priority_to_buffer.emplace();
    for (std::uint32_t b : *v->priority_to_buffer) q.priority_to_buffer->push_back(static_cast<int>(b));
  }
  if (v->dcbx_mode) q.dcbx_mode = *v->dcbx_mode == parse::DcbxMode::firmware_controlled ? "firmware" : "os";
  n.qos.value = std::move(q);
  n.qos.source = c.find("trust state");
  n.qos.notes = c.truncation_notes();
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
  std::optional<std::string> nd = (!c.target.empty() && !is_bdf(c.target)) ? std::optional(c.target) : std::nullopt;
  if (!nd && bdf)
    for (const NetDev& n : c.snap.netdevs)
      if (n.bdf && *n.bdf == *bdf) nd = n.name;
  if (nd) {
    NetDev& n = c.snap.netdev(*nd);
    if (bdf) n.bdf = bdf;
    n.driver.value = d;
    n.driver.source = c.find("firmware-version");
  } else if (bdf) {
    // No netdev name: keep the running firmware on the PCI function.
    PciFunction& p = c.snap.pci(*bdf);
    if (!p.firmware.has_value()) {
      FirmwareImage fw;
      fw.version = v->firmware_version;
      fw.psid = v->psid;
      p.firmware.value = fw;
      p.firmware.source = c.find("firmware-version");
    }
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

void on_system_checks(Ctx& c) {
  auto v = c.take(parse::parse_system_checks(c.text.body));
  if (!v) return;
  if (v->hostname && c.snap.hostname.empty()) c.snap.hostname = *v->hostname;
  for (const parse::SystemChecksInterface& i : v->interfaces) {
    if (!i.netdev) continue;
    NetDev& n = c.snap.netdev(*i.netdev);
    std::size_t from = c.find("Name : " + *i.netdev).line;
    std::size_t body_from = from >= c.text.body_first_line ? from - c.text.body_first_line + 1 : 1;
    if (i.pcie_bdf) n.bdf = normalize_bdf(*i.pcie_bdf);
    if (i.rdma_device) {
      n.rdma_device = i.rdma_device;
      n.rdma_port = 1;
    }
    if (i.mtu_bytes) {
      n.mtu_bytes.value = static_cast<int>(*i.mtu_bytes);
      n.mtu_bytes.source = c.find("MTU", body_from);
    }
    if (i.operstate) {
      n.operstate.value = *i.operstate;
      n.operstate.source = c.find("Operstate", body_from);
    }
    if (i.rx_flow_control || i.tx_flow_control) {
      n.pause.value = PauseState{std::nullopt, i.rx_flow_control, i.tx_flow_control};
      n.pause.source = c.find("RX flow control", body_from);
    }
    if (i.trust) {
      QosState q;
      q.trust = *i.trust;
      q.trust_source = c.find("trust state", body_from);
      n.qos.value = q;
      n.qos.source = q.trust_source;
      n.qos.notes.push_back("system-check report: trust state only (no DSCP map or PFC)");
    }
    if (i.pcie_bdf && i.max_read_request_bytes) {
      if (auto b = normalize_bdf(*i.pcie_bdf)) {
        PciFunction& p = c.snap.pci(*b);
        p.max_read_request_bytes.value = static_cast<int>(*i.max_read_request_bytes);
        p.max_read_request_bytes.source = c.find("MRRS", body_from);
      }
    }
  }
  if (!v->loaded_modules.empty()) {
    c.snap.kernel_modules.value = v->loaded_modules;
    c.snap.kernel_modules.source = c.find("modules");
    bool peermem = std::find(v->loaded_modules.begin(), v->loaded_modules.end(), "nvidia_peermem") !=
                   v->loaded_modules.end();
    if (!c.snap.gpudirect.has_value() && peermem) {
      GpuDirectState g;
      g.peermem_loaded = true;
      c.snap.gpudirect.value = g;
      c.snap.gpudirect.source = c.find("nvidia_peermem");
    }
  }
  if (!v->gpu_nic_links.empty() && !c.snap.gpus.has_value()) {
    std::map<std::string, Gpu> gpus;
    for (const parse::SystemChecksGpuNicLink& l : v->gpu_nic_links) {
      Gpu& g = gpus[l.gpu];
      if (g.source.file.empty()) {
        g.index = static_cast<int>(text::parse_int(l.gpu.substr(3)).value_or(0));
        g.source = c.find(l.gpu + " ");
      }
      std::string rel = l.connection == "SOC" ? "SYS" : l.connection;
      if (rel == "X" || rel.starts_with("NV")) continue;
      g.nics.push_back({l.nic, rel, g.source});
    }
    std::vector<Gpu> out;
    for (auto& [k, g] : gpus) out.push_back(g);
    c.snap.gpus.value = out;
    c.snap.gpus.source = c.find("GPU0");
  }
}

void on_cma_roce_mode(Ctx& c) {
  auto v = c.take(parse::parse_cma_roce_mode(c.text.body));
  if (!v || v->readings.empty()) return;
  const parse::CmaRoceModeReading& r = v->readings.front();  // the state before any -m change
  std::string dev = r.rdma_device.value_or(c.target);
  if (dev.empty()) return no_subject(c, "RDMA device");
  RdmaPort& p = rdma_port(c.snap.rdma(dev), static_cast<int>(r.port.value_or(1)));
  p.default_roce_mode.value = r.mode == parse::CmRoceMode::v2 ? "RoCE v2" : "IB/RoCE v1";
  p.default_roce_mode.source = c.at(r.line);
}

void on_nccl_log(Ctx& c) {
  auto v = c.take(parse::parse_nccl_log(c.text.body));
  if (!v) return;
  GpuDirectState g = c.snap.gpudirect.value.value_or(GpuDirectState{});
  Evidence ev;
  for (const parse::NcclChannel& ch : v->channels)
    if (ch.gdrdma) {
      g.gdrdma_in_use = true;
      ev = c.at(ch.line);
      break;
    }
  if (!g.gdrdma_in_use) {
    for (const parse::NcclGdrStatus& s : v->gdr_status)
      if (s.enabled) g.gdrdma_in_use = true;
    ev = c.find("GPU Direct RDMA");
  }
  if (!g.gdrdma_in_use && !v->channels.empty()) {
    bool net = std::any_of(v->channels.begin(), v->channels.end(),
                           [](const parse::NcclChannel& ch) { return ch.transport.starts_with("NET/IB"); });
    if (net) {
      g.gdrdma_in_use = false;
      ev = c.find("via NET/IB");
    }
  }
  if (!g.gdrdma_in_use.has_value()) return;
  c.snap.gpudirect.value = g;
  c.snap.gpudirect.source = ev;
}

void on_persistence(Ctx& c) {
  auto v = c.take(parse::parse_persistence(c.text.body));
  if (!v) return;
  c.snap.persistence.value = *v;
  c.snap.persistence.source = c.whole();
}

void on_lsmod(Ctx& c) {
  auto v = c.take(parse::parse_lsmod(c.text.body));
  if (!v) return;
  std::vector<std::string> names;
  for (const parse::LsmodModule& m : v->modules) names.push_back(m.name);
  c.snap.kernel_modules.value = names;
  c.snap.kernel_modules.source = c.whole();
  // A filtered lsmod (grep) proves presence, not absence.
  bool peermem = parse::has_module(*v, "nvidia_peermem") || parse::has_module(*v, "nv_peer_mem");
  if (peermem) {
    GpuDirectState g = c.snap.gpudirect.value.value_or(GpuDirectState{});
    g.peermem_loaded = true;
    c.snap.gpudirect.value = g;
    if (c.snap.gpudirect.source.file.empty()) c.snap.gpudirect.source = c.find("peermem");
  } else if (v->header_shown && v->modules.size() > 20) {
    GpuDirectState g = c.snap.gpudirect.value.value_or(GpuDirectState{});
    if (!g.peermem_loaded) g.peermem_loaded = false;
    c.snap.gpudirect.value = g;
    if (c.snap.gpudirect.source.file.empty()) c.snap.gpudirect.source = c.whole();
  }
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
      RdmaPort& rp = rdma_port(r, static_cast<int>(*p.port));
      if (p.state) {
        rp.state.value = port_state_text(*p.state);
        rp.state.source = c.find("state:", from);
      }
      if (p.link_layer) rp.link_layer = *p.link_layer == parse::LinkLayer::infiniband ? "InfiniBand" : "Ethernet";
      if (p.active_mtu_bytes) {
        rp.active_mtu_bytes = static_cast<int>(*p.active_mtu_bytes);
        rp.mtu_source = c.find("active_mtu:", from);
      }
      if (p.max_mtu_bytes) rp.max_mtu_bytes = static_cast<int>(*p.max_mtu_bytes);
      if (v->verbose && (!p.gids.empty() || p.gid_tbl_len)) {
        bool ib = rp.link_layer && *rp.link_layer == "InfiniBand";
        std::vector<Gid> gids;
        for (const parse::IbvGid& g : p.gids)
          gids.push_back(Gid{static_cast<int>(g.index), g.gid, g.ipv4, gid_type_text(g.type, ib), std::nullopt});
        rp.gids.value = gids;
        rp.gids.source = c.find("GID[", from);
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
    ports[key].push_back(Gid{static_cast<int>(e.gid_index), e.gid, e.ipv4, gid_type_text(e.type, ib), e.netdev});
    // Prefer the routable v2 line as evidence, else the first line of the port.
    Evidence line = c.find(e.gid);
    if (!ev.count(key) || (e.type == parse::GidType::roce_v2 && e.ipv4)) ev[key] = line;
    if (e.netdev) link_netdev(c.snap, e.rdma_device, static_cast<int>(e.port), *e.netdev);
  }
  for (auto& [key, gids] : ports) {
    RdmaPort& p = rdma_port(c.snap.rdma(key.first), key.second);
    p.gids.value = gids;
    p.gids.source = ev[key];
    if (!p.link_layer && std::any_of(gids.begin(), gids.end(), [](const Gid& g) {
          return g.type && g.type->starts_with("RoCE");
        }))
      p.link_layer = "Ethernet";
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
    RdmaPort& p = rdma_port(d, static_cast<int>(e.port));
    Evidence ev = c.find(e.rdma_device + " port " + std::to_string(e.port));
    if (e.port_state) {
      p.state.value = port_state_text(*e.port_state);
      p.state.source = ev;
    } else if (e.link_up && !p.state.has_value()) {
      // ibdev2netdev's (Up)/(Down) is the netdev state; for RoCE it follows the port.
      p.state.value = *e.link_up ? "ACTIVE" : "DOWN";
      p.state.source = ev;
    }
    if (e.netdev) {
      link_netdev(c.snap, e.rdma_device, static_cast<int>(e.port), *e.netdev);
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
    RdmaPort& p = rdma_port(c.snap.rdma(l.rdma_device), static_cast<int>(l.port));
    if (l.state) {
      p.state.value = port_state_text(*l.state);
      p.state.source = c.find("link " + l.rdma_device + "/" + std::to_string(l.port));
    }
    if (l.netdev) link_netdev(c.snap, l.rdma_device, static_cast<int>(l.port), *l.netdev);
  }
}

void on_ibstat(Ctx& c) {
  auto v = c.take(parse::parse_ibstat(c.text.body));
  if (!v) return;
  for (const parse::IbstatCa& ca : v->cas) {
    RdmaDevice& d = c.snap.rdma(ca.ca_name);
    if (ca.firmware_version && !d.fw_ver) d.fw_ver = ca.firmware_version;
    for (const parse::IbstatPort& ip : ca.ports) {
      RdmaPort& p = rdma_port(d, static_cast<int>(ip.port));
      if (ip.state && !p.state.has_value()) {
        p.state.value = port_state_text(*ip.state);
        p.state.source = c.find("State:");
      }
      if (ip.link_layer && !p.link_layer)
        p.link_layer = *ip.link_layer == parse::LinkLayer::infiniband ? "InfiniBand" : "Ethernet";
    }
  }
}

void merge_counters(RdmaPort& p, const std::map<std::string, std::uint64_t>& m, const Evidence& ev) {
  std::map<std::string, std::uint64_t> all = p.counters.value.value_or(std::map<std::string, std::uint64_t>{});
  for (const auto& [k, val] : m) all[k] = val;
  p.counters.value = std::move(all);
  if (p.counters.source.file.empty()) p.counters.source = ev;
}

void on_show_counters(Ctx& c) {
  auto v = c.take(parse::parse_show_counters(c.text.body));
  if (!v) return;
  if (c.target.empty()) return no_subject(c, "RDMA device");
  for (const parse::ShowCountersPort& sp : v->ports) {
    RdmaPort& p = rdma_port(c.snap.rdma(c.target), static_cast<int>(sp.port));
    merge_counters(p, sp.hw_counters, c.whole());
    merge_counters(p, sp.counters, c.whole());
  }
}

void on_rdma_statistic(Ctx& c) {
  auto v = c.take(parse::parse_rdma_statistic(c.text.body));
  if (!v) return;
  for (const parse::RdmaStatisticPort& sp : v->ports) {
    RdmaPort& p = rdma_port(c.snap.rdma(sp.rdma_device), static_cast<int>(sp.port));
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
    merge_counters(rdma_port(c.snap.rdma(dev), static_cast<int>(set.port.value_or(1))), m, c.whole());
  }
}

PciFunction* pci_for_target(Ctx& c, const std::optional<std::string>& printed) {
  std::optional<std::string> bdf;
  if (is_bdf(c.target)) bdf = normalize_bdf(c.target);
  if (!bdf && printed) bdf = normalize_bdf(*printed);
  if (!bdf) return nullptr;
  return &c.snap.pci(*bdf);
}

void on_mlxconfig(Ctx& c) {
  auto v = c.take(parse::parse_mlxconfig_query(c.text.body));
  if (!v) return;
  PciFunction* p = pci_for_target(c, v->device ? v->device->device : std::nullopt);
  if (!p) return no_subject(c, "PCI address");
  NvConfig cfg;
  for (const parse::MlxconfigParam& m : v->params) {
    NvParam np;
    np.name = m.name;
    if (m.default_value) np.default_value = m.default_value->text;
    if (m.current) np.current_value = m.current->text;
    if (m.next_boot) np.next_boot_value = m.next_boot->text;
    if (m.new_value) np.new_value = m.new_value->text;
    np.marked_modified = m.modified;
    np.line = c.text.body_first_line + m.line - 1;
    cfg.params.push_back(np);
  }
  cfg.has_current_column = std::find(v->columns.begin(), v->columns.end(),
                                     parse::MlxconfigColumn::current) != v->columns.end();
  cfg.is_set_transcript = v->is_set_transcript;
  cfg.set_applied = v->applied;
  cfg.reboot_requested = v->reboot_required;
  if (v->device) {
    cfg.description = v->device->description;
    cfg.part_number = v->device->name;
  }
  p->nv_config.value = cfg;
  p->nv_config.source = v->is_set_transcript ? c.find("reboot").line ? c.find("reboot") : c.find("Applying")
                                             : (v->params.empty() ? c.whole() : c.at(v->params.front().line));
}

void on_flint(Ctx& c) {
  auto v = c.take(parse::parse_flint_query(c.text.body));
  if (!v) return;
  PciFunction* p = pci_for_target(c, std::nullopt);
  if (!p) return no_subject(c, "PCI address");
  FirmwareImage fw = p->firmware.value.value_or(FirmwareImage{});
  fw.version = v->fw_version_running ? v->fw_version_running : v->fw_version;
  if (v->fw_version_running && v->fw_version) fw.stored_version = v->fw_version;
  if (v->invalid_fw_version && v->fw_version) fw.stored_version = v->fw_version;
  if (v->psid) fw.psid = v->psid;
  if (auto d = std::find_if(v->other_fields.begin(), v->other_fields.end(),
                            [](const parse::FlintField& f) { return f.name == "Description"; });
      d != v->other_fields.end() && !fw.description)
    fw.description = d->value;
  p->firmware.value = fw;
  p->firmware.source = c.find("FW Version");
}

void on_mlxfwmanager(Ctx& c) {
  auto v = c.take(parse::parse_mlxfwmanager(c.text.body));
  if (!v) return;
  for (const parse::FwManagerDevice& d : v->devices) {
    PciFunction* p = pci_for_target(c, d.pci_device_name);
    if (!p) {
      no_subject(c, "PCI address");
      continue;
    }
    FirmwareImage fw = p->firmware.value.value_or(FirmwareImage{});
    for (const parse::FwManagerVersion& ver : d.versions)
      if (ver.component == "FW" && ver.current && !fw.version) fw.version = ver.current;
    auto useful = [](const std::optional<std::string>& s) { return s && *s != "N/A" && !s->empty(); };
    if (useful(d.psid)) fw.psid = d.psid;
    if (useful(d.part_number)) fw.part_number = d.part_number;
    if (useful(d.description)) fw.description = d.description;
    if (d.status_text) fw.update_status = d.status_text;
    p->firmware.value = fw;
    if (p->firmware.source.file.empty() || d.status_text)
      p->firmware.source = d.status_text ? c.find("Status:") : c.find("FW");
  }
}

void on_devlink(Ctx& c) {
  auto v = c.take(parse::parse_devlink_dev_info(c.text.body));
  if (!v) return;
  for (const parse::DevlinkDevice& d : v->devices) {
    if (d.bus != "pci") continue;
    auto bdf = normalize_bdf(d.name);
    if (!bdf) continue;
    PciFunction& p = c.snap.pci(*bdf);
    FirmwareImage fw = p.firmware.value.value_or(FirmwareImage{});
    if (auto r = parse::find_version(d.running, "fw.version")) fw.version = r;
    if (auto s = parse::find_version(d.stored, "fw.version")) fw.stored_version = s;
    if (auto ps = parse::find_version(d.fixed, "fw.psid")) fw.psid = ps;
    p.firmware.value = fw;
    p.firmware.source = c.find(d.name);
    if (d.driver && !p.driver) p.driver = d.driver;
    if (d.board_serial_number && !d.board_serial_number->empty())
      p.board_serial_number = d.board_serial_number;
    if (d.function_uid && !d.function_uid->empty()) p.function_uid = d.function_uid;
  }
}

void on_lspci(Ctx& c) {
  auto v = c.take(parse::parse_lspci_vv(c.text.body));
  if (!v) return;
  for (const parse::LspciDevice& d : v->devices) {
    PciFunction& p = c.snap.pci(d.bdf);
    p.source = c.at(d.line);
    if (d.vendor_id) p.vendor_id = static_cast<std::uint16_t>(text::parse_hex(*d.vendor_id).value_or(0));
    if (d.device_id) p.device_id = static_cast<std::uint16_t>(text::parse_hex(*d.device_id).value_or(0));
    p.device_name = d.name;
    p.is_vf = d.is_virtual_function;
    p.flash_recovery = d.flash_recovery ||
                       (p.device_id && catalog::Catalog::builtin().is_flash_recovery_id(*p.device_id));
    if (d.numa_node && *d.numa_node >= 0) p.numa_node = static_cast<int>(*d.numa_node);
    if (d.kernel_driver) p.driver = d.kernel_driver;
    if (d.vpd) {
      p.vpd_part_number = d.vpd->part_number;
      p.vpd_product_name = d.vpd->product_name;
      if (d.vpd->serial_number && !d.vpd->serial_number->empty() && !p.board_serial_number)
        p.board_serial_number = d.vpd->serial_number;
    }
    std::size_t from = d.line;
    if (d.link_capability || d.link_status) {
      PcieLinkState l;
      if (d.link_capability) {
        l.capability.speed_gts = d.link_capability->speed_gts;
        if (d.link_capability->width_lanes) l.capability.width_lanes = static_cast<int>(*d.link_capability->width_lanes);
      }
      if (d.link_status) {
        l.status.speed_gts = d.link_status->speed_gts;
        if (d.link_status->width_lanes) l.status.width_lanes = static_cast<int>(*d.link_status->width_lanes);
        l.status.downgraded = d.link_status->speed_downgraded || d.link_status->width_downgraded;
      }
      if (d.max_payload_bytes) l.max_payload_bytes = static_cast<int>(*d.max_payload_bytes);
      if (d.devcap_max_payload_bytes) l.max_payload_cap_bytes = static_cast<int>(*d.devcap_max_payload_bytes);
      p.link.value = l;
      p.link.source = c.find("LnkSta:", from);
    } else if (d.capabilities_denied) {
      p.link.reason = "lspci ran without root: Capabilities <access denied>";
    } else if (!d.full_listing) {
      p.link.reason = "the lspci output was filtered (no LnkCap/LnkSta lines)";
    }
    if (d.max_read_request_bytes) {
      p.max_read_request_bytes.value = static_cast<int>(*d.max_read_request_bytes);
      p.max_read_request_bytes.source = c.find("MaxReadReq", from);
    } else if (d.capabilities_denied) {
      p.max_read_request_bytes.reason = "lspci ran without root: Capabilities <access denied>";
    } else if (!d.full_listing) {
      p.max_read_request_bytes.reason = "the lspci output was filtered (no DevCtl line)";
    }
  }
}

void on_topo(Ctx& c) {
  auto v = c.take(parse::parse_nvidia_smi_topo(c.text.body));
  if (!v) return;
  std::vector<Gpu> gpus;
  for (const parse::TopoGpu& tg : v->gpus) {
    Gpu g;
    g.index = static_cast<int>(tg.index.value_or(static_cast<std::uint32_t>(gpus.size())));
    g.source = c.find(tg.name);
    for (const parse::TopoRow& row : v->rows)
      if (row.name == tg.name) {
        g.cpu_affinity = row.cpu_affinity;
        if (row.numa_affinity) {
          if (auto n = text::parse_int(*row.numa_affinity)) g.numa_node = static_cast<int>(*n);
        }
      }
    for (const parse::TopoGpuNic& n : tg.nics) {
      std::string rel = n.text == "SOC" ? "SYS" : n.text;
      g.nics.push_back({n.rdma_device, rel, g.source});
    }
    gpus.push_back(std::move(g));
  }
  c.snap.gpus.value = gpus;
  c.snap.gpus.source = c.find("GPU0");
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
    if (i.mtu_bytes) {
      n.mtu_bytes.value = static_cast<int>(*i.mtu_bytes);
      n.mtu_bytes.source = ev;
    }
    if (i.state) {
      n.operstate.value = text::to_lower(*i.state);
      n.operstate.source = ev;
    }
  }
}

void on_sysfs_peermem(Ctx& c) {
  // `ls /sys/kernel/mm/memory_peers; grep -H . /sys/module/nvidia_peermem/*` (rocekit-capture).
  GpuDirectState g = c.snap.gpudirect.value.value_or(GpuDirectState{});
  std::string_view body = c.text.body;
  bool nv_mem = body.find("nv_mem") != std::string_view::npos;
  bool module = body.find("/sys/module/nvidia_peermem/") != std::string_view::npos;
  if (module) g.peermem_loaded = true;
  g.peer_memory_registered = nv_mem;
  c.snap.gpudirect.value = g;
  c.snap.gpudirect.source = nv_mem ? c.find("nv_mem") : c.whole();
}

using Handler = void (*)(Ctx&);
const std::map<std::string, Handler>& handlers() {
  static const std::map<std::string, Handler> k_handlers{
      {"mlnx_qos", on_mlnx_qos},
      {"ethtool", on_ethtool},
      {"ethtool_i", on_ethtool_i},
      {"ethtool_c", on_ethtool_c},
      {"ethtool_l", on_ethtool_l},
      {"ethtool_a", on_ethtool_a},
      {"ethtool_S", on_ethtool_S},
      {"sysfs_ecn", on_sysfs_ecn},
      {"system_checks", on_system_checks},
      {"cma_roce_mode", on_cma_roce_mode},
      {"nccl_log", on_nccl_log},
      {"lsmod", on_lsmod},
      {"persistence", on_persistence},
      {"ibv_devinfo", on_ibv_devinfo},
      {"show_gids", on_show_gids},
      {"ibdev2netdev", on_ibdev2netdev},
      {"rdma_link", on_rdma_link},
      {"ibstat", on_ibstat},
      {"show_counters", on_show_counters},
      {"rdma_statistic", on_rdma_statistic},
      {"sysfs_hw_counters", on_sysfs_counters},
      {"sysfs_counters", on_sysfs_counters},
      {"mlxconfig_q", on_mlxconfig},
      {"flint_q", on_flint},
      {"mlxfwmanager", on_mlxfwmanager},
      {"devlink_dev_info", on_devlink},
      {"lspci_vvv", on_lspci},
      {"nvidia_smi_topo", on_topo},
      {"sysfs_peermem", on_sysfs_peermem},
      {"ip_link", on_ip_link},
  };
  return k_handlers;
}

/// Processing order: identity and links first, so later files can attach to known objects.
int order_of(const std::string& tool) {
  static const std::vector<std::string> k_first{"ibdev2netdev", "rdma_link", "ibv_devinfo",
                                                "show_gids", "ethtool_i", "lspci_vvv"};
  for (std::size_t i = 0; i < k_first.size(); ++i)
    if (k_first[i] == tool) return static_cast<int>(i);
  return 100;
}

void read_capture_log(Snapshot& s, const CaptureFile& f) {
  for (std::string_view line : text::lines(f.bytes)) {
    if (auto h = text::value_after(line, "hostname:")) {
      if (s.hostname.empty()) s.hostname = std::string(*h);
      continue;
    }
    if (auto t = text::value_after(line, "started:")) {
      s.collected_at = std::string(*t);
      continue;
    }
    std::vector<std::string_view> cols = text::split(line, '\t');
    if (cols.size() >= 2 && cols[0] == "note") {
      s.notes.emplace_back(cols[1]);
      continue;
    }
    if (cols.size() >= 4)
      s.tool_runs.push_back(ToolRun{std::string(cols[1]), std::string(cols[2]), std::string(cols[0]),
                                    std::string(cols[3])});
  }
}

std::string missing_reason(const Snapshot& s, const std::string& tool, const std::string& what) {
  for (const ToolRun& r : s.tool_runs)
    if (r.tool == tool && r.status != "ok") return tool + " " + r.status + " on the host";
  return "not captured (no " + what + " output in the capture)";
}

template <class T>
void default_reason(Collected<T>& c, const std::string& why) {
  if (!c.has_value() && c.reason.empty()) c.reason = why;
}

void fill_reasons(Snapshot& s) {
  for (NetDev& n : s.netdevs) {
    default_reason(n.mtu_bytes, missing_reason(s, "ip_link", "ip link / sysfs mtu"));
    default_reason(n.operstate, missing_reason(s, "ip_link", "ip link"));
    default_reason(n.driver, missing_reason(s, "ethtool_i", "ethtool -i " + n.name));
    default_reason(n.qos, missing_reason(s, "mlnx_qos", "mlnx_qos -i " + n.name));
    default_reason(n.pause, missing_reason(s, "ethtool_a", "ethtool -a " + n.name));
    default_reason(n.coalesce, missing_reason(s, "ethtool_c", "ethtool -c " + n.name));
    default_reason(n.channels, missing_reason(s, "ethtool_l", "ethtool -l " + n.name));
    default_reason(n.ecn, missing_reason(s, "sysfs_ecn", "/sys/class/net/" + n.name + "/ecn"));
    default_reason(n.link, missing_reason(s, "ethtool", "ethtool " + n.name));
    default_reason(n.stats, missing_reason(s, "ethtool_S", "ethtool -S " + n.name));
  }
  for (RdmaDevice& d : s.rdma_devices)
    for (RdmaPort& p : d.ports) {
      default_reason(p.state, "not captured (no ibv_devinfo, ibdev2netdev or rdma link output)");
      default_reason(p.gids, missing_reason(s, "show_gids", "show_gids or ibv_devinfo -v GID table"));
      default_reason(p.default_roce_mode,
                     "not captured: read /sys/kernel/config/rdma_cm/" + d.name + "/ports/" +
                         std::to_string(p.port) +
                         "/default_roce_mode when it exists; without it the kernel default "
                         "applies (RoCE v2 on upstream kernels)");
      default_reason(p.counters, "not captured (no hw_counters, show_counters or rdma statistic)");
    }
  for (PciFunction& p : s.pci_functions) {
    default_reason(p.link, missing_reason(s, "lspci_vvv", "lspci -vv -s " + p.bdf));
    default_reason(p.max_read_request_bytes, missing_reason(s, "lspci_vvv", "lspci -vv -s " + p.bdf));
    default_reason(p.firmware, missing_reason(s, "flint_q", "flint/mstflint q, mlxfwmanager or devlink dev info"));
    default_reason(p.nv_config, missing_reason(s, "mlxconfig_q", "mlxconfig/mstconfig -d " + p.bdf + " q"));
  }
  default_reason(s.gpus, missing_reason(s, "nvidia_smi_topo", "nvidia-smi topo -m"));
  default_reason(s.gpudirect, "not captured (no lsmod, /sys/kernel/mm/memory_peers or NCCL log)");
  default_reason(s.kernel_modules, missing_reason(s, "lsmod", "lsmod"));
  default_reason(s.persistence, missing_reason(s, "persistence", "rocekit-capture --list-persistence"));
  default_reason(s.numa_cpu_count, "not captured (CPU count per NUMA node comes from live collection)");
}

/// Ensures RDMA devices whose name encodes a BDF, and netdevs with a BDF, have a PCI entry only
/// when something else reported that function (we do not invent PCI functions).
void link_pci(Snapshot& s) {
  for (NetDev& n : s.netdevs) {
    if (!n.bdf && n.rdma_device)
      if (RdmaDevice* d = s.find_rdma(*n.rdma_device); d && d->bdf) n.bdf = d->bdf;
    if (n.bdf)
      if (PciFunction* p = s.find_pci(*n.bdf); p && p->numa_node && !n.numa_node) n.numa_node = p->numa_node;
  }
}

bool is_ignored_name(const std::string& name) {
  std::string base = name.substr(name.find_last_of('/') == std::string::npos ? 0 : name.find_last_of('/') + 1);
  return base == "EXPECTED.md" || base == "expected.json" || base == "README.md" || base.starts_with(".");
}

}  // namespace

Snapshot snapshot_from_capture(const CaptureSet& set) {
  Snapshot s;
  s.source = SnapshotSource{set.kind, set.origin};
  struct Item {
    const CaptureFile* file;
    std::string tool;
    std::string target;
  };
  std::vector<Item> items;
  for (const CaptureFile& f : set.files) {
    std::string base = f.name.substr(f.name.find_last_of('/') == std::string::npos ? 0 : f.name.find_last_of('/') + 1);
    if (base == "rocekit-capture.log" && f.problem.empty()) {
      read_capture_log(s, f);
      s.inputs.push_back({f.name, "rocekit-capture.log", "", "parsed", {}});
      continue;
    }
    if (is_ignored_name(f.name)) continue;
    if (!f.problem.empty()) {
      s.inputs.push_back({f.name, "", "", "ignored", {f.name + ": " + f.problem}});
      continue;
    }
    std::string tool;
    std::string target;
    bool named = split_capture_name(f.name, tool, target) && parse::find_tool(tool) != nullptr;
    if (!named) {
      target.clear();
      tool.clear();
    }
    if (f.bytes.empty()) {
      s.inputs.push_back({f.name, tool, target, "error", {f.name + ": empty file"}});
      continue;
    }
    if (text::looks_binary(f.bytes)) {
      s.inputs.push_back({f.name, tool, target, "error", {f.name + ": binary content, not a tool's text output"}});
      continue;
    }
    if (!named) {
      parse::CaptureText ct = parse::strip_capture_header(f.bytes);
      std::optional<parse::PromptCommand> pc =
          ct.prompt_line.empty() ? std::nullopt : parse::parse_prompt_line(ct.prompt_line);
      if (pc && parse::find_tool(pc->tool) != nullptr) {
        // The pasted prompt names the command: "$ sudo mlnx_qos -i eth4" is mlnx_qos@eth4.
        tool = pc->tool;
        target = pc->target;
      } else if (const parse::ToolParser* t = parse::identify(ct.body)) {
        tool = std::string(t->id);
        std::string ignored;
        // Keep an @target from a non-standard name, e.g. "qos@eth4.txt".
        std::string base_tool;
        if (split_capture_name(f.name, base_tool, ignored)) target = ignored;
      } else {
        s.inputs.push_back({f.name, "", "", "ignored",
                            {f.name + ":1: unknown tool output (name the file <tool>[@<target>].txt; "
                                      "see `rocekit parse --help`)"}});
        continue;
      }
    }
    items.push_back({&f, tool, target});
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return order_of(a.tool) < order_of(b.tool); });
  for (const Item& it : items) {
    s.inputs.push_back({it.file->name, it.tool, it.target, "parsed", {}});
    InputFile& in = s.inputs.back();
    auto h = handlers().find(it.tool);
    if (h == handlers().end()) {
      in.status = "ignored";
      in.messages.push_back(it.file->name + ": " + it.tool +
                            " output is parsed but not used by any rule yet");
      continue;
    }
    Ctx c{s, *it.file, it.tool, it.target, parse::strip_capture_header(it.file->bytes), in};
    h->second(c);
  }
  std::sort(s.inputs.begin(), s.inputs.end(), [](const InputFile& a, const InputFile& b) { return a.file < b.file; });
  link_pci(s);
  std::sort(s.netdevs.begin(), s.netdevs.end(), [](const NetDev& a, const NetDev& b) { return a.name < b.name; });
  std::sort(s.rdma_devices.begin(), s.rdma_devices.end(),
            [](const RdmaDevice& a, const RdmaDevice& b) { return a.name < b.name; });
  std::sort(s.pci_functions.begin(), s.pci_functions.end(),
            [](const PciFunction& a, const PciFunction& b) { return a.bdf < b.bdf; });
  fill_reasons(s);
  if (s.rdma_devices.empty() && s.netdevs.empty() && s.pci_functions.empty())
    s.notes.push_back("no RDMA devices, netdevs or PCI functions found in the capture");
  return s;
}

}  // namespace rk::capture

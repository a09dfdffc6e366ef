#include "rocekit/build/builder.hpp"

#include <algorithm>

#include "rocekit/core/text.hpp"
#include "rocekit/model/validate.hpp"

namespace rk::build {

PortState port_state(parse::PortState s) {
  switch (s) {
    case parse::PortState::nop: return PortState::nop;
    case parse::PortState::down: return PortState::down;
    case parse::PortState::init: return PortState::init;
    case parse::PortState::armed: return PortState::armed;
    case parse::PortState::active: return PortState::active;
    case parse::PortState::active_defer: return PortState::active_defer;
  }
  return PortState::unknown;
}

PortState port_state_sysfs(std::string_view s) {
  // "4: ACTIVE" (drivers/infiniband/core/sysfs.c state_show()).
  return port_state_from_string(s).value_or(PortState::unknown);
}

LinkLayer link_layer(parse::LinkLayer l) {
  return l == parse::LinkLayer::infiniband ? LinkLayer::infiniband : LinkLayer::ethernet;
}

Trust trust(parse::QosTrust t) { return t == parse::QosTrust::dscp ? Trust::dscp : Trust::pcp; }

std::optional<GidType> gid_type(const std::optional<parse::GidType>& t, bool ib) {
  // An Ethernet port's GID printed without a type column has no type.
  if (!t) return ib ? std::optional<GidType>(GidType::ib) : std::nullopt;
  if (*t == parse::GidType::roce_v2) return GidType::roce_v2;
  return ib ? GidType::ib : GidType::roce_v1;
}

std::optional<GidType> gid_type_sysfs(const std::optional<std::string>& t, bool ib) {
  // drivers/infiniband/core/sysfs.c: gid_attrs/types/<i> prints ib_cache_gid_type_str():
  // "IB/RoCE v1" or "RoCE v2".
  if (!t) return ib ? std::optional<GidType>(GidType::ib) : std::nullopt;
  std::optional<GidType> g = gid_type_from_string(*t);
  if (g == GidType::roce_v1 && ib) return GidType::ib;
  return g;
}

std::string cm_roce_mode(parse::CmRoceMode m) { return m == parse::CmRoceMode::v2 ? "RoCE v2" : "IB/RoCE v1"; }

std::string cm_roce_mode_sysfs(std::string_view t) {
  t = text::trim(t);
  if (t == "RoCE v2") return "RoCE v2";
  if (text::contains(t, "v1")) return "IB/RoCE v1";
  return std::string(t);
}

std::optional<std::string> gid_ipv4(std::string_view g) {
  // One conversion for every source: the parser's (ibv_devinfo -v prints the same GIDs).
  return parse::ipv4_from_gid(g);
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

void pair_netdev(Snapshot& s, const std::string& dev, int port, const std::string& netdev) {
  RdmaDevice& d = s.rdma(dev);
  rdma_port(d, port).netdev = netdev;
  std::optional<std::string> bdf = d.bdf;  // s.netdev() may reallocate; d stays valid (other vector)
  NetDev& n = s.netdev(netdev);
  n.rdma_device = dev;
  n.rdma_port = port;
  if (!n.bdf && bdf) n.bdf = bdf;
}

void finish_links(Snapshot& s) {
  for (NetDev& n : s.netdevs) {
    if (!n.bdf && n.rdma_device)
      if (RdmaDevice* d = s.find_rdma(*n.rdma_device); d && d->bdf) n.bdf = d->bdf;
    if (n.bdf)
      if (PciFunction* p = s.find_pci(*n.bdf); p && p->numa_node && !n.numa_node) n.numa_node = p->numa_node;
  }
}

QosState qos_state(const parse::MlnxQos& v) {
  QosState q;
  if (v.trust) q.trust = trust(*v.trust);
  for (const auto& [d, p] : v.dscp_to_priority) q.dscp_to_priority[static_cast<int>(d)] = static_cast<int>(p);
  if (v.pfc_enabled) q.pfc_enabled = std::vector<bool>(v.pfc_enabled->begin(), v.pfc_enabled->end());
  if (v.priority_to_buffer) {
    q.priority_to_buffer.emplace();
    for (std::uint32_t b : *v.priority_to_buffer) q.priority_to_buffer->push_back(static_cast<int>(b));
  }
  if (v.dcbx_mode) q.dcbx_mode = *v.dcbx_mode == parse::DcbxMode::firmware_controlled ? "firmware" : "os";
  // mlnx_qos prints one `tc:` row per traffic class with its priorities (pretty_print tc2up):
  // the priority-to-TC map is complete only when every priority 0..7 appears once.
  std::vector<int> prio_tc(8, -1);
  bool map_ok = true;
  for (const parse::MlnxQosTrafficClass& tc : v.traffic_classes) {
    if (tc.tc > 7) continue;
    TcSchedule t;
    t.tc = static_cast<int>(tc.tc);
    t.tsa = tc.tsa ? std::string(parse::to_string(*tc.tsa)) : tc.tsa_text.value_or("");
    if (tc.bandwidth_percent && t.tsa == "ets") t.bandwidth_percent = static_cast<int>(*tc.bandwidth_percent);
    if (!t.tsa.empty()) q.tc_schedule.push_back(t);
    for (std::uint32_t p : tc.priorities) {
      if (p > 7 || prio_tc[p] != -1) map_ok = false;
      else prio_tc[p] = static_cast<int>(tc.tc);
    }
  }
  std::sort(q.tc_schedule.begin(), q.tc_schedule.end(), [](const TcSchedule& a, const TcSchedule& b) { return a.tc < b.tc; });
  if (map_ok && std::none_of(prio_tc.begin(), prio_tc.end(), [](int t) { return t < 0; })) q.priority_to_tc = prio_tc;
  if (v.cable_length_m) q.cable_length_m = static_cast<int>(*v.cable_length_m);
  if (v.receive_buffer_size_bytes && v.receive_buffer_size_bytes->size() == 8) q.receive_buffer_bytes = *v.receive_buffer_size_bytes;
  return q;
}

NvConfig nv_config(const parse::MlxconfigQuery& q, std::size_t line_offset) {
  NvConfig cfg;
  for (const parse::MlxconfigParam& m : q.params) {
    NvParam np;
    np.name = m.name;
    if (m.default_value) np.default_value = m.default_value->text;
    if (m.current) np.current_value = m.current->text;
    if (m.next_boot) np.next_boot_value = m.next_boot->text;
    if (m.new_value) np.new_value = m.new_value->text;
    np.marked_modified = m.modified;
    np.line = line_offset + m.line;
    cfg.params.push_back(np);
  }
  cfg.has_current_column =
      std::find(q.columns.begin(), q.columns.end(), parse::MlxconfigColumn::current) != q.columns.end();
  cfg.is_set_transcript = q.is_set_transcript;
  cfg.set_applied = q.applied;
  cfg.reboot_requested = q.reboot_required;
  if (q.device) {
    cfg.description = q.device->description;
    cfg.part_number = q.device->name;
  }
  return cfg;
}

bool devlink_port(Snapshot& s, const parse::DevlinkPort& p, const Evidence& source) {
  if (!p.netdev) return false;  // a port without a netdev (e.g. an unbound representor)
  auto num = [](const std::optional<std::uint32_t>& x) {
    return x ? std::optional<int>(static_cast<int>(*x)) : std::nullopt;
  };
  NetDev& n = s.netdev(*p.netdev);
  DevlinkPortInfo d;
  d.handle = p.bus + "/" + p.device + "/" + std::to_string(p.index);
  d.flavour = p.flavour;
  d.controller = num(p.controller);
  d.pfnum = num(p.pfnum);
  d.vfnum = num(p.vfnum);
  d.sfnum = num(p.sfnum);
  d.external = p.external;
  d.port = num(p.port);
  if (p.function) {
    d.function_roce = p.function->roce;
    d.function_state = p.function->state;
  }
  d.source = source;
  // An uplink's devlink instance is its PCI function; a representor's is the eswitch manager's,
  // not its own.
  if (!n.bdf && p.bus == "pci" && p.flavour == "physical") n.bdf = normalize_bdf(p.device);
  n.devlink_port = std::move(d);
  return true;
}

bool devlink_eswitch(Snapshot& s, const parse::DevlinkEswitch& d, const Evidence& source) {
  std::optional<std::string> bdf = d.bus == "pci" ? normalize_bdf(d.device) : std::nullopt;
  if (!bdf) return false;
  DevlinkEswitchInfo e;
  e.mode = d.mode;
  e.inline_mode = d.inline_mode;
  e.encap_mode = d.encap_mode;
  e.source = source;
  s.pci(*bdf).eswitch = std::move(e);
  return true;
}

void devlink_eswitch_error(Snapshot& s, const std::string& bdf, const std::string& answer,
                           const Evidence& source) {
  DevlinkEswitchInfo e;
  e.kernel_error = answer;
  e.source = source;
  s.pci(bdf).eswitch = std::move(e);
}

void running_firmware(PciFunction& p, const std::optional<std::string>& version,
                      const std::optional<std::string>& psid, const Evidence& source) {
  if (p.firmware.has_value() || !version) return;
  FirmwareImage fw;
  fw.version = version;
  fw.psid = psid;
  p.firmware.value = fw;
  p.firmware.reason.clear();
  p.firmware.source = source;
}

void kernel_pcie_link(PciFunction& p, const parse::DmesgPcieBandwidth& b, const Evidence& source) {
  if (p.link.has_value()) return;
  PcieLinkState l;
  l.capability.speed_gts = b.capable.speed_gts;
  l.capability.width_lanes = b.capable.width_lanes;
  l.status.speed_gts = b.available.speed_gts;
  l.status.width_lanes = b.available.width_lanes;
  l.status.downgraded = b.limited;
  p.link.value = l;
  p.link.reason.clear();
  p.link.source = source;
  p.link.notes.push_back(
      "from the kernel's probe-time PCIe bandwidth line: the status is the narrowest link on the "
      "path to the CPU" +
      (b.limited_at && *b.limited_at != p.bdf ? " (" + *b.limited_at + ", upstream of the card)"
                                              : std::string()));
}

void netdev_mtu(NetDev& n, long long mtu, const Evidence& source) {
  n.mtu_bytes.source = source;
  if (is_netdev_mtu(mtu)) {
    n.mtu_bytes.value = static_cast<int>(mtu);
    n.mtu_bytes.reason.clear();
    n.mtu_bytes.reason_kind = ReasonKind::none;
    return;
  }
  n.mtu_bytes.set_missing("MTU " + std::to_string(mtu) + " as read is not an MTU (" +
                              std::to_string(k_min_mtu_bytes) + ".." +
                              std::to_string(k_max_mtu_bytes) + ")",
                          ReasonKind::none);
}

void max_read_request(PciFunction& p, long long bytes, const Evidence& source) {
  p.max_read_request_bytes.source = source;
  if (is_max_read_request(bytes)) {
    p.max_read_request_bytes.value = static_cast<int>(bytes);
    p.max_read_request_bytes.reason.clear();
    p.max_read_request_bytes.reason_kind = ReasonKind::none;
    return;
  }
  p.max_read_request_bytes.set_missing(
      "MaxReadReq " + std::to_string(bytes) + " as read is not one (a power of two, 128..4096)",
      ReasonKind::none);
}

Collected<IommuState> iommu_state(const IommuEvidence& e) {
  Collected<IommuState> out;
  IommuState st;
  if (e.cmdline) st.parameters = e.cmdline->parameters;
  auto decide = [&](std::string mode, std::string by, const Evidence& ev) {
    st.mode = std::move(mode);
    st.decided_by = std::move(by);
    out.value = st;
    out.source = ev;
    return out;
  };
  if (e.group_count && *e.group_count == 0)
    return decide("off", "iommu groups", e.groups_source);
  if (e.cmdline && e.cmdline->mode == std::optional<std::string>("off"))
    return decide("off", "kernel command line", e.cmdline_source);
  if (e.default_domain == std::optional<std::string>("Translated"))
    return decide("translated", "dmesg", e.domain_source);
  if (e.default_domain == std::optional<std::string>("Passthrough"))
    return decide("passthrough", "dmesg", e.domain_source);
  if (e.cmdline && e.cmdline->mode) return decide(*e.cmdline->mode, "kernel command line", e.cmdline_source);
  std::string why;
  if (e.default_domain)
    why = "dmesg's default domain type is \"" + *e.default_domain + "\"";
  else if (e.cmdline)
    why = "the kernel command line sets no IOMMU parameter that decides the default domain" +
          (st.parameters.empty() ? std::string() : " (" + [&] {
            std::string p;
            for (const std::string& w : st.parameters) p += (p.empty() ? "" : " ") + w;
            return p;
          }() + ")") +
          ": the kernel's build default does (CONFIG_IOMMU_DEFAULT_PASSTHROUGH)";
  else
    why = "the IOMMU mode is not in the input";
  out.set_missing(why + "; dmesg's \"iommu: Default domain type:\" line tells (save `dmesg` as dmesg.txt, as root), "
                        "or the groups' types (`grep -H . /sys/kernel/iommu_groups/*/type` as sysfs_iommu_groups.txt)",
                  ReasonKind::not_captured, "dmesg");
  return out;
}

std::optional<bool> group_translates(const IommuGroup& g) {
  if (!g.type) return std::nullopt;
  if (*g.type == "DMA" || *g.type == "DMA-FQ" || *g.type == "unmanaged") return true;
  if (*g.type == "identity") return false;
  return std::nullopt;
}

}  // namespace rk::build

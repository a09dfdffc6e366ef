#include "rocekit/collect/collect.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

#include "rocekit/build/builder.hpp"
#include "rocekit/build/pci_tree.hpp"
#include "rocekit/catalog/catalog.hpp"
#include "rocekit/collect/dcbnl.hpp"
#include "rocekit/collect/ethtool.hpp"
#include "rocekit/collect/pci_vpd.hpp"
#include "rocekit/collect/pcie_config.hpp"
#include "rocekit/collect/persistence.hpp"
#include "rocekit/collect/resources.hpp"
#include "rocekit/parse/app_env.hpp"
#include "rocekit/parse/sysfs_reads.hpp"
#include "rocekit/collect/pci_tree.hpp"
#include "rocekit/collect/sysfs_util.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/model/bluefield.hpp"
#include "rocekit/parse/devlink_dev_eswitch.hpp"
#include "rocekit/parse/devlink_port.hpp"
#include "rocekit/parse/host_resources.hpp"
#include "rocekit/parse/mlxconfig_query.hpp"
#include "rocekit/parse/nvidia_version.hpp"
#include "rocekit/parse/proc_cmdline.hpp"

namespace rk::collect {

namespace {

/// The PCI function a sysfs device link leads to: the last dddd:bb:dd.f component of the
/// resolved path (a virtio netdev's `device` is virtioN under the PCI function).
std::optional<std::string> bdf_of(const HostView& host, const std::string& device_link) {
  // Usually the link's last component is the function ("../../../0000:2f:00.0"): one readlink.
  if (Result<std::string> target = host.read_link(device_link))
    if (std::string b = basename(*target); is_full_bdf(b)) return normalize_bdf(b);
  Result<std::string> real = host.resolve(device_link);
  if (!real) return std::nullopt;
  std::optional<std::string> found;
  for (std::string_view part : text::split(*real, '/'))
    if (is_full_bdf(part)) found = normalize_bdf(part);
  return found;
}

std::optional<int> read_int(const HostView& host, const std::string& path) {
  Result<std::string> t = host.read_text(path);
  if (!t) return std::nullopt;
  std::optional<std::int64_t> v = text::parse_int(*t);
  if (!v || *v < -2147483647 || *v > 2147483647) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<int> read_numa(const HostView& host, const std::string& path) {
  std::optional<int> n = read_int(host, path);
  if (n && *n >= 0) return n;
  return std::nullopt;  // -1: no NUMA affinity reported
}

/// sysfs "4: ACTIVE" -> "ACTIVE"; "5: LinkUp" -> "LinkUp".
std::string after_colon(const std::string& s) {
  std::size_t c = s.find(':');
  return std::string(text::trim(c == std::string::npos ? std::string_view(s) : std::string_view(s).substr(c + 1)));
}

/// ATS Enable of a function from its config space (extended capability 0x000f, Control bit 15):
/// the extended space needs root (an unprivileged read stops at 64 bytes).
Collected<bool> ats_of(const std::string& cfg_path, const Result<std::vector<std::uint8_t>>& cfg) {
  Collected<bool> a;
  if (!cfg) {
    set_failed(a, cfg.error());
    return a;
  }
  Result<PcieConfigFacts> f = parse_pcie_config(*cfg);
  if (!f) {
    a.set_missing(cfg_path + ": " + f.error().message,
                  f.error().kind == ErrorKind::permission_denied ? ReasonKind::needs_root : ReasonKind::unreadable);
  } else if (f->ats_enabled) {
    set_value(a, *f->ats_enabled, ev(cfg_path, std::string("ATSCtl: Enable") + (*f->ats_enabled ? "+" : "-")));
  } else {
    a.set_missing(cfg_path + ": " + f->ats_reason, f->ats_reason_kind);
  }
  return a;
}

/// The IOMMU group of the device at sysfs `base`: its `iommu_group` link, made by
/// drivers/iommu/iommu.c iommu_group_add_device(), and the group's `type` (iommu_group_show_type(),
/// Linux >= 5.11). No link: the device is in no group, no IOMMU translates its DMA.
Collected<IommuGroup> read_iommu_group(const HostView& host, const std::string& base) {
  Collected<IommuGroup> out;
  Result<std::string> link = host.read_link(base + "/iommu_group");
  if (!link) {
    if (link.error().kind == ErrorKind::not_found)
      out.set_missing(base + "/iommu_group not present: the device is in no IOMMU group (no IOMMU translates its DMA)",
                      ReasonKind::not_applicable);
    else
      set_failed(out, link.error());
    return out;
  }
  std::optional<std::int64_t> n = text::parse_int(basename(*link));
  if (!n || *n < 0 || *n > 1000000) {
    out.set_missing(base + "/iommu_group -> " + *link + ": not an IOMMU group", ReasonKind::unreadable);
    return out;
  }
  IommuGroup g{static_cast<int>(*n), std::nullopt};
  std::string type_path = "/sys/kernel/iommu_groups/" + std::to_string(*n) + "/type";
  Evidence e = ev(base + "/iommu_group", "IOMMU group " + std::to_string(*n));
  if (Result<std::string> t = host.read_text(type_path)) {
    g.type = std::string(text::trim(*t));
    e = ev(type_path, *g.type);
  }
  set_value(out, g, e);
  return out;
}

// ------------------------------------------------------------------ netdev -----------------

void read_ecn(const HostView& host, NetDev& n) {
  std::string base = "/sys/class/net/" + n.name + "/ecn";
  EcnState st;
  std::vector<std::string> problems;
  for (const char* side : {"roce_rp", "roce_np"}) {
    // The driver creates enable/0..7 together: read them by name (no directory listing); a
    // missing enable/0 means the side is absent.
    std::string dir = base + "/" + side + "/enable/";
    auto& m = std::string(side) == "roce_rp" ? st.rp_enabled : st.np_enabled;
    for (int prio = 0; prio < 8; ++prio) {
      Result<std::string> v = host.read_text(dir + std::to_string(prio));
      if (!v) {
        if (v.error().kind == ErrorKind::not_found && prio == 0) break;
        problems.push_back(why(v.error()));
        continue;
      }
      m[prio] = text::trim(*v) == "1";
    }
  }
  if (st.rp_enabled.empty() && st.np_enabled.empty() && problems.empty() && !host.exists(base)) {
    n.ecn.set_missing(base + " not present (the NVIDIA OFED mlx5 driver's ECN tree; absent with the "
                             "inbox driver or a non-mlx5 NIC)",
                      ReasonKind::not_present);
    return;
  }
  if (st.rp_enabled.empty() && st.np_enabled.empty()) {
    n.ecn.reason = problems.empty() ? base + " has no roce_rp/roce_np enable entries" : problems.front();
    return;
  }
  std::string summary;
  for (const char* side : {"roce_rp", "roce_np"}) {
    const auto& m = std::string(side) == "roce_rp" ? st.rp_enabled : st.np_enabled;
    summary += std::string(summary.empty() ? "" : "; ") + side + "/enable";
    for (const auto& [p, on] : m) summary += " " + std::to_string(p) + "=" + (on ? "1" : "0");
  }
  set_value(n.ecn, st, ev(base, summary));
  n.ecn.notes = problems;
}

void read_netdev(const HostView& host, NetDev& n) {
  std::string base = "/sys/class/net/" + n.name;
  if (Result<std::string> mtu = host.read_text(base + "/mtu"); !mtu) {
    set_failed(n.mtu_bytes, mtu.error());
  } else if (std::optional<std::int64_t> v = text::parse_int(*mtu)) {
    build::netdev_mtu(n, *v, ev(base + "/mtu", *mtu));
  } else {
    n.mtu_bytes.reason = base + "/mtu: not a number: '" + *mtu + "'";
  }
  if (Result<std::string> op = host.read_text(base + "/operstate"))
    set_value(n.operstate, *op, ev(base + "/operstate", *op));
  else
    set_failed(n.operstate, op.error());

  // Link: speed (Mb/s) and carrier. Drivers report a down link as -1, 4294967295 or EINVAL.
  LinkSettings link;
  std::string link_text;
  if (Result<std::string> sp = host.read_text(base + "/speed")) {
    std::optional<std::int64_t> v = text::parse_int(*sp);
    if (v && *v > 0 && *v < 4294967295) link.speed_mbps = static_cast<std::uint64_t>(*v);
    link_text += "speed " + *sp;
  }
  if (Result<std::string> car = host.read_text(base + "/carrier")) {
    link.link_detected = *car == "1";
    link_text += std::string(link_text.empty() ? "" : ", ") + "carrier " + *car;
  }
  if (link.speed_mbps || link.link_detected)
    set_value(n.link, link, ev(base + "/speed", link_text));
  else
    n.link.reason = base + "/speed and /carrier unreadable (interface administratively down?)";

  n.bdf = bdf_of(host, base + "/device");
  DriverInfo drv;
  // readlink follows `device` (a PCI function or virtioN) and returns the driver link's target.
  if (Result<std::string> d = host.read_link(base + "/device/driver")) {
    drv.driver = basename(*d);
    if (Result<std::string> ver = host.read_text("/sys/module/" + *drv.driver + "/version"))
      drv.version = *ver;
    drv.bus_info = n.bdf;
    set_value(n.driver, drv, ev(base + "/device/driver", *drv.driver));
    n.driver.notes.push_back(
        "firmware-version is not in sysfs for a netdev; see rdma_devices[].fw_ver (ethtool ioctl "
        "not collected in this build)");
  } else {
    n.driver.reason = base + "/device/driver: " + why(d.error());
  }
  read_ecn(host, n);
  const std::string no_ioctl = " not collected: the ethtool ioctl reads the running kernel only "
                               "(not used with --root); capture `ethtool ";
  n.pause.set_missing("802.3x pause" + no_ioctl + "-a " + n.name + "`", ReasonKind::not_supported);
  n.coalesce.set_missing("interrupt coalescing" + no_ioctl + "-c " + n.name + "`", ReasonKind::not_supported);
  n.channels.set_missing("channels" + no_ioctl + "-l " + n.name + "`", ReasonKind::not_supported);
  n.stats.set_missing("ethtool statistics" + no_ioctl + "-S " + n.name + "`", ReasonKind::not_supported);
}

/// DCB/QoS: dcbnl IEEE_GET from the running kernel (live only), overlaid by the MLNX_OFED sysfs
/// tree /sys/class/net/<if>/qos when present (OFED keeps trust and dscp2prio there).
void read_qos(const HostView& host, bool live, NetDev& n) {
  std::string dcb_why;
  if (live) {
    if (Result<QosState> q = query_dcb_ieee(n.name)) {
      set_value(n.qos, *q, q->trust_source.file.empty() ? Evidence{"dcbnl IEEE_GET " + n.name, 0, ""} : q->trust_source);
    } else {
      dcb_why = q.error().message;
    }
  } else {
    dcb_why = "dcbnl reads the running kernel only (not used with --root)";
  }
  Result<QosState> ofed = read_ofed_qos_sysfs(host, n.name);
  if (ofed) {
    QosState q = n.qos.has_value() ? *n.qos.value : QosState{};
    if (ofed->trust) {
      q.trust = ofed->trust;
      q.trust_source = ofed->trust_source;
    }
    if (!ofed->dscp_to_priority.empty()) {
      q.dscp_to_priority = ofed->dscp_to_priority;
      q.dscp_source = ofed->dscp_source;
    }
    if (ofed->pfc_enabled) {
      q.pfc_enabled = ofed->pfc_enabled;
      q.pfc_source = ofed->pfc_source;
    }
    Evidence src = n.qos.has_value() ? n.qos.source : Evidence{"/sys/class/net/" + n.name + "/qos", 0, ""};
    set_value(n.qos, q, src);
    if (!dcb_why.empty()) n.qos.notes.push_back("dcbnl not used: " + dcb_why);
  } else if (!n.qos.has_value()) {
    n.qos.reason = "DCB QoS (trust, DSCP map, PFC) unknown: " + dcb_why;
    if (ofed.error().kind != ErrorKind::not_found) n.qos.reason += "; OFED qos sysfs: " + ofed.error().describe();
    if (!live) n.qos.reason += "; capture `mlnx_qos -i " + n.name + "` instead";
  }
}

// ------------------------------------------------------------------ RDMA -------------------

void read_gids(const HostView& host, const std::string& pbase, RdmaPort& port) {
  Result<std::vector<std::string>> idx = host.list_dir(pbase + "/gids");
  if (!idx) {
    set_failed(port.gids, idx.error());
    return;
  }
  bool ib = port.link_layer == LinkLayer::infiniband;
  std::vector<Gid> gids;
  std::string best;
  bool best_routable = false;
  for (const std::string& i : *idx) {
    std::optional<std::int64_t> n = text::parse_int(i);
    if (!n) continue;
    Result<std::string> g = host.read_text(pbase + "/gids/" + i);
    if (!g || *g == "0000:0000:0000:0000:0000:0000:0000:0000" || g->empty()) continue;  // unused
    Gid gid;
    gid.index = static_cast<int>(*n);
    gid.gid = *g;
    gid.ipv4 = build::gid_ipv4(*g);
    Result<std::string> t = host.read_text(pbase + "/gid_attrs/types/" + i);
    gid.type = build::gid_type_sysfs(t ? std::optional<std::string>(*t) : std::nullopt, ib);
    if (Result<std::string> nd = host.read_text(pbase + "/gid_attrs/ndevs/" + i)) gid.netdev = *nd;
    std::string line = "gids/" + i + " " + gid.gid + " " + (gid.type ? str(*gid.type) : std::string("?")) +
                       (gid.netdev ? " " + *gid.netdev : "");
    // Evidence: the first routable RoCE v2 GID, else the first GID in use.
    bool routable_v2 = gid.type == GidType::roce_v2 && !gid.gid.starts_with("fe80");
    if (best.empty() || (routable_v2 && !best_routable)) {
      best = line;
      best_routable = routable_v2;
    }
    gids.push_back(std::move(gid));
  }
  std::sort(gids.begin(), gids.end(), [](const Gid& a, const Gid& b) { return a.index < b.index; });
  set_value(port.gids, std::move(gids), ev(pbase + "/gids", best.empty() ? "no GID in use" : best));
}

void read_counters(const HostView& host, const std::string& pbase, RdmaPort& port) {
  std::map<std::string, std::uint64_t> m;
  std::vector<std::string> problems;
  bool any_dir = false;
  for (const char* sub : {"counters", "hw_counters"}) {
    std::string dir = pbase + "/" + sub;
    Result<std::vector<std::string>> names = host.list_dir(dir);
    if (!names) {
      if (names.error().kind != ErrorKind::not_found) problems.push_back(why(names.error()));
      continue;
    }
    any_dir = true;
    for (const std::string& name : *names) {
      Result<std::string> v = host.read_text(dir + "/" + name);
      if (!v) {
        if (problems.size() < 3) problems.push_back(why(v.error()));
        continue;
      }
      if (std::optional<std::uint64_t> u = text::parse_uint(*v)) m[name] = *u;
    }
  }
  if (m.empty()) {
    port.counters.reason = !problems.empty() ? problems.front()
                           : any_dir        ? pbase + "/counters, hw_counters: no readable counter"
                                            : pbase + "/counters and hw_counters not present";
    return;
  }
  set_value(port.counters, std::move(m), ev(pbase + "/hw_counters", ""));
  port.counters.notes = problems;
}

void read_cm_mode(const HostView& host, const std::string& dev, RdmaPort& port) {
  std::string dir = "/sys/kernel/config/rdma_cm";
  std::string file = dir + "/" + dev + "/ports/" + std::to_string(port.port) + "/default_roce_mode";
  if (!host.exists(dir)) {
    port.default_roce_mode.reason =
        dir + " not present (configfs not mounted or rdma_cm not loaded); the kernel default applies "
              "(RoCE v2 on upstream kernels)";
    return;
  }
  if (!host.exists(dir + "/" + dev)) {
    port.default_roce_mode.reason =
        dir + "/" + dev + " does not exist; rocekit does not create it (that is a write). The "
        "kernel default applies (RoCE v2 on upstream kernels)";
    return;
  }
  Result<std::string> m = host.read_text(file);
  if (!m) {
    set_failed(port.default_roce_mode, m.error());
    return;
  }
  set_value(port.default_roce_mode, build::cm_roce_mode_sysfs(*m), ev(file, *m));
}

/// rdma_cm configfs default_roce_tos, read only where the device directory already exists (as
/// default_roce_mode: creating it is a write).
void read_cm_tos(const HostView& host, const std::string& dev, RdmaPort& port) {
  std::string dir = "/sys/kernel/config/rdma_cm/" + dev;
  std::string file = dir + "/ports/" + std::to_string(port.port) + "/default_roce_tos";
  if (!host.exists(dir)) {
    port.default_roce_tos.set_missing(dir + " does not exist (rocekit does not create it: that is a write); "
                                      "rdma_cm then uses ToS 0 for connections that set none",
                                      ReasonKind::not_present);
    return;
  }
  Result<std::string> t = host.read_text(file);
  if (!t) return set_failed(port.default_roce_tos, t.error());
  std::optional<std::uint64_t> n = text::parse_uint(text::trim(*t));
  if (!n || *n > 255) {
    port.default_roce_tos.set_missing(file + ": not a ToS byte: " + *t, ReasonKind::unreadable);
    return;
  }
  set_value(port.default_roce_tos, static_cast<int>(*n), ev(file, *t));
}

/// MLNX_OFED / DOCA-OFED tc/<port>/traffic_class: "Global tclass=N" when set, empty when not
/// (mlx5_ib traffic_class_show); absent with the inbox driver.
void read_traffic_class(const HostView& host, const std::string& dev, RdmaPort& port) {
  std::string file = "/sys/class/infiniband/" + dev + "/tc/" + std::to_string(port.port) + "/traffic_class";
  if (!host.exists(file)) {
    port.global_traffic_class.set_missing(file + " not present (inbox mlx5 driver has no global traffic class)",
                                          ReasonKind::not_applicable);
    return;
  }
  Result<std::string> t = host.read_text(file);
  if (!t) return set_failed(port.global_traffic_class, t.error());
  // The capture parser reads the content (a bare `cat`): "Global tclass=N", per-destination rules.
  Result<parse::Parsed<parse::SysfsTrafficClass>> r =
      text::trim(*t).empty() ? Result<parse::Parsed<parse::SysfsTrafficClass>>(parse::Parsed<parse::SysfsTrafficClass>{})
                             : parse::parse_sysfs_traffic_class(*t);
  if (!r) {
    port.global_traffic_class.set_missing(file + ": " + r.error().message + ": " + *t, ReasonKind::unreadable);
    return;
  }
  if (!r->value.traffic_class) {
    port.global_traffic_class.set_missing("no global traffic class is set (" + file + " shows no \"Global tclass=\")",
                                          ReasonKind::not_applicable);
    port.global_traffic_class.source = ev(file, *t);
    return;
  }
  set_value(port.global_traffic_class, static_cast<int>(*r->value.traffic_class),
            ev(file, "Global tclass=" + std::to_string(*r->value.traffic_class)));
}

/// /etc/nccl.conf: what NCCL applies on this host to every job that does not set the variable
/// itself. A job's environment is not the collector's to read: it stays a capture input.
void read_app_settings(const HostView& host, Snapshot& s) {
  const std::string file = "/etc/nccl.conf";
  if (!host.exists(file)) {
    s.app_settings.set_missing("no /etc/nccl.conf on the host, and a job's environment is not read live: give the "
                               "job's `env | grep -E '^(NCCL|UCX)_'` or its script as a capture file app_env.txt",
                               ReasonKind::not_captured, "app_env");
    return;
  }
  Result<std::string> t = host.read_text(file);
  if (!t) return set_failed(s.app_settings, t.error());
  AppSettings a;
  if (Result<parse::Parsed<parse::AppEnv>> r = parse::parse_nccl_conf(*t))
    for (const parse::AppAssignment& x : r->value.assignments)
      if (x.effective)  // a name with a space or `export ` is another variable to NCCL
        a.settings.push_back({x.name, x.value, "/etc/nccl.conf", false, true, Evidence{file, x.line, x.name + "=" + x.value}, false});
  s.app_settings.value = std::move(a);
  s.app_settings.source = Evidence{file, 0, ""};
}

RdmaDevice read_rdma(const HostView& host, const std::string& name, const Snapshot& s,
                     bool counters) {
  std::string base = "/sys/class/infiniband/" + name;
  RdmaDevice d;
  d.name = name;
  d.bdf = bdf_of(host, base + "/device");
  auto attr = [&](const char* a) -> std::optional<std::string> {
    Result<std::string> t = host.read_text(base + "/" + a);
    if (!t || t->empty()) return std::nullopt;
    return *t;
  };
  d.fw_ver = attr("fw_ver");
  d.board_id = attr("board_id");
  d.node_guid = attr("node_guid");
  d.sys_image_guid = attr("sys_image_guid");
  if (std::optional<std::string> hca = attr("hca_type"); hca && hca->starts_with("MT"))
    if (std::optional<std::uint64_t> part = text::parse_uint(hca->substr(2)); part && *part < 65536)
      d.vendor_part_id = static_cast<std::uint32_t>(*part);
  if (std::optional<std::string> nt = attr("node_type"); nt && text::contains(*nt, "CA"))
    d.transport = "InfiniBand";
  d.source = ev(base + "/fw_ver", d.fw_ver.value_or("(fw_ver not readable)"));

  Result<std::vector<std::string>> ports = host.list_dir(base + "/ports");
  if (!ports) return d;
  for (const std::string& pn : *ports) {
    std::optional<std::int64_t> num = text::parse_int(pn);
    if (!num || *num < 1 || *num > 255) continue;
    RdmaPort p;
    p.port = static_cast<int>(*num);
    std::string pbase = base + "/ports/" + pn;
    if (Result<std::string> st = host.read_text(pbase + "/state"))
      set_value(p.state, build::port_state_sysfs(*st), ev(pbase + "/state", *st));
    else
      set_failed(p.state, st.error());
    if (Result<std::string> ps = host.read_text(pbase + "/phys_state")) p.phys_state = after_colon(*ps);
    if (Result<std::string> ll = host.read_text(pbase + "/link_layer")) p.link_layer = link_layer_from_string(*ll);
    read_gids(host, pbase, p);
    // The port's netdev: the ndev of its first GID, else a netdev on the same PCI function.
    if (p.gids.has_value())
      for (const Gid& g : *p.gids)
        if (g.netdev) {
          p.netdev = g.netdev;
          break;
        }
    if (!p.netdev && d.bdf)
      for (const NetDev& n : s.netdevs)
        if (n.bdf == d.bdf) {
          p.netdev = n.name;
          break;
        }
    // sysfs has no active_mtu; for RoCE the kernel derives it from the netdev MTU.
    if (p.link_layer == LinkLayer::ethernet && p.netdev)
      if (const NetDev* n = s.find_netdev(*p.netdev); n && n->mtu_bytes.has_value()) {
        int a = iboe_active_mtu_bytes(*n->mtu_bytes);
        if (a > 0) {
          p.active_mtu_bytes = a;
          p.mtu_source = ev(n->mtu_bytes.source.file,
                            "mtu " + std::to_string(*n->mtu_bytes) + " -> RoCE active_mtu " +
                                std::to_string(a) +
                                " (kernel iboe_get_mtu; capped by the port max_mtu, which sysfs "
                                "does not show)");
        }
      }
    if (counters)
      read_counters(host, pbase, p);
    else
      p.counters.set_missing("not read in this snapshot (rocekit exporter reads counters per scrape)",
                             ReasonKind::not_requested);
    read_cm_mode(host, name, p);
    read_cm_tos(host, name, p);
    read_traffic_class(host, name, p);
    d.ports.push_back(std::move(p));
  }
  std::sort(d.ports.begin(), d.ports.end(), [](const RdmaPort& a, const RdmaPort& b) { return a.port < b.port; });
  return d;
}

// ------------------------------------------------------------------ PCI --------------------

void read_nv_config(const CollectRequest& req, CommandRunner& runner, PciFunction& p) {
  if (!req.nv_config) {
    p.nv_config.set_missing("not requested: `rocekit collect --nv-config` runs `mstconfig -d " + p.bdf +
                                " -e q` (needs root and mstflint or MFT)",
                            ReasonKind::not_requested);
    return;
  }
  Result<std::string> out = runner.run({"mstconfig", "-d", p.bdf, "-e", "q"});
  std::string cmd = "mstconfig -d " + p.bdf + " -e q";
  if (!out && out.error().kind == ErrorKind::not_found) {
    out = runner.run({"mlxconfig", "-d", p.bdf, "-e", "q"});
    cmd = "mlxconfig -d " + p.bdf + " -e q";
  }
  if (!out) {
    p.nv_config.reason = out.error().describe();
    return;
  }
  auto q = parse::parse_mlxconfig_query(*out);
  if (!q) {
    p.nv_config.reason = cmd + ": " + q.error().message;
    return;
  }
  NvConfig cfg = build::nv_config(q->value, 0);
  std::size_t first = cfg.params.empty() ? 0 : cfg.params.front().line;
  set_value(p.nv_config, cfg, Evidence{cmd, first, ""});
  for (const parse::Warning& w : q->warnings) p.nv_config.notes.push_back(cmd + ":" + std::to_string(w.line) + ": " + w.message);
}

// ------------------------------------------------------------------ devlink ----------------

/// The text after "kernel answers:" / "devlink answers:" in a failed command's error (the
/// runner's message carries its first stderr line).
std::optional<std::string> devlink_answer_in(const Error& e) {
  for (std::string_view p : {std::string_view("kernel answers:"), std::string_view("devlink answers:")})
    if (std::size_t at = e.message.find(p); at != std::string::npos)
      if (std::optional<std::string_view> a = parse::devlink_answer(std::string_view(e.message).substr(at)))
        return std::string(*a);
  return std::nullopt;
}

/// iproute2's `devlink port show` (each netdev's devlink port) and `devlink dev eswitch show
/// pci/<BDF>` for every NVIDIA PF (its eswitch mode), through the runner (--devlink). The same
/// parsers and merges as a capture's devlink_port.txt and devlink_dev_eswitch@<BDF>.txt.
void read_devlink(CommandRunner& runner, Snapshot& s) {
  const std::string ports_cmd = "devlink port show";
  if (Result<std::string> out = runner.run({"devlink", "port", "show"}); !out) {
    s.notes.push_back(ports_cmd + " not read: " + out.error().describe());
  } else if (auto v = parse::parse_devlink_port(*out); !v) {
    s.notes.push_back(ports_cmd + ": " + v.error().message);
  } else {
    std::vector<std::string_view> lines = text::lines(*out);
    for (const parse::DevlinkPort& p : v->value.ports) {
      // Only the netdevs this collection read (not the virtual ones it leaves out).
      if (!p.netdev || !s.find_netdev(*p.netdev)) continue;
      std::string line = p.line && p.line <= lines.size() ? std::string(text::trim(lines[p.line - 1])) : "";
      build::devlink_port(s, p, Evidence{ports_cmd, p.line, line});
    }
  }
  for (PciFunction& f : s.pci_functions) {
    if (f.vendor_id != 0x15b3 || f.is_vf.value_or(false) || f.flash_recovery) continue;
    const std::string handle = "pci/" + f.bdf;
    const std::string cmd = "devlink dev eswitch show " + handle;
    Result<std::string> out = runner.run({"devlink", "dev", "eswitch", "show", handle});
    if (!out) {
      // The host PF of a BlueField in DPU mode: "kernel answers: Operation not supported". Not
      // permitted (EPERM without CAP_NET_ADMIN) says nothing about the function: a note.
      std::optional<std::string> a = devlink_answer_in(out.error());
      if (a && *a != "Operation not permitted")
        build::devlink_eswitch_error(s, f.bdf, *a, Evidence{cmd, 0, "kernel answers: " + *a});
      else
        s.notes.push_back(cmd + " not read: " + out.error().describe() + (a ? " (needs root)" : ""));
      continue;
    }
    auto v = parse::parse_devlink_dev_eswitch(*out);
    if (!v) {
      s.notes.push_back(cmd + ": " + v.error().message);
      continue;
    }
    std::vector<std::string_view> lines = text::lines(*out);
    for (const parse::DevlinkEswitch& d : v->value.devices) {
      if (d.bus != "pci" || normalize_bdf(d.device) != f.bdf) continue;  // only the device asked for
      std::string line = d.line && d.line <= lines.size() ? std::string(text::trim(lines[d.line - 1])) : "";
      build::devlink_eswitch(s, d, Evidence{cmd, d.line, line});
    }
    if (v->value.kernel_error)
      build::devlink_eswitch_error(s, f.bdf, *v->value.kernel_error,
                                   Evidence{cmd, 0, "kernel answers: " + *v->value.kernel_error});
  }
}

/// `needs_root`: host paths that could not be read without root and have no reason field of
/// their own (the VPD), for the host-wide note.
PciFunction read_pci(const CollectRequest& req, const HostView& host, CommandRunner& runner,
                     const std::string& bdf, std::vector<std::string>& needs_root) {
  std::string base = "/sys/bus/pci/devices/" + bdf;
  PciFunction p;
  p.bdf = bdf;
  p.vendor_id = read_hex16(host, base + "/vendor");
  p.device_id = read_hex16(host, base + "/device");
  p.numa_node = read_numa(host, base + "/numa_node");
  p.is_vf = host.exists(base + "/physfn");
  if (Result<std::string> drv = host.read_link(base + "/driver")) p.driver = basename(*drv);
  p.source = ev(base, "");
  if (p.vendor_id == 0x15b3 && p.device_id) {
    const catalog::Catalog& cat = catalog::Catalog::builtin();
    p.flash_recovery = cat.is_flash_recovery_id(*p.device_id);
    if (std::optional<catalog::DeviceMatch> m = cat.find_by_pci_device_id(*p.device_id))
      if (const catalog::NicModel* model = m->unique()) p.device_name = model->name;
  }
  char ids[32];
  std::snprintf(ids, sizeof ids, "%04x:%04x", p.vendor_id.value_or(0), p.device_id.value_or(0));
  p.source.text = std::string("vendor:device ") + ids + (p.driver ? " driver " + *p.driver : "");

  std::string cfg_path = base + "/config";
  Result<std::vector<std::uint8_t>> cfg = host.read_bytes(cfg_path, 4096);
  if (!cfg) {
    set_failed(p.link, cfg.error());
    p.max_read_request_bytes.reason = p.link.reason;
    p.relaxed_ordering.reason = p.link.reason;
  } else if (Result<PcieConfigFacts> f = parse_pcie_config(*cfg); !f) {
    std::string r = cfg_path + ": " + f.error().message;
    p.link.reason = r;
    p.max_read_request_bytes.reason = r;
    p.relaxed_ordering.reason = r;
  } else {
    std::string t = link_text(f->link) + ", MaxReadReq " + std::to_string(f->max_read_request_bytes);
    set_value(p.link, f->link, ev(cfg_path, t));
    build::max_read_request(p, f->max_read_request_bytes, ev(cfg_path, t));
    set_value(p.relaxed_ordering, f->relaxed_ordering,
              ev(cfg_path, std::string("DevCtl RlxdOrd") + (f->relaxed_ordering ? "+" : "-")));
  }
  p.ats_enabled = ats_of(cfg_path, cfg);
  p.iommu_group = read_iommu_group(host, base);
  // VPD (product name, part number, serial number) of an NVIDIA/Mellanox PF: the first 1 KiB
  // holds the ID string and VPD-R. Root-only (0600) on real sysfs; when unreadable the fields
  // stay empty and pcie.bandwidth-feeds-ports says the card's port count is not known. The
  // serial number tells one physical NIC seen through several PFs or hosts (Multi-Host;
  // `rocekit fleet`).
  if (p.vendor_id == 0x15b3 && !p.is_vf.value_or(false) && !p.flash_recovery) {
    if (Result<std::vector<std::uint8_t>> raw = host.read_bytes(base + "/vpd", 1024)) {
      if (Result<PciVpd> vpd = parse_pci_vpd(*raw)) {
        p.vpd_product_name = vpd->product_name;
        if (auto pn = vpd->read_only.find("PN"); pn != vpd->read_only.end() && !pn->second.empty())
          p.vpd_part_number = pn->second;
        if (auto sn = vpd->read_only.find("SN"); sn != vpd->read_only.end() && !sn->second.empty())
          p.board_serial_number = sn->second;
      }
    } else if (raw.error().kind == ErrorKind::permission_denied) {
      needs_root.push_back(base + "/vpd");
    }
  }
  p.firmware.reason = "flint/devlink firmware query not collected; the running version is "
                      "rdma_devices[].fw_ver (/sys/class/infiniband/<dev>/fw_ver)";
  if (p.vendor_id == 0x15b3 && !p.is_vf.value_or(false) && !p.flash_recovery)
    read_nv_config(req, runner, p);
  else
    p.nv_config.set_missing(p.vendor_id == 0x15b3 ? "not queried for a VF or a flash-recovery function"
                                                  : "not an NVIDIA/Mellanox function",
                            ReasonKind::not_applicable);
  return p;
}

// ------------------------------------------------------------------ host -------------------

/// NVIDIA GPUs (index = PCI bus order, as nvidia-smi's default) with their relation to every
/// RDMA device, computed from the sysfs device paths (no hwloc, no nvidia-smi).
void read_gpus(const HostView& host, Snapshot& s, std::vector<std::string> gpu_bdfs) {
  std::sort(gpu_bdfs.begin(), gpu_bdfs.end());
  std::vector<Gpu> gpus;
  // Each RDMA device's resolved PCI path, once (not once per GPU).
  std::map<std::string, std::optional<std::string>> nic_paths;
  if (!gpu_bdfs.empty())
    for (const RdmaDevice& d : s.rdma_devices)
      if (d.bdf && !nic_paths.count(*d.bdf)) {
        Result<std::string> r = host.resolve_device_link("/sys/bus/pci/devices/" + *d.bdf);
        nic_paths[*d.bdf] = r ? std::optional<std::string>(*r) : std::nullopt;
      }
  for (const std::string& b : gpu_bdfs) {
    std::string base = "/sys/bus/pci/devices/" + b;
    Result<std::string> path = host.resolve_device_link(base);
    if (!path) continue;
    Gpu g;
    g.index = static_cast<int>(gpus.size());
    g.bdf = normalize_bdf(b);
    g.numa_node = read_numa(host, base + "/numa_node");
    if (g.numa_node)
      if (Result<std::string> cl = host.read_text("/sys/devices/system/node/node" +
                                                  std::to_string(*g.numa_node) + "/cpulist"))
        g.cpu_affinity = *cl;
    g.source = ev(base, "GPU " + b + " -> " + *path);
    g.ats_enabled = ats_of(base + "/config", host.read_bytes(base + "/config", 4096));
    g.iommu_group = read_iommu_group(host, base);
    for (const RdmaDevice& d : s.rdma_devices) {
      if (!d.bdf) continue;
      const std::optional<std::string>& npath = nic_paths[*d.bdf];
      if (!npath) continue;
      const PciFunction* pf = s.find_pci(*d.bdf);
      std::optional<int> nnuma = pf ? pf->numa_node : std::nullopt;
      std::string rel = pcie_relation(*path, g.numa_node, *npath, nnuma);
      g.nics.push_back(GpuNicLink{d.name, rel, ev(base, *path + " <-> " + *npath + ": " + rel)});
    }
    gpus.push_back(std::move(g));
  }
  if (gpus.empty()) {
    s.gpus.reason = "NVIDIA GPUs listed but their sysfs device paths are unreadable";
    return;
  }
  set_value(s.gpus, gpus, ev("/sys/bus/pci/devices", std::to_string(gpus.size()) + " NVIDIA GPU(s)"));
  s.gpus.notes.push_back("relations computed from sysfs PCI paths as nvidia-smi topo names them "
                         "(PIX/PXB/PHB/NODE/SYS); NVLink is not read");
}

void read_host(const HostView& host, Snapshot& s, const std::vector<std::string>& nvidia_gpus) {
  // NUMA node -> online CPU count.
  if (Result<std::vector<std::string>> nodes = host.list_dir("/sys/devices/system/node")) {
    std::map<int, int> m;
    std::string first;
    for (const std::string& n : *nodes) {
      if (!n.starts_with("node")) continue;
      std::optional<std::int64_t> id = text::parse_int(std::string_view(n).substr(4));
      if (!id) continue;
      std::string f = "/sys/devices/system/node/" + n + "/cpulist";
      Result<std::string> cl = host.read_text(f);
      if (!cl) continue;
      if (std::optional<int> c = cpulist_count(*cl)) {
        m[static_cast<int>(*id)] = *c;
        if (first.empty()) first = n + "/cpulist " + *cl;
      }
    }
    if (!m.empty())
      set_value(s.numa_cpu_count, m, ev("/sys/devices/system/node", first));
    else
      s.numa_cpu_count.reason = "/sys/devices/system/node has no readable node*/cpulist";
  } else {
    set_failed(s.numa_cpu_count, nodes.error());
  }
  // Loaded modules.
  if (Result<std::string> mods = host.read_text("/proc/modules")) {
    std::vector<std::string> names;
    for (std::string_view line : text::lines(*mods)) {
      std::vector<std::string_view> w = text::words(line);
      if (!w.empty()) names.emplace_back(w.front());
    }
    set_value(s.kernel_modules, names, ev("/proc/modules", std::to_string(names.size()) + " modules"));
  } else {
    set_failed(s.kernel_modules, mods.error());
  }
  // The IOMMU mode: the kernel command line's IOMMU parameters, and whether any IOMMU group
  // exists (none: no IOMMU driver runs). dmesg is not read live (root-only on most hosts); the
  // groups' types, read per device, are the more direct evidence.
  {
    build::IommuEvidence ie;
    if (Result<std::string> c = host.read_text("/proc/cmdline")) {
      std::string line(text::trim(*c));
      ie.cmdline = parse::iommu_from_cmdline(line);
      std::string shown;
      for (const std::string& w : ie.cmdline->parameters) shown += (shown.empty() ? "" : " ") + w;
      ie.cmdline_source = ev("/proc/cmdline", shown.empty() ? "no IOMMU parameter" : shown);
    }
    // The kernel creates the directory at boot when it has IOMMU support (drivers/iommu/iommu.c
    // iommu_init(): kset "iommu_groups"); absent or empty, no group exists.
    if (Result<std::vector<std::string>> groups = host.list_dir("/sys/kernel/iommu_groups")) {
      ie.group_count = groups->size();
      ie.groups_source = ev("/sys/kernel/iommu_groups", std::to_string(groups->size()) + " IOMMU group(s)");
    } else if (groups.error().kind == ErrorKind::not_found) {
      ie.group_count = 0;
      ie.groups_source = ev("/sys/kernel/iommu_groups", "not present");
    }
    if (ie.cmdline || ie.group_count) s.iommu = build::iommu_state(ie);
    else s.iommu.set_missing("neither /proc/cmdline nor /sys/kernel/iommu_groups is readable", ReasonKind::unreadable);
  }
  // Kernel release (what `uname -r` prints).
  if (Result<std::string> r = host.read_text("/proc/sys/kernel/osrelease")) {
    std::string rel(text::trim(*r));
    set_value(s.kernel_release, rel, ev("/proc/sys/kernel/osrelease", rel));
  } else {
    set_failed(s.kernel_release, r.error());
  }
  // The driver release: `ofed_info -s` is a script; collect runs no program (rocekit-capture does).
  s.driver_stack.set_missing("not read live: `ofed_info -s` is a program, and collect runs none (rocekit-capture "
                             "saves its output as ofed_info.txt)",
                             ReasonKind::not_captured, "ofed_info");
  // GPUDirect RDMA evidence; without an NVIDIA GPU the question does not arise, and "peermem
  // not loaded" must not read as a failure.
  if (nvidia_gpus.empty()) {
    s.nvidia_driver.set_missing("no NVIDIA GPU on the PCI bus", ReasonKind::not_applicable);
    s.gpudirect.reason = "no NVIDIA GPU on the PCI bus (no 10de display/3D controller in "
                         "/sys/bus/pci/devices): GPUDirect RDMA does not apply";
    s.gpus.reason = s.gpudirect.reason;
    return;
  }
  read_gpus(host, s, nvidia_gpus);
  // The NVIDIA kernel driver: open or proprietary module (kernel-open/nvidia/nv-procfs.c).
  if (Result<std::string> v = host.read_text("/proc/driver/nvidia/version")) {
    if (Result<parse::Parsed<parse::NvidiaVersion>> p = parse::parse_nvidia_version(*v)) {
      NvidiaDriver d{p->value.version, p->value.open_module};
      set_value(s.nvidia_driver, d, ev("/proc/driver/nvidia/version", "NVRM version: " + p->value.banner));
    } else {
      s.nvidia_driver.set_missing("/proc/driver/nvidia/version: " + p.error().message, ReasonKind::unreadable);
    }
  } else {
    set_failed(s.nvidia_driver, v.error());
  }
  GpuDirectState g;
  Evidence gsrc;
  for (const char* mod : {"nvidia_peermem", "nv_peer_mem"}) {
    std::string path = std::string("/sys/module/") + mod;
    if (host.exists(path)) {
      g.peermem_loaded = true;
      gsrc = ev(path, std::string(mod) + " loaded");
      break;
    }
  }
  if (!g.peermem_loaded) {
    g.peermem_loaded = false;
    gsrc = ev("/sys/module", "neither nvidia_peermem nor nv_peer_mem in /sys/module");
  }
  if (Result<std::vector<std::string>> peers = host.list_dir("/sys/kernel/mm/memory_peers")) {
    g.peer_memory_registered = !peers->empty();
    if (!peers->empty() && !*g.peermem_loaded)
      gsrc = ev("/sys/kernel/mm/memory_peers/" + peers->front(), "registered");
  } else if (peers.error().kind == ErrorKind::not_found) {
    g.peer_memory_registered = false;  // the MLNX_OFED peer-memory API is absent or nothing registered
  }
  g.source = gsrc;
  set_value(s.gpudirect, g, gsrc);
}

/// One host-wide note listing what could not be read without root, so an unprivileged run says
/// what it could not see.
void note_unreadable(Snapshot& s, const std::vector<std::string>& more) {
  std::set<std::string> paths(more.begin(), more.end());
  // The path is the end of why()'s "needs root: cannot read <path>".
  const std::string k = "needs root: cannot read ";
  auto add = [&](const std::string& reason) {
    if (reason.starts_with(k)) paths.insert(reason.substr(k.size()));
  };
  auto check = [&](const auto& c) {
    if (c.reason_kind == ReasonKind::needs_root) add(c.reason);
  };
  for (const NetDev& n : s.netdevs) {
    check(n.mtu_bytes);
    check(n.operstate);
    check(n.ecn);
  }
  for (const RdmaDevice& d : s.rdma_devices)
    for (const RdmaPort& p : d.ports) {
      check(p.state);
      check(p.gids);
      check(p.counters);
      for (const std::string& n : p.counters.notes) add(n);
      check(p.default_roce_mode);
    }
  for (const PciFunction& p : s.pci_functions) check(p.link);
  check(s.kernel_modules);
  check(s.numa_cpu_count);
  std::size_t pci_short = 0;
  for (const PciFunction& p : s.pci_functions)
    if (p.link.reason.find(": needs root: only ") != std::string::npos) ++pci_short;
  if (paths.empty() && pci_short == 0) return;
  std::string list;
  std::size_t shown = 0;
  for (const std::string& p : paths) {
    if (shown++ == 6) {
      list += ", ...";
      break;
    }
    list += (list.empty() ? "" : ", ") + p;
  }
  std::string msg = "not readable without root (run as root to see them): ";
  if (!paths.empty()) msg += std::to_string(paths.size()) + " sysfs/procfs paths (" + list + ")";
  if (pci_short)
    msg += std::string(paths.empty() ? "" : "; ") + "PCI config space beyond 64 bytes for " +
           std::to_string(pci_short) + " function(s) (PCIe link, MaxPayload, MaxReadReq)";
  s.notes.push_back(msg);
}

}  // namespace

std::string pcie_relation(const std::string& path_a, std::optional<int> numa_a,
                          const std::string& path_b, std::optional<int> numa_b) {
  auto chain = [](const std::string& p) {
    std::vector<std::string> out;
    for (std::string_view c : text::split(p, '/'))
      if (c.starts_with("pci") || is_full_bdf(c)) out.emplace_back(c);
    return out;
  };
  return build::pcie_relation(chain(path_a), numa_a, chain(path_b), numa_b);
}

int iboe_active_mtu_bytes(int netdev_mtu_bytes) {
  // IB_GRH_BYTES 40 + IB_UDP_BYTES 8 + IB_BTH_BYTES 12 + IB_EXT_XRC_BYTES 4 +
  // IB_EXT_ATOMICETH_BYTES 28 + IB_ICRC_BYTES 4 = 96 (include/rdma/ib_addr.h).
  int payload = netdev_mtu_bytes - 96;
  for (int m = 4096; m >= 256; m /= 2)
    if (payload >= m) return m;
  return 0;
}

std::optional<int> cpulist_count(std::string_view cpulist) { return parse::cpulist_count(cpulist); }

Snapshot collect_snapshot(const CollectRequest& req, const HostView& host, CommandRunner& runner) {
  Snapshot s;
  s.tool_version = req.tool_version;
  s.collected_at = req.collected_at;
  s.source = SnapshotSource{SourceKind::live, host.root().string()};
  if (Result<std::string> h = host.read_text("/proc/sys/kernel/hostname")) s.hostname = *h;

  // Netdevs not under /sys/devices/virtual (PCI, virtio, ...); virtual ones (lo, bridges, ifb,
  // veth) are only named in a note.
  std::vector<std::string> virtual_ifs;
  if (Result<std::vector<std::string>> ifs = host.list_dir("/sys/class/net")) {
    for (const std::string& name : *ifs) {
      Result<std::string> real = host.read_link("/sys/class/net/" + name);
      if (real && text::contains(*real, "/devices/virtual/") &&
          std::find(req.virtual_netdevs.begin(), req.virtual_netdevs.end(), name) == req.virtual_netdevs.end()) {
        virtual_ifs.push_back(name);
        continue;
      }
      NetDev& n = s.netdev(name);
      read_netdev(host, n);
      if (req.kernel_ioctls) {
        read_ethtool(name, n, req.ethtool_netlink);
        if (req.counters) read_ethtool_stats(name, n);
      }
      read_qos(host, req.kernel_ioctls, n);
    }
  } else {
    s.notes.push_back("netdevs not collected: " + why(ifs.error()));
  }
  for (const std::string& v : req.virtual_netdevs)
    if (!s.find_netdev(v)) s.notes.push_back("netdev " + v + " asked for (--netdev) but not in /sys/class/net");
  if (!virtual_ifs.empty()) {
    std::string list;
    for (const std::string& v : virtual_ifs) list += (list.empty() ? "" : ", ") + v;
    s.notes.push_back("virtual netdevs not audited: " + list);
  }

  // RDMA devices.
  Result<std::vector<std::string>> ibs = host.list_dir("/sys/class/infiniband");
  if (!ibs || ibs->empty()) {
    s.notes.push_back(!ibs && ibs.error().kind != ErrorKind::not_found
                          ? "no RDMA devices found: " + why(ibs.error())
                          : "no RDMA devices found (/sys/class/infiniband is absent or empty: no "
                            "RDMA driver loaded or no RDMA-capable NIC)");
  } else {
    for (const std::string& name : *ibs) {
      if (req.rdma_device_filter && !req.rdma_device_filter(name)) continue;
      RdmaDevice d = read_rdma(host, name, s, req.counters);
      std::vector<std::pair<int, std::string>> pairs;
      for (const RdmaPort& p : d.ports)
        if (p.netdev && s.find_netdev(*p.netdev)) pairs.emplace_back(p.port, *p.netdev);
      s.rdma_devices.push_back(std::move(d));
      for (const auto& [port, netdev] : pairs) build::pair_netdev(s, name, port, netdev);
    }
  }

  // PCI functions: those behind a netdev or RDMA device, and every NVIDIA/Mellanox function
  // (a card in flash recovery has no driver and so no netdev).
  std::set<std::string> bdfs;
  std::vector<std::string> nvidia_gpus;
  for (const NetDev& n : s.netdevs)
    if (n.bdf) bdfs.insert(*n.bdf);
  for (const RdmaDevice& d : s.rdma_devices)
    if (d.bdf) bdfs.insert(*d.bdf);
  if (Result<std::vector<std::string>> all = host.list_dir("/sys/bus/pci/devices")) {
    for (const std::string& b : *all) {
      Result<std::string> v = host.read_text("/sys/bus/pci/devices/" + b + "/vendor");
      if (v && *v == "0x15b3")
        if (std::optional<std::string> nb = normalize_bdf(b)) bdfs.insert(*nb);
      // NVIDIA display (0x0300) or 3D (0x0302) controller: a GPU.
      if (v && *v == "0x10de")
        if (Result<std::string> cls = host.read_text("/sys/bus/pci/devices/" + b + "/class");
            cls && (cls->starts_with("0x0300") || cls->starts_with("0x0302")))
          nvidia_gpus.push_back(b);
    }
  } else {
    s.notes.push_back("PCI functions not listed: " + why(all.error()));
  }
  std::vector<std::string> needs_root;
  for (const std::string& b : bdfs) s.pci_functions.push_back(read_pci(req, host, runner, b, needs_root));
  if (req.devlink) read_devlink(runner, s);
  build::finish_links(s);
  fill_bluefield_modes(s);

  read_host(host, s, nvidia_gpus);
  read_pci_tree(host, s, needs_root);
  s.persistence = read_persistence(host);
  read_resources(host, s);
  read_app_settings(host, s);
  s.nccl_run.set_missing("not read live: NCCL reports what it used in a job's NCCL_DEBUG=INFO log (give it as a "
                         "capture file nccl_log.txt)", ReasonKind::not_applicable, "nccl_log");
  note_unreadable(s, needs_root);
  return s;
}

}  // namespace rk::collect

#include <algorithm>
// Counter deltas: wrap, reset, disappeared/appeared counters, and pairing netdevs with RDMA ports.
#include <cctype>
#include <ctime>
#include <set>

#include "rocekit/diagnose/diagnose.hpp"

namespace rk::diagnose {

namespace {
constexpr std::uint64_t k_2_32 = std::uint64_t{1} << 32;
constexpr std::uint64_t k_2_31 = std::uint64_t{1} << 31;
}  // namespace

std::string_view to_string(DeltaStatus s) {
  switch (s) {
    case DeltaStatus::ok: return "ok";
    case DeltaStatus::wrapped: return "wrapped";
    case DeltaStatus::reset: return "reset";
    case DeltaStatus::disappeared: return "disappeared";
    case DeltaStatus::appeared: return "appeared";
  }
  return "ok";
}

std::string_view to_string(Confidence c) {
  switch (c) {
    case Confidence::low: return "low";
    case Confidence::medium: return "medium";
    case Confidence::high: return "high";
  }
  return "low";
}

const CounterDelta* CounterTable::find(std::string_view name) const {
  auto it = counters.find(std::string(name));
  return it == counters.end() ? nullptr : &it->second;
}

std::optional<std::uint64_t> CounterTable::delta(std::string_view name) const {
  const CounterDelta* d = find(name);
  if (!d || d->status == DeltaStatus::disappeared || d->status == DeltaStatus::appeared)
    return std::nullopt;
  return d->delta;
}

bool CounterTable::has(std::string_view name) const {
  const CounterDelta* d = find(name);
  return d && d->after.has_value();
}

std::vector<PriorityTraffic> priority_traffic(const CounterTable& eth) {
  std::vector<PriorityTraffic> out;
  if (!eth.available) return out;
  auto get = [&](const std::string& name) {
    PriorityCounter c;
    if (std::optional<std::uint64_t> d = eth.delta(name)) {
      c.delta = *d;
      c.rate_per_s = eth.find(name)->rate_per_s;
    }
    return c;
  };
  for (int p = 0; p < 8; ++p) {
    std::string n = "_prio" + std::to_string(p);
    PriorityTraffic t;
    t.priority = p;
    t.rx_bytes = get("rx" + n + "_bytes");
    t.rx_packets = get("rx" + n + "_packets");
    t.tx_bytes = get("tx" + n + "_bytes");
    t.tx_packets = get("tx" + n + "_packets");
    if (t.rx_bytes.delta > 0 || t.rx_packets.delta > 0 || t.tx_bytes.delta > 0 ||
        t.tx_packets.delta > 0)
      out.push_back(t);
  }
  return out;
}

std::string LinkDeltas::subject() const {
  if (netdev.empty()) return rdma_port;
  if (rdma_port.empty()) return netdev;
  return netdev + " (" + rdma_port + ")";
}

std::optional<std::int64_t> parse_utc_timestamp(std::string_view iso) {
  // YYYY-MM-DDTHH:MM:SS[Z|+00:00]
  if (iso.size() < 19 || iso[4] != '-' || iso[7] != '-' || (iso[10] != 'T' && iso[10] != ' ') ||
      iso[13] != ':' || iso[16] != ':')
    return std::nullopt;
  auto num = [&](std::size_t pos, std::size_t len) -> std::optional<int> {
    int v = 0;
    for (std::size_t i = pos; i < pos + len; ++i) {
      if (iso[i] < '0' || iso[i] > '9') return std::nullopt;
      v = v * 10 + (iso[i] - '0');
    }
    return v;
  };
  auto y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2),
       s = num(17, 2);
  if (!y || !mo || !d || !h || !mi || !s || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 ||
      *mi > 59 || *s > 60)
    return std::nullopt;
  std::string_view rest = iso.substr(19);
  if (!rest.empty() && rest != "Z" && rest != "+00:00") return std::nullopt;
  std::tm tm{};
  tm.tm_year = *y - 1900;
  tm.tm_mon = *mo - 1;
  tm.tm_mday = *d;
  tm.tm_hour = *h;
  tm.tm_min = *mi;
  tm.tm_sec = *s;
  return static_cast<std::int64_t>(::timegm(&tm));
}

bool is_32bit_counter(std::string_view name) {
  // mlx5 Q counters (drivers/infiniband/hw/mlx5/counters.c reads them with be32_to_cpu); the
  // congestion (np_/rp_) and ext PPCNT (rx_icrc_encapsulated) counters are 64-bit.
  static const std::set<std::string, std::less<>> k_q{
      "rx_write_requests", "rx_read_requests", "rx_atomic_requests", "rx_dct_connect",
      "out_of_buffer", "out_of_sequence", "duplicate_request", "rnr_nak_retry_err",
      "packet_seq_err", "implied_nak_seq_err", "local_ack_timeout_err",
      "resp_local_length_error", "resp_cqe_error", "req_cqe_error", "req_remote_invalid_request",
      "req_remote_access_errors", "resp_remote_access_errors", "resp_cqe_flush_error",
      "req_cqe_flush_error", "req_transport_retries_exceeded", "req_rnr_retries_exceeded",
      "roce_adp_retrans", "roce_adp_retrans_to", "roce_slow_restart", "roce_slow_restart_cnps",
      "roce_slow_restart_trans"};
  return k_q.count(name) > 0;
}

CounterDelta compare_counter(std::string name, std::optional<std::uint64_t> before,
                             std::optional<std::uint64_t> after, bool is_32bit) {
  CounterDelta d;
  d.name = std::move(name);
  d.before = before;
  d.after = after;
  if (before && !after) {
    d.status = DeltaStatus::disappeared;
  } else if (!before && after) {
    d.status = DeltaStatus::appeared;
  } else if (before && after) {
    if (*after >= *before) {
      d.delta = *after - *before;
    } else if (is_32bit && *before < k_2_32 && *after < k_2_32 &&
               *after + k_2_32 - *before < k_2_31) {
      d.status = DeltaStatus::wrapped;
      d.delta = *after + k_2_32 - *before;
    } else {
      d.status = DeltaStatus::reset;
      d.delta = *after;  // counted since the reset: a lower bound of the window's events
    }
  }
  return d;
}

CounterTable compare_tables(const std::vector<const std::map<std::string, std::uint64_t>*>& samples,
                            double interval_s, bool rdma) {
  CounterTable t;
  if (samples.size() < 2 || !samples.front() || !samples.back()) return t;
  t.available = true;
  std::set<std::string> names;
  for (const auto* s : samples)
    if (s)
      for (const auto& [k, v] : *s) names.insert(k);
  for (const std::string& name : names) {
    bool wide = rdma && is_32bit_counter(name);
    auto value_in = [&](std::size_t i) -> std::optional<std::uint64_t> {
      if (!samples[i]) return std::nullopt;
      auto it = samples[i]->find(name);
      if (it == samples[i]->end()) return std::nullopt;
      return it->second;
    };
    CounterDelta total = compare_counter(name, value_in(0), value_in(samples.size() - 1), wide);
    if (total.status != DeltaStatus::disappeared && total.status != DeltaStatus::appeared) {
      // Pair by pair: a wrap or reset in the middle is found where it happened.
      total.delta = 0;
      total.status = DeltaStatus::ok;
      for (std::size_t i = 1; i < samples.size(); ++i) {
        CounterDelta step = compare_counter(name, value_in(i - 1), value_in(i), wide);
        if (step.status == DeltaStatus::disappeared || step.status == DeltaStatus::appeared)
          continue;  // gap in the middle: the outer compare still has both ends
        total.delta += step.delta;
        if (step.status == DeltaStatus::reset ||
            (step.status == DeltaStatus::wrapped && total.status == DeltaStatus::ok))
          total.status = step.status;
      }
    }
    if (interval_s > 0) total.rate_per_s = static_cast<double>(total.delta) / interval_s;
    t.counters.emplace(name, std::move(total));
  }
  return t;
}

namespace {

std::string port_key(const std::string& dev, int port) {
  return dev + "/" + std::to_string(port);
}

const std::map<std::string, std::uint64_t>* eth_stats(const Snapshot& s, const std::string& nd) {
  const NetDev* n = s.find_netdev(nd);
  return n && n->stats.has_value() ? &*n->stats.value : nullptr;
}

const RdmaPort* find_port(const Snapshot& s, const std::string& dev, int port) {
  for (const RdmaDevice& d : s.rdma_devices)
    if (d.name == dev)
      for (const RdmaPort& p : d.ports)
        if (p.port == port) return &p;
  return nullptr;
}

const std::map<std::string, std::uint64_t>* rdma_counters(const Snapshot& s,
                                                         const std::string& dev, int port) {
  const RdmaPort* p = find_port(s, dev, port);
  return p && p->counters.has_value() ? &*p->counters.value : nullptr;
}

/// GUID text compared without case and separators ("0200:0003:..." == "02000003...").
std::string guid_key(const std::string& g) {
  std::string k;
  for (char c : g)
    if (c != ':' && c != '.') k += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return k;
}

std::string hex4(std::uint16_t v) {
  static const char* k_hex = "0123456789abcdef";
  std::string out(4, '0');
  for (int i = 3; i >= 0; --i, v = static_cast<std::uint16_t>(v >> 4))
    out[static_cast<std::size_t>(i)] = k_hex[v & 0xf];
  return out;
}

/// Identities that do not change between samples of one host: an RDMA device's node_guid and
/// sys_image_guid, a PCI function's vendor:device. The first difference, or nullopt.
std::optional<std::string> different_hardware(const Snapshot& a, const Snapshot& b) {
  for (const RdmaDevice& da : a.rdma_devices)
    for (const RdmaDevice& db : b.rdma_devices) {
      if (da.name != db.name) continue;
      if (da.node_guid && db.node_guid && guid_key(*da.node_guid) != guid_key(*db.node_guid))
        return "RDMA device " + da.name + " has node_guid " + *da.node_guid + " in one sample and " +
               *db.node_guid + " in the other";
      if (da.sys_image_guid && db.sys_image_guid &&
          guid_key(*da.sys_image_guid) != guid_key(*db.sys_image_guid))
        return "RDMA device " + da.name + " has sys_image_guid " + *da.sys_image_guid +
               " in one sample and " + *db.sys_image_guid + " in the other";
    }
  for (const PciFunction& pa : a.pci_functions) {
    const PciFunction* pb = b.find_pci(pa.bdf);
    if (!pb || !pa.vendor_id || !pa.device_id || !pb->vendor_id || !pb->device_id) continue;
    if (*pa.vendor_id != *pb->vendor_id || *pa.device_id != *pb->device_id)
      return "PCI function " + pa.bdf + " is " + hex4(*pa.vendor_id) + ":" + hex4(*pa.device_id) +
             " in one sample and " + hex4(*pb->vendor_id) + ":" + hex4(*pb->device_id) +
             " in the other";
  }
  return std::nullopt;
}

}  // namespace

bool has_counters(const Snapshot& s) {
  for (const NetDev& n : s.netdevs)
    if (n.stats.has_value()) return true;
  for (const RdmaDevice& d : s.rdma_devices)
    for (const RdmaPort& p : d.ports)
      if (p.counters.has_value()) return true;
  return false;
}

Result<Window> build_window(const std::vector<Snapshot>& samples, double interval_s,
                            const std::string& interval_source) {
  if (samples.size() < 2)
    return unexpected(ErrorKind::malformed_input, "diagnose needs two samples of the same host");
  // A sample without any counter would turn every delta into "missing": refuse it.
  for (std::size_t i = 0; i < samples.size(); ++i)
    if (!has_counters(samples[i]))
      return unexpected(ErrorKind::malformed_input,
                        "sample " + std::to_string(i + 1) + " of " + std::to_string(samples.size()) +
                            " has no counters at all (need ethtool -S, hw_counters, "
                            "show_counters or rdma statistic output)");
  const Snapshot& first = samples.front();
  const Snapshot& last = samples.back();
  for (const Snapshot& s : samples) {
    if (!first.hostname.empty() && !s.hostname.empty()) {
      if (first.hostname != s.hostname)
        return unexpected(ErrorKind::malformed_input,
                          "the samples come from different hosts (" + first.hostname + ", " +
                              s.hostname + ")");
    } else if (std::optional<std::string> why = different_hardware(first, s)) {
      return unexpected(ErrorKind::malformed_input,
                        "the samples come from different hosts: " + *why);
    }
  }
  // Samples of one host share at least one netdev or RDMA device name.
  auto names = [](const Snapshot& s) {
    std::set<std::string> n;
    for (const NetDev& d : s.netdevs) n.insert(d.name);
    for (const RdmaDevice& d : s.rdma_devices) n.insert(d.name);
    return n;
  };
  std::set<std::string> names_first = names(first);
  std::set<std::string> names_last = names(last);
  bool shared = std::any_of(names_first.begin(), names_first.end(),
                            [&](const std::string& x) { return names_last.count(x) > 0; });
  if (!names_first.empty() && !names_last.empty() && !shared)
    return unexpected(ErrorKind::malformed_input,
                      "the samples share no netdev or RDMA device: they are not the same host");
  Window w;
  w.samples = samples.size();
  if (first.hostname.empty() != last.hostname.empty() ||
      (first.hostname.empty() && last.hostname.empty()))
    w.notes.push_back("host identity not recorded in every sample: rocekit cannot verify the "
                      "samples come from the same host");
  if (interval_s > 0) {
    w.interval_s = interval_s;
    w.interval_source = interval_source;
  } else {
    auto t0 = parse_utc_timestamp(first.collected_at);
    auto t1 = parse_utc_timestamp(last.collected_at);
    if (!t0 || !t1)
      return unexpected(ErrorKind::malformed_input,
                        "the interval is unknown: the inputs carry no collected_at time; give "
                        "--interval DURATION (the time between them, e.g. 30s)");
    if (*t1 <= *t0)
      return unexpected(ErrorKind::malformed_input,
                        "collected_at of the second input (" + last.collected_at +
                            ") is not after the first (" + first.collected_at +
                            "): give them in time order, or --interval DURATION");
    w.interval_s = static_cast<double>(*t1 - *t0);
    w.interval_source = "collected_at";
  }

  // Links: every netdev with stats in any sample, paired with its RDMA port.
  std::vector<std::string> netdevs;
  std::vector<std::pair<std::string, int>> ports;
  std::set<std::string> seen_nd, seen_port;
  for (const Snapshot& s : samples) {
    for (const NetDev& n : s.netdevs)
      if (n.stats.has_value() && seen_nd.insert(n.name).second) netdevs.push_back(n.name);
    for (const RdmaDevice& d : s.rdma_devices)
      for (const RdmaPort& p : d.ports)
        if (p.counters.has_value() && seen_port.insert(port_key(d.name, p.port)).second)
          ports.emplace_back(d.name, p.port);
  }
  // Pairing, the way collect and check link them (collect.cpp: port netdev from the GID ndevs,
  // else the netdev on the RDMA device's PCI function): the port's own netdev field, the
  // netdev's rdma_device/rdma_port, the GID table's ndevs, then a PCI BDF shared by a
  // single-port RDMA device and the netdev.
  using PortRef = std::pair<std::string, int>;
  struct Paired {
    PortRef port;
    std::string netdev;
    std::string how;
  };
  auto pair_in = [](const Snapshot& s, const RdmaDevice& d, const RdmaPort& p) -> std::optional<Paired> {
    if (p.netdev && !p.netdev->empty())
      return Paired{{d.name, p.port}, *p.netdev, "paired by the snapshot's netdev/RDMA link"};
    for (const NetDev& n : s.netdevs)
      if (n.rdma_device && *n.rdma_device == d.name && n.rdma_port.value_or(1) == p.port)
        return Paired{{d.name, p.port}, n.name, "paired by the snapshot's netdev/RDMA link"};
    if (p.gids.has_value())
      for (const Gid& g : *p.gids.value)
        if (g.netdev && !g.netdev->empty())
          return Paired{{d.name, p.port}, *g.netdev, "paired by the port's GID ndevs (" + *g.netdev + ")"};
    if (d.bdf && d.ports.size() == 1)
      for (const NetDev& n : s.netdevs)
        if (n.bdf && *n.bdf == *d.bdf)
          return Paired{{d.name, p.port}, n.name, "paired by the shared PCI function " + *d.bdf};
    return std::nullopt;
  };
  auto pair_of = [&](const std::string& nd) -> std::optional<Paired> {
    for (const Snapshot& s : samples)
      if (const NetDev* n = s.find_netdev(nd); n && n->rdma_device)
        return Paired{{*n->rdma_device, n->rdma_port.value_or(1)}, nd,
                      "paired by the snapshot's netdev/RDMA link"};
    for (auto it = samples.rbegin(); it != samples.rend(); ++it)
      for (const RdmaDevice& d : it->rdma_devices)
        for (const RdmaPort& p : d.ports)
          if (auto pr = pair_in(*it, d, p); pr && pr->netdev == nd) return pr;
    return std::nullopt;
  };
  auto netdev_of_port = [&](const PortRef& rp) -> std::optional<Paired> {
    for (auto it = samples.rbegin(); it != samples.rend(); ++it)
      for (const RdmaDevice& d : it->rdma_devices)
        if (d.name == rp.first)
          for (const RdmaPort& p : d.ports)
            if (p.port == rp.second)
              if (auto pr = pair_in(*it, d, p)) return pr;
    return std::nullopt;
  };

  auto make_link = [&](const std::string& nd, const std::optional<PortRef>& rp) {
    LinkDeltas l;
    l.netdev = nd;
    if (!nd.empty()) {
      std::vector<const std::map<std::string, std::uint64_t>*> v;
      for (const Snapshot& s : samples) v.push_back(eth_stats(s, nd));
      l.eth = compare_tables(v, w.interval_s, false);
      if (!l.eth.available) {
        const NetDev* a = first.find_netdev(nd);
        const NetDev* b = last.find_netdev(nd);
        l.eth.reason = !a || !a->stats.has_value()
                           ? "no counters for " + nd + " in the first sample" +
                                 (a && !a->stats.reason.empty() ? " (" + a->stats.reason + ")" : "")
                           : "no counters for " + nd + " in the last sample" +
                                 (b && !b->stats.reason.empty() ? " (" + b->stats.reason + ")" : "");
      }
      if (const NetDev* b = last.find_netdev(nd)) {
        l.eth.source = b->stats.source.file;
        if (b->qos.has_value() && b->qos->pfc_enabled) {
          l.pfc_enabled = b->qos->pfc_enabled;
          l.pfc_source = !b->qos->pfc_source.file.empty() ? b->qos->pfc_source.file : b->qos.source.file;
        }
      }
    } else {
      l.eth.reason = "no netdev is linked to this RDMA port";
    }
    if (rp) {
      l.rdma_port = port_key(rp->first, rp->second);
      std::vector<const std::map<std::string, std::uint64_t>*> v;
      for (const Snapshot& s : samples) v.push_back(rdma_counters(s, rp->first, rp->second));
      l.rdma = compare_tables(v, w.interval_s, true);
      if (!l.rdma.available) {
        const RdmaPort* p = find_port(first, rp->first, rp->second);
        l.rdma.reason = "no hw_counters for " + l.rdma_port + " in both samples" +
                        (p && !p->counters.reason.empty() ? " (" + p->counters.reason + ")" : "");
      }
      if (const RdmaPort* p = find_port(last, rp->first, rp->second))
        l.rdma.source = p->counters.source.file;
    } else {
      l.rdma.reason = last.rdma_devices.empty() && ports.empty()
                          ? "no RDMA devices in the samples"
                          : "no RDMA port is linked to " + nd;
    }
    return l;
  };

  std::set<std::string> used_ports, used_nd;
  std::vector<std::string> unpaired_nd;
  for (const std::string& nd : netdevs) {
    if (auto pr = pair_of(nd)) {
      // Linked to an RDMA port with or without counters: keep the link, the RDMA side says why.
      used_ports.insert(port_key(pr->port.first, pr->port.second));
      used_nd.insert(nd);
      LinkDeltas l = make_link(nd, pr->port);
      l.pairing_note = pr->how;
      w.links.push_back(std::move(l));
    } else {
      unpaired_nd.push_back(nd);
    }
  }
  // RDMA ports with counters whose netdev has none (a `collect --root` snapshot has no ethtool
  // -S): keep the pairing, so the netdev's QoS (PFC) state is used and the eth side says why.
  for (const auto& p : ports) {
    if (used_ports.count(port_key(p.first, p.second))) continue;
    auto pr = netdev_of_port(p);
    if (!pr || used_nd.count(pr->netdev)) continue;
    used_ports.insert(port_key(p.first, p.second));
    used_nd.insert(pr->netdev);
    LinkDeltas l = make_link(pr->netdev, p);
    l.pairing_note = pr->how;
    w.links.push_back(std::move(l));
  }
  std::vector<std::pair<std::string, int>> unpaired_ports;
  for (const auto& p : ports)
    if (!used_ports.count(port_key(p.first, p.second))) unpaired_ports.push_back(p);
  // One netdev and one RDMA port with no link between them (pasted outputs without
  // ibdev2netdev): read them as one link, and say so.
  if (unpaired_nd.size() == 1 && unpaired_ports.size() == 1) {
    LinkDeltas l = make_link(unpaired_nd.front(), unpaired_ports.front());
    l.pairing_note = "assumed: the only netdev and the only RDMA port with counters (no "
                     "ibdev2netdev link in the inputs)";
    w.links.push_back(std::move(l));
  } else {
    for (const std::string& nd : unpaired_nd) w.links.push_back(make_link(nd, std::nullopt));
    for (const auto& p : unpaired_ports) w.links.push_back(make_link("", p));
  }

  for (const LinkDeltas& l : w.links)
    for (const CounterTable* t : {&l.eth, &l.rdma})
      for (const auto& [name, d] : t->counters) {
        if (d.status == DeltaStatus::disappeared)
          w.notes.push_back(l.subject() + ": counter " + name + " present before (" +
                            std::to_string(*d.before) + ") and missing after");
        else if (d.status == DeltaStatus::appeared)
          w.notes.push_back(l.subject() + ": counter " + name + " missing before and present after (" +
                            std::to_string(*d.after) + ")");
        else if (d.status == DeltaStatus::wrapped)
          w.notes.push_back(l.subject() + ": 32-bit counter " + name + " wrapped (" +
                            std::to_string(*d.before) + " -> " + std::to_string(*d.after) +
                            ", delta " + std::to_string(d.delta) + ")");
        else if (d.status == DeltaStatus::reset)
          w.notes.push_back(l.subject() + ": counter " + name + " was reset (" +
                            std::to_string(*d.before) + " -> " + std::to_string(*d.after) +
                            "; delta taken as " + std::to_string(d.delta) + ", a lower bound)");
      }
  if (ports.empty()) w.notes.push_back("no RDMA devices: RDMA counter rules cannot be judged");
  for (const std::string& n : last.notes)
    if (n.find("RDMA") != std::string::npos || n.find("rdma") != std::string::npos)
      w.notes.push_back(n);
  return w;
}

}  // namespace rk::diagnose

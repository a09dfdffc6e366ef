#include "rocekit/exporter/exporter.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rocekit/collect/collect.hpp"
#include "rocekit/collect/ethtool.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/diagnose/diagnose.hpp"
#include "rocekit/exporter/metrics.hpp"
#include "rocekit/model/identity.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/parse/ethtool_stats.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::exporter {

namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// RDMA counters with their own metric; scale 4 = dwords to bytes.
struct RdmaCounterSpec {
  std::string_view file;
  std::string_view metric;
  std::uint64_t scale;
};
const std::vector<RdmaCounterSpec> k_rdma_counters{
    {"port_rcv_data", "rocekit_port_received_bytes_total", 4},
    {"port_xmit_data", "rocekit_port_transmitted_bytes_total", 4},
    {"port_rcv_packets", "rocekit_port_received_packets_total", 1},
    {"port_xmit_packets", "rocekit_port_transmitted_packets_total", 1},
    {"out_of_sequence", "rocekit_out_of_sequence_packets_total", 1},
    {"packet_seq_err", "rocekit_packet_sequence_errors_total", 1},
    {"implied_nak_seq_err", "rocekit_implied_nak_sequence_errors_total", 1},
    {"local_ack_timeout_err", "rocekit_local_ack_timeouts_total", 1},
    {"duplicate_request", "rocekit_duplicate_requests_total", 1},
    {"rnr_nak_retry_err", "rocekit_rnr_nak_retries_total", 1},
    {"out_of_buffer", "rocekit_out_of_buffer_drops_total", 1},
    {"req_transport_retries_exceeded", "rocekit_transport_retries_exceeded_total", 1},
    {"req_rnr_retries_exceeded", "rocekit_rnr_retries_exceeded_total", 1},
    {"np_ecn_marked_roce_packets", "rocekit_ecn_marked_packets_received_total", 1},
    {"np_cnp_sent", "rocekit_cnp_sent_total", 1},
    {"rp_cnp_handled", "rocekit_cnp_handled_total", 1},
    {"rp_cnp_ignored", "rocekit_cnp_ignored_total", 1},
    {"roce_adp_retrans", "rocekit_adaptive_retransmissions_total", 1},
    {"roce_adp_retrans_to", "rocekit_adaptive_retransmission_timeouts_total", 1},
};

const RdmaCounterSpec* rdma_spec(std::string_view file) {
  for (const RdmaCounterSpec& s : k_rdma_counters)
    if (s.file == file) return &s;
  return nullptr;
}

Labels with(const Labels& base, std::initializer_list<std::pair<std::string, std::string>> more) {
  Labels l = base;
  for (const auto& kv : more) l.push_back(kv);
  return l;
}

std::uint64_t b(bool v) { return v ? 1 : 0; }

}  // namespace

// ------------------------------------------------------------------ widening --------------

std::uint64_t WidenedCounter::update(std::string_view counter, std::uint64_t raw, bool is_32bit) {
  if (!primed || !is_32bit) {
    // First read, or a 64-bit counter: a decrease is a real reset that Prometheus handles.
    primed = true;
    last_raw = raw;
    value = raw;
    return raw;
  }
  diagnose::CounterDelta d = diagnose::compare_counter(std::string(counter), last_raw, raw, true);
  value += d.delta;
  last_raw = raw;
  return value;
}

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = std::exchange(o.m_fd, -1);
  }
  return *this;
}

Fd::~Fd() {
  if (m_fd >= 0) ::close(m_fd);
}

// ------------------------------------------------------------------ ethtool -S ------------

std::size_t add_ethtool_stats(Exposition& out, const Labels& base,
                              const std::map<std::string, std::uint64_t>& stats) {
  std::size_t n = 0;
  for (const auto& [raw_name, value] : stats) {
    std::string name(text::trim(raw_name));  // one mlx5 release had "tx_pause_storm_warning_events "
    auto emit = [&](std::string_view metric, Labels l, std::uint64_t v) {
      out.add(metric, l, v);
      ++n;
    };
    auto emit_us = [&](std::string_view metric, Labels l, std::uint64_t us) {
      out.add(metric, l, static_cast<double>(us) / 1e6);
      ++n;
    };
    std::string dir = name.substr(0, 2);
    if ((dir == "rx" || dir == "tx") && name.compare(2, 5, "_prio") == 0 && name.size() > 9 &&
        name[7] >= '0' && name[7] <= '7' && name[8] == '_') {
      std::string prio(1, name[7]);
      std::string rest = name.substr(9);
      Labels l = with(base, {{"direction", dir}, {"priority", prio}});
      if (rest == "pause")
        emit("rocekit_pfc_pause_frames_total", l, value);
      else if (rest == "pause_duration")
        emit_us("rocekit_pfc_pause_duration_seconds_total", l, value);
      else if (rest == "pause_transition")
        emit("rocekit_pfc_pause_transitions_total", l, value);
      else if (rest == "bytes")
        emit("rocekit_priority_bytes_total", l, value);
      else if (rest == "packets")
        emit("rocekit_priority_packets_total", l, value);
      else if (rest == "discards")
        emit("rocekit_priority_discards_total", l, value);
      continue;
    }
    if (name == "rx_global_pause" || name == "tx_global_pause")
      emit("rocekit_global_pause_frames_total", with(base, {{"direction", dir}}), value);
    else if (name == "rx_global_pause_duration" || name == "tx_global_pause_duration")
      emit_us("rocekit_global_pause_duration_seconds_total", with(base, {{"direction", dir}}), value);
    else if (name == "tx_pause_storm_warning_events")
      emit("rocekit_pause_storm_events_total", with(base, {{"severity", "warning"}}), value);
    else if (name == "tx_pause_storm_error_events")
      emit("rocekit_pause_storm_events_total", with(base, {{"severity", "error"}}), value);
    else if (name == "rx_discards_phy" || name == "tx_discards_phy")
      emit("rocekit_phy_discards_total", with(base, {{"direction", dir}}), value);
    else if (name == "rx_vport_rdma_unicast_packets" || name == "tx_vport_rdma_unicast_packets")
      emit("rocekit_rdma_vport_unicast_packets_total", with(base, {{"direction", dir}}), value);
    else if (name == "rx_vport_rdma_unicast_bytes" || name == "tx_vport_rdma_unicast_bytes")
      emit("rocekit_rdma_vport_unicast_bytes_total", with(base, {{"direction", dir}}), value);
  }
  return n;
}

// ------------------------------------------------------------------ exporter --------------

Exporter::Exporter(ExporterOptions options) : m_opt(std::move(options)), m_host(m_opt.root) {
  if (!m_opt.clock) m_opt.clock = steady_seconds;
}

Exporter::~Exporter() = default;

void Exporter::set_trace(std::vector<std::string>* trace) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_host.set_trace(trace);
  m_trace = trace;
}

Exporter::Stats Exporter::stats() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  Stats s = m_stats;
  for (const auto& [name, dev] : m_devices)
    for (const CachedPort& p : dev.ports) s.widened_counters += p.counters.size();
  s.open_counter_files = m_open_fds;
  return s;
}

bool Exporter::included(const std::string& device) const {
  if (m_opt.include_devices && !std::regex_match(device, *m_opt.include_devices)) return false;
  if (m_opt.exclude_devices && std::regex_match(device, *m_opt.exclude_devices)) return false;
  return true;
}

std::string Exporter::scrape() {
  double arrived = m_opt.clock();
  std::lock_guard<std::mutex> lock(m_mutex);
  // A scrape that started after this request arrived is as fresh as one we would run now.
  if (m_last_started >= arrived && !m_last_text.empty()) return m_last_text;
  double start = m_opt.clock();
  m_last_started = start;
  m_last_text = collect_locked(start);
  return m_last_text;
}

namespace {

/// The metrics rendered from the cached state: link, MTU, QoS and ECN per RDMA port's netdev,
/// PCIe per PCI function, rule outcomes and finding counts.
void render_state(const Snapshot& st, const std::vector<Finding>& findings, Exposition& out) {
  for (const RdmaDevice& d : st.rdma_devices) {
    for (const RdmaPort& p : d.ports) {
      std::string nd = p.netdev.value_or("");
      Labels l{{"device", d.name}, {"port", std::to_string(p.port)}, {"netdev", nd}};
      const NetDev* n = nd.empty() ? nullptr : st.find_netdev(nd);
      if (!n) continue;
      if (n->link.has_value() && n->link->speed_mbps)
        out.add("rocekit_link_speed_bytes_per_second", l, static_cast<double>(*n->link->speed_mbps) * 1e6 / 8);
      if (n->mtu_bytes.has_value())
        out.add("rocekit_netdev_mtu_bytes", l, static_cast<std::uint64_t>(*n->mtu_bytes));
      // Identity for fleet drift (rocekit-fleet-rules.yml): the model the fleet groups versions
      // by and the driver, derived as `rocekit fleet` derives them (model/identity.hpp).
      const PciFunction* pf = d.bdf ? st.find_pci(*d.bdf) : nullptr;
      std::string driver, driver_version;
      if (n->driver.has_value()) {
        driver = n->driver->driver.value_or("");
        driver_version = n->driver->version.value_or("");
      }
      out.add("rocekit_nic_info",
              with(l, {{"model", nic_identity(n, pf, &d).model}, {"driver", driver}, {"driver_version", driver_version}}),
              std::uint64_t{1});
      if (n->qos.has_value()) {
        if (n->qos->trust) out.add("rocekit_qos_trust_info", with(l, {{"trust", str(*n->qos->trust)}}), std::uint64_t{1});
        if (!n->qos->dscp_to_priority.empty())
          out.add("rocekit_qos_dscp_map_info", with(l, {{"map", dscp_map_text(n->qos->dscp_to_priority)}}), std::uint64_t{1});
        if (n->qos->pfc_enabled)
          for (std::size_t i = 0; i < n->qos->pfc_enabled->size() && i < 8; ++i)
            out.add("rocekit_pfc_enabled", with(l, {{"priority", std::to_string(i)}}), b((*n->qos->pfc_enabled)[i]));
        else
          out.add("rocekit_state_unknown", with(l, {{"section", "pfc"}}), std::uint64_t{1});
      } else {
        out.add("rocekit_state_unknown", with(l, {{"section", "qos"}}), std::uint64_t{1});
      }
      if (n->ecn.has_value()) {
        for (const auto& [prio, on] : n->ecn->rp_enabled)
          out.add("rocekit_ecn_rp_enabled", with(l, {{"priority", std::to_string(prio)}}), b(on));
        for (const auto& [prio, on] : n->ecn->np_enabled)
          out.add("rocekit_ecn_np_enabled", with(l, {{"priority", std::to_string(prio)}}), b(on));
      } else {
        out.add("rocekit_state_unknown", with(l, {{"section", "ecn"}}), std::uint64_t{1});
      }
    }
  }

  // PCIe: every PCI function of the snapshot (NVIDIA/Mellanox and those behind netdevs).
  for (const PciFunction& pf : st.pci_functions) {
    std::string devname;
    for (const RdmaDevice& d : st.rdma_devices)
      if (d.bdf == pf.bdf) devname = d.name;
    Labels l{{"device", devname}, {"bdf", pf.bdf}};
    if (pf.link.has_value()) {
      const PcieLinkState& ls = *pf.link;
      if (ls.status.speed_gts) out.add("rocekit_pcie_link_speed_transfers_per_second", l, *ls.status.speed_gts * 1e9);
      if (ls.capability.speed_gts)
        out.add("rocekit_pcie_link_max_speed_transfers_per_second", l, *ls.capability.speed_gts * 1e9);
      if (ls.status.width_lanes) out.add("rocekit_pcie_link_width_lanes", l, static_cast<std::uint64_t>(*ls.status.width_lanes));
      if (ls.capability.width_lanes)
        out.add("rocekit_pcie_link_max_width_lanes", l, static_cast<std::uint64_t>(*ls.capability.width_lanes));
      if (ls.max_payload_bytes) out.add("rocekit_pcie_max_payload_bytes", l, static_cast<std::uint64_t>(*ls.max_payload_bytes));
    } else {
      out.add("rocekit_state_unknown", with(l, {{"section", "pcie_link"}}), std::uint64_t{1});
    }
    if (pf.max_read_request_bytes.has_value())
      out.add("rocekit_pcie_max_read_request_bytes", l, static_cast<std::uint64_t>(*pf.max_read_request_bytes));
  }

  // Rule outcomes.
  std::map<std::pair<Outcome, Severity>, std::uint64_t> counts;
  for (Outcome o : {Outcome::pass, Outcome::fail, Outcome::unknown, Outcome::not_applicable})
    for (Severity s : {Severity::info, Severity::warning, Severity::error, Severity::critical}) counts[{o, s}] = 0;
  for (const Finding& f : findings) {
    std::uint64_t code = f.outcome == Outcome::pass ? 0 : f.outcome == Outcome::fail ? 1 : f.outcome == Outcome::unknown ? 2 : 3;
    out.add("rocekit_rule_status",
            {{"rule", f.rule}, {"subject", f.subject}, {"severity", std::string(to_string(f.severity))}}, code);
    ++counts[{f.outcome, f.severity}];
  }
  for (const auto& [k, c] : counts)
    out.add("rocekit_findings",
            {{"outcome", std::string(to_string(k.first))}, {"severity", std::string(to_string(k.second))}}, c);
}

/// Counter files held open at most: the soft RLIMIT_NOFILE less room for sockets, the state
/// collection and the text file. Past it, counter files are opened per read.
std::size_t descriptor_budget() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) return 512;
  if (rl.rlim_cur == RLIM_INFINITY) return std::size_t{1} << 20;
  std::size_t soft = static_cast<std::size_t>(rl.rlim_cur);
  return soft > 512 ? soft - 256 : soft / 2;
}

}  // namespace

void Exporter::refresh_state(double now) {
  collect::CollectRequest req;
  req.tool_version = m_opt.version;
  req.kernel_ioctls = m_opt.kernel_ioctls;
  req.counters = false;
  req.rdma_device_filter = [this](const std::string& d) { return included(d); };
  collect::NoToolsRunner runner("rocekit exporter runs no tools");
  m_state = collect::collect_snapshot(req, m_host, runner);
  std::vector<Finding> findings = rules::evaluate(*m_state, m_opt.policy).findings;
  auto out = std::make_unique<Exposition>();
  render_state(*m_state, findings, *out);
  m_state_out = std::move(out);
  m_state_at = now;
  ++m_state_generation;
  ++m_stats.state_refreshes;
}

ssize_t Exporter::read_cached(const Fd& fd, const std::string& path, char* buf, std::size_t size) {
  if (m_trace) m_trace->push_back(path);
  ssize_t got;
  if (fd.get() >= 0) {
    do {
      got = ::pread(fd.get(), buf, size, 0);
    } while (got < 0 && errno == EINTR);
    return got < 0 ? -errno : got;
  }
  Fd once(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (once.get() < 0) return -errno;
  do {
    got = ::read(once.get(), buf, size);
  } while (got < 0 && errno == EINTR);
  return got < 0 ? -errno : got;
}

void Exporter::release(CachedDevice& cache) {
  for (CachedPort& p : cache.ports) {
    for (const Fd* f : {&p.state_fd, &p.rate_fd}) m_open_fds -= f->get() >= 0 ? 1 : 0;
    for (CachedCounter& c : p.counters) {
      m_open_fds -= c.fd.get() >= 0 ? 1 : 0;
      if (c.widened.primed) cache.widening.insert_or_assign(c.path, c.widened);
    }
  }
  cache.ports.clear();  // closes them
}

std::optional<std::string> Exporter::build_device(const std::string& dev, CachedDevice& cache) {
  // Widening state survives a rebuild, by file path (also that of files closed earlier).
  release(cache);
  std::map<std::string, WidenedCounter> widened = std::move(cache.widening);
  cache.widening.clear();
  cache.state_generation = m_state_generation;

  const RdmaDevice* sd = nullptr;
  for (const RdmaDevice& d : m_state->rdma_devices)
    if (d.name == dev) sd = &d;
  std::string base = "/sys/class/infiniband/" + dev + "/ports";
  Result<std::vector<std::string>> ports = m_host.list_dir(base);
  if (!ports) return std::nullopt;  // gone, or not a device with ports: nothing to read
  std::string prefix = m_opt.root == "/" ? "" : m_opt.root;
  std::size_t budget = descriptor_budget();
  bool vanished = false;  // the last open_held failed with ENOENT
  auto open_held = [&](const std::string& path) -> Fd {
    vanished = false;
    if (m_open_fds >= budget) return Fd();
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() >= 0)
      ++m_open_fds;
    else
      vanished = errno == ENOENT;
    return fd;  // -1: opened (and its error seen) per read
  };
  static const std::size_t k_hw_events = metric_index("rocekit_rdma_hw_events_total");
  static const std::size_t k_port_events = metric_index("rocekit_rdma_port_events_total");
  for (const std::string& p : *ports) {
    if (!text::parse_uint(p)) continue;
    CachedPort cp;
    cp.port = p;
    std::string ll, bdf = sd && sd->bdf ? *sd->bdf : "", fw = sd && sd->fw_ver ? *sd->fw_ver : "";
    if (sd)
      for (const RdmaPort& sp : sd->ports)
        if (std::to_string(sp.port) == p) {
          if (sp.netdev) cp.netdev = *sp.netdev;
          if (sp.link_layer) ll = str(*sp.link_layer);
        }
    Labels l{{"device", dev}, {"port", p}, {"netdev", cp.netdev}};
    cp.labels_info_series =
        sample_series("rocekit_port_info", with(l, {{"link_layer", ll}, {"bdf", bdf}, {"fw_version", fw}}));
    cp.up_series = sample_series("rocekit_port_up", l);
    cp.rate_series = sample_series("rocekit_port_rate_bytes_per_second", l);
    std::string pb = prefix + base + "/" + p;
    cp.state_path = pb + "/state";
    cp.rate_path = pb + "/rate";
    cp.state_fd = open_held(cp.state_path);
    cp.rate_fd = open_held(cp.rate_path);
    for (const char* sub : {"counters", "hw_counters"}) {
      std::string dir = pb + "/" + sub;
      DIR* d = ::opendir(dir.c_str());
      if (!d) {
        int e = errno;
        if (e == ENOENT || e == ENOTDIR) continue;  // bnxt_re has no counters/
        cache.ports.push_back(std::move(cp));
        return base + "/" + p + "/" + sub + ": " + std::strerror(e);
      }
      std::vector<std::string> names;
      while (dirent* e = ::readdir(d))
        if (e->d_name[0] != '.' && std::string_view(e->d_name) != "lifespan")  // lifespan: cache ms
          names.emplace_back(e->d_name);
      ::closedir(d);
      std::sort(names.begin(), names.end());
      bool hw = std::string_view(sub) == "hw_counters";
      for (const std::string& n : names) {
        CachedCounter c;
        c.name = n;
        c.path = dir + "/" + n;
        if (const RdmaCounterSpec* spec = rdma_spec(n)) {
          c.family = metric_index(spec->metric);
          c.series = sample_series(spec->metric, l);
          c.scale = spec->scale;
        } else {
          c.family = hw ? k_hw_events : k_port_events;
          c.series = sample_series(hw ? "rocekit_rdma_hw_events_total" : "rocekit_rdma_port_events_total",
                                   with(l, {{"counter", n}}));
        }
        c.is_32bit = hw && diagnose::is_32bit_counter(n);
        c.fd = open_held(c.path);
        if (vanished) continue;  // went away between readdir and open
        if (auto it = widened.find(c.path); it != widened.end()) c.widened = it->second;
        cp.counters.push_back(std::move(c));
      }
    }
    cache.ports.push_back(std::move(cp));
  }
  return std::nullopt;
}

std::string Exporter::collect_locked(double now) {
  ++m_stats.scrapes;
  std::vector<std::string> devices;
  Result<std::vector<std::string>> ibs = m_host.list_dir("/sys/class/infiniband");
  // No RDMA class directory is a host without RDMA devices. Any other failure to list it (out
  // of descriptors, EACCES) must not forget every device's files and widening state: counted,
  // and this scrape reads no counters.
  bool listing_failed = !ibs && ibs.error().kind != ErrorKind::not_found;
  if (ibs) devices = *ibs;
  if (listing_failed) ++m_errors["rdma_counters"];
  // A device added or removed since the state was collected (hot plug, new SR-IOV VFs): refresh
  // now, so that its series carry their netdev and identity labels from the first scrape
  // instead of changing at the next refresh. Once per change of the listing, so a device that
  // collect cannot describe does not force a refresh on every scrape.
  bool listing_changed = false;
  if (m_state && !listing_failed) {
    std::vector<std::string> listed, known;
    for (const std::string& d : devices)
      if (included(d)) listed.push_back(d);
    for (const RdmaDevice& d : m_state->rdma_devices) known.push_back(d.name);
    std::sort(listed.begin(), listed.end());
    std::sort(known.begin(), known.end());
    if (listed != known && listed != m_listing_at_forced_refresh) {
      m_listing_at_forced_refresh = listed;
      listing_changed = true;
    }
  }
  if (!m_state || listing_changed || m_opt.state_interval_s <= 0 || now - m_state_at >= m_opt.state_interval_s)
    refresh_state(now);
  Exposition out;
  out.add("rocekit_build_info", {{"version", m_opt.version}}, std::uint64_t{1});
  out.add("rocekit_scrape_duration_seconds", {}, m_last_duration_s);
  out.add("rocekit_scrapes_total", {}, m_stats.scrapes);
  out.add("rocekit_state_age_seconds", {}, now - m_state_at);
  out.add("rocekit_roce_priority_info",
          {{"priority", std::to_string(m_opt.policy.roce_priority)}, {"role", "roce"}}, std::uint64_t{1});
  out.add("rocekit_roce_priority_info",
          {{"priority", std::to_string(m_opt.policy.cnp_priority)}, {"role", "cnp"}}, std::uint64_t{1});

  // ---- RDMA devices (listed above, every scrape): counters read unless skipped.

  for (auto it = m_devices.begin(); !listing_failed && it != m_devices.end();) {
    if (std::find(devices.begin(), devices.end(), it->first) == devices.end()) {
      release(it->second);  // the device went away: forget its files and widening state
      it = m_devices.erase(it);
    } else {
      ++it;
    }
  }
  static const std::size_t k_info = metric_index("rocekit_port_info");
  static const std::size_t k_up = metric_index("rocekit_port_up");
  static const std::size_t k_rate = metric_index("rocekit_port_rate_bytes_per_second");
  for (const std::string& dev : devices) {
    if (!included(dev)) {
      out.add("rocekit_device_skipped", {{"device", dev}, {"reason", "excluded"}}, std::uint64_t{1});
      continue;
    }
    DeviceHealth& h = m_health[dev];
    if (h.retry_at > now) {
      out.add("rocekit_device_read_failures_total", {{"device", dev}}, h.failures);
      out.add("rocekit_device_skipped", {{"device", dev}, {"reason", "read_failed"}}, std::uint64_t{1});
      out.add("rocekit_device_backoff_seconds", {{"device", dev}}, h.retry_at - now);
      continue;
    }
    CachedDevice& cache = m_devices[dev];
    std::string failure;
    if (cache.ports.empty() || cache.state_generation != m_state_generation)
      if (std::optional<std::string> err = build_device(dev, cache)) failure = *err;
    // Read everything first; a failure drops the device's samples for this scrape.
    struct PortRead {
      std::optional<PortState> state;
      std::optional<double> rate_bps;
      std::vector<std::optional<std::uint64_t>> raw;  ///< per CachedCounter; nullopt = not a number
      std::optional<std::map<std::string, std::uint64_t>> ethtool;
    };
    std::vector<PortRead> reads;
    bool gone = false;
    char buf[256];
    for (std::size_t pi = 0; failure.empty() && !gone && pi < cache.ports.size(); ++pi) {
      CachedPort& cp = cache.ports[pi];
      PortRead r;
      ssize_t state_got = read_cached(cp.state_fd, cp.state_path, buf, sizeof buf - 1);
      if (state_got == -ENODEV) {  // the device was removed under a held descriptor
        gone = true;
        break;
      }
      if (state_got >= 0) r.state = port_state_from_string(std::string_view(buf, static_cast<std::size_t>(state_got)));
      if (ssize_t got = read_cached(cp.rate_fd, cp.rate_path, buf, sizeof buf - 1); got >= 0) {
        std::vector<std::string_view> w = text::words(std::string_view(buf, static_cast<std::size_t>(got)));
        if (std::optional<double> g = text::parse_double(w.empty() ? "" : w[0])) r.rate_bps = *g * 1e9 / 8;  // Gb/s -> bytes/s
      }
      r.raw.reserve(cp.counters.size());
      for (CachedCounter& c : cp.counters) {
        ssize_t got = read_cached(c.fd, c.path, buf, sizeof buf - 1);
        if (got == -ENODEV) {  // the device was removed under a held descriptor
          gone = true;
          break;
        }
        if (got == -ENOENT) {  // opened per read and gone: as if never listed
          r.raw.push_back(std::nullopt);
          continue;
        }
        if (got < 0) {
          std::string host_path = c.path.substr(m_opt.root == "/" ? 0 : m_opt.root.size());
          failure = host_path + ": " + std::strerror(static_cast<int>(-got));
          break;
        }
        r.raw.push_back(text::parse_uint(text::trim(std::string_view(buf, static_cast<std::size_t>(got)))));
        if (!r.raw.back()) ++m_errors["rdma_counter_values"];  // not a number: no sample, counted
      }
      if (!failure.empty() || gone) break;
      if (!m_opt.ethtool_stats_dir.empty() && !cp.netdev.empty()) {
        std::ifstream in(m_opt.ethtool_stats_dir + "/ethtool_S@" + cp.netdev + ".txt", std::ios::binary);
        if (in) {
          std::stringstream ss;
          ss << in.rdbuf();
          std::string text = ss.str();
          auto parsed = parse::parse_ethtool_stats(parse::strip_capture_header(text).body);
          if (parsed) {
            std::map<std::string, std::uint64_t> m;
            for (const parse::EthtoolStat& c : parsed->value.counters)
              if (!c.ring) m.emplace(c.name, c.value);
            r.ethtool = std::move(m);
          } else {
            ++m_errors["ethtool_stats"];
          }
        }
      } else if (m_opt.kernel_ioctls && !cp.netdev.empty()) {
        NetDev nd;
        nd.name = cp.netdev;
        collect::read_ethtool_stats(cp.netdev, nd);
        if (nd.stats.has_value())
          r.ethtool = *nd.stats;
        else if (!text::contains(nd.stats.reason, "reports no statistics"))
          ++m_errors["ethtool_stats"];
      }
      reads.push_back(std::move(r));
    }
    if (gone) {
      release(cache);  // listed again (or not) next scrape
      continue;
    }
    if (!failure.empty()) {
      release(cache);  // re-opened after the back-off
      ++h.failures;
      ++m_errors["rdma_counters"];
      h.backoff_s = h.backoff_s <= 0 ? m_opt.backoff_initial_s : std::min(h.backoff_s * 2, m_opt.backoff_max_s);
      h.retry_at = now + h.backoff_s;
      h.last_error = failure;
      out.add("rocekit_device_read_failures_total", {{"device", dev}}, h.failures);
      out.add("rocekit_device_skipped", {{"device", dev}, {"reason", "read_failed"}}, std::uint64_t{1});
      out.add("rocekit_device_backoff_seconds", {{"device", dev}}, h.retry_at - now);
      continue;
    }
    if (h.failures > 0) out.add("rocekit_device_read_failures_total", {{"device", dev}}, h.failures);
    if (h.failures > 0 && h.backoff_s > 0) {
      h.backoff_s = 0;  // read again successfully: back to normal
      m_state_at = -1e300;  // its identity may be stale: refresh the state next scrape
    }
    for (std::size_t pi = 0; pi < reads.size(); ++pi) {
      CachedPort& cp = cache.ports[pi];
      const PortRead& r = reads[pi];
      out.add_series(k_info, cp.labels_info_series, std::uint64_t{1});
      if (r.state) out.add_series(k_up, cp.up_series, b(*r.state == PortState::active));
      if (r.rate_bps) out.add_series(k_rate, cp.rate_series, *r.rate_bps);
      for (std::size_t ci = 0; ci < cp.counters.size(); ++ci) {
        if (!r.raw[ci]) continue;
        CachedCounter& c = cp.counters[ci];
        std::uint64_t v = c.widened.update(c.name, *r.raw[ci], c.is_32bit);
        out.add_series(c.family, c.series, v * c.scale);
      }
      if (r.ethtool) add_ethtool_stats(out, {{"device", dev}, {"port", cp.port}, {"netdev", cp.netdev}}, *r.ethtool);
    }
  }

  // ---- Cached state (link, PCIe, QoS, rule outcomes), rendered at its refresh.
  if (m_state_out) out.append(*m_state_out);
  for (const char* src : {"rdma_counters", "rdma_counter_values", "ethtool_stats"})
    out.add("rocekit_collection_errors_total", {{"source", src}}, m_errors[src]);

  std::string text = out.str();
  m_last_duration_s = m_opt.clock() - now;
  return text;
}

// ------------------------------------------------------------------ textfile --------------

std::size_t remove_stale_textfile_temps(const std::string& dir) {
  std::error_code ec;
  std::size_t removed = 0;
  const std::string prefix = ".rocekit.prom.";
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    std::optional<std::uint64_t> pid = text::parse_uint(std::string_view(name).substr(prefix.size()));
    if (!pid || *pid == 0 || *pid > 4194304) continue;  // not one of ours (pid_max is at most 2^22)
    if (::kill(static_cast<pid_t>(*pid), 0) == 0 || errno != ESRCH) continue;  // its writer may run
    std::error_code rm;
    if (e.is_regular_file(rm) && std::filesystem::remove(e.path(), rm)) ++removed;
  }
  return removed;
}

std::optional<WriteError> write_textfile(const std::string& dir, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return WriteError{dir, "not a directory"};
  std::string final_path = (fs::path(dir) / "rocekit.prom").string();
  // node_exporter reads only *.prom: the temp name does not match until the rename.
  std::string tmp = (fs::path(dir) / (".rocekit.prom." + std::to_string(::getpid()))).string();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return WriteError{tmp, std::strerror(errno)};
  ::fchmod(fd, 0644);
  std::size_t off = 0;
  while (off < text.size()) {
    ssize_t w = ::write(fd, text.data() + off, text.size() - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return WriteError{tmp, std::strerror(e)};
    }
    off += static_cast<std::size_t>(w);
  }
  int synced = ::fsync(fd);
  int sync_errno = errno;
  if (::close(fd) != 0 || synced != 0) {
    int e = synced != 0 ? sync_errno : errno;
    ::unlink(tmp.c_str());
    return WriteError{tmp, std::strerror(e)};
  }
  if (::rename(tmp.c_str(), final_path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return WriteError{final_path, std::strerror(e)};
  }
  return std::nullopt;
}

}  // namespace rk::exporter

#include "rocekit/exporter/exporter.hpp"

#include <dirent.h>
#include <fcntl.h>
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

std::string after_colon(std::string_view s) {
  std::size_t c = s.find(':');
  return std::string(text::trim(c == std::string_view::npos ? s : s.substr(c + 1)));
}

}  // namespace

// ------------------------------------------------------------------ widening --------------

std::uint64_t CounterWidener::update(const std::string& key, std::string_view counter,
                                     std::uint64_t raw, bool is_32bit) {
  auto it = m_state.find(key);
  if (it == m_state.end()) {
    m_state.emplace(key, State{raw, raw, true});
    return raw;
  }
  State& s = it->second;
  s.seen = true;
  if (!is_32bit) {
    s.last_raw = raw;
    s.value = raw;  // 64-bit: a decrease is a real reset; Prometheus handles it
    return raw;
  }
  diagnose::CounterDelta d = diagnose::compare_counter(std::string(counter), s.last_raw, raw, true);
  s.value += d.delta;
  s.last_raw = raw;
  return s.value;
}

void CounterWidener::sweep() {
  for (auto it = m_state.begin(); it != m_state.end();) {
    if (!it->second.seen) {
      it = m_state.erase(it);
    } else {
      it->second.seen = false;
      ++it;
    }
  }
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

void Exporter::set_trace(std::vector<std::string>* trace) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_host.set_trace(trace);
  m_trace = trace;
}

Exporter::Stats Exporter::stats() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  Stats s = m_stats;
  s.widened_counters = m_widener.size();
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

void Exporter::refresh_state(double now) {
  collect::CollectRequest req;
  req.tool_version = m_opt.version;
  req.kernel_ioctls = m_opt.kernel_ioctls;
  req.counters = false;
  req.rdma_device_filter = [this](const std::string& d) { return included(d); };
  collect::NoToolsRunner runner("rocekit exporter runs no tools");
  m_state = collect::collect_snapshot(req, m_host, runner);
  m_findings = rules::evaluate(*m_state, m_opt.policy).findings;
  m_state_at = now;
  ++m_stats.state_refreshes;
}

// Reads every counter file of one directory (a port's counters/ or hw_counters/) with one
// directory open and openat() per file: the long fixture or sysfs path (through the class
// symlink) is walked once per directory, not once per counter. Appends (sub, (name, value));
// a missing directory is fine (bnxt_re has no counters/); any other failure is returned.
std::optional<std::string> Exporter::read_counter_dir(
    const std::string& host_dir, const char* sub,
    std::vector<std::pair<std::string, std::pair<std::string, std::uint64_t>>>& out) {
  std::string dir = m_opt.root == "/" ? host_dir : m_opt.root + host_dir;
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
    return host_dir + ": " + std::strerror(errno);
  }
  DIR* d = ::fdopendir(dfd);
  if (!d) {
    int e = errno;
    ::close(dfd);
    return host_dir + ": " + std::strerror(e);
  }
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d))
    if (e->d_name[0] != '.') names.emplace_back(e->d_name);
  std::sort(names.begin(), names.end());
  std::optional<std::string> failure;
  char buf[256];
  for (const std::string& n : names) {
    if (n == "lifespan") continue;  // cache time in ms, not a counter
    if (m_trace) m_trace->push_back(dir + "/" + n);
    int fd = ::openat(dfd, n.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) continue;
      failure = host_dir + "/" + n + ": " + std::strerror(errno);
      break;
    }
    ssize_t got;
    do {
      got = ::read(fd, buf, sizeof buf - 1);
    } while (got < 0 && errno == EINTR);
    int read_errno = errno;
    ::close(fd);
    if (got < 0) {
      failure = host_dir + "/" + n + ": " + std::strerror(read_errno);
      break;
    }
    std::string_view v(buf, static_cast<std::size_t>(got));
    if (std::optional<std::uint64_t> u = text::parse_uint(text::trim(v))) out.push_back({sub, {n, *u}});
  }
  ::closedir(d);  // closes dfd
  return failure;
}

std::string Exporter::collect_locked(double now) {
  ++m_stats.scrapes;
  if (!m_state || m_opt.state_interval_s <= 0 || now - m_state_at >= m_opt.state_interval_s)
    refresh_state(now);
  const Snapshot& st = *m_state;
  Exposition out;
  out.add("rocekit_build_info", {{"version", m_opt.version}}, std::uint64_t{1});
  out.add("rocekit_scrape_duration_seconds", {}, m_last_duration_s);
  out.add("rocekit_scrapes_total", {}, m_stats.scrapes);
  out.add("rocekit_state_age_seconds", {}, now - m_state_at);
  out.add("rocekit_roce_priority_info",
          {{"priority", std::to_string(m_opt.policy.roce_priority)}, {"role", "roce"}}, std::uint64_t{1});
  out.add("rocekit_roce_priority_info",
          {{"priority", std::to_string(m_opt.policy.cnp_priority)}, {"role", "cnp"}}, std::uint64_t{1});

  // ---- RDMA devices: listed every scrape (cheap), counters read unless skipped.
  std::vector<std::string> devices;
  if (Result<std::vector<std::string>> ibs = m_host.list_dir("/sys/class/infiniband")) devices = *ibs;
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
    const RdmaDevice* sd = nullptr;
    for (const RdmaDevice& d : st.rdma_devices)
      if (d.name == dev) sd = &d;
    std::string base = "/sys/class/infiniband/" + dev + "/ports";
    Result<std::vector<std::string>> ports = m_host.list_dir(base);
    if (!ports) continue;
    // Read everything first; a failure drops the device's samples for this scrape.
    struct PortRead {
      std::string port, netdev, state;
      std::optional<double> rate_bps;
      std::vector<std::pair<std::string, std::pair<std::string, std::uint64_t>>> counters;  // dir,(name,raw)
      std::optional<std::map<std::string, std::uint64_t>> ethtool;
    };
    std::vector<PortRead> reads;
    std::string failure;
    for (const std::string& p : *ports) {
      if (!text::parse_uint(p)) continue;
      PortRead r;
      r.port = p;
      std::string pb = base + "/" + p;
      if (sd)
        for (const RdmaPort& sp : sd->ports)
          if (std::to_string(sp.port) == p && sp.netdev) r.netdev = *sp.netdev;
      if (Result<std::string> s = m_host.read_text(pb + "/state")) r.state = after_colon(*s);
      if (Result<std::string> s = m_host.read_text(pb + "/rate"))
        if (std::optional<double> g = text::parse_double(text::words(*s).empty() ? "" : text::words(*s)[0]))
          r.rate_bps = *g * 1e9 / 8;  // Gb/s -> bytes/s
      for (const char* sub : {"counters", "hw_counters"}) {
        if (std::optional<std::string> err = read_counter_dir(pb + "/" + sub, sub, r.counters)) {
          failure = *err;
          break;
        }
      }
      if (!failure.empty()) break;
      if (!m_opt.ethtool_stats_dir.empty() && !r.netdev.empty()) {
        std::ifstream in(m_opt.ethtool_stats_dir + "/ethtool_S@" + r.netdev + ".txt", std::ios::binary);
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
      } else if (m_opt.kernel_ioctls && !r.netdev.empty()) {
        NetDev nd;
        nd.name = r.netdev;
        collect::read_ethtool_stats(r.netdev, nd);
        if (nd.stats.has_value())
          r.ethtool = *nd.stats;
        else if (!text::contains(nd.stats.reason, "reports no statistics"))
          ++m_errors["ethtool_stats"];
      }
      reads.push_back(std::move(r));
    }
    if (!failure.empty()) {
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
    for (const PortRead& r : reads) {
      Labels l{{"device", dev}, {"port", r.port}, {"netdev", r.netdev}};
      std::string ll, bdf = sd && sd->bdf ? *sd->bdf : "", fw = sd && sd->fw_ver ? *sd->fw_ver : "";
      if (sd)
        for (const RdmaPort& sp : sd->ports)
          if (std::to_string(sp.port) == r.port && sp.link_layer) ll = *sp.link_layer;
      out.add("rocekit_port_info",
              with(l, {{"link_layer", ll}, {"bdf", bdf}, {"fw_version", fw}}), std::uint64_t{1});
      if (!r.state.empty()) out.add("rocekit_port_up", l, b(r.state == "ACTIVE"));
      if (r.rate_bps) out.add("rocekit_port_rate_bytes_per_second", l, *r.rate_bps);
      for (const auto& [sub, nv] : r.counters) {
        const auto& [name, raw] = nv;
        bool hw = std::string_view(sub) == "hw_counters";
        std::string key = dev + "/" + r.port + "/" + sub + "/" + name;
        std::uint64_t v = m_widener.update(key, name, raw, hw && diagnose::is_32bit_counter(name));
        if (const RdmaCounterSpec* spec = rdma_spec(name))
          out.add(spec->metric, l, v * spec->scale);
        else
          out.add(hw ? "rocekit_rdma_hw_events_total" : "rocekit_rdma_port_events_total",
                  with(l, {{"counter", name}}), v);
      }
      if (r.ethtool) add_ethtool_stats(out, l, *r.ethtool);
    }
  }
  m_widener.sweep();

  // ---- Cached state: link, PCIe, QoS per RDMA port's netdev.
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
      if (n->qos.has_value()) {
        if (n->qos->trust) out.add("rocekit_qos_trust_info", with(l, {{"trust", *n->qos->trust}}), std::uint64_t{1});
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

  // ---- PCIe: every PCI function of the snapshot (NVIDIA/Mellanox and those behind netdevs).
  for (const PciFunction& pfn : st.pci_functions) {
    const PciFunction* pf = &pfn;
    std::string devname;
    for (const RdmaDevice& d : st.rdma_devices)
      if (d.bdf == pf->bdf) devname = d.name;
    Labels l{{"device", devname}, {"bdf", pf->bdf}};
    if (pf->link.has_value()) {
      const PcieLinkState& ls = *pf->link;
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
    if (pf->max_read_request_bytes.has_value())
      out.add("rocekit_pcie_max_read_request_bytes", l, static_cast<std::uint64_t>(*pf->max_read_request_bytes));
  }

  // ---- Rule outcomes (cached with the state).
  std::map<std::pair<Outcome, Severity>, std::uint64_t> counts;
  for (Outcome o : {Outcome::pass, Outcome::fail, Outcome::unknown, Outcome::not_applicable})
    for (Severity s : {Severity::info, Severity::warning, Severity::error, Severity::critical}) counts[{o, s}] = 0;
  for (const Finding& f : m_findings) {
    std::uint64_t code = f.outcome == Outcome::pass ? 0 : f.outcome == Outcome::fail ? 1 : f.outcome == Outcome::unknown ? 2 : 3;
    out.add("rocekit_rule_status",
            {{"rule", f.rule}, {"subject", f.subject}, {"severity", std::string(to_string(f.severity))}}, code);
    ++counts[{f.outcome, f.severity}];
  }
  for (const auto& [k, c] : counts)
    out.add("rocekit_findings",
            {{"outcome", std::string(to_string(k.first))}, {"severity", std::string(to_string(k.second))}}, c);
  for (const char* src : {"rdma_counters", "ethtool_stats"})
    out.add("rocekit_collection_errors_total", {{"source", src}}, m_errors[src]);

  std::string text = out.str();
  m_last_duration_s = m_opt.clock() - now;
  return text;
}

// ------------------------------------------------------------------ textfile --------------

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

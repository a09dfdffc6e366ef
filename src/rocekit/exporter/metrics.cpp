#include "rocekit/exporter/metrics.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace rk::exporter {

namespace {

using T = MetricType;

// The registry (STYLE.md §9.8). Output order = this order.
const std::vector<MetricSpec> k_metrics{
    // --- self
    {"rocekit_build_info", T::gauge, "rocekit version the exporter was built from (value 1)."},
    {"rocekit_scrape_duration_seconds", T::gauge,
     "Seconds the previous scrape of this exporter took to collect and render."},
    {"rocekit_scrapes_total", T::counter, "Scrapes served since the exporter started."},
    {"rocekit_collection_errors_total", T::counter,
     "Reads that failed, by source: rdma_counters (a device's counter files), "
     "rdma_counter_values (a counter file that is not a number), ethtool_stats."},
    {"rocekit_device_read_failures_total", T::counter,
     "Counter reads of an RDMA device that failed with an error other than not-found "
     "(firmware-restricted PFs: EINVAL/EOPNOTSUPP/EIO)."},
    {"rocekit_device_skipped", T::gauge,
     "1 for an RDMA device that is not read: reason excluded (--exclude-device/--include-device) "
     "or read_failed (backing off; retried after backoff_seconds)."},
    {"rocekit_device_backoff_seconds", T::gauge,
     "Seconds until a device whose reads failed is read again."},
    {"rocekit_state_age_seconds", T::gauge,
     "Age of the cached configuration state (QoS, PCIe, link speed, rule outcomes), refreshed every "
     "--state-interval seconds; counters are read on every scrape."},
    // --- port identity and link
    {"rocekit_port_info", T::gauge,
     "RDMA port identity (value 1): RDMA device, port, netdev, link layer, PCI function, firmware."},
    {"rocekit_nic_info", T::gauge,
     "NIC identity of the RDMA port's netdev (value 1): model (PSID, else PCI device name, as "
     "rocekit fleet groups NICs), driver and driver version (ethtool -i) (cached state)."},
    {"rocekit_port_up", T::gauge, "1 when the RDMA port state is ACTIVE, 0 otherwise."},
    {"rocekit_port_rate_bytes_per_second", T::gauge,
     "RDMA port rate from /sys/class/infiniband/<dev>/ports/<p>/rate, in bytes per second."},
    {"rocekit_link_speed_bytes_per_second", T::gauge,
     "Netdev link speed (/sys/class/net/<if>/speed, Mb/s) in bytes per second (cached state)."},
    {"rocekit_netdev_mtu_bytes", T::gauge, "Netdev MTU in bytes (cached state)."},
    // --- PCIe
    {"rocekit_pcie_link_speed_transfers_per_second", T::gauge,
     "Negotiated PCIe link speed (LnkSta) in transfers per second per lane (cached state)."},
    {"rocekit_pcie_link_max_speed_transfers_per_second", T::gauge,
     "PCIe link speed capability (LnkCap) in transfers per second per lane (cached state)."},
    {"rocekit_pcie_link_width_lanes", T::gauge, "Negotiated PCIe link width (LnkSta) in lanes."},
    {"rocekit_pcie_link_max_width_lanes", T::gauge, "PCIe link width capability (LnkCap) in lanes."},
    {"rocekit_pcie_max_read_request_bytes", T::gauge,
     "PCIe MaxReadReq (DevCtl, MRRS) in bytes (cached state)."},
    {"rocekit_pcie_max_payload_bytes", T::gauge, "PCIe MaxPayload (DevCtl, MPS) in bytes."},
    // --- QoS
    {"rocekit_qos_trust_info", T::gauge, "Priority trust state of the netdev (value 1; trust=dscp|pcp)."},
    {"rocekit_qos_dscp_map_info", T::gauge,
     "DSCP to priority map of the netdev (value 1; map=\"0:0-7 1:8-15 ...\": per priority its DSCPs, "
     "as rocekit fleet compares it)."},
    {"rocekit_pfc_enabled", T::gauge, "1 when PFC is enabled on the priority, 0 when not."},
    {"rocekit_ecn_rp_enabled", T::gauge,
     "1 when DCQCN reaction point (ecn/roce_rp/enable/<prio>) is enabled on the priority."},
    {"rocekit_ecn_np_enabled", T::gauge,
     "1 when DCQCN notification point (ecn/roce_np/enable/<prio>, CNP generation) is enabled."},
    {"rocekit_roce_priority_info", T::gauge,
     "The policy's RoCE and CNP priorities (value 1), for joins in alert rules."},
    {"rocekit_state_unknown", T::gauge,
     "1 when a configuration section could not be read for the subject (see rocekit check)."},
    // --- rules
    {"rocekit_rule_status", T::gauge,
     "Outcome of a rocekit check rule on a subject: 0 pass, 1 fail, 2 unknown, 3 not applicable "
     "(evaluated every --state-interval seconds)."},
    {"rocekit_findings", T::gauge, "Number of rule findings by outcome and severity."},
    // --- RDMA counters (hw_counters, counters): 32-bit Q counters widened to 64 bits
    {"rocekit_port_received_bytes_total", T::counter,
     "RDMA port data received in bytes (counters/port_rcv_data x 4)."},
    {"rocekit_port_transmitted_bytes_total", T::counter,
     "RDMA port data transmitted in bytes (counters/port_xmit_data x 4)."},
    {"rocekit_port_received_packets_total", T::counter, "RDMA port packets received."},
    {"rocekit_port_transmitted_packets_total", T::counter, "RDMA port packets transmitted."},
    {"rocekit_out_of_sequence_packets_total", T::counter,
     "Responder packets received with a PSN gap (hw_counters/out_of_sequence): loss on the path."},
    {"rocekit_packet_sequence_errors_total", T::counter,
     "NAK sequence errors received by the requester (hw_counters/packet_seq_err)."},
    {"rocekit_implied_nak_sequence_errors_total", T::counter,
     "Implied NAK sequence errors (hw_counters/implied_nak_seq_err)."},
    {"rocekit_local_ack_timeouts_total", T::counter,
     "Requester ACK timer expirations (hw_counters/local_ack_timeout_err)."},
    {"rocekit_duplicate_requests_total", T::counter, "Duplicate requests received (hw_counters/duplicate_request)."},
    {"rocekit_rnr_nak_retries_total", T::counter, "RNR NAKs received (hw_counters/rnr_nak_retry_err)."},
    {"rocekit_out_of_buffer_drops_total", T::counter,
     "Drops for lack of a posted receive WQE (hw_counters/out_of_buffer)."},
    {"rocekit_transport_retries_exceeded_total", T::counter,
     "QPs that exceeded the transport retry count and went to error "
     "(hw_counters/req_transport_retries_exceeded)."},
    {"rocekit_rnr_retries_exceeded_total", T::counter,
     "QPs that exceeded the RNR retry count (hw_counters/req_rnr_retries_exceeded)."},
    {"rocekit_ecn_marked_packets_received_total", T::counter,
     "RoCE packets received with ECN CE (hw_counters/np_ecn_marked_roce_packets)."},
    {"rocekit_cnp_sent_total", T::counter, "CNPs sent as notification point (hw_counters/np_cnp_sent)."},
    {"rocekit_cnp_handled_total", T::counter,
     "CNPs handled as reaction point (hw_counters/rp_cnp_handled)."},
    {"rocekit_cnp_ignored_total", T::counter,
     "CNPs received and ignored by the reaction point (hw_counters/rp_cnp_ignored)."},
    {"rocekit_adaptive_retransmissions_total", T::counter,
     "RoCE adaptive retransmissions (hw_counters/roce_adp_retrans)."},
    {"rocekit_adaptive_retransmission_timeouts_total", T::counter,
     "RoCE adaptive retransmission timeouts (hw_counters/roce_adp_retrans_to)."},
    {"rocekit_rdma_hw_events_total", T::counter,
     "Other RDMA hw_counters by name (32-bit Q counters widened to 64 bits)."},
    {"rocekit_rdma_port_events_total", T::counter, "Other RDMA port counters (counters/) by name."},
    // --- ethtool -S (per priority)
    {"rocekit_pfc_pause_frames_total", T::counter,
     "PFC pause frames per priority and direction (ethtool -S {rx,tx}_prio<N>_pause); rx = the "
     "peer paused us."},
    {"rocekit_pfc_pause_duration_seconds_total", T::counter,
     "Time paused per priority and direction in seconds ({rx,tx}_prio<N>_pause_duration, us)."},
    {"rocekit_pfc_pause_transitions_total", T::counter,
     "XOFF to XON transitions per priority (rx_prio<N>_pause_transition)."},
    {"rocekit_priority_bytes_total", T::counter, "Bytes per priority and direction ({rx,tx}_prio<N>_bytes)."},
    {"rocekit_priority_packets_total", T::counter, "Packets per priority and direction ({rx,tx}_prio<N>_packets)."},
    {"rocekit_priority_discards_total", T::counter,
     "Packets discarded per priority for lack of receive buffer (rx_prio<N>_discards)."},
    {"rocekit_global_pause_frames_total", T::counter,
     "802.3x global pause frames ({rx,tx}_global_pause; present only with global pause on)."},
    {"rocekit_global_pause_duration_seconds_total", T::counter,
     "Time in 802.3x global pause in seconds ({rx,tx}_global_pause_duration, us)."},
    {"rocekit_pause_storm_events_total", T::counter,
     "Pause storm events (tx_pause_storm_{warning,error}_events)."},
    {"rocekit_phy_discards_total", T::counter, "Port buffer discards ({rx,tx}_discards_phy)."},
    {"rocekit_rdma_vport_unicast_packets_total", T::counter,
     "RDMA unicast packets of the function ({rx,tx}_vport_rdma_unicast_packets)."},
    {"rocekit_rdma_vport_unicast_bytes_total", T::counter,
     "RDMA unicast bytes of the function ({rx,tx}_vport_rdma_unicast_bytes)."},
};

}  // namespace

const std::vector<MetricSpec>& all_metrics() { return k_metrics; }

const MetricSpec* find_metric(std::string_view name) {
  for (const MetricSpec& m : k_metrics)
    if (m.name == name) return &m;
  return nullptr;
}

std::size_t metric_index(std::string_view name) {
  if (const MetricSpec* m = find_metric(name)) return static_cast<std::size_t>(m - k_metrics.data());
  throw std::logic_error("undeclared metric " + std::string(name));
}

std::string escape_label_value(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string format_double(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  // Whole numbers (link speeds, transfer rates) as plain integers: 25000000000, not 2.5e+10.
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return "NaN";
  return std::string(buf, end);
}

std::string sample_series(std::string_view name, const Labels& labels) {
  std::string line(name);
  if (!labels.empty()) {
    line += '{';
    bool first = true;
    for (const auto& [k, v] : labels) {
      if (!first) line += ',';
      first = false;
      line += k;
      line += "=\"";
      line += escape_label_value(v);
      line += '"';
    }
    line += '}';
  }
  return line;
}

void Exposition::add_line(std::size_t family, std::string_view series, std::string_view value) {
  std::string& lines = m_lines.at(family);
  lines += series;
  lines += ' ';
  lines += value;
  lines += '\n';
  ++m_count;
}

void Exposition::add(std::string_view name, const Labels& labels, std::uint64_t value) {
  add_series(metric_index(name), sample_series(name, labels), value);
}

void Exposition::add(std::string_view name, const Labels& labels, double value) {
  add_series(metric_index(name), sample_series(name, labels), value);
}

void Exposition::add_series(std::size_t family, std::string_view series, std::uint64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  add_line(family, series, std::string_view(buf, static_cast<std::size_t>(end - buf)));
}

void Exposition::add_series(std::size_t family, std::string_view series, double value) {
  add_line(family, series, format_double(value));
}

void Exposition::append(const Exposition& other) {
  for (std::size_t i = 0; i < m_lines.size(); ++i) m_lines[i] += other.m_lines[i];
  m_count += other.m_count;
}

std::string Exposition::str() const {
  std::string out;
  std::size_t bytes = 0;
  for (const std::string& l : m_lines) bytes += l.size();
  out.reserve(bytes + 16384);
  for (std::size_t i = 0; i < k_metrics.size(); ++i) {
    const MetricSpec& m = k_metrics[i];
    if (m_lines[i].empty()) continue;
    out += "# HELP ";
    out += m.name;
    out += ' ';
    // HELP escapes backslash and newline.
    for (char c : m.help) out += c == '\n' ? std::string("\\n") : c == '\\' ? std::string("\\\\") : std::string(1, c);
    out += "\n# TYPE ";
    out += m.name;
    out += m.type == MetricType::counter ? " counter\n" : " gauge\n";
    out += m_lines[i];
  }
  return out;
}

}  // namespace rk::exporter

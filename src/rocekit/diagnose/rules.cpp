// The diagnosis rules: counter deltas -> causes. One function per cause; the table is in
// diagnose(). Sources: counters.csv "rule" column, monitoring.md §4 (M1..M11), host-facts §K.10.
#include <algorithm>
#include <cstdio>

#include "rocekit/diagnose/diagnose.hpp"

namespace rk::diagnose {

namespace {

std::string prio_name(const std::string& dir, int p, const std::string& suffix) {
  return dir + "_prio" + std::to_string(p) + suffix;
}

std::string fmt_rate(double r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", r);
  return buf;
}

struct Ctx {
  const LinkDeltas& link;
  const Policy& policy;
  const DiagnoseThresholds& t;
  Diagnosis& out;

  /// Delta > 0 of an ethtool counter.
  std::uint64_t eth(const std::string& name) const { return link.eth.delta(name).value_or(0); }
  std::uint64_t rdma(const std::string& name) const { return link.rdma.delta(name).value_or(0); }

  CounterEvidence ev(const CounterTable& table, const std::string& src, const std::string& name) const {
    CounterEvidence e;
    e.source = src;
    e.counter = name;
    if (const CounterDelta* d = table.find(name)) {
      e.delta = d->delta;
      e.rate_per_s = d->rate_per_s;
      e.status = std::string(to_string(d->status));
    } else {
      e.status = "absent";
    }
    return e;
  }
  CounterEvidence eth_ev(const std::string& n) const { return ev(link.eth, "eth", n); }
  CounterEvidence rdma_ev(const std::string& n) const { return ev(link.rdma, "rdma", n); }
  double eth_rate(const std::string& n) const {
    const CounterDelta* d = link.eth.find(n);
    return d ? d->rate_per_s : 0;
  }

  Cause& add(std::string id, Severity sev, Confidence conf, std::string summary,
             std::string next) {
    Cause c;
    c.id = std::move(id);
    c.subject = link.subject();
    c.severity = sev;
    c.confidence = conf;
    c.summary = std::move(summary);
    c.next_step = std::move(next);
    out.causes.push_back(std::move(c));
    return out.causes.back();
  }
  void unknown(std::string id, std::string reason) {
    out.unknowns.push_back(Unknown{std::move(id), link.subject(), std::move(reason)});
  }

  /// PFC on the RoCE priority: the snapshot's QoS state when known, else the presence of the
  /// rx_prio<R>_pause key (mlx5 prints it only for PFC-enabled priorities), else nullopt.
  std::optional<bool> pfc_on_roce(std::string* how) const {
    int r = policy.roce_priority;
    if (link.pfc_enabled && link.pfc_enabled->size() == 8) {
      *how = link.pfc_source.empty() ? "mlnx_qos PFC state" : "PFC state from " + link.pfc_source;
      return (*link.pfc_enabled)[static_cast<std::size_t>(r)];
    }
    if (!link.eth.available) return std::nullopt;
    bool any_prio_key = false;
    for (int p = 0; p < 8; ++p) any_prio_key = any_prio_key || link.eth.has(prio_name("rx", p, "_bytes"));
    if (link.eth.has(prio_name("rx", r, "_pause"))) {
      *how = "rx_prio" + std::to_string(r) + "_pause present in ethtool -S";
      return true;
    }
    if (any_prio_key) {
      *how = "rx_prio" + std::to_string(r) + "_pause absent from ethtool -S (mlx5 prints it only "
             "when PFC is on for that priority)";
      return false;
    }
    return std::nullopt;
  }
};

void rule_pause_storm(Ctx& c) {
  if (!c.link.eth.available) return;
  std::uint64_t err = c.eth("tx_pause_storm_error_events");
  std::uint64_t warn = c.eth("tx_pause_storm_warning_events");
  if (err > 0) {
    Cause& k = c.add("diag.pause-storm", Severity::critical, Confidence::high,
                     "pause storm: the NIC's stall prevention fired and disabled PFC TX; the "
                     "lossless guarantee was broken meanwhile (expect out_of_sequence/"
                     "packet_seq_err to follow)",
                     "find why this host cannot drain its receive buffer (outbound_pci_stalled_*, "
                     "rx_out_of_buffer, CPU/PCIe); review `ethtool --get-tunable <if> "
                     "pfc-prevention-tout`; on the switch check PFC watchdog events on this port");
    k.evidence = {c.eth_ev("tx_pause_storm_error_events"), c.eth_ev("tx_pause_storm_warning_events")};
  } else if (warn > 0) {
    Cause& k = c.add("diag.pause-storm", Severity::warning, Confidence::high,
                     "pause storm warning: the NIC kept sending pause past the minor stall "
                     "watermark (storm precursor)",
                     "correlate with outbound_pci_stalled_* and rx_out_of_buffer; check host "
                     "PCIe link (rocekit check rule pcie.link-at-capability) and driver health");
    k.evidence = {c.eth_ev("tx_pause_storm_warning_events")};
  }
  // Occupancy of tx pause on any priority (microseconds paused per second of window).
  for (int p = 0; p < 8; ++p) {
    std::string n = prio_name("tx", p, "_pause_duration");
    double occ = c.eth_rate(n) / 1e6;
    if (occ >= c.t.storm_occupancy) {
      Cause& k = c.add("diag.pause-storm", Severity::warning, Confidence::medium,
                       "this host held the peer paused on priority " + std::to_string(p) + " " +
                           fmt_rate(occ * 100) + "% of the window (pause storm origin)",
                       "find the host-side bottleneck (PCIe stalls, rx_out_of_buffer); check the "
                       "switch PFC watchdog on this port");
      k.evidence = {c.eth_ev(n), c.eth_ev(prio_name("tx", p, "_pause"))};
    }
  }
}

void rule_pfc_other_priority(Ctx& c) {
  if (!c.link.eth.available) return;
  int r = c.policy.roce_priority;
  for (int p = 0; p < 8; ++p) {
    if (p == r) continue;
    std::uint64_t rx = c.eth(prio_name("rx", p, "_pause"));
    std::uint64_t tx = c.eth(prio_name("tx", p, "_pause"));
    if (rx == 0 && tx == 0) continue;
    bool roce_moved = c.eth(prio_name("rx", r, "_pause")) + c.eth(prio_name("tx", r, "_pause")) > 0;
    Cause& k = c.add(
        "diag.pfc-non-roce-priority", Severity::warning, Confidence::high,
        "PFC pauses on priority " + std::to_string(p) + ", not the RoCE priority " +
            std::to_string(r) +
            (roce_moved ? "" : " (none on the RoCE priority)") +
            ": host and switch disagree on which priority is lossless or which priority RoCE "
            "uses (trust pcp vs dscp, DSCP->priority map)",
        "rocekit check rules qos.pfc-roce-priority, qos.pfc-only-roce-priority, qos.trust-dscp, "
        "qos.roce-dscp-priority; on the switch: PFC enabled on priority " +
            std::to_string(r) + " only, trust DSCP, DSCP " + std::to_string(c.policy.roce_dscp) +
            " -> priority " + std::to_string(r));
    k.evidence = {c.eth_ev(prio_name("rx", p, "_pause")), c.eth_ev(prio_name("tx", p, "_pause")),
                  c.eth_ev(prio_name("rx", r, "_pause")), c.eth_ev(prio_name("tx", r, "_pause"))};
  }
}

void rule_global_pause(Ctx& c) {
  if (!c.link.eth.available) return;
  std::uint64_t g = c.eth("rx_global_pause") + c.eth("tx_global_pause");
  std::uint64_t ctrl = c.eth("rx_pause_ctrl_phy") + c.eth("tx_pause_ctrl_phy");
  std::uint64_t prio_sum = 0;
  bool prio_keys = false;
  for (int p = 0; p < 8; ++p) {
    prio_sum += c.eth(prio_name("rx", p, "_pause")) + c.eth(prio_name("tx", p, "_pause"));
    prio_keys = prio_keys || c.link.eth.has(prio_name("rx", p, "_pause"));
  }
  std::string next =
      "rocekit check rule qos.global-pause-off; on the host `ethtool -A <if> rx off tx off` "
      "(and PFC on the RoCE priority with mlnx_qos); on the switch disable 802.3x flow control "
      "on this port";
  if (g > 0) {
    Cause& k = c.add("diag.global-pause", Severity::warning, Confidence::high,
                     "802.3x global pause frames are moving: the port pauses all traffic together "
                     "instead of PFC on the RoCE priority",
                     next);
    k.evidence = {c.eth_ev("rx_global_pause"), c.eth_ev("tx_global_pause"),
                  c.eth_ev("rx_pause_ctrl_phy"), c.eth_ev("tx_pause_ctrl_phy")};
  } else if (ctrl > 0 && !prio_keys) {
    Cause& k = c.add("diag.global-pause", Severity::warning, Confidence::medium,
                     "link-level PAUSE frames move and no per-priority pause counter exists: "
                     "global 802.3x pause in use rather than PFC",
                     next);
    k.evidence = {c.eth_ev("rx_pause_ctrl_phy"), c.eth_ev("tx_pause_ctrl_phy")};
  } else if (ctrl > prio_sum && prio_keys && prio_sum == 0) {
    Cause& k = c.add("diag.global-pause", Severity::warning, Confidence::low,
                     "link-level PAUSE frames move while no per-priority PFC counter does",
                     next);
    k.evidence = {c.eth_ev("rx_pause_ctrl_phy"), c.eth_ev("tx_pause_ctrl_phy")};
  }
}

/// PFC on the RoCE priority moving: without ECN/CNP it is M1; with CNPs it is healthy incast.
void rule_pfc_vs_ecn(Ctx& c) {
  if (!c.link.eth.available) return;
  int r = c.policy.roce_priority;
  std::string rxp = prio_name("rx", r, "_pause"), txp = prio_name("tx", r, "_pause");
  std::uint64_t pauses = c.eth(rxp) + c.eth(txp);
  if (pauses == 0) return;
  double rate = c.eth_rate(rxp) + c.eth_rate(txp);
  if (!c.link.rdma.available) {
    c.unknown("diag.pfc-without-ecn",
              "PFC pauses on priority " + std::to_string(r) + " moved (" + std::to_string(pauses) +
                  ") but there are no RDMA hw_counters to see ECN marks or CNPs: " +
                  c.link.rdma.reason);
    return;
  }
  bool has_cc = c.link.rdma.has("np_cnp_sent") || c.link.rdma.has("np_ecn_marked_roce_packets") ||
                c.link.rdma.has("rp_cnp_handled");
  if (!has_cc) {
    c.unknown("diag.pfc-without-ecn",
              "the RDMA counters lack np_ecn_marked_roce_packets/np_cnp_sent/rp_cnp_handled "
              "(cc_query_allowed not set, or a VF)");
    return;
  }
  std::uint64_t marked = c.rdma("np_ecn_marked_roce_packets");
  std::uint64_t cnp_sent = c.rdma("np_cnp_sent");
  std::uint64_t handled = c.rdma("rp_cnp_handled");
  std::uint64_t slow = c.rdma("roce_slow_restart_cnps");
  std::uint64_t real_handled = handled > slow ? handled - slow : 0;
  std::vector<CounterEvidence> ev = {c.eth_ev(rxp), c.eth_ev(txp),
                                     c.rdma_ev("np_ecn_marked_roce_packets"),
                                     c.rdma_ev("np_cnp_sent"), c.rdma_ev("rp_cnp_handled")};
  if (marked == 0 && cnp_sent == 0 && real_handled == 0) {
    if (rate < c.t.pfc_min_pause_per_s) return;
    Cause& k = c.add(
        "diag.pfc-without-ecn", Severity::warning, Confidence::medium,
        "PFC pauses on the RoCE priority " + std::to_string(r) + " (" + fmt_rate(rate) +
            "/s) with no ECN marks and no CNPs: congestion is handled only by pause (switch ECN "
            "off on the queue or its threshold above XOFF, or NIC ECN disabled)",
        "rocekit check rule qos.ecn-roce-priority (roce_np/roce_rp enable on priority " +
            std::to_string(r) +
            "); on the switch: ECN/WRED enabled on the RoCE queue with min/max thresholds below "
            "the PFC XOFF threshold; check the peers' rp_cnp_handled too");
    if (slow > 0) ev.push_back(c.rdma_ev("roce_slow_restart_cnps"));
    k.evidence = std::move(ev);
    return;
  }
  if (cnp_sent > 0 || real_handled > 0) {
    Cause& k = c.add("diag.incast-pfc-with-ecn", Severity::info, Confidence::high,
                     "PFC pauses on the RoCE priority " + std::to_string(r) +
                         " with ECN/CNPs flowing: lossless RoCE absorbing incast as designed "
                         "(not a fault)",
                     "none; watch the pause rate and retransmission counters over time");
    k.evidence = std::move(ev);
  }
}

void rule_ecn_no_cnp(Ctx& c) {
  if (!c.link.rdma.available) return;
  std::uint64_t marked = c.rdma("np_ecn_marked_roce_packets");
  if (marked == 0) return;
  if (!c.link.rdma.has("np_cnp_sent")) {
    c.unknown("diag.ecn-marks-no-cnp", "np_cnp_sent is absent from the RDMA counters");
    return;
  }
  if (c.rdma("np_cnp_sent") > 0) return;
  Cause& k = c.add("diag.ecn-marks-no-cnp", Severity::warning, Confidence::high,
                   "the switch marks RoCE packets with CE but this NIC (notification point) sends "
                   "no CNPs: the DCQCN loop is broken at the receiver",
                   "rocekit check rule qos.ecn-roce-priority: enable "
                   "/sys/class/net/<if>/ecn/roce_np/enable/" +
                       std::to_string(c.policy.roce_priority) +
                       " (persistent: ROCE_CC_PRIO_MASK_P<n> includes the RoCE priority)");
  k.evidence = {c.rdma_ev("np_ecn_marked_roce_packets"), c.rdma_ev("np_cnp_sent")};
}

void rule_cnp_ignored(Ctx& c) {
  if (!c.link.rdma.available) return;
  if (c.rdma("rp_cnp_ignored") == 0) return;
  Cause& k = c.add("diag.cnp-ignored", Severity::warning, Confidence::high,
                   "CNPs arrive but the reaction point ignores them: DCQCN RP disabled for the "
                   "priority the CNPs arrive on (NVIDIA: rp_cnp_ignored should not rise when RoCE "
                   "CC is enabled)",
                   "rocekit check rules qos.ecn-roce-priority and qos.cnp-dscp-priority: enable "
                   "roce_rp on priority " + std::to_string(c.policy.roce_priority) +
                       " and make the peers' CNP DSCP/priority (" +
                       std::to_string(c.policy.cnp_dscp) + " -> " +
                       std::to_string(c.policy.cnp_priority) + ") match the switch");
  k.evidence = {c.rdma_ev("rp_cnp_ignored"), c.rdma_ev("rp_cnp_handled")};
}

void rule_retransmission(Ctx& c) {
  static const std::vector<std::string> k_retrans{"out_of_sequence", "packet_seq_err",
                                                  "implied_nak_seq_err", "local_ack_timeout_err",
                                                  "roce_adp_retrans", "roce_adp_retrans_to",
                                                  "req_transport_retries_exceeded"};
  if (!c.link.rdma.available) {
    if (!c.link.rdma_port.empty() || c.link.eth.available)
      c.unknown("diag.retransmission", "no RDMA hw_counters: " + c.link.rdma.reason);
    return;
  }
  std::vector<CounterEvidence> ev;
  for (const std::string& n : k_retrans)
    if (c.rdma(n) > 0) ev.push_back(c.rdma_ev(n));
  if (ev.empty()) return;
  std::uint64_t fatal = c.rdma("req_transport_retries_exceeded");
  // Physical loss first (M7): don't blame PFC/ECN for a bad link.
  std::vector<CounterEvidence> phy;
  for (const char* n : {"rx_crc_errors_phy", "rx_symbol_err_phy", "rx_pcs_symbol_err_phy",
                        "link_down_events_phy"})
    if (c.eth(n) > 0) phy.push_back(c.eth_ev(n));
  if (!phy.empty()) {
    Cause& k = c.add("diag.physical-loss", fatal ? Severity::critical : Severity::warning,
                     Confidence::high,
                     "RoCE retransmissions with physical-layer errors on the link: the loss is "
                     "physical (cable, optic, port), not congestion",
                     "check the link: `mlxlink -d <dev> -c` (BER, FEC), reseat or replace the "
                     "cable/optic, switch port error counters");
    k.evidence = ev;
    k.evidence.insert(k.evidence.end(), phy.begin(), phy.end());
    return;
  }
  std::string how;
  std::optional<bool> pfc = c.pfc_on_roce(&how);
  int r = c.policy.roce_priority;
  std::vector<CounterEvidence> drops;
  for (const std::string& n : {std::string("rx_discards_phy"), prio_name("rx", r, "_discards")})
    if (c.eth(n) > 0) drops.push_back(c.eth_ev(n));
  Severity sev = fatal ? Severity::critical : Severity::warning;
  std::string fatal_txt = fatal ? "; req_transport_retries_exceeded rose: QPs went to error "
                                  "(connections failed)"
                                : "";
  if (pfc && !*pfc) {
    Cause& k = c.add("diag.lossy-retransmission", sev, Confidence::high,
                     "RoCE retransmissions/sequence errors with PFC off on the RoCE priority " +
                         std::to_string(r) + " (" + how +
                         "): lossy RoCE is dropping packets" + fatal_txt,
                     "rocekit check rule qos.pfc-roce-priority: `mlnx_qos -i <if> --pfc` with "
                     "priority " + std::to_string(r) +
                         " on, and PFC on the same priority on the switch port; if lossy RoCE is "
                         "intended, make sure ECN is marking (np_ecn_marked_roce_packets)");
    k.evidence = ev;
    k.evidence.insert(k.evidence.end(), drops.begin(), drops.end());
  } else if (pfc && *pfc) {
    Cause& k = c.add("diag.retransmission-despite-pfc", sev, Confidence::medium,
                     "RoCE retransmissions/sequence errors although PFC is on for priority " +
                         std::to_string(r) + " (" + how +
                         "): drops despite PFC (headroom/cable length, RoCE classified into "
                         "another priority, a drop on another hop, or storm prevention)" +
                         fatal_txt,
                     "rocekit check rules qos.trust-dscp, qos.roce-dscp-priority; check buffer "
                     "headroom (`mlnx_qos -i <if> --cable_len`), the peers' out_of_sequence, and "
                     "switch drop counters on the RoCE queue");
    k.evidence = ev;
    k.evidence.insert(k.evidence.end(), drops.begin(), drops.end());
  } else {
    Cause& k = c.add("diag.retransmission", sev, Confidence::low,
                     "RoCE retransmissions/sequence errors (PFC state of the RoCE priority "
                     "unknown: no mlnx_qos and no per-priority ethtool -S counters)" + fatal_txt,
                     "capture `mlnx_qos -i <if>` and `ethtool -S <if>` to tell lossy RoCE (PFC "
                     "off) from drops despite PFC; rocekit check rule qos.pfc-roce-priority");
    k.evidence = ev;
  }
}

void rule_discards(Ctx& c) {
  if (!c.link.eth.available) return;
  int r = c.policy.roce_priority;
  std::vector<CounterEvidence> nic;
  if (c.eth("rx_discards_phy") > 0) nic.push_back(c.eth_ev("rx_discards_phy"));
  for (int p = 0; p < 8; ++p)
    for (const char* suf : {"_discards", "_buf_discard", "_cong_discard"})
      if (c.eth(prio_name("rx", p, suf)) > 0) nic.push_back(c.eth_ev(prio_name("rx", p, suf)));
  if (!nic.empty()) {
    std::uint64_t tx_pause_roce = c.eth(prio_name("tx", r, "_pause"));
    std::string summary =
        "the NIC dropped received packets for lack of buffer" +
        std::string(tx_pause_roce == 0 ? " while it sent no PFC pause on the RoCE priority: PFC "
                                         "is not protecting this traffic (disabled, or the "
                                         "traffic is in another priority)"
                                       : " although it sent PFC pauses: headroom/XOFF too small "
                                         "for cable length and MTU");
    Cause& k = c.add("diag.nic-rx-discards", Severity::warning,
                     tx_pause_roce == 0 ? Confidence::medium : Confidence::low, summary,
                     "rocekit check rules qos.pfc-roce-priority and qos.trust-dscp; buffer "
                     "headroom `mlnx_qos -i <if> --cable_len=<m>`; per-TC buf/cong discards point "
                     "at the NIC buffer split (`mlnx_qos --buffer_size`)");
    k.evidence = std::move(nic);
    k.evidence.push_back(c.eth_ev(prio_name("tx", r, "_pause")));
  }
  if (c.eth("rx_out_of_buffer") > 0) {
    Cause& k = c.add("diag.host-rx-out-of-buffer", Severity::warning, Confidence::medium,
                     "Ethernet receive queues ran out of posted buffers: the host/driver does "
                     "not keep up (kernel netdev path, not RDMA)",
                     "check IRQ/CPU load and NUMA placement (rocekit check rules irq.coalescing, "
                     "irq.channels-numa), ring sizes (`ethtool -g`)");
    k.evidence = {c.eth_ev("rx_out_of_buffer"), c.eth_ev(prio_name("tx", r, "_pause"))};
  }
}

/// What the per-priority counters say about RoCE in one direction ("rx" or "tx").
struct DirectionView {
  std::string dir;
  bool judged = false;      ///< RDMA active (or not known) and only other priorities moved
  bool gate_known = false;  ///< an RDMA volume counter of this direction is in both samples
  bool on_policy = false;   ///< the RoCE priority moved, RDMA active or not known
  std::vector<int> moved;   ///< priorities other than the RoCE priority whose bytes moved
  std::vector<CounterEvidence> gate;  ///< the RDMA volume counters that moved
};

/// The RDMA volume of one direction: the vport RDMA counters of ethtool -S (en_stats.c
/// vport_stats_desc: received_ib_unicast / transmitted_ib_unicast), the RDMA port counters mlx5
/// fills from the same vport counters (drivers/infiniband/hw/mlx5/mad.c pma_cnt_ext_assign:
/// port_rcv_data, port_xmit_data), and for rx the requests received (hw_counters). Plain TCP on a
/// priority moves none of them.
DirectionView direction_view(const Ctx& c, const std::string& dir) {
  DirectionView v;
  v.dir = dir;
  int r = c.policy.roce_priority;
  const CounterTable& e = c.link.eth;
  if (!e.available || !e.delta(prio_name(dir, r, "_bytes"))) return v;
  bool rx = dir == "rx";
  std::vector<std::pair<const CounterTable*, std::string>> gate = {
      {&e, dir + "_vport_rdma_unicast_bytes"}, {&e, dir + "_vport_rdma_unicast_packets"}};
  for (const char* n : rx ? std::vector<const char*>{"port_rcv_data", "port_rcv_packets",
                                                     "rx_write_requests", "rx_read_requests",
                                                     "rx_atomic_requests"}
                          : std::vector<const char*>{"port_xmit_data", "port_xmit_packets"})
    gate.emplace_back(&c.link.rdma, n);
  bool active = false;
  for (const auto& [t, n] : gate) {
    std::optional<std::uint64_t> d = t->delta(n);
    if (!d) continue;
    v.gate_known = true;
    if (*d == 0) continue;
    active = true;
    v.gate.push_back(c.ev(*t, t == &e ? "eth" : "rdma", n));
  }
  if (v.gate_known && !active) return v;  // only non-RDMA traffic in this direction: fine
  v.on_policy = c.eth(prio_name(dir, r, "_bytes")) > 0 || c.eth(prio_name(dir, r, "_packets")) > 0;
  for (int p = 0; p < 8; ++p)
    if (p != r && c.eth(prio_name(dir, p, "_bytes")) > 0) v.moved.push_back(p);
  v.judged = !v.on_policy && !v.moved.empty();
  return v;
}

std::string priorities_text(const std::vector<int>& ps) {
  std::string s = ps.size() == 1 ? "priority " : "priorities ";
  for (std::size_t i = 0; i < ps.size(); ++i) s += (i ? ", " : "") + std::to_string(ps[i]);
  return s;
}

/// RoCE volume on a priority other than the policy's, per direction: priority 0 is
/// diag.roce-in-priority-0 (the lossy default queue), any other diag.roce-off-policy-priority.
/// Judged only where the RoCE priority saw nothing in that direction, so plain TCP on priority 0
/// beside RoCE on the RoCE priority is never blamed.
void rule_roce_priority(Ctx& c) {
  if (!c.link.eth.available) return;
  int r = c.policy.roce_priority;
  std::string rs = std::to_string(r);
  std::string tc = std::to_string(c.policy.roce_dscp * 4);
  std::string dscp = std::to_string(c.policy.roce_dscp);
  const DirectionView views[] = {direction_view(c, "rx"), direction_view(c, "tx")};
  for (bool zero : {true, false}) {
    if (zero && r == 0) continue;
    // Per direction: the offending priorities of this cause, and the others that moved too.
    std::vector<std::pair<const DirectionView*, std::vector<int>>> off;
    bool ambiguous = false, gate_unknown = false;
    for (const DirectionView& v : views) {
      if (!v.judged) continue;
      std::vector<int> mine;
      for (int p : v.moved)
        if ((p == 0) == zero) mine.push_back(p);
      if (mine.empty()) continue;
      ambiguous = ambiguous || mine.size() != v.moved.size();
      gate_unknown = gate_unknown || !v.gate_known;
      off.emplace_back(&v, std::move(mine));
    }
    if (off.empty()) continue;
    const DirectionView* other = nullptr;  // the direction that is fine, when only one is off
    if (off.size() == 1)
      for (const DirectionView& v : views)
        if (&v != off[0].first && v.on_policy) other = &v;
    bool tx_off = off[0].first->dir == "tx";
    std::string what;
    if (off.size() == 2 && off[0].second == off[1].second)
      what = "transmitted and received RoCE ride " + priorities_text(off[0].second) +
             ", none on priority " + rs;
    else
      for (const auto& [v, ps] : off)
        what += std::string(what.empty() ? "" : "; ") +
                (v->dir == "tx" ? "transmitted RoCE leaves on " : "received RoCE lands in ") +
                priorities_text(ps) + ", none " + (v->dir == "tx" ? "on" : "in") +
                " priority " + rs;
    if (ambiguous)
      what += zero ? " (another non-RoCE priority moved too: RoCE may ride that one)"
                   : " (priority 0 moved too: RoCE or other traffic)";
    what += gate_unknown ? " (RDMA activity unknown: may be plain TCP/UDP)"
                         : ", with RDMA traffic flowing";
    std::string why;
    if (other && tx_off)
      why = ", while received RoCE arrives on priority " + rs +
            ": this host marks its RoCE differently from the peer (a traffic class applied in "
            "one direction only: the application's traffic class/DSCP, or this host's "
            "DSCP->priority map)";
    else if (other)
      why = ", while transmitted RoCE leaves on priority " + rs +
            ": the peer (or its application) marks RoCE differently from this host, or the "
            "switch rewrites its DSCP/PCP (a traffic class applied in one direction only)";
    else if (zero)
      why = ": RoCE rides the lossy default queue (trust pcp vs dscp, or the DSCP->priority map "
            "differs from the switch)";
    else
      why = ": RoCE misses the PFC and ECN set for priority " + rs +
            " (the RoCE DSCP maps to another priority here or on the switch, or the senders mark "
            "another DSCP/PCP)";
    std::string senders = other && !tx_off ? "the peer's senders" : "senders";
    std::string next =
        (zero ? "rocekit check rules qos.trust-dscp and qos.roce-dscp-priority (`mlnx_qos -i <if> "
                "--trust dscp`)"
              : "rocekit check rule qos.roce-dscp-priority (`mlnx_qos -i <if> --dscp2prio set," +
                    dscp + "," + rs + "`)") +
        "; " + senders + ": RoCE DSCP " + dscp + " (traffic class " + tc +
        ": UCX_IB_TRAFFIC_CLASS, NCCL_IB_TC, the RDMA-CM default ToS)" +
        (other && !tx_off ? ", and compare the peer's tx_prio<N>_bytes" : "") +
        "; switch: trust DSCP and the same DSCP->priority map" +
        (zero ? "" : "; if the other priority is intended, set the policy's roce.priority");
    Cause& k = c.add(zero ? "diag.roce-in-priority-0" : "diag.roce-off-policy-priority",
                     Severity::warning,
                     gate_unknown ? Confidence::low
                                  : (ambiguous ? Confidence::medium : Confidence::high),
                     what + why, next);
    for (const auto& [v, ps] : off) {
      for (int p : v->moved) {
        k.evidence.push_back(c.eth_ev(prio_name(v->dir, p, "_bytes")));
        k.evidence.push_back(c.eth_ev(prio_name(v->dir, p, "_packets")));
      }
      k.evidence.push_back(c.eth_ev(prio_name(v->dir, r, "_bytes")));
      k.evidence.push_back(c.eth_ev(prio_name(v->dir, r, "_packets")));
      k.evidence.insert(k.evidence.end(), v->gate.begin(), v->gate.end());
    }
    if (other) {
      k.evidence.push_back(c.eth_ev(prio_name(other->dir, r, "_bytes")));
      k.evidence.insert(k.evidence.end(), other->gate.begin(), other->gate.end());
    }
  }
}

int rank(const Cause& c) {
  return static_cast<int>(c.severity) * 10 + static_cast<int>(c.confidence);
}

double top_rate(const Cause& c) {
  double m = 0;
  for (const CounterEvidence& e : c.evidence) m = std::max(m, e.rate_per_s);
  return m;
}

}  // namespace

bool Diagnosis::has_fault() const {
  return std::any_of(causes.begin(), causes.end(),
                     [](const Cause& c) { return c.severity >= Severity::warning; });
}

Diagnosis diagnose(const Window& w, const Policy& policy) {
  Diagnosis d;
  d.window = w;
  d.roce_priority = policy.roce_priority;
  for (const LinkDeltas& l : w.links) {
    if (!l.eth.available && !l.rdma.available) {
      d.unknowns.push_back(Unknown{"diag.all", l.subject(),
                                   l.eth.reason + (l.rdma.reason.empty() ? "" : "; " + l.rdma.reason)});
      continue;
    }
    Ctx c{l, policy, policy.diagnose, d};
    rule_pause_storm(c);
    rule_pfc_other_priority(c);
    rule_global_pause(c);
    rule_pfc_vs_ecn(c);
    rule_ecn_no_cnp(c);
    rule_cnp_ignored(c);
    rule_retransmission(c);
    rule_discards(c);
    rule_roce_priority(c);
  }
  std::stable_sort(d.causes.begin(), d.causes.end(), [](const Cause& a, const Cause& b) {
    if (rank(a) != rank(b)) return rank(a) > rank(b);
    return top_rate(a) > top_rate(b);
  });
  return d;
}

}  // namespace rk::diagnose

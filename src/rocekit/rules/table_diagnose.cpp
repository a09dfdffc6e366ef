// The diagnosis rules (`rocekit diagnose`): rows of the one rule registry (rule.hpp). Evaluated
// by diagnose::diagnose (src/rocekit/diagnose/rules.cpp) on counter deltas between samples.
// Outcomes: fail = a cause at warning or above is reported; pass = no such cause (an info cause
// describes healthy behaviour); unknown = the rule is listed under the report's unknowns with the
// reason. The severity is the highest a cause of the rule can have.
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

constexpr std::string_view k_link = "link (netdev and its RDMA port)";
constexpr std::string_view k_counters =
    "Linux Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst (ethtool "
    "-S counters); NVIDIA \"Understanding mlx5 Linux Counters and Status Parameters\" (RDMA "
    "port counters and hw_counters)";

constexpr std::string_view k_prio_inputs =
    "ethtool -S rx_prio<N>_bytes, rx_prio<N>_packets, tx_prio<N>_bytes, tx_prio<N>_packets, "
    "rx_vport_rdma_unicast_bytes/packets, tx_vport_rdma_unicast_bytes/packets; RDMA counters "
    "port_rcv_data, port_rcv_packets, port_xmit_data, port_xmit_packets; RDMA hw_counters "
    "rx_write_requests, rx_read_requests, rx_atomic_requests";

}  // namespace

void add_diagnose_rules(std::vector<RuleInfo>& out) {
  const OutcomeSet pf{Outcome::pass, Outcome::fail};
  const OutcomeSet pfu{Outcome::pass, Outcome::fail, Outcome::unknown};
  auto row = [&](std::string_view id, std::string_view title, Severity sev, std::string_view why,
                 OutcomeSet outcomes, std::string_view inputs) {
    out.push_back({.id = id, .title = title, .severity = sev, .subject = k_link,
                   .rationale = why, .seed = k_counters, .outcomes = outcomes, .inputs = inputs,
                   .family = Family::diagnose});
  };
  row("diag.pause-storm", "No pause storm: PFC stall prevention did not fire", Severity::critical,
      "A NIC that cannot drain its receive buffer keeps the peer paused; the stall prevention then "
      "disables PFC TX and the lossless guarantee is broken until it recovers.",
      pf, "ethtool -S tx_pause_storm_error_events, tx_pause_storm_warning_events, "
          "tx_prio<N>_pause_duration");
  row("diag.pfc-non-roce-priority", "PFC pauses move only on the RoCE priority", Severity::warning,
      "Pauses on another priority mean host and switch disagree on which priority is lossless or "
      "which priority RoCE uses.",
      pf, "ethtool -S rx_prio<N>_pause, tx_prio<N>_pause");
  row("diag.global-pause", "No 802.3x global pause frames", Severity::warning,
      "Global pause stops every traffic class together instead of PFC on the RoCE priority.", pf,
      "ethtool -S rx_global_pause, tx_global_pause, rx_pause_ctrl_phy, tx_pause_ctrl_phy, "
      "rx_prio<N>_pause");
  row("diag.pfc-without-ecn", "PFC pauses on the RoCE priority come with ECN marks or CNPs",
      Severity::warning,
      "Congestion handled only by pause (no ECN marks, no CNPs) spreads head-of-line blocking; "
      "DCQCN should slow senders before PFC fires.",
      pfu, "ethtool -S rx/tx_prio<R>_pause; RDMA hw_counters np_ecn_marked_roce_packets, "
           "np_cnp_sent, rp_cnp_handled, roce_slow_restart_cnps");
  row("diag.incast-pfc-with-ecn", "PFC pauses with ECN and CNPs flowing (incast, healthy)",
      Severity::info,
      "Pauses on the RoCE priority while CNPs flow are lossless RoCE absorbing incast as designed; "
      "reported as information, not a fault.",
      OutcomeSet{Outcome::pass}, "ethtool -S rx/tx_prio<R>_pause; RDMA hw_counters np_cnp_sent, "
                                 "rp_cnp_handled");
  row("diag.ecn-marks-no-cnp", "ECN-marked RoCE packets are answered with CNPs", Severity::warning,
      "A notification point that receives CE marks but sends no CNPs breaks the DCQCN loop: "
      "senders never slow down.",
      pfu, "RDMA hw_counters np_ecn_marked_roce_packets, np_cnp_sent");
  row("diag.cnp-ignored", "Received CNPs are not ignored", Severity::warning,
      "rp_cnp_ignored rises when DCQCN RP is disabled for the priority the CNPs arrive on: the "
      "sender does not react to congestion.",
      pf, "RDMA hw_counters rp_cnp_ignored, rp_cnp_handled");
  row("diag.retransmission", "No RoCE retransmissions (PFC state unknown)", Severity::critical,
      "Retransmissions and sequence errors cost bandwidth and latency; without the PFC state of "
      "the RoCE priority rocekit cannot tell lossy RoCE from drops despite PFC.",
      pfu, "RDMA hw_counters out_of_sequence, packet_seq_err, implied_nak_seq_err, "
           "local_ack_timeout_err, roce_adp_retrans, roce_adp_retrans_to, "
           "req_transport_retries_exceeded");
  row("diag.physical-loss", "No RoCE retransmissions with physical-layer errors",
      Severity::critical,
      "Retransmissions together with CRC / symbol errors or link flaps point at the cable, optic or "
      "port, not at congestion.",
      pf, "RDMA hw_counters (retransmission counters); ethtool -S rx_crc_errors_phy, "
          "rx_symbol_err_phy, rx_pcs_symbol_err_phy, link_down_events_phy");
  row("diag.lossy-retransmission", "No RoCE retransmissions with PFC off on the RoCE priority",
      Severity::critical,
      "With PFC off on the RoCE priority, congestion drops RoCE packets and go-back-N "
      "retransmission collapses throughput.",
      pf, "RDMA hw_counters (retransmission counters); PFC state (mlnx_qos / sysfs qos) or the "
          "presence of ethtool -S rx_prio<R>_pause");
  row("diag.retransmission-despite-pfc", "No RoCE retransmissions although PFC is on",
      Severity::critical,
      "Drops despite PFC come from too little headroom, RoCE classified into another priority, a "
      "drop on another hop, or storm prevention.",
      pf, "RDMA hw_counters (retransmission counters); PFC state (mlnx_qos / sysfs qos) or the "
          "presence of ethtool -S rx_prio<R>_pause");
  row("diag.nic-rx-discards", "The NIC drops no received packets for lack of buffer",
      Severity::warning,
      "Receive discards on a lossless class mean PFC is not protecting the traffic or the "
      "headroom is too small for the cable length and MTU.",
      pf, "ethtool -S rx_discards_phy, rx_prio<N>_discards, rx_prio<N>_buf_discard, "
          "rx_prio<N>_cong_discard, tx_prio<R>_pause");
  row("diag.host-rx-out-of-buffer", "Ethernet receive queues do not run out of buffers",
      Severity::warning,
      "rx_out_of_buffer counts packets dropped because the driver had no posted receive buffer: "
      "the host does not keep up (kernel netdev path, not RDMA).",
      pf, "ethtool -S rx_out_of_buffer");
  row("diag.roce-in-priority-0", "RoCE does not ride priority 0", Severity::warning,
      "RoCE bytes in priority 0 while the RoCE priority sees none in that direction, with RDMA "
      "flowing, mean RoCE rides the lossy default queue (trust pcp, or a DSCP map that differs "
      "from the switch); in one direction only, the two ends mark RoCE differently.",
      pf, k_prio_inputs);
  row("diag.roce-off-policy-priority", "RoCE does not ride a priority other than the policy's",
      Severity::warning,
      "RoCE bytes in a priority other than 0 and the RoCE priority, while the RoCE priority sees "
      "none in that direction, with RDMA flowing, mean RoCE misses the PFC and ECN set for the "
      "RoCE priority (the RoCE DSCP maps to another priority, or the senders mark another "
      "DSCP/PCP).",
      pf, k_prio_inputs);
}

}  // namespace rk::rules

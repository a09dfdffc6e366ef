// The switch alignment rules (`rocekit switch check`): rows of the one rule registry
// (rule.hpp). Evaluated by switchcfg::check_alignment (src/rocekit/switchcfg/alignment.cpp).
// Rules: shared/reference/switch/switch.md §"Consistency rules the audit can evaluate".
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

void add_switch_rules(std::vector<RuleInfo>& out) {
  out.push_back({
      .id = "switch.trust-dscp",
      .title = "Switch port and host classify RoCE on the same field (DSCP)",
      .severity = Severity::error,
      .subject = "switch port <-> netdev",
      .rationale = "A host with trust dscp marks RoCE only by DSCP; a switch port that classifies on the 802.1p "
          "PCP (or has no DSCP map bound) puts those packets in its default class, which is lossy.",
      .seed = "switch.md rule 1, §0 row Trust mode",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "host trust state (mlnx_qos / dcbnl); switch port trust or bound DSCP map",
      .family = Family::switch_port,
      .host_fix = "mlnx_qos -i <netdev> --trust dscp (or VLAN-tag RoCE with the PCP the switch trusts).",
      .switch_fix = "Bind a DSCP map to the port: SONiC PORT_QOS_MAP|<port>.dscp_to_tc_map; NVUE `nv set qos "
          "mapping default-global trust both`; EOS `qos trust dscp`.",
  });
  out.push_back({
      .id = "switch.roce-lossless",
      .title = "RoCE DSCP lands in a PFC-enabled queue paused by the host's priority",
      .severity = Severity::critical,
      .subject = "switch port <-> netdev",
      .rationale = "RoCE is lossless only if the switch maps the RoCE DSCP to a class with PFC on, and a PAUSE for "
          "the host's RoCE priority stops the queue that carries that DSCP. Community SONiC's default "
          "map sends DSCP 26 to lossy TC1 while PFC is on 3,4: an NVIDIA-default host behind it drops "
          "RoCE under congestion.",
      .seed = "switch.md rule 2; Key finding 1",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "host DSCP-to-priority map and PFC priorities; switch DSCP-to-TC map, TC-to-priority map and PFC priorities of the port",
      .family = Family::switch_port,
      .host_fix = "Make the host's RoCE DSCP map to the priority the switch treats as lossless "
          "(mlnx_qos -i <netdev> --dscp2prio set,<dscp>,<prio>) and enable PFC on it "
          "(mlnx_qos --pfc).",
      .switch_fix = "Map the RoCE DSCP to the lossless traffic class (SONiC DSCP_TO_TC_MAP|<map> \"26\": \"3\"; "
          "NVUE `nv set qos mapping default-global dscp 26 switch-priority 3`; EOS `qos map dscp 26 to "
          "traffic-class 3`) and enable PFC on the host's priority (SONiC pfc_enable; NVUE `nv set qos "
          "pfc default-global switch-priority 3`; EOS `priority-flow-control priority 3 no-drop`).",
  });
  out.push_back({
      .id = "switch.roce-buffer-lossless",
      .title = "The RoCE priority group has a lossless buffer profile",
      .severity = Severity::error,
      .subject = "switch port <-> netdev",
      .rationale = "PFC needs ingress headroom: a priority group with a lossy profile cannot generate PAUSE in "
          "time and drops instead.",
      .seed = "switch.md rule 2, §1.3",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "switch DSCP-to-TC and TC-to-priority-group maps and the buffer profile of the RoCE priority group",
      .family = Family::switch_port,
      .host_fix = "None (switch-side buffer).",
      .switch_fix = "SONiC: BUFFER_PG|<port>|<pg> -> a pg_lossless_* profile or \"NULL\" (dynamic), normally "
          "created by buffermgrd for the pfc_enable priorities; NVUE: a lossless RoCE mode; EOS: "
          "no-drop priority (platform headroom).",
  });
  out.push_back({
      .id = "switch.roce-ecn",
      .title = "ECN marking is on for the queue that carries RoCE",
      .severity = Severity::error,
      .subject = "switch port <-> netdev",
      .rationale = "DCQCN needs the switch to mark CE on the RoCE queue; without it senders only slow down via "
          "PFC. With WRED on and host ECN off, non-ECT RoCE packets are dropped instead of marked.",
      .seed = "switch.md rule 3; §5 failure modes 7, 8",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "host ECN (roce_rp / roce_np enable for the RoCE priority); switch queue of the RoCE DSCP and its WRED / ECN profile",
      .family = Family::switch_port,
      .host_fix = "echo 1 > /sys/class/net/<netdev>/ecn/roce_np/enable/<prio> and .../roce_rp/enable/<prio>.",
      .switch_fix = "SONiC: QUEUE|<port>|<q>.wred_profile -> WRED_PROFILE with ecn ecn_all; NVUE `nv set qos "
          "congestion-control default-global traffic-class <q> ecn enable`; EOS `tx-queue <q>` / "
          "`random-detect ecn minimum-threshold ... maximum-threshold ...`.",
  });
  out.push_back({
      .id = "switch.cnp-queue",
      .title = "CNP DSCP lands in a non-lossless, strict or highest-weight queue",
      .severity = Severity::warning,
      .subject = "switch port <-> netdev",
      .rationale = "CNPs are the congestion signal: they must not wait behind the congested RoCE queue nor be "
          "paused by PFC, or DCQCN reacts late.",
      .seed = "switch.md rule 4; Key finding 3",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "host CNP DSCP (firmware CNP_DSCP_P<n>, else the policy); switch DSCP-to-TC map, PFC priorities and the CNP queue scheduler",
      .family = Family::switch_port,
      .host_fix = "Set the firmware CNP DSCP to the one the switch prioritises (mstconfig set CNP_DSCP_P<n>).",
      .switch_fix = "Map the CNP DSCP to its own traffic class without PFC and give its queue strict priority "
          "(SONiC SCHEDULER type STRICT; NVUE RoCE profile TC6 strict; EOS `tx-queue N` / `priority "
          "strict`).",
  });
  out.push_back({
      .id = "switch.mtu",
      .title = "Switch port MTU carries the host's frames",
      .severity = Severity::error,
      .subject = "switch port <-> netdev",
      .rationale = "A switch port MTU below the host netdev MTU drops full-size RoCE packets (active MTU 4096 "
          "needs an IP MTU of at least 4200). Both MTUs compared are L3 (IP) MTUs: SONiC PORT.mtu, NVUE "
          "link mtu and EOS mtu exclude the Ethernet header, like Linux.",
      .seed = "switch.md rule 5, §4.1 MTU",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "host netdev MTU; switch port MTU",
      .family = Family::switch_port,
      .host_fix = "ip link set <netdev> mtu <= the switch MTU (and >= policy netdev_mtu_min_bytes).",
      .switch_fix = "SONiC `config interface mtu <port> 9100`; NVUE `nv set interface <port> link mtu 9216`; EOS "
          "`mtu 9214`.",
  });
  out.push_back({
      .id = "switch.pfc-watchdog",
      .title = "PFC watchdog covers every lossless priority of the port",
      .severity = Severity::warning,
      .subject = "switch port <-> netdev",
      .rationale = "A NIC stuck sending PAUSE (a PFC storm) freezes the lossless class across the fabric; the "
          "watchdog drops or forwards the stormed queue instead.",
      .seed = "switch.md rule 6, §1.2 PFC watchdog defaults",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown, Outcome::not_applicable},
      .inputs = "switch PFC priorities and PFC watchdog of the port",
      .family = Family::switch_port,
      .host_fix = "None (switch-side).",
      .switch_fix = "SONiC `config pfcwd start_default` (pfcwd_sw_enable must include pfc_enable); EOS "
          "`priority-flow-control pause watchdog`; NVUE: see the NVUE PFC watchdog docs.",
  });
  out.push_back({
      .id = "switch.extra-lossless",
      .title = "Switch lossless priorities equal the host's PFC priorities",
      .severity = Severity::info,
      .subject = "switch port <-> netdev",
      .rationale = "Extra lossless priorities on the switch (SONiC default 3,4 vs host 3) are harmless but "
          "reserve headroom and can spread pause to traffic the host treats as lossy.",
      .seed = "switch.md rule 7",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "host PFC priorities; switch PFC priorities of the port",
      .family = Family::switch_port,
      .host_fix = "Enable PFC on the host only for priorities that carry RoCE.",
      .switch_fix = "Trim pfc_enable / no-drop priorities to the RoCE priority, if nothing else needs them.",
  });
}

}  // namespace rk::rules

// Per-outcome cases of the QoS host rules (rules/qos_rules.cpp) on hand-built snapshots: netdev
// eth4 at 0000:3b:00.0 (trust dscp, DSCP 26 -> 3, 48 -> 6, PFC on 3, global pause off, ECN RP/NP
// on 3, firmware ROCE_CC_PRIO_MASK_P1 = 255, CNP DSCP 48 / priority 6), changed one way per case.
#include "host_cases.hpp"
#include "rocekit/model/bluefield.hpp"

namespace rk::testcases {
namespace {

Snapshot healthy() {
  Snapshot s = with_nv({nv("ROCE_CC_PRIO_MASK_P1", "255"), nv("CNP_DSCP_P1", "48"), nv("CNP_802P_PRIO_P1", "6")});
  NetDev& n = s.netdev("eth4");
  n.bdf = "0000:3b:00.0";
  QosState q;
  q.trust = Trust::dscp;
  for (int d = 0; d < 64; ++d) q.dscp_to_priority[d] = d >> 3;
  q.pfc_enabled = std::vector<bool>{false, false, false, true, false, false, false, false};
  q.trust_source = q.dscp_source = q.pfc_source = {"mlnx_qos@eth4.txt", 2, "hand-built"};
  n.qos.value = q;
  n.pause.value = PauseState{false, false, false};
  EcnState e;
  e.rp_enabled[3] = e.np_enabled[3] = true;
  n.ecn.value = e;
  return s;
}

Snapshot changed(const std::function<void(NetDev&)>& f) {
  Snapshot s = healthy();
  f(s.netdevs.front());
  return s;
}

Snapshot ipoib() {
  Snapshot s;
  s.netdev("ib0").mtu_bytes.value = 2044;
  return s;
}

Snapshot no_qos() {
  return changed([](NetDev& n) { n.qos = Collected<QosState>::missing("no mlnx_qos in the input"); });
}

/// The healthy host with 0000:3b:00.0 a BlueField: its NV query adds `rows` (the DPU-mode value
/// INTERNAL_CPU_MODEL EMBEDDED_CPU(1) is the BlueField-2 MBF2H512C-AECO's in Mellanox/mstflint
/// issue 830, testdata/corpus/mlxconfig).
Snapshot bluefield_host(std::vector<NvParam> rows) {
  Snapshot s = healthy();
  for (NvParam& r : rows) s.pci_functions.front().nv_config.value->params.push_back(std::move(r));
  fill_bluefield_modes(s);
  return s;
}
Snapshot dpu_mode_host() { return bluefield_host({nv("INTERNAL_CPU_MODEL", "EMBEDDED_CPU(1)")}); }
/// BlueField-3 NIC mode: INTERNAL_CPU_OFFLOAD_ENGINE DISABLED(1) (mstflint mlxconfig_host.db).
Snapshot nic_mode_host() {
  return bluefield_host({nv("INTERNAL_CPU_MODEL", "EMBEDDED_CPU(1)"), nv("INTERNAL_CPU_OFFLOAD_ENGINE", "DISABLED(1)")});
}
/// A capture of the Arm side of a BlueField in DPU mode: the healthy netdev as uplink p0 and as
/// host PF representor pf0hpf, the Arm OS kernel flavour.
Snapshot arm_side() {
  Snapshot s = healthy();
  NetDev rep = s.netdevs.front();
  s.netdevs.front().name = "p0";
  rep.name = "pf0hpf";
  s.netdevs.push_back(rep);
  s.kernel_release.value = "5.15.0-1035-bluefield";
  return s;
}

void pfc(NetDev& n, std::vector<bool> v) { n.qos.value->pfc_enabled = std::move(v); }

const std::vector<bool> k_pfc_off(8, false);
const std::vector<bool> k_pfc_3_4{false, false, false, true, true, false, false, false};

const Cases k_cases{
    host_case("qos.trust-dscp", Outcome::pass, "eth4", "trust dscp", healthy),
    host_case("qos.trust-dscp", Outcome::fail, "eth4", "trust pcp, policy dscp",
              [] { return changed([](NetDev& n) { n.qos.value->trust = Trust::pcp; }); }),
    host_case("qos.trust-dscp", Outcome::unknown, "eth4", "trust state not collected: no mlnx_qos", no_qos),
    host_case("qos.trust-dscp", Outcome::not_applicable, "ib0", "IPoIB netdev", ipoib),
    host_case("qos.roce-dscp-priority", Outcome::pass, "eth4", "RoCE DSCP 26 -> priority 3", healthy),
    host_case("qos.roce-dscp-priority", Outcome::fail, "eth4", "RoCE DSCP 26 -> priority 0, policy priority 3",
              [] { return changed([](NetDev& n) { n.qos.value->dscp_to_priority[26] = 0; }); }),
    host_case("qos.roce-dscp-priority", Outcome::unknown, "eth4", "does not list DSCP 26",
              [] { return changed([](NetDev& n) { n.qos.value->dscp_to_priority.erase(26); }); }),
    host_case("qos.roce-dscp-priority", Outcome::not_applicable, "ib0", "IPoIB netdev", ipoib),
    host_case("qos.cnp-dscp-priority", Outcome::pass, "eth4", "CNP DSCP 48 -> priority 6", healthy),
    host_case("qos.cnp-dscp-priority", Outcome::fail, "eth4", "CNP DSCP 48 -> priority 3, policy priority 6",
              [] { return changed([](NetDev& n) { n.qos.value->dscp_to_priority[48] = 3; }); }),
    host_case("qos.cnp-dscp-priority", Outcome::unknown, "eth4", "DSCP map not collected", no_qos),
    host_case("qos.cnp-dscp-priority", Outcome::not_applicable, "ib0", "IPoIB netdev", ipoib),
    host_case("qos.pfc-roce-priority", Outcome::pass, "eth4", "PFC enabled", healthy),
    host_case("qos.pfc-roce-priority", Outcome::fail, "eth4", "PFC is off on RoCE priority 3",
              [] { return changed([](NetDev& n) { pfc(n, k_pfc_off); }); }),
    host_case("qos.pfc-roce-priority", Outcome::unknown, "eth4", "the output shows no PFC configuration",
              [] { return changed([](NetDev& n) { n.qos.value->pfc_enabled.reset(); }); }),
    host_case("qos.pfc-roce-priority", Outcome::not_applicable, "ib0", "IPoIB netdev", ipoib),
    host_case("qos.pfc-only-roce-priority", Outcome::pass, "eth4", "PFC enabled", healthy),
    host_case("qos.pfc-only-roce-priority", Outcome::fail, "eth4", "PFC is on for non-RoCE priority 4",
              [] { return changed([](NetDev& n) { pfc(n, k_pfc_3_4); }); }),
    host_case("qos.pfc-only-roce-priority", Outcome::unknown, "eth4", "PFC state not collected", no_qos),
    host_case("qos.pfc-only-roce-priority", Outcome::not_applicable, "ib0", "IPoIB netdev", ipoib),
    host_case("qos.global-pause-off", Outcome::pass, "eth4", "global pause RX off, TX off", healthy),
    host_case("qos.global-pause-off", Outcome::fail, "eth4", "global 802.3x pause is on (RX on, TX on",
              [] { return changed([](NetDev& n) { n.pause.value = PauseState{false, true, true}; }); }),
    host_case("qos.global-pause-off", Outcome::unknown, "eth4", "802.3x pause state not collected: no ethtool -a",
              [] { return changed([](NetDev& n) { n.pause = Collected<PauseState>::missing("no ethtool -a"); }); }),
    host_case("qos.global-pause-off", Outcome::not_applicable, "ib0", "IPoIB netdev", ipoib),
    host_case("qos.ecn-roce-priority", Outcome::pass, "eth4", "DCQCN RP and NP enabled on priority 3", healthy),
    host_case("qos.ecn-roce-priority", Outcome::fail, "eth4", "priority 3: RP on, NP off",
              [] { return changed([](NetDev& n) { n.ecn.value->np_enabled[3] = false; }); }),
    host_case("qos.ecn-roce-priority", Outcome::unknown, "eth4", "missing: runtime ECN sysfs",
              [] { return changed([](NetDev& n) { n.ecn = Collected<EcnState>::missing("not collected"); }); }),
    host_case("qos.ecn-roce-priority", Outcome::not_applicable, "ib0", "IPoIB netdev", ipoib),
    // BlueField DPU mode: the port QoS lives on the Arm side; NIC mode is judged as a ConnectX.
    host_case("qos.trust-dscp", Outcome::not_applicable, "eth4",
              "BlueField 0000:3b:00.0 is in DPU mode (INTERNAL_CPU_MODEL EMBEDDED_CPU(1) (Current)): QoS configured on "
              "the DPU's Arm side (p0/pf0hpf)",
              dpu_mode_host),
    host_case("qos.pfc-roce-priority", Outcome::not_applicable, "eth4", "QoS configured on the DPU's Arm side (p0/pf0hpf)",
              dpu_mode_host),
    host_case("qos.global-pause-off", Outcome::not_applicable, "eth4", "QoS configured on the DPU's Arm side (p0/pf0hpf)",
              dpu_mode_host),
    host_case("qos.ecn-roce-priority", Outcome::pass, "eth4", "DCQCN RP and NP enabled on priority 3", dpu_mode_host),
    host_case("qos.trust-dscp", Outcome::pass, "eth4", "trust dscp", nic_mode_host),
    host_case("qos.trust-dscp", Outcome::pass, "p0", "trust dscp", arm_side),
    host_case("qos.trust-dscp", Outcome::not_applicable, "pf0hpf",
              "pf0hpf is a representor of the host PF/VF: QoS is set on the uplink p0, judged there (DOCA "
              "representor name; Arm side of a BlueField: kernel 5.15.0-1035-bluefield;",
              arm_side),
    host_case("qos.cnp-firmware", Outcome::pass, "0000:3b:00.0", "CNP_DSCP_P1=48 CNP_802P_PRIO_P1=6", healthy),
    host_case("qos.cnp-firmware", Outcome::fail, "0000:3b:00.0", "CNPs not marked with DSCP 48 / priority 6: CNP_DSCP_P1=46",
              [] { return with_nv({nv("CNP_DSCP_P1", "46"), nv("CNP_802P_PRIO_P1", "6")}); }),
    host_case("qos.cnp-firmware", Outcome::unknown, "0000:3b:00.0", "shows no CNP_DSCP_P<n>/CNP_802P_PRIO_P<n>",
              [] { return with_nv({nv("LINK_TYPE_P1", "ETH(2)")}); }),
};

}  // namespace
}  // namespace rk::testcases

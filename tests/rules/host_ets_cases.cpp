// Per-outcome cases of the ETS and PFC-headroom rules (rules/qos_ets_rules.cpp) and of the CNP
// mode parameters of qos.cnp-firmware, on hand-built snapshots: netdev eth4 at 100 Gb/s, MTU
// 4200, priority n -> traffic class n, TC0 and TC3 ETS 50% each, TC6 strict, the rest vendor;
// PFC on 3, priority 3 on receive buffer 1 of 262144 B, cable length 7 m. Real mlnx_qos outputs
// are judged in ets_test.cpp.
#include "host_cases.hpp"

namespace rk::testcases {
namespace {

Snapshot healthy() {
  Snapshot s;
  NetDev& n = s.netdev("eth4");
  n.bdf = "0000:3b:00.0";
  n.mtu_bytes.value = 4200;
  n.link.value = LinkSettings{};
  n.link.value->speed_mbps = 100000;
  QosState q;
  q.trust = Trust::dscp;
  q.pfc_enabled = std::vector<bool>{false, false, false, true, false, false, false, false};
  q.priority_to_tc = std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7};
  for (int tc = 0; tc < 8; ++tc) {
    TcSchedule t;
    t.tc = tc;
    t.tsa = tc == 0 || tc == 3 ? "ets" : tc == 6 ? "strict" : "vendor";
    if (t.tsa == "ets") t.bandwidth_percent = 50;
    t.source = {"mlnx_qos@eth4.txt", static_cast<std::size_t>(20 + 2 * tc), "hand-built"};
    q.tc_schedule.push_back(t);
  }
  q.priority_to_buffer = std::vector<int>{0, 0, 0, 1, 0, 0, 0, 0};
  q.receive_buffer_bytes = std::vector<std::uint64_t>{262144, 262144, 0, 0, 0, 0, 0, 0};
  q.cable_length_m = 7;
  q.buffer_source = {"mlnx_qos@eth4.txt", 15, "hand-built"};
  n.qos.value = q;
  return s;
}

Snapshot changed(const std::function<void(QosState&)>& f) {
  Snapshot s = healthy();
  f(*s.netdevs.front().qos.value);
  return s;
}

Snapshot ipoib() {
  Snapshot s;
  s.netdev("ib0").mtu_bytes.value = 2044;
  return s;
}

void set_tc(QosState& q, int tc, std::string tsa, std::optional<int> bw) {
  q.tc_schedule[static_cast<std::size_t>(tc)].tsa = std::move(tsa);
  q.tc_schedule[static_cast<std::size_t>(tc)].bandwidth_percent = bw;
}

Policy cable_policy(int metres) {
  Policy p = default_policy();
  p.cable_length_m = metres;
  return p;
}

const Cases k_cases{
    host_case("qos.ets-roce-share", Outcome::pass, "eth4", "RoCE priority 3 -> traffic class 3: ETS 50%", healthy),
    host_case("qos.ets-roce-share", Outcome::fail, "eth4", "traffic class 3: ETS 0%: a 0% ETS class is scheduled below",
              [] { return changed([](QosState& q) { set_tc(q, 3, "ets", 0); set_tc(q, 0, "ets", 100); }); }),
    host_case("qos.ets-roce-share", Outcome::unknown, "eth4", "the output shows no traffic classes",
              [] { return changed([](QosState& q) { q.tc_schedule.clear(); }); }),
    host_case("qos.ets-roce-share", Outcome::not_applicable, "ib0", "IPoIB netdev", ipoib),
    host_case("qos.ets-cnp-strict", Outcome::pass, "eth4", "CNP priority 6 -> traffic class 6: strict priority", healthy),
    host_case("qos.ets-cnp-strict", Outcome::fail, "eth4", "traffic class 6: ETS 20%: CNPs wait their ETS turn",
              [] { return changed([](QosState& q) { set_tc(q, 6, "ets", 20); set_tc(q, 0, "ets", 30); }); }),
    host_case("qos.ets-cnp-strict", Outcome::unknown, "eth4", "the priority-to-traffic-class map is not shown",
              [] { return changed([](QosState& q) { q.priority_to_tc.reset(); }); }),
    host_case("qos.ets-cnp-strict", Outcome::not_applicable, "ib0", "IPoIB netdev", ipoib),
    // xoff = (301 + 216 * 7 / 100) * 100000 / 1000 + 272 * 4200 / 100 = 31600 + 11424 = 43024;
    // plus one MTU: 47224 B.
    host_case("qos.pfc-headroom", Outcome::pass, "eth4",
              "priority 3 on receive buffer 1 of 262144 B (needs 47224 B for 7 m, 100 Gb/s, MTU 4200)", healthy),
    host_case("qos.pfc-headroom", Outcome::fail, "eth4",
              "priority 3 on receive buffer 1 of 896 B, below the 47224 B a lossless buffer needs",
              [] { return changed([](QosState& q) { (*q.receive_buffer_bytes)[1] = 896; }); }),
    host_case("qos.pfc-headroom", Outcome::fail, "eth4", "cable length 7 m, policy 30 m",
              healthy, cable_policy(30)),
    host_case("qos.pfc-headroom", Outcome::unknown, "eth4", "PFC headroom not judged: missing the receive buffer sizes",
              [] { return changed([](QosState& q) { q.receive_buffer_bytes.reset(); }); }),
    host_case("qos.pfc-headroom", Outcome::not_applicable, "eth4", "PFC is off on the RoCE priority",
              [] { return changed([](QosState& q) { q.pfc_enabled = std::vector<bool>(8, false); }); }),
    host_case("qos.cnp-firmware", Outcome::fail, "0000:3b:00.0",
              "CNP_DSCP_MODE_P1=RX_PACKET(2) (CNPs copy the DSCP of the packet that triggered them",
              [] {
                return with_nv({nv("CNP_DSCP_P1", "48"), nv("CNP_802P_PRIO_P1", "6"), nv("CNP_DSCP_MODE_P1", "RX_PACKET(2)")});
              }),
    host_case("qos.cnp-firmware", Outcome::fail, "0000:3b:00.0", "CNP_RES_PRIO_MODE_P1=True(1) (CNPs take the priority",
              [] {
                return with_nv({nv("CNP_DSCP_P1", "48"), nv("CNP_802P_PRIO_P1", "6"), nv("CNP_RES_PRIO_MODE_P1", "True(1)")});
              }),
    host_case("qos.cnp-firmware", Outcome::pass, "0000:3b:00.0", "CNP_DSCP_MODE_P1=FIXED_VALUE(1)",
              [] {
                return with_nv({nv("CNP_DSCP_P1", "48"), nv("CNP_802P_PRIO_P1", "6"), nv("CNP_DSCP_MODE_P1", "FIXED_VALUE(1)")});
              }),
};

}  // namespace
}  // namespace rk::testcases

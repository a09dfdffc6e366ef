// Per-outcome cases of the switch alignment rules (`switch.*`): a hand-built host netdev eth4
// (trust dscp, DSCP 26 -> priority 3, 48 -> 6, PFC on 3, ECN RP/NP on 3, MTU 9000) against a
// hand-built SONiC port Ethernet0 that agrees with it, then one change per case.
#include <functional>

#include "cases.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::testcases {
namespace {

using namespace switchcfg;

const Evidence k_cfg{"config_db.json", 1, "hand-built"};
const std::string k_subject = "Ethernet0 <-> eth4";

Snapshot healthy_host() {
  Snapshot s;
  NetDev& n = s.netdev("eth4");
  QosState q;
  q.trust = Trust::dscp;
  q.dscp_to_priority = {{26, 3}, {48, 6}};
  q.pfc_enabled = std::vector<bool>{false, false, false, true, false, false, false, false};
  q.trust_source = q.dscp_source = q.pfc_source = {"mlnx_qos@eth4.txt", 2, "hand-built"};
  n.qos.value = q;
  EcnState e;
  e.rp_enabled[3] = true;
  e.np_enabled[3] = true;
  n.ecn.value = e;
  n.mtu_bytes.value = 9000;
  return s;
}

PortQos healthy_port() {
  PortQos p;
  p.name = "Ethernet0";
  p.trust = Fact<std::string>::of("dscp", k_cfg);
  p.dscp_to_tc = Fact<std::map<int, int>>::of({{26, 3}, {48, 6}}, k_cfg);
  p.tc_to_queue = Fact<std::map<int, int>>::of({{3, 3}, {6, 6}}, k_cfg);
  p.tc_to_pg = Fact<std::map<int, int>>::of({{3, 3}, {6, 0}}, k_cfg);
  p.pfc_priority_to_queue = Fact<std::map<int, int>>::of({{3, 3}}, k_cfg);
  p.pfc_enabled = Fact<std::vector<int>>::of({3}, k_cfg);
  p.buffer_pgs = {BufferPg{3, 4, "pg_lossless_100000_5m_profile", true, "xoff 40960", k_cfg}};
  QueueConfig q3;
  q3.queue = 3;
  q3.scheduling = Fact<Scheduling>::of(Scheduling{"dwrr", 50}, k_cfg);
  EcnConfig ecn;
  ecn.ecn_marking = true;
  ecn.mode = "ecn_all";
  ecn.wred_drop = false;
  q3.ecn = Fact<EcnConfig>::of(ecn, k_cfg);
  QueueConfig q6;
  q6.queue = 6;
  q6.scheduling = Fact<Scheduling>::of(Scheduling{"strict", std::nullopt}, k_cfg);
  p.queues = {{3, q3}, {6, q6}};
  p.mtu_bytes = Fact<int>::of(9100, k_cfg);
  PfcWatchdog wd;
  wd.enabled = true;
  wd.priorities = {3};
  wd.action = "drop";
  p.pfc_watchdog = Fact<PfcWatchdog>::of(wd, k_cfg);
  return p;
}

/// The switch.* findings of the healthy pair after `change_host` and `change_port`.
std::function<std::vector<Finding>()> pair(std::function<void(Snapshot&)> change_host,
                                           std::function<void(PortQos&)> change_port) {
  return [=] {
    Snapshot h = healthy_host();
    if (change_host) change_host(h);
    SwitchQos sw;
    sw.file = "config_db.json";
    sw.dialect = Dialect::sonic_config_db;
    sw.ports.push_back(healthy_port());
    if (change_port) change_port(sw.ports.back());
    return check_alignment(h, sw, nullptr, default_policy());
  };
}
auto port(std::function<void(PortQos&)> f) { return pair(nullptr, std::move(f)); }
const auto k_healthy = pair(nullptr, nullptr);

const Cases k_cases{
    {"switch.trust-dscp", Outcome::pass, k_subject, "host trust dscp, switch port classifies on dscp", k_healthy},
    {"switch.trust-dscp", Outcome::fail, k_subject, "RoCE lands in the switch's default class",
     port([](PortQos& p) { p.trust.value = "pcp"; })},
    {"switch.trust-dscp", Outcome::unknown, k_subject, "switch trust unknown: not in config",
     port([](PortQos& p) { p.trust = Fact<std::string>::missing("not in config"); })},
    {"switch.roce-lossless", Outcome::pass, k_subject, "DSCP 26 -> host priority 3 -> switch TC 3 / queue 3", k_healthy},
    {"switch.roce-lossless", Outcome::fail, k_subject, "which has no PFC (switch PFC priorities 4)",
     port([](PortQos& p) { p.pfc_enabled.value = std::vector<int>{4}; })},
    {"switch.roce-lossless", Outcome::unknown, k_subject, "switch DSCP->TC map unknown: no DSCP_TO_TC_MAP",
     port([](PortQos& p) { p.dscp_to_tc = Fact<std::map<int, int>>::missing("no DSCP_TO_TC_MAP"); })},
    {"switch.roce-buffer-lossless", Outcome::pass, k_subject, "profile pg_lossless_100000_5m_profile is lossless", k_healthy},
    {"switch.roce-buffer-lossless", Outcome::fail, k_subject, "which has no BUFFER_PG entry",
     port([](PortQos& p) { p.buffer_pgs.front().first_pg = p.buffer_pgs.front().last_pg = 0; })},
    {"switch.roce-buffer-lossless", Outcome::unknown, k_subject, "PG 3 buffer unknown: no BUFFER_PG table",
     port([](PortQos& p) {
       p.buffer_pgs.clear();
       p.buffer_reason = "no BUFFER_PG table";
     })},
    {"switch.roce-ecn", Outcome::pass, k_subject, "switch queue 3 marks ECN (ecn_all)", k_healthy},
    {"switch.roce-ecn", Outcome::fail, k_subject, "does not mark ECN",
     port([](PortQos& p) { p.queues[3].ecn.value->ecn_marking = false; })},
    {"switch.roce-ecn", Outcome::unknown, k_subject, "ECN of switch queue 3 unknown: no QUEUE entry",
     port([](PortQos& p) { p.queues[3].ecn = Fact<EcnConfig>::missing("no QUEUE entry"); })},
    {"switch.cnp-queue", Outcome::pass, k_subject, "queue 6 is strict priority", k_healthy},
    {"switch.cnp-queue", Outcome::fail, k_subject, "shares TC 3 with RoCE DSCP 26",
     port([](PortQos& p) { p.dscp_to_tc.value = std::map<int, int>{{26, 3}, {48, 3}}; })},
    {"switch.cnp-queue", Outcome::unknown, k_subject, "scheduling of queue 6 unknown: queue not in config",
     port([](PortQos& p) { p.queues.erase(6); })},
    {"switch.mtu", Outcome::pass, k_subject, "switch port MTU 9100 >= host MTU 9000", k_healthy},
    {"switch.mtu", Outcome::fail, k_subject, "host MTU 9000 > switch port MTU 4500",
     port([](PortQos& p) { p.mtu_bytes.value = 4500; })},
    {"switch.mtu", Outcome::unknown, k_subject, "host netdev MTU not collected: no ip link",
     pair([](Snapshot& s) { s.netdevs.front().mtu_bytes = Collected<int>::missing("no ip link"); }, nullptr)},
    {"switch.pfc-watchdog", Outcome::pass, k_subject, "PFC watchdog on priorities 3", k_healthy},
    {"switch.pfc-watchdog", Outcome::fail, k_subject, "PFC watchdog is not enabled on the port",
     port([](PortQos& p) { p.pfc_watchdog.value->enabled = false; })},
    {"switch.pfc-watchdog", Outcome::unknown, k_subject, "no PFC_WD table",
     port([](PortQos& p) { p.pfc_watchdog = Fact<PfcWatchdog>::missing("no PFC_WD table"); })},
    {"switch.pfc-watchdog", Outcome::not_applicable, k_subject, "no PFC priority on the switch port",
     port([](PortQos& p) { p.pfc_enabled.value = std::vector<int>{}; })},
    {"switch.extra-lossless", Outcome::pass, k_subject, "switch PFC priorities 3, host 3", k_healthy},
    {"switch.extra-lossless", Outcome::fail, k_subject, "switch also lossless on 4",
     port([](PortQos& p) { p.pfc_enabled.value = std::vector<int>{3, 4}; })},
    {"switch.extra-lossless", Outcome::unknown, k_subject, "switch PFC priorities unknown: no pfc_enable",
     port([](PortQos& p) { p.pfc_enabled = Fact<std::vector<int>>::missing("no pfc_enable"); })},
};

}  // namespace
}  // namespace rk::testcases

// Per-outcome cases of the diagnosis rules (`diag.*`) on hand-built counter windows: eth4 paired
// with mlx5_0/1, 10 s apart, RoCE priority 3 (the default policy).
#include <map>
#include <optional>

#include "cases.hpp"
#include "rocekit/diagnose/diagnose.hpp"

namespace rk::testcases {
namespace {

using namespace rk::diagnose;
using Counters = std::map<std::string, std::uint64_t>;
constexpr double k_interval = 10;

CounterTable table(const std::optional<Counters>& deltas, const char* reason) {
  CounterTable t;
  if (!deltas) {
    t.reason = reason;
    return t;
  }
  t.available = true;
  t.source = "hand-built";
  for (const auto& [name, d] : *deltas) {
    CounterDelta c;
    c.name = name;
    c.before = 1000;
    c.after = 1000 + d;
    c.delta = d;
    c.rate_per_s = static_cast<double>(d) / k_interval;
    t.counters[name] = c;
  }
  return t;
}

/// The findings of every diag.* rule on one link: unknown when the rule is listed as unknown,
/// fail when it reports a cause at warning or above, pass otherwise (an info cause's summary is
/// the pass message).
std::vector<Finding> diagnose_findings(std::optional<Counters> eth, std::optional<Counters> rdma,
                                       std::optional<std::vector<bool>> pfc = std::nullopt) {
  Window w;
  w.interval_s = k_interval;
  w.interval_source = "--interval";
  LinkDeltas l;
  l.netdev = "eth4";
  l.rdma_port = "mlx5_0/1";
  l.eth = table(eth, "no ethtool -S counters in the samples");
  l.rdma = table(rdma, "no RDMA hw_counters in the samples");
  l.pfc_enabled = std::move(pfc);
  if (l.pfc_enabled) l.pfc_source = "mlnx_qos";
  w.links.push_back(l);
  Diagnosis d = diagnose::diagnose(w, default_policy());
  std::vector<Finding> out;
  for (const rules::RuleInfo& r : rules::rules_of(rules::Family::diagnose)) {
    Finding f;
    f.rule = std::string(r.id);
    f.subject = l.subject();
    f.outcome = Outcome::pass;
    f.message = "no cause";
    for (const Cause& c : d.causes) {
      if (c.id != r.id) continue;
      f.message = c.summary;
      f.severity = c.severity;
      if (c.severity >= Severity::warning) f.outcome = Outcome::fail;
    }
    for (const Unknown& u : d.unknowns)
      if (u.id == r.id || u.id == "diag.all") {
        f.outcome = Outcome::unknown;
        f.message = u.reason;
      }
    out.push_back(f);
  }
  return out;
}

const Counters k_quiet{{"rx_prio0_pause", 0},  {"tx_prio0_pause", 0}, {"rx_prio3_pause", 0},
                       {"tx_prio3_pause", 0},  {"rx_prio0_bytes", 0}, {"rx_prio3_bytes", 5000},
                       {"rx_global_pause", 0}, {"tx_global_pause", 0}, {"rx_discards_phy", 0},
                       {"rx_out_of_buffer", 0}, {"tx_pause_storm_error_events", 0},
                       {"tx_pause_storm_warning_events", 0}};
const Counters k_rdma_quiet{{"out_of_sequence", 0}, {"np_ecn_marked_roce_packets", 0},
                            {"np_cnp_sent", 0},     {"rp_cnp_handled", 0},
                            {"rp_cnp_ignored", 0}};

Counters with(Counters base, const Counters& more) {
  for (const auto& [k, v] : more) base[k] = v;
  return base;
}

auto quiet = [] { return diagnose_findings(k_quiet, k_rdma_quiet); };
const std::vector<bool> k_pfc_on_3{false, false, false, true, false, false, false, false};
const std::vector<bool> k_pfc_off(8, false);

const Cases k_cases{
    {"diag.pause-storm", Outcome::fail, "eth4 (mlx5_0/1)", "stall prevention fired",
     [] { return diagnose_findings(with(k_quiet, {{"tx_pause_storm_error_events", 2}}), k_rdma_quiet); }},
    {"diag.pause-storm", Outcome::pass, "eth4 (mlx5_0/1)", "no cause", quiet},
    {"diag.pfc-non-roce-priority", Outcome::fail, "", "PFC pauses on priority 0, not the RoCE priority 3",
     [] { return diagnose_findings(with(k_quiet, {{"rx_prio0_pause", 40}}), k_rdma_quiet); }},
    {"diag.pfc-non-roce-priority", Outcome::pass, "", "no cause", quiet},
    {"diag.global-pause", Outcome::fail, "", "802.3x global pause frames are moving",
     [] { return diagnose_findings(with(k_quiet, {{"rx_global_pause", 7}}), k_rdma_quiet); }},
    {"diag.global-pause", Outcome::pass, "", "no cause", quiet},
    {"diag.pfc-without-ecn", Outcome::fail, "", "with no ECN marks and no CNPs",
     [] { return diagnose_findings(with(k_quiet, {{"rx_prio3_pause", 500}}), k_rdma_quiet); }},
    {"diag.pfc-without-ecn", Outcome::unknown, "", "no RDMA hw_counters to see ECN marks",
     [] { return diagnose_findings(with(k_quiet, {{"rx_prio3_pause", 500}}), std::nullopt); }},
    {"diag.pfc-without-ecn", Outcome::pass, "", "no cause", quiet},
    {"diag.incast-pfc-with-ecn", Outcome::pass, "", "absorbing incast as designed",
     [] {
       return diagnose_findings(with(k_quiet, {{"rx_prio3_pause", 500}}),
                                with(k_rdma_quiet, {{"np_ecn_marked_roce_packets", 90}, {"np_cnp_sent", 80}}));
     }},
    {"diag.ecn-marks-no-cnp", Outcome::fail, "", "sends no CNPs",
     [] { return diagnose_findings(k_quiet, with(k_rdma_quiet, {{"np_ecn_marked_roce_packets", 90}})); }},
    {"diag.ecn-marks-no-cnp", Outcome::unknown, "", "np_cnp_sent is absent",
     [] { return diagnose_findings(k_quiet, Counters{{"np_ecn_marked_roce_packets", 90}}); }},
    {"diag.ecn-marks-no-cnp", Outcome::pass, "", "no cause",
     [] {
       return diagnose_findings(k_quiet, with(k_rdma_quiet, {{"np_ecn_marked_roce_packets", 90}, {"np_cnp_sent", 90}}));
     }},
    {"diag.cnp-ignored", Outcome::fail, "", "reaction point ignores them",
     [] { return diagnose_findings(k_quiet, with(k_rdma_quiet, {{"rp_cnp_ignored", 12}})); }},
    {"diag.cnp-ignored", Outcome::pass, "", "no cause", quiet},
    // PFC state unknown: no mlnx_qos and no per-priority ethtool keys.
    {"diag.retransmission", Outcome::fail, "", "PFC state of the RoCE priority unknown",
     [] { return diagnose_findings(Counters{{"rx_discards_phy", 0}}, with(k_rdma_quiet, {{"out_of_sequence", 9}})); }},
    {"diag.retransmission", Outcome::unknown, "", "no RDMA hw_counters",
     [] { return diagnose_findings(k_quiet, std::nullopt); }},
    {"diag.retransmission", Outcome::pass, "", "no cause", quiet},
    {"diag.physical-loss", Outcome::fail, "", "the loss is physical",
     [] {
       return diagnose_findings(with(k_quiet, {{"rx_crc_errors_phy", 3}}), with(k_rdma_quiet, {{"out_of_sequence", 9}}));
     }},
    {"diag.physical-loss", Outcome::pass, "", "no cause", quiet},
    {"diag.lossy-retransmission", Outcome::fail, "", "PFC off on the RoCE priority 3 (PFC state from mlnx_qos)",
     [] { return diagnose_findings(k_quiet, with(k_rdma_quiet, {{"out_of_sequence", 9}}), k_pfc_off); }},
    {"diag.lossy-retransmission", Outcome::pass, "", "no cause",
     [] { return diagnose_findings(k_quiet, k_rdma_quiet, k_pfc_off); }},
    {"diag.retransmission-despite-pfc", Outcome::fail, "", "although PFC is on for priority 3",
     [] { return diagnose_findings(k_quiet, with(k_rdma_quiet, {{"out_of_sequence", 9}}), k_pfc_on_3); }},
    {"diag.retransmission-despite-pfc", Outcome::pass, "", "no cause",
     [] { return diagnose_findings(k_quiet, k_rdma_quiet, k_pfc_on_3); }},
    {"diag.nic-rx-discards", Outcome::fail, "", "while it sent no PFC pause on the RoCE priority",
     [] { return diagnose_findings(with(k_quiet, {{"rx_discards_phy", 30}}), k_rdma_quiet); }},
    {"diag.nic-rx-discards", Outcome::pass, "", "no cause", quiet},
    {"diag.host-rx-out-of-buffer", Outcome::fail, "", "ran out of posted buffers",
     [] { return diagnose_findings(with(k_quiet, {{"rx_out_of_buffer", 30}}), k_rdma_quiet); }},
    {"diag.host-rx-out-of-buffer", Outcome::pass, "", "no cause", quiet},
    {"diag.roce-in-priority-0", Outcome::fail, "", "RoCE rides the lossy default queue",
     [] {
       return diagnose_findings(with(k_quiet, {{"rx_prio0_bytes", 9000}, {"rx_prio3_bytes", 0},
                                               {"rx_vport_rdma_unicast_bytes", 9000}}),
                                k_rdma_quiet);
     }},
    {"diag.roce-in-priority-0", Outcome::pass, "", "no cause",
     [] {
       return diagnose_findings(with(k_quiet, {{"rx_prio0_bytes", 9000}, {"rx_vport_rdma_unicast_bytes", 9000}}),
                                k_rdma_quiet);
     }},
    {"diag.roce-off-policy-priority", Outcome::fail, "", "RoCE misses the PFC and ECN set for priority 3",
     [] {
       return diagnose_findings(with(k_quiet, {{"rx_prio5_bytes", 9000}, {"rx_prio3_bytes", 0},
                                               {"rx_vport_rdma_unicast_bytes", 9000}}),
                                k_rdma_quiet);
     }},
    {"diag.roce-off-policy-priority", Outcome::pass, "", "no cause",
     [] {
       return diagnose_findings(with(k_quiet, {{"rx_prio5_bytes", 9000}, {"rx_vport_rdma_unicast_bytes", 9000}}),
                                k_rdma_quiet);
     }},
};

}  // namespace
}  // namespace rk::testcases

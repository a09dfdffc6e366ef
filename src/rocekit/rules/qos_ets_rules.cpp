// QoS rules on the transmit scheduler and the receive buffers: the RoCE traffic class's ETS
// share, the CNP traffic class's strict priority, and the lossless buffer's PFC headroom.
//
// Driver facts (linux drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c, en/port_buffer.c):
// - tsa "vendor" (the default) puts a traffic class in scheduling group 7 at 100%; "strict"
//   classes sit above the ETS classes, higher traffic class first; an ETS class with 0% goes to
//   group 0, below every ETS class with a share (mlx5e_build_tc_group), so it only gets what
//   they leave.
// - The lossless buffer's xoff is (301 + 2.16 x cable length [m]) x speed [Gb/s, at least 40]
//   + 2.72 x MTU [B] bytes (calculate_xoff); a lossless buffer smaller than xoff plus one MTU is
//   refused ("buffer_size[%d]=%d is not enough for lossless buffer", update_xoff_threshold).
#include <algorithm>
#include <string>

#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/qos_scope.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

constexpr int k_roce_share_percent = 50;  // Cumulus/NVUE RoCE default: ETS TC3/TC0 WRR 50% each

const TcSchedule* schedule_of(const QosState& q, int tc) {
  for (const TcSchedule& t : q.tc_schedule)
    if (t.tc == tc) return &t;
  return nullptr;
}

std::string shown(const TcSchedule& t) {
  if (t.tsa == "ets") return "ETS " + (t.bandwidth_percent ? std::to_string(*t.bandwidth_percent) + "%" : "(share not shown)");
  if (t.tsa == "strict") return "strict priority";
  if (t.tsa == "vendor") return "tsa vendor (the mlx5 default: no ETS share configured)";
  return "tsa " + t.tsa;
}

/// The traffic class of `prio` and its schedule, or why it cannot be told.
struct ClassOf {
  int tc = -1;
  const TcSchedule* sched = nullptr;
  std::string why;
};
ClassOf class_of(const QosState& q, int prio) {
  ClassOf c;
  if (q.tc_schedule.empty()) {
    c.why = "the output shows no traffic classes (no mlnx_qos `tc:` rows or dcbnl ETS)";
    return c;
  }
  if (!q.priority_to_tc || q.priority_to_tc->size() != 8) {
    c.why = "the priority-to-traffic-class map is not shown";
    return c;
  }
  c.tc = (*q.priority_to_tc)[static_cast<std::size_t>(prio)];
  c.sched = schedule_of(q, c.tc);
  if (!c.sched) c.why = "traffic class " + std::to_string(c.tc) + " of priority " + std::to_string(prio) + " is not shown";
  return c;
}

/// The priorities mapped to traffic class `tc` (empty without a complete map).
std::vector<int> priorities_of(const QosState& q, int tc) {
  std::vector<int> out;
  if (!q.priority_to_tc || q.priority_to_tc->size() != 8) return out;
  for (int p = 0; p < 8; ++p)
    if ((*q.priority_to_tc)[static_cast<std::size_t>(p)] == tc) out.push_back(p);
  return out;
}

struct Schedule8 {
  std::vector<std::string> tsa;
  std::vector<int> bw;
};

/// The one schedule both ETS rules ask for, so their fixes never undo each other: the RoCE class
/// at 0% gets a 50% share, and a weighted CNP class that carries only the CNP priority becomes
/// strict (a class that also carries data is never made strict: its data would go ahead of
/// RoCE); the other ETS classes keep their proportions of the rest (mlx5 requires the ETS shares
/// to sum to 100). nullopt when not all 8 classes are shown or nothing would change.
std::optional<Schedule8> desired_schedule(const QosState& q, const Policy& pol) {
  Schedule8 d{std::vector<std::string>(8), std::vector<int>(8, 0)};
  for (int i = 0; i < 8; ++i) {
    const TcSchedule* s = schedule_of(q, i);
    if (!s || (s->tsa != "ets" && s->tsa != "strict" && s->tsa != "vendor")) return std::nullopt;
    d.tsa[static_cast<std::size_t>(i)] = s->tsa;
    if (s->tsa == "ets") d.bw[static_cast<std::size_t>(i)] = s->bandwidth_percent.value_or(0);
  }
  if (!q.priority_to_tc || q.priority_to_tc->size() != 8) return std::nullopt;
  const auto roce = static_cast<std::size_t>((*q.priority_to_tc)[static_cast<std::size_t>(pol.roce_priority)]);
  const auto cnp = static_cast<std::size_t>((*q.priority_to_tc)[static_cast<std::size_t>(pol.cnp_priority)]);
  std::vector<bool> fixed(8, false);
  bool changed = false;
  if (d.tsa[roce] == "ets" && d.bw[roce] == 0) {
    d.bw[roce] = k_roce_share_percent;
    fixed[roce] = true;
    changed = true;
  }
  if (cnp != roce && d.tsa[cnp] == "ets" && priorities_of(q, static_cast<int>(cnp)) == std::vector<int>{pol.cnp_priority}) {
    d.tsa[cnp] = "strict";
    d.bw[cnp] = 0;
    fixed[cnp] = true;
    changed = true;
  }
  if (!changed) return std::nullopt;
  int fixed_sum = 0, others_sum = 0;
  std::vector<std::size_t> others;
  for (std::size_t i = 0; i < 8; ++i) {
    if (d.tsa[i] != "ets") continue;
    if (fixed[i]) {
      fixed_sum += d.bw[i];
    } else {
      others.push_back(i);
      others_sum += d.bw[i];
    }
  }
  if (others.empty()) {
    if (d.tsa[roce] == "ets") d.bw[roce] = 100;
    return d;
  }
  const int left = 100 - fixed_sum;
  int given = 0;
  for (std::size_t i : others) {
    d.bw[i] = others_sum > 0 ? d.bw[i] * left / others_sum : left / static_cast<int>(others.size());
    given += d.bw[i];
  }
  auto largest = *std::max_element(others.begin(), others.end(), [&](std::size_t a, std::size_t b) { return d.bw[a] < d.bw[b]; });
  d.bw[largest] += left - given;
  return d;
}

/// The fix of both ETS rules (the same command from each): the desired schedule, read back on
/// traffic class `c.tc`.
void set_ets_fix(Finding& f, const NetDev& n, const Policy& pol, const ClassOf& c) {
  f.remediation.scope = FixScope::runtime;
  std::optional<Schedule8> d = desired_schedule(*n.qos, pol);
  const std::string runtime = "Runtime only: lost at reboot or driver reload. The switch port's queue scheduling should "
                              "match (NVIDIA Cumulus RoCE default: TC3 and TC0 ETS 50% each, TC6 strict).";
  if (!d) {
    f.remediation.notes = "Not all 8 traffic classes are shown, so no full --tsa/--tcbw list is given: run `mlnx_qos -i " +
                          n.name + " -a` to show them. " + runtime;
    return;
  }
  const auto k = static_cast<std::size_t>(c.tc);
  const std::string want = d->tsa[k] == "ets" ? "ETS " + std::to_string(d->bw[k]) + "%" : d->tsa[k];
  fix::set_fix_either(f.remediation, "ets", "traffic class " + std::to_string(c.tc) + " " + shown(*c.sched),
                      "traffic class " + std::to_string(c.tc) + " " + want,
                      {fix::mlnx_qos_ets(n.name, d->tsa, d->bw, c.tc), fix::dcb_ets(n.name, d->tsa, d->bw, c.tc)},
                      prefers_dcb(n));
  f.remediation.notes = "One schedule for qos.ets-roce-share and qos.ets-cnp-strict: the RoCE class gets a share, a "
                        "CNP-only class becomes strict, and the other ETS classes keep their proportions of the rest "
                        "(the shares must sum to 100). " + runtime;
}

/// The traffic class of `prio` on `n`, or nullopt after an `unknown` finding saying why not.
std::optional<ClassOf> class_judged(const NetDev& n, int prio, Emitter& e) {
  if (!n.qos.has_value()) {
    e.missing(n.name, "ETS", n.qos);
    return std::nullopt;
  }
  ClassOf c = class_of(*n.qos, prio);
  if (!c.sched) {
    e.unknown(n.name, c.why);
    return std::nullopt;
  }
  return c;
}

void eval_ets_roce(const Snapshot& s, const Policy& pol, Emitter& e) {
  for_roce_netdevs(s, pol, e, [&](const NetDev& n) {
    std::optional<ClassOf> judged = class_judged(n, pol.roce_priority, e);
    if (!judged) return;
    const ClassOf& c = *judged;
    const std::string head = "RoCE priority " + std::to_string(pol.roce_priority) + " -> traffic class " +
                             std::to_string(c.tc) + ": " + shown(*c.sched);
    const bool starved = c.sched->tsa == "ets" && c.sched->bandwidth_percent && *c.sched->bandwidth_percent == 0;
    if (c.sched->tsa == "ets" && !c.sched->bandwidth_percent) {
      e.unknown(n.name, head);
      return;
    }
    if (!starved) {
      add_evidence(e.pass(n.name, head), c.sched->source);
      return;
    }
    Finding& f = e.fail(n.name, head + ": a 0% ETS class is scheduled below every ETS class with a "
                                       "share, so RoCE gets only the bandwidth they leave and stalls under load");
    add_evidence(f, c.sched->source);
    set_ets_fix(f, n, pol, c);
  });
}

void eval_ets_cnp(const Snapshot& s, const Policy& pol, Emitter& e) {
  for_roce_netdevs(s, pol, e, [&](const NetDev& n) {
    std::optional<ClassOf> judged = class_judged(n, pol.cnp_priority, e);
    if (!judged) return;
    const ClassOf& c = *judged;
    std::string head = "CNP priority " + std::to_string(pol.cnp_priority) + " -> traffic class " +
                       std::to_string(c.tc) + ": " + shown(*c.sched);
    if (n.qos->priority_to_tc && (*n.qos->priority_to_tc)[static_cast<std::size_t>(pol.roce_priority)] == c.tc)
      head += " (shared with RoCE priority " + std::to_string(pol.roce_priority) + ")";
    // Strict classes are served highest traffic class first (MLNX_OFED QoS: "TC 7 is the highest
    // priority"), so a strict CNP class below a strict RoCE class waits behind RoCE data.
    ClassOf r = class_of(*n.qos, pol.roce_priority);
    if (c.sched->tsa == "strict" && r.sched && r.sched->tsa == "strict" && r.tc > c.tc) {
      Finding& f = e.fail(n.name, head + ", below RoCE's strict traffic class " + std::to_string(r.tc) +
                                         ": strict classes are served highest first, so CNPs wait behind RoCE data");
      add_evidence(f, c.sched->source);
      add_evidence(f, r.sched->source);
      f.remediation.scope = FixScope::runtime;
      f.remediation.notes = "Map CNP priority " + std::to_string(pol.cnp_priority) + " to a strict traffic class above " +
                            std::to_string(r.tc) + " (mlnx_qos -i " + n.name +
                            " --prio_tc, 8 items, priority 0 first), or make the RoCE class ETS with a share.";
      return;
    }
    if (c.sched->tsa != "ets") {
      add_evidence(e.pass(n.name, head), c.sched->source);
      return;
    }
    std::vector<int> sharing = priorities_of(*n.qos, c.tc);
    std::erase(sharing, pol.cnp_priority);
    Finding& f = e.fail(n.name, head + ": CNPs wait their ETS turn behind data when the port is busy, "
                                       "which delays the senders' rate cut; the CNP class should be strict");
    add_evidence(f, c.sched->source);
    if (sharing.empty()) {
      set_ets_fix(f, n, pol, c);
      return;
    }
    // Making this class strict would put the other priorities' traffic ahead of RoCE: move the CNP
    // priority to a class of its own instead.
    std::vector<std::string> shared;
    for (int p : sharing) shared.push_back(std::to_string(p));
    std::optional<int> free_strict;
    for (int tc = 7; tc >= 0 && !free_strict; --tc)
      if (const TcSchedule* t = schedule_of(*n.qos, tc); t && t->tsa == "strict" && priorities_of(*n.qos, tc).empty())
        free_strict = tc;
    f.remediation.scope = FixScope::runtime;
    std::string move;
    if (free_strict && n.qos->priority_to_tc) {
      std::vector<int> m = *n.qos->priority_to_tc;
      m[static_cast<std::size_t>(pol.cnp_priority)] = *free_strict;
      std::string list;
      for (std::size_t i = 0; i < m.size(); ++i) list += (i ? "," : "") + std::to_string(m[i]);
      move = " (`mlnx_qos -i " + n.name + " --prio_tc " + list + "` moves it to the unused strict class " +
             std::to_string(*free_strict) + ")";
    }
    f.remediation.notes = "Traffic class " + std::to_string(c.tc) + " also carries priority " + join(shared) +
                          ": making it strict would serve that traffic ahead of RoCE. Give CNP priority " +
                          std::to_string(pol.cnp_priority) + " a strict traffic class of its own" + move +
                          ". Runtime only: lost at reboot or driver reload.";
  });
}

/// mlx5 en/port_buffer.c calculate_xoff, in bytes (speed floored at 40 Gb/s, as the driver does).
long long mlx5_xoff_bytes(long long cable_m, long long speed_mbps, long long mtu) {
  speed_mbps = std::max<long long>(speed_mbps, 40000);
  return (301 + 216 * cable_m / 100) * speed_mbps / 1000 + 272 * mtu / 100;
}

void eval_pfc_headroom(const Snapshot& s, const Policy& pol, Emitter& e) {
  for_roce_netdevs(s, pol, e, [&](const NetDev& n) {
    if (!n.qos.has_value()) {
      e.missing(n.name, "PFC buffers", n.qos);
      return;
    }
    const QosState& q = *n.qos;
    if (q.pfc_enabled && q.pfc_enabled->size() == 8 &&
        std::none_of(pol.pfc_priorities.begin(), pol.pfc_priorities.end(),
                     [&](int p) { return (*q.pfc_enabled)[static_cast<std::size_t>(p)]; })) {
      e.not_applicable(n.name, "PFC is off on the RoCE priority (see qos.pfc-roce-priority): no lossless buffer to size");
      return;
    }
    std::vector<std::string> bad, judged, missing;
    std::optional<int> cable = q.cable_length_m;
    if (pol.cable_length_m) {
      if (!cable)
        missing.push_back("the NIC's cable length (mlnx_qos `Cable len:`)");
      else if (*cable < *pol.cable_length_m)
        bad.push_back("cable length " + std::to_string(*cable) + " m, policy " + std::to_string(*pol.cable_length_m) +
                      " m: the driver sizes the lossless headroom for " + std::to_string(*cable) +
                      " m, so pauses arrive too late for the longer cable and the buffer overflows");
      else
        judged.push_back("cable length " + std::to_string(*cable) + " m (policy " + std::to_string(*pol.cable_length_m) + " m)");
    }
    const int metres = std::max(cable.value_or(0), pol.cable_length_m.value_or(0));
    bool buffer_bad = false;
    if (!q.priority_to_buffer || !q.receive_buffer_bytes || q.receive_buffer_bytes->size() != 8) {
      missing.push_back("the receive buffer sizes (mlnx_qos `Receive buffer size` and PFC `buffer` rows, newer MLNX_OFED/DOCA)");
    } else if (metres == 0) {
      missing.push_back(std::string("a cable length (the NIC ") + (cable ? "reports 0 m" : "shows none") +
                        " and the policy sets no roce.cable_length_m)");
    } else {
      // Unread speed or MTU: the buffer is short if it is below what the driver's floor (40 Gb/s)
      // and MTU 1500 need, enough if it covers ConnectX-8's 800 Gb/s and mlx5's largest MTU (9978),
      // and not judged in between.
      const bool speed_known = n.link.has_value() && n.link->speed_mbps;
      const bool mtu_known = n.mtu_bytes.has_value();
      const long long speed_lo = speed_known ? static_cast<long long>(*n.link->speed_mbps) : 40000;
      const long long speed_hi = speed_known ? speed_lo : 800000;
      const long long mtu_lo = mtu_known ? *n.mtu_bytes : 1500;
      const long long mtu_hi = mtu_known ? mtu_lo : 9978;
      const long long need_lo = mlx5_xoff_bytes(metres, speed_lo, mtu_lo) + mtu_lo;
      const long long need_hi = mlx5_xoff_bytes(metres, speed_hi, mtu_hi) + mtu_hi;
      auto basis = [&](long long speed, long long mtu) {
        return std::to_string(metres) + " m, " + std::to_string(std::max(speed, 40000LL) / 1000) + " Gb/s, MTU " +
               std::to_string(mtu);
      };
      const std::string unread = std::string(speed_known ? "" : "link speed") + (speed_known || mtu_known ? "" : " and ") +
                                 (mtu_known ? "" : "MTU");
      for (int p : pol.pfc_priorities) {
        const int b = (*q.priority_to_buffer)[static_cast<std::size_t>(p)];
        const std::uint64_t size = (*q.receive_buffer_bytes)[static_cast<std::size_t>(b)];
        const auto sz = static_cast<long long>(size);
        std::string what = "priority " + std::to_string(p) + " on receive buffer " + std::to_string(b) + " of " +
                           std::to_string(size) + " B";
        if (sz < need_lo) {
          buffer_bad = true;
          bad.push_back(what + ", below the " + std::to_string(need_lo) + " B a lossless buffer needs for " +
                        basis(speed_lo, mtu_lo) + (unread.empty() ? "" : " (at least: " + unread + " not read)") +
                        " (xoff = (301 + 2.16 x " + std::to_string(metres) + ") x Gb/s + 2.72 x MTU, plus one MTU)");
        } else if (sz >= need_hi) {
          judged.push_back(what + " (needs " + std::to_string(need_hi) + " B for " + basis(speed_hi, mtu_hi) +
                           (unread.empty() ? "" : ", the most any port needs: " + unread + " not read") + ")");
        } else {
          missing.push_back("the " + unread + " (" + what + " covers " + basis(speed_lo, mtu_lo) + ", " +
                            std::to_string(need_lo) + " B, but not " + basis(speed_hi, mtu_hi) + ", " +
                            std::to_string(need_hi) + " B)");
        }
      }
    }
    if (!bad.empty()) {
      Finding& f = e.fail(n.name, join(bad, "; "));
      if (buffer_bad) add_evidence(f, q.buffer_source);
      if (pol.cable_length_m && cable && *cable < *pol.cable_length_m) add_evidence(f, q.cable_source);
      f.remediation.scope = FixScope::runtime;
      if (pol.cable_length_m && cable && *cable < *pol.cable_length_m)
        fix::set_fix_either(f.remediation, "cable_len", std::to_string(*cable) + " m",
                            std::to_string(*pol.cable_length_m) + " m",
                            {fix::mlnx_qos_cable_len(n.name, *pol.cable_length_m),
                             fix::dcb_cable_len(n.name, *pol.cable_length_m)},
                            prefers_dcb(n));
      f.remediation.notes =
          "mlx5 computes the lossless buffer's xoff from the NIC's cable length, link speed and MTU "
          "(en/port_buffer.c calculate_xoff). Give each PFC priority a receive buffer at least that "
          "large (mlnx_qos --prio2buffer and --buffer_size) and set the real cable length "
          "(mlnx_qos --cable_len, or `dcb pfc set dev " + n.name + " delay N`). Runtime only: lost at reboot "
          "or driver reload.";
      return;
    }
    if (judged.empty() || !missing.empty()) {
      // No `needs`: the mlnx_qos output is there; what it lacks takes a newer mlnx_qos, ethtool,
      // ip link or a policy.
      e.unknown(n.name, "PFC headroom not judged: missing " + join(missing, "; ") +
                            (judged.empty() ? "" : "; read: " + join(judged, "; ")));
      return;
    }
    std::string msg = join(judged, "; ");
    if (!pol.cable_length_m) msg += "; the policy sets no roce.cable_length_m, so the NIC's own cable length is assumed";
    Finding& f = e.pass(n.name, msg);
    add_evidence(f, q.buffer_source);
    add_evidence(f, q.cable_source);
  });
}

}  // namespace

void add_qos_ets_rules(std::vector<RuleInfo>& out) {
  out.push_back({"qos.ets-roce-share", "The RoCE traffic class has an ETS bandwidth share", Severity::error,
                 "netdev",
                 "With ETS, a traffic class at 0% is served only with what the classes with a share "
                 "leave: RoCE stalls whenever other traffic fills the link.",
                 "§4.2 QoS: the seed sets PFC and DSCP but not the transmit scheduler; NVIDIA's RoCE "
                 "defaults give the RoCE class a share (Cumulus TC3 ETS 50%).",
                 eval_ets_roce, k_any_outcome,
                 "traffic classes per netdev (mlnx_qos -i <netdev> `tc:` rows, dcbnl IEEE_ETS)"});
  out.push_back({"qos.ets-cnp-strict", "The CNP traffic class is not held behind an ETS share",
                 Severity::warning, "netdev",
                 "Congestion notifications must reach the sender fast; in an ETS class they wait "
                 "behind data and DCQCN reacts late.",
                 "§4.2 ECN/CNP: CNP priority 6 is strict on the switch (Cumulus TC6 strict); the host "
                 "class should not be weighted either.",
                 eval_ets_cnp, k_any_outcome,
                 "traffic classes per netdev (mlnx_qos -i <netdev> `tc:` rows, dcbnl IEEE_ETS)"});
  out.push_back({"qos.pfc-headroom", "The lossless receive buffer has PFC headroom for the cable",
                 Severity::warning, "netdev",
                 "PFC pauses take a cable round trip to act; a buffer without that headroom drops on "
                 "the lossless priority.",
                 "§4.2 PFC: the seed enables PFC but never sets the cable length the headroom depends "
                 "on (mlnx_qos --cable_len).",
                 eval_pfc_headroom, k_any_outcome,
                 "receive buffers, priority-to-buffer map and cable length per netdev (mlnx_qos -i "
                 "<netdev>), link speed (ethtool), MTU"});
}

}  // namespace rk::rules

// QoS rules: trust, DSCP->priority, PFC, global pause, ECN/DCQCN, CNP.
#include <string>

#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/qos_scope.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

std::string pfc_row(const std::vector<bool>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + std::string(v[i] ? "1" : "0");
  return s;
}

void eval_trust(const Snapshot& s, const Policy& pol, Emitter& e) {
  for_roce_netdevs(s, pol, e, [&](const NetDev& n) {
    if (!n.qos.has_value() || !n.qos->trust) {
      if (!n.qos.has_value()) e.missing(n.name, "trust state", n.qos);
      else e.unknown(n.name, "trust state not collected: output shows no trust state");
      return;
    }
    const std::string trust = str(*n.qos->trust);
    if (trust == pol.trust) {
      Finding& f = e.pass(n.name, "trust " + trust);
      add_evidence(f, n.qos->trust_source);
      return;
    }
    Finding& f = e.fail(n.name, "trust " + trust + ", policy " + pol.trust +
                                    ": RoCE packets are classified by the 802.1p PCP, so DSCP "
                                    + std::to_string(pol.roce_dscp) + " does not select priority " +
                                    std::to_string(pol.roce_priority));
    add_evidence(f, n.qos->trust_source);
    f.remediation.scope = FixScope::runtime;
    fix::set_fix_either(f.remediation, "trust", trust, pol.trust,
                        {fix::mlnx_qos_trust(n.name, pol.trust), fix::dcb_trust(n.name, pol.trust)},
                        prefers_dcb(n));
    f.remediation.notes =
        "mlnx_qos (NVIDIA OFED/DOCA or mlnx-tools) or upstream iproute2 `dcb` (>= 5.12): with "
        "dcbnl, trust dscp is the presence of DSCP entries in the APP table (mlx5 has no "
        "`dcb apptrust`), and `--trust dscp` installs the default map priority = DSCP >> 3 "
        "(DSCP 26 -> 3, 48 -> 6); `dcb app flush dev <if> dscp-prio` goes back to pcp. Runtime only: lost at reboot "
        "or driver reload (use `rocekit plan` for a boot-time unit). If lldpad runs, it may "
        "overwrite the setting.";
  });
}

void eval_dscp_map(const Snapshot& s, const Policy& pol, Emitter& e, int dscp, int prio,
                   const char* what) {
  for_roce_netdevs(s, pol, e, [&](const NetDev& n) {
    if (pol.trust != "dscp") {
      e.not_applicable(n.name, "policy trust is pcp");
      return;
    }
    if (!n.qos.has_value()) {
      e.missing(n.name, "DSCP map", n.qos);
      return;
    }
    if (n.qos->trust && *n.qos->trust != Trust::dscp) {
      e.unknown(n.name, "trust is " + str(*n.qos->trust) +
                            ": no DSCP-to-priority table is in effect (see qos.trust-dscp)");
      return;
    }
    if (n.qos->dscp_to_priority.empty()) {
      std::string why = "the DSCP-to-priority table is not shown";
      if (!n.qos.notes.empty()) why += " (" + join(n.qos.notes, "; ") + ")";
      e.unknown(n.name, why);
      return;
    }
    auto it = n.qos->dscp_to_priority.find(dscp);
    if (it == n.qos->dscp_to_priority.end()) {
      e.unknown(n.name, "the DSCP-to-priority table does not list DSCP " + std::to_string(dscp));
      return;
    }
    std::string msg = std::string(what) + " DSCP " + std::to_string(dscp) + " -> priority " +
                      std::to_string(it->second);
    if (it->second == prio) {
      Finding& f = e.pass(n.name, msg);
      add_evidence(f, n.qos->dscp_source);
      return;
    }
    Finding& f = e.fail(n.name, msg + ", policy priority " + std::to_string(prio));
    add_evidence(f, n.qos->dscp_source);
    f.remediation.scope = FixScope::runtime;
    fix::set_fix_either(f.remediation, "dscp2prio",
                 "dscp " + std::to_string(dscp) + ": prio " + std::to_string(it->second),
                 "dscp " + std::to_string(dscp) + ": prio " + std::to_string(prio),
                        {fix::mlnx_qos_dscp(n.name, dscp, prio), fix::dcb_dscp(n.name, dscp, prio)},
                        prefers_dcb(n));
    f.remediation.notes = "Runtime only: lost at reboot or driver reload. The switch must map the "
                          "same DSCP to the same priority/queue.";
  });
}

void eval_roce_dscp(const Snapshot& s, const Policy& pol, Emitter& e) {
  eval_dscp_map(s, pol, e, pol.roce_dscp, pol.roce_priority, "RoCE");
}
void eval_cnp_dscp(const Snapshot& s, const Policy& pol, Emitter& e) {
  eval_dscp_map(s, pol, e, pol.cnp_dscp, pol.cnp_priority, "CNP");
}

template <class Judge>
void eval_pfc(const Snapshot& s, const Policy& pol, Emitter& e, Judge judge) {
  for_roce_netdevs(s, pol, e, [&](const NetDev& n) {
    if (!n.qos.has_value()) {
      e.missing(n.name, "PFC state", n.qos);
      return;
    }
    if (!n.qos->pfc_enabled || n.qos->pfc_enabled->size() != 8) {
      std::string why = "the output shows no PFC configuration";
      if (!n.qos.notes.empty()) why += " (" + join(n.qos.notes, "; ") + ")";
      e.unknown(n.name, why);
      return;
    }
    const std::vector<bool>& pfc = *n.qos->pfc_enabled;
    std::string bad = judge(pfc);
    if (bad.empty()) {
      Finding& f = e.pass(n.name, "PFC enabled " + pfc_row(pfc));
      add_evidence(f, n.qos->pfc_source);
      return;
    }
    Finding& f = e.fail(n.name, bad + " (PFC enabled " + pfc_row(pfc) + ")");
    add_evidence(f, n.qos->pfc_source);
    f.remediation.scope = FixScope::runtime;
    std::vector<bool> want = fix::pfc_mask(pol.pfc_priorities);
    fix::set_fix_either(f.remediation, "pfc", pfc_row(pfc), pfc_row(want),
                        {fix::mlnx_qos_pfc(n.name, want), fix::dcb_pfc(n.name, want)}, prefers_dcb(n));
    f.remediation.notes =
        "Runtime only: lost at reboot or driver reload. The switch port must enable PFC on the "
        "same priority, with a lossless buffer; set the NIC's cable length (mlnx_qos "
        "--cable_len) so headroom is right.";
  });
}

void eval_pfc_roce(const Snapshot& s, const Policy& pol, Emitter& e) {
  eval_pfc(s, pol, e, [&](const std::vector<bool>& pfc) -> std::string {
    std::vector<std::string> off;
    for (int p : pol.pfc_priorities)
      if (!pfc[static_cast<std::size_t>(p)]) off.push_back(std::to_string(p));
    if (off.empty()) return "";
    return "PFC is off on RoCE priority " + join(off) + ": RoCE traffic is lossy";
  });
}

void eval_pfc_only(const Snapshot& s, const Policy& pol, Emitter& e) {
  eval_pfc(s, pol, e, [&](const std::vector<bool>& pfc) -> std::string {
    std::vector<std::string> extra;
    for (int p = 0; p < 8; ++p) {
      bool wanted = false;
      for (int q : pol.pfc_priorities) wanted = wanted || q == p;
      if (pfc[static_cast<std::size_t>(p)] && !wanted) extra.push_back(std::to_string(p));
    }
    if (extra.empty()) return "";
    return "PFC is on for non-RoCE priority " + join(extra) +
           ": pauses there can spread head-of-line blocking and deadlock risk";
  });
}

void eval_global_pause(const Snapshot& s, const Policy& pol, Emitter& e) {
  for_roce_netdevs(s, pol, e, [&](const NetDev& n) {
    if (!n.pause.has_value() || (!n.pause->rx && !n.pause->tx)) {
      if (!n.pause.has_value()) e.missing(n.name, "802.3x pause state", n.pause);
      else e.unknown(n.name, "802.3x pause state not collected: no RX/TX values");
      return;
    }
    bool rx = n.pause->rx.value_or(false);
    bool tx = n.pause->tx.value_or(false);
    std::string state = std::string("RX ") + (n.pause->rx ? (rx ? "on" : "off") : "?") + ", TX " +
                        (n.pause->tx ? (tx ? "on" : "off") : "?");
    if (!rx && !tx && n.pause->rx && n.pause->tx) {
      Finding& f = e.pass(n.name, "global pause " + state);
      add_evidence(f, n.pause.source);
      return;
    }
    if (!rx && !tx) {
      e.unknown(n.name, "global pause partly shown: " + state);
      return;
    }
    Finding& f = e.fail(n.name, "global 802.3x pause is on (" + state +
                                    "): it pauses every priority and conflicts with PFC");
    add_evidence(f, n.pause.source);
    f.remediation.scope = FixScope::runtime;
    fix::set_fix(f.remediation, "pause", state, "RX off, TX off",
                 {fix::ethtool_pause(n.name, false, false, false)});
    f.remediation.notes = "Runtime only: lost at reboot or driver reload.";
  });
}

void eval_ecn(const Snapshot& s, const Policy& pol, Emitter& e) {
  for_roce_netdevs(s, pol, e, [&](const NetDev& n) {
    std::vector<std::string> missing;
    std::vector<std::string> bad;
    Finding tmp;
    if (!n.ecn.has_value()) {
      missing.push_back("runtime ECN sysfs (/sys/class/net/" + n.name + "/ecn): " + n.ecn.reason);
    } else {
      for (int p : pol.ecn_priorities) {
        auto rp = n.ecn->rp_enabled.find(p);
        auto np = n.ecn->np_enabled.find(p);
        if (rp == n.ecn->rp_enabled.end() || np == n.ecn->np_enabled.end())
          missing.push_back("ecn roce_rp/roce_np enable/" + std::to_string(p));
        else if (!rp->second || !np->second)
          bad.push_back(std::string("priority ") + std::to_string(p) + ": RP " +
                        (rp->second ? "on" : "off") + ", NP " + (np->second ? "on" : "off"));
      }
    }
    const PciFunction* nv = n.bdf ? nv_source_for(s, *n.bdf) : nullptr;
    int nv_ports = nv ? nv_port_count(*nv->nv_config, "ROCE_CC_PRIO_MASK") : 0;
    // The port from phys_port_name / the RDMA port, not the PCI function number (issue 14.7).
    std::optional<int> port = physical_port_of(s, n, nv_ports);
    std::string mask_name = "ROCE_CC_PRIO_MASK_P" + (port ? std::to_string(*port) : std::string("<n>"));
    std::optional<long long> new_mask;
    if (!nv) {
      missing.push_back("firmware " + mask_name + " (mlxconfig/mstconfig q)");
    } else if (!port) {
      missing.push_back("the physical port of " + n.name + " (no phys_port_name np<N> in its name; "
                        "the PCI function number is not the port on Socket-Direct or Multi-Host cards)");
    } else if (const NvParam* prm = nv->nv_config->find(mask_name)) {
      auto mask = nv_number(nv_value(*prm));
      if (!mask) {
        missing.push_back(mask_name + " value unreadable");
      } else {
        new_mask = *mask;
        for (int p : pol.ecn_priorities) {
          if (p >= 0 && p < 8) *new_mask |= 1LL << p;
          if (!((*mask >> p) & 1))
            bad.push_back(mask_name + "=" + std::to_string(*mask) + " has DCQCN off for priority " +
                          std::to_string(p));
        }
      }
    } else {
      missing.push_back(mask_name + " not in the firmware query");
    }
    if (!bad.empty()) {
      Finding& f = e.fail(n.name, "DCQCN not enabled on the RoCE priority: " + join(bad, "; "));
      if (n.ecn.has_value()) add_evidence(f, n.ecn.source);
      f.remediation.scope = FixScope::runtime;
      std::vector<FixStep> steps;
      for (int p : pol.ecn_priorities)
        for (const char* point : {"roce_rp", "roce_np"}) steps.push_back(fix::sysfs_ecn(n.name, point, p, true));
      fix::set_fix(f.remediation, "ecn", join(bad, "; "), "RP and NP enabled", std::move(steps));
      // The policy's priorities are added to the mask, the others kept (as `rocekit plan` does).
      if (n.bdf && new_mask && *new_mask != 0) {
        FixStep nv_step = fix::nv_set("mstconfig", *n.bdf, {{mask_name, std::to_string(*new_mask)}});
        f.remediation.commands.push_back(fix::command_line(nv_step));
        f.remediation.steps.push_back(std::move(nv_step));
      }
      f.remediation.notes =
          "mlnx_qos has no --ecn option (`mlnx_qos -i eth0 --ecn`, as some guides write it, does not exist; mlnx-tools python/mlnx_qos). "
          "Runtime: the NVIDIA-driver sysfs ecn/roce_rp (reaction point) and ecn/roce_np "
          "(notification point, port-wide) enable files, lost at reboot. Firmware: "
          "ROCE_CC_PRIO_MASK_P<n> is the DCQCN enable bitmask by priority (default 255; the "
          "0x8 some guides give disables DCQCN on every other priority): the policy's priorities are added, "
          "the other bits kept; applied after reboot/mstfwreset.";
      return;
    }
    if (!missing.empty()) {
      Finding& f = e.unknown(n.name, "needs both runtime ECN sysfs and firmware mask; missing: " +
                                         join(missing, "; "));
      if (!n.ecn.has_value()) f.needs.push_back("sysfs_ecn");
      if (!nv) f.needs.push_back("mlxconfig_q");
      return;
    }
    Finding& f = e.pass(n.name, "DCQCN RP and NP enabled on priority " +
                                    [&] {
                                      std::vector<std::string> v;
                                      for (int p : pol.ecn_priorities) v.push_back(std::to_string(p));
                                      return join(v);
                                    }() +
                                    " at runtime and in " + mask_name);
    add_evidence(f, n.ecn.source);
  }, /*port_qos=*/false);  // ECN sysfs roce_np/roce_rp is per function: judged on every side
}

void eval_cnp_firmware(const Snapshot& s, const Policy& pol, Emitter& e) {
  bool any = false;
  for (const PciFunction& p : s.pci_functions) {
    if (!p.nv_config.has_value()) continue;
    any = true;
    const NvConfig& cfg = *p.nv_config;
    std::vector<std::string> bad;
    std::vector<std::string> seen;
    std::vector<std::string> unclear;                 // enum values the DB does not define
    std::vector<const NvParam*> cited, bad_params;    // evidence: the parameters' own lines
    std::vector<std::pair<std::string, std::string>> set_args;
    for (int port = 1; port <= 4; ++port) {
      std::string ps = "_P" + std::to_string(port);
      const NvParam* dscp = cfg.find("CNP_DSCP" + ps);
      const NvParam* prio = cfg.find("CNP_802P_PRIO" + ps);
      if (!dscp && !prio) continue;
      auto d = dscp ? nv_number(nv_value(*dscp)) : std::nullopt;
      auto q = prio ? nv_number(nv_value(*prio)) : std::nullopt;
      seen.push_back("CNP_DSCP" + ps + "=" + (d ? std::to_string(*d) : "?") + " CNP_802P_PRIO" +
                     ps + "=" + (q ? std::to_string(*q) : "?"));
      if (dscp) cited.push_back(dscp);
      if (prio) cited.push_back(prio);
      if (d && (*d < 0 || *d > 63)) unclear.push_back("CNP_DSCP" + ps + "=" + std::to_string(*d) + " is not a DSCP (0..63)");
      if (q && (*q < 0 || *q > 7)) unclear.push_back("CNP_802P_PRIO" + ps + "=" + std::to_string(*q) + " is not a priority (0..7)");
      if (d && *d != pol.cnp_dscp) {
        bad_params.push_back(dscp);
        bad.push_back("CNP_DSCP" + ps + "=" + std::to_string(*d));
        set_args.emplace_back("CNP_DSCP" + ps, std::to_string(pol.cnp_dscp));
      }
      if (q && *q != pol.cnp_priority) {
        bad_params.push_back(prio);
        bad.push_back("CNP_802P_PRIO" + ps + "=" + std::to_string(*q));
        set_args.emplace_back("CNP_802P_PRIO" + ps, std::to_string(pol.cnp_priority));
      }
      // Newer firmware (mlxconfig DB TLV nv_roce_cc_ecn): CNP_DSCP_MODE_P<n> DEVICE_DEFAULT(0),
      // FIXED_VALUE(1) or RX_PACKET(2), which copies the DSCP of the received packet, and
      // CNP_RES_PRIO_MODE_P<n> ("If TRUE, CNP packets for this port contain priority from a
      // received request"): either makes the fixed value above unused.
      if (const NvParam* mode = cfg.find("CNP_DSCP_MODE" + ps)) {
        auto v = nv_value(*mode);
        auto m = nv_number(v);
        seen.push_back("CNP_DSCP_MODE" + ps + "=" + v.value_or("?"));
        cited.push_back(mode);
        if (!(m && *m >= 0 && *m <= 2) && !(v && (v->find("RX_PACKET") != std::string::npos ||
                                                  v->find("FIXED_VALUE") != std::string::npos ||
                                                  v->find("DEVICE_DEFAULT") != std::string::npos)))
          unclear.push_back("CNP_DSCP_MODE" + ps + "=" + v.value_or("?") +
                            " is none of DEVICE_DEFAULT(0), FIXED_VALUE(1), RX_PACKET(2)");
        if ((m && *m == 2) || (v && v->find("RX_PACKET") != std::string::npos)) {
          bad_params.push_back(mode);
          bad.push_back("CNP_DSCP_MODE" + ps + "=" + *v + " (CNPs copy the DSCP of the packet that triggered "
                        "them, so they ride the RoCE class and CNP_DSCP" + ps + " is unused)");
          set_args.emplace_back("CNP_DSCP_MODE" + ps, "1");
        }
      }
      if (const NvParam* res = cfg.find("CNP_RES_PRIO_MODE" + ps)) {
        auto v = nv_value(*res);
        auto m = nv_number(v);
        seen.push_back("CNP_RES_PRIO_MODE" + ps + "=" + v.value_or("?"));
        cited.push_back(res);
        if (!(m && (*m == 0 || *m == 1)))
          unclear.push_back("CNP_RES_PRIO_MODE" + ps + "=" + v.value_or("?") + " is neither False(0) nor True(1)");
        if (m && *m == 1) {
          bad_params.push_back(res);
          bad.push_back("CNP_RES_PRIO_MODE" + ps + "=" + *v + " (CNPs take the priority of the received "
                        "request, so CNP_802P_PRIO" + ps + " is unused)");
          set_args.emplace_back("CNP_RES_PRIO_MODE" + ps, "0");
        }
      }
    }
    Evidence ev = p.nv_config.source;
    if (seen.empty()) {
      e.unknown(p.bdf, "the firmware query shows no CNP_DSCP_P<n>/CNP_802P_PRIO_P<n> parameters");
      continue;
    }
    auto cite = [&](Finding& f, const std::vector<const NvParam*>& ps) {
      // The parameter's own line; the text is its name, which that line holds (the value is in the message).
      for (const NvParam* prm : ps) add_evidence(f, Evidence{ev.file, prm->line, prm->name});
      if (ps.empty()) add_evidence(f, ev);
    };
    if (bad.empty() && !unclear.empty()) {
      cite(e.unknown(p.bdf, "CNP firmware values rocekit cannot read: " + join(unclear, "; ")), cited);
      continue;
    }
    if (bad.empty()) {
      cite(e.pass(p.bdf, join(seen, "; ")), cited);
      continue;
    }
    Finding& f = e.fail(p.bdf, "CNPs not marked with DSCP " + std::to_string(pol.cnp_dscp) +
                                   " / priority " + std::to_string(pol.cnp_priority) + ": " +
                                   join(bad, ", "));
    cite(f, bad_params);
    f.remediation.scope = FixScope::firmware_reboot;
    fix::set_fix(f.remediation, "nv_config", join(bad, " "), "CNP DSCP " + std::to_string(pol.cnp_dscp) +
                 ", priority " + std::to_string(pol.cnp_priority), {fix::nv_set("mstconfig", p.bdf, set_args)});
    f.remediation.commands.push_back("mstfwreset -d " + p.bdf + " reset");
    f.remediation.notes =
        "Firmware NV parameters (mstflint's mstconfig, or MFT's mlxconfig): take effect after a "
        "reboot or firmware reset. CNP_DSCP_MODE_P<n>=1 is FIXED_VALUE (use CNP_DSCP_P<n>), "
        "CNP_RES_PRIO_MODE_P<n>=0 uses CNP_802P_PRIO_P<n>. The switch must put the CNP DSCP in a strict-priority, "
        "non-lossless queue. Runtime alternative on NVIDIA drivers: "
        "/sys/class/net/<if>/ecn/roce_np/cnp_dscp and cnp_802p_prio.";
  }
  if (!any) e.unknown("host", "no firmware NV configuration in the input (mlxconfig/mstconfig q)").needs = {"mlxconfig_q"};
}

}  // namespace

void add_qos_rules(std::vector<RuleInfo>& out) {
  out.push_back({"qos.trust-dscp", "Trust state is DSCP", Severity::error, "netdev",
                 "RoCEv2 is routed: the DSCP survives L3 hops, the 802.1p PCP does not. With trust "
                 "pcp, untagged RoCE lands in priority 0 and misses PFC.",
                 "§4.2 QoS: `mlnx_qos -i <if> --trust dscp`.", eval_trust,
                 k_any_outcome,
                 "trust state per netdev (mlnx_qos -i <netdev>, dcbnl APP table)"});
  out.push_back({"qos.roce-dscp-priority", "RoCE DSCP maps to the RoCE priority", Severity::error,
                 "netdev", "RoCE packets must land in the lossless (PFC) priority.",
                 "§4.2 QoS: DSCP 26 -> priority 3.", eval_roce_dscp,
                 k_any_outcome,
                 "DSCP-to-priority map per netdev (mlnx_qos -i <netdev>, dcbnl APP table)"});
  out.push_back({"qos.cnp-dscp-priority", "CNP DSCP maps to the CNP priority", Severity::warning,
                 "netdev",
                 "Congestion notifications must bypass congested data queues to slow senders fast.",
                 "§4.2 ECN/DCQCN: CNP DSCP 48 -> priority 6.", eval_cnp_dscp,
                 k_any_outcome,
                 "DSCP-to-priority map per netdev (mlnx_qos -i <netdev>, dcbnl APP table)"});
  out.push_back({"qos.pfc-roce-priority", "PFC is on for the RoCE priority", Severity::critical,
                 "netdev",
                 "Without PFC on its priority RoCE is lossy: drops become go-back-N retransmissions "
                 "and throughput collapses under incast.",
                 "§4.2 PFC: `mlnx_qos -i <if> --pfc 0,0,0,1,0,0,0,0`.", eval_pfc_roce,
                 k_any_outcome,
                 "PFC enabled priorities per netdev (mlnx_qos -i <netdev>, dcbnl, sysfs qos/pfc)"});
  out.push_back({"qos.pfc-only-roce-priority", "PFC is off for every other priority",
                 Severity::warning, "netdev",
                 "PFC on extra priorities spreads pauses to unrelated traffic and raises deadlock "
                 "and pause-storm risk.",
                 "§4.2 PFC: only the RoCE priority is lossless.", eval_pfc_only,
                 k_any_outcome,
                 "PFC enabled priorities per netdev (mlnx_qos -i <netdev>, dcbnl, sysfs qos/pfc)"});
  out.push_back({"qos.global-pause-off", "Global 802.3x pause is off", Severity::error, "netdev",
                 "Link-level pause stops every priority and defeats per-priority flow control.",
                 "§4.2 PFC replaces global flow control.", eval_global_pause,
                 k_any_outcome,
                 "802.3x pause per netdev (ethtool -a)"});
  out.push_back({"qos.ecn-roce-priority", "DCQCN (ECN) RP and NP on the RoCE priority",
                 Severity::error, "netdev",
                 "DCQCN reacts to ECN marks before buffers fill; without it PFC does all the work "
                 "and pauses spread.",
                 "§4.2 ECN: the seed's `mlnx_qos --ecn` does not exist; the real mechanisms are "
                 "ecn/roce_rp|roce_np sysfs and ROCE_CC_PRIO_MASK_P<n> (host-facts §K.3).",
                 eval_ecn,
                 k_any_outcome,
                 "ECN roce_rp / roce_np enable per priority (sysfs /sys/class/net/<netdev>/ecn) and firmware ROCE_CC_PRIO_MASK_P<n> (mlxconfig q)"});
  out.push_back({"qos.cnp-firmware", "Firmware CNP DSCP and priority match the policy",
                 Severity::warning, "pci function",
                 "CNPs must be marked so the switch forwards them in a fast, non-lossless queue.",
                 "§4.2 ECN/CNP: CNP_DSCP_P<n>, CNP_802P_PRIO_P<n> firmware parameters, and the "
                 "CNP_DSCP_MODE_P<n> / CNP_RES_PRIO_MODE_P<n> that can make them unused.",
                 eval_cnp_firmware,
                 k_pass_fail_unknown,
                 "firmware CNP_DSCP_P<n>, CNP_802P_PRIO_P<n>, CNP_DSCP_MODE_P<n>, CNP_RES_PRIO_MODE_P<n> (mlxconfig / mstconfig -d <bdf> q)"});
}

}  // namespace rk::rules

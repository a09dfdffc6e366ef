// Host <-> switch alignment rules (`switch.*`). Rules: shared/reference/switch/switch.md
// §"Consistency rules the audit can evaluate" (numbers in comments refer to that list).
#include <algorithm>
#include <set>

#include "rocekit/core/shell.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {


std::string pri_set(const std::set<int>& s) {
  std::vector<int> v(s.begin(), s.end());
  return v.empty() ? "none" : detail::int_list(v);
}

void add_ev(Finding& f, const Evidence& e) {
  if (e.file.empty() && e.text.empty()) return;
  f.evidence.push_back(e);
}

/// What the host does for one netdev (RoCE side), with evidence.
struct HostSide {
  const NetDev* netdev = nullptr;
  std::string name;
  std::optional<std::string> trust;
  Evidence trust_ev;
  std::string trust_reason;
  int roce_dscp = 26;
  std::optional<int> roce_priority;   ///< hp(d)
  Evidence prio_ev;
  std::string prio_reason;
  std::optional<std::set<int>> pfc;   ///< host PFC priorities
  Evidence pfc_ev;
  std::string pfc_reason;
  std::optional<bool> ecn_rp, ecn_np;  ///< on hp(d)
  Evidence ecn_ev;
  int cnp_dscp = 48;
  Evidence cnp_ev;
  std::string cnp_basis;
  std::optional<int> mtu;
  Evidence mtu_ev;
  std::string mtu_reason;
};

HostSide host_side(const Snapshot& s, const NetDev& n, const Policy& pol) {
  HostSide h;
  h.netdev = &n;
  h.name = n.name;
  h.roce_dscp = pol.roce_dscp;
  if (n.qos.has_value()) {
    const QosState& q = *n.qos;
    if (q.trust) h.trust = str(*q.trust);
    h.trust_ev = q.trust_source;
    if (!q.trust) h.trust_reason = "host trust state not shown";
    if (q.trust && *q.trust == Trust::dscp) {
      auto it = q.dscp_to_priority.find(pol.roce_dscp);
      if (it != q.dscp_to_priority.end()) {
        h.roce_priority = it->second;
        h.prio_ev = q.dscp_source;
      } else {
        h.prio_reason = "host DSCP->priority map does not show DSCP " + std::to_string(pol.roce_dscp);
      }
    } else if (q.trust) {
      h.prio_reason = "host trust " + str(*q.trust) + ": the RoCE priority is the VLAN PCP, not captured";
    } else {
      h.prio_reason = h.trust_reason;
    }
    if (q.pfc_enabled) {
      std::set<int> on;
      for (std::size_t i = 0; i < q.pfc_enabled->size(); ++i)
        if ((*q.pfc_enabled)[i]) on.insert(static_cast<int>(i));
      h.pfc = on;
      h.pfc_ev = q.pfc_source;
    } else {
      h.pfc_reason = "host PFC state not shown";
    }
  } else {
    h.trust_reason = h.prio_reason = h.pfc_reason = "host QoS not collected: " + n.qos.reason;
  }
  if (n.ecn.has_value() && h.roce_priority) {
    auto rp = n.ecn->rp_enabled.find(*h.roce_priority);
    auto np = n.ecn->np_enabled.find(*h.roce_priority);
    if (rp != n.ecn->rp_enabled.end()) h.ecn_rp = rp->second;
    if (np != n.ecn->np_enabled.end()) h.ecn_np = np->second;
    h.ecn_ev = n.ecn.source;
  }
  // CNP DSCP: firmware CNP_DSCP_P<port> when captured, else the policy.
  h.cnp_dscp = pol.cnp_dscp;
  h.cnp_basis = "policy cnp_dscp (firmware CNP_DSCP not captured)";
  if (n.bdf) {
    if (const PciFunction* f = rules::nv_source_for(s, *n.bdf)) {
      // The port from phys_port_name / the RDMA port, as the host rules take it (not the PCI
      // function number, wrong with more PFs than ports, Socket-Direct and Multi-Host).
      std::optional<int> port = rules::physical_port_of(s, n, rules::nv_port_count(*f->nv_config, "CNP_DSCP"));
      const std::string param = "CNP_DSCP_P" + (port ? std::to_string(*port) : std::string("<n>"));
      if (!port) h.cnp_basis = "policy cnp_dscp (firmware " + param + ": the physical port of " + n.name + " is not known)";
      if (const NvParam* p = port ? f->nv_config->find(param) : nullptr) {
        if (std::optional<long long> v = rules::nv_number(rules::nv_value(*p)); v && *v >= 0 && *v < 64) {
          h.cnp_dscp = static_cast<int>(*v);
          h.cnp_basis = "firmware " + param;
          h.cnp_ev = Evidence{f->nv_config.source.file, p->line, param + " " + std::to_string(*v)};
        }
      }
    }
  }
  if (n.mtu_bytes.has_value()) {
    h.mtu = *n.mtu_bytes;
    h.mtu_ev = n.mtu_bytes.source;
  } else {
    h.mtu_reason = "host netdev MTU not collected: " + n.mtu_bytes.reason;
  }
  return h;
}

/// The PFC priority that pauses traffic class `tc`: the same number, unless the config states
/// which priority pauses each lossless class (PortQos::tc_pfc_priority), where a class it does
/// not list is paused by none (-1).
int pfc_prio_of_tc(const PortQos& p, int tc) {
  if (p.tc_pfc_priority.empty()) return tc;
  auto it = p.tc_pfc_priority.find(tc);
  return it == p.tc_pfc_priority.end() ? -1 : it->second;
}

/// The switch path of one DSCP: traffic class and queue, or why not known.
struct SwitchPath {
  std::optional<int> tc;
  std::optional<int> queue;
  std::vector<Evidence> ev;
  std::string reason;  ///< when tc or queue is unknown
};

SwitchPath path_of(const PortQos& p, int dscp) {
  SwitchPath r;
  if (!p.dscp_to_tc.has_value()) {
    r.reason = "switch DSCP->TC map unknown: " + p.dscp_to_tc.reason;
    return r;
  }
  auto it = p.dscp_to_tc->find(dscp);
  if (it == p.dscp_to_tc->end()) {
    r.reason = "switch DSCP->TC map has no entry for DSCP " + std::to_string(dscp);
    r.ev.push_back(p.dscp_to_tc.source);
    return r;
  }
  r.tc = it->second;
  Evidence e = p.dscp_to_tc.source;
  e.text = "DSCP " + std::to_string(dscp) + " -> TC " + std::to_string(*r.tc) + " (" + e.text + ")";
  if (auto ln = p.dscp_to_tc_lines.find(dscp); ln != p.dscp_to_tc_lines.end() && ln->second) e.line = ln->second;
  r.ev.push_back(e);
  if (!p.tc_to_queue.has_value()) {
    r.reason = "switch TC->queue map unknown: " + p.tc_to_queue.reason;
    return r;
  }
  auto q = p.tc_to_queue->find(*r.tc);
  if (q == p.tc_to_queue->end()) {
    r.reason = "switch TC->queue map has no entry for TC " + std::to_string(*r.tc);
    return r;
  }
  r.queue = q->second;
  Evidence qe = p.tc_to_queue.source;
  qe.text = "TC " + std::to_string(*r.tc) + " -> queue " + std::to_string(*r.queue) + " (" + qe.text + ")";
  r.ev.push_back(qe);
  return r;
}

/// Dialect-specific switch commands.
struct SwitchCmds {
  Dialect d;
  std::string port;
  std::string map_name;

  /// Onyx interface commands take "ethernet 1/15" for port Eth1/15 (ansible mellanox.onyx).
  std::string onyx_if() const {
    if (port.empty() || port == "*") return "ethernet <port>";
    return "ethernet " + (port.starts_with("Eth") ? port.substr(3) : port);
  }

  std::string dscp_to_tc(int dscp, int tc) const {
    switch (d) {
      case Dialect::sonic_config_db:
        return "sonic-db-cli CONFIG_DB HSET " + text::shell_quote("DSCP_TO_TC_MAP|" + (map_name.empty() ? std::string("AZURE") : map_name)) +
               " " + std::to_string(dscp) + " " + std::to_string(tc);
      case Dialect::nvue_config_json:
      case Dialect::nvue_show_roce:
      case Dialect::nvue_commands:
        return "nv set qos mapping default-global dscp " + std::to_string(dscp) + " switch-priority " + std::to_string(tc);
      case Dialect::arista_eos:
        return "qos map dscp " + std::to_string(dscp) + " to traffic-class " + std::to_string(tc);
      case Dialect::dell_sonic_cli:
        return "qos map dscp-tc " + (map_name.empty() ? std::string("ROCE") : map_name) + " / dscp " + std::to_string(dscp) +
               " traffic-class " + std::to_string(tc);
      case Dialect::juniper_junos:
        return "set class-of-service classifiers dscp " + (map_name.empty() ? std::string("<classifier>") : map_name) +
               " forwarding-class <no-loss class of queue " + std::to_string(tc) + "> loss-priority low code-points " +
               std::to_string(dscp) + " (as 6 bits)";
      case Dialect::cisco_nxos:
        return "class-map type qos match-any ROCE_DSCP" + std::to_string(dscp) + " / match dscp " + std::to_string(dscp) +
               "; policy-map type qos " + (map_name.empty() ? std::string("QOS_CLASSIFICATION") : map_name) +
               " / class ROCE_DSCP" + std::to_string(dscp) + " / set qos-group " + std::to_string(tc);
      case Dialect::onyx_show_roce:
        // ansible mellanox.onyx onyx_qos: "interface {0} {1} qos trust {2}"; the map itself is
        // shown by `show qos interface`.
        return "interface " + onyx_if() + " qos trust L3; then check that `show qos interface " + onyx_if() +
               "` maps DSCP " + std::to_string(dscp) + " to switch priority " + std::to_string(tc);
    }
    return {};
  }
  /// Classify on DSCP at this port.
  std::string trust_dscp() const {
    switch (d) {
      case Dialect::sonic_config_db:
        return "sonic-db-cli CONFIG_DB HSET " + text::shell_quote("PORT_QOS_MAP|" + port) + " dscp_to_tc_map " +
               (map_name.empty() ? std::string("AZURE") : map_name);
      case Dialect::nvue_config_json:
      case Dialect::nvue_show_roce:
      case Dialect::nvue_commands:
        return "nv set qos mapping default-global trust both";
      case Dialect::arista_eos:
        return "interface " + port + " / qos trust dscp";
      case Dialect::dell_sonic_cli:
        return "interface " + port + " / qos-map dscp-tc " + (map_name.empty() ? std::string("ROCE") : map_name);
      case Dialect::juniper_junos:
        return "set class-of-service interfaces " + port + " unit 0 classifiers dscp " +
               (map_name.empty() ? std::string("<classifier>") : map_name);
      case Dialect::cisco_nxos:
        return "interface " + port + " / service-policy type qos input " +
               (map_name.empty() ? std::string("QOS_CLASSIFICATION") : map_name) + " (a policy-map type qos matching dscp)";
      case Dialect::onyx_show_roce:
        return "interface " + onyx_if() + " qos trust L3";  // ansible mellanox.onyx onyx_qos
    }
    return {};
  }
  std::string pfc_on(int prio) const {
    switch (d) {
      case Dialect::sonic_config_db:
        return "config interface pfc priority " + text::shell_quote(port) + " " + std::to_string(prio) + " on";
      case Dialect::nvue_config_json:
      case Dialect::nvue_show_roce:
      case Dialect::nvue_commands:
        return "nv set qos pfc default-global switch-priority " + std::to_string(prio);
      case Dialect::arista_eos:
        return "priority-flow-control priority " + std::to_string(prio) + " no-drop";
      case Dialect::dell_sonic_cli:
        return "interface " + port + " / priority-flow-control priority " + std::to_string(prio);
      case Dialect::juniper_junos:
        return "set class-of-service forwarding-classes class <class of queue> no-loss pfc-priority " + std::to_string(prio) +
               "; set class-of-service congestion-notification-profile <profile> input dscp code-point <RoCE DSCP> pfc";
      case Dialect::cisco_nxos:
        return "policy-map type network-qos <system network-qos policy> / class type network-qos c-8q-nq" +
               std::to_string(prio) + " / pause pfc-cos " + std::to_string(prio) + "; interface " + port +
               " / priority-flow-control mode on";
      case Dialect::onyx_show_roce:
        // ansible mellanox.onyx onyx_protocol / onyx_pfc_interface; `roce lossless` makes the RoCE
        // switch priority lossless (Onyx User Manual, RoCE Commands).
        (void)prio;  // `roce lossless` makes the RoCE switch priority (3) lossless
        return "dcb priority-flow-control enable force; interface " + onyx_if() +
               " dcb priority-flow-control mode on force; roce lossless";
    }
    return {};
  }
  std::string ecn_on(int q) const {
    switch (d) {
      case Dialect::sonic_config_db:
        return "sonic-db-cli CONFIG_DB HSET " + text::shell_quote("QUEUE|" + port + "|" + std::to_string(q)) +
               " wred_profile AZURE_LOSSLESS";
      case Dialect::nvue_config_json:
      case Dialect::nvue_show_roce:
      case Dialect::nvue_commands:
        return "nv set qos congestion-control default-global traffic-class " + std::to_string(q) + " ecn enable";
      case Dialect::arista_eos:
        return "tx-queue " + std::to_string(q) +
               " / random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes";
      case Dialect::dell_sonic_cli:
        return "qos wred-policy ROCE / green minimum-threshold 2048 maximum-threshold 12480 drop-probability 15 / ecn green; "
               "interface " + port + " / queue " + std::to_string(q) + " wred-policy ROCE";
      case Dialect::juniper_junos:
        return "set class-of-service schedulers <scheduler of queue " + std::to_string(q) + "> explicit-congestion-notification";
      case Dialect::cisco_nxos:
        return "policy-map type queuing <system output queuing policy> / class type queuing c-out-8q-q" +
               std::to_string(q) + " / random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes "
               "drop-probability 100 weight 0 ecn";
      case Dialect::onyx_show_roce:
        // ansible mellanox.onyx onyx_traffic_class (thresholds in KB).
        return "interface " + onyx_if() + " traffic-class " + std::to_string(q) +
               " congestion-control ecn minimum-absolute 150 maximum-absolute 1500";
    }
    return {};
  }
  std::string mtu(int bytes) const {
    switch (d) {
      case Dialect::sonic_config_db:
        return "config interface mtu " + text::shell_quote(port) + " " + std::to_string(bytes);
      case Dialect::nvue_config_json:
      case Dialect::nvue_show_roce:
      case Dialect::nvue_commands:
        return "nv set interface " + text::shell_quote(port) + " link mtu " + std::to_string(bytes);
      case Dialect::arista_eos:
      case Dialect::cisco_nxos:
      case Dialect::dell_sonic_cli:
        return "interface " + port + " / mtu " + std::to_string(bytes);
      case Dialect::juniper_junos:
        return "set interfaces " + port + " mtu " + std::to_string(bytes + 14);
      case Dialect::onyx_show_roce:
        // ansible mellanox.onyx onyx_interface: "mtu N" + " force" on Ethernet interfaces.
        return "interface " + onyx_if() + " mtu " + std::to_string(bytes) + " force";
    }
    return {};
  }
};

struct Pair {
  const HostSide& h;
  const PortQos& p;
  const SwitchQos& sw;
  std::string subject;
  SwitchCmds cmds;
};

class Out {
 public:
  Out(std::vector<Finding>& out, const Policy& pol) : m_out(out), m_pol(pol) {}
  const Policy& policy() const { return m_pol; }
  Finding* add(const SwitchRule& r, const std::string& subject, Outcome o, std::string msg) {
    if (!m_pol.rule_enabled(std::string(r.id))) return nullptr;
    Finding f;
    f.rule = std::string(r.id);
    f.subject = subject;
    f.outcome = o;
    f.severity = r.severity;
    f.message = std::move(msg);
    m_out.push_back(std::move(f));
    return &m_out.back();
  }

 private:
  std::vector<Finding>& m_out;
  const Policy& m_pol;
};

const SwitchRule& rule(std::string_view id) { return *find_switch_rule(id); }

void check_trust(const Pair& c, Out& out) {
  const SwitchRule& r = rule("switch.trust-dscp");
  if (!c.h.trust) return void(out.add(r, c.subject, Outcome::unknown, c.h.trust_reason));
  if (!c.p.trust.has_value())
    return void(out.add(r, c.subject, Outcome::unknown, "switch trust unknown: " + c.p.trust.reason));
  const std::string& ht = *c.h.trust;
  const std::string& st = *c.p.trust;
  bool ok = st.find(ht == "dscp" ? "dscp" : "pcp") != std::string::npos;
  Finding* f = out.add(r, c.subject, ok ? Outcome::pass : Outcome::fail,
                       "host trust " + ht + ", switch port classifies on " + st +
                           (ok ? "" : ": RoCE lands in the switch's default class"));
  if (!f) return;
  add_ev(*f, c.h.trust_ev);
  add_ev(*f, c.p.trust.source);
  if (!ok) {
    f->remediation.scope = FixScope::persistent;
    // The side that departs from the policy moves: a host on the policy's trust keeps it and the
    // switch port is changed; a host off the policy is set back to it.
    if (ht == out.policy().trust && ht == "dscp")
      f->remediation.commands = {c.cmds.trust_dscp()};
    else
      f->remediation.commands = {"mlnx_qos -i " + text::shell_quote(c.h.name) + " --trust " + out.policy().trust};
    f->remediation.notes = std::string("Host: ") + std::string(r.host_fix) + " Switch: " + std::string(r.switch_fix);
  }
}

void check_lossless(const Pair& c, Out& out) {
  const SwitchRule& r = rule("switch.roce-lossless");
  const int d = c.h.roce_dscp;
  SwitchPath path = path_of(c.p, d);
  std::vector<std::string> fails, unknowns;
  std::optional<std::set<int>> sw_pfc;
  if (c.p.pfc_enabled.has_value()) sw_pfc = std::set<int>(c.p.pfc_enabled->begin(), c.p.pfc_enabled->end());
  else unknowns.push_back("switch PFC priorities unknown: " + c.p.pfc_enabled.reason);
  if (!path.tc) unknowns.push_back(path.reason);
  if (path.tc && sw_pfc && !sw_pfc->count(pfc_prio_of_tc(c.p, *path.tc)))
    fails.push_back("switch maps DSCP " + std::to_string(d) + " to TC " + std::to_string(*path.tc) +
                    (path.queue ? " (queue " + std::to_string(*path.queue) + ")" : std::string()) +
                    ", which has no PFC (switch PFC priorities " + pri_set(*sw_pfc) + "): RoCE is lossy on this hop");
  if (!c.h.roce_priority) unknowns.push_back(c.h.prio_reason);
  const int hp = c.h.roce_priority.value_or(-1);
  if (c.h.roce_priority && sw_pfc && !sw_pfc->count(hp))
    fails.push_back("host sends RoCE on priority " + std::to_string(hp) + " but the switch has no PFC on it (" +
                    pri_set(*sw_pfc) + "): host PAUSE frames for it are ignored");
  // The host's RoCE priority unknown (trust pcp, map not shown), but no priority both sides
  // make lossless: whichever priority the host sends RoCE on, one side does not pause it.
  bool disjoint_pfc = false;
  if (!c.h.roce_priority && c.h.pfc && sw_pfc && !sw_pfc->empty()) {
    disjoint_pfc = true;
    for (int p : *sw_pfc)
      if (c.h.pfc->count(p)) disjoint_pfc = false;
  }
  if (disjoint_pfc)
    fails.push_back("host PFC is off on every priority the switch makes lossless (host PFC " + pri_set(*c.h.pfc) +
                    ", switch PFC " + pri_set(*sw_pfc) + "): whichever priority the host sends RoCE on, one "
                    "side does not pause it");
  if (c.h.roce_priority && c.h.pfc && !c.h.pfc->count(hp))
    fails.push_back("host PFC is off on its RoCE priority " + std::to_string(hp) + " (host PFC " + pri_set(*c.h.pfc) + ")");
  else if (c.h.roce_priority && !c.h.pfc)
    unknowns.push_back(c.h.pfc_reason);
  if (c.h.roce_priority && path.queue) {
    if (!c.p.pfc_priority_to_queue.has_value()) {
      unknowns.push_back("switch PFC priority->queue map unknown: " + c.p.pfc_priority_to_queue.reason);
    } else {
      auto it = c.p.pfc_priority_to_queue->find(hp);
      if (it == c.p.pfc_priority_to_queue->end())
        unknowns.push_back("switch PFC priority->queue map has no entry for priority " + std::to_string(hp));
      else if (it->second != *path.queue)
        fails.push_back("a PAUSE for priority " + std::to_string(hp) + " stops switch queue " +
                        std::to_string(it->second) + " but DSCP " + std::to_string(d) + " rides queue " +
                        std::to_string(*path.queue));
    }
  } else if (path.tc && !path.queue) {
    unknowns.push_back(path.reason);
  }
  Outcome o = !fails.empty() ? Outcome::fail : !unknowns.empty() ? Outcome::unknown : Outcome::pass;
  std::string msg;
  if (o == Outcome::fail) msg = rules::join(fails, "; ");
  else if (o == Outcome::unknown) msg = rules::join(unknowns, "; ");
  else
    msg = "DSCP " + std::to_string(d) + " -> host priority " + std::to_string(hp) + " -> switch TC " +
          std::to_string(*path.tc) + " / queue " + std::to_string(*path.queue) + ", PFC on " +
          pri_set(*sw_pfc) + ", PAUSE for priority " + std::to_string(hp) + " stops queue " +
          std::to_string(*path.queue);
  if (o == Outcome::fail && sw_pfc && sw_pfc->empty()) {
    // A lossy (ECN-only) port. That is a legitimate RoCE design, but not the policy's: the policy
    // loader requires PFC on the RoCE priority (roce.pfc_priorities), so it stays a failure.
    msg += "; the switch port has no PFC on any priority: a lossy (ECN-only) port against a host and a policy "
           "that expect lossless RoCE (roce.pfc_priorities). ECN-only RoCE is a legitimate design, but then "
           "host PFC goes off too and the policy's lossless checks do not apply";
  }
  Finding* f = out.add(r, c.subject, o, msg);
  if (!f) return;
  add_ev(*f, c.h.prio_ev);
  add_ev(*f, c.h.pfc_ev);
  for (const Evidence& e : path.ev) add_ev(*f, e);
  add_ev(*f, c.p.pfc_enabled.source);
  add_ev(*f, c.p.pfc_priority_to_queue.source);
  if (o != Outcome::fail) return;
  // Align the switch to the host's priority (the host side is the NVIDIA default, usually).
  int want = c.h.roce_priority ? hp : 3;
  if (!c.h.roce_priority && path.tc && sw_pfc && sw_pfc->count(pfc_prio_of_tc(c.p, *path.tc))) want = *path.tc;
  f->remediation.scope = FixScope::persistent;
  if (path.tc && sw_pfc && !sw_pfc->count(pfc_prio_of_tc(c.p, *path.tc))) f->remediation.commands.push_back(c.cmds.dscp_to_tc(d, want));
  if (sw_pfc && !sw_pfc->count(want)) f->remediation.commands.push_back(c.cmds.pfc_on(want));
  if (c.h.pfc && !c.h.pfc->count(want)) {
    std::string l;
    for (int i = 0; i < 8; ++i) l += (i ? "," : "") + std::string(c.h.pfc->count(i) || i == want ? "1" : "0");
    f->remediation.commands.push_back("mlnx_qos -i " + text::shell_quote(c.h.name) + " --pfc " + l);
  }
  if (disjoint_pfc && fails.size() == 1)
    f->remediation.notes = "Host: " + std::string(r.host_fix) + " The command enables host PFC on the switch's "
                           "lossless priority " + std::to_string(want) + "; send RoCE on it (trust dscp, see "
                           "switch.trust-dscp and the host's DSCP->priority map).";
  else
    f->remediation.notes = "Switch: " + std::string(r.switch_fix) + " Host: " + std::string(r.host_fix) +
                           " Fix one side to match the other; the commands move the switch to the host's "
                           "priority " + std::to_string(want) + ".";
}

void check_buffer(const Pair& c, Out& out) {
  const SwitchRule& r = rule("switch.roce-buffer-lossless");
  SwitchPath path = path_of(c.p, c.h.roce_dscp);
  if (!path.tc) return void(out.add(r, c.subject, Outcome::unknown, path.reason));
  if (!c.p.tc_to_pg.has_value())
    return void(out.add(r, c.subject, Outcome::unknown, "switch TC->priority-group map unknown: " + c.p.tc_to_pg.reason));
  auto it = c.p.tc_to_pg->find(*path.tc);
  if (it == c.p.tc_to_pg->end())
    return void(out.add(r, c.subject, Outcome::unknown, "switch TC->PG map has no entry for TC " + std::to_string(*path.tc)));
  const int pg = it->second;
  if (c.p.buffer_pgs.empty())
    return void(out.add(r, c.subject, Outcome::unknown, "PG " + std::to_string(pg) + " buffer unknown: " + c.p.buffer_reason));
  const BufferPg* hit = nullptr;
  for (const BufferPg& b : c.p.buffer_pgs)
    if (pg >= b.first_pg && pg <= b.last_pg) hit = &b;
  if (!hit) {
    Finding* f = out.add(r, c.subject, Outcome::fail,
                         "RoCE TC " + std::to_string(*path.tc) + " uses priority group " + std::to_string(pg) +
                             ", which has no BUFFER_PG entry (no lossless headroom)");
    if (f) f->remediation.notes = std::string(r.switch_fix);
    return;
  }
  if (!hit->lossless) {
    Finding* f = out.add(r, c.subject, Outcome::unknown, "PG " + std::to_string(pg) + " profile " + hit->profile + ": " + hit->basis);
    if (f) add_ev(*f, hit->source);
    return;
  }
  Finding* f = out.add(r, c.subject, *hit->lossless ? Outcome::pass : Outcome::fail,
                       "RoCE TC " + std::to_string(*path.tc) + " -> PG " + std::to_string(pg) + ": profile " +
                           hit->profile + (*hit->lossless ? " is lossless (" : " is lossy (") + hit->basis + ")");
  if (!f) return;
  add_ev(*f, c.p.tc_to_pg.source);
  add_ev(*f, hit->source);
  if (!*hit->lossless) f->remediation.notes = std::string(r.switch_fix);
}

void check_ecn(const Pair& c, Out& out) {
  const SwitchRule& r = rule("switch.roce-ecn");
  SwitchPath path = path_of(c.p, c.h.roce_dscp);
  if (!path.queue) return void(out.add(r, c.subject, Outcome::unknown, path.reason));
  const int q = *path.queue;
  const QueueConfig* qc = c.p.queue(q);
  if (!qc || !qc->ecn.has_value())
    return void(out.add(r, c.subject, Outcome::unknown,
                        "ECN of switch queue " + std::to_string(q) + " unknown: " +
                            (qc ? qc->ecn.reason : "queue " + std::to_string(q) + " not in config")));
  const EcnConfig& e = *qc->ecn;
  std::string host_ecn = "host ECN on priority " + std::to_string(c.h.roce_priority.value_or(-1)) + ": ";
  if (c.h.ecn_rp || c.h.ecn_np)
    host_ecn += std::string("RP ") + (c.h.ecn_rp ? (*c.h.ecn_rp ? "on" : "off") : "?") + ", NP " +
                (c.h.ecn_np ? (*c.h.ecn_np ? "on" : "off") : "?");
  else
    host_ecn += "not captured (see qos.ecn-roce-priority)";
  std::string thr;
  if (e.min_threshold_bytes && e.max_threshold_bytes)
    thr = ", thresholds " + std::to_string(*e.min_threshold_bytes) + "-" + std::to_string(*e.max_threshold_bytes) + " bytes";
  else if (e.threshold_text)
    thr = ", thresholds " + *e.threshold_text;
  Outcome o = Outcome::pass;
  std::string msg;
  if (!e.ecn_marking) {
    o = Outcome::fail;
    msg = "switch queue " + std::to_string(q) + " (carrying DSCP " + std::to_string(c.h.roce_dscp) +
          ") does not mark ECN (" + e.mode.value_or("no ECN") + "): DCQCN gets no congestion signal";
  } else if (c.h.ecn_rp && !*c.h.ecn_rp && e.wred_drop.value_or(false)) {
    o = Outcome::fail;
    msg = "switch queue " + std::to_string(q) + " has WRED with ECN " + e.mode.value_or("") +
          " but host RP is off: non-ECT RoCE packets are dropped above the WRED threshold";
  } else if (!c.h.roce_priority) {
    o = Outcome::unknown;
    msg = "switch queue " + std::to_string(q) + " marks ECN (" + e.mode.value_or("on") + thr +
          "); host ECN unknown: " + c.h.prio_reason;
  } else {
    msg = "switch queue " + std::to_string(q) + " marks ECN (" + e.mode.value_or("on") + thr + "); " + host_ecn;
  }
  Finding* f = out.add(r, c.subject, o, msg);
  if (!f) return;
  for (const Evidence& ev : path.ev) add_ev(*f, ev);
  add_ev(*f, qc->ecn.source);
  add_ev(*f, c.h.ecn_ev);
  if (o == Outcome::fail) {
    f->remediation.scope = FixScope::persistent;
    const bool lossless_queue = path.tc && c.p.pfc_enabled.has_value() &&
                                std::find(c.p.pfc_enabled->begin(), c.p.pfc_enabled->end(),
                                          pfc_prio_of_tc(c.p, *path.tc)) !=
                                    c.p.pfc_enabled->end();
    if (!e.ecn_marking && lossless_queue) f->remediation.commands.push_back(c.cmds.ecn_on(q));
    if (!e.ecn_marking && !lossless_queue)
      f->remediation.notes = "The RoCE DSCP lands in a lossy queue: fix switch.roce-lossless first (map the DSCP "
                             "to the lossless class), then check ECN on that queue. ";
    else if (c.h.roce_priority) {
      const std::string p = std::to_string(*c.h.roce_priority);
      f->remediation.commands = {"echo 1 > /sys/class/net/" + c.h.name + "/ecn/roce_rp/enable/" + p,
                                 "echo 1 > /sys/class/net/" + c.h.name + "/ecn/roce_np/enable/" + p};
    }
    f->remediation.notes += "Switch: " + std::string(r.switch_fix) + " Host: " + std::string(r.host_fix);
  }
}

void check_cnp(const Pair& c, Out& out) {
  const SwitchRule& r = rule("switch.cnp-queue");
  const int cd = c.h.cnp_dscp;
  SwitchPath cnp = path_of(c.p, cd);
  SwitchPath roce = path_of(c.p, c.h.roce_dscp);
  std::string basis = "CNP DSCP " + std::to_string(cd) + " (" + c.h.cnp_basis + ")";
  if (!cnp.tc) return void(out.add(r, c.subject, Outcome::unknown, basis + ": " + cnp.reason));
  std::vector<std::string> fails;
  if (c.p.pfc_enabled.has_value() &&
      std::find(c.p.pfc_enabled->begin(), c.p.pfc_enabled->end(), pfc_prio_of_tc(c.p, *cnp.tc)) !=
          c.p.pfc_enabled->end())
    fails.push_back(basis + " -> TC " + std::to_string(*cnp.tc) + ", a PFC (lossless) class: CNPs can be paused");
  if (roce.tc && *roce.tc == *cnp.tc)
    fails.push_back(basis + " shares TC " + std::to_string(*cnp.tc) + " with RoCE DSCP " + std::to_string(c.h.roce_dscp) +
                    ": CNPs queue behind the congested traffic");
  std::string sched_msg;
  bool sched_unknown = false;
  if (!cnp.queue) {
    sched_unknown = true;
    sched_msg = cnp.reason;
  } else {
    const QueueConfig* qc = c.p.queue(*cnp.queue);
    if (!qc || !qc->scheduling.has_value()) {
      sched_unknown = true;
      sched_msg = "scheduling of queue " + std::to_string(*cnp.queue) + " unknown: " +
                  (qc ? qc->scheduling.reason : "queue not in config");
    } else if (qc->scheduling->type == "strict") {
      sched_msg = "queue " + std::to_string(*cnp.queue) + " is strict priority";
    } else {
      int mine = qc->scheduling->weight.value_or(0);
      int top = 0;
      for (const auto& [qi, other] : c.p.queues)
        if (qi != *cnp.queue && other.scheduling.has_value() && other.scheduling->weight)
          top = std::max(top, *other.scheduling->weight);
      if (qc->scheduling->weight && mine >= top)
        sched_msg = "queue " + std::to_string(*cnp.queue) + " has the highest DWRR weight (" + std::to_string(mine) + ")";
      else
        fails.push_back(basis + " -> queue " + std::to_string(*cnp.queue) + " is " + qc->scheduling->type + " weight " +
                        std::to_string(mine) + ", below another queue's " + std::to_string(top) +
                        ": neither strict nor highest weight");
    }
  }
  Outcome o = !fails.empty() ? Outcome::fail : sched_unknown ? Outcome::unknown : Outcome::pass;
  std::string msg = !fails.empty() ? rules::join(fails, "; ")
                                   : basis + " -> TC " + std::to_string(*cnp.tc) + " (no PFC); " + sched_msg;
  Finding* f = out.add(r, c.subject, o, msg);
  if (!f) return;
  add_ev(*f, c.h.cnp_ev);
  for (const Evidence& e : cnp.ev) add_ev(*f, e);
  if (const QueueConfig* qc = cnp.queue ? c.p.queue(*cnp.queue) : nullptr) add_ev(*f, qc->scheduling.source);
  if (o == Outcome::fail) {
    f->remediation.scope = FixScope::persistent;
    f->remediation.notes = "Switch: " + std::string(r.switch_fix) + " Host: " + std::string(r.host_fix);
  }
}

void check_mtu(const Pair& c, Out& out, const Policy& pol) {
  const SwitchRule& r = rule("switch.mtu");
  if (!c.p.mtu_bytes.has_value())
    return void(out.add(r, c.subject, Outcome::unknown, "switch port MTU unknown: " + c.p.mtu_bytes.reason));
  const int sm = *c.p.mtu_bytes;
  std::vector<std::string> fails;
  if (sm < pol.netdev_mtu_min_bytes)
    fails.push_back("switch port MTU " + std::to_string(sm) + " < " + std::to_string(pol.netdev_mtu_min_bytes) +
                    " needed for RoCE active MTU " + std::to_string(pol.roce_active_mtu_bytes));
  if (c.h.mtu && *c.h.mtu > sm)
    fails.push_back("host MTU " + std::to_string(*c.h.mtu) + " > switch port MTU " + std::to_string(sm) +
                    ": full-size frames are dropped");
  Outcome o = !fails.empty() ? Outcome::fail : c.h.mtu ? Outcome::pass : Outcome::unknown;
  std::string msg = !fails.empty() ? rules::join(fails, "; ")
                    : c.h.mtu ? "switch port MTU " + std::to_string(sm) + " >= host MTU " + std::to_string(*c.h.mtu)
                              : c.h.mtu_reason + " (switch port MTU " + std::to_string(sm) + ")";
  Finding* f = out.add(r, c.subject, o, msg);
  if (!f) return;
  add_ev(*f, c.h.mtu_ev);
  add_ev(*f, c.p.mtu_bytes.source);
  if (o == Outcome::fail) {
    f->remediation.scope = FixScope::persistent;
    f->remediation.commands = {c.cmds.mtu(std::max(9100, c.h.mtu.value_or(0)))};
    f->remediation.notes = "Switch: " + std::string(r.switch_fix) + " Host: " + std::string(r.host_fix);
  }
}

void check_watchdog(const Pair& c, Out& out) {
  const SwitchRule& r = rule("switch.pfc-watchdog");
  if (c.p.pfc_enabled.has_value() && c.p.pfc_enabled->empty())
    return void(out.add(r, c.subject, Outcome::not_applicable, "no PFC priority on the switch port"));
  if (!c.p.pfc_watchdog.has_value())
    return void(out.add(r, c.subject, Outcome::unknown, c.p.pfc_watchdog.reason));
  const PfcWatchdog& w = *c.p.pfc_watchdog;
  std::string detail = " (action " + w.action.value_or("?") + ", detection " +
                       (w.detection_time_ms ? std::to_string(*w.detection_time_ms) : std::string("?")) +
                       " ms, restoration " +
                       (w.restoration_time_ms ? std::to_string(*w.restoration_time_ms) : std::string("?")) + " ms)";
  Outcome o = Outcome::pass;
  std::string msg;
  if (!w.enabled) {
    o = Outcome::fail;
    msg = "PFC watchdog is not enabled on the port";
  } else if (c.p.pfc_enabled.has_value() && !w.priorities.empty()) {
    std::vector<int> missing;
    for (int p : *c.p.pfc_enabled)
      if (std::find(w.priorities.begin(), w.priorities.end(), p) == w.priorities.end()) missing.push_back(p);
    if (!missing.empty()) {
      o = Outcome::fail;
      msg = "PFC watchdog does not cover lossless priorities " + detail::int_list(missing);
    } else {
      msg = "PFC watchdog on priorities " + detail::int_list(w.priorities) + detail;
    }
  } else if (!c.p.pfc_enabled.has_value()) {
    o = Outcome::unknown;
    msg = "PFC watchdog enabled" + detail + ", but the switch PFC priorities are unknown";
  } else {
    msg = "PFC watchdog enabled" + detail;
  }
  Finding* f = out.add(r, c.subject, o, msg);
  if (!f) return;
  add_ev(*f, c.p.pfc_watchdog.source);
  add_ev(*f, c.p.pfc_enabled.source);
  if (o == Outcome::fail) {
    f->remediation.scope = FixScope::persistent;
    if (c.sw.dialect == Dialect::sonic_config_db) f->remediation.commands = {"config pfcwd start_default"};
    f->remediation.notes = std::string(r.switch_fix);
  }
}

void check_extra(const Pair& c, Out& out) {
  const SwitchRule& r = rule("switch.extra-lossless");
  if (!c.p.pfc_enabled.has_value())
    return void(out.add(r, c.subject, Outcome::unknown, "switch PFC priorities unknown: " + c.p.pfc_enabled.reason));
  if (!c.h.pfc) return void(out.add(r, c.subject, Outcome::unknown, c.h.pfc_reason));
  std::set<int> sw(c.p.pfc_enabled->begin(), c.p.pfc_enabled->end());
  // The RoCE priority (the host's, else the switch's TC for the RoCE DSCP) is
  // switch.roce-lossless's business: a host PFC off on it is reported there.
  std::optional<int> roce = c.h.roce_priority;
  if (!roce)
    if (std::optional<int> tc = path_of(c.p, c.h.roce_dscp).tc) roce = pfc_prio_of_tc(c.p, *tc);
  std::set<int> extra;
  for (int p : sw)
    if (!c.h.pfc->count(p) && p != roce.value_or(-1)) extra.insert(p);
  std::string note;
  if (roce && sw.count(*roce) && !c.h.pfc->count(*roce))
    note = " (RoCE priority " + std::to_string(*roce) + ": see switch.roce-lossless)";
  Finding* f = out.add(r, c.subject, extra.empty() ? Outcome::pass : Outcome::fail,
                       "switch PFC priorities " + pri_set(sw) + ", host " + pri_set(*c.h.pfc) +
                           (extra.empty() ? "" : ": switch also lossless on " + pri_set(extra)) + note);
  if (!f) return;
  add_ev(*f, c.p.pfc_enabled.source);
  add_ev(*f, c.h.pfc_ev);
  if (!extra.empty()) f->remediation.notes = std::string(r.switch_fix);
}

bool is_roce_netdev(const Snapshot& s, const NetDev& n) {
  if (rules::is_infiniband_netdev(s, n)) return false;
  return n.qos.has_value() || n.rdma_device.has_value();
}

bool name_matches(const std::string& want, const std::string& have) {
  return want.empty() || want == "*" || have.empty() || want == have;
}

}  // namespace

const std::vector<SwitchRule>& switch_rules() { return rules::rules_of(rules::Family::switch_port); }

const SwitchRule* find_switch_rule(std::string_view id) {
  const rules::RuleInfo* r = rules::find_rule(id);
  return r && r->family == rules::Family::switch_port ? r : nullptr;
}

std::vector<Finding> check_alignment(const Snapshot& host, const SwitchQos& sw, const PortMap* map,
                                     const Policy& policy) {
  std::vector<Finding> out;
  Out emit(out, policy);
  std::vector<const NetDev*> roce;
  for (const NetDev& n : host.netdevs)
    if (is_roce_netdev(host, n)) roce.push_back(&n);
  // (netdev, port, link evidence) pairs.
  struct Want { const NetDev* n; const PortQos* p; std::string port; Evidence link; };
  std::vector<Want> pairs;
  if (map) {
    for (const Link& l : map->links) {
      if (!name_matches(l.host, host.hostname) || !name_matches(l.switch_name, sw.name)) continue;
      const PortQos* p = sw.find_port(l.port);
      if (l.netdev.empty() || l.netdev == "*") {
        for (const NetDev* n : roce) pairs.push_back({n, p, l.port, l.source});
        continue;
      }
      const NetDev* n = host.find_netdev(l.netdev);
      if (!n) {
        Finding f;
        f.rule = "switch.roce-lossless";
        f.subject = l.port + " <-> " + l.netdev;
        f.outcome = Outcome::unknown;
        f.severity = rule("switch.roce-lossless").severity;
        f.message = "the port map names host netdev " + l.netdev + ", which the host input does not contain";
        f.evidence.push_back(l.source);
        out.push_back(std::move(f));
        continue;
      }
      pairs.push_back({n, p, l.port, l.source});
    }
  } else {
    for (const PortQos& p : sw.ports)
      for (const NetDev* n : roce) pairs.push_back({n, &p, p.name, {}});
  }
  if (pairs.empty() && out.empty()) {
    Finding f;
    f.rule = "switch.roce-lossless";
    f.subject = host.hostname.empty() ? "host" : host.hostname;
    f.outcome = Outcome::unknown;
    f.severity = rule("switch.roce-lossless").severity;
    f.message = roce.empty() ? "no RoCE netdev (with QoS state or an RDMA device) in the host input"
                : map         ? "the port map has no link for this host and switch"
                              : "the switch configuration has no port";
    out.push_back(std::move(f));
    return out;
  }
  for (const Want& w : pairs) {
    std::string subject = (sw.name.empty() ? "" : sw.name + ":") + (w.port == "*" ? "all ports" : w.port) + " <-> " +
                          (host.hostname.empty() ? "" : host.hostname + ":") + w.n->name;
    if (!w.p) {
      Finding f;
      f.rule = "switch.roce-lossless";
      f.subject = subject;
      f.outcome = Outcome::unknown;
      f.severity = rule("switch.roce-lossless").severity;
      f.message = "switch port " + w.port + " is not in the switch configuration " + sw.file;
      if (!w.link.file.empty()) f.evidence.push_back(w.link);
      out.push_back(std::move(f));
      continue;
    }
    HostSide h = host_side(host, *w.n, policy);
    Pair c{h, *w.p, sw, subject, SwitchCmds{sw.dialect, w.p->name, w.p->dscp_to_tc_map_name}};
    std::size_t first = out.size();
    check_trust(c, emit);
    check_lossless(c, emit);
    check_buffer(c, emit);
    check_ecn(c, emit);
    check_cnp(c, emit);
    check_mtu(c, emit, policy);
    check_watchdog(c, emit);
    check_extra(c, emit);
    if (!w.link.file.empty())
      for (std::size_t i = first; i < out.size(); ++i) out[i].evidence.push_back(w.link);
  }
  // SONiC: CONFIG_DB writes (sonic-db-cli HSET, `config ...`) are running state until
  // `config save` writes /etc/sonic/config_db.json; without it they are lost at reboot.
  if (sw.dialect == Dialect::sonic_config_db)
    for (Finding& f : out) {
      bool sonic = std::any_of(f.remediation.commands.begin(), f.remediation.commands.end(), [](const std::string& c) {
        return c.starts_with("sonic-db-cli CONFIG_DB") || c.starts_with("config ");
      });
      if (!sonic) continue;
      f.remediation.commands.push_back("config save -y");
      f.remediation.notes += std::string(f.remediation.notes.empty() ? "" : " ") +
                             "SONiC: the CONFIG_DB change is lost at reboot until `config save -y` "
                             "writes /etc/sonic/config_db.json.";
    }
  // Report order: rule table order, then pair order.
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    auto idx = [](const std::string& id) {
      const std::vector<SwitchRule>& table = switch_rules();
      for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].id == id) return i;
      return table.size();
    };
    return idx(a.rule) < idx(b.rule);
  });
  // The policy's `rules:` section: disabled switch rules report nothing; severities as set.
  std::erase_if(out, [&](const Finding& f) { return !policy.rule_enabled(f.rule); });
  for (Finding& f : out) f.severity = policy.severity_for(f.rule, f.severity);
  return out;
}

}  // namespace rk::switchcfg

// Arista EOS running-config QoS sections -> SwitchQos. Syntax: switch.md §3.1 (ROCm sample
// `arista/eos-roce-dcqcn-7388.cfg`, AVD `arista/avd-qos-profile-intended.cfg`):
//   qos map dscp <list> to traffic-class <tc> [drop-precedence <n>]
//   qos map traffic-class <tc> to tx-queue <q>
//   qos profile <name> / interface <name> blocks with: qos trust dscp|cos, priority-flow-control
//   on, priority-flow-control priority <p> no-drop, [uc-]tx-queue <q> (priority strict, no
//   priority, bandwidth percent <p>, random-detect ecn minimum-threshold <n> <unit>
//   maximum-threshold <n> <unit> [max-mark-probability <p>] [weight <w>]), service-profile
//   <name>, mtu <bytes>.
#include <algorithm>
#include <map>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

using Line = detail::ConfigLine;
using detail::ev;

struct TxQueue {
  std::optional<Scheduling> sched;
  Line sched_line;
  std::optional<EcnConfig> ecn;
  Line ecn_line;
};

/// Settings that may appear both in a qos profile and on an interface.
struct Block {
  std::string name;
  Line header;
  std::optional<std::string> trust;
  Line trust_line;
  bool pfc_on = false;
  Line pfc_line;
  std::vector<int> no_drop;
  Line no_drop_line;
  std::map<int, TxQueue> queues;
  std::optional<int> mtu;
  Line mtu_line;
  std::string service_profile;
  Line profile_line;
};

std::optional<std::uint64_t> to_bytes(double v, const std::string& unit) {
  if (!(v >= 0 && v <= 1e12)) return std::nullopt;  // also rejects NaN and infinities
  if (unit == "bytes") return static_cast<std::uint64_t>(v);
  if (unit == "kbytes") return static_cast<std::uint64_t>(v * 1024);
  if (unit == "mbytes") return static_cast<std::uint64_t>(v * 1024 * 1024);
  return std::nullopt;  // segments, milliseconds: platform-dependent
}

}  // namespace

Result<SwitchQos> parse_arista_eos(std::string_view input, const std::string& file) {
  SwitchQos sw;
  sw.file = file;
  sw.dialect = Dialect::arista_eos;
  std::map<int, int> dscp_tc, tc_queue;
  std::map<int, std::size_t> dscp_lines;
  Line dscp_first, tc_queue_first;
  std::map<std::string, Block> profiles;
  std::vector<Block> interfaces;
  Line watchdog;
  Block* cur = nullptr;      // current profile or interface
  TxQueue* txq = nullptr;    // current tx-queue inside it
  std::vector<std::string_view> ls = text::lines(input);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::size_t ln = i + 1;
    std::string_view raw = ls[i];
    std::string_view l = text::trim(raw);
    if (l.empty() || l.front() == '!' || l.front() == '#') continue;
    std::size_t indent = raw.find_first_not_of(" \t");
    std::vector<std::string_view> w = text::words(l);
    Line here{ln, std::string(l)};
    if (indent == 0) {
      cur = nullptr;
      txq = nullptr;
      if (w[0] == "hostname" && w.size() >= 2) {
        sw.name = std::string(w[1]);
      } else if (w.size() >= 3 && w[0] == "qos" && w[1] == "profile") {
        Block& b = profiles[std::string(w[2])];
        b = Block{};
        b.name = std::string(w[2]);
        b.header = here;
        cur = &b;
      } else if (w.size() >= 2 && w[0] == "interface") {
        interfaces.push_back(Block{});
        interfaces.back().name = std::string(w[1]);
        interfaces.back().header = here;
        cur = &interfaces.back();
      } else if (w.size() >= 4 && w[0] == "qos" && w[1] == "map" && w[2] == "dscp") {
        // qos map dscp <d> [<d> ...] to traffic-class <tc>
        std::size_t to = 3;
        std::vector<int> ds;
        while (to < w.size() && w[to] != "to") {
          std::optional<std::vector<int>> v = detail::parse_int_list(w[to], 0, 63);
          if (!v) return detail::malformed(file, ln, "qos map dscp: '" + std::string(w[to]) + "' is not a DSCP 0-63");
          ds.insert(ds.end(), v->begin(), v->end());
          ++to;
        }
        if (to + 2 >= w.size() || w[to + 1] != "traffic-class")
          return detail::malformed(file, ln, "qos map dscp: expected '... to traffic-class <0-7>'");
        std::optional<int> tc = detail::parse_small_int(w[to + 2], 0, 7);
        if (!tc) return detail::malformed(file, ln, "qos map dscp: traffic class is not 0-7");
        for (int d : ds) {
          dscp_tc[d] = *tc;
          dscp_lines[d] = ln;
        }
        if (!dscp_first.no) dscp_first = here;
      } else if (w.size() >= 7 && w[0] == "qos" && w[1] == "map" && w[2] == "traffic-class" && w[5] == "tx-queue") {
        std::optional<std::vector<int>> tcs = detail::parse_int_list(w[3], 0, 7);
        std::optional<int> q = detail::parse_small_int(w[6], 0, 15);
        if (!tcs || !q) return detail::malformed(file, ln, "qos map traffic-class: expected '<0-7> to tx-queue <0-15>'");
        for (int tc : *tcs) tc_queue[tc] = *q;
        if (!tc_queue_first.no) tc_queue_first = here;
      } else if (w.size() >= 3 && w[0] == "priority-flow-control" && w[1] == "pause" && w[2] == "watchdog") {
        watchdog = here;
      } else if (w.size() >= 3 && w[0] == "qos" && w[1] == "map" && w[2] == "traffic-class") {
        sw.notes.push_back("line " + std::to_string(ln) + ": TC->DSCP rewrite map (" + std::string(l) +
                           ") sets the DSCP of egress packets; it does not classify");
      }
      continue;
    }
    if (!cur) continue;
    // Inside a profile / interface. A tx-queue sub-block is indented deeper than its header.
    if ((w[0] == "tx-queue" || w[0] == "uc-tx-queue") && w.size() >= 2) {
      std::optional<std::vector<int>> qs = detail::parse_int_list(w[1], 0, 15);
      if (!qs || qs->empty()) return detail::malformed(file, ln, std::string(w[0]) + ": queue is not 0-15");
      txq = &cur->queues[qs->front()];
      for (std::size_t k = 1; k < qs->size(); ++k) cur->queues[(*qs)[k]];
      continue;
    }
    if (txq && indent >= 6) {
      if (w.size() >= 2 && w[0] == "priority" && w[1] == "strict") {
        txq->sched = Scheduling{"strict", std::nullopt};
        txq->sched_line = here;
      } else if (w.size() >= 2 && w[0] == "no" && w[1] == "priority") {
        if (!txq->sched) txq->sched = Scheduling{"dwrr", std::nullopt};
        txq->sched_line = here;
      } else if (w.size() >= 3 && w[0] == "bandwidth" && w[1] == "percent") {
        std::optional<int> p = detail::parse_small_int(w[2], 0, 100);
        if (!p) return detail::malformed(file, ln, "bandwidth percent is not 0-100");
        if (!txq->sched || txq->sched->type != "strict") txq->sched = Scheduling{"dwrr", *p};
        txq->sched_line = here;
      } else if (w.size() >= 2 && w[0] == "random-detect" && w[1] == "ecn") {
        EcnConfig e = txq->ecn.value_or(EcnConfig{});
        e.ecn_marking = true;
        e.mode = "ecn";
        for (std::size_t k = 2; k + 1 < w.size(); ++k) {
          if (w[k] == "minimum-threshold" || w[k] == "maximum-threshold") {
            std::optional<double> v = text::parse_double(w[k + 1]);
            std::string unit = k + 2 < w.size() ? std::string(w[k + 2]) : "";
            if (!v || unit.empty()) return detail::malformed(file, ln, "random-detect ecn: threshold needs '<number> <unit>'");
            std::optional<std::uint64_t> b = to_bytes(*v, unit);
            (w[k] == "minimum-threshold" ? e.min_threshold_bytes : e.max_threshold_bytes) = b;
            std::string t = std::string(w[k + 1]) + " " + unit;
            if (!b) e.threshold_text = e.threshold_text ? *e.threshold_text + "-" + t : t;
          } else if (w[k] == "max-mark-probability") {
            e.mark_probability_percent = detail::parse_small_int(w[k + 1], 0, 100);
          }
        }
        if (w.size() == 3 && w[2] == "count") {
          // `random-detect ecn count`: counters only.
        } else {
          txq->ecn_line = here;
        }
        txq->ecn = e;
      }
      continue;
    }
    txq = nullptr;
    if (w.size() >= 3 && w[0] == "qos" && w[1] == "trust") {
      cur->trust = w[2] == "cos" ? "pcp" : std::string(w[2]);
      cur->trust_line = here;
    } else if (w.size() == 2 && w[0] == "priority-flow-control" && w[1] == "on") {
      cur->pfc_on = true;
      cur->pfc_line = here;
    } else if (w.size() >= 4 && w[0] == "priority-flow-control" && w[1] == "priority" && w[3] == "no-drop") {
      std::optional<int> p = detail::parse_small_int(w[2], 0, 7);
      if (!p) return detail::malformed(file, ln, "priority-flow-control priority is not 0-7");
      cur->no_drop.push_back(*p);
      cur->no_drop_line = here;
    } else if (w.size() >= 2 && w[0] == "mtu") {
      std::optional<int> m = detail::parse_small_int(w[1], 68, 65535);
      if (!m) return detail::malformed(file, ln, "mtu is not a number 68-65535");
      cur->mtu = *m;
      cur->mtu_line = here;
    } else if (w.size() >= 2 && w[0] == "service-profile") {
      cur->service_profile = std::string(w[1]);
      cur->profile_line = here;
    } else if (w.size() >= 3 && w[0] == "priority-flow-control" && w[1] == "pause" && w[2] == "watchdog") {
      watchdog = here;
    }
  }
  if (profiles.empty() && interfaces.empty() && dscp_tc.empty() && tc_queue.empty())
    return unexpected(ErrorKind::unsupported, "no EOS QoS lines (qos map, qos profile, interface)", file);

  // Ports: interfaces with QoS, MTU or a service profile; else one system-wide entry.
  std::vector<Block> ports;
  for (const Block& b : interfaces)
    if (b.trust || b.pfc_on || !b.no_drop.empty() || !b.queues.empty() || b.mtu || !b.service_profile.empty())
      ports.push_back(b);
  if (ports.empty()) {
    Block any;
    any.name = "*";
    if (profiles.size() == 1) {
      any.service_profile = profiles.begin()->first;
      any.profile_line = profiles.begin()->second.header;
      sw.notes.push_back("no interface applies a profile: the only qos profile (" + any.service_profile +
                         ") is assumed to apply to every port");
    }
    ports.push_back(any);
  }
  for (const Block& b : ports) {
    const Block* prof = nullptr;
    if (!b.service_profile.empty()) {
      auto it = profiles.find(b.service_profile);
      if (it == profiles.end())
        return detail::malformed(file, b.profile_line.no, "service-profile " + b.service_profile + " is not defined");
      prof = &it->second;
    }
    PortQos p;
    p.name = b.name;
    const std::string where = b.name == "*" ? std::string("the configuration") : "interface " + b.name;
    // Interface settings override the profile's.
    if (b.trust) p.trust = Fact<std::string>::of(*b.trust, ev(file, b.trust_line));
    else if (prof && prof->trust) p.trust = Fact<std::string>::of(*prof->trust, ev(file, prof->trust_line));
    else p.trust = Fact<std::string>::missing("no `qos trust` on " + where + " or its profile (default, not in config: EOS platform default)");
    if (!dscp_tc.empty()) {
      Evidence e = ev(file, dscp_first);
      e.text += " (explicit `qos map dscp` entries only; other DSCPs use the EOS default map, not in config)";
      p.dscp_to_tc = Fact<std::map<int, int>>::of(dscp_tc, e);
      p.dscp_to_tc_lines = dscp_lines;
    } else {
      p.dscp_to_tc = Fact<std::map<int, int>>::missing(
          "no `qos map dscp` lines (default, not in config: EOS default DSCP->TC map; Arista's AI guide "
          "says CS3 (24) -> TC3, DSCP 26 not stated)");
    }
    if (!tc_queue.empty()) {
      std::map<int, int> m;
      for (int tc = 0; tc < 8; ++tc) m[tc] = tc;  // unmapped TCs: identity is the EOS default
      for (const auto& [tc, q] : tc_queue) m[tc] = q;
      Evidence e = ev(file, tc_queue_first);
      e.text += " (other traffic classes: EOS default tx-queue = traffic class)";
      p.tc_to_queue = Fact<std::map<int, int>>::of(m, e);
    } else {
      p.tc_to_queue = Fact<std::map<int, int>>::missing(
          "no `qos map traffic-class ... to tx-queue` lines (default, not in config: EOS tx-queue N = traffic-class N on 8-queue platforms)");
    }
    p.tc_to_pg = Fact<std::map<int, int>>::missing("EOS configs carry no TC->priority-group map (headroom follows no-drop priorities)");
    p.pfc_priority_to_queue = Fact<std::map<int, int>>::missing(
        "EOS configs carry no PFC priority->queue map (default, not in config: the priority's CoS->TC map decides)");
    const Block* pfc_src = (b.pfc_on || !b.no_drop.empty()) ? &b : (prof && (prof->pfc_on || !prof->no_drop.empty())) ? prof : nullptr;
    if (pfc_src) {
      std::vector<int> nd = pfc_src->pfc_on ? pfc_src->no_drop : std::vector<int>{};
      std::sort(nd.begin(), nd.end());
      Line l = pfc_src->no_drop_line.no ? pfc_src->no_drop_line : pfc_src->pfc_line;
      Evidence e = ev(file, l);
      if (!pfc_src->pfc_on) e.text += " (no `priority-flow-control on`: PFC off)";
      p.pfc_enabled = Fact<std::vector<int>>::of(nd, e);
      for (int pr : nd) {
        BufferPg pg;
        pg.first_pg = pg.last_pg = pr;
        pg.profile = "no-drop priority " + std::to_string(pr);
        pg.lossless = true;
        pg.basis = "EOS reserves headroom for no-drop priorities";
        pg.source = ev(file, pfc_src->no_drop_line);
        p.buffer_pgs.push_back(pg);
      }
    } else {
      p.pfc_enabled = Fact<std::vector<int>>::of({}, Evidence{file, b.header.no, b.header.text + " (no priority-flow-control lines: PFC off)"});
    }
    if (p.buffer_pgs.empty()) p.buffer_reason = "no no-drop priority";
    auto add_queues = [&](const Block& src) {
      for (const auto& [q, t] : src.queues) {
        QueueConfig& qc = p.queues[q];
        qc.queue = q;
        if (t.sched) qc.scheduling = Fact<Scheduling>::of(*t.sched, ev(file, t.sched_line));
        if (t.ecn) qc.ecn = Fact<EcnConfig>::of(*t.ecn, ev(file, t.ecn_line));
      }
    };
    if (prof) add_queues(*prof);
    add_queues(b);
    for (auto& [q, qc] : p.queues) {
      if (!qc.scheduling.has_value()) qc.scheduling = Fact<Scheduling>::missing("tx-queue " + std::to_string(q) + " sets no scheduling (default, not in config: EOS round-robin)");
      if (!qc.ecn.has_value()) {
        EcnConfig none;
        none.mode = "none";
        qc.ecn = Fact<EcnConfig>::of(none, Evidence{file, 0, "tx-queue " + std::to_string(q) + " has no random-detect ecn"});
      }
    }
    if (b.mtu) p.mtu_bytes = Fact<int>::of(*b.mtu, ev(file, b.mtu_line));
    else p.mtu_bytes = Fact<int>::missing("no `mtu` on " + where + " (default, not in config: EOS routed port MTU 1500)");
    if (watchdog.no) {
      PfcWatchdog w;
      w.enabled = true;
      p.pfc_watchdog = Fact<PfcWatchdog>::of(w, ev(file, watchdog));
    } else {
      p.pfc_watchdog = Fact<PfcWatchdog>::missing("no `priority-flow-control pause watchdog` line (default, not in config: off)");
    }
    sw.ports.push_back(std::move(p));
  }
  return sw;
}

}  // namespace rk::switchcfg

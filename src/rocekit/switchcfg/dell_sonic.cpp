// Dell Enterprise SONiC `sonic-cli` (KLISH) running-config QoS -> SwitchQos. Syntax: the Dell
// Enterprise SONiC QoS configuration commands as `show running-configuration` prints them
// (sample testdata/switch/dell-sonic, ROCm/gpu-cluster-networking roce-network-config.rst, Dell
// Z9664F with `enable roce`):
//   qos map dscp-tc|dot1p-tc|tc-queue|tc-pg|pfc-priority-queue|pfc-priority-pg <name>
//     dscp <list> traffic-class <tc> | dot1p <list> traffic-class <tc> | traffic-class <list> queue <q>
//     | traffic-class <list> priority-group <pg> | pfc-priority <p> queue <q> | pfc-priority <p> pg <pg>
//   qos wred-policy <name>    green minimum-threshold <n> maximum-threshold <n> drop-probability <p>, ecn green
//   qos scheduler-policy <name>   queue <q> / type strict|dwrr|wrr / weight <w>
//   interface <name>: mtu, qos-map <type> <name>, scheduler-policy <name>, queue <q> wred-policy <name>,
//     priority-flow-control priority <p>, priority-flow-control watchdog [on [detect-time <ms>] |
//     action drop|forward|alert | restore-time <ms>]
// The printout may be indented (one space per level) or flattened (the ROCm sample): a block
// ends at the next top-level command. A pasted Klish session (`sonic(config)# qos map ...`,
// `sonic(conf-if-Ethernet0)# priority-flow-control priority 3`; sample: the SONiC RoCEv2 HLD,
// sonic-net/SONiC doc/qos/SONiC_ROCEv2_support.md) is read with its prompts removed: each
// command keeps its line number, and lines without a prompt (command output, prose) are skipped.
// A name an interface binds but the input does not define (`show running-configuration interface
// Eth1/5` prints the interface only) makes that value unknown, naming the line that binds it.
#include <algorithm>
#include <map>
#include <set>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

using Line = detail::ConfigLine;
using detail::ev;

struct Map {
  std::map<int, int> m;
  std::map<int, std::size_t> lines;
  Line header;
};

struct Wred {
  EcnConfig e;
  Line line;
};

struct SchedQ {
  std::optional<Scheduling> s;
  Line line;
};

struct Iface {
  std::string name;
  Line header;
  std::map<std::string, std::pair<std::string, Line>> maps;  ///< map type -> name
  std::string scheduler;
  Line scheduler_line;
  std::map<int, std::pair<std::string, Line>> wred;  ///< queue -> policy
  std::vector<int> pfc;
  Line pfc_line;
  std::optional<int> mtu;
  Line mtu_line;
  std::optional<PfcWatchdog> wd;
  Line wd_line;
};

const std::set<std::string_view> k_top = {"hostname", "interface", "qos", "router", "line", "hardware", "tcam",
                                          "route-map", "class-map", "policy-map", "mclag", "evpn", "port-group",
                                          "feature", "aaa", "username", "ntp", "logging", "snmp-server"};

/// A top-level command (ends the current block, also in the flattened printout).
bool top_level(std::string_view raw, const std::vector<std::string_view>& w) {
  if (raw.find_first_not_of(" \t") != 0) return false;
  if (k_top.count(w[0])) return true;
  return (w[0] == "ip" || w[0] == "ipv6" || w[0] == "mac") && w.size() >= 2 && w[1] == "access-list";
}

/// The first word of an entry of a `qos map <type>` block.
std::string_view map_key(std::string_view type) {
  if (type == "dscp-tc") return "dscp";
  if (type == "dot1p-tc") return "dot1p";
  if (type == "tc-queue" || type == "tc-pg" || type == "tc-dscp" || type == "tc-dot1p") return "traffic-class";
  return "pfc-priority";
}

/// The ports of `interface range <spec>`: "Eth1/1-1/4", "Eth1/1-4", "Eth 1/1 - 1/4,1/6",
/// "Ethernet0-3"; nullopt when the spec is none of these (the range is then kept as one port
/// under its own name). No Dell document or real Dell config with a range was found: the forms
/// are the IOS-style ranges other Klish/IOS-like CLIs print (spaces around '-' allowed).
std::optional<std::vector<std::string>> range_ports(std::string_view spec) {
  spec = text::trim(spec);
  std::size_t digits = spec.find_first_of("0123456789");
  if (digits == 0 || digits == std::string_view::npos) return std::nullopt;
  std::string prefix(text::trim(spec.substr(0, digits)));
  std::string rest;
  for (char c : spec.substr(digits))
    if (c != ' ') rest += c;
  std::vector<std::string> out;
  for (std::string_view item : text::split(rest, ',')) {
    // "A/B-A/C", "A/B-C", "A/B", "N-M", "N": the slot (A/) stays, the last number ranges.
    std::size_t dash = item.find('-');
    std::string_view from = item.substr(0, dash);
    std::string_view to = dash == std::string_view::npos ? from : item.substr(dash + 1);
    std::size_t fs = from.rfind('/'), ts = to.rfind('/');
    std::string slot(fs == std::string_view::npos ? std::string_view() : from.substr(0, fs + 1));
    if (ts != std::string_view::npos && to.substr(0, ts + 1) != slot) return std::nullopt;  // across slots
    std::optional<int> a = detail::parse_small_int(from.substr(slot.size()), 0, 4096);
    std::optional<int> b = detail::parse_small_int(ts == std::string_view::npos ? to : to.substr(ts + 1), 0, 4096);
    if (!a || !b || *b < *a || *b - *a > 1024) return std::nullopt;
    for (int n = *a; n <= *b; ++n) out.push_back(prefix + slot + std::to_string(n));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

}  // namespace

Result<SwitchQos> parse_dell_sonic(std::string_view input, const std::string& file) {
  SwitchQos sw;
  sw.file = file;
  sw.dialect = Dialect::dell_sonic_cli;
  std::map<std::string, std::map<std::string, Map>> maps;  // type -> name -> map
  std::map<std::string, Wred> wreds;
  std::map<std::string, std::map<int, SchedQ>> scheds;
  std::vector<Iface> ifaces;
  enum class Ctx { none, map, wred, sched, iface };
  Ctx ctx = Ctx::none;
  Map* mp = nullptr;
  std::string map_type;
  Wred* wr = nullptr;
  std::map<int, SchedQ>* sp = nullptr;
  SchedQ* sq = nullptr;
  const std::vector<std::string_view> ls = text::lines(input);
  bool session = false;  // a pasted Klish session: commands behind prompts
  for (std::string_view raw : ls)
    if (detail::strip_cli_prompt(text::trim(raw))) session = true;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::size_t ln = i + 1;
    std::string_view raw = ls[i];
    std::string_view l = text::trim(raw);
    if (session && !l.empty() && l.front() != '!') {
      std::optional<std::string_view> cmd = detail::strip_cli_prompt(l);
      if (!cmd) continue;
      raw = l = *cmd;
    }
    if (l.empty() || l.front() == '!' || l.front() == '#') continue;
    const std::vector<std::string_view> w = text::words(l);
    const Line here{ln, std::string(l)};
    if (top_level(raw, w)) {
      ctx = Ctx::none;
      if (w[0] == "hostname" && w.size() >= 2) sw.name = std::string(w[1]);
      else if (w[0] == "qos" && w.size() >= 4 && w[1] == "map") {
        map_type = std::string(w[2]);
        mp = &maps[map_type][std::string(w[3])];
        *mp = Map{};
        mp->header = here;
        ctx = Ctx::map;
      } else if (w[0] == "qos" && w.size() >= 3 && w[1] == "wred-policy") {
        wr = &wreds[std::string(w[2])];
        *wr = Wred{};
        wr->line = here;
        ctx = Ctx::wred;
      } else if (w[0] == "qos" && w.size() >= 3 && w[1] == "scheduler-policy") {
        sp = &scheds[std::string(w[2])];
        sq = nullptr;
        ctx = Ctx::sched;
      } else if (w[0] == "interface" && w.size() >= 2) {
        ifaces.push_back(Iface{});
        ifaces.back().name = std::string(l.substr(l.find(w[1])));
        ifaces.back().header = here;
        ctx = Ctx::iface;
      }
      continue;
    }
    switch (ctx) {
      case Ctx::none: break;
      case Ctx::map: {
        // <key> <list> <to-key> <value>
        if (w[0] != map_key(map_type)) break;
        if (w.size() < 4) return detail::malformed(file, ln, "qos map " + map_type + ": expected '<key> <list> <target> <value>'");
        const int hi = w[0] == "dscp" ? 63 : 7;
        std::optional<std::vector<int>> keys = detail::parse_int_list(w[1], 0, hi);
        std::optional<int> v = detail::parse_small_int(w[3], 0, 15);
        if (!keys || keys->empty() || !v)
          return detail::malformed(file, ln, "qos map " + map_type + ": '" + std::string(l) + "' needs " + std::string(w[0]) +
                                                 " values 0-" + std::to_string(hi) + " and a number");
        for (int k : *keys) mp->m[k] = *v, mp->lines[k] = ln;
        break;
      }
      case Ctx::wred:
        if (w.size() >= 2 && w[0] == "ecn") {
          wr->e.ecn_marking = w[1] != "none";
          wr->e.mode = "ecn_" + std::string(w[1]);
          wr->line = here;
        } else if (w[0] == "green" || w[0] == "yellow" || w[0] == "red") {
          std::string mn, mx;
          for (std::size_t k = 1; k + 1 < w.size(); ++k) {
            if (w[k] == "minimum-threshold") mn = std::string(w[k + 1]);
            else if (w[k] == "maximum-threshold") mx = std::string(w[k + 1]);
            else if (w[k] == "drop-probability") wr->e.mark_probability_percent = detail::parse_small_int(w[k + 1], 0, 100);
          }
          if (w[0] == "green") {
            wr->e.wred_drop = true;
            wr->e.threshold_text = std::string(w[0]) + " " + mn + "-" + mx + " (Dell CLI threshold units)";
          }
        }
        break;
      case Ctx::sched:
        if (w.size() >= 2 && w[0] == "queue") {
          std::optional<int> q = detail::parse_small_int(w[1], 0, 15);
          if (!q) return detail::malformed(file, ln, "scheduler-policy queue is not 0-15");
          sq = &(*sp)[*q];
          sq->line = here;
        } else if (sq && w.size() >= 2 && w[0] == "type") {
          sq->s = Scheduling{w[1] == "strict" ? "strict" : "dwrr", sq->s ? sq->s->weight : std::nullopt};
          sq->line = here;
        } else if (sq && w.size() >= 2 && w[0] == "weight") {
          std::optional<int> wt = detail::parse_small_int(w[1], 0, 100);
          if (!wt) return detail::malformed(file, ln, "weight is not 0-100");
          if (!sq->s) sq->s = Scheduling{"dwrr", std::nullopt};
          if (sq->s->type != "strict") sq->s->weight = *wt;
        }
        break;
      case Ctx::iface: {
        Iface& f = ifaces.back();
        if (w.size() >= 3 && w[0] == "qos-map") {
          f.maps[std::string(w[1])] = {std::string(w[2]), here};
        } else if (w.size() >= 2 && w[0] == "scheduler-policy") {
          f.scheduler = std::string(w[1]);
          f.scheduler_line = here;
        } else if (w.size() >= 4 && w[0] == "queue" && w[2] == "wred-policy") {
          std::optional<int> q = detail::parse_small_int(w[1], 0, 15);
          if (!q) return detail::malformed(file, ln, "queue is not 0-15");
          f.wred[*q] = {std::string(w[3]), here};
        } else if (w.size() == 3 && w[0] == "priority-flow-control" && w[1] == "priority") {
          std::optional<int> p = detail::parse_small_int(w[2], 0, 7);
          if (!p) return detail::malformed(file, ln, "priority-flow-control priority is not 0-7");
          f.pfc.push_back(*p);
          if (!f.pfc_line.no) f.pfc_line = here;
        } else if (w.size() >= 3 && w[0] == "priority-flow-control" && w[1] == "watchdog") {
          PfcWatchdog wd = f.wd.value_or(PfcWatchdog{});
          for (std::size_t k = 2; k < w.size(); ++k) {
            if (w[k] == "on") wd.enabled = true;
            else if (w[k] == "action" && k + 1 < w.size()) wd.action = std::string(w[k + 1]);
            else if (w[k] == "detect-time" && k + 1 < w.size()) wd.detection_time_ms = detail::parse_small_int(w[k + 1], 0, 100000);
            else if (w[k] == "restore-time" && k + 1 < w.size()) wd.restoration_time_ms = detail::parse_small_int(w[k + 1], 0, 100000);
          }
          if (wd.enabled && (!f.wd || !f.wd->enabled)) f.wd_line = here;
          else if (!f.wd_line.no) f.wd_line = here;
          f.wd = wd;
        } else if (w.size() >= 2 && w[0] == "mtu") {
          f.mtu = detail::parse_small_int(w[1], 68, 65535);
          if (!f.mtu) return detail::malformed(file, ln, "mtu is not 68-65535");
          f.mtu_line = here;
        }
        break;
      }
    }
  }
  if (maps.empty() && wreds.empty() && scheds.empty() && ifaces.empty())
    return unexpected(ErrorKind::unsupported, "no Dell Enterprise SONiC QoS lines (qos map, qos wred-policy, qos scheduler-policy, interface)", file);

  // `interface range Eth1/1-1/4`: its settings apply to each port of the range.
  std::vector<Iface> each;
  for (Iface& f : ifaces) {
    std::optional<std::vector<std::string>> names;
    if (f.name.starts_with("range ")) names = range_ports(std::string_view(f.name).substr(6));
    if (!names) {
      each.push_back(std::move(f));
      continue;
    }
    for (const std::string& n : *names) {
      each.push_back(f);
      each.back().name = n;
    }
  }
  ifaces = std::move(each);
  std::vector<const Iface*> ports;
  for (const Iface& f : ifaces)
    if (!f.maps.empty() || !f.scheduler.empty() || !f.wred.empty() || !f.pfc.empty() || f.wd || f.mtu) ports.push_back(&f);
  static const Iface k_any = [] {
    Iface f;
    f.name = "*";
    return f;
  }();
  if (ports.empty()) ports.push_back(&k_any);
  for (const Iface* f : ports) {
    PortQos p;
    p.name = f->name;
    const std::string where = f->name == "*" ? std::string("the configuration") : "interface " + f->name;
    // The map the interface binds, as a Fact (or why not).
    auto bound = [&](const std::string& type, const std::string& what) -> Result<std::pair<const Map*, Fact<std::map<int, int>>>> {
      auto it = f->maps.find(type);
      if (it == f->maps.end())
        return std::make_pair(static_cast<const Map*>(nullptr),
                              Fact<std::map<int, int>>::missing("no `qos-map " + type + "` on " + where + " (" + what + ")"));
      auto m = maps[type].find(it->second.first);
      if (m == maps[type].end())
        return std::make_pair(static_cast<const Map*>(nullptr),
                              Fact<std::map<int, int>>::missing("qos map " + type + " " + it->second.first +
                                                                    " is not defined in this config: line " +
                                                                    std::to_string(it->second.second.no),
                                                                ev(file, it->second.second)));
      Evidence e = ev(file, it->second.second);
      e.text += " (qos map " + type + " " + it->second.first + ", line " + std::to_string(m->second.header.no) + ")";
      return std::make_pair(static_cast<const Map*>(&m->second), Fact<std::map<int, int>>::of(m->second.m, e));
    };
    auto dscp = bound("dscp-tc", "default, not in config: Dell Enterprise SONiC default DSCP map");
    if (!dscp) return unexpected(dscp.error());
    p.dscp_to_tc = dscp->second;
    if (dscp->first) {
      p.dscp_to_tc_lines = dscp->first->lines;
      p.dscp_to_tc_map_name = f->maps.at("dscp-tc").first;
    }
    // Binding a dscp-tc map classifies on DSCP, whether or not this input defines the map.
    const bool dot1p = f->maps.count("dot1p-tc") > 0;
    if (f->maps.count("dscp-tc")) p.trust = Fact<std::string>::of(dot1p ? "pcp,dscp" : "dscp", ev(file, f->maps.at("dscp-tc").second));
    else if (dot1p) p.trust = Fact<std::string>::of("pcp", ev(file, f->maps.at("dot1p-tc").second));
    else p.trust = Fact<std::string>::missing("no `qos-map dscp-tc` or `qos-map dot1p-tc` on " + where + " (default, not in config: Dell Enterprise SONiC default maps)");
    auto tcq = bound("tc-queue", "default, not in config: Dell Enterprise SONiC default TC->queue map");
    if (!tcq) return unexpected(tcq.error());
    p.tc_to_queue = tcq->second;
    auto tcpg = bound("tc-pg", "default, not in config: Dell Enterprise SONiC default TC->PG map");
    if (!tcpg) return unexpected(tcpg.error());
    p.tc_to_pg = tcpg->second;
    auto pq = bound("pfc-priority-queue", "default, not in config: Dell Enterprise SONiC default PFC priority->queue map");
    if (!pq) return unexpected(pq.error());
    p.pfc_priority_to_queue = pq->second;
    auto ppg = bound("pfc-priority-pg", "");
    if (!ppg) return unexpected(ppg.error());
    std::vector<int> pfc = f->pfc;
    std::sort(pfc.begin(), pfc.end());
    pfc.erase(std::unique(pfc.begin(), pfc.end()), pfc.end());
    if (!pfc.empty()) p.pfc_enabled = Fact<std::vector<int>>::of(pfc, ev(file, f->pfc_line));
    else p.pfc_enabled = Fact<std::vector<int>>::of({}, Evidence{file, f->header.no, f->header.text + " (no priority-flow-control priority: PFC off)"});
    // Lossless headroom: the PFC priorities' priority groups (pfc-priority-pg map).
    if (ppg->first) {
      for (int pr : pfc) {
        auto it = ppg->first->m.find(pr);
        if (it == ppg->first->m.end()) continue;
        BufferPg pg;
        pg.first_pg = pg.last_pg = it->second;
        pg.profile = "PFC priority " + std::to_string(pr) + " priority group";
        pg.lossless = true;
        pg.basis = "Dell Enterprise SONiC reserves lossless headroom for the PFC priorities' priority groups";
        pg.source = Evidence{file, ppg->first->lines.at(pr), "pfc-priority " + std::to_string(pr) + " pg " + std::to_string(it->second)};
        p.buffer_pgs.push_back(pg);
      }
    }
    if (p.buffer_pgs.empty())
      p.buffer_reason = pfc.empty()                         ? "no PFC priority"
                        : !ppg->first && f->maps.count("pfc-priority-pg") ? ppg->second.reason
                                                                           : "no `qos-map pfc-priority-pg` on " + where;
    // Queues: scheduler policy and WRED/ECN policies.
    if (!f->scheduler.empty()) {
      auto s = scheds.find(f->scheduler);
      if (s == scheds.end())
        sw.notes.push_back("line " + std::to_string(f->scheduler_line.no) + ": qos scheduler-policy " + f->scheduler +
                           " is not defined in this config: the queues' scheduling on " + where + " is unknown");
      else {
        for (const auto& [q, sch] : s->second) {
          QueueConfig& qc = p.queues[q];
          qc.queue = q;
          if (sch.s) qc.scheduling = Fact<Scheduling>::of(*sch.s, ev(file, sch.line));
          else qc.scheduling = Fact<Scheduling>::missing("scheduler-policy " + f->scheduler + " queue " + std::to_string(q) + " sets no type");
        }
      }
    }
    for (const auto& [q, wp] : f->wred) {
      auto it = wreds.find(wp.first);
      QueueConfig& qc = p.queues[q];
      qc.queue = q;
      if (it == wreds.end()) {
        qc.ecn = Fact<EcnConfig>::missing("qos wred-policy " + wp.first + " is not defined in this config: line " +
                                              std::to_string(wp.second.no),
                                          ev(file, wp.second));
        continue;
      }
      EcnConfig e = it->second.e;
      e.profile = wp.first;
      Evidence where_ev = ev(file, wp.second);
      where_ev.text += " (qos wred-policy " + wp.first + ": " + it->second.line.text + ", line " + std::to_string(it->second.line.no) + ")";
      qc.ecn = Fact<EcnConfig>::of(e, where_ev);
    }
    for (auto& [q, qc] : p.queues) {
      if (!qc.scheduling.has_value() && qc.scheduling.reason.empty())
        qc.scheduling = Fact<Scheduling>::missing(
            scheds.count(f->scheduler) || f->scheduler.empty()
                ? "queue " + std::to_string(q) + " is in no scheduler-policy on " + where
                : "qos scheduler-policy " + f->scheduler + " is not defined in this config: line " + std::to_string(f->scheduler_line.no),
            f->scheduler.empty() ? Evidence{} : ev(file, f->scheduler_line));
      if (!qc.ecn.has_value() && qc.ecn.reason.empty()) {
        EcnConfig none;
        none.mode = "none";
        qc.ecn = Fact<EcnConfig>::of(none, Evidence{file, f->header.no, "no `queue " + std::to_string(q) + " wred-policy` on " + where});
      }
    }
    if (f->mtu) p.mtu_bytes = Fact<int>::of(*f->mtu, ev(file, f->mtu_line));
    else p.mtu_bytes = Fact<int>::missing("no `mtu` on " + where + " (default, not in config: the platform default MTU)");
    if (f->wd) p.pfc_watchdog = Fact<PfcWatchdog>::of(*f->wd, ev(file, f->wd_line));
    else p.pfc_watchdog = Fact<PfcWatchdog>::missing("no `priority-flow-control watchdog` on " + where + " (default, not in config: off)");
    sw.ports.push_back(std::move(p));
  }
  return sw;
}

}  // namespace rk::switchcfg

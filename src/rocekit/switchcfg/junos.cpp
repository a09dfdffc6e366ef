// Juniper Junos class-of-service -> SwitchQos, in either form Junos prints: the hierarchy
// (`show configuration class-of-service`, curly braces) or `display set` lines (`set
// class-of-service ...`). Syntax: Junos OS Class of Service User Guide (forwarding-classes class
// <fc> queue-num <n> [no-loss] [pfc-priority <p>], classifiers dscp, congestion-notification-profile
// input dscp|ieee-802.1 code-point <cp> pfc / output ieee-802.1 code-point <cp> flow-control-queue
// <q>, scheduler-maps, schedulers (transmit-rate percent, priority, explicit-congestion-notification,
// drop-profile-map), drop-profiles interpolate fill-level/drop-probability, interfaces <if>
// {scheduler-map, congestion-notification-profile, unit <u> classifiers dscp <c>}); sample
// testdata/switch/juniper (ROCm/gpu-cluster-networking roce-network-config.rst, QFX5240).
// Interfaces: `class-of-service interfaces` entries may name a wildcard (`et-*`, `xe-0/0/*`, `all`;
// Junos shell-style wildcards, "Assigning CoS Components to Interfaces", QFX Traffic Management
// Guide): it applies to every physical interface of the top-level `interfaces` section it matches.
// The docs found state the wildcard assignment but not how it combines with an entry for one
// interface; rocekit takes the most specific entry (an exact name, else the wildcard with the most
// literal characters) as a whole and says so in the notes. Classifiers bound on the physical
// interface apply to all its logical units (same page). PFC is on only where a congestion
// notification profile is attached to the interface ("Configure CoS PFC with Congestion
// Notification Profiles"): with a `class-of-service interfaces` section present, a port without
// one has PFC off. MTU: `interfaces <if> mtu` is the media MTU, which includes the 14-byte
// Ethernet header but not the FCS (media 1514 = IP 1500); `unit <u> family inet mtu` is the IP
// (protocol) MTU ("Configuring the Media MTU", "mtu", Junos Interfaces Fundamentals): the host
// netdev MTU is compared with the IP MTU, the family's when set, else media - 14.
// Model: traffic class = the forwarding class's queue number; a no-loss class's `pfc-priority`
// is the PFC priority that pauses it (PortQos::tc_pfc_priority); a received PFC for priority p
// pauses the `flow-control-queue` the profile's output names (else the no-loss class's queue).
#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <set>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

/// One configuration statement: its full path of words (class-of-service stripped) and line.
struct Stmt {
  std::vector<std::string> w;
  std::size_t line = 0;
  std::string text;  ///< the statement as a `set` line, for evidence
  bool cos = false;  ///< under `class-of-service` (else a top-level statement such as `interfaces`)
};

std::string joined(const std::vector<std::string>& w, std::size_t from = 0) {
  std::string s;
  for (std::size_t i = from; i < w.size(); ++i) s += (i > from ? " " : "") + w[i];
  return s;
}

/// Flattens the curly-brace form into statements. Errors: unbalanced braces or brackets.
Result<std::vector<Stmt>> flatten_curly(std::string_view in, const std::string& file) {
  std::vector<Stmt> out;
  std::vector<std::vector<std::string>> stack;  // words of each open block
  std::vector<std::string> cur;
  std::size_t cur_line = 0, line = 1;
  bool in_bracket = false;
  std::size_t i = 0;
  auto path = [&] {
    std::vector<std::string> p;
    for (const auto& b : stack) p.insert(p.end(), b.begin(), b.end());
    return p;
  };
  while (i < in.size()) {
    const char c = in[i];
    if (c == '\n') { ++line; ++i; continue; }
    if (c == ' ' || c == '\t' || c == '\r') { ++i; continue; }
    if (c == '/' && i + 1 < in.size() && in[i + 1] == '*') {
      std::size_t e = in.find("*/", i + 2);
      if (e == std::string_view::npos) e = in.size();
      line += static_cast<std::size_t>(std::count(in.begin() + static_cast<std::ptrdiff_t>(i),
                                                  in.begin() + static_cast<std::ptrdiff_t>(std::min(e, in.size())), '\n'));
      i = e == in.size() ? e : e + 2;
      continue;
    }
    if (c == '#' && cur.empty()) {
      while (i < in.size() && in[i] != '\n') ++i;
      continue;
    }
    if (c == '{') {
      if (in_bracket || cur.empty()) return detail::malformed(file, line, "'{' without a statement name");
      if (stack.size() >= 32) return detail::malformed(file, line, "nested deeper than 32 levels");
      stack.push_back(cur);
      cur.clear();
      ++i;
      continue;
    }
    if (c == '}') {
      if (in_bracket || !cur.empty()) return detail::malformed(file, line, "'}' after an unterminated statement (missing ';')");
      if (stack.empty()) return detail::malformed(file, line, "'}' without an open block");
      // An empty block `x { }` still states x.
      stack.pop_back();
      ++i;
      continue;
    }
    if (c == ';') {
      if (in_bracket) return detail::malformed(file, line, "';' inside [ ]");
      if (!cur.empty()) {
        std::vector<std::string> p = path();
        p.insert(p.end(), cur.begin(), cur.end());
        out.push_back(Stmt{p, cur_line, ""});
        cur.clear();
      }
      ++i;
      continue;
    }
    if (c == '[') { in_bracket = true; ++i; continue; }
    if (c == ']') {
      if (!in_bracket) return detail::malformed(file, line, "']' without '['");
      in_bracket = false;
      ++i;
      continue;
    }
    std::size_t j = i;
    if (c == '"') {
      j = in.find('"', i + 1);
      if (j == std::string_view::npos) return detail::malformed(file, line, "unterminated string");
      ++j;
    } else {
      while (j < in.size() && std::string_view(" \t\r\n{};[]").find(in[j]) == std::string_view::npos) ++j;
    }
    if (cur.empty()) cur_line = line;
    cur.emplace_back(in.substr(i, j - i));
    i = j;
  }
  if (!stack.empty() || !cur.empty()) return detail::malformed(file, line, "unbalanced braces: a block or statement is not closed");
  return out;
}

/// DSCP code point: 6 binary digits or an alias (ef, afXY, csN, be, nc1, nc2).
std::optional<int> dscp_code(std::string_view s) {
  if (s.size() == 6 && s.find_first_not_of("01") == std::string_view::npos) {
    int v = 0;
    for (char c : s) v = v * 2 + (c - '0');
    return v;
  }
  if (s == "ef") return 46;
  if (s == "be") return 0;
  if (s == "nc1") return 48;
  if (s == "nc2") return 56;
  if (s.size() == 3 && s.substr(0, 2) == "cs" && s[2] >= '0' && s[2] <= '7') return (s[2] - '0') * 8;
  if (s.size() == 4 && s.substr(0, 2) == "af" && s[2] >= '1' && s[2] <= '4' && s[3] >= '1' && s[3] <= '3')
    return (s[2] - '0') * 8 + (s[3] - '0') * 2;
  return std::nullopt;
}

/// IEEE 802.1p code point: 3 binary digits, or the Junos default aliases (be, be1, ef, ef1,
/// af11, af12, nc1, nc2 = 000..111).
std::optional<int> pcp_code(std::string_view s) {
  if (s.size() == 3 && s.find_first_not_of("01") == std::string_view::npos) return (s[0] - '0') * 4 + (s[1] - '0') * 2 + (s[2] - '0');
  static const char* k_alias[] = {"be", "be1", "ef", "ef1", "af11", "af12", "nc1", "nc2"};
  for (int i = 0; i < 8; ++i)
    if (s == k_alias[i]) return i;
  return std::nullopt;
}

struct Fc {
  int queue = 0;
  bool no_loss = false;
  std::optional<int> pfc_priority;
  std::size_t line = 0;
  std::string text;
};

struct Sched {
  std::optional<Scheduling> sched;
  Stmt sched_stmt;
  bool ecn = false;
  Stmt ecn_stmt;
  std::string drop_profile;
  std::size_t line = 0;
};

struct IfBind {
  std::string scheduler_map, cnp, classifier, pcp_classifier;
  Stmt sm_stmt, cnp_stmt, cl_stmt;
  std::string from;  ///< the `class-of-service interfaces` entry the bindings come from (a wildcard)
  std::optional<int> mtu, inet_mtu;
  Stmt mtu_stmt, inet_mtu_stmt;
  bool breakout = false;  ///< `number-of-sub-ports`: a channelised port, its channels are the ports
  bool has_cos() const { return !scheduler_map.empty() || !cnp.empty() || !classifier.empty() || !pcp_classifier.empty(); }
  /// The first line that binds class of service to the interface, 0 when none.
  std::size_t cos_line() const {
    std::size_t l = 0;
    for (const Stmt* s : {&sm_stmt, &cnp_stmt, &cl_stmt})
      if (s->line && (!l || s->line < l)) l = s->line;
    return l;
  }
  void take_cos(const IfBind& o) {
    scheduler_map = o.scheduler_map, cnp = o.cnp, classifier = o.classifier, pcp_classifier = o.pcp_classifier;
    sm_stmt = o.sm_stmt, cnp_stmt = o.cnp_stmt, cl_stmt = o.cl_stmt;
  }
};

/// A `class-of-service interfaces` name that stands for several interfaces.
bool is_pattern(const std::string& n) { return n == "all" || n.find_first_of("*?[") != std::string::npos; }

/// How specific a matching pattern is: its literal characters (`all` least).
std::size_t specificity(const std::string& pat) {
  return pat == "all" ? 0 : static_cast<std::size_t>(std::count_if(pat.begin(), pat.end(), [](char c) { return c != '*' && c != '?'; }));
}

bool matches(const std::string& pat, const std::string& name) {
  return pat == "all" || ::fnmatch(pat.c_str(), name.c_str(), 0) == 0;
}

/// Interfaces that are not physical ports facing a host: routing (irb, lo0), management (em0,
/// fxp0, vme, re0:mgmt-0) and internal ones, and `interface-range` groups.
bool logical_interface(const std::string& n) {
  if (n == "interface-range" || n.starts_with("re0:") || n.starts_with("re1:")) return true;
  std::string base = n;
  while (!base.empty() && base.back() >= '0' && base.back() <= '9') base.pop_back();
  static const std::set<std::string> k_logical = {"irb", "lo", "vme", "em", "fxp", "me", "vlan", "jsrv", "esi",
                                                  "vtep", "dsc", "pip", "cbp", "lsi", "bme"};
  return k_logical.count(base) > 0;
}

Evidence ev(const std::string& file, const Stmt& s) { return Evidence{file, s.line, s.text}; }

}  // namespace

Result<SwitchQos> parse_juniper_junos(std::string_view input, const std::string& file) {
  SwitchQos sw;
  sw.file = file;
  sw.dialect = Dialect::juniper_junos;
  // Statements of either form.
  std::vector<Stmt> stmts;
  bool set_form = false;
  {
    std::vector<std::string_view> ls = text::lines(input);
    for (std::size_t i = 0; i < ls.size(); ++i) {
      std::string_view l = text::trim(ls[i]);
      if (text::starts_with(l, "set ")) set_form = true;
    }
    if (set_form) {
      for (std::size_t i = 0; i < ls.size(); ++i) {
        std::string_view l = text::trim(ls[i]);
        if (!text::starts_with(l, "set ")) continue;
        std::vector<std::string> w;
        bool bracket = false;
        for (std::string_view x : text::words(l.substr(4))) {
          if (x == "[") { bracket = true; continue; }
          if (x == "]") { bracket = false; continue; }
          w.emplace_back(x);
        }
        (void)bracket;
        stmts.push_back(Stmt{w, i + 1, std::string(l)});
      }
    } else {
      Result<std::vector<Stmt>> r = flatten_curly(input, file);
      if (!r) return unexpected(r.error());
      stmts = std::move(*r);
    }
  }
  // `show configuration class-of-service` prints the hierarchy's contents without the
  // `class-of-service` level: then every statement is a class-of-service one.
  const bool cos_excerpt = std::none_of(stmts.begin(), stmts.end(), [](const Stmt& s) { return !s.w.empty() && s.w[0] == "class-of-service"; });
  for (Stmt& s : stmts) {
    s.cos = cos_excerpt;
    if (!s.w.empty() && s.w[0] == "class-of-service") s.w.erase(s.w.begin()), s.cos = true;
    if (s.text.empty()) s.text = joined(s.w);
  }
  std::map<std::string, Fc> fcs;
  std::map<std::string, std::map<int, std::pair<std::string, Stmt>>> dscp_cls;  // classifier -> dscp -> fc
  std::map<std::string, std::vector<std::pair<int, Stmt>>> cnp_in_pcp, cnp_in_dscp;  // profile -> code points with pfc
  std::map<std::string, std::map<int, std::pair<int, Stmt>>> cnp_out;  // profile -> priority -> queue
  std::map<std::string, Stmt> cnp_watchdog;
  std::map<std::string, std::map<std::string, std::string>> smaps;  // map -> fc -> scheduler
  std::map<std::string, Stmt> smap_stmt;
  std::map<std::string, Sched> scheds;
  std::map<std::string, std::pair<std::string, Stmt>> drop_fill;  // profile -> "45-90" fill levels
  std::map<std::string, IfBind> ifs;
  std::vector<std::string> if_order;
  auto iface = [&](const std::string& n) -> IfBind& {
    if (!ifs.count(n)) if_order.push_back(n);
    return ifs[n];
  };
  for (const Stmt& s : stmts) {
    const std::vector<std::string>& w = s.w;
    const auto at = [&](std::size_t i) -> std::string_view { return i < w.size() ? std::string_view(w[i]) : std::string_view(); };
    if (at(0) == "system" && at(1) == "host-name" && w.size() >= 3) sw.name = w[2];
    if (at(0) == "forwarding-classes" && at(1) == "class" && w.size() >= 3) {
      Fc& f = fcs[w[2]];
      for (std::size_t k = 3; k < w.size(); ++k) {
        if (w[k] == "queue-num" && k + 1 < w.size()) {
          std::optional<int> q = detail::parse_small_int(w[k + 1], 0, 15);
          if (!q) return detail::malformed(file, s.line, "forwarding-classes class " + w[2] + ": queue-num '" + w[k + 1] + "' is not 0-15");
          f.queue = *q;
          f.line = s.line;
          f.text = s.text;
        } else if (w[k] == "no-loss") {
          f.no_loss = true;
        } else if (w[k] == "pfc-priority" && k + 1 < w.size()) {
          f.pfc_priority = detail::parse_small_int(w[k + 1], 0, 7);
          if (!f.pfc_priority) return detail::malformed(file, s.line, "pfc-priority '" + w[k + 1] + "' is not 0-7");
        }
      }
    } else if (at(0) == "classifiers" && at(1) == "dscp" && w.size() >= 5 && at(3) == "forwarding-class") {
      auto cp = std::find(w.begin(), w.end(), std::string("code-points"));
      for (auto it = cp == w.end() ? w.end() : cp + 1; it != w.end(); ++it) {
        std::optional<int> d = dscp_code(*it);
        if (!d) return detail::malformed(file, s.line, "classifiers dscp " + w[2] + ": code point '" + *it + "' is not 6 bits or a DSCP alias");
        dscp_cls[w[2]].emplace(*d, std::make_pair(w[4], s));
      }
    } else if (at(0) == "congestion-notification-profile" && w.size() >= 3) {
      const std::string& prof = w[1];
      auto cp = std::find(w.begin(), w.end(), std::string("code-point"));
      if (at(2) == "pfc-watchdog") cnp_watchdog[prof] = s;
      if (cp == w.end() || cp + 1 == w.end()) continue;
      const std::string& code = *(cp + 1);
      if (at(2) == "input" && std::find(cp, w.end(), std::string("pfc")) != w.end()) {
        if (at(3) == "dscp") {
          std::optional<int> d = dscp_code(code);
          if (!d) return detail::malformed(file, s.line, "congestion-notification-profile: DSCP code point '" + code + "' is not 6 bits");
          cnp_in_dscp[prof].emplace_back(*d, s);
        } else {
          std::optional<int> p = pcp_code(code);
          if (!p) return detail::malformed(file, s.line, "congestion-notification-profile: 802.1p code point '" + code + "' is not 3 bits");
          cnp_in_pcp[prof].emplace_back(*p, s);
        }
      } else if (at(2) == "output") {
        auto fq = std::find(cp, w.end(), std::string("flow-control-queue"));
        if (fq == w.end() || fq + 1 == w.end()) continue;
        std::optional<int> p = pcp_code(code);
        std::optional<int> q = detail::parse_small_int(*(fq + 1), 0, 15);
        if (!p || !q) return detail::malformed(file, s.line, "congestion-notification-profile output: expected 'code-point <3 bits> flow-control-queue <0-15>'");
        cnp_out[prof][*p] = {*q, s};
      }
    } else if (at(0) == "scheduler-maps" && w.size() >= 6 && at(2) == "forwarding-class" && at(4) == "scheduler") {
      smaps[w[1]][w[3]] = w[5];
      if (!smap_stmt.count(w[1])) smap_stmt[w[1]] = s;
    } else if (at(0) == "schedulers" && w.size() >= 3) {
      Sched& sc = scheds[w[1]];
      if (!sc.line) sc.line = s.line;
      if (at(2) == "priority" && w.size() >= 4) {
        if (w[3] == "strict-high") sc.sched = Scheduling{"strict", std::nullopt}, sc.sched_stmt = s;
        else if (!sc.sched) sc.sched = Scheduling{"dwrr", std::nullopt}, sc.sched_stmt = s;
      } else if (at(2) == "transmit-rate") {
        std::optional<int> pct;
        for (std::size_t k = 3; k + 1 < w.size(); ++k)
          if (w[k] == "percent") pct = detail::parse_small_int(w[k + 1], 0, 100);
        if (w.size() >= 5 && w[4] == "percent") pct = detail::parse_small_int(w[3], 0, 100);
        if (pct && (!sc.sched || sc.sched->type != "strict")) sc.sched = Scheduling{"dwrr", *pct}, sc.sched_stmt = s;
      } else if (at(2) == "explicit-congestion-notification") {
        sc.ecn = true;
        sc.ecn_stmt = s;
      } else if (at(2) == "drop-profile-map") {
        auto dp = std::find(w.begin(), w.end(), std::string("drop-profile"));
        if (dp != w.end() && dp + 1 != w.end()) sc.drop_profile = *(dp + 1);
      }
    } else if (at(0) == "drop-profiles" && w.size() >= 4) {
      auto fl = std::find(w.begin(), w.end(), std::string("fill-level"));
      if (fl != w.end() && fl + 1 != w.end()) {
        std::string v;
        for (auto it = fl + 1; it != w.end() && *it != "drop-probability"; ++it) v += (v.empty() ? "" : "-") + *it;
        auto& d = drop_fill[w[1]];
        d.first = d.first.empty() ? v : d.first + "-" + v;
        d.second = s;
      }
    } else if (at(0) == "interfaces" && s.cos && w.size() >= 4) {
      IfBind& b = iface(w[1]);
      // Classifiers on the physical interface apply to all its units, as on `unit <u>`.
      const std::size_t cl = at(2) == "classifiers" ? 2 : at(2) == "unit" && at(4) == "classifiers" ? 4 : 0;
      if (at(2) == "scheduler-map") b.scheduler_map = w[3], b.sm_stmt = s;
      else if (at(2) == "congestion-notification-profile") b.cnp = w[3], b.cnp_stmt = s;
      else if (cl && w.size() >= cl + 3) {
        if (at(cl + 1) == "dscp") b.classifier = w[cl + 2], b.cl_stmt = s;
        else if (at(cl + 1) == "ieee-802.1") b.pcp_classifier = w[cl + 2], b.cl_stmt = s;
      }
    } else if (at(0) == "interfaces" && !s.cos && w.size() >= 3) {
      IfBind& b = iface(w[1]);
      if (at(2) == "mtu" && w.size() >= 4) {
        b.mtu = detail::parse_small_int(w[3], 256, 65535);
        if (!b.mtu) return detail::malformed(file, s.line, "mtu '" + w[3] + "' is not 256-65535");
        b.mtu_stmt = s;
      } else if (at(2) == "number-of-sub-ports") {
        b.breakout = true;
      } else if (at(2) == "unit" && at(4) == "family" && at(5) == "inet" && at(6) == "mtu" && w.size() >= 8) {
        std::optional<int> m = detail::parse_small_int(w[7], 256, 65535);
        if (!m) return detail::malformed(file, s.line, "family inet mtu '" + w[7] + "' is not 256-65535");
        if (!b.inet_mtu || w[3] == "0") b.inet_mtu = m, b.inet_mtu_stmt = s;
      }
    }
  }
  if (fcs.empty() && dscp_cls.empty() && smaps.empty() && ifs.empty())
    return unexpected(ErrorKind::unsupported, "no Junos class-of-service statements (forwarding-classes, classifiers, schedulers, interfaces)", file);
  for (const auto& [name, f] : fcs)
    if (f.no_loss && !f.pfc_priority)
      sw.notes.push_back("line " + std::to_string(f.line) + ": no-loss forwarding class " + name + " names no pfc-priority");

  // Ports: the physical interfaces with a CoS binding (their own, else the most specific matching
  // wildcard entry) or an MTU; a wildcard that matches none of them stays as its pattern; with
  // no interface at all, one system-wide entry.
  std::vector<std::pair<std::string, IfBind>> ports;
  std::vector<std::string> patterns;
  bool cos_section = false;  // some `class-of-service interfaces` entry binds something
  for (const std::string& n : if_order) {
    if (is_pattern(n)) patterns.push_back(n);
    cos_section = cos_section || ifs[n].has_cos();
  }
  std::set<std::string> used;
  for (const std::string& n : if_order) {
    if (is_pattern(n) || logical_interface(n) || ifs[n].breakout) continue;
    IfBind b = ifs[n];
    const std::string* best = nullptr;
    for (const std::string& pat : patterns)
      if (ifs[pat].has_cos() && matches(pat, n) && (!best || specificity(pat) > specificity(*best))) best = &pat;
    if (best) used.insert(*best);
    if (best && b.has_cos())
      sw.notes.push_back("class-of-service interfaces " + n + " (line " + std::to_string(b.cos_line()) +
                         ") is used instead of the wildcard " + *best + " (the more specific entry applies)");
    else if (best)
      b.take_cos(ifs[*best]), b.from = *best;
    if (b.has_cos() || b.mtu || b.inet_mtu) ports.emplace_back(n, b);
  }
  for (const std::string& pat : patterns)
    if (!used.count(pat) && ifs[pat].has_cos()) ports.emplace_back(pat, ifs[pat]);
  for (const auto& [fn, f] : fcs)
    if (f.queue > 7)
      sw.notes.push_back("line " + std::to_string(f.line) + ": forwarding class " + fn + " queue-num " + std::to_string(f.queue) +
                         " is a multicast queue, not a traffic class 0-7: left out of TC->queue and TC->PG");
  if (ports.empty()) {
    IfBind any;
    if (dscp_cls.size() == 1) any.classifier = dscp_cls.begin()->first;
    if (smaps.size() == 1) any.scheduler_map = smaps.begin()->first, any.sm_stmt = smap_stmt[any.scheduler_map];
    std::set<std::string> profs;
    for (const auto& m : {cnp_in_dscp, cnp_in_pcp})
      for (const auto& [k, v] : m) profs.insert(k);
    if (profs.size() == 1) any.cnp = *profs.begin();
    sw.notes.push_back("no interface binds class-of-service: the only classifier / scheduler map / "
                       "congestion-notification profile are assumed to apply to every port");
    ports.emplace_back("*", any);
  }
  for (const auto& [name, b] : ports) {
    PortQos p;
    p.name = name;
    const std::string where = name == "*" ? std::string("the configuration")
                              : "interfaces " + name + (b.from.empty() ? "" : " (class-of-service interfaces " + b.from + ")");
    // Classification.
    if (!b.classifier.empty()) {
      auto it = dscp_cls.find(b.classifier);
      if (it == dscp_cls.end())
        return detail::malformed(file, b.cl_stmt.line, "classifiers dscp " + b.classifier + " is not defined");
      std::map<int, int> m;
      for (const auto& [d, fc] : it->second) {
        auto f = fcs.find(fc.first);
        if (f == fcs.end())
          return detail::malformed(file, fc.second.line, "forwarding class " + fc.first + " is not defined (forwarding-classes class ... queue-num)");
        m[d] = f->second.queue;
        p.dscp_to_tc_lines[d] = fc.second.line;
      }
      Evidence e = b.cl_stmt.line ? ev(file, b.cl_stmt) : Evidence{file, it->second.begin()->second.second.line, "classifiers dscp " + b.classifier};
      e.text += " (traffic class = forwarding-class queue-num; other code points: Junos default classifier, not in config)";
      p.trust = Fact<std::string>::of(b.pcp_classifier.empty() ? "dscp" : "pcp,dscp", b.cl_stmt.line ? ev(file, b.cl_stmt) : e);
      p.dscp_to_tc = Fact<std::map<int, int>>::of(m, e);
      p.dscp_to_tc_map_name = b.classifier;
    } else {
      const std::string why = "no `classifiers dscp` bound on " + where + " (default, not in config: Junos default DSCP classifier)";
      p.trust = b.pcp_classifier.empty() ? Fact<std::string>::missing(why) : Fact<std::string>::of("pcp", ev(file, b.cl_stmt));
      p.dscp_to_tc = Fact<std::map<int, int>>::missing(why);
    }
    std::map<int, int> id;
    for (const auto& [fn, f] : fcs)
      if (f.queue <= 7) id[f.queue] = f.queue;
    p.tc_to_queue = Fact<std::map<int, int>>::of(id, Evidence{file, 0, "Junos: traffic class = the forwarding class's queue-num"});
    // PFC: the congestion-notification profile's input code points, as PFC priorities.
    std::set<int> pfc;
    Stmt pfc_stmt;
    std::map<int, int> prio_queue;
    Stmt pq_stmt;
    for (const auto& [fn, f] : fcs) {
      if (!f.no_loss) continue;
      if (f.pfc_priority) p.tc_pfc_priority[f.queue] = *f.pfc_priority;
      BufferPg pg;
      pg.first_pg = pg.last_pg = f.queue;
      pg.profile = "no-loss forwarding class " + fn;
      pg.lossless = true;
      pg.basis = "Junos gives no-loss forwarding classes the lossless (and lossless-headroom) buffer partition";
      pg.source = Evidence{file, f.line, f.text};
      p.buffer_pgs.push_back(pg);
    }
    if (p.buffer_pgs.empty()) p.buffer_reason = "no no-loss forwarding class";
    p.tc_to_pg = Fact<std::map<int, int>>::of(id, Evidence{file, 0, "Junos: the lossless buffer follows the no-loss forwarding class"});
    if (!b.cnp.empty()) {
      const bool known = cnp_in_dscp.count(b.cnp) || cnp_in_pcp.count(b.cnp) || cnp_out.count(b.cnp);
      if (!known)
        return detail::malformed(file, b.cnp_stmt.line, "congestion-notification-profile " + b.cnp + " is not defined");
      for (const auto& [pcp, st] : cnp_in_pcp[b.cnp]) pfc.insert(pcp), pfc_stmt = pfc_stmt.line ? pfc_stmt : st;
      for (const auto& [d, st] : cnp_in_dscp[b.cnp]) {
        // PFC on DSCP: the PFC priority is that of the no-loss class the DSCP is classified to.
        std::optional<int> pr;
        if (p.dscp_to_tc.has_value())
          if (auto t = p.dscp_to_tc->find(d); t != p.dscp_to_tc->end())
            if (auto pp = p.tc_pfc_priority.find(t->second); pp != p.tc_pfc_priority.end()) pr = pp->second;
        if (!pr) {
          sw.notes.push_back("line " + std::to_string(st.line) + ": PFC on DSCP " + std::to_string(d) +
                             ", which no bound classifier maps to a no-loss class with a pfc-priority");
          continue;
        }
        pfc.insert(*pr);
        if (!pfc_stmt.line) pfc_stmt = st;
      }
      for (const auto& [pr, qs] : cnp_out[b.cnp]) {
        prio_queue[pr] = qs.first;
        if (!pq_stmt.line) pq_stmt = qs.second;
      }
      Evidence e = pfc_stmt.line ? ev(file, pfc_stmt) : ev(file, b.cnp_stmt);
      if (b.cnp_stmt.line) e.text += " (" + b.cnp_stmt.text + ", line " + std::to_string(b.cnp_stmt.line) + ")";
      p.pfc_enabled = Fact<std::vector<int>>::of(std::vector<int>(pfc.begin(), pfc.end()), e);
    } else if (cos_section && name != "*") {
      // The configuration binds class of service to interfaces, and none of its entries for
      // this port attaches a congestion notification profile: PFC is off on the port.
      const std::size_t l = b.cos_line() ? b.cos_line() : b.mtu ? b.mtu_stmt.line : b.inet_mtu_stmt.line;
      p.pfc_enabled = Fact<std::vector<int>>::of(
          {}, Evidence{file, l, where + ": no congestion-notification-profile (Junos enables PFC only through a congestion "
                                 "notification profile attached to the interface: PFC off on every priority)"});
    } else {
      p.pfc_enabled = Fact<std::vector<int>>::missing("no congestion-notification-profile on " + where +
                                                       " (default, not in config: no PFC)");
    }
    if (!prio_queue.empty()) {
      p.pfc_priority_to_queue = Fact<std::map<int, int>>::of(prio_queue, ev(file, pq_stmt));
    } else if (!p.tc_pfc_priority.empty()) {
      std::map<int, int> m;
      const Fc* any = nullptr;
      for (const auto& [fn, f] : fcs)
        if (f.no_loss && f.pfc_priority) m[*f.pfc_priority] = f.queue, any = any ? any : &f;
      p.pfc_priority_to_queue = Fact<std::map<int, int>>::of(
          m, Evidence{file, any->line, any->text + " (no output flow-control-queue: PFC priority pauses the no-loss class's queue)"});
    } else {
      p.pfc_priority_to_queue = Fact<std::map<int, int>>::missing("no no-loss forwarding class with a pfc-priority");
    }
    // Queues of the bound scheduler map.
    if (!b.scheduler_map.empty()) {
      auto sm = smaps.find(b.scheduler_map);
      if (sm == smaps.end()) return detail::malformed(file, b.sm_stmt.line, "scheduler-map " + b.scheduler_map + " is not defined");
      for (const auto& [fc, sname] : sm->second) {
        auto f = fcs.find(fc);
        auto sc = scheds.find(sname);
        if (f == fcs.end()) return detail::malformed(file, smap_stmt[b.scheduler_map].line, "scheduler-maps: forwarding class " + fc + " is not defined");
        if (sc == scheds.end()) return detail::malformed(file, smap_stmt[b.scheduler_map].line, "scheduler-maps: scheduler " + sname + " is not defined");
        QueueConfig& qc = p.queues[f->second.queue];
        qc.queue = f->second.queue;
        if (sc->second.sched) qc.scheduling = Fact<Scheduling>::of(*sc->second.sched, ev(file, sc->second.sched_stmt));
        else qc.scheduling = Fact<Scheduling>::missing("scheduler " + sname + " sets no priority or transmit-rate (default, not in config: Junos default scheduler share)");
        EcnConfig e;
        e.ecn_marking = sc->second.ecn;
        e.mode = sc->second.ecn ? "ecn" : "none";
        e.profile = sc->second.drop_profile;
        if (!sc->second.drop_profile.empty()) {
          e.wred_drop = true;
          if (auto d = drop_fill.find(sc->second.drop_profile); d != drop_fill.end()) e.threshold_text = "fill-level " + d->second.first + " %";
        }
        qc.ecn = Fact<EcnConfig>::of(e, sc->second.ecn ? ev(file, sc->second.ecn_stmt)
                                                       : Evidence{file, sc->second.line, "schedulers " + sname + " (no explicit-congestion-notification)"});
      }
    } else {
      sw.notes.push_back(where + ": no scheduler-map bound (default, not in config: Junos default scheduler map)");
    }
    if (b.inet_mtu) {
      Evidence e = ev(file, b.inet_mtu_stmt);
      e.text += " (IP MTU" + (b.mtu ? "; media MTU " + std::to_string(*b.mtu) + " on line " + std::to_string(b.mtu_stmt.line) : std::string()) + ")";
      p.mtu_bytes = Fact<int>::of(*b.inet_mtu, e);
    } else if (b.mtu) {
      Evidence e = ev(file, b.mtu_stmt);
      e.text += " (Junos media MTU includes the 14-byte Ethernet header: IP MTU " + std::to_string(*b.mtu - 14) + ")";
      p.mtu_bytes = Fact<int>::of(*b.mtu - 14, e);
    } else {
      p.mtu_bytes = Fact<int>::missing("no `mtu` on " + where + " (default, not in config: Junos media MTU 1514, IP MTU 1500)");
    }
    if (!b.cnp.empty() && cnp_watchdog.count(b.cnp)) {
      PfcWatchdog wd;
      wd.enabled = true;
      p.pfc_watchdog = Fact<PfcWatchdog>::of(wd, ev(file, cnp_watchdog[b.cnp]));
    } else {
      p.pfc_watchdog = Fact<PfcWatchdog>::missing("no pfc-watchdog in the congestion-notification-profile of " + where +
                                                  " (default, not in config: off)");
    }
    sw.ports.push_back(std::move(p));
  }
  return sw;
}

}  // namespace rk::switchcfg

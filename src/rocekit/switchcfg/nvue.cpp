// Cumulus Linux NVUE: `nv show qos roce`, `nv show interface <if> qos roce status` (text) and
// `nv config show -o json` (the "set" tree). Semantics: CumulusNetworks/docs
// cumulus-linux-514/.../RDMA-over-Converged-Ethernet-RoCE.md (switch.md §2.1): DSCP -> switch
// priority (our traffic class), switch priority -> traffic class (our queue), PFC per switch
// priority, ECN per traffic class.
#include <cmath>

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

/// "146.48 KB" -> 149995, "1.43 MB", "150000", "150000 B". Binary units as NVUE prints them.
std::optional<std::uint64_t> nvue_bytes(std::string_view s) {
  std::vector<std::string_view> w = text::words(s);
  if (w.empty() || w.size() > 2) return std::nullopt;
  std::optional<double> v = text::parse_double(w[0]);
  if (!v || !(*v >= 0 && *v <= 1e12)) return std::nullopt;  // also rejects NaN and infinities
  double mult = 1;
  if (w.size() == 2) {
    std::string u = text::to_lower(w[1]);
    if (u == "kb") mult = 1024;
    else if (u == "mb") mult = 1024.0 * 1024;
    else if (u == "b" || u == "bytes") mult = 1;
    else return std::nullopt;
  }
  return static_cast<std::uint64_t>(std::llround(*v * mult));
}

/// Splits a row on runs of two or more spaces.
std::vector<std::string> columns(std::string_view l) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < l.size()) {
    while (i < l.size() && l[i] == ' ') ++i;
    std::size_t start = i;
    while (i < l.size() && !(l[i] == ' ' && i + 1 < l.size() && l[i + 1] == ' ') && l[i] != '\t') ++i;
    if (i > start) out.emplace_back(text::trim(l.substr(start, i - start)));
    if (i < l.size() && l[i] == '\t') ++i;
  }
  return out;
}

Scheduling scheduling_of(std::string s) {
  s = text::to_lower(s);
  Scheduling sc;
  if (text::starts_with(s, "strict")) {
    sc.type = "strict";
  } else if (text::starts_with(s, "dwrr") || text::starts_with(s, "wrr")) {
    sc.type = "dwrr";
    std::size_t dash = s.find('-');
    if (dash != std::string::npos) {
      std::string pct = s.substr(dash + 1);
      if (!pct.empty() && pct.back() == '%') pct.pop_back();
      sc.weight = detail::parse_small_int(pct, 0, 100);
    }
  } else {
    sc.type = s;
  }
  return sc;
}

}  // namespace

Result<SwitchQos> parse_nvue_show_roce(std::string_view input, const std::string& file) {
  SwitchQos sw;
  sw.file = file;
  sw.dialect = Dialect::nvue_show_roce;
  PortQos p;
  p.name = "*";
  detail::KeyValues kv;
  std::vector<std::string_view> ls = text::lines(input);
  enum class Table { none, dscp_sp, sp_tc, pool, other } table = Table::none;
  std::vector<std::string> pool_header;
  std::map<int, int> dscp_sp, sp_tc;
  std::map<int, std::pair<Scheduling, std::size_t>> tc_sched;
  std::size_t dscp_line = 0, sp_line = 0;
  bool any = false;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::size_t ln = i + 1;
    std::string_view raw = ls[i];
    std::string_view l = text::trim(raw);
    if (l.empty() || l.front() == '#') continue;
    if (text::contains(l, "nv show")) {
      std::vector<std::string_view> w = text::words(l.substr(l.find("nv show")));
      if (w.size() >= 4 && w[2] == "interface") p.name = std::string(w[3]);
      // The prompt "cumulus@<hostname>:mgmt:~$" names the switch.
      std::size_t at = l.find('@'), colon = l.find(':');
      if (at != std::string_view::npos && colon != std::string_view::npos && at < colon)
        sw.name = std::string(l.substr(at + 1, colon - at - 1));
      continue;
    }
    if (text::starts_with(l, "RoCE PCP/DSCP->SP mapping")) { table = Table::dscp_sp; dscp_line = ln; any = true; continue; }
    if (text::starts_with(l, "RoCE SP->TC mapping")) { table = Table::sp_tc; sp_line = ln; any = true; continue; }
    if (text::starts_with(l, "RoCE pool") || text::starts_with(l, "RoCE Pool")) { table = Table::pool; pool_header.clear(); continue; }
    if (text::starts_with(l, "Exception List")) { table = Table::other; continue; }
    if (l.find_first_not_of("=") == std::string_view::npos || l.find_first_not_of("- ") == std::string_view::npos) continue;
    std::vector<std::string_view> w = text::words(l);
    if (table == Table::none) {
      std::vector<std::string> cols = columns(raw);
      if (cols.empty()) continue;
      if (cols[0] == "operational" || cols[0] == "applied") continue;
      if (cols.size() >= 2) {
        kv.set(cols[0], detail::KeyValue{cols[1], ln, std::string(l)});
        any = true;
      }
      continue;
    }
    if (table == Table::other) continue;
    if (w[0] == "pcp" || w[0] == "switch-prio" || w[0] == "name") {  // column header
      if (table == Table::pool) pool_header.assign(w.begin(), w.end());
      continue;
    }
    if (table == Table::dscp_sp) {
      if (w.size() < 4) return detail::malformed(file, ln, "DSCP->SP row needs <id> <pcp> <dscp list> <switch-prio>");
      std::optional<std::vector<int>> dscps = detail::parse_int_list(w[2], 0, 63);
      std::optional<int> sp = detail::parse_small_int(w[3], 0, 7);
      if (!dscps || !sp) return detail::malformed(file, ln, "DSCP->SP row: bad DSCP list or switch priority");
      for (int d : *dscps) dscp_sp[d] = *sp;
    } else if (table == Table::sp_tc) {
      if (w.size() < 4) return detail::malformed(file, ln, "SP->TC row needs <id> <switch-prio> <traffic-class> <scheduler>");
      std::optional<int> sp = detail::parse_small_int(w[1], 0, 7);
      std::optional<int> tc = detail::parse_small_int(w[2], 0, 7);
      if (!sp || !tc) return detail::malformed(file, ln, "SP->TC row: bad switch priority or traffic class");
      sp_tc[*sp] = *tc;
      std::string sched;
      for (std::size_t k = 3; k < w.size(); ++k) sched += (k > 3 ? "-" : "") + std::string(w[k]);
      tc_sched[*tc] = {scheduling_of(sched), ln};
    } else if (table == Table::pool && !pool_header.empty()) {
      // Rows carry a leading index/label column the header lacks.
      auto col = [&](const std::string& name) -> std::string {
        for (std::size_t k = 0; k < pool_header.size(); ++k)
          if (pool_header[k] == name && k + 1 < w.size()) return std::string(w[k + 1]);
        return {};
      };
      std::string name = col("name");
      std::optional<std::vector<int>> sps = detail::parse_int_list(col("switch-priorities"), 0, 7);
      if (text::contains(name, "ingress") && sps) {
        for (int sp : *sps) {
          BufferPg b;
          b.first_pg = b.last_pg = sp;
          b.profile = name;
          b.source = Evidence{file, ln, std::string(l)};
          b.basis = "ingress pool " + name;
          p.buffer_pgs.push_back(b);
        }
      }
    }
  }
  if (!any) return unexpected(ErrorKind::unsupported, "no `nv show qos roce` fields found", file);
  auto ev = [&](const std::string& key) { return kv.ev(file, key); };
  auto get = [&](const std::string& key) { return kv.get(key); };
  std::string mode = text::to_lower(get("mode").value_or(""));
  if (std::optional<std::string> t = get("trust-mode"))
    p.trust = Fact<std::string>::of(*t, ev("trust-mode"));
  else
    p.trust = Fact<std::string>::missing("trust-mode not shown");
  Evidence dscp_ev{file, dscp_line, "RoCE PCP/DSCP->SP mapping"};
  Evidence sp_ev{file, sp_line, "RoCE SP->TC mapping"};
  if (!dscp_sp.empty()) p.dscp_to_tc = Fact<std::map<int, int>>::of(dscp_sp, dscp_ev);
  else p.dscp_to_tc = Fact<std::map<int, int>>::missing("no PCP/DSCP->SP mapping table in the output");
  if (!sp_tc.empty()) {
    p.tc_to_queue = Fact<std::map<int, int>>::of(sp_tc, sp_ev);
    // A PFC frame for switch priority N pauses the traffic class N maps to.
    Evidence e = sp_ev;
    e.text += " (PFC on a switch priority pauses its traffic class)";
    p.pfc_priority_to_queue = Fact<std::map<int, int>>::of(sp_tc, e);
  } else {
    p.tc_to_queue = Fact<std::map<int, int>>::missing("no SP->TC mapping table in the output");
    p.pfc_priority_to_queue = Fact<std::map<int, int>>::missing("no SP->TC mapping table in the output");
  }
  std::map<int, int> ident;
  for (int sp = 0; sp < 8; ++sp) ident[sp] = sp;
  p.tc_to_pg = Fact<std::map<int, int>>::of(ident, Evidence{file, 0, "NVUE assigns ingress buffers per switch priority"});
  // PFC.
  std::optional<std::string> pfc = get("pfc-priority");
  if (text::starts_with(mode, "lossy")) {
    p.pfc_enabled = Fact<std::vector<int>>::of({}, ev("mode"));
  } else if (pfc) {
    std::optional<std::vector<int>> list = detail::parse_int_list(*pfc, 0, 7);
    if (!list) return detail::malformed(file, kv.line("pfc-priority"), "pfc-priority is not a priority list 0-7");
    p.pfc_enabled = Fact<std::vector<int>>::of(*list, ev("pfc-priority"));
  } else {
    p.pfc_enabled = Fact<std::vector<int>>::missing("pfc-priority not shown");
  }
  // Buffers: PFC priorities get RoCE lossless headroom in the lossless modes.
  if (p.pfc_enabled.has_value()) {
    for (BufferPg& b : p.buffer_pgs) {
      bool pfc_sp = false;
      for (int sp : *p.pfc_enabled) pfc_sp = pfc_sp || sp == b.first_pg;
      b.lossless = text::starts_with(mode, "lossless") && pfc_sp;
      b.basis += ", mode " + mode + (pfc_sp ? ", PFC switch priority" : ", no PFC");
    }
    if (p.buffer_pgs.empty() && text::starts_with(mode, "lossless")) {
      for (int sp : *p.pfc_enabled) {
        BufferPg b;
        b.first_pg = b.last_pg = sp;
        b.profile = "roce-lossless";
        b.lossless = true;
        b.basis = "mode " + mode + ": switch priority " + std::to_string(sp) + " in the RoCE lossless pool";
        b.source = ev("mode");
        p.buffer_pgs.push_back(b);
      }
    }
  }
  if (p.buffer_pgs.empty()) p.buffer_reason = "no RoCE pool table and no lossless mode shown";
  // Queues: scheduling from the SP->TC table, ECN from congestion-control.
  std::optional<std::vector<int>> ecn_tcs;
  if (std::optional<std::string> e = get("enabled-tc")) ecn_tcs = detail::parse_int_list(*e, 0, 7);
  std::string cmode = get("congestion-mode").value_or("");
  for (const auto& [tc, sched] : tc_sched) {
    QueueConfig& q = p.queues[tc];
    q.queue = tc;
    q.scheduling = Fact<Scheduling>::of(sched.first, Evidence{file, sched.second, std::string(text::trim(ls[sched.second - 1]))});
  }
  if (ecn_tcs) {
    for (int tc : *ecn_tcs) p.queues[tc].queue = tc;
  }
  for (auto& [tc, q] : p.queues) {
    if (!q.scheduling.has_value()) q.scheduling = Fact<Scheduling>::missing("traffic class not in the SP->TC table");
    if (!ecn_tcs) {
      q.ecn = Fact<EcnConfig>::missing("congestion-control enabled-tc not shown");
      continue;
    }
    EcnConfig e;
    bool on = false;
    for (int t : *ecn_tcs) on = on || t == tc;
    e.ecn_marking = on && text::contains(text::to_lower(cmode), "ecn");
    e.mode = on ? cmode : std::string("none");
    if (on) {
      if (std::optional<std::string> v = get("min-threshold")) e.min_threshold_bytes = nvue_bytes(*v);
      if (std::optional<std::string> v = get("max-threshold")) e.max_threshold_bytes = nvue_bytes(*v);
      if (std::optional<std::string> v = get("probability")) e.mark_probability_percent = detail::parse_small_int(*v, 0, 100);
    }
    q.ecn = Fact<EcnConfig>::of(e, ev("enabled-tc"));
  }
  p.mtu_bytes = Fact<int>::missing("not shown by `nv show qos roce` (default, not in config: NVUE link mtu 9216)");
  p.pfc_watchdog = Fact<PfcWatchdog>::missing("not shown by `nv show qos roce`");
  if (!mode.empty()) sw.notes.push_back("RoCE mode " + mode);
  sw.ports.push_back(std::move(p));
  return sw;
}

}  // namespace rk::switchcfg

namespace rk::switchcfg {
namespace {

using nlohmann::json;

/// A value at a path of keys in the "set" tree, or nullptr.
const json* at(const json& root, std::initializer_list<const char*> keys) {
  const json* j = &root;
  for (const char* k : keys) {
    if (!j->is_object()) return nullptr;
    auto it = j->find(k);
    if (it == j->end()) return nullptr;
    j = &*it;
  }
  return j;
}

std::optional<long long> as_int(const json& j) {
  if (j.is_number_integer()) return j.get<long long>();
  if (j.is_string()) {
    std::optional<std::int64_t> v = text::parse_int(j.get<std::string>());
    if (v) return *v;
  }
  return std::nullopt;
}

std::string as_text(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer()) return std::to_string(j.get<long long>());
  return {};
}

struct NvueJson {
  detail::JsonLineIndex index;
  std::string file;
  std::vector<std::string> prefix;  ///< JSON keys from the document root to the "set" tree
  const detail::NvueCommandLines* commands = nullptr;  ///< set: the input was `nv set` commands

  Evidence ev(const std::vector<std::string>& keys, const std::string& value = {}) const {
    if (commands) return commands->ev(file, keys, value);
    std::vector<std::string> full = prefix;
    full.insert(full.end(), keys.begin(), keys.end());
    std::string pointer;
    for (const std::string& k : keys) pointer += "/" + k;
    return Evidence{file, index.line(full),
                    "set" + pointer + (value.empty() ? "" : " = " + value)};
  }
};

Result<SwitchQos> nvue_from_set(const json& set, const NvueJson& ctx, const std::string& file, Dialect dialect);

}  // namespace

Result<SwitchQos> parse_nvue_config_json(std::string_view input, const std::string& file) {
  // Leading "#" lines (a provenance header) are blanked so JSON offsets and lines stay true.
  std::string text(input);
  for (std::size_t pos = 0; pos < text.size() && text[pos] == '#';) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    for (std::size_t i = pos; i < nl; ++i) text[i] = ' ';
    pos = nl + 1;
  }
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    std::size_t byte = std::min<std::size_t>(e.byte, text.size());
    std::size_t line = static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte ? byte - 1 : 0), '\n')) + 1;
    return detail::malformed(file, line, "not valid JSON");
  }
  NvueJson ctx{detail::JsonLineIndex(text), file, {}, nullptr};
  const json* set = nullptr;
  if (doc.is_array()) {
    for (const json& d : doc)
      if (d.is_object() && d.contains("set") && d["set"].is_object()) set = &d["set"];
    ctx.prefix = {"set"};
  } else if (doc.is_object()) {
    if (doc.contains("set") && doc["set"].is_object()) {
      set = &doc["set"];
      ctx.prefix = {"set"};
    } else {
      set = &doc;  // the NVUE REST API tree (GET /nvue_v1/?rev=applied)
    }
  }
  if (!set) return detail::malformed(file, 1, "no NVUE \"set\" document (expected `nv config show -o json` output)");
  return nvue_from_set(*set, ctx, file, Dialect::nvue_config_json);
}

Result<SwitchQos> parse_nvue_commands(std::string_view input, const std::string& file) {
  Result<detail::NvueCommandTree> t = detail::nvue_commands_to_set(input, file);
  if (!t) return unexpected(t.error());
  NvueJson ctx{detail::JsonLineIndex(""), file, {}, &t->lines};
  return nvue_from_set(t->set, ctx, file, Dialect::nvue_commands);
}

namespace {

Result<SwitchQos> nvue_from_set(const json& set_doc, const NvueJson& ctx, const std::string& file, Dialect dialect) {
  const json* set = &set_doc;
  SwitchQos sw;
  sw.file = file;
  sw.dialect = dialect;
  if (const json* h = at(*set, {"system", "hostname"}); h && h->is_string()) sw.name = h->get<std::string>();
  PortQos g;
  g.name = "*";
  // RoCE profile (Cumulus RoCE doc table, switch.md §2.1).
  std::string roce_mode;
  bool roce = false;
  if (const json* r = at(*set, {"qos", "roce"}); r && r->is_object()) {
    std::string enable = r->contains("enable") ? as_text((*r)["enable"]) : "on";
    roce = enable != "off";
    roce_mode = r->contains("mode") ? as_text((*r)["mode"]) : "lossless";
  }
  Evidence roce_ev = ctx.ev({"qos", "roce"}, roce ? "RoCE profile, mode " + roce_mode : "");
  std::map<int, int> dscp_sp, sp_tc;
  std::map<int, Evidence> sp_tc_ev;
  std::optional<std::string> trust;
  Evidence trust_ev, dscp_ev, sp_ev, pfc_ev;
  std::optional<std::vector<int>> pfc;
  std::map<int, Scheduling> sched;
  std::map<int, Evidence> sched_ev;
  std::map<int, EcnConfig> ecn;
  std::map<int, Evidence> ecn_ev;
  if (roce) {
    for (int d = 0; d < 64; ++d) dscp_sp[d] = d >> 3;
    for (int sp = 0; sp < 8; ++sp) sp_tc[sp] = sp == 3 ? 3 : sp == 6 ? 6 : 0;
    dscp_ev = sp_ev = roce_ev;
    trust = "pcp,dscp";
    trust_ev = roce_ev;
    const bool lossless = text::starts_with(roce_mode, "lossless");
    pfc = lossless ? std::vector<int>{3} : std::vector<int>{};
    pfc_ev = roce_ev;
    sched[0] = Scheduling{"dwrr", 50};
    sched[3] = Scheduling{"dwrr", 50};
    sched[6] = Scheduling{"strict", std::nullopt};
    sched_ev[0] = sched_ev[3] = sched_ev[6] = roce_ev;
    EcnConfig e;
    e.ecn_marking = true;
    e.mode = "ECN";
    e.min_threshold_bytes = 150000;
    e.max_threshold_bytes = 1500000;
    e.mark_probability_percent = 100;
    ecn[3] = e;
    ecn_ev[3] = roce_ev;
    sw.notes.push_back("NVUE RoCE profile (mode " + roce_mode + "): DSCP>>3 -> switch priority, SP3->TC3 "
                       "DWRR 50%, SP6->TC6 strict, ECN 150000-1500000 B on TC3" +
                       std::string(lossless ? ", PFC on SP3" : ", no PFC") +
                       " (CumulusNetworks/docs RDMA-over-Converged-Ethernet-RoCE.md)");
  }
  // Explicit settings override the profile.
  if (const json* m = at(*set, {"qos", "mapping", "default-global"}); m && m->is_object()) {
    if (m->contains("trust")) {
      std::string t = as_text((*m)["trust"]);
      trust = t == "l3" ? "dscp" : t == "l2" ? "pcp" : t == "both" ? "pcp,dscp" : t;
      trust_ev = ctx.ev({"qos", "mapping", "default-global", "trust"}, t);
    }
    if (const json* dj = at(*m, {"dscp"}); dj && dj->is_object()) {
      for (auto it = dj->begin(); it != dj->end(); ++it) {
        std::optional<std::vector<int>> ds = detail::parse_int_list(it.key(), 0, 63);
        const json* sp = at(*it, {"switch-priority"});
        std::optional<long long> v = sp ? as_int(*sp) : std::nullopt;
        Evidence e = ctx.ev({"qos", "mapping", "default-global", "dscp", it.key(), "switch-priority"});
        if (!ds || !v || *v < 0 || *v > 7)
          return detail::malformed(file, e.line, "qos mapping dscp " + it.key() + ": needs DSCP 0-63 and switch-priority 0-7");
        for (int d : *ds) dscp_sp[d] = static_cast<int>(*v);
        dscp_ev = ctx.ev({"qos", "mapping", "default-global", "dscp"});
      }
    }
  }
  if (const json* q = at(*set, {"qos", "egress-queue-mapping", "default-global", "switch-priority"}); q && q->is_object()) {
    for (auto it = q->begin(); it != q->end(); ++it) {
      std::optional<int> sp = detail::parse_small_int(it.key(), 0, 7);
      const json* tc = at(*it, {"traffic-class"});
      std::optional<long long> v = tc ? as_int(*tc) : std::nullopt;
      Evidence e = ctx.ev({"qos", "egress-queue-mapping", "default-global", "switch-priority", it.key(), "traffic-class"});
      if (!sp || !v || *v < 0 || *v > 7)
        return detail::malformed(file, e.line, "egress-queue-mapping switch-priority " + it.key() + ": needs traffic-class 0-7");
      sp_tc[*sp] = static_cast<int>(*v);
      sp_ev = ctx.ev({"qos", "egress-queue-mapping", "default-global", "switch-priority"});
    }
  }
  if (const json* p = at(*set, {"qos", "pfc"}); p && p->is_object()) {
    if (const json* dg = at(*p, {"default-global", "switch-priority"}); dg && dg->is_object()) {
      std::vector<int> list;
      for (auto it = dg->begin(); it != dg->end(); ++it) {
        std::optional<std::vector<int>> v = detail::parse_int_list(it.key(), 0, 7);
        if (!v) return detail::malformed(file, ctx.ev({"qos", "pfc", "default-global", "switch-priority"}).line, "pfc switch-priority is not 0-7");
        list.insert(list.end(), v->begin(), v->end());
      }
      std::sort(list.begin(), list.end());
      pfc = list;
      pfc_ev = ctx.ev({"qos", "pfc", "default-global", "switch-priority"});
    } else if (!roce) {
      pfc = std::vector<int>{};
      pfc_ev = ctx.ev({"qos", "pfc"}, "no PFC profile");
    }
  }
  if (const json* s = at(*set, {"qos", "egress-scheduler", "default-global", "traffic-class"}); s && s->is_object()) {
    for (auto it = s->begin(); it != s->end(); ++it) {
      std::optional<std::vector<int>> tcs = detail::parse_int_list(it.key(), 0, 7);
      if (!tcs) continue;
      Scheduling sc;
      std::string mode = it->contains("mode") ? text::to_lower(as_text((*it)["mode"])) : "dwrr";
      sc.type = mode == "strict" ? "strict" : "dwrr";
      if (it->contains("bw-percent")) {
        std::optional<long long> w = as_int((*it)["bw-percent"]);
        if (w && *w >= 0 && *w <= 100) sc.weight = static_cast<int>(*w);
      }
      for (int tc : *tcs) {
        sched[tc] = sc;
        sched_ev[tc] = ctx.ev({"qos", "egress-scheduler", "default-global", "traffic-class", it.key(), "mode"}, mode);
      }
    }
  }
  if (const json* c = at(*set, {"qos", "congestion-control", "default-global", "traffic-class"}); c && c->is_object()) {
    for (auto it = c->begin(); it != c->end(); ++it) {
      std::optional<std::vector<int>> tcs = detail::parse_int_list(it.key(), 0, 7);
      if (!tcs) continue;
      EcnConfig e;
      std::string on = it->contains("ecn") ? as_text((*it)["ecn"]) : "enable";
      e.ecn_marking = on == "enable" || on == "on";
      e.mode = on;
      if (it->contains("red")) e.wred_drop = as_text((*it)["red"]) == "enable";
      if (it->contains("min-threshold")) if (std::optional<long long> v = as_int((*it)["min-threshold"]); v && *v >= 0) e.min_threshold_bytes = static_cast<std::uint64_t>(*v);
      if (it->contains("max-threshold")) if (std::optional<long long> v = as_int((*it)["max-threshold"]); v && *v >= 0) e.max_threshold_bytes = static_cast<std::uint64_t>(*v);
      if (it->contains("probability")) if (std::optional<long long> v = as_int((*it)["probability"]); v && *v >= 0 && *v <= 100) e.mark_probability_percent = static_cast<int>(*v);
      for (int tc : *tcs) {
        ecn[tc] = e;
        ecn_ev[tc] = ctx.ev({"qos", "congestion-control", "default-global", "traffic-class", it.key(), "ecn"}, on);
      }
    }
  }
  // Assemble the system-wide entry.
  if (trust) g.trust = Fact<std::string>::of(*trust, trust_ev);
  else g.trust = Fact<std::string>::missing("qos mapping trust not set (default, not in config: NVUE trust l2 = PCP)");
  if (!dscp_sp.empty()) g.dscp_to_tc = Fact<std::map<int, int>>::of(dscp_sp, dscp_ev);
  else g.dscp_to_tc = Fact<std::map<int, int>>::missing("no qos mapping dscp and no RoCE profile: DSCP is not classified");
  if (!sp_tc.empty()) {
    g.tc_to_queue = Fact<std::map<int, int>>::of(sp_tc, sp_ev);
    g.pfc_priority_to_queue = Fact<std::map<int, int>>::of(sp_tc, sp_ev);
  } else {
    g.tc_to_queue = Fact<std::map<int, int>>::missing("no egress-queue-mapping (default, not in config: NVUE switch-priority N -> traffic-class N)");
    g.pfc_priority_to_queue = g.tc_to_queue;
  }
  std::map<int, int> ident;
  for (int sp = 0; sp < 8; ++sp) ident[sp] = sp;
  g.tc_to_pg = Fact<std::map<int, int>>::of(ident, Evidence{file, 0, "NVUE assigns ingress buffers per switch priority"});
  if (pfc) g.pfc_enabled = Fact<std::vector<int>>::of(*pfc, pfc_ev);
  else g.pfc_enabled = Fact<std::vector<int>>::missing("no qos pfc and no RoCE profile in the config (default, not in config: PFC off)");
  if (pfc && roce && text::starts_with(roce_mode, "lossless")) {
    for (int sp : *pfc) {
      BufferPg b;
      b.first_pg = b.last_pg = sp;
      b.profile = "roce-lossless";
      b.lossless = true;
      b.basis = "RoCE mode " + roce_mode + ": switch priority " + std::to_string(sp) + " in the lossless pool";
      b.source = roce_ev;
      g.buffer_pgs.push_back(b);
    }
  }
  if (g.buffer_pgs.empty()) g.buffer_reason = roce ? "RoCE mode " + roce_mode + " has no lossless pool" : "no RoCE profile: no lossless pool in the config";
  for (const auto& [tc, s] : sched) {
    g.queues[tc].queue = tc;
    g.queues[tc].scheduling = Fact<Scheduling>::of(s, sched_ev[tc]);
  }
  for (const auto& [tc, e] : ecn) {
    g.queues[tc].queue = tc;
    g.queues[tc].ecn = Fact<EcnConfig>::of(e, ecn_ev[tc]);
  }
  for (auto& [tc, q] : g.queues) {
    if (!q.scheduling.has_value() && q.scheduling.reason.empty()) q.scheduling = Fact<Scheduling>::missing("no egress-scheduler entry for this traffic class");
    if (!q.ecn.has_value() && q.ecn.reason.empty()) {
      EcnConfig none;
      none.mode = "none";
      q.ecn = Fact<EcnConfig>::of(none, ctx.ev({"qos", "congestion-control"}, "traffic class " + std::to_string(tc) + " not listed"));
    }
  }
  g.pfc_watchdog = Fact<PfcWatchdog>::missing("PFC watchdog not in the NVUE config");
  // Ports: swp interfaces; MTU per port.
  if (const json* ifs = at(*set, {"interface"}); ifs && ifs->is_object()) {
    for (auto it = ifs->begin(); it != ifs->end(); ++it) {
      const std::string& name = it.key();
      std::string type = it->is_object() && it->contains("type") ? as_text((*it)["type"]) : "";
      if (!(text::starts_with(name, "swp") || type == "swp")) continue;
      PortQos p = g;
      p.name = name;
      const json* m = at(*it, {"link", "mtu"});
      std::optional<long long> mtu = m ? as_int(*m) : std::nullopt;
      if (m && (!mtu || *mtu < 68 || *mtu > 65535))
        return detail::malformed(file, ctx.ev({"interface", name, "link", "mtu"}).line,
                                 "interface " + name + " link mtu is not a number 68-65535");
      if (mtu)
        p.mtu_bytes = Fact<int>::of(static_cast<int>(*mtu), ctx.ev({"interface", name, "link", "mtu"}, as_text(*m)));
      else
        p.mtu_bytes = Fact<int>::missing("interface " + name + " link mtu not set (default, not in config: NVUE 9216)");
      sw.ports.push_back(std::move(p));
    }
  }
  if (sw.ports.empty()) {
    g.mtu_bytes = Fact<int>::missing("no swp interface in the config (default, not in config: NVUE link mtu 9216)");
    sw.ports.push_back(std::move(g));
  }
  return sw;
}

}  // namespace

}  // namespace rk::switchcfg

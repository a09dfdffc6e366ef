// NVIDIA Onyx `show roce` (the Spectrum switches that still run Onyx/MLNX-OS). Layout from the
// Onyx User Manual "RoCE Commands" example and a real Onyx 3.10.4006 SN2700 output
// (testdata/switch/onyx-*.txt): "key : value" lines (padded or not, "Min (KB): 150" or "Min :
// 150"), then the "RoCE used TCs" table (Switch-Priority, TC, Application, ETS: "WRR 50%" /
// "Strict") and the "RoCE buffer pools" table (pool, type lossy|lossless, memory, switch
// priorities continued on the next line, ...). The output is system-wide: one port "*".
//
// Not shown by `show roce`, so absent with the command that shows it: the DSCP-to-switch-priority
// map (`show qos interface ethernet <port>`), the MTU and the PFC watchdog.
#include <map>
#include <optional>
#include <string>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

/// "Min (KB)" -> "min", "switch-priority 3" kept, "RoCE mode" -> "roce mode".
std::string key_of(std::string_view k) {
  std::string s = text::to_lower(text::trim(k));
  if (std::size_t paren = s.find(" ("); paren != std::string::npos) s.erase(paren);
  return s;
}

}  // namespace

Result<SwitchQos> parse_onyx_show_roce(std::string_view input, const std::string& file) {
  SwitchQos sw;
  sw.file = file;
  sw.dialect = Dialect::onyx_show_roce;
  PortQos p;
  p.name = "*";
  detail::KeyValues kv;
  enum class Table { none, tcs, pools, other } table = Table::none;
  struct TcRow {
    int sp = 0, tc = 0;
    std::string app, ets;
    std::size_t line = 0;
    std::string raw;
  };
  std::vector<TcRow> tcs;
  std::vector<int> pfc_sps;
  std::size_t pfc_sp_line = 0;
  bool any = false;
  const std::vector<std::string_view> ls = text::lines(input);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::size_t ln = i + 1;
    const std::string_view l = text::trim(ls[i]);
    if (l.empty() || l.front() == '#') continue;
    if (text::contains(l, "show roce")) continue;  // the pasted prompt "switch (config) # show roce"
    if (l.find_first_not_of("- ") == std::string_view::npos) continue;
    if (text::starts_with(l, "RoCE used TCs")) { table = Table::tcs; any = true; continue; }
    if (text::starts_with(l, "RoCE buffer pools")) { table = Table::pools; continue; }
    if (text::starts_with(l, "Exception list")) { table = Table::other; continue; }
    const std::vector<std::string_view> w = text::words(l);
    if (table == Table::tcs) {
      if (w[0] == "Switch-Priority") continue;
      std::optional<int> sp = detail::parse_small_int(w[0], 0, 7);
      std::optional<int> tc = w.size() > 1 ? detail::parse_small_int(w[1], 0, 7) : std::nullopt;
      if (!sp || !tc || w.size() < 4)
        return detail::malformed(file, ln, "RoCE used TCs row needs <switch-priority> <TC> <application> <ETS>");
      std::string ets;
      for (std::size_t k = 3; k < w.size(); ++k) ets += (k > 3 ? " " : "") + std::string(w[k]);
      tcs.push_back({*sp, *tc, std::string(w[2]), ets, ln, std::string(l)});
      continue;
    }
    if (table == Table::pools) {
      // "roce-reserved  lossless  auto  3  3.6M ..." ; a lossy pool's switch priorities may
      // continue on the next line ("5, 6, 7"), which carries no type word.
      if (w.size() >= 4 && (w[1] == "lossless" || w[1] == "lossy")) {
        const bool lossless = w[1] == "lossless";
        std::string sps;
        for (std::size_t k = 3; k < w.size() && (text::ends_with(w[k], ",") || k == 3); ++k) sps += std::string(w[k]);
        std::optional<std::vector<int>> list = detail::parse_int_list(sps, 0, 7);
        if (lossless && list)
          for (int sp : *list) {
            BufferPg b;
            b.first_pg = b.last_pg = sp;
            b.profile = std::string(w[0]);
            b.lossless = true;
            b.basis = "buffer pool " + b.profile + " (lossless)";
            b.source = Evidence{file, ln, std::string(l)};
            p.buffer_pgs.push_back(b);
          }
      }
      continue;
    }
    if (table == Table::other) continue;
    const std::size_t colon = l.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string key = key_of(l.substr(0, colon));
    const std::string value(text::trim(l.substr(colon + 1)));
    if (text::starts_with(key, "switch-priority ")) {
      std::optional<int> sp = detail::parse_small_int(text::trim(std::string_view(key).substr(16)), 0, 7);
      if (!sp) return detail::malformed(file, ln, "switch-priority line needs a priority 0-7");
      if (text::to_lower(value) == "enabled") pfc_sps.push_back(*sp);
      if (!pfc_sp_line) pfc_sp_line = ln;
      any = true;
      continue;
    }
    kv.add(key, detail::KeyValue{value, ln, std::string(l)});
    if (key == "roce mode" || key == "port trust mode") any = true;
  }
  if (!any) return unexpected(ErrorKind::unsupported, "no Onyx `show roce` fields found", file);
  auto ev = [&](const std::string& key) { return kv.ev(file, key); };
  auto get = [&](const std::string& key) { return kv.get(key); };
  const std::string mode = text::to_lower(get("roce mode").value_or(""));
  // Trust: Onyx `qos trust L2 | L3 | both` (ansible mellanox.onyx onyx_qos: "interface {0} {1}
  // qos trust {2}").
  if (std::optional<std::string> t = get("port trust mode")) {
    std::string v = text::to_lower(*t);
    std::string trust = v == "l3" ? "dscp" : v == "l2" ? "pcp" : v == "both" ? "pcp,dscp" : v;
    p.trust = Fact<std::string>::of(trust, ev("port trust mode"));
  } else {
    p.trust = Fact<std::string>::missing("Port trust mode not shown");
  }
  p.dscp_to_tc = Fact<std::map<int, int>>::missing(
      "not shown by `show roce`: the DSCP-to-switch-priority map is in `show qos interface ethernet <port>`");
  // Switch priority -> traffic class from the RoCE used TCs table; a PFC frame for a switch
  // priority pauses the traffic class it maps to.
  std::map<int, int> sp_tc;
  for (const TcRow& r : tcs) sp_tc[r.sp] = r.tc;
  if (!sp_tc.empty()) {
    Evidence e{file, tcs.front().line, tcs.front().raw};
    p.tc_to_queue = Fact<std::map<int, int>>::of(sp_tc, e);
    p.pfc_priority_to_queue = Fact<std::map<int, int>>::of(sp_tc, e);  // PFC on a switch priority pauses its TC
  } else {
    p.tc_to_queue = Fact<std::map<int, int>>::missing("no RoCE used TCs table in the output");
    p.pfc_priority_to_queue = Fact<std::map<int, int>>::missing("no RoCE used TCs table in the output");
  }
  std::map<int, int> ident;
  for (int sp = 0; sp < 8; ++sp) ident[sp] = sp;
  p.tc_to_pg = Fact<std::map<int, int>>::of(ident, Evidence{file, 0, "Onyx buffer pools map switch priorities"});
  // PFC: "PFC : enabled" and one "switch-priority N: enabled" line per PFC priority.
  const std::string pfc = text::to_lower(get("pfc").value_or(""));
  if (text::starts_with(mode, "lossy") || pfc == "disabled") {
    p.pfc_enabled = Fact<std::vector<int>>::of({}, pfc == "disabled" ? ev("pfc") : ev("roce mode"));
  } else if (pfc_sp_line) {
    p.pfc_enabled = Fact<std::vector<int>>::of(pfc_sps, Evidence{file, pfc_sp_line, std::string(text::trim(ls[pfc_sp_line - 1]))});
  } else {
    p.pfc_enabled = Fact<std::vector<int>>::missing("no switch-priority PFC lines shown");
  }
  if (p.buffer_pgs.empty()) p.buffer_reason = "no lossless RoCE buffer pool shown";
  // Queues: ETS from the TC table; ECN ("Port congestion-control") on the RoCE traffic class.
  const std::string cc = text::to_lower(get("mode").value_or(""));
  for (const TcRow& r : tcs) {
    QueueConfig& q = p.queues[r.tc];
    q.queue = r.tc;
    Scheduling s;
    const std::string e = text::to_lower(r.ets);
    if (text::starts_with(e, "strict")) {
      s.type = "strict";
    } else if (text::starts_with(e, "wrr") || text::starts_with(e, "dwrr")) {
      s.type = "dwrr";
      std::vector<std::string_view> ew = text::words(e);
      if (ew.size() >= 2) {
        std::string pct(ew[1]);
        if (!pct.empty() && pct.back() == '%') pct.pop_back();
        s.weight = detail::parse_small_int(pct, 0, 100);
      }
    } else {
      s.type = e;
    }
    q.scheduling = Fact<Scheduling>::of(s, Evidence{file, r.line, r.raw});
    EcnConfig ecn;
    const bool roce = text::to_lower(r.app) == "roce";
    ecn.ecn_marking = roce && text::starts_with(cc, "ecn");
    ecn.mode = ecn.ecn_marking ? cc : std::string("none");
    if (ecn.ecn_marking) {
      // "Min (KB): 150" (Onyx thresholds in KB, `minimum-absolute` in the interface command).
      if (auto v = get("min")) if (auto n = detail::parse_small_int(*v, 0, 1 << 24)) ecn.min_threshold_bytes = static_cast<std::uint64_t>(*n) * 1024;
      if (auto v = get("max")) if (auto n = detail::parse_small_int(*v, 0, 1 << 24)) ecn.max_threshold_bytes = static_cast<std::uint64_t>(*n) * 1024;
    }
    q.ecn = roce && cc.empty() ? Fact<EcnConfig>::missing("Port congestion-control not shown")
                               : Fact<EcnConfig>::of(ecn, roce ? ev("mode") : Evidence{file, r.line, r.raw});
  }
  p.mtu_bytes = Fact<int>::missing("not shown by `show roce` (see `show interfaces ethernet <port>`)");
  p.pfc_watchdog = Fact<PfcWatchdog>::missing("not shown by `show roce`");
  if (!mode.empty()) sw.notes.push_back("RoCE mode " + mode);
  if (auto prio = get("priority"))
    sw.notes.push_back("LLDP application TLV: " + get("selector").value_or("?") + " " + get("protocol").value_or("?") +
                       " -> priority " + *prio);
  sw.ports.push_back(std::move(p));
  return sw;
}

}  // namespace rk::switchcfg

// `rocekit fleet -f html`: one self-contained page (inline CSS and script, no network, no
// external font) that stays readable at 10,000 hosts:
// - a hosts x rules matrix in which hosts with the same outcome on every rule are one row
//   ("9,990 hosts" and the few that differ), failing rows first; a filter by host name and a
//   "rows with a failure only" switch;
// - per cross-host setting, the distribution of its values as a bar with the reference marked,
//   and every outlier;
// - the Multi-Host NICs, the input problems, the per-rule tally;
// - per-host detail on demand: clicking a host name shows its failing findings and outliers,
//   read from a JSON block in the page and built with textContent (no markup from inputs);
//   `report.html#host=NAME` opens with NAME's detail shown.
// It formats; it never decides (the same FleetReport as the other forms).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "rocekit/fleet/fleet.hpp"
#include "rocekit/fleet/render_common.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/render/gate.hpp"
#include "rocekit/render/render.hpp"

namespace rk::fleet {

namespace {

using detail::HostOutlier;

/// Text as HTML character data or a double-quoted attribute value: the JUnit renderer's escaper
/// (quotes escaped, control characters as visible escapes, bytes that are not UTF-8 replaced).
std::string esc(std::string_view raw) { return render::xml_escape(raw, true); }

/// A cell's class and the word its tooltip uses, by outcome. "n": no finding of the rule.
char cell_code(Outcome o) {
  switch (o) {
    case Outcome::fail: return 'f';
    case Outcome::unknown: return 'u';
    case Outcome::pass: return 'p';
    case Outcome::not_applicable: return 'a';
  }
  return 'n';
}

const char* code_word(char c) {
  switch (c) {
    case 'f': return "fail";
    case 'u': return "unknown";
    case 'p': return "pass";
    case 'a': return "not applicable";
    case 'o': return "outlier";
    case 'k': return "not an outlier";
    default: return "no finding";
  }
}

/// The worst outcome among a host's findings of one rule: fail, unknown, pass, not applicable.
char host_cell(const OutcomeCounts& c) {
  for (Outcome o : {Outcome::fail, Outcome::unknown, Outcome::pass, Outcome::not_applicable})
    if (c[static_cast<std::size_t>(o)] > 0) return cell_code(o);
  return 'n';
}

std::string host_link(const std::string& host) {
  return fmt::format("<a href=\"#\" data-host=\"{0}\">{0}</a>", esc(host));
}

struct Matrix {
  std::vector<std::string> host_rules;   ///< per-host rule columns (the tally's order)
  std::vector<std::string> fleet_rules;  ///< fleet.* columns: is the host one of the outliers
  std::set<std::string> fleet_judged;    ///< fleet.* rules with a check that passed or failed
  /// outcome signature (one code per column) -> hosts, in discovery order.
  std::map<std::string, std::vector<const HostSummary*>> groups;
};

Matrix build_matrix(const FleetReport& r,
                    const std::map<std::string, std::vector<HostOutlier>>& by_host) {
  Matrix m;
  std::set<std::string> judged;  // rules with a pass, fail or unknown finding on some host
  for (const HostSummary& h : r.hosts)
    for (const auto& [rule, c] : h.rule_counts)
      if (c[static_cast<std::size_t>(Outcome::pass)] + c[static_cast<std::size_t>(Outcome::fail)] +
              c[static_cast<std::size_t>(Outcome::unknown)] > 0)
        judged.insert(std::string(rule));
  for (const RuleTally& t : r.rules)
    if (judged.count(t.rule)) m.host_rules.push_back(t.rule);
  std::set<std::string> seen;
  for (const Consistency& c : r.cross.checks) {
    if (seen.insert(c.rule).second) m.fleet_rules.push_back(c.rule);
    if (c.outcome == Outcome::pass || c.outcome == Outcome::fail) m.fleet_judged.insert(c.rule);
  }
  for (const HostSummary& h : r.hosts) {
    if (!h.loaded) continue;
    std::string sig;
    for (const std::string& rule : m.host_rules) {
      const OutcomeCounts* c = h.rule_counts.find(rule);
      sig += c ? host_cell(*c) : 'n';
    }
    std::set<std::string> outlier_rules;
    if (auto it = by_host.find(h.host); it != by_host.end())
      for (const HostOutlier& ho : it->second) outlier_rules.insert(ho.check->rule);
    for (const std::string& rule : m.fleet_rules)
      sig += outlier_rules.count(rule) ? 'o' : m.fleet_judged.count(rule) ? 'k' : 'u';
    m.groups[sig].push_back(&h);
  }
  return m;
}

/// Rows with more failing columns first, then more unknown ones, then larger groups.
std::vector<const std::pair<const std::string, std::vector<const HostSummary*>>*> ordered_groups(const Matrix& m) {
  std::vector<const std::pair<const std::string, std::vector<const HostSummary*>>*> v;
  for (const auto& g : m.groups) v.push_back(&g);
  auto bad = [](const std::string& s) { return std::count(s.begin(), s.end(), 'f') + std::count(s.begin(), s.end(), 'o'); };
  auto unk = [](const std::string& s) { return std::count(s.begin(), s.end(), 'u'); };
  std::stable_sort(v.begin(), v.end(), [&](auto* a, auto* b) {
    if (bad(a->first) != bad(b->first)) return bad(a->first) > bad(b->first);
    if (unk(a->first) != unk(b->first)) return unk(a->first) > unk(b->first);
    return a->second.size() > b->second.size();
  });
  return v;
}

constexpr std::size_t k_max_rows = 2000;  // matrix rows drawn; the JSON report has every host
constexpr std::size_t k_names_shown = 3;  // host names before "N more" in a row

std::string render_matrix(const Matrix& m) {
  std::string out = "<section id=\"matrix-section\"><h2>Hosts &times; rules</h2>\n"
                    "<p class=\"note\">Hosts with the same outcome on every rule share a row. Per-host rules: "
                    "the worst outcome among the host's findings. <code>fleet.*</code> columns: red when the host "
                    "is an outlier of that cross-host check, grey when it is not one (the check may not have had its "
                    "value: see the check below), yellow when no check of the rule could compare. "
                    "Click a host for its detail.</p>\n<p class=\"legend\"><span class=\"key c f\"></span> fail "
                    "or outlier <span class=\"key c u\"></span> unknown <span class=\"key c p\"></span> pass "
                    "<span class=\"key c a\"></span> not applicable <span class=\"key c n\"></span> no finding "
                    "<span class=\"key c k\"></span> not an outlier</p>\n"
                    "<div class=\"controls\"><label>host <input id=\"filter\" type=\"search\" "
                    "placeholder=\"name contains\"></label> <label><input id=\"only-fail\" type=\"checkbox\"> "
                    "rows with a failure or outlier only</label> <span id=\"shown\"></span></div>\n"
                    "<div class=\"scroll\"><table id=\"matrix\"><thead><tr><th class=\"hosts-h\">hosts</th>";
  for (const std::string& rule : m.host_rules) out += fmt::format("<th class=\"rule\"><span>{}</span></th>", esc(rule));
  for (const std::string& rule : m.fleet_rules) out += fmt::format("<th class=\"rule fleet\"><span>{}</span></th>", esc(rule));
  out += "</tr></thead><tbody>\n";
  std::size_t rows = 0;
  auto groups = ordered_groups(m);
  for (const auto* g : groups) {
    if (rows++ == k_max_rows) break;
    const std::string& sig = g->first;
    const std::vector<const HostSummary*>& hosts = g->second;
    bool failing = sig.find_first_of("fo") != std::string::npos;
    bool outlier = sig.find('o') != std::string::npos;
    out += fmt::format("<tr class=\"{}{}\"><td class=\"hosts\"><b>{} host{}</b> ", failing ? "bad" : "good",
                       outlier ? " outlier" : "", hosts.size(), hosts.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < hosts.size() && i < k_names_shown; ++i) out += host_link(hosts[i]->host) + " ";
    if (hosts.size() > k_names_shown) {
      out += fmt::format("<details><summary>{} more</summary>", hosts.size() - k_names_shown);
      for (std::size_t i = k_names_shown; i < hosts.size(); ++i) out += host_link(hosts[i]->host) + " ";
      out += "</details>";
    }
    out += "</td>";
    for (std::size_t c = 0; c < sig.size(); ++c) {
      const std::string& rule = c < m.host_rules.size() ? m.host_rules[c] : m.fleet_rules[c - m.host_rules.size()];
      out += fmt::format("<td class=\"c {}\" title=\"{}: {}\"></td>", sig[c], esc(rule), code_word(sig[c]));
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  if (groups.size() > k_max_rows)
    out += fmt::format("<p class=\"note\">{} more rows (fewer failures) are not drawn; the JSON report "
                       "(<code>-f json</code>) lists every host.</p>\n", groups.size() - k_max_rows);
  return out + "</section>\n";
}

std::string render_bar(const Consistency& c) {
  std::size_t total = 0;
  for (const auto& [v, n] : c.distribution) total += n;
  if (total == 0) return "<div class=\"bar empty\">no NIC reports a value</div>";
  std::string out = "<div class=\"bar\">";
  std::size_t shown = 0, rest = 0;
  for (const auto& [v, n] : c.distribution) {
    if (shown++ >= 6) {
      rest += n;
      continue;
    }
    bool ref = !c.baseline.empty() && v == c.baseline;
    out += fmt::format("<div class=\"seg{}\" style=\"flex-grow:{}\" title=\"{}: {} NIC{}{}\">{}</div>",
                       ref ? " ref" : "", n, esc(v), n, n == 1 ? "" : "s", ref ? " (reference)" : "", esc(v));
  }
  if (rest)
    out += fmt::format("<div class=\"seg other\" style=\"flex-grow:{}\" title=\"{} more values: {} NICs\">other</div>",
                       rest, c.distribution.size() - 6, rest);
  out += "</div><div class=\"legend\">";
  for (const auto& [v, n] : c.distribution) out += fmt::format("<span><code>{}</code>: {}</span> ", esc(v), n);
  if (c.unknown_count) out += fmt::format("<span class=\"unk\">{} unknown</span>", c.unknown_count);
  return out + "</div>";
}

std::string render_outliers(const std::vector<Outlier>& list, std::size_t max) {
  std::string out = "<ul class=\"outliers\">";
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i == max) out += fmt::format("<li><details><summary>{} more</summary><ul>", list.size() - max);
    out += fmt::format("<li>{} <code>{}</code>: <code>{}</code></li>", host_link(list[i].host), esc(list[i].subject),
                       esc(list[i].value));
  }
  if (list.size() > max) out += "</ul></details></li>";
  return out + "</ul>";
}

std::string render_settings(const FleetReport& r, const RenderOptions& o) {
  std::string out = "<section id=\"settings\"><h2>Settings across the fleet</h2>\n";
  for (const Consistency* c : detail::sorted_checks(r)) {
    if (detail::is_passing_nv(*c)) continue;
    if (o.quiet && c->outcome == Outcome::pass) continue;
    out += fmt::format("<div class=\"check {}\"><div class=\"head\"><span class=\"badge {}\">{}</span> "
                       "<code>{}</code> {} ({}){}</div><p>{}</p>",
                       cell_code(c->outcome), cell_code(c->outcome), esc(render::outcome_label(c->outcome)),
                       esc(c->rule), esc(c->setting), esc(c->group),
                       c->outcome == Outcome::fail ? " [" + std::string(to_string(c->severity)) + "]" : "",
                       esc(c->message));
    out += render_bar(*c);
    if (!c->outliers.empty()) out += render_outliers(c->outliers, o.max_outliers);
    if (!c->tied.empty()) out += render_outliers(c->tied, o.max_outliers);
    out += "</div>\n";
  }
  for (const auto& [group, n] : detail::passing_nv_parameters(r)) {
    if (o.quiet) break;
    out += fmt::format("<div class=\"check p\"><div class=\"head\"><span class=\"badge p\">PASS</span> "
                       "<code>fleet.nv-config-consistent</code> nv.* ({})</div><p>{} firmware parameters, "
                       "each the same on every physical NIC</p></div>\n", esc(group), n.parameters);
  }
  return out + "</section>\n";
}

std::string render_multi_host(const FleetReport& r) {
  if (r.cross.multi_host.empty()) return "";
  std::string out = "<section id=\"multi-host\"><h2>Multi-Host NICs</h2><table class=\"list\"><tr><th>physical "
                    "NIC</th><th>model</th><th>PFs (host: NIC)</th><th>firmware NV configuration (once)</th></tr>\n";
  for (const MultiHostNic& m : r.cross.multi_host) {
    std::string pfs, nv;
    for (const Outlier& p : m.pfs) pfs += host_link(p.host) + ": <code>" + esc(p.subject) + "</code> ";
    for (const auto& [k, v] : m.nv) nv += esc(k) + "=" + esc(v) + " ";
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", esc(m.key), esc(m.model), pfs,
                       nv.empty() ? "not collected on any of its hosts" : "from " + esc(m.nv_host) + ": " + nv);
  }
  return out + "</table></section>\n";
}

std::string render_tally(const FleetReport& r) {
  std::string out = "<section id=\"rules\"><h2>Per-host rules</h2><table class=\"list\"><tr><th>rule</th>"
                    "<th>severity</th><th>hosts failing</th><th>hosts unknown</th><th>hosts passing</th>"
                    "<th>why unknown (example)</th></tr>\n";
  for (const RuleTally& t : r.rules)
    if (t.hosts_fail || t.hosts_unknown)
      out += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td class=\"num{}\">{}</td><td class=\"num\">{}</td>"
                         "<td class=\"num\">{}</td><td>{}</td></tr>\n",
                         esc(t.rule), to_string(t.severity), t.hosts_fail ? " f" : "", t.hosts_fail,
                         t.hosts_unknown, t.hosts_pass, esc(t.hosts_unknown ? t.unknown_example : ""));
  return out + "</table></section>\n";
}

/// Per host, what the detail panel shows: {file, nics, error | failures [[rule, subject,
/// severity, message]], outliers [[rule, setting, subject, value, reference]]}.
std::string host_data(const FleetReport& r, const std::map<std::string, std::vector<HostOutlier>>& by_host) {
  nlohmann::json hosts = nlohmann::json::object();
  for (const HostSummary& h : r.hosts) {
    nlohmann::json x = {{"file", h.file}};
    if (!h.loaded) {
      x["error"] = h.error;
    } else {
      x["nics"] = h.nics.size();
      nlohmann::json f = nlohmann::json::array();
      for (const HostFinding& hf : h.failures)
        f.push_back({hf.rule, hf.subject, std::string(to_string(hf.severity)), hf.message});
      x["failures"] = std::move(f);
      nlohmann::json ol = nlohmann::json::array();
      if (auto it = by_host.find(h.host); it != by_host.end())
        for (const HostOutlier& ho : it->second)
          ol.push_back({ho.check->rule, ho.check->setting, ho.outlier->subject, ho.outlier->value,
                        detail::reference_label(*ho.check)});
      x["outliers"] = std::move(ol);
    }
    hosts[h.host] = std::move(x);
  }
  std::string s = hosts.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), out;
  out.reserve(s.size());
  for (char c : s) {  // JSON inside <script>: no '<', '>' or '&' can end or open anything
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

constexpr const char* k_style = R"CSS(
body{font:14px/1.4 sans-serif;margin:1em 2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
code{font-family:monospace;background:#f4f4f4;padding:0 2px}
.note{color:#555;font-size:.9em}.controls{margin:.5em 0}
.scroll{overflow:auto;max-height:70vh;border:1px solid #ddd}
#matrix{border-collapse:collapse}#matrix th,#matrix td{border:1px solid #eee}
#matrix th.rule{height:11em;vertical-align:bottom;padding:2px;white-space:nowrap}
#matrix th.rule span{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:normal;font-size:.85em}
#matrix th.fleet span{font-style:italic}
#matrix thead th{position:sticky;top:0;background:#fff}
td.hosts{min-width:18em;max-width:36em;font-size:.9em}td.hosts details{display:inline}
td.c{width:14px;min-width:14px}
.c.f,.c.o{background:#d62728}.c.u{background:#f0ad4e}.c.p{background:#7cc47c}.c.k{background:#e8e8e8}.c.a{background:#ddd}.c.n{background:#fff}
.badge{display:inline-block;padding:0 6px;border-radius:3px;color:#fff;font-weight:bold;font-size:.85em}
.badge.f{background:#d62728}.badge.u{background:#c88a1e}.badge.p{background:#2ca02c}
.check{margin:.6em 0;padding:.4em .6em;border-left:4px solid #ccc}.check.f{border-color:#d62728}
.check.u{border-color:#f0ad4e}.check.p{border-color:#2ca02c}.check p{margin:.2em 0}
.bar{display:flex;height:18px;max-width:60em;border:1px solid #bbb}.bar.empty{display:block;border:0;color:#777}
.seg{background:#9bb7d4;overflow:hidden;white-space:nowrap;font-size:.75em;padding:0 3px;border-right:1px solid #fff;min-width:3px}
.seg.ref{background:#4a7fb0;color:#fff}.seg.other{background:#ccc}
.legend{font-size:.85em;color:#444}.legend .unk{color:#a66}
.key{display:inline-block;width:12px;height:12px;border:1px solid #aaa;vertical-align:middle}
ul.outliers{margin:.2em 0;columns:3 22em;font-size:.9em}
table.list{border-collapse:collapse}table.list td,table.list th{border:1px solid #ddd;padding:2px 6px;text-align:left}
td.num{text-align:right}td.num.f{color:#d62728;font-weight:bold}
#detail{position:fixed;right:1em;top:1em;width:34em;max-height:90vh;overflow:auto;background:#fff;
border:1px solid #888;box-shadow:0 2px 8px #0004;padding:.6em 1em;display:none}
#detail h3{margin:.2em 0}#detail .close{float:right;cursor:pointer}
#detail li{margin:.3em 0}
)CSS";

constexpr const char* k_script = R"JS(
(function () {
  var data = JSON.parse(document.getElementById('rk-hosts').textContent);
  var panel = document.getElementById('detail');
  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
  function show(name) {
    var h = data[name]; panel.textContent = '';
    var close = el('span', '\u2715', 'close'); close.onclick = function () { panel.style.display = 'none'; };
    panel.appendChild(close); panel.appendChild(el('h3', name));
    if (!h) { panel.appendChild(el('p', 'not in this report')); panel.style.display = 'block'; return; }
    panel.appendChild(el('p', h.file + (h.nics !== undefined ? ' \u2014 ' + h.nics + ' NICs' : '')));
    if (h.error) panel.appendChild(el('p', 'not loaded: ' + h.error));
    var f = h.failures || [], o = h.outliers || [];
    if (!h.error && !f.length && !o.length) panel.appendChild(el('p', 'no failing finding and no cross-host outlier'));
    if (f.length) {
      panel.appendChild(el('h4', f.length + ' failing finding' + (f.length > 1 ? 's' : '')));
      var ul = el('ul');
      f.forEach(function (x) { var li = el('li'); li.appendChild(el('code', x[0])); li.appendChild(document.createTextNode(' ' + x[1] + ' [' + x[2] + '] ' + x[3])); ul.appendChild(li); });
      panel.appendChild(ul);
    }
    if (o.length) {
      panel.appendChild(el('h4', o.length + ' cross-host outlier' + (o.length > 1 ? 's' : '')));
      var ul2 = el('ul');
      o.forEach(function (x) { var li = el('li'); li.appendChild(el('code', x[0])); li.appendChild(document.createTextNode(' ' + x[2] + ' ' + x[1] + ': ' + x[3] + ' (' + x[4] + ')')); ul2.appendChild(li); });
      panel.appendChild(ul2);
    }
    panel.style.display = 'block';
  }
  document.addEventListener('click', function (e) {
    var t = e.target.closest ? e.target.closest('[data-host]') : null;
    if (t) { e.preventDefault(); show(t.getAttribute('data-host')); }
  });
  var q = document.getElementById('filter'), only = document.getElementById('only-fail'), shown = document.getElementById('shown');
  function apply() {
    var s = q.value.trim().toLowerCase(), rows = document.querySelectorAll('#matrix tbody tr'), n = 0;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i], ok = (!only.checked || r.classList.contains('bad')) && (!s || r.cells[0].textContent.toLowerCase().indexOf(s) >= 0);
      r.style.display = ok ? '' : 'none'; n += ok ? 1 : 0;
    }
    shown.textContent = n + ' of ' + rows.length + ' rows';
  }
  q.addEventListener('input', apply); only.addEventListener('change', apply); apply();
  // A link to one host's detail: report.html#host=NAME
  if (location.hash.indexOf('#host=') === 0) show(decodeURIComponent(location.hash.slice(6)));
})();
)JS";

}  // namespace

/// Per outlier host, the plan steps to the reference (plan_outliers) and what is not planned.
std::string render_actions(const FleetReport& r) {
  if (r.plans.empty()) return {};
  constexpr std::size_t k_max_rows = 2000;
  std::string out = "<section id=\"actions\"><h2>Actions per outlier host</h2><p><code>rocekit plan</code>'s steps "
                    "that bring each outlier host to the reference value (port kind: current &rarr; desired "
                    "[disruption]: command); <code>rocekit fleet -f sh -o DIR</code> or <code>-f ansible</code> writes "
                    "them.</p><table class=\"list\"><tr><th>host</th><th>actions, and what is not planned</th></tr>\n";
  std::size_t shown = 0;
  for (const HostPlan& p : r.plans) {
    if (shown++ == k_max_rows) {
      out += fmt::format("<tr><td colspan=\"2\">{} more hosts: see the JSON report</td></tr>\n", r.plans.size() - k_max_rows);
      break;
    }
    std::string cell;
    for (const std::string& l : detail::host_plan_lines(p)) cell += "<div><code>" + esc(l) + "</code></div>";
    out += "<tr><td>" + host_link(p.host) + "</td><td>" + cell + "</td></tr>\n";
  }
  return out + "</table></section>\n";
}

std::string render_html(const FleetReport& r, const RenderOptions& o) {
  auto by_host = detail::outliers_by_host(r);
  Matrix m = build_matrix(r, by_host);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                    "<meta name=\"generator\" content=\"rocekit " + esc(version()) + "\">\n"
                    "<title>rocekit fleet: " + std::to_string(r.hosts.size()) + " hosts</title>\n<style>" +
                    k_style + "</style></head><body>\n";
  out += "<h1>rocekit fleet</h1>\n<p id=\"summary\">" + esc(detail::summary_line(r)) + ". Policy <code>" +
         esc(o.policy_name) + "</code>.</p>\n";
  if (!r.problems.empty()) {
    out += "<section id=\"problems\"><h2>Input problems (<code>fleet.input-loaded</code>)</h2><table class=\"list\">"
           "<tr><th>file</th><th>reason</th></tr>\n";
    for (const InputProblem& p : r.problems)
      out += fmt::format("<tr><td><code>{}</code></td><td>{}</td></tr>\n", esc(p.file), esc(p.reason));
    out += "</table></section>\n";
  }
  out += render_matrix(m);
  out += render_settings(r, o);
  out += render_actions(r);
  out += render_multi_host(r);
  out += render_tally(r);
  out += "<div id=\"detail\"></div>\n<script type=\"application/json\" id=\"rk-hosts\">" + host_data(r, by_host) +
         "</script>\n<script>" + k_script + "</script>\n</body></html>\n";
  return out;
}

}  // namespace rk::fleet

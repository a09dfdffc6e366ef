// Fleet report renderers: text, JSON, Markdown (HTML: render_html.cpp). They format; they never
// decide.
#include <map>
#include <ostream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/fleet/fleet.hpp"
#include "rocekit/fleet/render_common.hpp"
#include "rocekit/render/render.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::fleet {

namespace {

using detail::HostOutlier;
using detail::NvPass;
using detail::count_checks;
using detail::host_plan_lines;
using detail::hosts_with_failures;
using detail::is_passing_nv;
using detail::outliers_by_host;
using detail::passing_nv_parameters;
using detail::reference_label;
using detail::summary_line;
using detail::sorted_checks;

std::string md_escape(const std::string& t) {
  std::string out;
  for (char c : t) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

/// The Markdown baseline column: "`9000`", "policy `>= 4200`", "tie", "-".
std::string md_reference(const Consistency& c) {
  if (c.reference == "policy") return "policy `" + md_escape(c.baseline) + "`";
  if (!c.baseline.empty()) return "`" + md_escape(c.baseline) + "`";
  return c.tie ? "tie" : "-";
}

/// What the JSON report's hosts[] holds for one host, the outliers and plans looked up once for all.
struct HostJsonContext {
  std::map<std::string, std::vector<HostOutlier>> by_host;
  std::map<std::string, const HostPlan*> plans;
  explicit HostJsonContext(const FleetReport& r) : by_host(outliers_by_host(r)) {
    for (const HostPlan& p : r.plans) plans[p.host] = &p;
  }
};

nlohmann::json host_json(const HostSummary& h, const HostJsonContext& ctx) {
  using nlohmann::json;
  const auto& by_host = ctx.by_host;
  const auto& plans = ctx.plans;
  json x = {{"host", h.host}, {"file", h.file}, {"loaded", h.loaded}};
  if (!h.loaded) {
    x["error"] = h.error;
    return x;
  }
  x["nics"] = h.nics.size();
  json fails = json::array();
  for (const HostFinding& f : h.failures)
    fails.push_back({{"rule", f.rule.str()}, {"subject", f.subject},
                     {"severity", std::string(to_string(f.severity))}, {"message", f.message.str()}});
  x["failures"] = std::move(fails);
  json outl = json::array();
  if (auto it = by_host.find(h.host); it != by_host.end())
    for (const HostOutlier& ho : it->second)
      outl.push_back({{"rule", ho.check->rule}, {"setting", ho.check->setting},
                      {"subject", ho.outlier->subject}, {"value", ho.outlier->value},
                      {"baseline", ho.check->baseline}, {"reference", ho.check->reference}});
  x["outliers"] = std::move(outl);
  if (auto pl = plans.find(h.host); pl != plans.end()) {
    // `rocekit plan`'s own JSON forms: actions[] as render_json(Plan) writes them, unplanned[].
    const HostPlan& hp = *pl->second;
    json acts = json::array();
    for (const plan::Action& a : hp.plan.actions) acts.push_back(json(plan::action_json(a)));
    x["actions"] = std::move(acts);
    json un = json::array();
    for (const plan::Unplanned& u : hp.plan.unplanned)
      un.push_back({{"rule", u.rule}, {"subject", u.subject}, {"reason", u.reason}});
    x["unplanned"] = std::move(un);
    if (!hp.error.empty()) x["plan_error"] = hp.error;
  }
  return x;
}


/// Everything in the JSON report but hosts[].
nlohmann::json head_json(const FleetReport& r, const RenderOptions& o) {
  using nlohmann::json;
  json j;
  j["fleet_report_version"] = 1;
  j["tool_version"] = std::string(version());
  j["policy"] = o.policy_name;
  j["baseline"] = r.baseline.empty() ? json(nullptr) : json(r.baseline);
  j["ignored_settings"] = r.ignored;
  j["summary"] = {{"hosts", r.hosts.size()},
                  {"hosts_loaded", r.hosts_loaded},
                  {"input_problems", r.problems.size()},
                  {"nics", r.nic_count},
                  {"multi_host_nics", r.cross.multi_host.size()},
                  {"hosts_with_failures", hosts_with_failures(r)},
                  {"checks", {{"fail", count_checks(r, Outcome::fail)},
                              {"unknown", count_checks(r, Outcome::unknown)},
                              {"pass", count_checks(r, Outcome::pass)}}}};
  json problems = json::array();
  for (const InputProblem& p : r.problems)
    problems.push_back({{"rule", "fleet.input-loaded"}, {"file", p.file}, {"reason", p.reason}});
  j["problems"] = std::move(problems);
  json rules = json::array();
  for (const RuleTally& t : r.rules)
    rules.push_back({{"rule", t.rule}, {"severity", std::string(to_string(t.severity))},
                     {"hosts_fail", t.hosts_fail}, {"hosts_unknown", t.hosts_unknown},
                     {"hosts_pass", t.hosts_pass}, {"findings_fail", t.findings_fail},
                     {"unknown_example", t.unknown_example}});
  j["rules"] = std::move(rules);
  json checks = json::array();
  for (const Consistency& c : r.cross.checks) {
    json x = {{"rule", c.rule}, {"severity", std::string(to_string(c.severity))},
              {"outcome", std::string(to_string(c.outcome))}, {"setting", c.setting},
              {"group", c.group}, {"baseline", c.baseline}, {"reference", c.reference},
              {"policy_value", c.policy_value}, {"tie", c.tie}, {"known", c.known},
              {"baseline_count", c.baseline_count}, {"unknown_count", c.unknown_count},
              {"message", c.message}};
    json dist = json::array();
    for (const auto& [v, n] : c.distribution) dist.push_back({{"value", v}, {"count", n}});
    x["distribution"] = std::move(dist);
    json outl = json::array();
    for (const Outlier& ol : c.outliers)
      outl.push_back({{"host", ol.host}, {"subject", ol.subject}, {"value", ol.value}});
    x["outliers"] = std::move(outl);
    json tied = json::array();
    for (const Outlier& t : c.tied) tied.push_back({{"host", t.host}, {"subject", t.subject}, {"value", t.value}});
    x["tied"] = std::move(tied);
    json unk = json::array();
    for (const Outlier& u : c.unknown)
      unk.push_back({{"host", u.host}, {"subject", u.subject}, {"reason", u.value}});
    x["unknown"] = std::move(unk);
    checks.push_back(std::move(x));
  }
  j["consistency"] = std::move(checks);
  json multi = json::array();
  for (const MultiHostNic& m : r.cross.multi_host) {
    json pfs = json::array();
    for (const Outlier& p : m.pfs) pfs.push_back({{"host", p.host}, {"subject", p.subject}, {"bdf", p.value}});
    multi.push_back({{"id", m.key}, {"model", m.model}, {"pfs", std::move(pfs)},
                     {"nv_config", m.nv}, {"nv_config_from", m.nv_host}});
  }
  j["multi_host_nics"] = std::move(multi);
  json dpus = json::array();
  for (const DpuPairing& d : r.dpus)
    dpus.push_back({{"host", d.host}, {"ports", d.ports}, {"physical_id", d.physical_id}, {"arm_host", d.arm_host},
                    {"message", d.message}});
  j["dpus"] = std::move(dpus);
  return j;
}

constexpr nlohmann::json::error_handler_t k_replace_bad_utf8 = nlohmann::json::error_handler_t::replace;

/// The JSON report, hosts[] written one host at a time into the head's dump: the same bytes as
/// render_json(r, o).dump(2), without a document (or a string) of every host in memory at once
/// (at 100,000 hosts the report is about 400 MB of text, its document several times that).
void write_json(std::ostream& os, const FleetReport& r, const RenderOptions& o) {
  nlohmann::json head = head_json(r, o);
  const std::string marker = "rocekit-fleet-hosts";
  head["hosts"] = marker;
  const std::string text = head.dump(2, ' ', false, k_replace_bad_utf8);
  const std::string slot = "\n  \"hosts\": \"" + marker + "\"";
  const std::size_t at = text.find(slot) + slot.size() - marker.size() - 2;  // the value's opening quote
  os.write(text.data(), static_cast<std::streamsize>(at));
  if (r.hosts.empty()) {
    os << "[]";
  } else {
    HostJsonContext ctx(r);
    os << '[';
    std::string nested;
    for (std::size_t i = 0; i < r.hosts.size(); ++i) {
      const std::string one = host_json(r.hosts[i], ctx).dump(2, ' ', false, k_replace_bad_utf8);
      // Two levels deeper: every line of the host's dump gains four spaces (JSON strings hold no
      // raw newline, so every newline is the dump's own).
      nested.assign(i ? ",\n    " : "\n    ");
      for (char c : one) {
        nested += c;
        if (c == '\n') nested += "    ";
      }
      os << nested;
    }
    os << "\n  ]";
  }
  const std::size_t rest = at + marker.size() + 2;
  os.write(text.data() + rest, static_cast<std::streamsize>(text.size() - rest));
  os << '\n';
}

}  // namespace

nlohmann::json render_json(const FleetReport& r, const RenderOptions& o) {
  nlohmann::json j = head_json(r, o);
  j["hosts"] = nlohmann::json::array();
  HostJsonContext ctx(r);
  for (const HostSummary& h : r.hosts) j["hosts"].push_back(host_json(h, ctx));
  return j;
}

namespace {

std::string render_text(const FleetReport& r, const RenderOptions& o) {
  std::string out = "rocekit fleet: " + summary_line(r) + "\npolicy " + o.policy_name + "\n";
  if (!r.problems.empty()) {
    out += "\ninput problems (fleet.input-loaded):\n";
    for (const InputProblem& p : r.problems) out += "  " + p.file + ": " + p.reason + "\n";
  }
  out += "\ncross-host checks:\n";
  std::map<std::string, NvPass> nv_pass = passing_nv_parameters(r);
  for (const Consistency* c : sorted_checks(r)) {
    if (is_passing_nv(*c)) continue;  // one line per model below
    if (o.quiet && c->outcome == Outcome::pass) continue;
    out += paint(o.color, c->outcome,
                         fmt::format("  {:<8} {:<34} {} ({}): {}{}", render::outcome_label(c->outcome), c->rule,
                                     c->setting, c->group,
                                     c->outcome == Outcome::fail ? "[" + std::string(to_string(c->severity)) + "] " : "",
                                     c->message)) +
           "\n";
    std::size_t shown = 0;
    for (const Outlier& ol : c->outliers) {
      if (shown++ == o.max_outliers) {
        out += fmt::format("           ... and {} more (see -f json)\n", c->outliers.size() - o.max_outliers);
        break;
      }
      out += fmt::format("           {} {}: {}\n", ol.host, ol.subject, ol.value);
    }
    shown = 0;
    for (const Outlier& t : c->tied) {  // a tie without a reference: who says what
      if (shown++ == o.max_outliers) {
        out += fmt::format("           ... and {} more (see -f json)\n", c->tied.size() - o.max_outliers);
        break;
      }
      out += fmt::format("           {} {}: {}\n", t.host, t.subject, t.value);
    }
    if (c->outcome == Outcome::unknown)
      for (const Outlier& u : c->unknown) {
        out += fmt::format("           {} {}: {}\n", u.host, u.subject, u.value);
        break;  // one example reason
      }
  }
  for (const auto& [group, n] : nv_pass) {
    if (o.quiet) break;
    out += paint(o.color, Outcome::pass,
                         fmt::format("  {:<8} {:<34} nv.* ({}): {} firmware parameters, each the same on every "
                                     "physical NIC (one check each in -f json)",
                                     render::outcome_label(Outcome::pass), "fleet.nv-config-consistent", group,
                                     n.parameters)) +
           "\n";
  }
  if (!r.dpus.empty()) {
    out += "\nBlueField DPUs (port QoS set on the card's Arm side):\n";
    for (const DpuPairing& d : r.dpus) out += "  " + d.message + "\n";
  }
  if (!r.cross.multi_host.empty()) {
    out += "\nMulti-Host NICs (one physical NIC seen from several hosts):\n";
    for (const MultiHostNic& m : r.cross.multi_host) {
      out += fmt::format("  {} ({}):", m.key, m.model);
      for (const Outlier& p : m.pfs) out += fmt::format(" {}:{}", p.host, p.subject);
      out += "\n";
      if (m.nv.empty()) {
        out += "    firmware NV configuration: not collected on any of its hosts\n";
      } else {
        out += fmt::format("    firmware NV configuration (once, from {}):", m.nv_host);
        for (const auto& [k, v] : m.nv) out += " " + k + "=" + v;
        out += "\n";
      }
    }
  }
  out += "\ntop problems (per-host rules, hosts failing / unknown / passing):\n";
  std::size_t listed = 0;
  for (const RuleTally& t : r.rules) {
    if (t.hosts_fail == 0 && t.hosts_unknown == 0) continue;
    if (listed++ == 15) break;
    out += fmt::format("  {:<28} {:<9} {} / {} / {}\n", t.rule, to_string(t.severity), t.hosts_fail,
                       t.hosts_unknown, t.hosts_pass);
    if (t.hosts_unknown && !t.unknown_example.empty())
      out += fmt::format("      unknown, e.g. {}\n", t.unknown_example);
  }
  if (listed == 0) out += "  none\n";
  out += "\nhosts:\n";
  auto by_host = outliers_by_host(r);
  std::size_t clean = 0, shown = 0;
  for (const HostSummary& h : r.hosts) {
    auto it = by_host.find(h.host);
    std::size_t outl = it == by_host.end() ? 0 : it->second.size();
    if (h.loaded && h.failures.empty() && outl == 0) {
      ++clean;
      continue;
    }
    if (shown++ == o.max_hosts_detail) {
      out += "  ... more hosts in -f json\n";
      break;
    }
    if (!h.loaded) {
      out += fmt::format("  {}: not loaded: {}\n", h.file, h.error);
      continue;
    }
    out += fmt::format("  {} ({}, {} NICs): {} failing findings, {} cross-host outliers\n", h.host,
                       h.file, h.nics.size(), h.failures.size(), outl);
    for (std::size_t i = 0; i < outl; ++i) {
      const HostOutlier& ho = it->second[i];
      out += fmt::format("    outlier  {:<34} {} {}: {} ({})\n", ho.check->rule, ho.outlier->subject,
                         ho.check->setting, ho.outlier->value, reference_label(*ho.check));
    }
    for (const HostFinding& f : h.failures)
      out += paint(o.color, Outcome::fail,
                           fmt::format("    FAIL     {:<34} {} [{}] {}", f.rule.str(), f.subject, to_string(f.severity), f.message.str())) +
             "\n";
  }
  out += fmt::format("  {} hosts without failing findings or outliers\n", clean);
  if (!r.plans.empty())
    out += "\nactions per outlier host (rocekit plan's steps to the reference value; -f sh -o DIR or -f ansible "
           "writes them):\n";
  shown = 0;
  for (const HostPlan& p : r.plans) {
    if (shown++ == o.max_hosts_detail) {
      out += "  ... more hosts in -f json\n";
      break;
    }
    out += fmt::format("  {} ({} action{}):\n", p.host, p.plan.actions.size(), p.plan.actions.size() == 1 ? "" : "s");
    for (const std::string& l : host_plan_lines(p)) out += "    " + l + "\n";
  }
  return out;
}

std::string render_markdown(const FleetReport& r, const RenderOptions& o) {
  std::string out = "## rocekit fleet\n\n" + summary_line(r) + ". Policy `" + o.policy_name + "`.\n";
  if (!r.problems.empty()) {
    out += "\n### Input problems (`fleet.input-loaded`)\n\n| file | reason |\n|---|---|\n";
    for (const InputProblem& p : r.problems)
      out += fmt::format("| `{}` | {} |\n", md_escape(p.file), md_escape(p.reason));
  }
  out += "\n### Cross-host checks\n\n| outcome | severity | rule | setting | group | baseline | result |\n"
         "|---|---|---|---|---|---|---|\n";
  for (const Consistency* c : sorted_checks(r)) {
    if (is_passing_nv(*c)) continue;
    if (o.quiet && c->outcome == Outcome::pass) continue;
    out += fmt::format("| {} | {} | `{}` | {} | {} | {} | {} |\n", render::outcome_label(c->outcome),
                       to_string(c->severity), c->rule, c->setting, md_escape(c->group),
                       md_reference(*c), md_escape(c->message));
  }
  for (const auto& [group, n] : passing_nv_parameters(r)) {
    if (o.quiet) break;
    out += fmt::format("| {} | {} | `{}` | nv.* | {} | - | {} firmware parameters, each the same on every physical NIC |\n",
                       render::outcome_label(Outcome::pass), to_string(n.severity),
                       "fleet.nv-config-consistent", md_escape(group), n.parameters);
  }
  bool header = false;
  for (const Consistency* c : sorted_checks(r)) {
    if (c->outcome != Outcome::fail && c->tied.empty()) continue;
    if (!header) out += "\n### Outliers and ties\n";
    header = true;
    std::string ref = c->reference == "policy" ? "Reference: the policy value `" + md_escape(c->baseline) + "`."
                      : c->reference == "majority" ? "Baseline `" + md_escape(c->baseline) + "` (majority)."
                      : c->reference == "baseline" ? "Baseline `" + md_escape(c->baseline) + "` (the baseline host " +
                                                         md_escape(r.baseline) + ")."
                      : c->reference == "release notes"
                          ? "The pairs in the driver's release notes: `" + md_escape(c->baseline) + "`. " +
                                md_escape(c->message) + "."
                          : "No reference: " + md_escape(c->message) + ".";
    out += fmt::format("\n#### `{}`: {} ({})\n\n{}\n\n| host | NIC | value |\n|---|---|---|\n", c->rule,
                       c->setting, md_escape(c->group), ref);
    const std::vector<Outlier>& rows = c->outliers.empty() ? c->tied : c->outliers;
    std::size_t shown = 0;
    for (const Outlier& ol : rows) {
      if (shown++ == o.max_outliers) {
        out += fmt::format("| ... | {} more | see the JSON report |\n", rows.size() - o.max_outliers);
        break;
      }
      out += fmt::format("| {} | `{}` | `{}` |\n", md_escape(ol.host), md_escape(ol.subject), md_escape(ol.value));
    }
  }
  if (!r.dpus.empty()) {
    out += "\n### BlueField DPUs (port QoS set on the card's Arm side)\n\n";
    for (const DpuPairing& d : r.dpus) out += "- " + md_escape(d.message) + "\n";
  }
  if (!r.cross.multi_host.empty()) {
    out += "\n### Multi-Host NICs\n\n| physical NIC | model | PFs (host: NIC) | firmware NV (once) |\n|---|---|---|---|\n";
    for (const MultiHostNic& m : r.cross.multi_host) {
      std::string pfs, nv;
      for (const Outlier& p : m.pfs) pfs += (pfs.empty() ? "" : ", ") + p.host + ": `" + p.subject + "`";
      for (const auto& [k, v] : m.nv) nv += (nv.empty() ? "" : ", ") + k + "=" + v;
      out += fmt::format("| {} | {} | {} | {} |\n", md_escape(m.key), md_escape(m.model), md_escape(pfs),
                         nv.empty() ? "not collected" : md_escape(nv));
    }
  }
  out += "\n### Top problems (per-host rules)\n\n| rule | severity | hosts failing | hosts unknown | hosts passing | why unknown (example) |\n"
         "|---|---|---|---|---|---|\n";
  for (const RuleTally& t : r.rules)
    if (t.hosts_fail || t.hosts_unknown)
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", t.rule, to_string(t.severity), t.hosts_fail,
                         t.hosts_unknown, t.hosts_pass,
                         t.hosts_unknown && !t.unknown_example.empty() ? md_escape(t.unknown_example) : "-");
  out += "\n### Hosts with failures or outliers\n\n| host | file | NICs | failing findings | outliers |\n"
         "|---|---|---|---|---|\n";
  auto by_host = outliers_by_host(r);
  std::size_t shown = 0;
  for (const HostSummary& h : r.hosts) {
    auto it = by_host.find(h.host);
    std::size_t outl = it == by_host.end() ? 0 : it->second.size();
    if (h.loaded && h.failures.empty() && outl == 0) continue;
    if (shown++ == o.max_hosts_detail) {
      out += "| ... | | | | see the JSON report |\n";
      break;
    }
    if (!h.loaded) {
      out += fmt::format("| {} | `{}` | - | not loaded: {} | |\n", md_escape(h.host), md_escape(h.file), md_escape(h.error));
      continue;
    }
    std::string fails, outs;
    for (const HostFinding& f : h.failures) fails += (fails.empty() ? "" : "<br>") + ("`" + f.rule.str() + "` " + f.subject);
    for (std::size_t i = 0; i < outl; ++i)
      outs += (outs.empty() ? "" : "<br>") + ("`" + it->second[i].check->setting + "` " +
                                              it->second[i].outlier->subject + " = " + it->second[i].outlier->value);
    out += fmt::format("| {} | `{}` | {} | {} | {} |\n", md_escape(h.host), md_escape(h.file), h.nics.size(),
                       md_escape(fails), md_escape(outs));
  }
  if (!r.plans.empty())
    out += "\n### Actions per outlier host\n\n`rocekit plan`'s steps that bring each outlier host to the reference "
           "value (`-f sh -o DIR` or `-f ansible` writes them).\n\n| host | actions (port kind: current -> desired "
           "[disruption]: command) |\n|---|---|\n";
  shown = 0;
  for (const HostPlan& p : r.plans) {
    if (shown++ == o.max_hosts_detail) {
      out += "| ... | see the JSON report |\n";
      break;
    }
    std::string cell;
    for (const std::string& l : host_plan_lines(p)) cell += (cell.empty() ? "" : "<br>") + md_escape(l);
    out += fmt::format("| {} | {} |\n", md_escape(p.host), cell);
  }
  return out;
}

}  // namespace

bool render_to(std::ostream& os, const FleetReport& r, Format f, const RenderOptions& o) {
  if (f == Format::json) write_json(os, r, o);
  else os << render(r, f, o);
  return static_cast<bool>(os);
}

std::string render(const FleetReport& r, Format f, const RenderOptions& o) {
  switch (f) {
    // Host names, subjects and values come from inputs: no terminal escapes get through.
    case Format::text: return text::escape_control(render_text(r, o), true);
    case Format::json: {
      std::ostringstream os;
      write_json(os, r, o);
      return std::move(os).str();
    }
    case Format::markdown: return text::escape_control(render_markdown(r, o), true);
    case Format::html: return render_html(r, o);  // escapes as HTML itself
  }
  return {};
}

}  // namespace rk::fleet

#include "rocekit/render/render.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/model/json.hpp"

namespace rk::render {
namespace {

int outcome_rank(Outcome o) {
  switch (o) {
    case Outcome::fail: return 0;
    case Outcome::unknown: return 1;
    case Outcome::pass: return 2;
    case Outcome::not_applicable: return 3;
  }
  return 4;
}

std::string colour(const Options& o, Outcome out, std::string_view text) {
  if (!o.color) return std::string(text);
  const char* c = "";
  switch (out) {
    case Outcome::fail: c = "\x1b[1;31m"; break;
    case Outcome::unknown: c = "\x1b[33m"; break;
    case Outcome::pass: c = "\x1b[32m"; break;
    case Outcome::not_applicable: c = "\x1b[2m"; break;
  }
  return std::string(c) + std::string(text) + "\x1b[0m";
}


// Values from inputs (names, capture lines) go through text::escape_control before printing.
std::string safe(std::string_view t) { return text::escape_control(t); }

std::string evidence_line(const Evidence& e) {
  std::string loc = safe(e.file);
  if (e.line) loc += ":" + std::to_string(e.line);
  if (e.text.empty()) return loc;
  if (loc.empty()) return safe(e.text);
  return loc + ": " + safe(e.text);
}

/// Describes a subject with the objects linked to it: "eth01 (mlx5_0/1, 0000:2f:00.0)".
std::string describe_subject(const Snapshot& s, const std::string& subject) {
  std::vector<std::string> rel;
  if (const NetDev* n = s.find_netdev(subject)) {
    if (n->rdma_device) rel.push_back(*n->rdma_device + (n->rdma_port ? "/" + std::to_string(*n->rdma_port) : ""));
    if (n->bdf) rel.push_back(*n->bdf);
  } else if (const PciFunction* p = s.find_pci(subject)) {
    if (p->device_name) rel.push_back(*p->device_name);
    for (const NetDev& nd : s.netdevs)
      if (nd.bdf && *nd.bdf == subject) rel.push_back(nd.name);
  } else if (auto slash = subject.find('/'); slash != std::string::npos) {
    std::string dev = subject.substr(0, slash);
    for (const RdmaDevice& d : s.rdma_devices)
      if (d.name == dev) {
        for (const RdmaPort& port : d.ports)
          if (subject == dev + "/" + std::to_string(port.port) && port.netdev)
            rel.push_back(*port.netdev);
        if (d.bdf) rel.push_back(*d.bdf);
      }
  }
  if (rel.empty()) return safe(subject);
  std::string out = subject + " (";
  for (std::size_t i = 0; i < rel.size(); ++i) out += (i ? ", " : "") + rel[i];
  return safe(out + ")");
}

struct Group {
  std::string subject;
  std::vector<const Finding*> findings;
  int best_rank = 9;
};

std::vector<Group> group_findings(const rules::Report& r) {
  std::vector<Group> groups;
  std::map<std::string, std::size_t> index;
  for (const Finding& f : r.findings) {
    auto it = index.find(f.subject);
    if (it == index.end()) {
      it = index.emplace(f.subject, groups.size()).first;
      groups.push_back(Group{f.subject, {}, 9});
    }
    Group& g = groups[it->second];
    g.findings.push_back(&f);
    g.best_rank = std::min(g.best_rank, outcome_rank(f.outcome));
  }
  for (Group& g : groups)
    std::stable_sort(g.findings.begin(), g.findings.end(), [](const Finding* a, const Finding* b) {
      return outcome_rank(a->outcome) < outcome_rank(b->outcome);
    });
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.best_rank < b.best_rank; });
  return groups;
}

std::string summary_line(const rules::Report& r) {
  return fmt::format("{} fail, {} unknown, {} pass, {} not applicable", r.count(Outcome::fail),
                     r.count(Outcome::unknown), r.count(Outcome::pass),
                     r.count(Outcome::not_applicable));
}

}  // namespace

std::string outcome_label(Outcome o) {
  switch (o) {
    case Outcome::fail: return "FAIL";
    case Outcome::unknown: return "UNKNOWN";
    case Outcome::pass: return "pass";
    case Outcome::not_applicable: return "n/a";
  }
  return "?";
}

std::string report_text(const Snapshot& s, const rules::Report& r, const Options& o) {
  std::string out;
  out += fmt::format("rocekit check: {} ({})\n", s.hostname.empty() ? "host" : safe(s.hostname),
                     safe(s.source.path.empty() ? str(s.source.kind) : s.source.path));
  out += fmt::format("policy {}: {}\n", o.policy_name, summary_line(r));
  for (const std::string& n : s.notes) out += "note: " + safe(n) + "\n";
  for (const Group& g : group_findings(r)) {
    out += "\n" + describe_subject(s, g.subject) + "\n";
    for (const Finding* f : g.findings) {
      bool quiet = f->outcome == Outcome::pass || f->outcome == Outcome::not_applicable;
      if (quiet && !o.show_passes) continue;
      std::string head = fmt::format("  {:<8} {:<28} {}", outcome_label(f->outcome), f->rule, safe(f->message));
      if (f->outcome == Outcome::fail)
        head = fmt::format("  {:<8} {:<28} [{}] {}", outcome_label(f->outcome), f->rule,
                           to_string(f->severity), safe(f->message));
      out += colour(o, f->outcome, head) + "\n";
      if (quiet) continue;
      for (const Evidence& e : f->evidence) out += "           evidence: " + evidence_line(e) + "\n";
      if (f->outcome == Outcome::fail) {
        if (const rules::RuleInfo* info = rules::find_rule(f->rule))
          out += "           why: " + std::string(info->rationale) + "\n";
        for (const std::string& c : f->remediation.commands) out += "           fix: $ " + safe(c) + "\n";
        if (!f->remediation.notes.empty())
          out += "           note (" + std::string(to_string(f->remediation.scope)) +
                 "): " + safe(f->remediation.notes) + "\n";
      }
    }
  }
  std::size_t bad_inputs = 0;
  for (const InputFile& in : s.inputs)
    if (in.status == "error" || in.status == "ignored" || in.status == "parsed_with_warnings")
      ++bad_inputs;
  if (bad_inputs) {
    out += "\ninput problems:\n";
    for (const InputFile& in : s.inputs) {
      if (in.status == "parsed") continue;
      out += fmt::format("  {} [{}{}]\n", safe(in.file), in.status, in.tool.empty() ? "" : ", " + in.tool);
      for (const std::string& m : in.messages) out += "    " + safe(m) + "\n";
    }
  }
  return out;
}

nlohmann::json report_json(const Snapshot& s, const rules::Report& r, const Options& o) {
  nlohmann::json j;
  j["report_version"] = 1;
  j["tool_version"] = s.tool_version;
  j["hostname"] = s.hostname;
  j["source"] = s.source;
  j["policy"] = o.policy_name;
  j["summary"] = {{"fail", r.count(Outcome::fail)},
                  {"unknown", r.count(Outcome::unknown)},
                  {"pass", r.count(Outcome::pass)},
                  {"not_applicable", r.count(Outcome::not_applicable)}};
  nlohmann::json fs = nlohmann::json::array();
  for (const Finding& f : r.findings) {
    nlohmann::json x;
    x["rule"] = f.rule;
    x["subject"] = f.subject;
    x["outcome"] = std::string(to_string(f.outcome));
    x["severity"] = std::string(to_string(f.severity));
    x["message"] = f.message;
    x["evidence"] = f.evidence;
    x["remediation"] = {{"commands", f.remediation.commands},
                        {"notes", f.remediation.notes},
                        {"scope", std::string(to_string(f.remediation.scope))}};
    // The fix as data (rk::fix): what changes, and per backend the argv and its read-back.
    if (!f.remediation.action.empty()) {
      nlohmann::json& rem = x["remediation"];
      rem["action"] = f.remediation.action;
      rem["current"] = f.remediation.current;
      rem["desired"] = f.remediation.desired;
      nlohmann::json steps = nlohmann::json::array();
      for (const FixStep& st : f.remediation.steps) {
        nlohmann::json y;
        y["tool"] = st.tool;
        if (st.write_path)
          y["write"] = {{"path", *st.write_path}, {"value", st.write_value}};
        else
          y["argv"] = st.argv;
        if (!st.check_argv.empty()) y["check_argv"] = st.check_argv;
        y["check_regex"] = st.check_regex;
        if (!st.needs.empty()) y["needs"] = st.needs;
        steps.push_back(std::move(y));
      }
      rem["steps"] = std::move(steps);
    }
    fs.push_back(std::move(x));
  }
  j["findings"] = std::move(fs);
  j["inputs"] = s.inputs;
  j["notes"] = s.notes;
  return j;
}

std::string report_markdown(const Snapshot& s, const rules::Report& r, const Options& o) {
  auto esc = [](const std::string& t) {
    std::string out;
    for (char c : t) {
      if (c == '|') out += "\\|";
      else if (c == '\n') out += ' ';
      else out += c;
    }
    return safe(out);
  };
  std::string out = fmt::format("## rocekit check: {}\n\n", esc(s.hostname.empty() ? s.source.path : s.hostname));
  out += fmt::format("Policy `{}`: **{}**\n\n", o.policy_name, summary_line(r));
  for (const std::string& n : s.notes) out += "> " + esc(n) + "\n\n";
  out += "| outcome | severity | rule | subject | finding |\n|---|---|---|---|---|\n";
  std::vector<const Finding*> sorted;
  for (const Finding& f : r.findings) sorted.push_back(&f);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Finding* a, const Finding* b) {
    return outcome_rank(a->outcome) < outcome_rank(b->outcome);
  });
  for (const Finding* f : sorted)
    out += fmt::format("| {} | {} | `{}` | `{}` | {} |\n", outcome_label(f->outcome), to_string(f->severity),
                       f->rule, esc(f->subject), esc(f->message));
  bool header = false;
  for (const Finding* f : sorted) {
    if (f->outcome != Outcome::fail) continue;
    if (!header) {
      out += "\n### Failures and fixes\n";
      header = true;
    }
    out += fmt::format("\n#### `{}` on `{}`\n\n{}\n\n", f->rule, esc(f->subject), esc(f->message));
    for (const Evidence& e : f->evidence) out += "- evidence: `" + evidence_line(e) + "`\n";
    if (!f->remediation.commands.empty()) {
      out += "\n```sh\n";
      for (const std::string& c : f->remediation.commands) out += safe(c) + "\n";
      out += "```\n";
    }
    if (!f->remediation.notes.empty())
      out += fmt::format("\n*{}*: {}\n", to_string(f->remediation.scope), esc(f->remediation.notes));
  }
  return out;
}

std::string report(const Snapshot& s, const rules::Report& r, Format f, const Options& o) {
  switch (f) {
    case Format::text: return report_text(s, r, o);
    case Format::json: return report_json(s, r, o).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    case Format::markdown: return report_markdown(s, r, o);
  }
  return {};
}

namespace {

std::string outcome_names(rules::OutcomeSet set) {
  std::string out;
  for (Outcome o : set.list()) out += (out.empty() ? "" : ", ") + std::string(to_string(o));
  return out;
}

std::string_view family_heading(rules::Family f) {
  switch (f) {
    case rules::Family::host: return "Host rules";
    case rules::Family::switch_port: return "Switch alignment rules";
    case rules::Family::fleet: return "Fleet rules";
    case rules::Family::diagnose: return "Diagnosis rules";
  }
  return "Rules";
}

std::string_view family_intro(rules::Family f) {
  switch (f) {
    case rules::Family::host:
      return "One host's snapshot (a capture, a snapshot JSON or a live collection) against the "
             "policy. Each rule gives one finding per subject; a missing input is `unknown` with "
             "the reason, never a pass.";
    case rules::Family::switch_port:
      return "A host snapshot against a switch QoS configuration (SONiC config_db, Dell Enterprise "
             "SONiC sonic-cli, NVUE JSON or commands, Arista EOS, Cisco NX-OS, Juniper Junos), "
             "one finding per switch port <-> host netdev pair of the port map.";
    case rules::Family::fleet:
      return "Cross-host checks: per setting, the majority value across the group is the baseline "
             "and every NIC with another value is an outlier (fail). When the majority violates the "
             "policy, or two values tie, the policy's value is the reference and the NICs that "
             "violate it are the outliers; a tie the policy does not settle is unknown (\"tie: 2 "
             "NICs say X, 2 say Y\"), and so is a group where fewer than two NICs report the "
             "setting. A NIC that does not report the setting is counted as unknown with the "
             "reason, never as agreeing.";
    case rules::Family::diagnose:
      return "Counter deltas between two or more samples of one host. fail: a cause at warning or "
             "above is reported; pass: no such cause (an info cause describes healthy "
             "behaviour); unknown: the rule is listed under the report's unknowns with the "
             "reason.";
  }
  return "";
}

constexpr rules::Family k_families[] = {rules::Family::host, rules::Family::switch_port,
                                        rules::Family::fleet, rules::Family::diagnose};

nlohmann::json rule_json(const rules::RuleInfo& r) {
  nlohmann::json j = {{"id", r.id},
                      {"family", rules::to_string(r.family)},
                      {"command", rules::command_of(r.family)},
                      {"title", r.title},
                      {"severity", to_string(r.severity)},
                      {"subject", r.subject},
                      {"rationale", r.rationale},
                      {"seed", r.seed},
                      {"inputs", r.inputs}};
  nlohmann::json outcomes = nlohmann::json::array();
  for (Outcome o : r.outcomes.list()) outcomes.push_back(to_string(o));
  j["outcomes"] = std::move(outcomes);
  if (!r.host_fix.empty()) j["host_fix"] = r.host_fix;
  if (!r.switch_fix.empty()) j["switch_fix"] = r.switch_fix;
  if (!r.setting.empty()) j["setting"] = r.setting;
  if (!r.value_form.empty()) j["value_form"] = r.value_form;
  return j;
}

void markdown_section(std::string& out, rules::Family f) {
  const std::vector<rules::RuleInfo>& rows = rules::rules_of(f);
  out += fmt::format("\n## {} (`{}`)\n\n{}\n\n| id | severity | subject | outcomes | title |\n"
                     "|---|---|---|---|---|\n",
                     family_heading(f), rules::command_of(f), family_intro(f));
  for (const rules::RuleInfo& r : rows)
    out += fmt::format("| `{}` | {} | {} | {} | {} |\n", r.id, to_string(r.severity), r.subject,
                       outcome_names(r.outcomes), r.title);
  for (const rules::RuleInfo& r : rows) {
    out += fmt::format("\n### `{}`\n\n{}\n\n- Why: {}\n- Reads: {}\n", r.id, r.title, r.rationale,
                       r.inputs);
    if (!r.value_form.empty()) out += fmt::format("- Value compared: {}\n", r.value_form);
    if (!r.host_fix.empty()) out += fmt::format("- Fix (host): {}\n", r.host_fix);
    if (!r.switch_fix.empty()) out += fmt::format("- Fix (switch): {}\n", r.switch_fix);
    if (!r.seed.empty()) out += fmt::format("- References: {}\n", r.seed);
  }
}

}  // namespace

std::string rules_list(Format f, std::optional<rules::Family> only) {
  std::string out;
  if (f == Format::markdown) {
    if (!only)
      out += "# rocekit rules\n\nGenerated by `rocekit rules list --format markdown` from the rule "
             "registry (src/rocekit/rules/). Rule ids are a public contract. A policy's `rules:` "
             "section may disable or re-grade host, switch and fleet rules.\n";
    for (rules::Family fam : k_families)
      if (!only || *only == fam) markdown_section(out, fam);
    return out;
  }
  if (f == Format::json) {
    nlohmann::json j = nlohmann::json::array();
    for (const rules::RuleInfo& r : rules::registry())
      if (!only || *only == r.family) j.push_back(rule_json(r));
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  for (const rules::RuleInfo& r : rules::registry())
    if (!only || *only == r.family)
      out += fmt::format("{:<34} {:<8} {:<9} {}\n", r.id, rules::to_string(r.family),
                         to_string(r.severity), r.title);
  return out;
}

std::string rule_explain(std::string_view id) {
  const rules::RuleInfo* r = rules::find_rule(id);
  if (!r) return {};
  std::string out = fmt::format("{}: {}\nfamily: {} ({})\nseverity: {}\nsubject: {}\noutcomes: {}\n"
                                "why: {}\nreads: {}\n",
                                r->id, r->title, rules::to_string(r->family),
                                rules::command_of(r->family), to_string(r->severity), r->subject,
                                outcome_names(r->outcomes), r->rationale, r->inputs);
  if (!r->value_form.empty()) out += fmt::format("value compared: {}\n", r->value_form);
  if (!r->host_fix.empty()) out += fmt::format("fix (host): {}\n", r->host_fix);
  if (!r->switch_fix.empty()) out += fmt::format("fix (switch): {}\n", r->switch_fix);
  if (!r->seed.empty()) out += fmt::format("references: {}\n", r->seed);
  return out;
}

}  // namespace rk::render

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
                     safe(s.source.path.empty() ? s.source.kind : s.source.path));
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

std::string rules_list(Format f) {
  std::string out;
  if (f == Format::markdown) {
    out += "# rocekit rules\n\nGenerated by `rocekit rules list --format markdown`. Rule ids are a "
           "public contract.\n\n| id | severity | subject | title |\n|---|---|---|---|\n";
    for (const rules::RuleInfo& r : rules::all_rules())
      out += fmt::format("| `{}` | {} | {} | {} |\n", r.id, to_string(r.severity), r.subject, r.title);
    for (const rules::RuleInfo& r : rules::all_rules())
      out += fmt::format("\n## `{}`\n\n{}\n\n- Why: {}\n- Seed: {}\n", r.id, r.title, r.rationale, r.seed);
    return out;
  }
  if (f == Format::json) {
    nlohmann::json j = nlohmann::json::array();
    for (const rules::RuleInfo& r : rules::all_rules())
      j.push_back({{"id", r.id}, {"title", r.title}, {"severity", to_string(r.severity)},
                   {"subject", r.subject}, {"rationale", r.rationale}, {"seed", r.seed}});
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  for (const rules::RuleInfo& r : rules::all_rules())
    out += fmt::format("{:<28} {:<9} {}\n", r.id, to_string(r.severity), r.title);
  return out;
}

std::string rule_explain(std::string_view id) {
  const rules::RuleInfo* r = rules::find_rule(id);
  if (!r) return {};
  return fmt::format("{}: {}\nseverity: {}\nsubject: {}\nwhy: {}\nseed: {}\n", r->id, r->title,
                     to_string(r->severity), r->subject, r->rationale, r->seed);
}

}  // namespace rk::render

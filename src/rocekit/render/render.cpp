#include "rocekit/render/render.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/render/gate.hpp"
#include "rocekit/render/summary.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/qos_scope.hpp"

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

std::string colour(const Options& o, Outcome out, std::string_view text) { return paint(o.color, out, text); }

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

namespace {

bool hidden(const Options& o, Outcome out) {
  switch (out) {
    case Outcome::pass: return o.hide_pass;
    case Outcome::not_applicable: return o.hide_not_applicable || o.hide_pass;
    case Outcome::unknown: return o.hide_unknown;
    case Outcome::fail: return false;
  }
  return false;
}

/// "a, b, c (+4 more)".
std::string subject_list(const std::vector<std::string>& v, std::size_t max = 8) {
  std::string out;
  for (std::size_t i = 0; i < v.size() && i < max; ++i) out += (i ? ", " : "") + safe(v[i]);
  if (v.size() > max) out += fmt::format(" (+{} more)", v.size() - max);
  return out;
}

std::string rule_list(const std::vector<std::string>& v, std::size_t max = 3) {
  std::string out;
  for (std::size_t i = 0; i < v.size() && i < max; ++i) out += (i ? ", " : "") + v[i];
  if (v.size() > max) out += fmt::format(" +{} more", v.size() - max);
  return out;
}

std::string verdict_line(const Summary& sum, const rules::Report& r) {
  std::size_t fails = r.count(Outcome::fail);
  switch (sum.verdict) {
    case Verdict::fail: {
      std::map<Severity, std::size_t> by;
      for (const Finding& f : r.findings)
        if (f.outcome == Outcome::fail) ++by[f.severity];
      std::string sev;
      for (auto it = by.rbegin(); it != by.rend(); ++it)
        sev += (sev.empty() ? "" : ", ") + fmt::format("{} {}", it->second, to_string(it->first));
      return fmt::format("FAIL: {} {} on {} {} ({})", sum.failing.size(),
                         sum.failing.size() == 1 ? "rule fails" : "rules fail", fails,
                         fails == 1 ? "subject" : "subjects", sev);
    }
    case Verdict::not_judged:
      return sum.no_roce_port ? "NOT JUDGED: no RDMA device and no RoCE netdev in the input"
                              : "NOT JUDGED: no rule could pass or fail on this input";
    case Verdict::gaps:
      return fmt::format("PASS WITH GAPS: no failure, but {} checks were not judged", r.count(Outcome::unknown));
    case Verdict::pass: return "PASS: every rule passed or does not apply";
  }
  return "";
}

/// How long a fix lasts, in words (Markdown).
std::string_view scope_words(FixScope s) {
  switch (s) {
    case FixScope::runtime: return "runtime, lost at reboot";
    case FixScope::persistent: return "persistent";
    case FixScope::firmware_reboot: return "firmware, takes effect after a reboot or firmware reset";
    case FixScope::hardware: return "hardware";
    case FixScope::none: return "manual";
  }
  return "";
}

std::string join_text(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& x : v) out += (out.empty() ? "" : "; ") + x;
  return out;
}

void input_problems_text(const Snapshot& s, std::string& out) {
  std::size_t bad_inputs = 0;
  std::vector<std::string> unused;
  for (const InputFile& in : s.inputs) {
    if (in.status == "unused") unused.push_back(safe(in.file));
    else if (in.status != "parsed") ++bad_inputs;
  }
  if (!unused.empty()) out += "read but not used by any rule yet: " + join_text(unused) + "\n";
  if (!bad_inputs) return;
  out += fmt::format("input problems ({} {}):\n", bad_inputs, bad_inputs == 1 ? "file" : "files");
  for (const InputFile& in : s.inputs) {
    if (in.status == "parsed" || in.status == "unused") continue;
    out += fmt::format("  {} [{}{}]\n", safe(in.file), in.status, in.tool.empty() ? "" : ", " + in.tool);
    for (const std::string& m : in.messages) out += "    " + safe(m) + "\n";
  }
}

void shell_block_text(std::string& out, std::string_view label, const ShellLines& lines) {
  for (std::size_t i = 0; i < lines.size(); ++i)
    out += fmt::format("      {:<7}$ {}\n", i ? "" : std::string(label) + ":", safe(lines[i]));
}

void summary_text(const rules::Report& r, const Summary& sum, const Options& o, std::string& out) {
  for (const RuleSummary& rs : sum.failing) {
    out += "\n" + colour(o, Outcome::fail, fmt::format("FAIL  {} [{}] on {}", rs.rule, to_string(rs.severity),
                                                          subject_list(rs.subjects)));
    out += "\n      " + safe(rs.findings.front()->message) +
           (rs.messages_differ ? fmt::format(" (first of {})", rs.findings.size()) : "") + "\n";
    shell_block_text(out, "fix", rs.fix);
    if (!rs.alternative.empty() && o.detail) shell_block_text(out, "or", rs.alternative);
    if (rs.fix.empty() && !rs.checks.empty()) shell_block_text(out, "check", rs.checks);
  }
  if (!o.hide_unknown && (!sum.missing.empty() || !sum.other_unknowns.empty())) {
    std::size_t n = r.count(Outcome::unknown);
    out += "\n" + colour(o, Outcome::unknown, fmt::format("NOT JUDGED  {} {}", n, n == 1 ? "check" : "checks"));
    if (!sum.missing.empty()) {
      out += ": the capture lacks these outputs\n  run on the host, save the files into the capture and "
             "check again (or capture everything: sh scripts/rocekit-capture -o DIR -z):\n";
      for (const MissingOutput& m : sum.missing) {
        std::string why = "# " + rule_list(m.rules) + (m.host_failure.empty() ? "" : "; " + m.host_failure);
        if (m.commands.empty()) {
          out += fmt::format("  {} ({}): collected by scripts/rocekit-capture  {}\n", m.tool,
                             subject_list(m.subjects, 4), why);
          continue;
        }
        for (const std::string& c : m.commands) out += "  $ " + safe(c) + "  " + why + "\n";
      }
    } else {
      out += "\n";
    }
    for (const RuleSummary& u : sum.other_unknowns) {
      std::string msg = u.findings.front()->message;
      if (msg.size() > 160) msg = msg.substr(0, 157) + "...";  // whole in --detail
      out += fmt::format("  {} on {}: {}{}\n", u.rule, subject_list(u.subjects, 4), safe(msg),
                         u.messages_differ ? fmt::format(" (first of {})", u.findings.size()) : "");
    }
  }
  if (!sum.passing.empty() && !o.hide_pass) {
    std::vector<std::string> parts;
    for (const auto& [rule, n] : sum.passing) parts.push_back(n > 1 ? fmt::format("{} x{}", rule, n) : rule);
    out += "\n" + colour(o, Outcome::pass, "PASS  " + rule_list(parts, 6)) + "\n";
  }
}

void detail_by_subject(const Snapshot& s, const rules::Report& r, const Options& o, std::string& out) {
  for (const Group& g : group_findings(r)) {
    std::string body;
    for (const Finding* f : g.findings) {
      if (hidden(o, f->outcome)) continue;
      bool quiet = f->outcome == Outcome::pass || f->outcome == Outcome::not_applicable;
      std::string head = fmt::format("  {:<8} {:<28} {}", outcome_label(f->outcome), f->rule, safe(f->message));
      if (f->outcome == Outcome::fail)
        head = fmt::format("  {:<8} {:<28} [{}] {}", outcome_label(f->outcome), f->rule,
                           to_string(f->severity), safe(f->message));
      body += colour(o, f->outcome, head) + "\n";
      if (quiet) continue;
      for (const Evidence& e : f->evidence) body += "           evidence: " + evidence_line(e) + "\n";
      if (f->outcome != Outcome::fail) continue;
      if (const rules::RuleInfo* info = rules::find_rule(f->rule))
        body += "           why: " + std::string(info->rationale) + "\n";
      for (const std::string& c : f->remediation.commands) body += "           fix: $ " + safe(c) + "\n";
      for (const std::string& c : f->remediation.alternative)
        body += "           or, with " + safe(f->remediation.alternative_tool) + " instead: $ " + safe(c) + "\n";
      for (const std::string& c : f->remediation.checks) body += "           check: $ " + safe(c) + "\n";
      if (!f->remediation.notes.empty())
        body += "           note (" + std::string(to_string(f->remediation.scope)) + "): " + safe(f->remediation.notes) + "\n";
    }
    if (!body.empty()) out += "\n" + describe_subject(s, g.subject) + "\n" + body;
  }
}

void detail_by_rule(const Snapshot& s, const rules::Report& r, const Options& o, std::string& out) {
  std::vector<std::string> order;
  for (const Finding& f : r.findings)
    if (std::find(order.begin(), order.end(), f.rule) == order.end()) order.push_back(f.rule);
  for (const std::string& rule : order) {
    std::string body;
    for (int rank = 0; rank < 4; ++rank)
      for (const Finding& f : r.findings) {
        if (f.rule != rule || outcome_rank(f.outcome) != rank || hidden(o, f.outcome)) continue;
        body += colour(o, f.outcome, fmt::format("  {:<8} {:<24} {}", outcome_label(f.outcome),
                                                 describe_subject(s, f.subject), safe(f.message))) + "\n";
        if (f.outcome == Outcome::fail || f.outcome == Outcome::unknown)
          for (const Evidence& e : f.evidence) body += "           evidence: " + evidence_line(e) + "\n";
      }
    if (!body.empty()) out += "\n" + rule + "\n" + body;
  }
}

/// Where a BlueField's port QoS was judged, said before the findings (the rules' own decision,
/// rules::port_qos_elsewhere): the Arm side of a DPU, or a host whose DPU-mode PFs are judged there.
void bluefield_side_text(const Snapshot& s, const rules::Report& r, std::string& out) {
  const std::optional<std::string> arm = bluefield_arm_side(s);
  if (arm) out += "Arm side of a BlueField: " + safe(*arm) + "; the port QoS rules judge the uplinks, not the representors\n";
  // What the Arm side has and its DOCA services take, next to select's assumption (a failure is
  // in the summary below).
  constexpr std::string_view k_prefix = "Arm side of a BlueField: ";
  for (const Finding& f : r.findings)
    if (arm && f.rule == "dpu.service-resources" && f.outcome == Outcome::pass)
      out += "DOCA services on the Arm side: " +
             safe(f.message.starts_with(k_prefix) ? f.message.substr(k_prefix.size()) : f.message) + "\n";
  std::vector<std::string> names;
  std::string why;
  for (const NetDev& n : s.netdevs)
    if (std::optional<std::string> elsewhere = rules::port_qos_elsewhere(s, n, arm); elsewhere && !arm) {
      names.push_back(n.name);
      if (why.empty()) why = *elsewhere;
    }
  if (!names.empty())
    out += "BlueField in DPU mode: the port QoS of " + safe(rules::join(names)) + " is not judged on this host: " +
           safe(why) + "\n";
}

}  // namespace

std::string report_text(const Snapshot& s, const rules::Report& r, const Options& o) {
  Summary sum = summarize(s, r);
  std::string out;
  out += fmt::format("rocekit check: {} ({})\n", s.hostname.empty() ? "host" : safe(s.hostname),
                     safe(s.source.path.empty() ? str(s.source.kind) : s.source.path));
  out += fmt::format("policy {}: {}\n", o.policy_name, summary_line(r));
  out += verdict_line(sum, r) + "\n";
  if (sum.verdict == Verdict::fail && sum.no_roce_port)
    out += "not judged: no RDMA device and no RoCE netdev in the input (exit 3 unless a failure counts)\n";
  for (const std::string& n : s.notes) out += "note: " + safe(n) + "\n";
  bluefield_side_text(s, r, out);
  input_problems_text(s, out);
  summary_text(r, sum, o, out);
  if (!o.detail) {
    out += "\nper-subject detail (evidence, why, alternatives, checks): add --detail\n";
    return out;
  }
  out += "\n---- detail ----\n";
  if (o.group_by == GroupBy::rule) detail_by_rule(s, r, o, out);
  else detail_by_subject(s, r, o, out);
  return out;
}

nlohmann::json report_json(const Snapshot& s, const rules::Report& r, const Options& o) {
  nlohmann::json j;
  j["report_version"] = 1;
  j["tool_version"] = s.tool_version;
  j["hostname"] = s.hostname;
  j["source"] = s.source;
  j["policy"] = o.policy_name;
  // Taken on a BlueField's Arm side: why (the text report's "Arm side of a BlueField" line).
  if (std::optional<std::string> arm = bluefield_arm_side(s)) j["bluefield_arm_side"] = *arm;
  j["summary"] = {{"fail", r.count(Outcome::fail)},
                  {"unknown", r.count(Outcome::unknown)},
                  {"pass", r.count(Outcome::pass)},
                  {"not_applicable", r.count(Outcome::not_applicable)}};
  Summary sum = summarize(s, r);
  j["verdict"] = std::string(to_string(sum.verdict));
  nlohmann::json failing = nlohmann::json::array();
  for (const RuleSummary& rs : sum.failing) {
    nlohmann::json x = {{"rule", rs.rule}, {"severity", std::string(to_string(rs.severity))},
                        {"subjects", rs.subjects}, {"message", rs.findings.front()->message},
                        {"fix", rs.fix}, {"checks", rs.checks}};
    if (!rs.alternative.empty()) x["alternative"] = {{"tool", rs.alternative_tool}, {"commands", rs.alternative}};
    failing.push_back(std::move(x));
  }
  j["failing_rules"] = std::move(failing);
  nlohmann::json missing = nlohmann::json::array();
  for (const MissingOutput& m : sum.missing)
    missing.push_back({{"tool", m.tool}, {"commands", m.commands}, {"rules", m.rules},
                       {"subjects", m.subjects}, {"findings", m.findings}, {"host_failure", m.host_failure}});
  j["missing_outputs"] = std::move(missing);
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
                        {"checks", f.remediation.checks},
                        {"notes", f.remediation.notes},
                        {"scope", std::string(to_string(f.remediation.scope))}};
    if (!f.remediation.alternative.empty())
      x["remediation"]["alternative"] = {{"tool", f.remediation.alternative_tool},
                                         {"commands", f.remediation.alternative}};
    // The value found and the value the policy wants, where the rule states them as data.
    x["actual"] = f.remediation.action.empty() ? nlohmann::json() : nlohmann::json(f.remediation.current);
    x["expected"] = f.remediation.action.empty() ? nlohmann::json() : nlohmann::json(f.remediation.desired);
    if (f.reason_kind != ReasonKind::none) x["reason_kind"] = f.reason_kind;
    if (!f.needs.empty()) x["needs"] = f.needs;
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
  auto block = [](std::string& out, const ShellLines& lines) {
    out += "\n```sh\n";
    for (const std::string& c : lines) out += safe(c) + "\n";
    out += "```\n";
  };
  Summary sum = summarize(s, r);
  std::string out = fmt::format("## rocekit check: {}\n\n", esc(s.hostname.empty() ? s.source.path : s.hostname));
  out += fmt::format("Policy `{}`: {}\n\n**{}**\n\n", o.policy_name, summary_line(r), esc(verdict_line(sum, r)));
  for (const std::string& n : s.notes) out += "> " + esc(n) + "\n\n";
  bool problems = false;
  for (const InputFile& in : s.inputs) {
    if (in.status == "parsed" || in.status == "unused") continue;
    if (!problems) out += "### Input problems\n\n";
    problems = true;
    out += fmt::format("- `{}` ({}): {}\n", esc(in.file), in.status, esc(join_text(in.messages)));
  }
  if (problems) out += "\n";
  if (!sum.failing.empty()) out += "### Failures\n";
  for (const RuleSummary& rs : sum.failing) {
    out += fmt::format("\n#### `{}` ({}) on {}\n\n{}{}\n", rs.rule, to_string(rs.severity),
                       esc(subject_list(rs.subjects, 16)), esc(rs.findings.front()->message),
                       rs.messages_differ ? fmt::format(" (first of {})", rs.findings.size()) : "");
    bool listed = false;
    for (std::size_t i = 0; i < rs.findings.size() && i < 8; ++i)
      for (const Evidence& e : rs.findings[i]->evidence) {
        out += std::string(listed ? "" : "\n") + "- evidence (`" + esc(rs.findings[i]->subject) + "`): `" + evidence_line(e) + "`\n";
        listed = true;
      }
    if (!rs.fix.empty()) {
      out += fmt::format("\nFix ({}):\n", scope_words(rs.scope));
      block(out, rs.fix);
    }
    if (!rs.alternative.empty()) {
      out += fmt::format("\nOr, with `{}` instead (not both):\n", rs.alternative_tool);
      block(out, rs.alternative);
    }
    if (!rs.checks.empty()) {
      out += "\nCheck (read-only):\n";
      block(out, rs.checks);
    }
    for (const Finding* f : rs.findings)
      if (!f->remediation.notes.empty()) {
        out += "\n*Note*: " + esc(f->remediation.notes) + "\n";
        break;
      }
  }
  if (!o.hide_unknown && (!sum.missing.empty() || !sum.other_unknowns.empty())) {
    out += fmt::format("\n### Not judged ({})\n", r.count(Outcome::unknown));
    if (!sum.missing.empty()) {
      out += "\nThe capture lacks these outputs. Run on the host, save the files into the capture and "
             "check again (or capture everything with `sh scripts/rocekit-capture -o DIR -z`):\n";
      ShellLines lines;
      for (const MissingOutput& m : sum.missing) {
        lines.push_back("# " + rule_list(m.rules, 8) + (m.host_failure.empty() ? "" : "; " + m.host_failure));
        if (m.commands.empty()) lines.push_back("# " + m.tool + ": collected by scripts/rocekit-capture");
        for (const std::string& c : m.commands) lines.push_back(c);
      }
      block(out, lines);
    }
    if (!sum.other_unknowns.empty()) out += "\n";
    for (const RuleSummary& u : sum.other_unknowns)
      out += fmt::format("- `{}` on {}: {}\n", u.rule, esc(subject_list(u.subjects, 8)), esc(u.findings.front()->message));
  }
  out += fmt::format("\n<details><summary>All findings ({})</summary>\n\n", r.findings.size());
  out += "| outcome | severity | rule | subject | finding |\n|---|---|---|---|---|\n";
  std::vector<const Finding*> sorted;
  for (const Finding& f : r.findings)
    if (!hidden(o, f.outcome)) sorted.push_back(&f);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Finding* a, const Finding* b) {
    return outcome_rank(a->outcome) < outcome_rank(b->outcome);
  });
  for (const Finding* f : sorted)
    out += fmt::format("| {} | {} | `{}` | `{}` | {} |\n", outcome_label(f->outcome), to_string(f->severity),
                       f->rule, esc(f->subject), esc(f->message));
  out += "\n</details>\n";
  return out;
}

std::string report(const Snapshot& s, const rules::Report& r, Format f, const Options& o) {
  switch (f) {
    case Format::text: return report_text(s, r, o);
    case Format::json: return report_json(s, r, o).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    case Format::markdown: return report_markdown(s, r, o);
    case Format::junit: return report_junit(s, r, o);
  }
  return {};
}

}  // namespace rk::render

#include "rocekit/render/summary.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "rocekit/capture/tools.hpp"
#include "rocekit/core/shell.hpp"
#include "rocekit/rules/judged.hpp"

namespace rk::render {
namespace {

/// A name a subject's commands may contain, and the loop variable that stands for it.
struct Var {
  char name;  ///< n netdev, p RDMA port, d RDMA device, b PCI address, x anything else
  std::string value;
};

const RdmaPort* find_port(const Snapshot& s, const std::string& subject, const RdmaDevice** dev) {
  auto slash = subject.find('/');
  if (slash == std::string::npos) return nullptr;
  for (const RdmaDevice& d : s.rdma_devices)
    if (d.name == subject.substr(0, slash))
      for (const RdmaPort& p : d.ports)
        if (subject == d.name + "/" + std::to_string(p.port)) {
          *dev = &d;
          return &p;
        }
  return nullptr;
}

/// The names of a subject and of what it is linked to, most specific first.
std::vector<Var> subject_vars(const Snapshot& s, const std::string& subject) {
  std::vector<Var> v;
  if (const NetDev* n = s.find_netdev(subject)) {
    v.push_back({'n', subject});
    if (n->bdf) v.push_back({'b', *n->bdf});
    if (n->rdma_device) v.push_back({'d', *n->rdma_device});
    return v;
  }
  const RdmaDevice* dev = nullptr;
  if (const RdmaPort* p = find_port(s, subject, &dev)) {
    if (p->netdev) v.push_back({'n', *p->netdev});
    v.push_back({'p', subject});
    v.push_back({'d', dev->name});
    if (dev->bdf) v.push_back({'b', *dev->bdf});
    return v;
  }
  if (s.find_pci(subject)) {
    v.push_back({'b', subject});
    for (const NetDev& n : s.netdevs)
      if (n.bdf && *n.bdf == subject) {
        v.push_back({'n', n.name});
        break;
      }
    return v;
  }
  v.push_back({'x', subject});
  return v;
}

std::optional<std::string> var_value(const std::vector<Var>& vars, char name) {
  for (const Var& v : vars)
    if (v.name == name) return v.value;
  return std::nullopt;
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':';
}

/// `cmd` with every whole-word `value` replaced by "$<var>"; nullopt when it does not occur
/// unquoted (a single-quoted occurrence cannot take a variable).
std::optional<std::string> templ(const std::string& cmd, const std::string& value, char var) {
  std::string out;
  bool found = false;
  bool quoted = false;
  for (std::size_t i = 0; i < cmd.size();) {
    if (cmd[i] == '\'') quoted = !quoted;
    bool at = !quoted && cmd.compare(i, value.size(), value) == 0 && (i == 0 || !word_char(cmd[i - 1])) &&
              (i + value.size() >= cmd.size() || !word_char(cmd[i + value.size()]));
    if (at) {
      out += std::string("\"$") + var + "\"";
      i += value.size();
      found = true;
    } else {
      out += cmd[i++];
    }
  }
  if (!found) return std::nullopt;
  return out;
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const std::string& x : v) out += (out.empty() ? "" : std::string(sep)) + x;
  return out;
}

/// `for v in a b c; do body; done`.
std::string loop_line(char var, const std::vector<std::string>& values, const std::vector<std::string>& body) {
  std::string list;
  for (const std::string& x : values) list += (list.empty() ? "" : " ") + text::shell_quote(x);
  return std::string("for ") + var + " in " + list + "; do " + join(body, "; ") + "; done";
}

bool is_capture(const Snapshot& s) {
  return s.source.kind == SourceKind::capture_dir || s.source.kind == SourceKind::capture_tarball ||
         s.source.kind == SourceKind::capture_file;
}

/// The exact commands that write a missing tool's capture files for these subjects.
ShellLines capture_commands(const Snapshot& s, const capture::Tool& t, const std::vector<std::string>& subjects) {
  std::string cmd(t.command);
  std::string id(t.id);
  if (cmd.starts_with("rocekit-capture")) return {"sh scripts/rocekit-capture" + cmd.substr(15) + " > " + id + ".txt"};
  struct Slot {
    std::string_view placeholder;
    char var;
  };
  for (Slot slot : {Slot{"<netdev>", 'n'}, Slot{"<BDF>", 'b'}, Slot{"<rdma-device>", 'd'}, Slot{"<dev>", 'd'}}) {
    auto at = cmd.find(slot.placeholder);
    if (at == std::string::npos) continue;
    if (cmd.find("<p>") != std::string::npos || cmd.find("<port>") != std::string::npos)
      return {};  // per port: scripts/rocekit-capture reads it
    std::vector<std::string> values;
    auto add = [&](const std::string& v) {
      if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    };
    bool only_host = std::all_of(subjects.begin(), subjects.end(), [](const std::string& x) { return x == "host"; });
    for (const std::string& subj : subjects) {
      if (auto v = var_value(subject_vars(s, subj), slot.var)) add(*v);
      // Only host-wide findings: every netdev, function or device.
      if (subj != "host" || !only_host) continue;
      if (slot.var == 'n') for (const NetDev& n : s.netdevs) add(n.name);
      if (slot.var == 'b') for (const PciFunction& p : s.pci_functions) add(p.bdf);
      if (slot.var == 'd') for (const RdmaDevice& d : s.rdma_devices) add(d.name);
    }
    if (values.empty()) return {};
    std::string var = std::string("\"$") + slot.var + "\"";
    for (std::size_t p; (p = cmd.find(slot.placeholder)) != std::string::npos;) cmd.replace(p, slot.placeholder.size(), var);
    std::string body = cmd + " > \"" + id + "@$" + slot.var + ".txt\"";
    if (values.size() == 1) {
      std::string one = std::string(t.command);
      for (std::size_t p; (p = one.find(slot.placeholder)) != std::string::npos;)
        one.replace(p, slot.placeholder.size(), text::shell_quote(values[0]));
      return {one + " > " + text::shell_quote(id + "@" + values[0] + ".txt")};
    }
    return {loop_line(slot.var, values, {body})};
  }
  return {cmd + " > " + id + ".txt"};
}

int severity_rank(Severity s) { return -static_cast<int>(s); }

void add_unique(std::vector<std::string>& v, const std::string& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

RuleSummary rule_summary(const Snapshot& s, std::string rule, std::vector<const Finding*> fs) {
  RuleSummary r;
  r.rule = std::move(rule);
  r.findings = std::move(fs);
  for (const Finding* f : r.findings) {
    r.subjects.push_back(f->subject);
    if (f->outcome == Outcome::fail && f->severity > r.severity) r.severity = f->severity;
    if (f->message != r.findings.front()->message) r.messages_differ = true;
  }
  const Remediation& first = r.findings.front()->remediation;
  r.scope = first.scope;
  r.alternative_tool = first.alternative_tool;
  r.fix = loop_form(s, r.findings, &Remediation::commands, 4);
  r.alternative = loop_form(s, r.findings, &Remediation::alternative, 4);
  r.checks = loop_form(s, r.findings, &Remediation::checks, 4);
  return r;
}

}  // namespace

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::fail: return "FAIL";
    case Verdict::not_judged: return "NOT JUDGED";
    case Verdict::gaps: return "PASS WITH GAPS";
    case Verdict::pass: return "PASS";
  }
  return "?";
}

ShellLines loop_form(const Snapshot& s, const std::vector<const Finding*>& fs,
                     std::vector<std::string> Remediation::* commands, std::size_t max_lines,
                     std::size_t* left_out) {
  std::vector<const Finding*> with;
  for (const Finding* f : fs)
    if (!(f->remediation.*commands).empty()) with.push_back(f);
  ShellLines out;
  if (left_out) *left_out = 0;
  if (with.empty()) return out;
  const std::vector<std::string>& first = with.front()->remediation.*commands;
  // Identical everywhere (a host-wide fix, or one subject): the commands as they are.
  bool same = std::all_of(with.begin(), with.end(), [&](const Finding* f) { return f->remediation.*commands == first; });
  if (same) {
    out = first;
  } else {
    // The variable: the first name of the first subject that its commands contain.
    std::optional<char> var;
    for (const Var& v : subject_vars(s, with.front()->subject)) {
      for (const std::string& c : first)
        if (templ(c, v.value, v.name)) var = v.name;
      if (var) break;
    }
    // Group the subjects by their templated commands; one loop per group.
    std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> groups;  // body -> values
    std::vector<const Finding*> raw;
    for (const Finding* f : with) {
      std::optional<std::string> value = var ? var_value(subject_vars(s, f->subject), *var) : std::nullopt;
      std::vector<std::string> body;
      bool ok = value.has_value();
      for (const std::string& c : f->remediation.*commands) {
        if (!ok) break;
        std::optional<std::string> t = templ(c, *value, *var);
        body.push_back(t ? *t : c);
      }
      if (!ok) {
        raw.push_back(f);
        continue;
      }
      auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == body; });
      if (g == groups.end()) groups.push_back({body, {*value}});
      else g->second.push_back(*value);
    }
    for (const auto& [body, values] : groups) {
      if (values.size() == 1) {
        const Finding* f = *std::find_if(with.begin(), with.end(), [&](const Finding* x) {
          return var_value(subject_vars(s, x->subject), *var) == values.front();
        });
        for (const std::string& c : f->remediation.*commands) out.push_back(c);
      } else {
        out.push_back(loop_line(*var, values, body));
      }
    }
    for (const Finding* f : raw)
      for (const std::string& c : f->remediation.*commands) out.push_back(c);
  }
  if (out.size() > max_lines) {
    if (left_out) *left_out = out.size() - max_lines;
    out.resize(max_lines);
  }
  return out;
}

Summary summarize(const Snapshot& s, const rules::Report& r) {
  Summary out;
  std::vector<std::pair<std::string, std::vector<const Finding*>>> fails, unknowns;
  auto bucket = [](auto& v, const Finding& f) {
    auto it = std::find_if(v.begin(), v.end(), [&](const auto& x) { return x.first == f.rule; });
    if (it == v.end()) v.push_back({f.rule, {&f}});
    else it->second.push_back(&f);
  };
  std::map<std::string, MissingOutput> missing;
  std::vector<std::string> missing_order;
  for (const Finding& f : r.findings) {
    if (f.outcome == Outcome::fail) bucket(fails, f);
    if (f.outcome == Outcome::pass) {
      auto it = std::find_if(out.passing.begin(), out.passing.end(), [&](const auto& x) { return x.first == f.rule; });
      if (it == out.passing.end()) out.passing.push_back({f.rule, 1});
      else ++it->second;
    }
    if (f.outcome != Outcome::unknown) continue;
    bool resolvable = is_capture(s) && !f.needs.empty();
    for (const std::string& id : f.needs)
      if (!capture::find_tool(id)) resolvable = false;
    if (!resolvable) {
      bucket(unknowns, f);
      continue;
    }
    for (const std::string& id : f.needs) {
      auto [it, added] = missing.try_emplace(id);
      if (added) missing_order.push_back(id);
      MissingOutput& m = it->second;
      m.tool = id;
      ++m.findings;
      add_unique(m.rules, f.rule);
      add_unique(m.subjects, f.subject);
      if (f.reason_kind == ReasonKind::tool_failed && m.host_failure.empty()) {
        for (const ToolRun& run : s.tool_runs)
          if (run.tool == id && run.status != "ok") m.host_failure = id + " " + run.status + " on the host";
      }
    }
  }
  for (auto& [rule, fs] : fails) out.failing.push_back(rule_summary(s, rule, std::move(fs)));
  std::stable_sort(out.failing.begin(), out.failing.end(), [](const RuleSummary& a, const RuleSummary& b) {
    return severity_rank(a.severity) < severity_rank(b.severity);
  });
  for (auto& [rule, fs] : unknowns) out.other_unknowns.push_back(rule_summary(s, rule, std::move(fs)));
  for (const std::string& id : missing_order) {
    MissingOutput& m = missing[id];
    m.commands = capture_commands(s, *capture::find_tool(id), m.subjects);
    out.missing.push_back(std::move(m));
  }
  bool any_unknown = r.count(Outcome::unknown) > 0;
  out.no_roce_port = rules::no_roce_port_judged(s, r.findings);
  out.verdict = !out.failing.empty()          ? Verdict::fail
                : !rules::anything_judged(r.findings) || out.no_roce_port ? Verdict::not_judged
                : any_unknown        ? Verdict::gaps
                                     : Verdict::pass;
  return out;
}

}  // namespace rk::render

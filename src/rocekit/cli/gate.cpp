// The exit code of a host report (commands.hpp `gate`): shared by check, plan and switch check
// so that no reporting command says "healthy" about what it did not judge.
#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "rocekit/cli/commands.hpp"
#include "rocekit/rules/judged.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::cli {
void add_look_options(CLI::App& cmd, LookOptions& o, const std::string& quiet_help) {
  cmd.add_flag("-q,--quiet", o.quiet, quiet_help);
  cmd.add_option("--color", o.color, "Colour the text report: auto (when standard output is a terminal), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

bool use_color(const LookOptions& o, const std::string& output) {
  return o.color == "always" || (o.color == "auto" && (output.empty() || output == "-") && ::isatty(1));
}

void add_gate_options(CLI::App& cmd, GateOptions& o) {
  cmd.add_option("--fail-on", o.fail_on,
                 "Exit 1 when a failure of this severity or higher exists (default error); "
                 "'unknown': exit 1 on any failure, else 3 when any check was not judged")
      ->check(CLI::IsMember({"info", "warning", "error", "critical", "unknown"}));
  cmd.add_option("--require", o.required,
                 "Rule ids or areas that must be judged on every subject: an unknown one exits 3 "
                 "(repeatable; --rule values are required too)");
}

GateDecision decide_gate(const Snapshot& s, const std::vector<Finding>& findings, const GateOptions& o) {
  bool unknown_gate = o.fail_on == "unknown";
  Severity threshold = unknown_gate ? Severity::info : severity_from_string(o.fail_on).value_or(Severity::error);
  for (const Finding& f : findings)
    if (f.outcome == Outcome::fail && f.severity >= threshold) return {ExitCode::findings, {}};
  std::vector<std::string> why = rules::not_judged_reasons(s, findings);
  std::map<std::string, std::vector<std::string>> required_unknown;  // rule -> subjects
  std::size_t unknowns = 0;
  for (const Finding& f : findings) {
    if (f.outcome != Outcome::unknown) continue;
    ++unknowns;
    if (std::any_of(o.required.begin(), o.required.end(), [&](const std::string& r) { return rules::selects(f.rule, r); }))
      required_unknown[f.rule].push_back(f.subject);
  }
  for (const auto& [rule, subjects] : required_unknown) {
    std::string list;
    for (std::size_t i = 0; i < subjects.size() && i < 4; ++i) list += (i ? ", " : "") + subjects[i];
    if (subjects.size() > 4) list += ", ...";
    why.push_back("selected rule " + rule + " not judged on " + std::to_string(subjects.size()) +
                  (subjects.size() == 1 ? " subject (" : " subjects (") + list + ")");
  }
  for (const std::string& r : o.required)
    if (std::none_of(findings.begin(), findings.end(), [&](const Finding& f) { return rules::selects(f.rule, r); }))
      why.push_back("required rule " + r + " gave no finding (disabled by the policy?)");
  if (unknown_gate && unknowns) why.push_back(std::to_string(unknowns) + " checks not judged (--fail-on unknown)");
  if (why.empty()) return {ExitCode::ok, {}};
  return {ExitCode::not_judged, std::move(why)};
}

ExitCode gate(Context& ctx, const Snapshot& s, const std::vector<Finding>& findings, const GateOptions& o) {
  GateDecision d = decide_gate(s, findings, o);
  for (const std::string& w : d.reasons) ctx.err << "rocekit: not judged: " << w << "\n";
  return d.code;
}

}  // namespace rk::cli

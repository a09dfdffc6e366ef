// The first screen of a check report: the verdict, each failing rule once with its subjects and
// one fix in loop form, and what was not judged with the exact commands that would judge it.
// Text, Markdown and JSON all render this one structure (render.cpp); it formats, it never
// decides (outcomes and severities come from rules/).
#pragma once

#include <string>
#include <vector>

#include "rocekit/model/snapshot.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::render {

/// Shell lines, each runnable as it is: one subject's commands, or a `for` loop over the
/// subjects whose commands differ only by the subject's name.
using ShellLines = std::vector<std::string>;

/// One rule's findings of one outcome (fail, or unknown without a missing input).
struct RuleSummary {
  std::string rule;
  Severity severity = Severity::info;     ///< the highest among its failures
  std::vector<const Finding*> findings;   ///< in report order
  std::vector<std::string> subjects;
  bool messages_differ = false;           ///< findings[0]'s message is not every subject's
  ShellLines fix;                         ///< the fix, primary backend
  std::string alternative_tool;           ///< the other backend, e.g. "dcb"
  ShellLines alternative;
  ShellLines checks;                      ///< read-only commands that show the state
  FixScope scope = FixScope::none;
};

/// A capture tool whose output the capture lacks, and what it would let rocekit judge.
struct MissingOutput {
  std::string tool;                ///< capture tool id (capture/tools.cpp)
  ShellLines commands;             ///< run on the host; each writes its capture file
  std::vector<std::string> rules;  ///< rules it would judge, in report order
  std::vector<std::string> subjects;
  std::size_t findings = 0;
  std::string host_failure;        ///< "mlnx_qos missing on the host" from the capture log
};

enum class Verdict {
  fail,        ///< at least one failure
  not_judged,  ///< no failure and nothing passed: nothing was judged
  gaps,        ///< no failure, some passes, some unknowns
  pass,        ///< every finding passed or does not apply
};
/// "FAIL", "NOT JUDGED", "PASS WITH GAPS", "PASS".
std::string_view to_string(Verdict v);

struct Summary {
  Verdict verdict = Verdict::pass;
  bool no_roce_port = false;  ///< no RDMA device, and no netdev passed or failed
  std::vector<RuleSummary> failing;         ///< by severity (critical first), then report order
  std::vector<MissingOutput> missing;       ///< capture sources: outputs that would judge unknowns
  std::vector<RuleSummary> other_unknowns;  ///< unknowns no single output would resolve
  std::vector<std::pair<std::string, std::size_t>> passing;  ///< rule -> pass count
};

Summary summarize(const Snapshot& s, const rules::Report& r);

/// `commands` as shell lines for a set of findings: one subject's commands as they are, or one
/// `for` loop when every subject's commands are the same but for its name (netdev, BDF, RDMA
/// device or port). At most `max_lines`; the rest is counted in `*left_out`.
ShellLines loop_form(const Snapshot& s, const std::vector<const Finding*>& fs,
                     std::vector<std::string> Remediation::* commands, std::size_t max_lines,
                     std::size_t* left_out = nullptr);

}  // namespace rk::render

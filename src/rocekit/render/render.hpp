// Renderers: findings and snapshots to text, JSON and Markdown. They format; they never decide
// (outcomes and severities come from rules/).
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/model/snapshot.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::render {

/// junit: JUnit XML (render/gate.hpp); `rules list` and the other reports read it as text.
enum class Format { text, json, markdown, junit };

enum class GroupBy { subject, rule };

struct Options {
  bool color = false;          ///< ANSI colours (the CLI sets it only on a TTY)
  /// Text: after the summary, every finding with evidence, why, checks and alternatives
  /// (Markdown always carries them, folded; JSON always).
  bool detail = false;
  bool hide_pass = false;      ///< leave pass findings out of the detail (-q, --hide pass)
  bool hide_not_applicable = false;
  bool hide_unknown = false;   ///< leave unknowns out of the summary and the detail
  GroupBy group_by = GroupBy::subject;
  std::string policy_name = "default";
};

/// Human-readable report grouped by subject (NIC, port, PCI function), failures first.
/// The outcome as the text reports print it: "FAIL", "UNKNOWN", "pass", "n/a".
std::string outcome_label(Outcome o);

std::string report_text(const Snapshot& s, const rules::Report& r, const Options& o);
/// Machine-readable report; see docs/check-output.md for the schema.
nlohmann::json report_json(const Snapshot& s, const rules::Report& r, const Options& o);
/// Markdown for tickets: summary table, then each failure with evidence and fix.
std::string report_markdown(const Snapshot& s, const rules::Report& r, const Options& o);

std::string report(const Snapshot& s, const rules::Report& r, Format f, const Options& o);

/// `rocekit rules list`: every rule of the registry (or of one family) as text, JSON or markdown
/// (docs/rules.md is the markdown form of every family).
std::string rules_list(Format f, std::optional<rules::Family> only = std::nullopt);
/// `rocekit rules explain ID` for a rule of any family; empty when the id is unknown.
std::string rule_explain(std::string_view id);

}  // namespace rk::render

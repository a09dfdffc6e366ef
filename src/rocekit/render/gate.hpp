// Health-gate outputs of `rocekit check`: JUnit XML for CI and test dashboards, and the one-line
// verdict for node health checkers (Slurm HealthCheckProgram, NHC, node-problem-detector;
// deploy/ and docs/gates.md). They format the findings and the gate's result; they never decide
// (outcomes come from rules/, the exit code from the CLI's gate).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/render/render.hpp"

namespace rk::render {

/// `s` as XML 1.0 character data (`attribute`: also quotes, tab and newline as character
/// references). Markup characters become entities; control characters XML cannot carry
/// (0x00-0x1f but tab/newline/CR, 0x7f) become a visible `\xNN`; bytes that are not UTF-8, and
/// U+FFFE/U+FFFF, become U+FFFD, so any input gives a well-formed document.
std::string xml_escape(std::string_view s, bool attribute = false);

/// One `<testsuite>` for the host: a `<testcase classname="rocekit.<area>" name="<rule>
/// <subject>">` per finding, fail as `<failure message type=severity>` with evidence and fix,
/// unknown as `<skipped message>`, pass as an empty testcase; not_applicable findings are left out
/// (counted in the `not_applicable` property). `indent` prefixes every line.
std::string junit_testsuite(const Snapshot& s, const rules::Report& r, const Options& o,
                            std::string_view indent = "  ");
/// A whole JUnit document: `<testsuites>` with one testsuite (junit_testsuite).
std::string report_junit(const Snapshot& s, const rules::Report& r, const Options& o);
/// A JUnit document around testsuites that junit_testsuite wrote (fleet: one per host), with
/// the totals; `tests`, `failures`, `skipped` are the sums over the suites.
std::string junit_document(const std::vector<std::string>& suites, std::size_t tests, std::size_t failures,
                           std::size_t skipped);

/// What the exit code of the report says (the CLI's gate): 0 ok, 1 fail, 3 not judged.
enum class GateState { ok, fail, not_judged };
struct GateResult {
  GateState state = GateState::ok;
  Severity threshold = Severity::error;  ///< --fail-on (info for --fail-on unknown)
  std::vector<std::string> reasons;      ///< not_judged: why, as the gate printed them
};

/// The longest verdict line, in bytes: fits Slurm's node reason and a syslog line.
inline constexpr std::size_t k_verdict_max_bytes = 200;

/// The one-line verdict, without a newline, at most `max_bytes` bytes (cut on a UTF-8 boundary):
///   ok:         "OK: 12 rules passed on gpu01" (+ ", 3 checks not judged", ", 1 failure below
///               --fail-on error")
///   fail:       "FAIL: qos.trust-dscp ens6 trust pcp; qos.pfc-enabled ens6 ...; +5 more": the
///               failures at or above the threshold, most severe first, each "<rule> <subject>
///               <found>" (the fix's current value, else the message), as many as fit; "+K more"
///               counts the other failures
///   not_judged: "UNKNOWN: <reason>; ...; +K more", then "N failures below --fail-on error"
/// Control characters are shown as `\xNN`, so the line is always one line.
std::string verdict_line(const Snapshot& s, const rules::Report& r, const GateResult& g,
                         std::size_t max_bytes = k_verdict_max_bytes);

}  // namespace rk::render

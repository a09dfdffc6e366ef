#include "rocekit/render/gate.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "rocekit/core/text.hpp"
#include "rocekit/render/summary.hpp"

namespace rk::render {
namespace {

/// Length of the UTF-8 sequence starting at s[i] (1 to 4), or 0 when it is not well-formed
/// (stray continuation byte, overlong form, surrogate, above U+10FFFF, cut short).
std::size_t utf8_length(std::string_view s, std::size_t i, char32_t* cp) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  std::size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
  if (n == 0 || c > 0xf4 || i + n > s.size()) return 0;
  char32_t v = c & (0x7f >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return 0;
    v = (v << 6) | (b(i + k) & 0x3f);
  }
  static constexpr char32_t k_min[] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < k_min[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
  *cp = v;
  return n;
}

std::string hex_escape(unsigned char u) {
  static constexpr char k_hex[] = "0123456789abcdef";
  return std::string("\\x") + k_hex[u >> 4] + k_hex[u & 0xf];
}

std::string host_name(const Snapshot& s) {
  if (!s.hostname.empty()) return s.hostname;
  return s.source.path.empty() ? std::string("host") : s.source.path;
}

std::string area_of(const std::string& rule) { return rule.substr(0, rule.find('.')); }

std::string evidence_text(const Evidence& e) {
  std::string loc = e.file;
  if (e.line) loc += ":" + std::to_string(e.line);
  if (e.text.empty()) return loc;
  return loc.empty() ? e.text : loc + ": " + e.text;
}

/// The text of a <failure>: what was found, the evidence, the fix and its checks.
std::string failure_body(const Finding& f) {
  std::string out;
  const Remediation& rem = f.remediation;
  if (!rem.action.empty()) out += fmt::format("{}: found {}, policy wants {}\n", rem.action, rem.current, rem.desired);
  for (const Evidence& e : f.evidence) out += "evidence: " + evidence_text(e) + "\n";
  for (const std::string& c : rem.commands) out += fmt::format("fix ({}): $ {}\n", to_string(rem.scope), c);
  for (const std::string& c : rem.alternative) out += "or, with " + rem.alternative_tool + " instead: $ " + c + "\n";
  for (const std::string& c : rem.checks) out += "check: $ " + c + "\n";
  if (!rem.notes.empty()) out += "note: " + rem.notes + "\n";
  return out;
}

/// The text of a <skipped>: the evidence read, and the capture tools that would judge it.
std::string skipped_body(const Finding& f) {
  std::string out;
  for (const Evidence& e : f.evidence) out += "evidence: " + evidence_text(e) + "\n";
  for (const std::string& n : f.needs) out += "needs: " + n + "\n";
  for (const std::string& c : f.remediation.commands) out += "collect: $ " + c + "\n";
  return out;
}

std::string attr(std::string_view name, std::string_view value) {
  return fmt::format(" {}=\"{}\"", name, xml_escape(value, true));
}

std::string property(std::string_view indent, std::string_view name, std::string_view value) {
  return fmt::format("{}    <property{}{}/>\n", indent, attr("name", name), attr("value", value));
}

/// `s` cut to at most `max` bytes on a UTF-8 boundary, ending in "..." when cut.
std::string cut(std::string s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t end = max >= 3 ? max - 3 : 0;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xc0) == 0x80) --end;
  return s.substr(0, end) + (max >= 3 ? "..." : "");
}

/// One line of text: control characters (newline too) as `\xNN`.
std::string one_line(std::string_view s) { return text::escape_control(s); }

/// "<rule> <subject> <found>" of a failure.
std::string failure_item(const Finding& f) {
  std::string found = !f.remediation.action.empty() && !f.remediation.current.empty()
                          ? f.remediation.action + " " + f.remediation.current
                          : cut(f.message, 72);
  return one_line(f.rule + " " + f.subject + " " + found);
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

/// `head` then as many of `items` as fit in `max` bytes with the "; +K more" tail, at least
/// the first (cut to fit). `others` is counted in K besides the items left out.
std::string fit(std::string head, const std::vector<std::string>& items, std::size_t others, std::size_t max) {
  std::size_t shown = 0;
  std::string out = head;
  for (const std::string& item : items) {
    std::size_t left = items.size() - shown - 1 + others;
    std::string tail = left ? fmt::format("; +{} more", left) : "";
    std::string next = out + (shown ? "; " : "") + item;
    if (next.size() + tail.size() > max) {
      if (shown == 0) out = cut(next, max > tail.size() ? max - tail.size() : 0);
      else break;
    } else {
      out = std::move(next);
    }
    ++shown;
  }
  std::size_t left = items.size() - shown + others;
  if (left) out += fmt::format("; +{} more", left);
  return cut(out, max);
}

}  // namespace

std::string xml_escape(std::string_view s, bool attribute) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    std::size_t n = utf8_length(s, i, &cp);
    if (n == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD for a byte that is not UTF-8
      ++i;
      continue;
    }
    if (cp == 0xfffe || cp == 0xffff) {
      out += "\xef\xbf\xbd";
    } else if (n > 1) {
      out.append(s.substr(i, n));
    } else {
      char c = s[i];
      switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += attribute ? "&quot;" : "\""; break;
        case '\'': out += attribute ? "&apos;" : "'"; break;
        case '\t': out += attribute ? "&#9;" : "\t"; break;
        case '\n': out += attribute ? "&#10;" : "\n"; break;
        case '\r': out += "&#13;"; break;
        default:
          if (cp < 0x20 || cp == 0x7f) out += hex_escape(static_cast<unsigned char>(cp));
          else out += c;
      }
    }
    i += n;
  }
  return out;
}

std::string junit_testsuite(const Snapshot& s, const rules::Report& r, const Options& o, std::string_view indent) {
  std::size_t na = r.count(Outcome::not_applicable);
  std::size_t tests = r.findings.size() - na;
  std::string out = fmt::format("{}<testsuite{}{}{}{}{}{}>\n", indent, attr("name", host_name(s)),
                                attr("tests", std::to_string(tests)),
                                attr("failures", std::to_string(r.count(Outcome::fail))), attr("errors", "0"),
                                attr("skipped", std::to_string(r.count(Outcome::unknown))),
                                attr("hostname", host_name(s)));
  out += fmt::format("{}  <properties>\n", indent);
  out += property(indent, "policy", o.policy_name);
  out += property(indent, "source", s.source.path.empty() ? str(s.source.kind) : s.source.path);
  out += property(indent, "verdict", to_string(summarize(s, r).verdict));
  out += property(indent, "not_applicable", std::to_string(na));
  if (!s.tool_version.empty()) out += property(indent, "tool_version", s.tool_version);
  out += fmt::format("{}  </properties>\n", indent);
  for (const Finding& f : r.findings) {
    if (f.outcome == Outcome::not_applicable) continue;
    std::string head = fmt::format("{}  <testcase{}{}", indent, attr("classname", "rocekit." + area_of(f.rule)),
                                   attr("name", f.rule + " " + f.subject));
    switch (f.outcome) {
      case Outcome::pass: out += head + "/>\n"; break;
      case Outcome::fail:
        out += head + ">\n" +
               fmt::format("{}    <failure{}{}>{}</failure>\n", indent, attr("message", f.message),
                           attr("type", to_string(f.severity)), xml_escape(failure_body(f)));
        out += fmt::format("{}  </testcase>\n", indent);
        break;
      case Outcome::unknown:
        out += head + ">\n" +
               fmt::format("{}    <skipped{}>{}</skipped>\n", indent, attr("message", f.message),
                           xml_escape(skipped_body(f)));
        out += fmt::format("{}  </testcase>\n", indent);
        break;
      case Outcome::not_applicable: break;
    }
  }
  out += fmt::format("{}</testsuite>\n", indent);
  return out;
}

std::string junit_document(const std::vector<std::string>& suites, std::size_t tests, std::size_t failures,
                           std::size_t skipped) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites{}{}{}{}{}>\n", attr("name", "rocekit check"), attr("tests", std::to_string(tests)),
                     attr("failures", std::to_string(failures)), attr("errors", "0"),
                     attr("skipped", std::to_string(skipped)));
  for (const std::string& x : suites) out += x;
  out += "</testsuites>\n";
  return out;
}

std::string report_junit(const Snapshot& s, const rules::Report& r, const Options& o) {
  return junit_document({junit_testsuite(s, r, o)}, r.findings.size() - r.count(Outcome::not_applicable),
                        r.count(Outcome::fail), r.count(Outcome::unknown));
}

std::string verdict_line(const Snapshot& s, const rules::Report& r, const GateResult& g, std::size_t max_bytes) {
  std::size_t fails = r.count(Outcome::fail);
  switch (g.state) {
    case GateState::ok: {
      std::set<std::string> passed;
      for (const Finding& f : r.findings)
        if (f.outcome == Outcome::pass) passed.insert(f.rule);
      std::string out = fmt::format("OK: {} passed on {}", plural(passed.size(), "rule", "rules"), one_line(host_name(s)));
      if (std::size_t u = r.count(Outcome::unknown)) out += ", " + plural(u, "check", "checks") + " not judged";
      if (fails) out += ", " + plural(fails, "failure", "failures") + " below --fail-on " + std::string(to_string(g.threshold));
      return cut(out, max_bytes);
    }
    case GateState::fail: {
      std::vector<const Finding*> counted;
      for (const Finding& f : r.findings)
        if (f.outcome == Outcome::fail && f.severity >= g.threshold) counted.push_back(&f);
      std::stable_sort(counted.begin(), counted.end(),
                       [](const Finding* a, const Finding* b) { return a->severity > b->severity; });
      std::vector<std::string> items;
      for (const Finding* f : counted) items.push_back(failure_item(*f));
      return fit("FAIL: ", items, fails - counted.size(), max_bytes);
    }
    case GateState::not_judged: {
      std::vector<std::string> items;
      for (const std::string& why : g.reasons) items.push_back(one_line(why));
      if (items.empty()) items.push_back("not judged");
      if (fails) items.push_back(plural(fails, "failure", "failures") + " below --fail-on " +
                                 std::string(to_string(g.threshold)));
      return fit("UNKNOWN: ", items, 0, max_bytes);
    }
  }
  return {};
}

}  // namespace rk::render

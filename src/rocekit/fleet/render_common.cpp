// Helpers the fleet renderers share (render_common.hpp).
#include "rocekit/fleet/render_common.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace rk::fleet::detail {

/// host -> the cross-host outliers that name it.
std::map<std::string, std::vector<HostOutlier>> outliers_by_host(const FleetReport& r) {
  std::map<std::string, std::vector<HostOutlier>> m;
  for (const Consistency& c : r.cross.checks)
    for (const Outlier& o : c.outliers) m[o.host].push_back({&c, &o});
  return m;
}

std::size_t count_checks(const FleetReport& r, Outcome o) {
  std::size_t n = 0;
  for (const Consistency& c : r.cross.checks) n += c.outcome == o;
  return n;
}

std::size_t hosts_with_failures(const FleetReport& r) {
  std::size_t n = 0;
  for (const HostSummary& h : r.hosts) n += h.loaded && !h.failures.empty();
  return n;
}

namespace {

int rank(Outcome o) { return o == Outcome::fail ? 0 : o == Outcome::unknown ? 1 : 2; }

}  // namespace

std::vector<const Consistency*> sorted_checks(const FleetReport& r) {
  std::vector<const Consistency*> v;
  for (const Consistency& c : r.cross.checks) v.push_back(&c);
  std::stable_sort(v.begin(), v.end(), [](const Consistency* a, const Consistency* b) {
    if (rank(a->outcome) != rank(b->outcome)) return rank(a->outcome) < rank(b->outcome);
    return static_cast<int>(a->severity) > static_cast<int>(b->severity);
  });
  return v;
}

bool is_passing_nv(const Consistency& c) {
  return c.rule == "fleet.nv-config-consistent" && c.outcome == Outcome::pass;
}

/// NIC model (group) -> its passing NV parameter checks.
std::map<std::string, NvPass> passing_nv_parameters(const FleetReport& r) {
  std::map<std::string, NvPass> n;
  for (const Consistency& c : r.cross.checks)
    if (is_passing_nv(c)) {
      ++n[c.group].parameters;
      n[c.group].severity = c.severity;
    }
  return n;
}

/// How the host detail names a check's reference: "baseline 9000", "policy >= 4200".
std::string reference_label(const Consistency& c) {
  if (c.reference == "release notes") return "release notes " + c.baseline;
  return (c.reference == "policy" ? "policy " : "baseline ") + c.baseline;
}

std::string summary_line(const FleetReport& r) {
  std::string against;
  if (!r.baseline.empty()) against += "; reference: the baseline host " + r.baseline + " (not the majority)";
  if (!r.ignored.empty()) {
    std::string list;
    for (const std::string& v : r.ignored) list += (list.empty() ? "" : ", ") + v;
    against += "; not compared (policy fleet.ignore): " + list;
  }
  return fmt::format("{} hosts ({} loaded, {} input problems), {} NICs, {} Multi-Host NICs; "
                     "cross-host checks: {} fail, {} unknown, {} pass; {} hosts with failing findings",
                     r.hosts.size(), r.hosts_loaded, r.problems.size(), r.nic_count,
                     r.cross.multi_host.size(), count_checks(r, Outcome::fail),
                     count_checks(r, Outcome::unknown), count_checks(r, Outcome::pass),
                     hosts_with_failures(r)) +
         against;
}

std::vector<std::string> host_plan_lines(const HostPlan& p) {
  if (!p.error.empty()) return {p.error};
  std::vector<std::string> out;
  for (const plan::Action& a : p.plan.actions) {
    std::string line = a.subject + " " + std::string(plan::to_string(a.kind)) + ": " + a.current + " -> " + a.desired;
    if (a.disruption != plan::Disruption::none) line += " [" + std::string(plan::to_string(a.disruption)) + "]";
    if (a.write_path) {
      line += ": write " + plan::shell_quote(a.write_value) + " > " + plan::shell_quote(*a.write_path);
    } else {
      line += ": $";
      for (const std::string& w : a.argv) line += " " + plan::shell_quote(w);
    }
    out.push_back(std::move(line));
  }
  for (const plan::Unplanned& u : p.plan.unplanned) out.push_back("not planned: " + u.rule + " " + u.subject + ": " + u.reason);
  return out;
}

}  // namespace rk::fleet::detail

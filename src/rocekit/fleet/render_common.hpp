// What the fleet report renderers (render.cpp: text, JSON, Markdown; render_html.cpp: HTML)
// share: the per-host view of the cross-host outliers, check ordering and counts. Internal to
// rk_fleet.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "rocekit/fleet/fleet.hpp"

namespace rk::fleet::detail {

struct HostOutlier {
  const Consistency* check;
  const Outlier* outlier;
};

/// host -> the cross-host outliers that name it.
std::map<std::string, std::vector<HostOutlier>> outliers_by_host(const FleetReport& r);

std::size_t count_checks(const FleetReport& r, Outcome o);
std::size_t hosts_with_failures(const FleetReport& r);

/// The cross-host checks, failures first, then unknown, then pass; most severe first within each.
std::vector<const Consistency*> sorted_checks(const FleetReport& r);

/// Passing firmware NV checks are one per parameter (300 on a full `mlxconfig -q`): the text,
/// Markdown and HTML reports fold them into one line per NIC model; JSON keeps each.
bool is_passing_nv(const Consistency& c);

struct NvPass {
  std::size_t parameters = 0;
  Severity severity = Severity::warning;
};

/// NIC model (group) -> its passing NV parameter checks.
std::map<std::string, NvPass> passing_nv_parameters(const FleetReport& r);

/// How the host detail names a check's reference: "baseline 9000", "policy >= 4200".
std::string reference_label(const Consistency& c);

/// A host plan as the text, Markdown and HTML reports list it: one line per action ("eth4
/// pfc: none -> 3 [link_flap]: $ mlnx_qos -i eth4 --pfc 0,0,0,1,0,0,0,0"), then one per "not
/// planned" line ("not planned: fleet.mtu-consistent eth4: mtu: 9000 -> 4200: ..."); the reload
/// error alone when the input could not be loaded again.
std::vector<std::string> host_plan_lines(const HostPlan& p);

/// "12 hosts (12 loaded, 0 input problems), 96 NICs, ...": the first line of every form.
std::string summary_line(const FleetReport& r);

}  // namespace rk::fleet::detail

// plan_outliers: per outlier host, `rocekit plan`'s actions that bring the settings where it
// differs from the fleet's reference to that reference (issue 23 item 3). The reduced hosts
// hold no snapshot, so each outlier host's input is loaded again (a second pass over the few
// outliers) and planned with a policy whose values are the references, restricted to the
// differing NICs and settings (PlanOptions::keep_action). What the planner cannot change
// (firmware and driver versions, firmware parameters it does not set) gets a line saying what
// to do instead.
#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include "rocekit/fix/fix.hpp"
#include "rocekit/fleet/fleet.hpp"
#include "rocekit/fleet/render_common.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::fleet {

namespace {

using plan::Action;
using plan::ActionKind;
using plan::Unplanned;

/// The planner's steps for one fleet setting: the action kinds and the rule ids of its actions
/// and "not planned" lines, and why a difference can be left without a step.
struct Planned {
  std::string_view setting;
  std::vector<ActionKind> kinds;
  std::vector<std::string_view> rules;
  std::string_view no_step;
};

const std::vector<Planned>& planned_settings() {
  static const std::vector<Planned> k{
      {setting::trust, {ActionKind::trust}, {"qos.trust-dscp", "qos"}, "no trust step planned"},
      {setting::dscp_map, {ActionKind::dscp2prio}, {"qos.roce-dscp-priority", "qos.cnp-dscp-priority", "qos"},
       "rocekit plan sets only the RoCE and CNP DSCP entries of the map"},
      {setting::pfc, {ActionKind::pfc}, {"qos.pfc-roce-priority", "qos.pfc-only-roce-priority", "qos"},
       "no PFC step planned"},
      {setting::ecn, {ActionKind::ecn}, {"qos.ecn-roce-priority"},
       "rocekit plan turns ECN (DCQCN RP and NP) on for priorities, never off"},
      {setting::cnp, {ActionKind::nv_config}, {"qos.cnp-firmware"}, "no firmware CNP step planned"},
      {setting::mtu, {ActionKind::mtu}, {"net.mtu"},
       "rocekit plan raises an MTU below the reference and never lowers a larger one"},
      {setting::max_read_request, {ActionKind::max_read_request}, {"pcie.max-read-request"},
       "rocekit plan raises MaxReadReq and never lowers a larger one"},
      {setting::coalescing, {ActionKind::coalesce}, {"irq.coalescing"},
       "rocekit plan sets adaptive-rx, rx-usecs and tx-usecs only"},
  };
  return k;
}

const Planned* find_planned(std::string_view s) {
  for (const Planned& p : planned_settings())
    if (p.setting == s) return &p;
  return nullptr;
}

/// One difference of one host: a NIC (or physical NIC) whose value is not the reference.
struct Difference {
  const Consistency* check;
  const Outlier* outlier;
  std::string bdf;  ///< the NIC's PCI function ("" when not known)
};

std::vector<int> ints_of(std::string_view text) {
  std::vector<int> out;
  int n = -1;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      n = (n < 0 ? 0 : n * 10) + (c - '0');
      if (n > 1000000) return {};
    } else if (n >= 0) {
      out.push_back(n);
      n = -1;
    }
  }
  if (n >= 0) out.push_back(n);
  return out;
}

/// "0:0-7 1:8-15 3:26" (dscp_map_text) -> DSCP -> priority.
std::map<int, int> parse_dscp_map(std::string_view text) {
  std::map<int, int> out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find(' ', i);
    std::string_view word = text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    i = end == std::string_view::npos ? text.size() : end + 1;
    std::size_t colon = word.find(':');
    if (colon == std::string_view::npos) continue;
    std::vector<int> prio = ints_of(word.substr(0, colon));
    if (prio.size() != 1) continue;
    std::string_view ranges = word.substr(colon + 1);
    std::size_t j = 0;
    while (j < ranges.size()) {
      std::size_t comma = ranges.find(',', j);
      std::string_view r = ranges.substr(j, comma == std::string_view::npos ? std::string_view::npos : comma - j);
      j = comma == std::string_view::npos ? ranges.size() : comma + 1;
      std::vector<int> ends = ints_of(r);
      if (ends.size() == 1) ends.push_back(ends[0]);
      if (ends.size() != 2 || ends[1] > 63) continue;
      for (int d = ends[0]; d <= ends[1]; ++d) out[d] = prio[0];
    }
  }
  return out;
}

/// "rp:3 np:3" -> the two priority lists; "none" is empty.
std::pair<std::vector<int>, std::vector<int>> parse_ecn(const std::string& v) {
  std::size_t np = v.find(" np:");
  if (!v.starts_with("rp:") || np == std::string::npos) return {};
  return {ints_of(v.substr(3, np - 3)), ints_of(v.substr(np + 4))};
}

/// The policy `make_plan` judges the host with: the references of the differing settings
/// (a check whose reference is the policy keeps the policy's value).
Policy reference_policy(Policy p, const std::vector<Difference>& diffs, std::vector<Unplanned>& manual) {
  for (const Difference& d : diffs) {
    const Consistency& c = *d.check;
    if (c.reference != "majority" && c.reference != "baseline") continue;
    const std::string& ref = c.baseline;
    std::vector<int> n = ints_of(ref);
    if (c.setting == setting::trust && (ref == "dscp" || ref == "pcp")) {
      p.trust = ref;
    } else if (c.setting == setting::pfc) {
      p.pfc_priorities = n;
    } else if (c.setting == setting::ecn) {
      auto [rp, np] = parse_ecn(ref);
      if (rp == np) p.ecn_priorities = rp;
      else manual.push_back({c.rule, d.outlier->subject, "ecn: the reference " + ref +
                             " enables different RP and NP priorities; rocekit plan enables both on the same ones"});
    } else if (c.setting == setting::cnp && n.size() == 2) {
      p.cnp_dscp = n[0];
      p.cnp_priority = n[1];
    } else if (c.setting == setting::dscp_map) {
      std::map<int, int> m = parse_dscp_map(ref);
      if (auto it = m.find(p.roce_dscp); it != m.end()) p.roce_priority = it->second;
      if (auto it = m.find(p.cnp_dscp); it != m.end()) p.cnp_priority = it->second;
    } else if (c.setting == setting::mtu && n.size() == 1) {
      p.netdev_mtu_min_bytes = n[0];
    } else if (c.setting == setting::max_read_request && n.size() == 1) {
      p.max_read_request_bytes = n[0];
    } else if (c.setting == setting::coalescing) {
      // "adaptive-rx off rx-usecs 8 tx-usecs 16": the profile's ranges become that one value.
      std::string_view v = ref;
      auto number_after = [&](std::string_view key) -> std::optional<std::uint32_t> {
        std::size_t at = v.find(key);
        if (at == std::string_view::npos) return std::nullopt;
        std::vector<int> x = ints_of(v.substr(at + key.size(), v.find(' ', at + key.size() + 1) - at - key.size()));
        if (x.empty()) return std::nullopt;
        return static_cast<std::uint32_t>(x[0]);
      };
      if (v.find("adaptive-rx on") != std::string_view::npos) p.coalescing.adaptive_rx = true;
      else if (v.find("adaptive-rx off") != std::string_view::npos) p.coalescing.adaptive_rx = false;
      if (auto rx = number_after("rx-usecs ")) p.coalescing.rx_usecs_min = p.coalescing.rx_usecs_max = *rx;
      if (auto tx = number_after("tx-usecs ")) p.coalescing.tx_usecs_min = p.coalescing.tx_usecs_max = *tx;
    }
  }
  return p;
}

/// Whether `a` (or a "not planned" line on `subject` with `rule`) is about difference `d`.
bool names_nic(const Difference& d, const std::string& subject) {
  if (subject == d.outlier->subject || (!d.bdf.empty() && subject == d.bdf)) return true;
  // Firmware NV steps name the physical device "dddd:bb:dd".
  return subject.size() == 10 && d.bdf.starts_with(subject);
}

bool covers(const Difference& d, const Action& a) {
  const Planned* p = find_planned(d.check->setting);
  if (!p || std::find(p->kinds.begin(), p->kinds.end(), a.kind) == p->kinds.end()) return false;
  if (std::find(p->rules.begin(), p->rules.end(), a.rule) == p->rules.end()) return false;
  return names_nic(d, a.subject);
}

bool covers(const Difference& d, const Unplanned& u) {
  if (!names_nic(d, u.subject)) return false;
  if (u.rule == "scope" || u.rule == "net") return true;  // the whole netdev is not planned
  const Planned* p = find_planned(d.check->setting);
  return p && std::find(p->rules.begin(), p->rules.end(), u.rule) != p->rules.end();
}

/// The decimal value of a firmware query value: "True(1)" -> "1", "48" -> "48".
std::string nv_decimal(const std::string& v) {
  std::size_t open = v.rfind('(');
  if (open != std::string::npos && v.back() == ')') return v.substr(open + 1, v.size() - open - 2);
  return v;
}

std::string words(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& w : argv) out += (out.empty() ? "" : " ") + plan::shell_quote(w);
  return out;
}

/// The line for a difference no planner step can change (firmware, driver, NV parameters).
std::string manual_line(const Difference& d, const plan::Plan& p, const std::string& file) {
  const Consistency& c = *d.check;
  const Outlier& o = *d.outlier;
  std::string head = c.setting + ": " + o.value;
  if (c.reference == "majority" || c.reference == "baseline" || c.reference == "policy") head += " -> " + c.baseline;
  if (c.setting == setting::firmware || c.setting == setting::driver_firmware) {
    // The planner's one firmware step: a burn where fw.driver-compat fails on this host.
    for (const Action& a : p.actions)
      if (a.kind == ActionKind::firmware_burn && names_nic(d, a.subject))
        return head + ": rocekit plan burns firmware " + a.desired + " here (fw.driver-compat fails): `rocekit plan "
               "--firmware-image PSID=FILE " + plan::shell_quote(file) + "` plans it with the image";
    if (c.setting == setting::driver_firmware)
      return head + ": not planned by rocekit fleet: " + c.message + "; `rocekit plan --firmware-image PSID=FILE` "
             "on " + plan::shell_quote(file) + " plans the release notes' firmware";
    return head + ": rocekit plans no firmware version change to match other hosts: burn firmware " + c.baseline +
           " (the reference) on " + (d.bdf.empty() ? o.subject : d.bdf) + " with flint or mlxfwmanager, then "
           "mlxfwreset or reboot";
  }
  if (c.setting == setting::driver)
    return head + ": rocekit plans no driver change: install " + c.baseline +
           " (the reference hosts' driver release), then reload mlx5_core or reboot";
  if (c.setting.starts_with("nv.") && !d.bdf.empty()) {
    std::string name = c.setting.substr(3);
    std::string tool = p.nv_backend == plan::NvBackend::mlxconfig ? "mlxconfig" : "mstconfig";
    FixStep step = fix::nv_set(tool, d.bdf, {{name, nv_decimal(c.baseline)}});
    return head + ": rocekit plan does not set " + name + " to match other hosts: `" + words(step.argv) +
           "`, then reboot or mstfwreset (check the value against the firmware's parameter list first)";
  }
  return head + ": rocekit plan has no step for this setting";
}

/// Physical NIC key or NIC subject -> its PCI function on `h`.
std::string bdf_of(const HostSummary& h, const Outlier& o) {
  for (const NicRecord& n : h.nics)
    if (n.subject == o.subject) return n.bdf;
  for (const PhysicalNicRecord& p : h.physical)
    if (p.key == o.subject) return p.bdf;
  return {};
}

HostPlan plan_host(const HostSummary& h, std::vector<Difference> diffs, const Policy& policy,
                   const plan::PlanOptions& base) {
  HostPlan out;
  out.host = h.host;
  out.file = h.file;
  // The input whole, as `rocekit plan` loads it (load_host leaves out the evidence, from which
  // the planner picks mlnx_qos or dcb, mlxconfig or mstconfig): the plan is the one `rocekit
  // plan` makes.
  Result<Snapshot> snap = load_host_whole(h.file);
  if (!snap) {
    out.error = "could not be loaded again to plan its actions: " + snap.error().message;
    return out;
  }
  std::vector<Unplanned> manual;
  // A baseline host's value that breaks the policy stays the report's reference but is never a
  // plan's target: planning it would turn healthy hosts away from the policy (PFC off on the
  // RoCE priority of every other host when the baseline has PFC off).
  std::erase_if(diffs, [&](const Difference& d) {
    if (!d.check->reference_violates_policy) return false;
    manual.push_back({d.check->rule, d.outlier->subject,
                      d.check->setting + ": " + d.outlier->value + " -> " + d.check->baseline +
                          ": not planned: the baseline host's value violates the policy (" + d.check->policy_value +
                          "); rocekit plans no change away from the policy: bring the baseline host to the policy, "
                          "or compare against another --baseline"});
    return true;
  });
  // One policy per host: a setting whose NICs on this host have two references (two roles or
  // NIC models, each group with its own) is planned to the first; the others say so.
  std::map<std::string, const Consistency*> first;
  std::erase_if(diffs, [&](const Difference& d) {
    if (!find_planned(d.check->setting)) return false;
    const Consistency*& f = first.try_emplace(d.check->setting, d.check).first->second;
    if (f->baseline == d.check->baseline) return false;
    manual.push_back({d.check->rule, d.outlier->subject,
                      d.check->setting + ": " + d.outlier->value + " -> " + d.check->baseline + " (" + d.check->group +
                          "): not planned: this host's other NICs are planned to " + f->baseline + " (" + f->group +
                          "), and one plan has one value per setting; `rocekit plan` with a policy of " +
                          d.check->baseline + " plans this NIC"});
    return true;
  });
  Policy pol = reference_policy(policy, diffs, manual);
  plan::PlanOptions opts = base;
  opts.keep_action = [&diffs](const Action& a) {
    return std::any_of(diffs.begin(), diffs.end(), [&](const Difference& d) { return covers(d, a); });
  };
  opts.keep_unplanned = [&diffs](const Unplanned& u) {
    return std::any_of(diffs.begin(), diffs.end(), [&](const Difference& d) { return covers(d, u); });
  };
  plan::PlanOptions probe = base;  // the firmware burn step, when fw.driver-compat fails here
  probe.keep_action = [](const Action& a) { return a.kind == ActionKind::firmware_burn; };
  probe.keep_unplanned = [](const Unplanned&) { return false; };
  bool versions = std::any_of(diffs.begin(), diffs.end(), [](const Difference& d) {
    return d.check->setting == setting::firmware || d.check->setting == setting::driver_firmware;
  });
  plan::Plan burns = versions ? plan::make_plan(*snap, policy, probe) : plan::Plan{};
  out.plan = plan::make_plan(*snap, pol, opts);
  out.plan.input = h.file;  // the path the user gave, not the one the snapshot was made from
  out.plan.policy_name = policy.name + " (values of the fleet reference)";
  for (const Difference& d : diffs) {
    const Planned* p = find_planned(d.check->setting);
    if (!p) {
      manual.push_back({d.check->rule, d.outlier->subject, manual_line(d, burns, h.file)});
      continue;
    }
    bool acted = std::any_of(out.plan.actions.begin(), out.plan.actions.end(),
                             [&](const Action& a) { return covers(d, a); });
    bool said = std::any_of(out.plan.unplanned.begin(), out.plan.unplanned.end(),
                            [&](const Unplanned& u) { return covers(d, u); });
    std::string head = d.check->setting + ": " + d.outlier->value + " -> " + d.check->baseline;
    if (!acted && !said) {
      manual.push_back({d.check->rule, d.outlier->subject, head + ": " + std::string(p->no_step)});
    } else if (acted && d.check->setting == setting::dscp_map &&
               (d.check->reference == "majority" || d.check->reference == "baseline")) {
      // The planned entries set, does the map equal the reference? Else say which DSCPs stay.
      std::map<int, int> now = parse_dscp_map(d.outlier->value), want = parse_dscp_map(d.check->baseline);
      for (const int dscp : {pol.roce_dscp, pol.cnp_dscp})
        if (auto it = want.find(dscp); it != want.end()) now[dscp] = it->second;
      std::string left;
      for (const auto& [dscp, prio] : want)
        if (auto it = now.find(dscp); it == now.end() || it->second != prio)
          left += (left.empty() ? "" : ", ") + std::to_string(dscp) + " -> " + std::to_string(prio);
      if (!left.empty())
        manual.push_back({d.check->rule, d.outlier->subject, head + ": after the planned steps DSCP " + left +
                                                                  " still differ; " + std::string(p->no_step)});
    }
  }
  // The differences no step covers are the plan's own "not planned" lines: sh, Ansible and JSON
  // show them as they show the planner's.
  for (Unplanned& u : manual) out.plan.unplanned.push_back(std::move(u));
  return out;
}

}  // namespace

void plan_outliers(FleetReport& r, const Policy& policy, const plan::PlanOptions& base, unsigned threads) {
  r.plans.clear();
  auto by_host = detail::outliers_by_host(r);
  struct Job {
    const HostSummary* host;
    std::vector<Difference> diffs;
  };
  std::vector<Job> jobs;
  for (const HostSummary& h : r.hosts) {
    auto it = by_host.find(h.host);
    if (!h.loaded || it == by_host.end()) continue;
    // One difference per (setting, NIC): the Multi-Host check repeats a port's QoS setting.
    std::vector<Difference> diffs;
    std::set<std::pair<std::string, std::string>> seen;
    for (const detail::HostOutlier& ho : it->second) {
      if (ho.check->outcome != Outcome::fail || ho.check->setting == "model" || ho.check->setting == "nv.*") continue;
      if (!seen.insert({ho.check->setting, ho.outlier->subject}).second) continue;
      diffs.push_back({ho.check, ho.outlier, bdf_of(h, *ho.outlier)});
    }
    if (!diffs.empty()) jobs.push_back({&h, std::move(diffs)});
  }
  // Each host is loaded again and planned on its own (make_plan reads the snapshot, the policy
  // and the parameter DB, and writes nothing shared): a fleet whose every host differs from the
  // policy plans them all.
  std::vector<HostPlan> plans(jobs.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next.fetch_add(1); i < jobs.size(); i = next.fetch_add(1))
      plans[i] = plan_host(*jobs[i].host, std::move(jobs[i].diffs), policy, base);
  };
  unsigned n = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  n = static_cast<unsigned>(std::min<std::size_t>(n, jobs.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  r.plans = std::move(plans);
}

}  // namespace rk::fleet

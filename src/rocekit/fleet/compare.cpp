// Cross-host consistency: majority baseline and outliers per setting and group.
#include <algorithm>
#include <set>
#include <unordered_map>

#include "rocekit/fleet/fleet.hpp"

namespace rk::fleet {

namespace {

struct Sample {
  const std::string* host;
  const std::string* subject;
  const std::string* value;   ///< nullptr = unknown
  const std::string* reason;  ///< when unknown
};

const std::string k_no_reason = "not collected";

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

Consistency judge(std::string_view rule_id, std::string setting, std::string group,
                  const std::vector<Sample>& samples, std::string_view noun_one,
                  std::string_view noun_many) {
  Consistency c;
  c.rule = std::string(rule_id);
  const FleetRule* rule = find_fleet_rule(rule_id);
  c.severity = rule ? rule->severity : Severity::warning;
  c.setting = std::move(setting);
  c.group = std::move(group);
  std::unordered_map<std::string_view, std::size_t> counts;
  for (const Sample& s : samples) {
    if (s.value) {
      ++counts[*s.value];
      ++c.known;
    } else {
      ++c.unknown_count;
      if (c.unknown.size() < 20) c.unknown.push_back({*s.host, *s.subject, s.reason ? *s.reason : k_no_reason});
    }
  }
  for (auto& [v, n] : counts) c.distribution.emplace_back(std::string(v), n);
  std::sort(c.distribution.begin(), c.distribution.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::string unknown_note =
      c.unknown_count ? " (" + plural(c.unknown_count, noun_one, noun_many) + " unknown)" : "";
  if (c.known == 0) {
    c.outcome = Outcome::unknown;
    c.message = "no " + std::string(noun_one) + " reports " + c.setting + unknown_note;
    return c;
  }
  c.baseline = c.distribution.front().first;
  c.baseline_count = c.distribution.front().second;
  c.tie = c.distribution.size() > 1 && c.distribution[1].second == c.baseline_count;
  for (const Sample& s : samples)
    if (s.value && *s.value != c.baseline) c.outliers.push_back({*s.host, *s.subject, *s.value});
  if (c.outliers.empty()) {
    c.outcome = Outcome::pass;
    c.message = "all " + plural(c.known, noun_one, noun_many) + ": " + c.baseline + unknown_note;
  } else {
    c.outcome = Outcome::fail;
    c.message = plural(c.outliers.size(), noun_one, noun_many) + " of " + std::to_string(c.known) +
                (c.outliers.size() == 1 ? " differs" : " differ") + " from the " + (c.tie ? "tied " : "majority ") + "baseline " + c.baseline +
                " (" + std::to_string(c.baseline_count) + "/" + std::to_string(c.known) + ")" +
                unknown_note;
  }
  return c;
}

std::vector<Sample> samples_of(const std::vector<std::pair<const HostSummary*, const NicRecord*>>& nics,
                               const std::string& key) {
  std::vector<Sample> out;
  out.reserve(nics.size());
  for (auto [h, n] : nics) {
    auto v = n->values.find(key);
    if (v != n->values.end()) {
      out.push_back({&h->host, &n->subject, &v->second, nullptr});
    } else {
      auto u = n->unknown.find(key);
      out.push_back({&h->host, &n->subject, nullptr, u == n->unknown.end() ? nullptr : &u->second});
    }
  }
  return out;
}

}  // namespace

CrossHost compare_hosts(const std::vector<HostSummary>& hosts, const Policy& policy) {
  CrossHost out;
  using NicRef = std::pair<const HostSummary*, const NicRecord*>;
  std::vector<NicRef> all;
  std::map<std::string, std::vector<NicRef>> by_model;
  for (const HostSummary& h : hosts)
    for (const NicRecord& n : h.nics) {
      all.emplace_back(&h, &n);
      by_model[n.model].emplace_back(&h, &n);
    }

  // Port settings that must agree across the whole fabric.
  for (const FleetRule& r : fleet_rules()) {
    if (r.setting.empty()) continue;
    std::string key(r.setting);
    if (r.subject == "all NICs") {
      out.checks.push_back(judge(r.id, key, "all NICs", samples_of(all, key), "NIC", "NICs"));
    } else if (r.subject == "NIC model (PSID)") {
      for (auto& [model, nics] : by_model)
        out.checks.push_back(judge(r.id, key, model, samples_of(nics, key), "NIC", "NICs"));
    }
  }

  // Firmware NV parameters: once per physical NIC, within each model group.
  std::map<std::string, std::vector<std::pair<const HostSummary*, const PhysicalNicRecord*>>> phys_by_model;
  std::set<std::string> seen_global;
  for (const HostSummary& h : hosts)
    for (const PhysicalNicRecord& p : h.physical) {
      if (p.global_id && !seen_global.insert(p.key).second) continue;  // multi-host: once
      phys_by_model[p.model].emplace_back(&h, &p);
    }
  for (auto& [model, phys] : phys_by_model) {
    std::set<std::string> names;
    for (auto [h, p] : phys)
      for (auto& [name, v] : p->nv) names.insert(name);
    for (const std::string& name : names) {
      std::vector<Sample> samples;
      static const std::string k_absent = "the firmware query does not show this parameter";
      for (auto [h, p] : phys) {
        auto it = p->nv.find(name);
        samples.push_back({&h->host, &p->key, it == p->nv.end() ? nullptr : &it->second,
                           it == p->nv.end() ? &k_absent : nullptr});
      }
      out.checks.push_back(judge("fleet.nv-config-consistent", "nv." + name, model, samples,
                                 "physical NIC", "physical NICs"));
    }
  }

  // Multi-host NICs: one board serial / system image GUID seen from more than one host.
  std::map<std::string, std::vector<NicRef>> by_physical;
  for (const NicRef& r : all)
    if (!r.second->physical_id.empty()) by_physical[r.second->physical_id].push_back(r);
  for (auto& [key, pfs] : by_physical) {
    std::set<std::string> host_names;
    for (auto [h, n] : pfs) host_names.insert(h->host);
    if (host_names.size() < 2) continue;
    MultiHostNic m;
    m.key = key;
    m.model = pfs.front().second->model;
    for (auto [h, n] : pfs) m.pfs.push_back({h->host, n->subject, n->bdf});
    for (const HostSummary& h : hosts) {
      if (!host_names.count(h.host)) continue;
      for (const PhysicalNicRecord& p : h.physical)
        if (p.key == key && m.nv.empty()) {
          m.nv = p.nv;
          m.nv_host = h.host;
        }
    }
    out.multi_host.push_back(std::move(m));
    for (std::string_view s : {setting::trust, setting::dscp_map, setting::pfc, setting::ecn})
      out.checks.push_back(judge("fleet.multi-host-qos-identical", std::string(s), key,
                                 samples_of(pfs, std::string(s)), "PF", "PFs"));
  }
  std::erase_if(out.checks, [&](const Consistency& c) { return !policy.rule_enabled(c.rule); });
  for (Consistency& c : out.checks) c.severity = policy.severity_for(c.rule, c.severity);
  return out;
}

}  // namespace rk::fleet

// Cross-host consistency: the groups each setting is compared within (all NICs, a NIC model, the
// PFs of one Multi-Host NIC); judge.cpp picks the reference and the outliers of each.
#include <algorithm>
#include <map>
#include <set>

#include "rocekit/fleet/fleet.hpp"
#include "rocekit/fleet/judge.hpp"
#include "rocekit/rules/helpers.hpp"

namespace rk::fleet {

namespace {

using NicRef = std::pair<const HostSummary*, const NicRecord*>;

const std::string k_unknown_model = "unknown model";
const std::string k_unknown_model_why =
    "NIC model unknown (the input shows no PSID, PCI device name or RDMA vendor part id): not compared "
    "with other NICs";

std::vector<Sample> samples_of(const std::vector<NicRef>& nics, const std::string& key) {
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

/// NICs (or physical NICs) of unknown model: one unknown check per rule, each listed with why.
Consistency unknown_model_check(std::string_view rule, std::string setting, const std::vector<Outlier>& subjects,
                                Nouns nouns) {
  Consistency c = blank_check(rule, std::move(setting), "model unknown");
  c.unknown_count = subjects.size();
  for (const Outlier& s : subjects)
    if (c.unknown.size() < 20) c.unknown.push_back(s);
  c.message = plural(subjects.size(), nouns.one, nouns.many) + " of unknown model not compared: the input shows "
              "no PSID, PCI device name or RDMA vendor part id for " + (subjects.size() == 1 ? "it" : "them");
  return c;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

/// Part numbers as flint and the VPD print them ("MCX416A-CCA_Ax", "MCX416A-CCAT") name one
/// model when one is a prefix of the other once the "_A<rev>" suffix is dropped.
bool same_part(std::string a, std::string b) {
  a = upper(a);
  b = upper(b);
  for (std::string* s : {&a, &b})
    if (auto u = s->rfind("_A"); u != std::string::npos && s->size() - u <= 4) s->resize(u);
  return a.rfind(b, 0) == 0 || b.rfind(a, 0) == 0;
}

bool same_value(const std::string& attr, const std::string& a, const std::string& b) {
  return attr == "part number" ? same_part(a, b) : a == b;
}

std::string model_text(const NicRecord& n) {
  std::string t;
  for (const auto& [attr, v] : n.model_ids) t += (t.empty() ? "" : ", ") + attr + " " + v;
  return t.empty() ? "no PCI device id, PSID or part number" : t;
}

/// PFs that share a board serial / GUID are one card only when their model ids agree: no id
/// two PFs show differs, and each PF shows an id that a PF of another host shows too. Empty
/// when they agree, else why not.
std::string model_disagreement(const std::vector<NicRef>& pfs) {
  std::vector<std::string> conflicts;
  for (std::size_t i = 0; i < pfs.size(); ++i)
    for (std::size_t j = i + 1; j < pfs.size(); ++j)
      for (const auto& [attr, v] : pfs[i].second->model_ids) {
        auto o = pfs[j].second->model_ids.find(attr);
        if (o != pfs[j].second->model_ids.end() && !same_value(attr, v, o->second) &&
            std::find(conflicts.begin(), conflicts.end(), attr) == conflicts.end())
          conflicts.push_back(attr);
      }
  if (!conflicts.empty()) {
    std::string attrs;
    for (const std::string& a : conflicts) attrs += (attrs.empty() ? "" : ", ") + a;
    return "different NIC models (" + attrs + " differ)";
  }
  for (auto [h, n] : pfs) {
    bool shared = false;
    for (auto [h2, n2] : pfs)
      if (h2->host != h->host)
        for (const auto& [attr, v] : n->model_ids) shared = shared || n2->model_ids.count(attr);
    if (!shared) return "no PCI device id, PSID or part number of " + h->host + " " + n->subject +
                        " is shown on another host: cannot tell they are one card";
  }
  return "";
}

/// The unknown check for PFs that share `key` but not a model: names every PF and its model.
Consistency not_one_card(const std::string& key, const std::vector<NicRef>& pfs, const std::string& why) {
  Consistency c = blank_check("fleet.multi-host-qos-identical", "model", key);
  std::string list;
  for (auto [h, n] : pfs) {
    std::string model = model_text(*n);
    c.unknown.push_back({h->host, n->subject, model});
    list += (list.empty() ? "" : "; ") + h->host + " " + n->subject + " (" + model + ")";
    auto d = std::find_if(c.distribution.begin(), c.distribution.end(), [&](const auto& x) { return x.first == model; });
    if (d == c.distribution.end()) c.distribution.emplace_back(model, 1);
    else ++d->second;
  }
  c.unknown_count = pfs.size();
  c.message = key + " is shown by " + list + ": " + why + "; not joined into one Multi-Host NIC and not compared "
              "(two boards with one serial: check their VPD)";
  return c;
}

/// fleet.driver-firmware-compat in one model group: the NICs grouped by their (driver release,
/// firmware) pair, each group with fw.driver-compat's verdict on it (the compatibility table);
/// fails when a group's pair is not in its driver's release notes, naming that group.
Consistency driver_firmware_check(const std::string& model, const std::vector<NicRef>& nics) {
  static const std::string key(setting::driver_firmware);
  Consistency c = blank_check("fleet.driver-firmware-compat", key, model);
  struct Group {
    std::size_t count = 0;
    std::vector<std::string> hosts;
    Outcome verdict = Outcome::pass;
    std::string why;
  };
  std::map<std::string, Group> groups;
  auto rank = [](Outcome o) { return o == Outcome::fail ? 2 : o == Outcome::unknown ? 1 : 0; };
  for (auto [h, n] : nics) {
    auto v = n->values.find(key);
    if (v == n->values.end()) {
      auto u = n->unknown.find(key);
      ++c.unknown_count;
      if (c.unknown.size() < 20)
        c.unknown.push_back({h->host, n->subject, u == n->unknown.end() ? "not collected" : u->second});
      continue;
    }
    ++c.known;
    Group& g = groups[v->second];
    ++g.count;
    if (std::find(g.hosts.begin(), g.hosts.end(), h->host) == g.hosts.end()) g.hosts.push_back(h->host);
    Outcome o = n->compat.value_or(Outcome::unknown);
    if (o == Outcome::not_applicable) o = Outcome::unknown;
    if (g.why.empty() || rank(o) > rank(g.verdict)) {  // the worst verdict in the group, with its reason
      g.verdict = o;
      g.why = n->compat ? n->compat_why : "fw.driver-compat did not judge this NIC";
    }
    if (o == Outcome::fail) c.outliers.push_back({h->host, n->subject, v->second});
  }
  for (const auto& [pair, g] : groups) c.distribution.emplace_back(pair, g.count);
  std::stable_sort(c.distribution.begin(), c.distribution.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  bool any_fail = false, any_unknown = c.unknown_count > 0 || groups.empty();
  std::vector<std::string> parts, good;
  for (const auto& [pair, count] : c.distribution) {
    const Group& g = groups[pair];
    std::vector<std::string> shown(g.hosts.begin(), g.hosts.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(g.hosts.size(), 5)));
    std::string who = plural(g.hosts.size(), "host", "hosts") + " (" + rules::join(shown, ", ") +
                      (g.hosts.size() > shown.size() ? ", ..." : "") + ")";
    std::string verdict;
    if (g.verdict == Outcome::fail) {
      any_fail = true;
      verdict = "INCOMPATIBLE: " + g.why;
    } else if (g.verdict == Outcome::unknown) {
      any_unknown = true;
      verdict = "not judged: " + g.why;
    } else {
      good.push_back(pair);
      verdict = "in the release notes";
    }
    parts.push_back(pair + " on " + who + ": " + verdict);
  }
  c.outcome = any_fail ? Outcome::fail : any_unknown ? Outcome::unknown : Outcome::pass;
  if (!good.empty()) {
    c.baseline = rules::join(good, " or ");
    c.reference = "release notes";
    c.baseline_count = 0;
    for (const std::string& p : good) c.baseline_count += groups[p].count;
  }
  c.message = plural(groups.size(), "(driver release, firmware) group", "(driver release, firmware) groups") +
              (parts.empty() ? "" : ": " + rules::join(parts, "; "));
  if (c.unknown_count > 0)
    c.message += "; " + plural(c.unknown_count, "NIC", "NICs") + " without a pair (driver release or firmware not collected)";
  return c;
}

}  // namespace

CrossHost compare_hosts(const std::vector<HostSummary>& hosts, const Policy& policy, const std::string& baseline,
                        bool baseline_is_copy) {
  CrossHost out;
  // The reference of each check: the baseline host's value (--baseline), else the majority.
  auto pick = [&](std::string_view rule, std::string setting, std::string group, const std::vector<Sample>& samples,
                  Nouns nouns, const std::optional<PolicyValue>& pv) {
    return baseline.empty() ? judge(rule, std::move(setting), std::move(group), samples, nouns, pv)
                            : judge_against(rule, std::move(setting), std::move(group), samples, nouns, pv, baseline);
  };
  auto ignored = [&](const std::string& setting) {
    return std::find(policy.fleet_ignore.begin(), policy.fleet_ignore.end(), setting) != policy.fleet_ignore.end();
  };
  std::vector<NicRef> all;
  std::map<std::string, std::vector<NicRef>> by_role;  // "compute", "storage"
  std::map<std::string, std::vector<NicRef>> by_model;
  std::vector<Outlier> unknown_model;  // never pooled into one group
  for (const HostSummary& h : hosts)
    for (const NicRecord& n : h.nics) {
      all.emplace_back(&h, &n);
      by_role[n.role].emplace_back(&h, &n);
      if (n.model.empty() || n.model == k_unknown_model) unknown_model.push_back({h.host, n.subject, k_unknown_model_why});
      else by_model[n.model].emplace_back(&h, &n);
    }
  const Nouns nic_nouns{"NIC", "NICs"};

  // Port settings across the whole fabric; per-NIC settings within each model.
  for (const FleetRule& r : fleet_rules()) {
    if (r.setting.empty()) continue;
    std::string key(r.setting);
    if (ignored(key)) continue;  // the policy's fleet.ignore: listed in the report, not compared
    if (key == setting::driver_firmware) {  // grouped by pair and judged by the compat table
      for (auto& [model, nics] : by_model) out.checks.push_back(driver_firmware_check(model, nics));
      if (!unknown_model.empty()) out.checks.push_back(unknown_model_check(r.id, key, unknown_model, nic_nouns));
      continue;
    }
    std::optional<PolicyValue> pv = policy_value(key, policy);
    if (r.subject == "all NICs" && by_role.size() > 1) {
      // Compute and storage ports are compared each with their own kind: a storage fabric's
      // MTU or QoS is not an outlier of the compute majority.
      for (auto& [role, nics] : by_role)
        out.checks.push_back(pick(r.id, key, role + " NICs", samples_of(nics, key), nic_nouns, pv));
    } else if (r.subject == "all NICs") {
      out.checks.push_back(pick(r.id, key, "all NICs", samples_of(all, key), nic_nouns, pv));
    } else if (r.subject == "NIC model (PSID)") {
      for (auto& [model, nics] : by_model)
        out.checks.push_back(pick(r.id, key, model, samples_of(nics, key), nic_nouns, pv));
      if (!unknown_model.empty()) out.checks.push_back(unknown_model_check(r.id, key, unknown_model, nic_nouns));
    }
  }

  // Multi-Host NICs: one board serial / system image GUID seen from more than one host, whose
  // PFs agree on the NIC model.
  std::vector<Consistency> multi_checks;
  std::set<std::string> joined;
  std::map<std::string, std::vector<NicRef>> by_physical;
  // A BlueField's Arm side shows the same board as its host: the DPU pairing (dpu_pairs.cpp)
  // joins the two, they are not a Multi-Host NIC.
  for (const NicRef& r : all)
    if (!r.second->physical_id.empty() && !(baseline_is_copy && r.first->host == baseline) &&
        r.first->bluefield_arm.empty())
      by_physical[r.second->physical_id].push_back(r);
  for (auto& [key, pfs] : by_physical) {
    std::set<std::string> host_names;
    for (auto [h, n] : pfs) host_names.insert(h->host);
    if (host_names.size() < 2) continue;
    if (std::string why = model_disagreement(pfs); !why.empty()) {
      multi_checks.push_back(not_one_card(key, pfs, why));
      continue;
    }
    joined.insert(key);
    MultiHostNic m;
    m.key = key;
    m.model = pfs.front().second->model;
    for (auto [h, n] : pfs) m.pfs.push_back({h->host, n->subject, n->bdf});
    for (const HostSummary& h : hosts) {
      if (!host_names.count(h.host)) continue;
      for (const PhysicalNicRecord& p : h.physical)
        if (p.key == key && m.nv.empty()) {
          m.nv.insert(p.nv.begin(), p.nv.end());
          m.nv_host = h.host;
        }
    }
    out.multi_host.push_back(std::move(m));
    for (std::string_view s : {setting::trust, setting::dscp_map, setting::pfc, setting::ecn})
      if (!ignored(std::string(s)))
        multi_checks.push_back(judge("fleet.multi-host-qos-identical", std::string(s), key,
                                   samples_of(pfs, std::string(s)), {"PF", "PFs"}, policy_value(s, policy)));
  }

  // Firmware NV parameters: once per physical NIC (a Multi-Host NIC once), within each model.
  std::map<std::string, std::vector<std::pair<const HostSummary*, const PhysicalNicRecord*>>> phys_by_model;
  std::vector<Outlier> phys_unknown_model;
  std::set<std::string> seen_joined;
  for (const HostSummary& h : hosts)
    for (const PhysicalNicRecord& p : h.physical) {
      if (p.global_id && joined.count(p.key) && !seen_joined.insert(p.key).second) continue;
      if (p.model.empty() || p.model == k_unknown_model) phys_unknown_model.push_back({h.host, p.key, k_unknown_model_why});
      else phys_by_model[p.model].emplace_back(&h, &p);
    }
  for (auto& [model, phys] : phys_by_model) {
    std::set<std::string> names;
    for (auto [h, p] : phys)
      for (auto& [name, v] : p->nv) names.insert(name);
    if (names.empty()) continue;
    if (phys.size() == 1) {  // one physical NIC of this model: one unknown check, not one per parameter
      Consistency c = blank_check("fleet.nv-config-consistent", "nv.*", model);
      c.known = 1;
      c.message = "only 1 physical NIC of this model (" + phys[0].first->host + " " + phys[0].second->key +
                  "): its " + plural(names.size(), "firmware parameter", "firmware parameters") +
                  " have nothing to compare with";
      out.checks.push_back(std::move(c));
      continue;
    }
    for (const std::string& name : names) {
      if (ignored("nv." + name)) continue;
      std::vector<Sample> samples;
      static const std::string k_absent = "the firmware query does not show this parameter";
      for (auto [h, p] : phys) {
        auto it = p->nv.find(name);
        samples.push_back({&h->host, &p->key, it == p->nv.end() ? nullptr : &it->second,
                           it == p->nv.end() ? &k_absent : nullptr});
      }
      out.checks.push_back(pick("fleet.nv-config-consistent", "nv." + name, model, samples,
                                {"physical NIC", "physical NICs"}, std::nullopt));
    }
  }
  if (!phys_unknown_model.empty())
    out.checks.push_back(unknown_model_check("fleet.nv-config-consistent", "nv.*", phys_unknown_model,
                                             {"physical NIC", "physical NICs"}));
  for (Consistency& c : multi_checks) out.checks.push_back(std::move(c));

  std::erase_if(out.checks, [&](const Consistency& c) { return !policy.rule_enabled(c.rule); });
  for (Consistency& c : out.checks) c.severity = policy.severity_for(c.rule, c.severity);
  return out;
}

}  // namespace rk::fleet

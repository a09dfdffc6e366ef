// The whole fleet run: a pool of worker threads loads, checks and reduces hosts; the calling
// thread reports progress, then compares the reduced hosts.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "rocekit/fleet/fleet.hpp"
#include "rocekit/rules/rule.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::fleet {

bool FleetReport::has_problem(Severity threshold) const {
  if (!problems.empty()) return true;
  for (const Consistency& c : cross.checks)
    if (c.outcome == Outcome::fail) return true;
  for (const HostSummary& h : hosts)
    for (const HostFinding& f : h.failures)
      if (static_cast<int>(f.severity) >= static_cast<int>(threshold)) return true;
  return false;
}

void keep_rules(FleetReport& r, const std::vector<std::string>& selectors) {
  if (selectors.empty()) return;
  auto drop = [&](const std::string& rule) { return !rules::selects_any(rule, selectors); };
  std::erase_if(r.cross.checks, [&](const Consistency& c) { return drop(c.rule); });
  std::erase_if(r.rules, [&](const RuleTally& t) { return drop(t.rule); });
  for (HostSummary& h : r.hosts) std::erase_if(h.failures, [&](const HostFinding& f) { return drop(f.rule); });
}

bool anything_judged(const FleetReport& r) {
  for (const Consistency& c : r.cross.checks)
    if (c.outcome == Outcome::pass || c.outcome == Outcome::fail) return true;
  for (const RuleTally& t : r.rules)  // the kept per-host rules
    for (const HostSummary& h : r.hosts)
      if (const OutcomeCounts* c = h.rule_counts.find(t.rule);
          c && (*c)[static_cast<std::size_t>(Outcome::pass)] + (*c)[static_cast<std::size_t>(Outcome::fail)] > 0)
        return true;
  return false;
}

namespace {

/// The built-in severity of a per-host rule (host or switch.*) from the rule registry (warning
/// for a rule it does not know).
Severity rule_severity(std::string_view id) {
  if (const rules::RuleInfo* r = rules::find_rule(id)) return r->severity;
  return Severity::warning;
}

}  // namespace

FleetReport run_fleet(const Discovery& inputs, const Options& options) {
  FleetReport report;
  report.problems = inputs.problems;
  const std::size_t total = inputs.hosts.size();
  report.hosts.resize(total);

  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(total, 1))));
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex mu;
  std::condition_variable cv;
  // One unknown reason per rule for the whole fleet: from the lowest discovery index, so the
  // report does not depend on thread timing; the hosts' own copies are dropped.
  std::mutex examples_mu;
  std::map<std::string, std::pair<std::size_t, std::string>> unknown_examples;

  auto worker = [&] {
    for (;;) {
      std::size_t i = next.fetch_add(1);
      if (i >= total) break;
      const std::string file = inputs.hosts[i].string();
      HostSummary& out = report.hosts[i];
      Result<Snapshot> snap = load_host(inputs.hosts[i]);
      if (snap) {
        try {
          out = summarize_host(*snap, file, options.policy, options.extra_checks);
        } catch (const std::exception& e) {  // an extra checker that throws: report, go on
          out = HostSummary{};
          out.file = file;
          out.host = file;
          out.error = std::string("checking failed: ") + e.what();
        }
      } else {
        out.file = file;
        out.host = file;
        out.error = snap.error().message;
      }
      if (!out.unknown_examples.empty()) {
        std::lock_guard<std::mutex> lock(examples_mu);
        for (auto& [rule, reason] : out.unknown_examples) {
          auto [it, fresh] = unknown_examples.try_emplace(rule, i, reason);
          if (!fresh && i < it->second.first) it->second = {i, std::move(reason)};
        }
        out.unknown_examples.clear();
      }
      // The Snapshot is destroyed here: only the reduced summary stays.
      if (done.fetch_add(1) + 1 == total) {
        std::lock_guard<std::mutex> lock(mu);
        cv.notify_all();
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  std::size_t reported = static_cast<std::size_t>(-1);
  {
    std::unique_lock<std::mutex> lock(mu);
    while (done.load() < total) {
      cv.wait_for(lock, std::chrono::milliseconds(100));
      reported = done.load();
      if (options.progress) options.progress(reported, total);
    }
  }
  for (std::thread& t : pool) t.join();
  if (options.progress && reported != total) options.progress(total, total);  // once at the end

  // Hosts must be told apart: when several snapshots carry one hostname (cloned images, fixture
  // trees collected on one machine), each of them is named by its input file instead.
  std::map<std::string, std::size_t> name_count;
  for (const HostSummary& h : report.hosts)
    if (h.loaded) ++name_count[h.host];
  for (HostSummary& h : report.hosts)
    if (h.loaded && name_count[h.host] > 1) h.host = h.file;
  for (HostSummary& h : report.hosts) {
    if (!h.loaded || h.host != h.file) continue;
    // Shorten "<dir>/node-a.json" to "node-a" when that stem is unique.
    std::filesystem::path p(h.file);
    std::string stem = p.filename().string();
    for (std::string_view suf : {".tar.gz", ".tgz", ".tar", ".json"})
      if (stem.size() > suf.size() && stem.compare(stem.size() - suf.size(), suf.size(), suf) == 0) {
        stem.resize(stem.size() - suf.size());
        break;
      }
    if (!name_count.count(stem)) {
      name_count[stem] = 1;
      h.host = stem;
    }
  }

  // Tallies and load failures, in discovery order.
  std::map<std::string, RuleTally> tallies;
  for (const rules::RuleInfo& r : rules::all_rules()) {
    std::string id(r.id);
    if (!options.policy.rule_enabled(id)) continue;
    RuleTally& t = tallies[id];
    t.rule = id;
    t.severity = options.policy.severity_for(id, r.severity);
  }
  for (const HostSummary& h : report.hosts) {
    if (!h.loaded) {
      report.problems.push_back({h.file, h.error});
      continue;
    }
    ++report.hosts_loaded;
    report.nic_count += h.nics.size();
    for (const auto& [rule, counts] : h.rule_counts) {
      RuleTally& t = tallies[std::string(rule)];
      if (t.rule.empty()) {  // an extra checker's rule: its severity from the rule's metadata
        t.rule = rule;
        t.severity = options.policy.severity_for(t.rule, rule_severity(rule));
      }
      std::size_t fail = counts[static_cast<std::size_t>(Outcome::fail)];
      t.findings_fail += fail;
      if (fail) ++t.hosts_fail;
      else if (counts[static_cast<std::size_t>(Outcome::unknown)]) ++t.hosts_unknown;
      else ++t.hosts_pass;
    }
    for (const HostFinding& f : h.failures) {
      RuleTally& t = tallies[f.rule];
      t.severity = f.severity;
    }
  }
  for (const auto& [rule, example] : unknown_examples)
    if (auto it = tallies.find(rule); it != tallies.end())
      it->second.unknown_example = report.hosts[example.first].host + " " + example.second;
  for (auto& [id, t] : tallies) report.rules.push_back(t);
  std::stable_sort(report.rules.begin(), report.rules.end(), [](const RuleTally& a, const RuleTally& b) {
    if (a.hosts_fail != b.hosts_fail) return a.hosts_fail > b.hosts_fail;
    if (a.severity != b.severity) return static_cast<int>(a.severity) > static_cast<int>(b.severity);
    return a.rule < b.rule;
  });

  if (!options.baseline.empty()) {
    // A host name, or the input the host was loaded from.
    std::error_code ec;
    const std::filesystem::path want = std::filesystem::weakly_canonical(options.baseline, ec);
    for (const HostSummary& h : report.hosts) {
      bool same_file = !ec && std::filesystem::weakly_canonical(h.file, ec) == want;
      if (h.host == options.baseline || h.file == options.baseline || same_file) {
        if (h.loaded) report.baseline = h.host;
        else report.baseline_error = "the baseline " + options.baseline + " could not be loaded: " + h.error;
        break;
      }
    }
    if (report.baseline.empty() && report.baseline_error.empty()) {
      std::error_code e2;
      bool looks_like_path = options.baseline.find('/') != std::string::npos || options.baseline.ends_with(".json");
      report.baseline_error =
          looks_like_path && !std::filesystem::exists(options.baseline, e2)
              ? "--baseline " + options.baseline + ": no such file, and no host has that name"
              : "no host named " + options.baseline + " among the " + std::to_string(report.hosts_loaded) +
                    " loaded hosts (hosts that share a hostname are named by their input file; give a host name as "
                    "the report shows it, or a snapshot path)";
    }
    if (!report.baseline_error.empty()) return report;
  }
  report.ignored = options.policy.fleet_ignore;
  report.cross = compare_hosts(report.hosts, options.policy, report.baseline, options.baseline_is_copy);
  report.dpus = pair_dpus(report.hosts);
  return report;
}

}  // namespace rk::fleet

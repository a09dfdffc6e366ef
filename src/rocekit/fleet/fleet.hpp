// rk_fleet: many hosts at once (issue 7). Each host input (snapshot JSON, capture directory,
// capture tarball) is loaded and checked on a worker thread, then reduced to the settings that
// are compared across hosts plus a summary of its findings; the full Snapshot is dropped at once
// so memory stays bounded by the reduced form (about a few KiB per host). Cross-host checks then
// find, per setting, the reference value and the hosts/NICs that differ from it: the majority
// value, unless it violates the policy or there is no majority (a tie), when the policy's value
// is the reference; a tie with no policy value, or fewer than two reporting NICs, is unknown.
//
// Library code: no printing, no exit. Progress is reported through a callback that runs on the
// calling thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/fleet/shared_map.hpp"
#include "rocekit/model/finding.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/plan/plan.hpp"
#include "rocekit/policy/fleet_settings.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::fleet {

// ---------------------------------------------------------------- inputs -------------------

/// An input that could not be used: the file and why ("not a rocekit snapshot", "no such file").
struct InputProblem {
  std::string file;
  std::string reason;
};

/// The host inputs found under the command-line arguments, in a stable (sorted) order.
struct Discovery {
  std::vector<std::filesystem::path> hosts;
  std::vector<InputProblem> problems;
};

/// Expands command-line arguments into host inputs. The rule (docs/fleet.md "Inputs"):
/// - a regular file is one host (snapshot `*.json`, capture `*.tar.gz`/`*.tgz`/`*.tar`); any
///   other regular file is still tried as a capture tarball and reported if that fails;
/// - a directory holding at least one `*.txt` file or a `rocekit-capture.log` is one capture
///   directory (one host);
/// - any other directory is a fleet directory: each non-hidden entry that is a `*.json`,
///   `*.tar.gz`, `*.tgz` or `*.tar` file, or a subdirectory, is expanded by the same rule
///   (up to 4 levels down); other files (README.md, ...) are skipped. A fleet directory in which
///   nothing is found is a problem ("no snapshots or captures found").
/// A missing argument is a problem ("no such file or directory"). An input whose canonical path
/// was already taken (listed twice, or reached again through a symlink) is loaded once and the
/// repeat is a problem; a directory walked twice (a symlink loop) is skipped as a problem.
/// Never throws.
Discovery discover_inputs(const std::vector<std::filesystem::path>& args);

// ---------------------------------------------------------------- reduced host ---------------

// Setting ids compared across hosts: rocekit/policy/fleet_settings.hpp (the policy's
// fleet.ignore names them too).

/// One NIC port of a host (a netdev backed by a PCI function or RDMA device; or an NVIDIA PF
/// without a netdev) reduced to the compared settings.
struct NicRecord {
  std::string subject;      ///< netdev name, or the BDF when the port has no netdev
  std::string bdf;          ///< "dddd:bb:dd.f", "" when unknown
  SharedText model;  ///< comparison group for versions: PSID, else device name, else "unknown model"
  /// The policy's interface role ("compute" or "storage"; "compute" when no `interfaces:` entry
  /// matches): port settings are compared within each role when a fleet has both.
  std::string role = "compute";
  std::string physical_id;  ///< physical NIC id ("board serial MT..." / "system image GUID ..."), "" unknown
  /// What identifies the NIC model, whatever the input shows: "PCI device" ("0x1021"), "PSID",
  /// "part number". Two PFs that share a physical_id are one card only when these agree.
  SharedMap model_ids;
  /// setting id -> canonical value. A setting absent here was not collected: `unknown` holds
  /// the reason.
  SharedMap values;
  SharedMap unknown;
  /// fw.driver-compat's verdict on this NIC on its host (the compatibility table on its
  /// driver_firmware pair) and its message; nullopt when the rule gave none for the NIC.
  std::optional<Outcome> compat;
  SharedText compat_why;  ///< held once per distinct message
};

/// Firmware NV configuration of one physical NIC as one host sees it (reported once per physical
/// NIC; CNP_* parameters are compared per port by fleet.cnp-consistent instead).
struct PhysicalNicRecord {
  std::string key;     ///< physical_id, or "<host>/<dddd:bb:dd>" when the NIC has no global id
  bool global_id = false;  ///< key is a board serial / GUID valid across hosts
  std::string model;
  std::string bdf;     ///< the PF whose NV configuration was read
  SharedMap nv;        ///< parameter -> current (else next-boot) value
};

/// A finding of a host kept for the report (failures only; the rest is counted).
struct HostFinding {
  SharedText rule;
  std::string subject;
  Severity severity = Severity::warning;
  SharedText message;  ///< most hosts of a fleet fail with the same words: held once
};

/// Per rule: count of findings per outcome (index = static_cast<int>(Outcome)).
using OutcomeCounts = std::array<std::uint32_t, 4>;

/// One host's OutcomeCounts per rule, sorted by rule id. A fleet keeps one of these per host for
/// its whole run, and most hosts' are identical: share_identical() makes such hosts hold one
/// copy (copy-on-write), so 100,000 hosts cost about one table, not 100,000 (docs/benchmarks.md).
class RuleCounts {
 public:
  using Entry = std::pair<std::string_view, OutcomeCounts>;  ///< rule id (interned), counts

  /// The counts of `rule`, added as zeros when absent.
  OutcomeCounts& operator[](std::string_view rule);
  /// nullptr when the host has no finding of `rule`.
  const OutcomeCounts* find(std::string_view rule) const;
  std::vector<Entry>::const_iterator begin() const { return table().begin(); }
  std::vector<Entry>::const_iterator end() const { return table().end(); }
  bool empty() const { return table().empty(); }

  /// Holds the same table as an earlier host with equal counts (thread-safe; the tables are
  /// kept for the process).
  void share_identical();

 private:
  const std::vector<Entry>& table() const;
  std::shared_ptr<const std::vector<Entry>> m_table;
};

/// A port of a BlueField (dpu_pairs.cpp): on a host, a PF of a BlueField in DPU mode (its port
/// QoS is set on the card's Arm side); in an Arm-side input, a port of the card itself.
struct DpuPort {
  std::string subject;      ///< netdev, or the BDF
  std::string bdf;
  std::string physical_id;  ///< NicRecord::physical_id, "" unknown
};

/// One host after loading, checking and reducing. `loaded == false`: `error` says why and the
/// rest is empty.
struct HostSummary {
  std::string file;      ///< the input path as discovered
  std::string host;      ///< hostname from the snapshot, else the input's file name
  bool loaded = false;
  std::string error;     ///< load failure ("not a rocekit snapshot (no schema_version)")
  std::vector<NicRecord> nics;
  std::vector<PhysicalNicRecord> physical;
  /// Why the input was taken on a BlueField's Arm side (model/bluefield.hpp bluefield_arm_side);
  /// "" for a host.
  std::string bluefield_arm;
  std::vector<DpuPort> dpu_ports;  ///< host: its DPU-mode BlueField PFs; Arm side: its card's ports
  std::vector<HostFinding> failures;
  RuleCounts rule_counts;
  /// Why `rocekit check` on this input would exit 3 without a failure (rules::not_judged_reasons):
  /// no RoCE port judged, an input file not used, no rule passed or failed. Empty: judged.
  std::vector<std::string> not_judged;
  /// Per rule with an unknown finding: the first one's "subject: reason". run_fleet keeps one
  /// example per rule for the whole fleet and clears this.
  std::map<std::string, std::string> unknown_examples;
};

/// A caller-supplied per-host check run after the built-in rules (e.g. switch alignment). It
/// must be thread-safe: it is called from several worker threads at once, one snapshot each.
/// Its findings are counted and reported like the built-in rules' findings. `input_name` is the
/// stem of the host's input path (`<dir>/node-a.json` -> `node-a`), the name the report shows
/// for a host whose snapshot has no hostname.
using HostChecker = std::function<std::vector<Finding>(const Snapshot&, const std::string& input_name)>;

/// True for a board serial or GUID that identifies no board: empty; all zeros (also with `:`,
/// `-`, `.` separators or a 0x prefix) or all F's; "MT" followed only by zeros and X's
/// (`MT0000X00000`, the serial of a board whose VPD was never programmed); filler text such as
/// "N/A", "Not Available", "To be filled by O.E.M.", "Default string", "None", "Unknown".
/// Such ids never join NICs into one physical NIC.
bool is_placeholder_id(std::string_view id);

/// Reduces one loaded snapshot: runs the policy's rules and the extra checkers, extracts the
/// compared settings. `file` is the input path (names the host when the snapshot has no
/// hostname).
HostSummary summarize_host(const Snapshot& snapshot, const std::string& file, const Policy& policy,
                           const std::vector<HostChecker>& extra_checks = {});

// ---------------------------------------------------------------- cross-host -----------------

/// A NIC (or physical NIC) whose value is not the baseline, or is unknown (value = the reason).
struct Outlier {
  std::string host;
  std::string subject;  ///< netdev / BDF, or the physical NIC key
  std::string value;
};

/// One cross-host comparison: one setting within one group.
///
/// The reference: the majority value when there is a strict majority and it meets the policy
/// (or the policy has no value for the setting); the policy's value when the majority violates
/// it or there is a tie (outliers: the subjects that violate the policy). Unknown, with no
/// reference: fewer than two subjects report a value; a tie with no policy value (or one where
/// every value meets it: `tied` lists the subjects); a group that cannot be compared (NICs of
/// unknown model, PFs that share a serial but not a model).
struct Consistency {
  std::string rule;      ///< fleet.<setting>-consistent, fleet.multi-host-qos-identical
  Severity severity = Severity::warning;
  Outcome outcome = Outcome::unknown;  ///< pass: all known values equal; fail: outliers; unknown: see above
  std::string setting;   ///< setting id, "nv.<PARAM>", "nv.*" or "model" (see `group`)
  std::string group;     ///< "all NICs" ("compute NICs" / "storage NICs" when the policy gives both roles), a model (PSID), "model unknown" or a physical NIC key
  std::string baseline;  ///< the reference value: majority value or policy text ("" when none)
  std::string reference;     ///< "majority", "policy", "release notes" (fleet.driver-firmware-compat) or ""
  std::string policy_value;  ///< what the policy requires of the setting ("" when nothing)
  /// The reference is a --baseline host's value that violates the policy: still the report's
  /// reference, never a plan's target (plan_outliers says so instead).
  bool reference_violates_policy = false;
  bool tie = false;      ///< no strict majority (the two most common values have one count)
  std::size_t known = 0;           ///< subjects with a value
  std::size_t baseline_count = 0;  ///< subjects with the reference value (meeting the policy)
  std::vector<std::pair<std::string, std::size_t>> distribution;  ///< value -> subjects, most common first
  std::vector<Outlier> outliers;   ///< every subject whose value differs from the reference
  std::vector<Outlier> tied;       ///< a tie without a reference: every subject with its value
  std::size_t unknown_count = 0;   ///< subjects without a value
  std::vector<Outlier> unknown;    ///< the first 20 of them, value = the reason
  std::string message;
};

/// A physical NIC seen from more than one host (multi-host), with its PFs and its NV
/// configuration reported once.
struct MultiHostNic {
  std::string key;
  std::string model;
  std::vector<Outlier> pfs;  ///< host, subject (netdev or BDF), value = BDF
  std::map<std::string, std::string> nv;  ///< from the first host that has it
  std::string nv_host;       ///< where `nv` was read
};

/// Cross-host checks over reduced hosts: per-port QoS/MTU settings across all NICs; MRRS,
/// coalescing, firmware and driver version within each model group; NV parameters once per
/// physical NIC within each model group; QoS identical across the PFs of each multi-host NIC.
struct CrossHost {
  std::vector<Consistency> checks;
  std::vector<MultiHostNic> multi_host;
};
/// `policy`'s `rules:` section applies: a disabled fleet.* rule yields no checks, and a
/// severity set there replaces the rule's.
/// With `baseline` (a host name of `hosts`), each check's reference is that host's value in the
/// group instead of the majority (judge_against); the PFs of one Multi-Host NIC are still
/// compared with each other, and driver/firmware pairs with the release notes.
/// `baseline_is_copy`: the baseline came from outside the inputs (a golden snapshot, often of a
/// host that is in the fleet too): its NICs join no Multi-Host NIC. Settings the policy's
/// `fleet.ignore` lists ("mtu", "nv.NUM_OF_VFS") are not compared.
CrossHost compare_hosts(const std::vector<HostSummary>& hosts, const Policy& policy = default_policy(),
                        const std::string& baseline = {}, bool baseline_is_copy = false);

// ---------------------------------------------------------------- the whole run --------------

struct Options {
  Policy policy;
  /// Worker threads; 0 = std::thread::hardware_concurrency() (at least 1).
  unsigned threads = 0;
  std::vector<HostChecker> extra_checks;
  /// Called on the calling thread about every 100 ms while hosts load, and once at the end.
  std::function<void(std::size_t done, std::size_t total)> progress;
  /// --baseline: a host name, or the path of one of the inputs (as discovered); "" = majority.
  std::string baseline;
  /// The baseline input was added from outside the fleet's inputs (compare_hosts
  /// `baseline_is_copy`).
  bool baseline_is_copy = false;
};

/// Per-host rule tally across the fleet.
struct RuleTally {
  std::string rule;
  Severity severity = Severity::warning;
  std::size_t hosts_fail = 0;     ///< hosts with at least one failing finding of the rule
  std::size_t hosts_unknown = 0;  ///< hosts with an unknown and no failure
  std::size_t hosts_pass = 0;     ///< hosts where every finding passed / not applicable
  std::size_t findings_fail = 0;
  /// Why it is unknown, from the first host (in discovery order) with an unknown finding of the
  /// rule: "host subject: reason". Empty when no host is unknown.
  std::string unknown_example;
};

/// What brings one outlier host to the reference (plan_outliers): `rocekit plan`'s actions for
/// exactly the settings and NICs where it differs, and a "not planned" line for each difference
/// no action covers.
struct HostPlan {
  std::string host;  ///< as the report names it
  std::string file;  ///< its input, loaded again for the plan
  /// make_plan restricted to the differing settings (PlanOptions::keep_action): its actions,
  /// its identity (the guards of render_sh and render_ansible), warnings, and in `unplanned`
  /// the planner's lines about those settings plus one per difference no action covers, with
  /// the fleet rule and what to do: {fleet.mtu-consistent, eth4, "mtu: 9000 -> 4200: rocekit
  /// plan raises an MTU below the reference and never lowers a larger one"},
  /// {fleet.firmware-consistent, eth4, "firmware: 28.39.2048 -> 28.43.3608: ..."}.
  plan::Plan plan;
  std::string error;  ///< the input could not be loaded again ("" when it could)
};

/// A host's DPU-mode BlueField and the Arm-side input of that card, when one is among the inputs
/// (paired by NicRecord::physical_id: board serial, else system image GUID).
struct DpuPairing {
  std::string host;
  std::string ports;        ///< "ens1f0np0 (0000:2b:00.0), ens1f1np1 (0000:2b:00.1)"
  std::string physical_id;  ///< "" when the card shows no board serial or GUID
  std::string arm_host;     ///< the Arm-side input's host name; "" when none pairs
  std::string message;
};

/// Pairs every DPU-mode BlueField of a host with the Arm-side input of the same card; a card
/// without one says its port QoS was not audited. Host order, then physical id.
std::vector<DpuPairing> pair_dpus(const std::vector<HostSummary>& hosts);
/// Fills h.bluefield_arm and h.dpu_ports from the snapshot (after h.nics).
void note_bluefield(const Snapshot& s, HostSummary& h);

struct FleetReport {
  std::vector<HostSummary> hosts;  ///< discovery order; unloadable hosts included
  std::vector<DpuPairing> dpus;    ///< pair_dpus(hosts)
  std::vector<InputProblem> problems;  ///< discovery problems and load failures
  CrossHost cross;
  std::vector<RuleTally> rules;    ///< per-host rules, most failing hosts first
  std::size_t hosts_loaded = 0;
  std::size_t nic_count = 0;
  std::string baseline;        ///< the baseline host's name (Options::baseline resolved), "" = majority
  std::string baseline_error;  ///< why Options::baseline names no loaded host ("" when it does)
  std::vector<std::string> ignored;  ///< the policy's fleet.ignore settings (not compared)
  /// One per outlier host (a host with a NIC in a failing check's outliers), in host order;
  /// filled by plan_outliers, empty before.
  std::vector<HostPlan> plans;

  /// True when a loaded host has a failure at or above `threshold`, a cross-host check failed,
  /// or an input could not be loaded.
  bool has_problem(Severity threshold) const;
};

/// Loads one host input (snapshot JSON, capture directory or tarball). A capture with no usable
/// file is an error ("no usable tool output in the capture"). A `*.json` file is parsed here,
/// without its counter sections (`stats`, `counters`: no rule reads them) and its evidence
/// objects below the top level (`source`, `*_source`: findings then cite no evidence, which the
/// fleet report does not keep); invalid JSON is "not valid JSON at line L, column C".
Result<Snapshot> load_host(const std::filesystem::path& path);
/// The `*.json` part of load_host.
Result<Snapshot> load_snapshot_json(const std::filesystem::path& path);
/// An input whole, as `rocekit plan` loads it (load_input: evidence and counters kept), a
/// `*.json` file through the simdjson reader when it reads it exactly (the fleet's second pass
/// over its outlier hosts).
Result<Snapshot> load_host_whole(const std::filesystem::path& path);

/// Loads, checks and reduces every host (in parallel), then compares them.
FleetReport run_fleet(const Discovery& inputs, const Options& options);
/// Keeps only what `selectors` (rule ids or areas: rules::selects) select: cross-host checks,
/// per-host failures and rule tallies. Input problems are always kept. Empty: keeps everything.
void keep_rules(FleetReport& r, const std::vector<std::string>& selectors);
/// True when a cross-host check or a per-host rule passed or failed on some host.
bool anything_judged(const FleetReport& r);

/// Fills `r.plans` (src/rocekit/fleet/actions.cpp, docs/fleet.md "Plans for outlier hosts"):
/// each outlier host's input is loaded again (the first pass kept only its reduced settings)
/// and planned by plan::make_plan with a copy of `policy` whose values for the differing
/// settings are the checks' references (the baseline host's or the majority's value; the
/// policy's where the check's reference is the policy), restricted to the NICs and settings
/// that differ. Firmware, driver and firmware NV differences get a "not planned" line. Call after
/// keep_rules: only the kept checks are planned. `base` carries the planner's inputs (firmware
/// parameter DB, protected_unchecked). The hosts are planned on `threads` threads (0: hardware
/// concurrency); r.plans is in the hosts' order whatever the threads.
void plan_outliers(FleetReport& r, const Policy& policy, const plan::PlanOptions& base, unsigned threads = 0);

// ---------------------------------------------------------------- rules and rendering --------

/// A fleet rule: the Family::fleet rows of the one rule registry (rules/table_fleet.cpp). Ids
/// are a public contract. `subject` is the group a setting is compared within ("all NICs",
/// "NIC model (PSID)", "physical NIC ..."), `setting` the setting id compared.
using FleetRule = rules::RuleInfo;
const std::vector<FleetRule>& fleet_rules();
const FleetRule* find_fleet_rule(std::string_view id);

enum class Format { text, json, markdown, html };
struct RenderOptions {
  std::size_t max_hosts_detail = 200;  ///< text/markdown: host detail rows (JSON lists all)
  std::size_t max_outliers = 20;       ///< text/markdown: outliers per check (JSON lists all)
  std::string policy_name = "default";
  bool quiet = false;  ///< text/markdown: leave passing cross-host checks out
  bool color = false;  ///< text: ANSI colours by outcome
};
/// JSON report: `{fleet_report_version: 1, tool_version, policy, summary {hosts, hosts_loaded,
/// hosts_failed_to_load, nics, checks_failed, ...}, problems[], rules[], consistency[],
/// multi_host_nics[], hosts[]}` (docs/fleet.md "Output" shows the shape).
nlohmann::json render_json(const FleetReport& r, const RenderOptions& o);
/// HTML report (render_html.cpp): one self-contained page, no network; a hosts x rules matrix
/// grouped by outcome, per-setting distributions with the outliers, Multi-Host NICs, per-host
/// detail on demand (docs/fleet.md "HTML report").
std::string render_html(const FleetReport& r, const RenderOptions& o);
std::string render(const FleetReport& r, Format f, const RenderOptions& o);
/// The same report written to `os`; JSON host by host, never whole in memory (what the CLI
/// writes). False when the stream failed.
bool render_to(std::ostream& os, const FleetReport& r, Format f, const RenderOptions& o);

}  // namespace rk::fleet

// Per-outcome cases of the fleet rules (`fleet.*`) on hand-built reduced hosts
// (fleet::HostSummary), compared by fleet::compare_hosts.
#include "cases.hpp"
#include "rocekit/fleet/fleet.hpp"

namespace rk::testcases {
namespace {

using fleet::HostSummary;
using fleet::NicRecord;
using fleet::PhysicalNicRecord;

/// The cross-host checks as findings: subject = the group compared within ("all NICs", a model,
/// a physical NIC key), message = the check's message.
std::vector<Finding> fleet_findings(const std::vector<HostSummary>& hosts) {
  std::vector<Finding> out;
  for (const fleet::Consistency& c : fleet::compare_hosts(hosts).checks) {
    Finding f;
    f.rule = c.rule;
    f.subject = c.group;
    f.outcome = c.outcome;
    f.severity = c.severity;
    f.message = c.setting + ": " + c.message;
    out.push_back(f);
  }
  return out;
}

NicRecord nic(std::string subject, std::map<std::string, std::string> values,
              std::string physical_id = "") {
  NicRecord n;
  n.subject = std::move(subject);
  n.bdf = "0000:3b:00.0";
  n.model = "MT_0000000222";
  n.model_ids = {{"PSID", "MT_0000000222"}};
  n.physical_id = std::move(physical_id);
  n.values = std::move(values);
  return n;
}

HostSummary host(std::string name, std::vector<NicRecord> nics,
                 std::vector<PhysicalNicRecord> physical = {}) {
  HostSummary h;
  h.file = name + ".json";
  h.host = std::move(name);
  h.loaded = true;
  h.nics = std::move(nics);
  h.physical = std::move(physical);
  return h;
}

/// Hosts node-a, node-b, ... whose eth0 reports `key` with these values ("" = not reported).
std::vector<Finding> hosts_with(const std::string& key, const std::vector<std::string>& values) {
  auto rec = [&](const std::string& v) {
    NicRecord n = nic("eth0", v.empty() ? std::map<std::string, std::string>{}
                                        : std::map<std::string, std::string>{{key, v}});
    if (v.empty()) n.unknown[key] = "not collected: no " + key + " in the input";
    return n;
  };
  std::vector<HostSummary> hosts;
  for (const std::string& v : values) hosts.push_back(host(std::string("node-") + char('a' + hosts.size()), {rec(v)}));
  return fleet_findings(hosts);
}

PhysicalNicRecord phys(std::string key, std::map<std::string, std::string> nv) {
  PhysicalNicRecord p;
  p.key = std::move(key);
  p.model = "MT_0000000222";
  p.bdf = "0000:3b:00.0";
  p.nv = std::move(nv);
  return p;
}

/// One Multi-Host NIC (board serial MT2231X) whose two PFs are seen from node-a and node-b.
std::vector<Finding> multi_host(const std::string& pfc_a, const std::string& pfc_b) {
  auto rec = [](const std::string& pfc) {
    NicRecord n = nic("eth0", pfc.empty() ? std::map<std::string, std::string>{}
                                          : std::map<std::string, std::string>{{"pfc", pfc}, {"trust", "dscp"}},
                      "board serial MT2231X");
    if (pfc.empty())
      for (const char* k : {"pfc", "trust", "dscp_map", "ecn"}) n.unknown[k] = "no mlnx_qos in the input";
    return n;
  };
  return fleet_findings({host("node-a", {rec(pfc_a)}), host("node-b", {rec(pfc_b)})});
}

std::vector<Finding> input_not_loaded() {
  fleet::Discovery d;
  d.hosts.push_back("/nonexistent/rocekit-test/node-z.json");
  fleet::FleetReport r = fleet::run_fleet(d, fleet::Options{});
  std::vector<Finding> out;
  for (const fleet::InputProblem& p : r.problems) {
    Finding f;
    f.rule = "fleet.input-loaded";
    f.subject = p.file;
    f.outcome = Outcome::fail;
    f.message = p.reason;
    out.push_back(f);
  }
  return out;
}

/// Hosts node-a, node-b, ... whose eth0 runs the (driver release, firmware) pair `pair` with
/// fw.driver-compat's verdict `compat` on it (pair "" = not collected).
std::vector<Finding> pairs(const std::vector<std::pair<std::string, Outcome>>& nics) {
  std::vector<HostSummary> hosts;
  for (const auto& [pair, compat] : nics) {
    NicRecord n = nic("eth0", {});
    if (pair.empty()) {
      n.unknown["driver_firmware"] = "driver release not collected: no ofed_info -s in the input";
    } else {
      n.values["driver_firmware"] = pair;
      n.compat = compat;
      n.compat_why = compat == Outcome::fail ? "firmware 28.44.1036 (ConnectX-7) with MLNX_OFED 24.10-3.2.5.0: not "
                                               "in the release notes for this driver, which give 28.43.3608"
                                             : "the recommended firmware in its release notes";
    }
    hosts.push_back(host(std::string("node-") + char('a' + hosts.size()), {n}));
  }
  return fleet_findings(hosts);
}

/// pass / fail / unknown cases of a rule comparing one setting between hosts (`a` meets the
/// default policy where it has a value for the setting).
void setting_cases(std::vector<OutcomeCase>& v, const std::string& rule, const std::string& key,
                   const std::string& group, const std::string& a, const std::string& b) {
  v.push_back({rule, Outcome::pass, group, key + ": all 2 NICs: " + a, [=] { return hosts_with(key, {a, a}); }});
  v.push_back({rule, Outcome::fail, group, "1 NIC of 3 differs from the majority baseline " + a + " (2/3)",
               [=] { return hosts_with(key, {a, b, a}); }});
  v.push_back({rule, Outcome::unknown, group, "no NIC reports " + key, [=] { return hosts_with(key, {"", ""}); }});
  v.push_back({rule, Outcome::unknown, group, "only 1 NIC of 2 reports " + key + " (" + a + ")",
               [=] { return hosts_with(key, {a, ""}); }});
}

[[maybe_unused]] const int k_registered = [] {
  std::vector<OutcomeCase> v;
  const std::string all = "all NICs", model = "MT_0000000222";
  setting_cases(v, "fleet.trust-consistent", "trust", all, "dscp", "pcp");
  setting_cases(v, "fleet.dscp-map-consistent", "dscp_map", all, "0:0-7 1:8-15 2:16-23 3:24-31 6:48-55",
                "0:0-7 1:8-15 2:16-23 4:24-31 6:48-55");
  setting_cases(v, "fleet.pfc-consistent", "pfc", all, "3", "none");
  setting_cases(v, "fleet.ecn-consistent", "ecn", all, "rp:3 np:3", "rp:none np:none");
  setting_cases(v, "fleet.cnp-consistent", "cnp", all, "dscp 48 priority 6", "dscp 46 priority 6");
  setting_cases(v, "fleet.mtu-consistent", "mtu", all, "9000", "1500");
  setting_cases(v, "fleet.max-read-request-consistent", "max_read_request", model, "4096", "512");
  setting_cases(v, "fleet.coalescing-consistent", "coalescing", model, "adaptive-rx off rx-usecs 8 tx-usecs 16",
                "adaptive-rx on rx-usecs 8 tx-usecs 16");
  setting_cases(v, "fleet.firmware-version-consistent", "firmware", model, "28.41.1000", "28.39.1002");
  setting_cases(v, "fleet.driver-version-consistent", "driver", model, "mlx5_core 6.8.12",
                "mlx5_core 5.15.0");
  v.push_back({"fleet.nv-config-consistent", Outcome::pass, model, "nv.LINK_TYPE_P1: all 2 physical NICs: ETH(2)",
               [] {
                 return fleet_findings({host("node-a", {}, {phys("node-a/0000:3b:00", {{"LINK_TYPE_P1", "ETH(2)"}})}),
                                        host("node-b", {}, {phys("node-b/0000:3b:00", {{"LINK_TYPE_P1", "ETH(2)"}})})});
               }});
  v.push_back({"fleet.nv-config-consistent", Outcome::fail, model, "nv.NUM_OF_VFS: 1 physical NIC of 3 differs",
               [] {
                 return fleet_findings({host("node-a", {}, {phys("node-a/0000:3b:00", {{"NUM_OF_VFS", "0"}})}),
                                        host("node-b", {}, {phys("node-b/0000:3b:00", {{"NUM_OF_VFS", "8"}})}),
                                        host("node-c", {}, {phys("node-c/0000:3b:00", {{"NUM_OF_VFS", "8"}})})});
               }});
  // Two physical NICs that disagree and no policy value: a tie, not a failure of either.
  v.push_back({"fleet.nv-config-consistent", Outcome::unknown, model,
               "nv.NUM_OF_VFS: tie: 1 physical NIC says 0, 1 says 8: no majority and no policy value", [] {
                 return fleet_findings({host("node-a", {}, {phys("node-a/0000:3b:00", {{"NUM_OF_VFS", "0"}})}),
                                        host("node-b", {}, {phys("node-b/0000:3b:00", {{"NUM_OF_VFS", "8"}})})});
               }});
  v.push_back({"fleet.multi-host-qos-identical", Outcome::pass, "board serial MT2231X", "pfc: all 2 PFs: 3",
               [] { return multi_host("3", "3"); }});
  // A tie between the two PFs: the policy (PFC on priority 3 only) is the reference.
  v.push_back({"fleet.multi-host-qos-identical", Outcome::fail, "board serial MT2231X",
               "pfc: tie: 1 PF says 3, 1 says 3,4; the policy value (3) is the reference: 1 PF of 2 violates it",
               [] { return multi_host("3", "3,4"); }});
  v.push_back({"fleet.multi-host-qos-identical", Outcome::unknown, "board serial MT2231X", "trust: no PF reports trust",
               [] { return multi_host("", ""); }});
  const std::string ok = "MLNX_OFED_LINUX-24.10-3.2.5.0 + 28.43.3608", bad = "MLNX_OFED_LINUX-24.10-3.2.5.0 + 28.44.1036";
  v.push_back({"fleet.driver-firmware-compat", Outcome::pass, model,
               "driver_firmware: 1 (driver release, firmware) group: " + ok + " on 2 hosts (node-a, node-b): in the release notes",
               [=] { return pairs({{ok, Outcome::pass}, {ok, Outcome::pass}}); }});
  v.push_back({"fleet.driver-firmware-compat", Outcome::fail, model,
               "driver_firmware: 2 (driver release, firmware) groups: " + ok + " on 2 hosts (node-a, node-c): in the "
               "release notes; " + bad + " on 1 host (node-b): INCOMPATIBLE: firmware 28.44.1036",
               [=] { return pairs({{ok, Outcome::pass}, {bad, Outcome::fail}, {ok, Outcome::pass}}); }});
  v.push_back({"fleet.driver-firmware-compat", Outcome::unknown, model,
               "1 NIC without a pair (driver release or firmware not collected)",
               [=] { return pairs({{ok, Outcome::pass}, {"", Outcome::unknown}}); }});
  v.push_back({"fleet.input-loaded", Outcome::fail, "/nonexistent/rocekit-test/node-z.json", "", input_not_loaded});
  for (const OutcomeCase& c : v) all_cases().push_back(c);
  return 0;
}();

}  // namespace
}  // namespace rk::testcases

// rk_fleet: the reference of a comparison. A majority that violates the policy is not the
// baseline; a tie is a tie (in text, JSON and Markdown); one reporting NIC is not a pass; NICs
// of unknown model are not pooled. Hosts are testdata/fleet/multihost/host-a (a real capture)
// with one field edited per host, as in fleet_test.cpp. Also --baseline and the policy's
// fleet.ignore (issue 23).
#include <cstdio>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fleet_support.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/rules/rule.hpp"

namespace fs = std::filesystem;
using namespace rk;
using namespace rk::fleet;
using namespace rk::fleet::test;

namespace {

Snapshot base_host() {
  Result<Snapshot> s = load_host(td() / "fleet/multihost/host-a");
  EXPECT_TRUE(s) << (s ? "" : s.error().describe());
  return s ? *s : Snapshot{};
}

/// Writes `n` hosts host-00.. cloned from base_host (own board serial, MTU 9000); `edit(i, s)`
/// changes host i. Returns the fleet run under `policy`.
FleetReport fleet_of(const TempDir& dir, int n, const std::function<void(int, Snapshot&)>& edit,
                     const Policy& policy = default_policy()) {
  Snapshot base = base_host();
  for (int i = 0; i < n; ++i) {
    Snapshot s = base;
    char name[32];
    std::snprintf(name, sizeof name, "host-%02d", i);
    s.hostname = name;
    s.find_netdev("eth4")->mtu_bytes.value = 9000;
    s.find_pci("0000:08:00.0")->board_serial_number = "SYN" + std::to_string(1000 + i);
    edit(i, s);
    write_text(dir.path / (std::string(name) + ".json"), snapshot_to_json(s).dump());
  }
  Options o;
  o.policy = policy;
  return run_fleet(discover_inputs({dir.path}), o);
}

std::vector<std::string> outlier_hosts(const Consistency& c) {
  std::vector<std::string> v;
  for (const Outlier& o : c.outliers) v.push_back(o.host);
  return v;
}

using Hosts = std::vector<std::string>;

}  // namespace

// MTU 1500 on three of five hosts: the majority violates the policy (>= 4200), so the policy is
// the reference and the three 1500 hosts are the outliers, not the two at 9000.
// A netdev the policy names management is not compared, as the host rules never judge it: its
// MTU 1500 on every host is no fleet failure.
TEST(FleetReference, ManagementNetdevsAreNotCompared) {
  TempDir dir;
  auto mgmt = [](int, Snapshot& s) { s.find_netdev("eth4")->mtu_bytes.value = 1500; };
  FleetReport all = fleet_of(dir, 3, mgmt);
  const Consistency* judged = find_check(all, "fleet.mtu-consistent");
  ASSERT_NE(judged, nullptr);
  EXPECT_EQ(judged->outcome, Outcome::fail);
  TempDir dir2;
  Policy pol = default_policy();
  InterfaceRoleRule role;
  role.role = InterfaceRole::management;
  role.netdev = {"eth4"};
  pol.interfaces.push_back(role);
  FleetReport r = fleet_of(dir2, 3, mgmt, pol);
  const Consistency* mtu = find_check(r, "fleet.mtu-consistent");
  EXPECT_TRUE(mtu == nullptr || mtu->outcome != Outcome::fail) << (mtu ? mtu->message : "");
}

// 8 compute hosts (ConnectX-7, eth4 at MTU 9000) and 4 storage hosts (another model, PSID
// MT_0000000359 with 22.x firmware, netdev stor0 at MTU 4200): both meet the policy (>= 4200).
// With the storage role in the policy, port settings are compared within each role and
// versions within each model: no outlier. Without it, the 4 storage NICs are MTU outliers of the
// compute majority.
TEST(FleetReference, StorageRoleAndSecondModelAreNoOutliers) {
  auto mixed = [](int i, Snapshot& s) {
    if (i < 8) return;
    NetDev& n = *s.find_netdev("eth4");
    n.name = "stor0";
    n.mtu_bytes.value = 4200;
    n.driver.value->firmware_version = "22.41.1000";
    if (n.driver.value->psid) n.driver.value->psid = "MT_0000000359";
    PciFunction& p = *s.find_pci("0000:08:00.0");
    if (p.firmware.has_value()) {
      p.firmware.value->psid = "MT_0000000359";
      p.firmware.value->version = "22.41.1000";
    }
  };
  Policy pol = default_policy();
  InterfaceRoleRule storage;
  storage.role = InterfaceRole::storage;
  storage.netdev = {"stor*"};
  pol.interfaces.push_back(storage);
  TempDir dir;
  FleetReport r = fleet_of(dir, 12, mixed, pol);
  ASSERT_EQ(r.hosts_loaded, 12u);
  for (const Consistency& c : r.cross.checks)
    EXPECT_NE(c.outcome, Outcome::fail) << c.rule << " " << c.setting << " [" << c.group << "]: " << c.message;
  const Consistency* compute = find_check(r, "fleet.mtu-consistent", "", "compute NICs");
  const Consistency* stor = find_check(r, "fleet.mtu-consistent", "", "storage NICs");
  ASSERT_NE(compute, nullptr);
  ASSERT_NE(stor, nullptr);
  EXPECT_EQ(compute->outcome, Outcome::pass);
  EXPECT_EQ(compute->baseline, "9000");
  EXPECT_EQ(compute->known, 8u);
  EXPECT_EQ(stor->outcome, Outcome::pass);
  EXPECT_EQ(stor->baseline, "4200");
  EXPECT_EQ(stor->known, 4u);
  EXPECT_EQ(find_check(r, "fleet.mtu-consistent", "", "all NICs"), nullptr);
  // Firmware is compared within each model: two passing groups.
  const Consistency* cx7 = find_check(r, "fleet.firmware-version-consistent", "", "PSID MT_0000000894");
  const Consistency* other = find_check(r, "fleet.firmware-version-consistent", "", "PSID MT_0000000359");
  ASSERT_NE(cx7, nullptr);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(cx7->outcome, Outcome::pass);
  EXPECT_EQ(other->outcome, Outcome::pass);
  EXPECT_EQ(other->baseline, "22.41.1000");

  // The same fleet without the storage role: the 4 storage NICs are MTU outliers.
  TempDir dir2;
  FleetReport flat = fleet_of(dir2, 12, mixed);
  const Consistency* all = find_check(flat, "fleet.mtu-consistent", "", "all NICs");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->outcome, Outcome::fail);
  EXPECT_EQ(outlier_hosts(*all), (Hosts{"host-08", "host-09", "host-10", "host-11"}));
}

/// The outliers of every failing check: "rule setting host subject value".
std::set<std::string> outliers_of(const FleetReport& r) {
  std::set<std::string> out;
  for (const Consistency& c : r.cross.checks)
    for (const Outlier& o : c.outliers) out.insert(c.rule + " " + c.setting + " " + o.host + " " + o.subject + " " + o.value);
  return out;
}

FleetReport run_with(const fs::path& dir, const std::string& baseline, const Policy& policy = default_policy()) {
  Options o;
  o.policy = policy;
  o.baseline = baseline;
  return run_fleet(discover_inputs({dir}), o);
}

// 12 hosts, 4 of them with one injected difference each: against a healthy baseline host the
// same 4 outliers as against the majority, each check's reference the baseline's value.
TEST(FleetBaseline, AHealthyBaselineFindsTheSameOutliersAsTheMajority) {
  TempDir dir;
  fleet_of(dir, 12, [](int i, Snapshot& s) {
    NetDev& n = *s.find_netdev("eth4");
    if (i == 3) n.qos.value->pfc_enabled = std::vector<bool>(8, false);
    if (i == 7) n.qos.value->trust = Trust::pcp;
    if (i == 9) n.mtu_bytes.value = 1500;
    if (i == 5) n.driver.value->firmware_version = "28.39.1002";
  });
  FleetReport majority = run_with(dir.path, "");
  FleetReport base = run_with(dir.path, "host-00");
  EXPECT_EQ(base.baseline, "host-00");
  EXPECT_TRUE(base.baseline_error.empty()) << base.baseline_error;
  std::set<std::string> want{"fleet.pfc-consistent pfc host-03 eth4 none", "fleet.trust-consistent trust host-07 eth4 pcp",
                             "fleet.mtu-consistent mtu host-09 eth4 1500",
                             "fleet.firmware-version-consistent firmware host-05 eth4 28.39.1002"};
  EXPECT_EQ(outliers_of(majority), want);
  EXPECT_EQ(outliers_of(base), want);
  const Consistency* mtu = find_check(base, "fleet.mtu-consistent");
  ASSERT_NE(mtu, nullptr);
  EXPECT_EQ(mtu->reference, "baseline");
  EXPECT_EQ(mtu->baseline, "9000");
  EXPECT_EQ(mtu->baseline_count, 11u);
  EXPECT_EQ(mtu->message, "1 NIC of 12 differs from the baseline host host-00 (9000)");
  // The same by the snapshot's path.
  FleetReport by_path = run_with(dir.path, (dir.path / "host-00.json").string());
  EXPECT_EQ(by_path.baseline, "host-00");
  EXPECT_EQ(outliers_of(by_path), want);

  // An outlier as the baseline: every other host differs from it, and the message says its
  // value violates the policy.
  FleetReport odd = run_with(dir.path, "host-09");
  const Consistency* m = find_check(odd, "fleet.mtu-consistent");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->outcome, Outcome::fail);
  EXPECT_EQ(m->outliers.size(), 11u);
  EXPECT_NE(m->message.find("the baseline's value violates the policy (>= 4200)"), std::string::npos) << m->message;

  FleetReport none = run_with(dir.path, "host-99");
  EXPECT_EQ(none.baseline_error,
            "no host named host-99 among the 12 loaded hosts (hosts that share a hostname are named by their input file; "
            "give a host name as the report shows it, or a snapshot path)");
  EXPECT_TRUE(none.cross.checks.empty());
  EXPECT_EQ(run_with(dir.path, "/nonexistent/golden.json").baseline_error,
            "--baseline /nonexistent/golden.json: no such file, and no host has that name");
}

// A host differing only in a setting the policy's fleet.ignore lists is no outlier; the report
// names the ignored settings.
TEST(FleetBaseline, IgnoredSettingsAreNotCompared) {
  TempDir dir;
  fleet_of(dir, 6, [](int i, Snapshot& s) {
    if (i != 2) return;
    s.find_netdev("eth4")->mtu_bytes.value = 4200;
    for (NvParam& p : s.find_pci("0000:08:00.0")->nv_config.value->params)
      if (p.name == "NUM_OF_VFS") p.current_value = "16";
  });
  FleetReport plain = run_with(dir.path, "host-00");
  EXPECT_EQ(outliers_of(plain), (std::set<std::string>{"fleet.mtu-consistent mtu host-02 eth4 4200",
                                                       "fleet.nv-config-consistent nv.NUM_OF_VFS host-02 board serial SYN1002 16"}));
  Policy pol = default_policy();
  pol.fleet_ignore = {"mtu", "nv.NUM_OF_VFS"};
  FleetReport ign = run_with(dir.path, "host-00", pol);
  EXPECT_TRUE(outliers_of(ign).empty());
  EXPECT_EQ(find_check(ign, "fleet.mtu-consistent"), nullptr);
  EXPECT_EQ(find_check(ign, "fleet.nv-config-consistent", "nv.NUM_OF_VFS"), nullptr);
  EXPECT_NE(find_check(ign, "fleet.nv-config-consistent"), nullptr);  // the other parameters still are
  EXPECT_EQ(ign.ignored, (std::vector<std::string>{"mtu", "nv.NUM_OF_VFS"}));
}

TEST(FleetReference, MajorityThatViolatesThePolicyIsNotTheBaseline) {
  TempDir dir;
  FleetReport r = fleet_of(dir, 5, [](int i, Snapshot& s) {
    if (i < 3) s.find_netdev("eth4")->mtu_bytes.value = 1500;
    if (i < 3) s.find_netdev("eth4")->qos.value->trust = Trust::pcp;
    if (i < 3) s.find_netdev("eth4")->driver.value->firmware_version = "28.39.1002";
  });
  const Consistency* mtu = find_check(r, "fleet.mtu-consistent");
  ASSERT_NE(mtu, nullptr);
  EXPECT_EQ(mtu->outcome, Outcome::fail);
  EXPECT_EQ(mtu->reference, "policy");
  EXPECT_EQ(mtu->baseline, ">= 4200");
  EXPECT_EQ(mtu->policy_value, ">= 4200");
  EXPECT_EQ(mtu->baseline_count, 2u);
  EXPECT_EQ(outlier_hosts(*mtu), (Hosts{"host-00", "host-01", "host-02"}));
  EXPECT_EQ(mtu->outliers[0].value, "1500");
  EXPECT_EQ(mtu->message,
            "majority 1500 violates the policy (>= 4200); the policy value is the reference: 3 NICs of 5 violate it");
  const Consistency* trust = find_check(r, "fleet.trust-consistent");
  ASSERT_NE(trust, nullptr);
  EXPECT_EQ(trust->baseline, "dscp");
  EXPECT_EQ(outlier_hosts(*trust), (Hosts{"host-00", "host-01", "host-02"}));
  EXPECT_EQ(trust->message,
            "majority pcp violates the policy (dscp); the policy value is the reference: 3 NICs of 5 violate it");
  // Firmware: no policy value, the majority stays the baseline.
  const Consistency* fw = find_check(r, "fleet.firmware-version-consistent");
  ASSERT_NE(fw, nullptr);
  EXPECT_EQ(fw->reference, "majority");
  EXPECT_EQ(fw->baseline, "28.39.1002");
  EXPECT_EQ(fw->policy_value, "");
  EXPECT_EQ(outlier_hosts(*fw), (Hosts{"host-03", "host-04"}));
  // Every renderer says which reference it used.
  nlohmann::json j = render_json(r, {});
  bool seen = false;
  for (const nlohmann::json& c : j["consistency"])
    if (c["rule"] == "fleet.mtu-consistent") {
      seen = true;
      EXPECT_EQ(c["reference"], "policy");
      EXPECT_EQ(c["baseline"], ">= 4200");
      EXPECT_EQ(c["outliers"].size(), 3u);
    }
  EXPECT_TRUE(seen);
  std::string text = fleet::render(r, Format::text, {});
  EXPECT_NE(text.find("    outlier  fleet.mtu-consistent               eth4 mtu: 1500 (policy >= 4200)"),
            std::string::npos) << text;
  std::string md = fleet::render(r, Format::markdown, {});
  EXPECT_NE(md.find("| mtu | all NICs | policy `>= 4200` | majority 1500 violates the policy"), std::string::npos) << md;
  EXPECT_NE(md.find("Reference: the policy value `>= 4200`."), std::string::npos) << md;
}

// The same fleet under a policy that allows MTU 1500: the majority meets it and stays the baseline.
TEST(FleetReference, MajorityThatMeetsThePolicyStaysTheBaseline) {
  TempDir dir;
  Policy p = default_policy();
  p.netdev_mtu_min_bytes = 1500;
  FleetReport r = fleet_of(
      dir, 5, [](int i, Snapshot& s) { if (i < 3) s.find_netdev("eth4")->mtu_bytes.value = 1500; }, p);
  const Consistency* mtu = find_check(r, "fleet.mtu-consistent");
  ASSERT_NE(mtu, nullptr);
  EXPECT_EQ(mtu->reference, "majority");
  EXPECT_EQ(mtu->baseline, "1500");
  EXPECT_EQ(mtu->policy_value, ">= 1500");
  EXPECT_EQ(outlier_hosts(*mtu), (Hosts{"host-03", "host-04"}));
  EXPECT_EQ(mtu->message, "2 NICs of 5 differ from the majority baseline 1500 (3/5)");
}

// Two NICs say one firmware, two another; no policy value: unknown, no baseline, no outliers,
// and every renderer says "tie". PFC tied 2/2 has a policy value: the PFC-off NICs fail.
TEST(FleetReference, TiesAreReportedAsTies) {
  TempDir dir;
  FleetReport r = fleet_of(dir, 4, [](int i, Snapshot& s) {
    NetDev& eth4 = *s.find_netdev("eth4");
    if (i % 2) eth4.driver.value->firmware_version = "28.39.1002";
    if (i >= 2) eth4.qos.value->pfc_enabled = std::vector<bool>(8, false);
    if (i >= 2) eth4.mtu_bytes.value = 4200;
  });
  const Consistency* fw = find_check(r, "fleet.firmware-version-consistent");
  ASSERT_NE(fw, nullptr);
  EXPECT_EQ(fw->outcome, Outcome::unknown);
  EXPECT_TRUE(fw->tie);
  EXPECT_EQ(fw->baseline, "");
  EXPECT_EQ(fw->reference, "");
  EXPECT_TRUE(fw->outliers.empty());
  ASSERT_EQ(fw->tied.size(), 4u);
  EXPECT_EQ(fw->tied[1].host, "host-01");
  EXPECT_EQ(fw->tied[1].value, "28.39.1002");
  const std::string tie = "tie: 2 NICs say 28.39.1002, 2 say 28.41.1000: no majority and no policy value to take "
                          "as the reference";
  EXPECT_EQ(fw->message, tie);
  // PFC: the policy (priority 3 only) settles the tie.
  const Consistency* pfc = find_check(r, "fleet.pfc-consistent");
  ASSERT_NE(pfc, nullptr);
  EXPECT_EQ(pfc->outcome, Outcome::fail);
  EXPECT_TRUE(pfc->tie);
  EXPECT_EQ(pfc->reference, "policy");
  EXPECT_EQ(pfc->baseline, "3");
  EXPECT_EQ(outlier_hosts(*pfc), (Hosts{"host-02", "host-03"}));
  EXPECT_EQ(pfc->message, "tie: 2 NICs say 3, 2 say none; the policy value (3) is the reference: 2 NICs of 4 violate it");
  // MTU 9000 / 4200: both meet the policy, no reference: unknown, not a failure of either half.
  const Consistency* mtu = find_check(r, "fleet.mtu-consistent");
  ASSERT_NE(mtu, nullptr);
  EXPECT_EQ(mtu->outcome, Outcome::unknown);
  EXPECT_EQ(mtu->message, "tie: 2 NICs say 4200, 2 say 9000; every value meets the policy (>= 4200): no reference "
                          "to tell the outliers");
  // Text, JSON, Markdown.
  std::string text = fleet::render(r, Format::text, {});
  EXPECT_NE(text.find("UNKNOWN  fleet.firmware-version-consistent  firmware (PSID MT_0000000894): " + tie + "\n"
                      "           host-00 eth4: 28.41.1000\n           host-01 eth4: 28.39.1002\n"),
            std::string::npos) << text;
  EXPECT_EQ(text.find("firmware: 28.39.1002 (baseline"), std::string::npos) << text;
  nlohmann::json j = render_json(r, {});
  const nlohmann::json* jf = nullptr;
  for (const nlohmann::json& c : j["consistency"])
    if (c["rule"] == "fleet.firmware-version-consistent") jf = &c;
  ASSERT_NE(jf, nullptr);
  EXPECT_EQ((*jf)["outcome"], "unknown");
  EXPECT_EQ((*jf)["tie"], true);
  EXPECT_EQ((*jf)["baseline"], "");
  EXPECT_EQ((*jf)["reference"], "");
  EXPECT_EQ((*jf)["outliers"].size(), 0u);
  EXPECT_EQ((*jf)["tied"].size(), 4u);
  EXPECT_EQ((*jf)["message"], tie);
  std::string md = fleet::render(r, Format::markdown, {});
  EXPECT_NE(md.find("| `fleet.firmware-version-consistent` | firmware | PSID MT_0000000894 | tie | " + tie + " |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("| host-01 | `eth4` | `28.39.1002` |"), std::string::npos) << md;
  // The tie is not a problem of the fleet; the PFC-off hosts are.
  for (const HostSummary& h : r.hosts) {
    bool fw_outlier = false;
    for (const nlohmann::json& hj : j["hosts"])
      if (hj["host"] == h.host)
        for (const nlohmann::json& o : hj["outliers"]) fw_outlier |= o["rule"] == "fleet.firmware-version-consistent";
    EXPECT_FALSE(fw_outlier) << h.host;
  }
}

// 15 hosts, only one with mlnx_qos: the QoS checks are unknown with how many reported and why
// the others did not, not "pass". Capture copies of host-a; 14 lose mlnx_qos@eth4.txt.
TEST(FleetReference, OneReportingNicOfFifteenIsUnknown) {
  TempDir dir;
  for (int i = 0; i < 15; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "node-%02d", i);
    fs::path host = dir.path / name;
    copy_capture("fleet/multihost/host-a", host);
    edit_line(host / "devlink_dev_info.txt", "\n  board.serial_number MT0000XZ00AA\n",
              "\n  board.serial_number MT2200X" + std::to_string(10000 + i) + "\n");
    if (i > 0) fs::remove(host / "mlnx_qos@eth4.txt");
  }
  FleetReport r = run_fleet(discover_inputs({dir.path}), Options{});
  ASSERT_EQ(r.hosts_loaded, 15u);
  const std::string why = "not captured (no mlnx_qos -i eth4 output in the capture)";
  for (const char* rule : {"fleet.pfc-consistent", "fleet.trust-consistent", "fleet.dscp-map-consistent"}) {
    const Consistency* c = find_check(r, rule);
    ASSERT_NE(c, nullptr) << rule;
    EXPECT_EQ(c->outcome, Outcome::unknown) << rule;
    EXPECT_EQ(c->known, 1u) << rule;
    EXPECT_EQ(c->unknown_count, 14u) << rule;
    EXPECT_EQ(c->baseline, "") << rule;
    ASSERT_FALSE(c->unknown.empty());
    EXPECT_EQ(c->unknown[0].host, "node-01");
    EXPECT_EQ(c->unknown[0].value, why);
  }
  EXPECT_EQ(find_check(r, "fleet.pfc-consistent")->message,
            "only 1 NIC of 15 reports pfc (3): consistency needs at least two (14 NICs unknown: " + why + ")");
  // Firmware is reported by all 15: compared as usual.
  const Consistency* fw = find_check(r, "fleet.firmware-version-consistent");
  ASSERT_NE(fw, nullptr);
  EXPECT_EQ(fw->outcome, Outcome::pass);
  EXPECT_EQ(fw->known, 15u);
}

// NICs whose model is unknown are not pooled into one group: each rule compared per model lists
// them, unknown, in group "model unknown" with why; NICs of a known model are compared as usual.
TEST(FleetReference, NicsOfUnknownModelAreNotPooled) {
  TempDir dir;
  FleetReport r = fleet_of(dir, 4, [](int i, Snapshot& s) {
    if (i >= 2) return;  // host-02, host-03: PSID MT_0000000894
    s.find_netdev("eth4")->driver.value->psid.reset();
    PciFunction& p = *s.find_pci("0000:08:00.0");
    p.firmware.value->psid.reset();
    p.device_name.reset();
    if (i == 1) s.find_netdev("eth4")->driver.value->firmware_version = "16.35.2000";
  });
  for (const Consistency& c : r.cross.checks) EXPECT_NE(c.group, "unknown model") << c.rule << " " << c.setting;
  const Consistency* fw = find_check(r, "fleet.firmware-version-consistent", "firmware", "model unknown");
  ASSERT_NE(fw, nullptr);
  EXPECT_EQ(fw->outcome, Outcome::unknown);
  EXPECT_EQ(fw->known, 0u);
  EXPECT_EQ(fw->unknown_count, 2u);
  EXPECT_EQ(fw->message, "2 NICs of unknown model not compared: the input shows no PSID, PCI device name or RDMA "
                         "vendor part id for them");
  ASSERT_EQ(fw->unknown.size(), 2u);
  EXPECT_EQ(fw->unknown[0].host, "host-00");
  EXPECT_EQ(fw->unknown[1].host, "host-01");
  EXPECT_EQ(fw->unknown[1].value, "NIC model unknown (the input shows no PSID, PCI device name or RDMA vendor part "
                                  "id): not compared with other NICs");
  const Consistency* known = find_check(r, "fleet.firmware-version-consistent", "firmware", "PSID MT_0000000894");
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->outcome, Outcome::pass);
  EXPECT_EQ(known->known, 2u);
  // Their firmware NV parameters: one unknown check for the two physical NICs of unknown model.
  const Consistency* nv = find_check(r, "fleet.nv-config-consistent", "nv.*", "model unknown");
  ASSERT_NE(nv, nullptr);
  EXPECT_EQ(nv->unknown_count, 2u);
  EXPECT_EQ(nv->unknown[0].subject, "board serial SYN1000");
  // All-NICs settings still compare every NIC.
  const Consistency* pfc = find_check(r, "fleet.pfc-consistent");
  ASSERT_NE(pfc, nullptr);
  EXPECT_EQ(pfc->known, 4u);
  EXPECT_EQ(pfc->outcome, Outcome::pass);
}

// rk_fleet: discovery, bad input, injected outliers, the Multi-Host fixture, JSON shape, the
// extra-checker hook.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fleet_support.hpp"
#include "rocekit/fleet/fleet.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/pipeline.hpp"

namespace fs = std::filesystem;
using namespace rk;
using namespace rk::fleet;
using namespace rk::fleet::test;

namespace {

void write_snapshot(const fs::path& p, const Snapshot& s) { write_text(p, snapshot_to_json(s).dump()); }

Snapshot base_host() {
  // A real capture: netarbiter mlnx_qos (healthy), devlink and ethtool -i of a ConnectX-7 PF,
  // mlxconfig NV query (testdata/fleet/README.md).
  Result<Snapshot> s = load_host(td() / "fleet/multihost/host-a");
  EXPECT_TRUE(s) << (s ? "" : s.error().describe());
  return s ? *s : Snapshot{};
}

/// 12 hosts cloned from base_host, each with its own board serial, MTU 9000; four outliers.
fs::path synthetic_fleet(const TempDir& dir) {
  Snapshot base = base_host();
  for (int i = 0; i < 12; ++i) {
    Snapshot s = base;
    char name[32];
    std::snprintf(name, sizeof name, "host-%02d", i);
    s.hostname = name;
    NetDev& eth4 = *s.find_netdev("eth4");
    eth4.mtu_bytes.value = 9000;
    s.find_pci("0000:08:00.0")->board_serial_number = "SYN" + std::to_string(1000 + i);
    if (i == 3) eth4.qos.value->pfc_enabled = std::vector<bool>(8, false);
    if (i == 7) eth4.qos.value->trust = Trust::pcp;
    if (i == 9) eth4.mtu_bytes.value = 1500;
    if (i == 5) eth4.driver.value->firmware_version = "28.39.1002";
    write_snapshot(dir.path / (std::string(name) + ".json"), s);
  }
  return dir.path;
}

}  // namespace

TEST(FleetDiscover, EveryHostBundleIsOneCaptureDirectory) {
  Discovery d = discover_inputs({td() / "hosts"});
  EXPECT_TRUE(d.problems.empty());
  ASSERT_EQ(d.hosts.size(), 18u);  // README.md is skipped; each bundle holds *.txt captures
  EXPECT_EQ(d.hosts.front().filename(), "aerial-21-4-a100-cx6dx");
  EXPECT_EQ(d.hosts.back().filename(), "tf-gdr-k40-cx3-cross-socket");
}

TEST(FleetDiscover, NestedFleetDirectoriesAndMissingPaths) {
  TempDir dir;
  fs::create_directories(dir.path / "rack1");
  fs::copy(td() / "fleet/multihost/host-a", dir.path / "rack1/host-a");
  write_text(dir.path / "rack1/h2.json", "{}");
  write_text(dir.path / "notes.md", "not a host");
  fs::create_directories(dir.path / "empty");
  Discovery d = discover_inputs({dir.path, dir.path / "missing.json"});
  ASSERT_EQ(d.hosts.size(), 2u);
  EXPECT_EQ(d.hosts[0], dir.path / "rack1/h2.json");
  EXPECT_EQ(d.hosts[1], dir.path / "rack1/host-a");
  ASSERT_EQ(d.problems.size(), 1u);
  EXPECT_EQ(d.problems[0].file, (dir.path / "missing.json").string());
  EXPECT_EQ(d.problems[0].reason, "no such file or directory");
}

// An input listed twice, or reached again through a symlink loop, is loaded once and named.
TEST(FleetDiscover, DuplicatesAndSymlinkLoopsAreLoadedOnce) {
  TempDir dir;
  fs::create_directories(dir.path / "a");
  write_text(dir.path / "a/x.json", "{}");
  fs::create_directory_symlink("..", dir.path / "a/up");
  Discovery d = discover_inputs({dir.path / "a/x.json", dir.path / "a/./x.json", dir.path});
  ASSERT_EQ(d.hosts.size(), 1u);
  EXPECT_EQ(d.hosts[0], dir.path / "a/x.json");
  ASSERT_EQ(d.problems.size(), 3u);
  EXPECT_EQ(d.problems[0].file, (dir.path / "a/./x.json").string());
  EXPECT_EQ(d.problems[0].reason, "same input as " + (dir.path / "a/x.json").string() +
                                      " (listed twice or reached through a symlink); loaded once");
  // Walking dir meets a/up -> dir (already walked), then a/x.json again.
  EXPECT_EQ(d.problems[1].file, (dir.path / "a/up").string());
  EXPECT_EQ(d.problems[1].reason, "directory already walked (a symlink loop or listed twice); skipped");
  EXPECT_EQ(d.problems[2].file, (dir.path / "a/x.json").string());
}

TEST(FleetRun, InjectedOutliersAreExactlyTheOnesReported) {
  TempDir dir;
  Options o;
  o.threads = 2;
  FleetReport r = run_fleet(discover_inputs({synthetic_fleet(dir)}), o);
  ASSERT_EQ(r.hosts_loaded, 12u);
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.nic_count, 12u);

  struct Expect {
    std::string rule, host, value, baseline;
  };
  const std::vector<Expect> expected{
      {"fleet.pfc-consistent", "host-03", "none", "3"},
      {"fleet.trust-consistent", "host-07", "pcp", "dscp"},
      {"fleet.mtu-consistent", "host-09", "1500", "9000"},
      {"fleet.firmware-version-consistent", "host-05", "28.39.1002", "28.41.1000"},
  };
  std::size_t failed = 0;
  for (const Consistency& c : r.cross.checks) {
    if (c.outcome != Outcome::fail) continue;
    ++failed;
    auto e = std::find_if(expected.begin(), expected.end(), [&](const Expect& x) { return x.rule == c.rule; });
    ASSERT_NE(e, expected.end()) << "unexpected outlier check " << c.rule << " " << c.setting << ": " << c.message;
    ASSERT_EQ(c.outliers.size(), 1u) << c.rule;
    EXPECT_EQ(c.outliers[0].host, e->host);
    EXPECT_EQ(c.outliers[0].subject, "eth4");
    EXPECT_EQ(c.outliers[0].value, e->value);
    EXPECT_EQ(c.baseline, e->baseline);
    EXPECT_EQ(c.baseline_count, 11u);
    EXPECT_EQ(c.known, 12u);
  }
  EXPECT_EQ(failed, expected.size());
  // The agreeing settings pass with all 12 values known.
  const Consistency* map = find_check(r, "fleet.dscp-map-consistent");
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(map->outcome, Outcome::pass);
  EXPECT_EQ(map->baseline, "0:0-7 1:8-15 2:16-23 3:24-31 4:32-39 5:40-47 6:48-55 7:56-63");
  const Consistency* drv = find_check(r, "fleet.driver-version-consistent");
  ASSERT_NE(drv, nullptr);
  EXPECT_EQ(drv->group, "PSID MT_0000000894");
  EXPECT_EQ(drv->baseline, "mlx5_core 6.8.12-8-pve");
  EXPECT_EQ(drv->outcome, Outcome::pass);
  // NV parameters: once per physical NIC (12 distinct board serials), all equal.
  const Consistency* vfs = find_check(r, "fleet.nv-config-consistent", "nv.NUM_OF_VFS");
  ASSERT_NE(vfs, nullptr);
  EXPECT_EQ(vfs->outcome, Outcome::pass);
  EXPECT_EQ(vfs->known, 12u);
  EXPECT_EQ(vfs->baseline, "8");
  // Nothing in this capture reports ECN: unknown with the reason, not a pass.
  const Consistency* ecn = find_check(r, "fleet.ecn-consistent");
  ASSERT_NE(ecn, nullptr);
  EXPECT_EQ(ecn->outcome, Outcome::unknown);
  EXPECT_EQ(ecn->unknown_count, 12u);
  EXPECT_TRUE(r.cross.multi_host.empty());
  // Per-host rules: the PFC-off and trust-pcp hosts fail their own checks too.
  auto tally = [&](std::string_view rule) {
    for (const RuleTally& t : r.rules)
      if (t.rule == rule) return t;
    return RuleTally{};
  };
  EXPECT_EQ(tally("qos.pfc-roce-priority").hosts_fail, 1u);
  EXPECT_EQ(tally("qos.pfc-roce-priority").hosts_pass, 11u);
  EXPECT_EQ(tally("qos.trust-dscp").hosts_fail, 1u);
  EXPECT_EQ(tally("net.mtu").hosts_fail, 1u);
  EXPECT_EQ(r.hosts[3].host, "host-03");
  ASSERT_FALSE(r.hosts[3].failures.empty());
  EXPECT_TRUE(r.has_problem(Severity::critical));
}

TEST(FleetRun, SameResultWithOneThreadOrMany) {
  TempDir dir;
  fs::path fleet_dir = synthetic_fleet(dir);
  Options one, many;
  one.threads = 1;
  many.threads = 8;
  RenderOptions ro;
  EXPECT_EQ(fleet::render(run_fleet(discover_inputs({fleet_dir}), one), Format::json, ro),
            fleet::render(run_fleet(discover_inputs({fleet_dir}), many), Format::json, ro));
}

TEST(FleetRun, UnloadableHostsAreReportedAndTheRestRuns) {
  TempDir dir;
  write_snapshot(dir.path / "good.json", base_host());
  write_text(dir.path / "truncated.json", "{\"schema_version\": 2, \"netdevs\": [");
  write_text(dir.path / "not-a-snapshot.json", "{\"hello\": 1}");
  write_text(dir.path / "broken.tar.gz", std::string("\x1f\x8b\x08\x00garbage", 12));
  fs::create_directories(dir.path / "junk-capture");
  write_text(dir.path / "junk-capture/notes.txt", "nothing any parser knows\n");
  Options o;
  FleetReport r = run_fleet(discover_inputs({dir.path}), o);
  EXPECT_EQ(r.hosts.size(), 5u);
  EXPECT_EQ(r.hosts_loaded, 1u);
  ASSERT_EQ(r.problems.size(), 4u);
  std::map<std::string, std::string> why;
  for (const InputProblem& p : r.problems) why[fs::path(p.file).filename().string()] = p.reason;
  EXPECT_EQ(why.at("not-a-snapshot.json"), "not a rocekit snapshot (no schema_version)");
  EXPECT_EQ(why.at("truncated.json"), "not valid JSON at line 1, column 35");
  EXPECT_FALSE(why.at("broken.tar.gz").empty());
  EXPECT_NE(why.at("junk-capture").find("no usable tool output"), std::string::npos) << why.at("junk-capture");
  EXPECT_TRUE(r.has_problem(Severity::critical));  // an unloadable host is a problem
  nlohmann::json j = render_json(r, {});
  EXPECT_EQ(j["summary"]["input_problems"], 4);
  EXPECT_EQ(j["problems"][0]["rule"], "fleet.input-loaded");
}

TEST(FleetMultiHost, OnePfWithDifferentPfcIsCaught) {
  Options o;
  FleetReport r = run_fleet(discover_inputs({td() / "fleet/multihost"}), o);
  ASSERT_EQ(r.hosts_loaded, 4u);
  ASSERT_EQ(r.cross.multi_host.size(), 1u);
  const MultiHostNic& m = r.cross.multi_host[0];
  EXPECT_EQ(m.key, "board serial MT0000XZ00AA");
  EXPECT_EQ(m.model, "PSID MT_0000000894");
  ASSERT_EQ(m.pfs.size(), 4u);
  EXPECT_EQ(m.pfs[2].host, "host-c");
  EXPECT_EQ(m.pfs[2].value, "0000:08:00.0");
  // NV configuration once per physical NIC, from the first host that has it.
  EXPECT_EQ(m.nv_host, "host-a");
  EXPECT_EQ(m.nv.at("NUM_OF_VFS"), "8");
  EXPECT_EQ(m.nv.at("LINK_TYPE_P1"), "ETH(2)");
  // host-a and host-b read the same physical NIC: counted once, so there is one physical NIC
  // of the model and nothing to compare its parameters with (one unknown check, not three).
  EXPECT_EQ(find_check(r, "fleet.nv-config-consistent", "nv.NUM_OF_VFS"), nullptr);
  const Consistency* nv = find_check(r, "fleet.nv-config-consistent", "nv.*");
  ASSERT_NE(nv, nullptr);
  EXPECT_EQ(nv->known, 1u);
  EXPECT_EQ(nv->outcome, Outcome::unknown);
  EXPECT_EQ(nv->message, "only 1 physical NIC of this model (host-a board serial MT0000XZ00AA): its 3 firmware "
                         "parameters have nothing to compare with");

  std::vector<const Consistency*> mh;
  for (const Consistency& c : r.cross.checks)
    if (c.rule == "fleet.multi-host-qos-identical") mh.push_back(&c);
  ASSERT_EQ(mh.size(), 4u);  // trust, dscp_map, pfc, ecn
  for (const Consistency* c : mh) {
    EXPECT_EQ(c->group, "board serial MT0000XZ00AA");
    if (c->setting == "pfc") {
      EXPECT_EQ(c->outcome, Outcome::fail);
      EXPECT_EQ(c->severity, Severity::critical);
      EXPECT_EQ(c->baseline, "3");
      ASSERT_EQ(c->outliers.size(), 1u);
      EXPECT_EQ(c->outliers[0].host, "host-c");
      EXPECT_EQ(c->outliers[0].subject, "eth4");
      EXPECT_EQ(c->outliers[0].value, "none");
    } else if (c->setting == "ecn") {
      EXPECT_EQ(c->outcome, Outcome::unknown) << c->message;  // not captured on these hosts
    } else {
      EXPECT_EQ(c->outcome, Outcome::pass) << c->setting << ": " << c->message;
      EXPECT_EQ(c->known, 4u);
    }
  }
}

TEST(FleetRender, JsonShape) {
  Options o;
  FleetReport r = run_fleet(discover_inputs({td() / "fleet/multihost"}), o);
  nlohmann::json j = render_json(r, {});
  EXPECT_EQ(j["fleet_report_version"], 1);
  EXPECT_EQ(j["summary"]["hosts"], 4);
  EXPECT_EQ(j["summary"]["hosts_loaded"], 4);
  EXPECT_EQ(j["summary"]["nics"], 4);
  EXPECT_EQ(j["summary"]["multi_host_nics"], 1);
  for (const char* key : {"problems", "rules", "consistency", "multi_host_nics", "hosts"})
    EXPECT_TRUE(j[key].is_array()) << key;
  const nlohmann::json* pfc = nullptr;
  for (const nlohmann::json& c : j["consistency"])
    if (c["rule"] == "fleet.multi-host-qos-identical" && c["setting"] == "pfc") pfc = &c;
  ASSERT_NE(pfc, nullptr);
  EXPECT_EQ((*pfc)["outcome"], "fail");
  EXPECT_EQ((*pfc)["outliers"][0], (nlohmann::json{{"host", "host-c"}, {"subject", "eth4"}, {"value", "none"}}));
  EXPECT_EQ((*pfc)["distribution"][0], (nlohmann::json{{"value", "3"}, {"count", 3}}));
  EXPECT_EQ(j["multi_host_nics"][0]["nv_config"]["SRIOV_EN"], "True(1)");
  const nlohmann::json& c = j["hosts"][2];
  EXPECT_EQ(c["host"], "host-c");
  EXPECT_EQ(c["loaded"], true);
  EXPECT_EQ(c["nics"], 1);
  bool pfc_failure = false;
  for (const nlohmann::json& f : c["failures"]) pfc_failure |= f["rule"] == "qos.pfc-roce-priority";
  EXPECT_TRUE(pfc_failure);
  // host-c is an outlier twice: against the whole fleet and among the PFs of its physical NIC.
  ASSERT_EQ(c["outliers"].size(), 2u);
  EXPECT_EQ(c["outliers"][0], (nlohmann::json{{"rule", "fleet.pfc-consistent"}, {"setting", "pfc"},
                                              {"subject", "eth4"}, {"value", "none"}, {"baseline", "3"},
                                              {"reference", "majority"}}));
  EXPECT_EQ(c["outliers"][1]["rule"], "fleet.multi-host-qos-identical");
  // Text and Markdown name the outlier too.
  std::string text = fleet::render(r, Format::text, {});
  EXPECT_NE(text.find("host-c eth4: none"), std::string::npos) << text;
  std::string md = fleet::render(r, Format::markdown, {});
  EXPECT_NE(md.find("| host-c | `eth4` | `none` |"), std::string::npos) << md;
  // One physical NIC of the model (host-a and host-b read the same one): its three firmware
  // NV parameters are one unknown line, not three passes of one value against itself.
  EXPECT_NE(text.find("UNKNOWN  fleet.nv-config-consistent         nv.* (PSID MT_0000000894): only 1 physical "
                      "NIC of this model (host-a board serial MT0000XZ00AA): its 3 firmware parameters have "
                      "nothing to compare with"),
            std::string::npos) << text;
  EXPECT_EQ(text.find("nv.NUM_OF_VFS"), std::string::npos) << text;
  EXPECT_NE(md.find("| nv.* | PSID MT_0000000894 | - | only 1 physical NIC of this model"), std::string::npos) << md;
  // A rule unknown on every host says why, with the first host's reason.
  EXPECT_NE(text.find("  net.mtu                      error     0 / 4 / 0\n"
                      "      unknown, e.g. host-a eth4: netdev MTU not collected: not captured (no ip link / "
                      "sysfs mtu output in the capture)\n"),
            std::string::npos) << text;
  const RuleTally* mtu = nullptr;
  for (const RuleTally& t : r.rules)
    if (t.rule == "net.mtu") mtu = &t;
  ASSERT_NE(mtu, nullptr);
  EXPECT_EQ(mtu->unknown_example,
            "host-a eth4: netdev MTU not collected: not captured (no ip link / sysfs mtu output in the capture)");
  for (const HostSummary& h : r.hosts) EXPECT_TRUE(h.unknown_examples.empty());
}

TEST(FleetRun, ExtraPerHostCheckerIsCountedLikeBuiltInRules) {
  Options o;
  o.extra_checks.push_back([](const Snapshot& s, const std::string&) {
    std::vector<Finding> out;
    for (const NetDev& n : s.netdevs) {
      Finding f;
      f.rule = "switch.example";
      f.subject = n.name;
      f.outcome = n.qos.has_value() && n.qos->pfc_enabled && !(*n.qos->pfc_enabled)[3] ? Outcome::fail : Outcome::pass;
      f.severity = Severity::error;
      f.message = "example";
      out.push_back(f);
    }
    return out;
  });
  FleetReport r = run_fleet(discover_inputs({td() / "fleet/multihost"}), o);
  auto it = std::find_if(r.rules.begin(), r.rules.end(), [](const RuleTally& t) { return t.rule == "switch.example"; });
  ASSERT_NE(it, r.rules.end());
  EXPECT_EQ(it->hosts_fail, 1u);
  EXPECT_EQ(it->hosts_pass, 3u);
  EXPECT_EQ(it->severity, Severity::error);
}

TEST(FleetRules, PolicyKnowsEveryConfigurableFleetRuleId) {
  const std::vector<std::string> ids = rules::policy_rule_ids();
  std::size_t fleet_ids = 0;
  for (const std::string& id : ids) fleet_ids += id.rfind("fleet.", 0) == 0 ? 1 : 0;
  EXPECT_EQ(fleet_ids, fleet_rules().size());
  for (const FleetRule& r : fleet_rules()) {
    if (r.id == "fleet.input-loaded") continue;
    EXPECT_NE(std::find(ids.begin(), ids.end(), std::string(r.id)), ids.end()) << r.id;
  }
  Result<Policy> bad = load_policy_text("rules:\n  fleet.input-loaded: {enabled: false}\n", "site.yaml", ids);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("cannot be configured"), std::string::npos) << bad.error().describe();
}

TEST(FleetRun, PolicyRulesSectionDisablesAndResetsFleetRules) {
  Options o;
  Result<Policy> pol = load_policy_text(
      "rules:\n  fleet.pfc-consistent: {severity: warning}\n  fleet.driver-version-consistent: {enabled: false}\n",
      "site.yaml", rules::policy_rule_ids());
  ASSERT_TRUE(pol) << pol.error().describe();
  o.policy = *pol;
  FleetReport r = run_fleet(discover_inputs({td() / "fleet/multihost"}), o);
  const Consistency* pfc = find_check(r, "fleet.pfc-consistent");
  ASSERT_NE(pfc, nullptr);
  EXPECT_EQ(pfc->outcome, Outcome::fail);
  EXPECT_EQ(pfc->severity, Severity::warning);  // critical by default
  EXPECT_EQ(find_check(r, "fleet.driver-version-consistent"), nullptr);
  EXPECT_NE(find_check(r, "fleet.firmware-version-consistent"), nullptr);
}

TEST(FleetRules, IdsAreUniqueAndSettingsAreReduced) {
  std::set<std::string_view> ids;
  const std::set<std::string_view> settings{setting::trust, setting::dscp_map, setting::pfc,
                                            setting::ecn, setting::cnp, setting::mtu,
                                            setting::max_read_request, setting::coalescing,
                                            setting::firmware, setting::driver,
                                            setting::driver_firmware};
  for (const FleetRule& r : fleet_rules()) {
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_EQ(r.family, rules::Family::fleet) << r.id;
    if (!r.setting.empty()) {
      EXPECT_TRUE(settings.count(r.setting)) << r.id << ": " << r.setting;
    }
  }
}

TEST(FleetPhysicalNic, BoardSerialFromDevlinkAndFromLspciVpd) {
  // devlink dev info: board.serial_number (schema 2 field), function.uid.
  Result<Snapshot> cx7 = load_host(td() / "fleet/multihost/host-b");
  ASSERT_TRUE(cx7);
  const PciFunction* pf = cx7->find_pci("0000:08:00.0");
  ASSERT_NE(pf, nullptr);
  EXPECT_EQ(pf->board_serial_number, "MT0000XZ00AA");
  // lspci -vv as root: VPD [SN] of a real ConnectX-4 capture.
  Result<Snapshot> cx4 = load_host(td() / "hosts/homelab-host02-cx4-100g-pcie-x8");
  ASSERT_TRUE(cx4);
  const PciFunction* p4 = cx4->find_pci("0000:81:00.0");
  ASSERT_NE(p4, nullptr);
  EXPECT_EQ(p4->board_serial_number, "MT0000X00000");
  // MT0000X00000 is the placeholder of a board whose VPD was never programmed: it names no
  // physical NIC (FleetPhysicalNic.PlaceholderSerialsJoinNothing).
  HostSummary h = summarize_host(*cx4, "x", Policy{});
  ASSERT_FALSE(h.nics.empty());
  EXPECT_EQ(h.nics[0].physical_id, "");
  // The field round-trips through the snapshot JSON (since schema_version 2).
  Result<Snapshot> back = snapshot_from_json(snapshot_to_json(*cx7));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->schema_version, k_snapshot_schema_version);
  EXPECT_EQ(back->find_pci("0000:08:00.0")->board_serial_number, "MT0000XZ00AA");
}

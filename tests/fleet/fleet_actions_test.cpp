// plan_outliers (issue 23 item 3): per outlier host, `rocekit plan`'s actions to the fleet's
// reference, exactly for the settings and NICs that differ.
#include <algorithm>

#include "fleet_support.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/plan/plan.hpp"

namespace rk::fleet::test {
namespace {

FleetReport planned_fleet(const std::vector<fs::path>& inputs, const Policy& policy = default_policy(),
                          const std::string& baseline = {}) {
  Options o;
  o.policy = policy;
  o.threads = 2;
  o.baseline = baseline;
  FleetReport r = run_fleet(discover_inputs(inputs), o);
  plan::PlanOptions popts;
  popts.nv_db_missing = "not validated (test)";
  plan_outliers(r, policy, popts);
  return r;
}

/// The PFC action `rocekit plan` makes for the capture on its own (default policy).
plan::Action own_pfc_action(const fs::path& capture) {
  Result<Snapshot> s = load_host(capture);
  EXPECT_TRUE(s.has_value());
  plan::Plan p = plan::make_plan(*s, default_policy());
  for (const plan::Action& a : p.actions)
    if (a.kind == plan::ActionKind::pfc && a.subject == "eth4") return a;
  ADD_FAILURE() << "rocekit plan has no PFC action for eth4 of " << capture;
  return {};
}

void expect_host_c_pfc_only(const FleetReport& r) {
  ASSERT_EQ(r.plans.size(), 1u) << "only host-c differs";
  const HostPlan& hp = r.plans.front();
  EXPECT_EQ(hp.host, "host-c");
  EXPECT_EQ(hp.error, "");
  ASSERT_EQ(hp.plan.actions.size(), 1u);
  const plan::Action& a = hp.plan.actions.front();
  plan::Action own = own_pfc_action(td() / "fleet/multihost/host-c");
  EXPECT_EQ(a.kind, plan::ActionKind::pfc);
  EXPECT_EQ(a.subject, "eth4");
  EXPECT_EQ(a.desired, own.desired);
  EXPECT_EQ(a.current, own.current);
  EXPECT_EQ(a.argv, own.argv);  // the planner's own command, here mlnx_qos (the capture shows it)
  ASSERT_FALSE(a.argv.empty());
  EXPECT_EQ(a.argv.front(), "mlnx_qos");
  EXPECT_EQ(a.disruption, own.disruption);
  EXPECT_TRUE(hp.plan.unplanned.empty()) << hp.plan.unplanned.front().rule << " " << hp.plan.unplanned.front().reason;
  EXPECT_EQ(hp.plan.identity.netdevs, std::vector<std::string>{"eth4"});
}

TEST(FleetActions, MultiHostFixturePlansOnlyHostCsPfc) {
  expect_host_c_pfc_only(planned_fleet({td() / "fleet/multihost"}));
}

TEST(FleetActions, BaselineHostAGivesTheSamePlan) {
  FleetReport r = planned_fleet({td() / "fleet/multihost"}, default_policy(), "host-a");
  ASSERT_EQ(r.baseline, "host-a");
  expect_host_c_pfc_only(r);
}

// host-c has PFC off on eth4; as the baseline it is the reference of fleet.pfc-consistent, but
// no host is planned away from the policy's PFC 3: each says why instead (host-c itself, an
// outlier of its Multi-Host NIC against the policy, is planned to PFC 3).
TEST(FleetActions, BaselineThatViolatesThePolicyIsNoPlanTarget) {
  FleetReport r = planned_fleet({td() / "fleet/multihost"}, default_policy(), "host-c");
  ASSERT_EQ(r.baseline, "host-c");
  std::size_t said = 0;
  for (const HostPlan& p : r.plans) {
    for (const plan::Action& a : p.plan.actions)  // host-c itself may be brought to the policy
      if (a.kind == plan::ActionKind::pfc) {
        EXPECT_EQ(p.host + " " + a.desired, "host-c 0,0,0,1,0,0,0,0");
      }
    for (const plan::Unplanned& u : p.plan.unplanned)
      if (u.reason.find("pfc: 3 -> none: not planned: the baseline host's value violates the policy") !=
          std::string::npos)
        ++said;
  }
  EXPECT_EQ(said, 3u);  // host-a, host-b, host-d
}

TEST(FleetActions, IgnoredSettingGetsNoAction) {
  Policy p = default_policy();
  p.fleet_ignore = {"pfc"};
  FleetReport r = planned_fleet({td() / "fleet/multihost"}, p);
  EXPECT_TRUE(r.plans.empty()) << r.plans.front().host;
}

TEST(FleetActions, KeepRulesLimitsThePlanToTheSelectedChecks) {
  Options o;
  o.threads = 2;
  FleetReport r = run_fleet(discover_inputs({td() / "fleet/multihost"}), o);
  keep_rules(r, {"fleet.ecn-consistent"});
  plan_outliers(r, default_policy(), {});
  EXPECT_TRUE(r.plans.empty());
}

// A reference the planner cannot reach (an MTU above the majority is never lowered) is a
// "not planned" line that says so, not silence; a larger reference MTU is planned.
TEST(FleetActions, MtuIsRaisedToTheReferenceNeverLowered) {
  TempDir t;
  for (const char* h : {"host-a", "host-b", "host-d"}) {
    Result<Snapshot> s = load_host(td() / "fleet/multihost" / h);
    ASSERT_TRUE(s.has_value());
    ASSERT_NE(s->find_netdev("eth4"), nullptr);
    for (NetDev& n : s->netdevs)
      if (n.name == "eth4") {
        n.mtu_bytes.value = std::string(h) == "host-d" ? 9000 : 4200;
        n.mtu_bytes.reason.clear();
      }
    s->hostname = h;
    write_text(t.path / (std::string(h) + ".json"), snapshot_to_json(*s).dump());
  }
  FleetReport r = planned_fleet({t.path});
  ASSERT_EQ(r.plans.size(), 1u);
  EXPECT_EQ(r.plans[0].host, "host-d");
  EXPECT_TRUE(r.plans[0].plan.actions.empty());
  ASSERT_EQ(r.plans[0].plan.unplanned.size(), 1u);
  const plan::Unplanned& u = r.plans[0].plan.unplanned[0];
  EXPECT_EQ(u.rule, "fleet.mtu-consistent");
  EXPECT_EQ(u.subject, "eth4");
  EXPECT_EQ(u.reason, "mtu: 9000 -> 4200: rocekit plan raises an MTU below the reference and never lowers a larger one");

  // The other way round: the reference 9000 is planned on the two hosts at 4200.
  FleetReport up = planned_fleet({t.path}, default_policy(), "host-d");
  ASSERT_EQ(up.plans.size(), 2u);
  for (const HostPlan& hp : up.plans) {
    ASSERT_EQ(hp.plan.actions.size(), 1u) << hp.host;
    EXPECT_EQ(hp.plan.actions[0].kind, plan::ActionKind::mtu);
    EXPECT_EQ(hp.plan.actions[0].current, "4200");
    EXPECT_EQ(hp.plan.actions[0].desired, "9000");
  }
}

// Two roles on one host, each with its own reference MTU: one plan has one policy, so the
// compute port is planned to its reference and the storage port's difference is a line that
// says why it is not planned with it.
TEST(FleetActions, TwoReferencesOfOneSettingOnAHost) {
  TempDir t;
  Result<Snapshot> base = load_host(td() / "fleet/multihost/host-a");
  ASSERT_TRUE(base.has_value());
  const NetDev* eth4 = base->find_netdev("eth4");
  ASSERT_NE(eth4, nullptr);
  for (int i = 0; i < 4; ++i) {
    Snapshot s = *base;
    s.hostname = "node" + std::to_string(i);
    NetDev storage = *eth4;
    storage.name = "eth5";
    s.netdevs.push_back(storage);
    for (NetDev& n : s.netdevs) {
      // node3: compute 4200 (reference 9000, planned up), storage 9000 (reference 4200).
      bool odd = i == 3;
      n.mtu_bytes.value = (n.name == "eth4") != odd ? 9000 : 4200;
      n.mtu_bytes.reason.clear();
    }
    write_text(t.path / (s.hostname + ".json"), snapshot_to_json(s).dump());
  }
  Policy p = default_policy();
  InterfaceRoleRule storage;
  storage.role = InterfaceRole::storage;
  storage.netdev = {"eth5"};
  p.interfaces.push_back(storage);
  FleetReport r = planned_fleet({t.path}, p);
  ASSERT_EQ(r.plans.size(), 1u);
  const HostPlan& hp = r.plans[0];
  EXPECT_EQ(hp.host, "node3");
  ASSERT_EQ(hp.plan.actions.size(), 1u);
  EXPECT_EQ(hp.plan.actions[0].subject, "eth4");
  EXPECT_EQ(hp.plan.actions[0].desired, "9000");
  ASSERT_EQ(hp.plan.unplanned.size(), 1u);
  EXPECT_EQ(hp.plan.unplanned[0].subject, "eth5");
  EXPECT_NE(hp.plan.unplanned[0].reason.find("mtu: 9000 -> 4200 (storage NICs): not planned: this host's other NICs "
                                              "are planned to 9000 (compute NICs)"),
            std::string::npos)
      << hp.plan.unplanned[0].reason;
}

// The JSON report is written host by host (no document of every host at once); its bytes are
// the document's own dump: hosts with failures, outliers, plan actions and an unloadable input.
TEST(FleetActions, StreamedJsonReportIsTheDocumentsDump) {
  TempDir dir;
  fs::copy(td() / "fleet/multihost", dir.path / "multihost", fs::copy_options::recursive);
  write_text(dir.path / "multihost/truncated.json", "{\"schema_version\": 2, \"netdevs\": [");
  FleetReport r = planned_fleet({dir.path / "multihost"});
  ASSERT_EQ(r.plans.size(), 1u);
  ASSERT_EQ(r.problems.size(), 1u);
  RenderOptions ro;
  ro.policy_name = "built-in \"default\"";
  const std::string streamed = fleet::render(r, Format::json, ro);
  EXPECT_EQ(streamed, render_json(r, ro).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  nlohmann::json j = nlohmann::json::parse(streamed);
  ASSERT_EQ(j["hosts"].size(), 5u);
  EXPECT_EQ(j["hosts"][2]["host"], "host-c");
  EXPECT_EQ(j["hosts"][2]["actions"][0]["subject"], "eth4");
  // No host: an empty array, as the document writes it.
  FleetReport none;
  EXPECT_EQ(fleet::render(none, Format::json, ro), render_json(none, ro).dump(2) + "\n");
}

}  // namespace
}  // namespace rk::fleet::test

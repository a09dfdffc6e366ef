// Coupled settings (issue 14 item 4) on real mlnx_qos captures (testdata/corpus/mlnx_qos, with
// their provenance headers): a host that consistently runs RoCE on another lossless priority
// gets no PFC or DSCP-map move unless --migrate-priority; a port in DCBX firmware (willing)
// mode gets no host QoS write. The priority-5 and firmware-DCBX inputs are derived from the
// real captures by the edits written below (no such capture exists in the corpus).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "golden.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/plan/plan.hpp"

namespace rk::plan {
namespace {

namespace fs = std::filesystem;

void replace_once(std::string& s, const std::string& from, const std::string& to) {
  std::size_t at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  s.replace(at, from.size(), to);
}

struct CoupledTest : ::testing::Test {
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() / ("rk_coupled_test_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  Snapshot capture(const std::string& netdev, const std::string& mlnx_qos_text) {
    std::ofstream(dir / ("mlnx_qos@" + netdev + ".txt")) << mlnx_qos_text;
    Result<Snapshot> s = load_input(dir);
    EXPECT_TRUE(s.has_value());
    return s ? *s : Snapshot{};
  }
};

/// cn-notes-ens14f0-dscp-default (trust dscp, PFC on 3, DSCP 26 -> 3, prio2buffer row) moved
/// to priority 5 throughout: DSCP 26 -> 5, PFC on 5 only, priority 5 alone in buffer 1.
std::string priority5_text() {
  std::string t = rk::test::corpus_body("mlnx_qos/cn-notes-ens14f0-dscp-default.txt");
  replace_once(t, "prio:3 dscp:31,30,29,28,27,26,25,24,", "prio:3 dscp:31,30,29,28,27,25,24,");
  replace_once(t, "prio:5 dscp:47,46,45,44,43,42,41,40,", "prio:5 dscp:47,46,45,44,43,42,41,40,26,");
  replace_once(t, "enabled     0   0   0   1   0   0   0   0", "enabled     0   0   0   0   0   1   0   0");
  replace_once(t, "buffer      0   2   5   7   1   2   3   6", "buffer      0   0   0   0   0   1   0   0");
  return t;
}

TEST_F(CoupledTest, TheRealCaptureOnPriority3IsHealthyAndPlansNoQosMove) {
  Snapshot s = capture("ens14f0", rk::test::corpus_body("mlnx_qos/cn-notes-ens14f0-dscp-default.txt"));
  const NetDev* n = s.find_netdev("ens14f0");
  ASSERT_NE(n, nullptr);
  ASSERT_TRUE(n->qos.has_value());
  EXPECT_EQ(n->qos->dcbx_mode, "os");
  EXPECT_EQ(n->qos->priority_to_buffer, (std::vector<int>{0, 2, 5, 7, 1, 2, 3, 6}));
  Plan p = make_plan(s, default_policy());
  for (const Action& a : p.actions) EXPECT_NE(a.kind, ActionKind::pfc);
}

TEST_F(CoupledTest, RoceConsistentlyOnPriority5GetsNoPfcOrDscpChange) {
  Snapshot s = capture("ens14f0", priority5_text());
  Plan p = make_plan(s, default_policy());
  for (const Action& a : p.actions) {
    EXPECT_NE(a.kind, ActionKind::pfc) << a.subject;
    EXPECT_NE(a.kind, ActionKind::dscp2prio) << a.subject;
    EXPECT_NE(a.kind, ActionKind::trust) << a.subject;
  }
  std::string why;
  for (const Unplanned& u : p.unplanned)
    if (u.rule == "qos" && u.subject == "ens14f0") why = u.reason;
  // The one line answers every failing DCB rule of the port: no generic "not planned" line
  // advising the DSCP-map or PFC move the check refused.
  for (const Unplanned& u : p.unplanned) {
    if (u.subject == "ens14f0") {
      EXPECT_EQ(u.reason.find("check advises"), std::string::npos) << u.rule;
    }
  }
  EXPECT_TRUE(why.starts_with("the host runs RoCE lossless on priority 5 (PFC on 5, DSCP 26 -> priority 5, "
                              "priority 5 in lossless receive buffer 1), the policy on 3: no PFC, trust or "
                              "DSCP-map change planned for ens14f0"))
      << why;
  EXPECT_NE(why.find("set roce.priority: 5"), std::string::npos);
  EXPECT_NE(why.find("--migrate-priority"), std::string::npos);
}

TEST_F(CoupledTest, MigratePriorityPlansTheMoveWithItsLinkFlap) {
  Snapshot s = capture("ens14f0", priority5_text());
  PlanOptions o;
  o.migrate_priority = true;
  Plan p = make_plan(s, default_policy(), o);
  const Action* pfc = nullptr;
  for (const Action& a : p.actions)
    if (a.kind == ActionKind::pfc) pfc = &a;
  ASSERT_NE(pfc, nullptr);
  EXPECT_EQ(pfc->current, "0,0,0,0,0,1,0,0");
  EXPECT_EQ(pfc->desired, "0,0,0,1,0,0,0,0");
  EXPECT_EQ(pfc->disruption, Disruption::link_flap);
}

TEST_F(CoupledTest, DcbxFirmwareControlledPortGetsNoHostQosWrite) {
  // cn-notes-client-ens14f0-pcp-pfc-off (trust pcp, PFC off: trust, DSCP map and PFC would be
  // planned) with its DCBX line as a willing port prints it.
  std::string t = rk::test::corpus_body("mlnx_qos/cn-notes-client-ens14f0-pcp-pfc-off.txt");
  Plan os = make_plan(capture("ens14f0", t), default_policy());
  EXPECT_FALSE(os.actions.empty());
  replace_once(t, "DCBX mode: OS controlled", "DCBX mode: Firmware controlled");
  Snapshot s = capture("ens14f0", t);
  EXPECT_EQ(s.find_netdev("ens14f0")->qos->dcbx_mode, "firmware");
  Plan p = make_plan(s, default_policy());
  for (const Action& a : p.actions)
    EXPECT_TRUE(a.kind != ActionKind::trust && a.kind != ActionKind::dscp2prio && a.kind != ActionKind::pfc)
        << to_string(a.kind);
  std::string why;
  for (const Unplanned& u : p.unplanned)
    if (u.rule == "qos") why = u.reason;
  EXPECT_TRUE(why.starts_with("DCBX mode: Firmware controlled (willing): the NIC takes PFC/ETS from the switch's DCBX"))
      << why;
  EXPECT_NE(why.find("DCBX_WILLING_P<n>=0"), std::string::npos) << why;
}

}  // namespace
}  // namespace rk::plan

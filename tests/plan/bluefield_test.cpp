// A firmware step on a BlueField (issue 22): the plan records the operation mode and reads it
// back with the step and its undo, warns that a firmware reset or `mlxconfig reset` can change
// the mode, never emits `mlxconfig reset`, and plans no host-side QoS on a DPU-mode card.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "rocekit/model/bluefield.hpp"
#include "rocekit/plan/plan.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::plan {
namespace {

NvParam nv(std::string name, std::string value) {
  return NvParam{std::move(name), std::nullopt, std::nullopt, value, std::nullopt, false, 10};
}

/// 0000:3b:00.0 a BlueField (INTERNAL_CPU_MODEL EMBEDDED_CPU(1), as the BlueField-2 of
/// Mellanox/mstflint issue 830 shows it) whose firmware marks CNPs with DSCP 46, not the policy's
/// 48: qos.cnp-firmware fails and plans an nv_config step. `offload` "" = row not shown.
Snapshot bluefield(const std::string& offload) {
  Snapshot s;
  PciFunction& p = s.pci("0000:3b:00.0");
  NvConfig c;
  c.params = {nv("INTERNAL_CPU_MODEL", "EMBEDDED_CPU(1)"), nv("ROCE_CC_PRIO_MASK_P1", "255"),
              nv("CNP_DSCP_P1", "46"), nv("CNP_802P_PRIO_P1", "6")};
  if (!offload.empty()) c.params.push_back(nv("INTERNAL_CPU_OFFLOAD_ENGINE", offload));
  p.nv_config.value = c;
  p.nv_config.source = {"mstconfig_q@0000:3b:00.0.txt", 1, "hand-built"};  // mstconfig backend
  fill_bluefield_modes(s);
  return s;
}

const Action& nv_action(const Plan& p) {
  for (const Action& a : p.actions)
    if (a.kind == ActionKind::nv_config) return a;
  throw std::runtime_error("no nv_config action");
}

/// The plan's BlueField warning ("" when none).
std::string bluefield_warning(const Plan& p) {
  for (const std::string& w : p.warnings)
    if (w.starts_with("BlueField ")) return w;
  return {};
}

/// No command line of the sh script (comments and echoed text aside) resets the firmware
/// configuration: `mlxconfig|mstconfig ... reset` or its short form `r`.
bool script_resets(const Plan& p) {
  std::istringstream in(render_sh(p));
  for (std::string line; std::getline(in, line);) {
    std::size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#' || line.compare(b, 4, "echo") == 0) continue;
    if ((line.find("mlxconfig") != std::string::npos ||
         line.find("mstconfig") != std::string::npos) &&
        (line.find(" reset") != std::string::npos || line.find(" r ") != std::string::npos ||
         line.ends_with(" r")))
      return true;
  }
  return false;
}

bool any_reset(const Plan& p) {
  auto has_reset = [](const std::vector<std::string>& argv) {
    return std::find(argv.begin(), argv.end(), "reset") != argv.end() ||
           std::find(argv.begin(), argv.end(), "r") != argv.end();
  };
  return std::any_of(p.actions.begin(), p.actions.end(), [&](const Action& a) {
    return has_reset(a.argv) || has_reset(a.undo_argv) || has_reset(a.check_argv);
  });
}

TEST(PlanBlueField, DpuModeFirmwareStepRecordsAndReadsBackTheMode) {
  Plan p = make_plan(bluefield("ENABLED(0)"), default_policy());
  const Action& a = nv_action(p);
  EXPECT_EQ(a.argv, (std::vector<std::string>{"mstconfig", "-y", "-d", "0000:3b:00.0", "set",
                                              "CNP_DSCP_P1=48"}));
  EXPECT_EQ(a.check_argv,
            (std::vector<std::string>{"mstconfig", "-d", "0000:3b:00.0", "query", "CNP_DSCP_P1",
                                      "INTERNAL_CPU_MODEL", "INTERNAL_CPU_OFFLOAD_ENGINE"}));
  ASSERT_EQ(a.check_regex.size(), 3u);
  EXPECT_EQ(a.check_regex[1],
            "^[[:space:]]*INTERNAL_CPU_MODEL[[:space:]]+([A-Za-z_]+\\()?1\\)?([[:space:]]|$)");
  EXPECT_EQ(
      a.check_regex[2],
      "^[[:space:]]*INTERNAL_CPU_OFFLOAD_ENGINE[[:space:]]+([A-Za-z_]+\\()?0\\)?([[:space:]]|$)");
  ASSERT_EQ(a.undo_check_regex.size(), 3u);  // the undo reads the mode back too
  EXPECT_EQ(a.undo_check_regex[1], a.check_regex[1]);
  EXPECT_NE(a.note.find("BlueField mode recorded and read back with the step: INTERNAL_CPU_MODEL=1 "
                        "INTERNAL_CPU_OFFLOAD_ENGINE=0"),
            std::string::npos)
      << a.note;
  const std::string w = bluefield_warning(p);
  EXPECT_NE(
      w.find(
          "BlueField 0000:3b:00.0 is in dpu mode (INTERNAL_CPU_MODEL EMBEDDED_CPU(1), "
          "INTERNAL_CPU_OFFLOAD_ENGINE ENABLED(0) (Next Boot)): a firmware reset (mlxfwreset) or "
          "`mlxconfig reset` can change its operation mode"),
      std::string::npos)
      << w;
  EXPECT_NE(
      w.find(
          "`mstconfig -d 0000:3b:00.0 q INTERNAL_CPU_MODEL INTERNAL_CPU_OFFLOAD_ENGINE` and expect "
          "INTERNAL_CPU_MODEL=1 INTERNAL_CPU_OFFLOAD_ENGINE=0; rocekit never plans `mlxconfig "
          "reset`."),
      std::string::npos)
      << w;
  EXPECT_NE(w.find("power cycle of the host"), std::string::npos) << w;
  // The step's disruption and note say the same: a power cycle, not "reboot or mstfwreset".
  EXPECT_EQ(a.disruption, Disruption::reboot_or_fw_reset);
  EXPECT_TRUE(a.disruption_why.starts_with("takes effect only after a power cycle of the host")) << a.disruption_why;
  EXPECT_NE(a.note.find("takes effect after a power cycle of the host (DPU mode)"), std::string::npos) << a.note;
  EXPECT_EQ(a.note.find("reboot or mstfwreset"), std::string::npos) << a.note;
  EXPECT_FALSE(any_reset(p));
  EXPECT_FALSE(script_resets(p));
  EXPECT_NE(render_sh(p).find("mstconfig -y -d 0000:3b:00.0 set CNP_DSCP_P1=48"),
            std::string::npos);
}

TEST(PlanBlueField, NicModeWarnsOfTheResetButNotThePowerCycle) {
  Plan p = make_plan(bluefield("DISABLED(1)"), default_policy());
  const Action& a = nv_action(p);
  EXPECT_EQ(
      a.check_regex.back(),
      "^[[:space:]]*INTERNAL_CPU_OFFLOAD_ENGINE[[:space:]]+([A-Za-z_]+\\()?1\\)?([[:space:]]|$)");
  const std::string w = bluefield_warning(p);
  EXPECT_TRUE(
      w.starts_with("BlueField 0000:3b:00.0 is in nic mode (INTERNAL_CPU_MODEL EMBEDDED_CPU(1), "
                    "INTERNAL_CPU_OFFLOAD_ENGINE DISABLED(1) (Next Boot))"))
      << w;
  EXPECT_EQ(w.find("power cycle"), std::string::npos);
  EXPECT_EQ(a.disruption_why.find("power cycle"), std::string::npos) << a.disruption_why;
  EXPECT_NE(a.note.find("takes effect after a reboot or mstfwreset"), std::string::npos) << a.note;
  EXPECT_FALSE(any_reset(p));
  EXPECT_FALSE(script_resets(p));
}

TEST(PlanBlueField, ConnectXStepHasNoModeGuard) {
  Snapshot s = bluefield("");
  s.pci_functions.front().nv_config.value->params.erase(
      s.pci_functions.front().nv_config.value->params.begin());
  fill_bluefield_modes(s);
  ASSERT_FALSE(s.pci_functions.front().bluefield_mode.has_value());
  Plan p = make_plan(s, default_policy());
  EXPECT_EQ(nv_action(p).check_argv.size(), 5u);  // mstconfig -d BDF query CNP_DSCP_P1
  for (const std::string& w : p.warnings) EXPECT_EQ(w.find("BlueField"), std::string::npos) << w;
}

TEST(PlanBlueField, NoHostQosStepOnADpuModeCard) {
  Snapshot s = bluefield("ENABLED(0)");
  NetDev& n = s.netdev("eth4");
  n.bdf = "0000:3b:00.0";
  n.driver.value = DriverInfo{"mlx5_core", std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  QosState q;
  q.trust = Trust::pcp;  // would be a trust step on a ConnectX
  q.pfc_enabled = std::vector<bool>(8, false);
  q.trust_source = q.pfc_source = {"mlnx_qos@eth4.txt", 2, "hand-built"};
  n.qos.value = q;
  Plan p = make_plan(s, default_policy());
  for (const Action& a : p.actions) EXPECT_NE(a.subject, "eth4") << a.rule;
  // The reason is the DPU mode, not a DCBX or other reason.
  bool said = false;
  for (const Unplanned& u : p.unplanned)
    if (u.subject == "eth4" && u.rule == "qos")
      said = u.reason.starts_with("BlueField 0000:3b:00.0 is in DPU mode") && u.reason.ends_with("no QoS step planned");
  EXPECT_TRUE(said);
}

// A BlueField by its firmware (32.x) whose mode is not read: it may be in DPU mode, so no host
// QoS step either.
TEST(PlanBlueField, NoHostQosStepWhenTheModeIsNotKnown) {
  Snapshot s;
  NetDev& n = s.netdev("eth4");
  n.bdf = "0000:3b:00.0";
  n.rdma_device = "mlx5_0";
  n.driver.value = DriverInfo{"mlx5_core", std::nullopt, "32.43.1014 (MT_0000000884)", std::nullopt, "0000:3b:00.0"};
  QosState q;
  q.trust = Trust::pcp;
  q.pfc_enabled = std::vector<bool>(8, false);
  q.trust_source = q.pfc_source = {"mlnx_qos@eth4.txt", 2, "hand-built"};
  n.qos.value = q;
  Plan p = make_plan(s, default_policy());
  for (const Action& a : p.actions) EXPECT_NE(a.subject, "eth4") << a.rule;
  bool said = false;
  for (const Unplanned& u : p.unplanned)
    if (u.subject == "eth4" && u.rule == "qos") said = u.reason.find("operation mode not known") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace rk::plan

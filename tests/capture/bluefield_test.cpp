// BlueField DPUs (issue 22) from captures: the operation mode read from a real BlueField-2
// `mstconfig -e q` (Mellanox/mstflint issue 830, testdata/corpus/mlxconfig), where the port QoS
// is judged on the host and on the Arm side, and the mode in the snapshot JSON.
#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/model/bluefield.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

const char* const k_bf2_query = "mlxconfig/mstflint-issue830-bf2-mbf2h512c-e-q-dpu-mode.txt";
// A real mlnx_qos output (trust dscp, PFC on priority 3), given below as the output of the
// netdev each test names: mlnx_qos does not print the interface it was run on.
const char* const k_qos = "mlnx_qos/netarbiter-eth4-dscp-pfc3.txt";

CaptureFile corpus(const std::string& name, const std::string& rel) {
  return {name, test::read_file(test::testdata_dir() / "corpus" / rel), ""};
}

const Finding* finding(const rules::Report& r, const std::string& rule,
                       const std::string& subject) {
  for (const Finding& f : r.findings)
    if (f.rule == rule && f.subject == subject) return &f;
  return nullptr;
}

TEST(BlueFieldMode, RealBlueField2QueryIsDpuMode) {
  CaptureSet set;
  set.files.push_back(corpus("mlxconfig_q@0000:ca:00.0.txt", k_bf2_query));
  Snapshot s = snapshot_from_capture(set);
  const PciFunction* p = s.find_pci("0000:ca:00.0");
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->bluefield_mode.has_value());
  const BlueFieldMode& m = *p->bluefield_mode;
  EXPECT_EQ(m.mode, "dpu");
  EXPECT_EQ(m.column, "Current");
  EXPECT_EQ(m.internal_cpu_model, "EMBEDDED_CPU(1)");
  EXPECT_FALSE(m.offload_engine.has_value());  // the excerpt ends at INTERNAL_CPU_MODEL
  EXPECT_FALSE(m.next_boot_mode.has_value());  // Current and Next Boot agree
  EXPECT_EQ(m.why, "INTERNAL_CPU_MODEL EMBEDDED_CPU(1) (Current)");
  EXPECT_EQ(m.source.file, "mlxconfig_q@0000:ca:00.0.txt");
  EXPECT_EQ(m.source.line, 19u);  // the INTERNAL_CPU_MODEL row, after the 3-line corpus header
  EXPECT_NE(dpu_mode(*p), nullptr);

  // The mode is part of the snapshot JSON (schema 7) and reads back.
  nlohmann::json j = snapshot_to_json(s);
  EXPECT_EQ(j["schema_version"], 8);
  Result<Snapshot> back = snapshot_from_json(j);
  ASSERT_TRUE(back.has_value());
  ASSERT_TRUE(back->find_pci("0000:ca:00.0")->bluefield_mode.has_value());
  EXPECT_EQ(back->find_pci("0000:ca:00.0")->bluefield_mode->mode, "dpu");
  // A schema-6 snapshot has no mode: it is derived from the NV configuration read back.
  j["schema_version"] = 6;
  for (auto& f : j["pci_functions"]) f.erase("bluefield_mode");
  Result<Snapshot> old = snapshot_from_json(j);
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->find_pci("0000:ca:00.0")->bluefield_mode->mode, "dpu");
}

TEST(BlueFieldMode, HostPortQosOfADpuIsJudgedOnTheArmSide) {
  CaptureSet set;
  set.files.push_back(corpus("mlxconfig_q@0000:ca:00.0.txt", k_bf2_query));
  set.files.push_back(corpus("mlnx_qos@enp202s0f0np0.txt", k_qos));
  Snapshot s = snapshot_from_capture(set);
  // The capture would pair the netdev with its function through ethtool -i; this one has none.
  s.netdev("enp202s0f0np0").bdf = "0000:ca:00.0";
  rules::Report r = rules::evaluate(s, default_policy(), {"qos"});
  for (const char* rule :
       {"qos.trust-dscp", "qos.roce-dscp-priority", "qos.pfc-roce-priority",
        "qos.pfc-only-roce-priority", "qos.ets-roce-share", "qos.pfc-headroom"}) {
    const Finding* f = finding(r, rule, "enp202s0f0np0");
    ASSERT_NE(f, nullptr) << rule;
    EXPECT_EQ(f->outcome, Outcome::not_applicable) << rule << ": " << f->message;
    EXPECT_EQ(
        f->message,
        "BlueField 0000:ca:00.0 is in DPU mode (INTERNAL_CPU_MODEL EMBEDDED_CPU(1) (Current)): QoS "
        "configured on the DPU's Arm side (p0/pf0hpf); run rocekit check there. NVIDIA BlueField "
        "BSP \"QoS "
        "Configuration\": in DPU mode use mlnx_qos only from the Arm, never from the host");
    // The evidence is the NV query's INTERNAL_CPU_MODEL row.
    ASSERT_EQ(f->evidence.size(), 1u) << rule;
    EXPECT_EQ(f->evidence[0].file, "mlxconfig_q@0000:ca:00.0.txt");
    EXPECT_EQ(f->evidence[0].line, 19u);
  }
  // The same output on a host without the BlueField query is judged (trust dscp passes).
  CaptureSet plain;
  plain.files.push_back(corpus("mlnx_qos@enp202s0f0np0.txt", k_qos));
  rules::Report judged =
      rules::evaluate(snapshot_from_capture(plain), default_policy(), {"qos.trust-dscp"});
  ASSERT_EQ(judged.findings.size(), 1u);
  EXPECT_EQ(judged.findings[0].outcome, Outcome::pass) << judged.findings[0].message;
}

// The host PF's eswitch query refused (a BlueField-3 host in DPU mode, OpenShellBF, given here as
// this BlueField-2's host PF: no public capture holds both) backs the NV query in the reason.
TEST(BlueFieldMode, HostEswitchAnswerBacksTheDpuMode) {
  CaptureSet set;
  set.files.push_back(corpus("mlxconfig_q@0000:ca:00.0.txt", k_bf2_query));
  set.files.push_back(corpus("mlnx_qos@enp202s0f0np0.txt", k_qos));
  set.files.push_back(corpus("devlink_dev_eswitch@0000:ca:00.0.txt",
                             "devlink_dev_eswitch/openshellbf-bf3-host-devlink-dev-eswitch-show-not-supported.txt"));
  Snapshot s = snapshot_from_capture(set);
  s.netdev("enp202s0f0np0").bdf = "0000:ca:00.0";
  const PciFunction* p = s.find_pci("0000:ca:00.0");
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->eswitch.has_value());
  EXPECT_EQ(p->eswitch->kernel_error, "Operation not supported");
  EXPECT_FALSE(p->eswitch->mode.has_value());
  EXPECT_EQ(p->eswitch->source.line, 4u);
  rules::Report r = rules::evaluate(s, default_policy(), {"qos.trust-dscp"});
  const Finding* f = finding(r, "qos.trust-dscp", "enp202s0f0np0");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->outcome, Outcome::not_applicable);
  EXPECT_EQ(f->message,
            "BlueField 0000:ca:00.0 is in DPU mode (INTERNAL_CPU_MODEL EMBEDDED_CPU(1) (Current); devlink dev "
            "eswitch show pci/0000:ca:00.0: kernel answers: Operation not supported): QoS configured on the "
            "DPU's Arm side (p0/pf0hpf); run rocekit check there. NVIDIA BlueField BSP \"QoS Configuration\": in "
            "DPU mode use mlnx_qos only from the Arm, never from the host");
}

// rocekit-capture keeps a failed command's first stderr line in the notes line and writes no
// body: the eswitch answer is read from there. The file is constructed in rocekit-capture's own
// layout around the real answer of testdata/corpus/devlink_dev_eswitch.
TEST(BlueFieldMode, EswitchAnswerFromTheCaptureHeader) {
  CaptureSet set;
  set.files.push_back({"devlink_dev_eswitch@0000:b3:00.0.txt",
                       "# source: rocekit-capture 0.9 on host at 2026-04-11T07:00:00Z: devlink dev eswitch show "
                       "pci/0000:b3:00.0\n"
                       "# notes: exit status 1; stderr: kernel answers: Operation not supported\n"
                       "# ---\n",
                       ""});
  Snapshot s = snapshot_from_capture(set);
  const PciFunction* p = s.find_pci("0000:b3:00.0");
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->eswitch.has_value());
  EXPECT_EQ(p->eswitch->kernel_error, "Operation not supported");
  EXPECT_EQ(p->eswitch->source.line, 2u);
  EXPECT_EQ(p->eswitch->source.text, "kernel answers: Operation not supported");
  EXPECT_EQ(eswitch_evidence(*p), "devlink dev eswitch show pci/0000:b3:00.0: kernel answers: Operation not supported");
}

TEST(BlueFieldMode, ArmSideCaptureJudgesTheUplinkNotTheRepresentor) {
  CaptureSet set;
  set.files.push_back(corpus("mlnx_qos@p0.txt", k_qos));
  set.files.push_back(corpus("mlnx_qos@pf0hpf.txt", k_qos));
  Snapshot s = snapshot_from_capture(set);
  EXPECT_EQ(bluefield_arm_side(s), "netdev pf0hpf (host PF representor)");
  rules::Report r =
      rules::evaluate(s, default_policy(), {"qos.trust-dscp", "qos.pfc-roce-priority"});
  for (const char* rule : {"qos.trust-dscp", "qos.pfc-roce-priority"}) {
    const Finding* up = finding(r, rule, "p0");
    ASSERT_NE(up, nullptr);
    EXPECT_EQ(up->outcome, Outcome::pass) << up->message;
    const Finding* rep = finding(r, rule, "pf0hpf");
    ASSERT_NE(rep, nullptr);
    EXPECT_EQ(rep->outcome, Outcome::not_applicable);
    EXPECT_EQ(rep->message,
              "pf0hpf is a representor of the host PF/VF: QoS is set on the uplink p0, judged there "
              "(DOCA representor name; Arm side of a BlueField: netdev pf0hpf (host PF representor); "
              "NVIDIA DOCA \"DPU Kernel Representors Model\")");
  }
}

// Names alone on the Arm side (no ethtool -i, no devlink): DOCA's SF representor en3f0pf0sf0 and
// the Arm OS's own SF enp3s0f0s0 (both on a BlueField-2 Arm, NVIDIA developer forum thread
// 313796 `ifconfig`) are not judged as uplinks; p0 is.
TEST(BlueFieldMode, ArmSideSfNamesAreNotJudgedAsUplinks) {
  CaptureSet set;
  set.files.push_back({"uname.txt", "5.4.0-1007-bluefield\n", ""});
  for (const char* n : {"p0", "en3f0pf0sf0", "enp3s0f0s0"})
    set.files.push_back(corpus(std::string("mlnx_qos@") + n + ".txt", k_qos));
  Snapshot s = snapshot_from_capture(set);
  rules::Report r = rules::evaluate(s, default_policy(), {"qos.trust-dscp"});
  ASSERT_NE(finding(r, "qos.trust-dscp", "p0"), nullptr);
  EXPECT_EQ(finding(r, "qos.trust-dscp", "p0")->outcome, Outcome::pass);
  const Finding* rep = finding(r, "qos.trust-dscp", "en3f0pf0sf0");
  ASSERT_NE(rep, nullptr);
  EXPECT_EQ(rep->outcome, Outcome::not_applicable);
  EXPECT_NE(rep->message.find("en3f0pf0sf0 is a representor of a sub-function (SF): QoS is set on the uplink p0"),
            std::string::npos)
      << rep->message;
  const Finding* sf = finding(r, "qos.trust-dscp", "enp3s0f0s0");
  ASSERT_NE(sf, nullptr);
  EXPECT_EQ(sf->outcome, Outcome::not_applicable);
  EXPECT_NE(sf->message.find("enp3s0f0s0 is a scalable function (SF) of the Arm OS"), std::string::npos) << sf->message;
}

// On the Arm side without an NV query: the host PF's representor (devlink pcipf) means DPU mode,
// so fw.dpu-minimum judges the firmware (32.41.1000: the BlueField-3 of nic-configuration-operator
// PR 97); a BlueField kernel alone leaves the mode, and the rule, unknown.
TEST(BlueFieldMode, ArmSideFirmwareIsJudgedAsDpuMode) {
  const std::string ethtool = "driver: mlx5_core\nfirmware-version: 32.41.1000 (MT_0000000998)\nbus-info: 0000:03:00.0\n";
  CaptureSet set;
  set.files.push_back(
      corpus("devlink_port.txt", "devlink_port/novaspecs-bf-arm-devlink-port-show-p0-pf0hpf-pf0vf0-3-no-controller.txt"));
  set.files.push_back({"ethtool_i@p0.txt", ethtool, ""});
  rules::Report r = rules::evaluate(snapshot_from_capture(set), default_policy(), {"fw.dpu-minimum"});
  const Finding* f = finding(r, "fw.dpu-minimum", "0000:03:00.0");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->outcome, Outcome::fail);
  EXPECT_NE(f->message.find("in DPU mode runs firmware 32.41.1000, below 32.43.1014"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("DPU mode: Arm side with the host PF's representor: devlink port: uplink p0"),
            std::string::npos)
      << f->message;

  CaptureSet kernel_only;
  kernel_only.files.push_back({"uname.txt", "5.15.0-1035-bluefield\n", ""});
  kernel_only.files.push_back({"ethtool_i@p0.txt", ethtool, ""});
  rules::Report k = rules::evaluate(snapshot_from_capture(kernel_only), default_policy(), {"fw.dpu-minimum"});
  const Finding* u = finding(k, "fw.dpu-minimum", "0000:03:00.0");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->outcome, Outcome::unknown);
  EXPECT_NE(u->message.find("operation mode not in the input"), std::string::npos) << u->message;
}

// A DPU-mode BlueField applies NV changes only at a power cycle: no fix says mstfwreset for it.
TEST(BlueFieldMode, DpuFirmwareFixesSayPowerCycleNotMstfwreset) {
  CaptureSet set;
  set.files.push_back(corpus("mlxconfig_q@0000:ca:00.0.txt", k_bf2_query));
  Snapshot s = snapshot_from_capture(set);
  // A pending NV change on the card (Next Boot differs from Current).
  NvParam p{"LINK_TYPE_P1", std::nullopt, "ETH(2)", "IB(1)", std::nullopt, false, 30};
  s.find_pci("0000:ca:00.0")->nv_config.value->params.push_back(p);
  rules::Report r = rules::evaluate(s, default_policy(), {"fw.pending-config"});
  const Finding* f = finding(r, "fw.pending-config", "0000:ca:00.0");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->outcome, Outcome::fail) << f->message;
  for (const std::string& c : f->remediation.commands) EXPECT_EQ(c.find("fwreset"), std::string::npos) << c;
  EXPECT_NE(f->remediation.notes.find("takes effect only after a power cycle of the host"), std::string::npos)
      << f->remediation.notes;
}

// A BlueField known only by its firmware (32.43.1014: BlueField-3; the real `ethtool -i` of a
// B3220 host, OpenShift PTP notes) with no readable NV query: its mode, and so where its port QoS
// lives, is not known. The port QoS rules are unknown (not judged as a ConnectX), the plan writes
// no QoS, fw.dpu-minimum is unknown.
TEST(BlueFieldMode, ModeUnknownBlueFieldIsNotJudgedAsAConnectX) {
  CaptureSet set;
  set.files.push_back({"ethtool_i@enP2s2f0np0.txt",
                       "driver: mlx5_core\nversion: 24.10-1.1.4\nfirmware-version: 32.43.1014 (MT_0000000884)\n"
                       "bus-info: 0002:01:00.0\n",
                       ""});
  set.files.push_back(corpus("mlnx_qos@enP2s2f0np0.txt", k_qos));
  Snapshot s = snapshot_from_capture(set);
  rules::Report r = rules::evaluate(s, default_policy(), {"qos.trust-dscp", "fw.dpu-minimum"});
  const Finding* q = finding(r, "qos.trust-dscp", "enP2s2f0np0");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->outcome, Outcome::unknown);
  EXPECT_NE(q->message.find("BlueField 0002:01:00.0 (firmware 32.43.1014 (BlueField-3)), operation mode not known"),
            std::string::npos)
      << q->message;
  EXPECT_NE(q->message.find("the Arm side (p0/pf0hpf)"), std::string::npos);
  const Finding* m = finding(r, "fw.dpu-minimum", "0002:01:00.0");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->outcome, Outcome::unknown);
}

TEST(BlueFieldMode, NamesAndModes) {
  EXPECT_EQ(representor_uplink("pf0hpf"), "p0");
  EXPECT_EQ(representor_uplink("pf1vf3"), "p1");
  EXPECT_FALSE(representor_uplink("p0").has_value());
  EXPECT_FALSE(representor_uplink("pf0").has_value());
  EXPECT_FALSE(representor_uplink("pfxhpf").has_value());
  EXPECT_EQ(arm_side_names("0000:03:00.1"), "p1/pf1hpf");

  auto mode = [](std::vector<std::pair<std::string, std::string>> rows, bool current = true) {
    PciFunction p;
    p.bdf = "0000:03:00.0";
    NvConfig c;
    for (auto& [k, v] : rows)
      c.params.push_back(NvParam{k, std::nullopt,
                                 current ? std::optional<std::string>(v) : std::nullopt, v,
                                 std::nullopt, false, 1});
    p.nv_config.value = c;
    std::optional<BlueFieldMode> m = bluefield_mode_of(p);
    return m ? m->mode : std::string("none");
  };
  // Value encodings of mstflint's mlxconfig_host.db (TLV nv_internal_cpu_conf).
  EXPECT_EQ(mode({{"INTERNAL_CPU_MODEL", "SEPARATED_HOST(0)"}}), "separated_host");
  EXPECT_EQ(mode({{"INTERNAL_CPU_MODEL", "EMBEDDED_CPU(1)"},
                  {"INTERNAL_CPU_OFFLOAD_ENGINE", "ENABLED(0)"}}),
            "dpu");
  EXPECT_EQ(mode({{"INTERNAL_CPU_MODEL", "EMBEDDED_CPU(1)"},
                  {"INTERNAL_CPU_OFFLOAD_ENGINE", "DISABLED(1)"}}),
            "nic");
  EXPECT_EQ(mode({{"INTERNAL_CPU_MODEL", "EMBEDDED_CPU(1)"},
                  {"INTERNAL_CPU_ESWITCH_MANAGER", "EXT_HOST_PF(1)"}}),
            "nic");
  EXPECT_EQ(mode({{"INTERNAL_CPU_MODEL", "EMBEDDED_CPU(1)"}}, false), "dpu");
  EXPECT_EQ(mode({{"INTERNAL_CPU_MODEL", "7"}}), "unknown");
  EXPECT_EQ(mode({{"LINK_TYPE_P1", "ETH(2)"}}), "none");  // a ConnectX: no mode

  // Current DPU, Next Boot NIC: a mode change waits for the next firmware reset / power cycle.
  PciFunction p;
  p.bdf = "0000:03:00.0";
  NvConfig c;
  c.params.push_back(NvParam{"INTERNAL_CPU_MODEL", "EMBEDDED_CPU(1)", "EMBEDDED_CPU(1)",
                             "EMBEDDED_CPU(1)", std::nullopt, false, 4});
  c.params.push_back(NvParam{"INTERNAL_CPU_OFFLOAD_ENGINE", "ENABLED(0)", "ENABLED(0)",
                             "DISABLED(1)", std::nullopt, true, 5});
  p.nv_config.value = c;
  std::optional<BlueFieldMode> m = bluefield_mode_of(p);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->mode, "dpu");
  EXPECT_EQ(m->next_boot_mode, "nic");
  EXPECT_EQ(m->why,
            "INTERNAL_CPU_MODEL EMBEDDED_CPU(1), INTERNAL_CPU_OFFLOAD_ENGINE ENABLED(0) (Current); "
            "Next Boot: "
            "INTERNAL_CPU_MODEL EMBEDDED_CPU(1), INTERNAL_CPU_OFFLOAD_ENGINE DISABLED(1)");
}

}  // namespace
}  // namespace rk::capture

// The Arm side of a BlueField in DPU mode from real outputs (issue 22): `devlink port show` of a
// BlueField's Arm (openstack/nova-specs, testdata/corpus/devlink_port) and `ethtool -i` of p0,
// pf0hpf, en3f0pf0sf0 and enp3s0f0s0 on a BlueField-2 Arm (lshca issue 62, testdata/corpus/misc,
// one file per netdev as rocekit-capture writes them). The uplinks carry the port QoS; the
// representors are not_applicable, naming their uplink.
#include <gtest/gtest.h>

#include <sstream>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/model/bluefield.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/render/render.hpp"
#include "rocekit/rules/qos_scope.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::capture {
namespace {

const char* const k_ports = "devlink_port/novaspecs-bf-arm-devlink-port-show-p0-pf0hpf-pf0vf0-3-no-controller.txt";
const char* const k_patch = "devlink_port/mlx5-patch-bf-arm-devlink-port-show-pf0hpf-controller1-external.txt";
const char* const k_ethtool_i = "misc/lshca-issue62-bf2-arm-ethtool-i-p0-pf0hpf-sfrep-sf-driver-businfo.txt";
// `devlink dev eswitch show pci/0000:03:00.0` on a BlueField-3's Arm side (OpenShellBF), given as
// the eswitch of the nova-specs card's ECPF (the same address): no public capture holds both.
const char* const k_eswitch = "devlink_dev_eswitch/openshellbf-bf3-arm-devlink-dev-eswitch-show-ecpf-switchdev.txt";
// A real mlnx_qos output (trust dscp, PFC on priority 3) given as p0's: no public mlnx_qos output
// taken on a BlueField's Arm exists (research notes, 2026-12-06).
const char* const k_qos = "mlnx_qos/netarbiter-eth4-dscp-pfc3.txt";

CaptureFile corpus(const std::string& name, const std::string& rel) {
  return {name, test::read_file(test::testdata_dir() / "corpus" / rel), ""};
}

/// The lshca loop's output split at its `-----<netdev>-----` lines: ethtool_i@<netdev>.txt each.
std::vector<CaptureFile> ethtool_i_per_netdev() {
  std::vector<CaptureFile> out;
  std::istringstream in(test::corpus_body(k_ethtool_i));
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("-----") && line.ends_with("-----") && line.size() > 10) {
      out.push_back({"ethtool_i@" + line.substr(5, line.size() - 10) + ".txt", "", ""});
    } else if (!out.empty()) {
      out.back().bytes += line + "\n";
    }
  }
  return out;
}

Snapshot arm_capture(bool with_eswitch = false) {
  CaptureSet set;
  set.files.push_back(corpus("devlink_port.txt", k_ports));
  for (CaptureFile& f : ethtool_i_per_netdev()) set.files.push_back(std::move(f));
  set.files.push_back(corpus("mlnx_qos@p0.txt", k_qos));
  if (with_eswitch) set.files.push_back(corpus("devlink_dev_eswitch@0000:03:00.0.txt", k_eswitch));
  return snapshot_from_capture(set);
}

const Finding* finding(const rules::Report& r, const std::string& rule, const std::string& subject) {
  for (const Finding& f : r.findings)
    if (f.rule == rule && f.subject == subject) return &f;
  return nullptr;
}

TEST(BlueFieldArm, DevlinkFlavoursInTheSnapshot) {
  Snapshot s = arm_capture();
  ASSERT_EQ(ethtool_i_per_netdev().size(), 4u);
  const NetDev* p0 = s.find_netdev("p0");
  ASSERT_NE(p0, nullptr);
  ASSERT_TRUE(p0->devlink_port.has_value());
  EXPECT_EQ(p0->devlink_port->handle, "pci/0000:03:00.0/262143");
  EXPECT_EQ(p0->devlink_port->flavour, "physical");
  EXPECT_EQ(p0->devlink_port->port, 0);
  EXPECT_EQ(p0->devlink_port->source.file, "devlink_port.txt");
  EXPECT_EQ(p0->devlink_port->source.line, 4u);  // after the 3-line corpus header
  EXPECT_EQ(p0->bdf, "0000:03:00.0");
  EXPECT_EQ(p0->driver->driver, "mlx5_core");
  const NetDev* hpf = s.find_netdev("pf0hpf");
  ASSERT_NE(hpf, nullptr);
  EXPECT_EQ(hpf->devlink_port->flavour, "pcipf");
  EXPECT_EQ(hpf->devlink_port->pfnum, 0);
  EXPECT_EQ(hpf->driver->driver, "mlx5e_rep");
  EXPECT_FALSE(hpf->bdf.has_value());  // a representor's devlink instance is the eswitch manager's
  EXPECT_EQ(s.find_netdev("pf1vf3")->devlink_port->vfnum, 3);
  EXPECT_EQ(s.find_netdev("p1")->devlink_port->handle, "pci/0000:03:00.1/327679");
  EXPECT_EQ(bluefield_arm_side(s),
            "devlink port: uplink p0 (flavour physical) and host PF representor pf0hpf (flavour pcipf)");

  // The fields are in the snapshot JSON and read back.
  nlohmann::json j = snapshot_to_json(s);
  Result<Snapshot> back = snapshot_from_json(j);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->find_netdev("pf0hpf")->devlink_port->flavour, "pcipf");
  EXPECT_EQ(back->find_netdev("p1")->devlink_port->port, 1);
}

TEST(BlueFieldArm, HostPfRoceFromTheArm) {
  CaptureSet set;
  set.files.push_back(corpus("devlink_port.txt", k_patch));
  Snapshot s = snapshot_from_capture(set);
  const NetDev* hpf = s.find_netdev("pf0hpf");
  ASSERT_NE(hpf, nullptr);
  ASSERT_TRUE(hpf->devlink_port.has_value());
  EXPECT_EQ(hpf->devlink_port->function_roce, true);
  EXPECT_EQ(hpf->devlink_port->controller, 1);
  EXPECT_EQ(hpf->devlink_port->external, true);
  // Only a representor: no uplink in this output, so the Arm side is told by the name.
  EXPECT_EQ(bluefield_arm_side(s), "netdev pf0hpf (host PF representor)");
}

TEST(BlueFieldArm, QosJudgedOnTheUplinkNotOnRepresentors) {
  Snapshot s = arm_capture();
  rules::Report r = rules::evaluate(s, default_policy(), {"qos"});
  for (const char* rule : {"qos.trust-dscp", "qos.roce-dscp-priority", "qos.pfc-roce-priority"}) {
    SCOPED_TRACE(rule);
    const Finding* up = finding(r, rule, "p0");
    ASSERT_NE(up, nullptr);
    EXPECT_EQ(up->outcome, Outcome::pass) << up->message;
    const Finding* hpf = finding(r, rule, "pf0hpf");
    ASSERT_NE(hpf, nullptr);
    EXPECT_EQ(hpf->outcome, Outcome::not_applicable);
    EXPECT_EQ(hpf->message,
              "pf0hpf is a representor of the host PF/VF: QoS is set on the uplink p0, judged there "
              "(devlink port pci/0000:03:00.0/196608 flavour pcipf; Arm side of a BlueField: devlink "
              "port: uplink p0 (flavour physical) and host PF representor pf0hpf (flavour pcipf); "
              "NVIDIA DOCA \"DPU Kernel Representors Model\")");
    const Finding* vf = finding(r, rule, "pf1vf2");
    ASSERT_NE(vf, nullptr);
    EXPECT_EQ(vf->outcome, Outcome::not_applicable);
    EXPECT_NE(vf->message.find("pf1vf2 is a representor of the host PF/VF: QoS is set on the uplink p1, "
                               "judged there (devlink port pci/0000:03:00.1/262147 flavour pcivf;"),
              std::string::npos)
        << vf->message;
    // The SF representor is not in this devlink output: its driver (mlx5e_rep) and name tell.
    const Finding* sf = finding(r, rule, "en3f0pf0sf0");
    ASSERT_NE(sf, nullptr);
    EXPECT_EQ(sf->outcome, Outcome::not_applicable);
    EXPECT_NE(sf->message.find("en3f0pf0sf0 is a representor of a sub-function (SF): QoS is set on the "
                               "uplink p0, judged there (driver mlx5e_rep;"),
              std::string::npos)
        << sf->message;
  }
}

// The rules that are not port QoS (MTU, ECN enables, channels) do not judge a representor either:
// it stands for another function (a devlink-only netdev would otherwise be judged as a RoCE netdev
// of a capture without RDMA devices, and be unknown for every missing file).
TEST(BlueFieldArm, RepresentorsAreOutOfRoceScope) {
  Snapshot s = arm_capture();
  rules::Report r = rules::evaluate(s, default_policy(), {"net.mtu", "qos.ecn-roce-priority", "irq.channels-numa"});
  for (const char* rule : {"net.mtu", "qos.ecn-roce-priority", "irq.channels-numa"}) {
    SCOPED_TRACE(rule);
    const Finding* vf = finding(r, rule, "pf0vf0");
    ASSERT_NE(vf, nullptr);
    EXPECT_EQ(vf->outcome, Outcome::not_applicable);
    EXPECT_EQ(vf->message,
              "representor of the host PF/VF (devlink port pci/0000:03:00.0/196609 flavour pcivf): RoCE "
              "settings apply to the function it represents and to the uplink p0, not to the representor");
    const Finding* sf = finding(r, rule, "en3f0pf0sf0");
    ASSERT_NE(sf, nullptr);
    EXPECT_EQ(sf->outcome, Outcome::not_applicable);
    EXPECT_EQ(sf->message,
              "representor of a sub-function (SF) (driver mlx5e_rep): RoCE settings apply to the function it "
              "represents and to the uplink p0, not to the representor");
    const Finding* up = finding(r, rule, "p0");
    ASSERT_NE(up, nullptr);
    EXPECT_NE(up->outcome, Outcome::not_applicable) << up->message;  // the uplink is judged
  }
}

// The ECPF's eswitch in switchdev mode is in the snapshot and backs the Arm-side reason and the
// representors' evidence.
TEST(BlueFieldArm, EswitchModeConfirmsTheArmSide) {
  Snapshot s = arm_capture(true);
  const PciFunction* ecpf = s.find_pci("0000:03:00.0");
  ASSERT_NE(ecpf, nullptr);
  ASSERT_TRUE(ecpf->eswitch.has_value());
  EXPECT_EQ(ecpf->eswitch->mode, "switchdev");
  EXPECT_EQ(ecpf->eswitch->inline_mode, "none");
  EXPECT_EQ(ecpf->eswitch->encap_mode, "basic");
  EXPECT_FALSE(ecpf->eswitch->kernel_error.has_value());
  EXPECT_EQ(ecpf->eswitch->source.file, "devlink_dev_eswitch@0000:03:00.0.txt");
  EXPECT_EQ(ecpf->eswitch->source.line, 4u);
  EXPECT_EQ(ecpf->eswitch->source.text, "pci/0000:03:00.0: mode switchdev inline-mode none encap-mode basic");
  const std::string arm =
      "devlink port: uplink p0 (flavour physical) and host PF representor pf0hpf (flavour pcipf); "
      "devlink dev eswitch show pci/0000:03:00.0: mode switchdev";
  EXPECT_EQ(bluefield_arm_side(s), arm);
  rules::Report r = rules::evaluate(s, default_policy(), {"qos.pfc-roce-priority"});
  const Finding* hpf = finding(r, "qos.pfc-roce-priority", "pf0hpf");
  ASSERT_NE(hpf, nullptr);
  EXPECT_EQ(hpf->outcome, Outcome::not_applicable);
  EXPECT_EQ(hpf->message,
            "pf0hpf is a representor of the host PF/VF: QoS is set on the uplink p0, judged there (devlink "
            "port pci/0000:03:00.0/196608 flavour pcipf; devlink dev eswitch show pci/0000:03:00.0: mode "
            "switchdev; Arm side of a BlueField: " + arm + "; NVIDIA DOCA \"DPU Kernel Representors Model\")");
  // p1's function has no eswitch output: its representors keep the devlink port alone.
  const Finding* vf = finding(r, "qos.pfc-roce-priority", "pf1vf2");
  ASSERT_NE(vf, nullptr);
  EXPECT_NE(vf->message.find("(devlink port pci/0000:03:00.1/262147 flavour pcivf; Arm side"), std::string::npos)
      << vf->message;
  const Finding* up = finding(r, "qos.pfc-roce-priority", "p0");
  ASSERT_NE(up, nullptr);
  EXPECT_EQ(up->outcome, Outcome::pass) << up->message;

  // The eswitch is in the snapshot JSON and reads back.
  Result<Snapshot> back = snapshot_from_json(snapshot_to_json(s));
  ASSERT_TRUE(back.has_value());
  ASSERT_TRUE(back->find_pci("0000:03:00.0")->eswitch.has_value());
  EXPECT_EQ(back->find_pci("0000:03:00.0")->eswitch->mode, "switchdev");
  EXPECT_EQ(back->find_pci("0000:03:00.0")->eswitch->source.line, 4u);
}

// The Arm OS's own SF netdev (enp3s0f0s0: driver mlx5_core, bus-info mlx5_core.sf.2 in the real
// lshca issue 62 output) is not a RoCE data port: the port QoS rules skip it, naming it and the
// uplink that carries the port's QoS.
TEST(BlueFieldArm, ArmOsSubFunctionIsNotARoceDataPort) {
  Snapshot s = arm_capture();
  const NetDev* sf = s.find_netdev("enp3s0f0s0");
  ASSERT_NE(sf, nullptr);
  std::optional<ArmSubFunction> a = arm_sub_function(*sf);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->why, "ethtool -i bus-info mlx5_core.sf.2");
  EXPECT_EQ(a->uplink, "p0");
  EXPECT_FALSE(arm_sub_function(*s.find_netdev("p0")).has_value());
  EXPECT_FALSE(arm_sub_function(*s.find_netdev("en3f0pf0sf0")).has_value());  // its representor
  rules::Report r = rules::evaluate(s, default_policy(), {"qos"});
  for (const char* rule : {"qos.trust-dscp", "qos.roce-dscp-priority", "qos.pfc-roce-priority"}) {
    SCOPED_TRACE(rule);
    const Finding* f = finding(r, rule, "enp3s0f0s0");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->outcome, Outcome::not_applicable);
    EXPECT_EQ(f->message,
              "enp3s0f0s0 is a scalable function (SF) of the Arm OS, not a RoCE data port: the port's QoS is "
              "set on the uplink p0, judged there (ethtool -i bus-info mlx5_core.sf.2; Arm side of a "
              "BlueField: devlink port: uplink p0 (flavour physical) and host PF representor pf0hpf (flavour "
              "pcipf))");
  }
  // On a host the same netdev is not skipped by this reason: an SF there may be a RoCE port.
  EXPECT_EQ(rules::port_qos_elsewhere(s, *sf, std::nullopt), std::nullopt);
}

// The Arm OS SF's own devlink port is on its auxiliary devlink instance, flavour virtual.
// Constructed, not a real output: an SF port's `function:` names that instance (`nested_devlink
// auxiliary/mlx5_core.sf.2` in the iproute2 patch set printing nested devlink handles, Jiri Pirko,
// netdev list, 2023), and mlx5 registers a non-PF function's netdev port as
// DEVLINK_PORT_FLAVOUR_VIRTUAL (linux drivers/net/ethernet/mellanox/mlx5/core/en/devlink.c
// mlx5e_devlink_port_register).
TEST(BlueFieldArm, ArmOsSubFunctionByItsDevlinkPort) {
  NetDev n;
  n.name = "enp3s0f1s0";
  n.devlink_port = DevlinkPortInfo{};
  n.devlink_port->handle = "auxiliary/mlx5_core.sf.3/196608";
  n.devlink_port->flavour = "virtual";
  std::optional<ArmSubFunction> a = arm_sub_function(n);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->why, "devlink port auxiliary/mlx5_core.sf.3/196608 flavour virtual");
  EXPECT_EQ(a->uplink, "p1");
}

// `rocekit check`'s report says it read the Arm side before the findings, not only in --detail.
TEST(BlueFieldArm, CheckReportSaysItIsTheArmSide) {
  Snapshot s = arm_capture();
  rules::Report r = rules::evaluate(s, default_policy());
  const std::string text = render::report_text(s, r, {});
  const std::string arm = *bluefield_arm_side(s);
  EXPECT_TRUE(arm.starts_with("devlink port: uplink p0 (flavour physical) and host PF representor pf0hpf (flavour pcipf)"))
      << arm;
  EXPECT_NE(text.find("\nArm side of a BlueField: " + arm + "; the port QoS rules judge the uplinks, not the representors\n"),
            std::string::npos)
      << text;
  EXPECT_LT(text.find(arm), text.find("per-subject detail"));
  EXPECT_EQ(text.find("BlueField in DPU mode"), std::string::npos);
}

}  // namespace
}  // namespace rk::capture

// `rocekit fleet` pairs a host whose BlueField is in DPU mode with the card's Arm-side input
// (issue 22). The host: a real BlueField-2 `mstconfig -e q` in DPU mode (mstflint issue 830); the
// Arm side: a real `devlink port show` of a BlueField's Arm (openstack/nova-specs) with the real
// `ethtool -i p0` of a BlueField-2 Arm (lshca issue 62). No public capture shows both sides of one
// card, so the board serial the two share is set here (MT2306X00001 is not a real serial).
#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/fleet/fleet.hpp"

namespace rk::fleet {
namespace {

capture::CaptureFile corpus(const std::string& name, const std::string& rel) {
  return {name, test::read_file(test::testdata_dir() / "corpus" / rel), ""};
}

Snapshot dpu_host(const std::string& serial) {
  capture::CaptureSet set;
  set.files.push_back(corpus("mlxconfig_q@0000:ca:00.0.txt", "mlxconfig/mstflint-issue830-bf2-mbf2h512c-e-q-dpu-mode.txt"));
  Snapshot s = capture::snapshot_from_capture(set);
  s.hostname = "host-a";
  s.pci("0000:ca:00.0").board_serial_number = serial;
  return s;
}

Snapshot arm_side(const std::string& serial) {
  capture::CaptureSet set;
  set.files.push_back(
      corpus("devlink_port.txt", "devlink_port/novaspecs-bf-arm-devlink-port-show-p0-pf0hpf-pf0vf0-3-no-controller.txt"));
  set.files.push_back({"ethtool_i@p0.txt", "driver: mlx5_core\nbus-info: 0000:03:00.0\n", ""});  // lshca 62, p0
  Snapshot s = capture::snapshot_from_capture(set);
  s.hostname = "dpu-a";
  s.pci("0000:03:00.0").board_serial_number = serial;
  return s;
}

TEST(FleetDpu, HostAndItsArmSideArePaired) {
  std::vector<HostSummary> hosts{summarize_host(dpu_host("MT2306X00001"), "host-a.json", default_policy()),
                                 summarize_host(arm_side("MT2306X00001"), "dpu-a.json", default_policy())};
  EXPECT_EQ(hosts[1].bluefield_arm,
            "devlink port: uplink p0 (flavour physical) and host PF representor pf0hpf (flavour pcipf)");
  ASSERT_EQ(hosts[0].dpu_ports.size(), 1u);
  EXPECT_EQ(hosts[0].dpu_ports[0].physical_id, "board serial MT2306X00001");
  std::vector<DpuPairing> d = pair_dpus(hosts);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].host, "host-a");
  EXPECT_EQ(d[0].arm_host, "dpu-a");
  EXPECT_EQ(d[0].message,
            "host-a 0000:ca:00.0: BlueField in DPU mode, DPU MT2306X00001 (board serial): port QoS audited on its "
            "Arm side, input dpu-a (devlink port: uplink p0 (flavour physical) and host PF representor pf0hpf "
            "(flavour pcipf))");
  // One card seen from its two sides is not a Multi-Host NIC (the same board serial on two
  // inputs): only the DPU pairing joins them.
  CrossHost c = compare_hosts(hosts);
  EXPECT_TRUE(c.multi_host.empty());
  for (const Consistency& k : c.checks) EXPECT_NE(k.rule, "fleet.multi-host-qos-identical") << k.message;
}

// The host's view of a DPU-mode card's port QoS is not compared across hosts (the host rules
// judge it not_applicable too): it is unknown with the reason, so it makes no outlier.
TEST(FleetDpu, DpuModePortQosIsNotCompared) {
  capture::CaptureSet set;
  set.files.push_back(corpus("mlxconfig_q@0000:ca:00.0.txt", "mlxconfig/mstflint-issue830-bf2-mbf2h512c-e-q-dpu-mode.txt"));
  set.files.push_back({"ethtool_i@ens1f0np0.txt", "driver: mlx5_core\nbus-info: 0000:ca:00.0\n", ""});
  set.files.push_back(corpus("mlnx_qos@ens1f0np0.txt", "mlnx_qos/netarbiter-eth4-dscp-pfc3.txt"));
  HostSummary h = summarize_host(capture::snapshot_from_capture(set), "host-a", default_policy());
  const NicRecord* nic = nullptr;
  for (const NicRecord& n : h.nics)
    if (n.subject == "ens1f0np0") nic = &n;
  ASSERT_NE(nic, nullptr);
  for (const char* k : {"trust", "pfc", "dscp_map", "ecn"}) {
    EXPECT_EQ(nic->values.count(k), 0u) << k;
    ASSERT_EQ(nic->unknown.count(k), 1u) << k;
    EXPECT_NE(nic->unknown.at(k).find("BlueField 0000:ca:00.0 is in DPU mode"), std::string::npos) << nic->unknown.at(k);
  }
}

TEST(FleetDpu, NoArmSideInputMeansQosNotAudited) {
  std::vector<HostSummary> hosts{summarize_host(dpu_host("MT2306X00001"), "host-a.json", default_policy()),
                                 summarize_host(arm_side("MT2306X00002"), "dpu-b.json", default_policy())};
  std::vector<DpuPairing> d = pair_dpus(hosts);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].arm_host, "");
  EXPECT_NE(d[0].message.find("host-a 0000:ca:00.0: BlueField in DPU mode: port QoS not audited: no Arm-side "
                              "capture of DPU MT2306X00001 (board serial) among the inputs"),
            std::string::npos)
      << d[0].message;
  // A placeholder serial pairs with nothing, not even an Arm side with the same placeholder.
  std::vector<HostSummary> blank{summarize_host(dpu_host("MT0000X00000"), "host-a.json", default_policy()),
                                 summarize_host(arm_side("MT0000X00000"), "dpu-a.json", default_policy())};
  std::vector<DpuPairing> b = pair_dpus(blank);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].arm_host, "");
  EXPECT_NE(b[0].message.find("neither a board serial nor a system image GUID"), std::string::npos) << b[0].message;
}

}  // namespace
}  // namespace rk::fleet

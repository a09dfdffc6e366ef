// `rocekit plan -f nccl`: the DGX H100 fixture tree (8 rails of 12 RDMA devices) and a hand-built
// host with an IPv6 and an IPv4 RoCE v2 GID per port.
#include "rocekit/plan/nccl.hpp"
#include "rocekit/plan/plan.hpp"

#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/collect/collect.hpp"
#include "rocekit/collect/host_view.hpp"

namespace rk::plan {
namespace {

const NcclSetting& setting(const NcclConf& c, const std::string& name) {
  for (const NcclSetting& x : c.settings)
    if (x.name == name) return x;
  static const NcclSetting none{};
  ADD_FAILURE() << name << " not in the generated settings";
  return none;
}

TEST(NcclConf, DgxFixtureGetsItsEightRailsAndTheToSOfDscp26) {
  collect::NoToolsRunner runner("vendor tools not requested");
  collect::CollectRequest req;
  Snapshot s = collect::collect_snapshot(req, collect::HostView(test::testdata_dir() / "sysroots" / "dgx-h100-8gpu-8nic"), runner);
  NcclConf c = make_nccl_conf(s, default_policy());
  // The NIC of each GPU's data path: DGX H100's compute NICs; the 2 dual-port storage cards
  // (mlx5_1, mlx5_2, mlx5_7, mlx5_8) are left out.
  EXPECT_EQ(setting(c, "NCCL_IB_HCA").value, "=mlx5_0,mlx5_10,mlx5_11,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_9");
  EXPECT_NE(setting(c, "NCCL_IB_HCA").why.find("the NIC closest to each of the 8 GPUs"), std::string::npos);
  EXPECT_NE(setting(c, "NCCL_IB_HCA").why.find("mlx5_1 (no GPU's data path uses it)"), std::string::npos);
  EXPECT_EQ(setting(c, "NCCL_IB_TC").value, "106");
  EXPECT_EQ(setting(c, "NCCL_IB_TC").why, "ToS 106 (DSCP 26, ECN bits 10 ECT(0)): the policy's RoCE DSCP");
  std::string conf = render_nccl_conf(c);
  EXPECT_NE(conf.find("\nNCCL_IB_HCA==mlx5_0,mlx5_10,mlx5_11,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_9\n"), std::string::npos) << conf;
  EXPECT_NE(conf.find("\nNCCL_IB_TC=106\n"), std::string::npos);
  EXPECT_EQ(conf.find("export"), std::string::npos);  // NCCL would read "export NCCL_IB_TC" as another name
  std::string env = render_nccl_env(c);
  EXPECT_NE(env.find("\nexport NCCL_IB_TC=106\n"), std::string::npos) << env;
}

Snapshot two_v2_gids_per_port() {
  Snapshot s;
  for (int i = 0; i < 2; ++i) {
    RdmaDevice& d = s.rdma("mlx5_" + std::to_string(i));
    RdmaPort p;
    p.port = 1;
    p.state.value = PortState::active;
    p.link_layer = LinkLayer::ethernet;
    p.netdev = "eth" + std::to_string(i);
    std::string v4 = i == 0 ? "0000:0000:0000:0000:0000:ffff:c000:020a" : "0000:0000:0000:0000:0000:ffff:c000:020b";
    p.gids.value = std::vector<Gid>{
        {0, "fe80:0000:0000:0000:0ac0:ebff:fe40:8df2", std::nullopt, GidType::roce_v1, p.netdev},
        {1, "fe80:0000:0000:0000:0ac0:ebff:fe40:8df2", std::nullopt, GidType::roce_v2, p.netdev},
        {2, "2001:0db8:0000:0000:0000:0000:0000:000" + std::to_string(i + 1), std::nullopt, GidType::roce_v1, p.netdev},
        {3, "2001:0db8:0000:0000:0000:0000:0000:000" + std::to_string(i + 1), std::nullopt, GidType::roce_v2, p.netdev},
        {4, v4, "192.0.2." + std::to_string(10 + i), GidType::roce_v1, p.netdev},
        {5, v4, "192.0.2." + std::to_string(10 + i), GidType::roce_v2, p.netdev}};
    d.ports.push_back(p);
  }
  return s;
}

TEST(NcclConf, TwoRoceV2GidsPerPortPicksTheRoutableIpv4One) {
  Snapshot s = two_v2_gids_per_port();
  NcclConf c = make_nccl_conf(s, default_policy());
  EXPECT_EQ(setting(c, "NCCL_IB_GID_INDEX").value, "5");  // not 3, the IPv6 RoCE v2 GID
  EXPECT_EQ(setting(c, "NCCL_IB_HCA").value, "=mlx5_0,mlx5_1");
  // A rail whose IPv4 GID sits at another index: one NCCL_IB_GID_INDEX cannot serve both.
  (*s.rdma("mlx5_1").ports[0].gids.value)[5].index = 7;
  NcclConf differ = make_nccl_conf(s, default_policy());
  EXPECT_EQ(setting(differ, "NCCL_IB_GID_INDEX").value, "");
  EXPECT_NE(setting(differ, "NCCL_IB_GID_INDEX").why.find("5 on mlx5_0; 7 on mlx5_1"), std::string::npos)
      << setting(differ, "NCCL_IB_GID_INDEX").why;
  // No GID table: left out, with the reason.
  s.rdma("mlx5_0").ports[0].gids.set_missing("not captured", ReasonKind::not_captured);
  EXPECT_EQ(setting(make_nccl_conf(s, default_policy()), "NCCL_IB_GID_INDEX").why,
            "left out: the GID table of mlx5_0 is not in the snapshot (show_gids)");
}

TEST(NcclConf, GlobalTrafficClassThatDiffersIsNamed) {
  Snapshot s = two_v2_gids_per_port();
  s.rdma("mlx5_0").ports[0].global_traffic_class.value = 160;
  NcclConf c = make_nccl_conf(s, default_policy());
  EXPECT_EQ(setting(c, "NCCL_IB_TC").value, "106");
  EXPECT_NE(setting(c, "NCCL_IB_TC").why.find("the global traffic_class of mlx5_0/1 (160) replaces it"), std::string::npos);
}

}  // namespace
}  // namespace rk::plan

namespace rk::plan {
namespace {

// app.roce-tos steps: the global traffic_class and rdma_cm's default_roce_tos of a port whose
// netdev is in scope are written to the policy's ToS and read back from the same file.
TEST(PlanTos, GlobalTrafficClassAndDefaultRoceTosAreWrittenAndReadBack) {
  Snapshot s;
  NetDev& n = s.netdev("eth0");
  n.rdma_device = "mlx5_0";
  n.rdma_port = 1;
  RdmaPort p;
  p.port = 1;
  p.state.value = PortState::active;
  p.link_layer = LinkLayer::ethernet;
  p.netdev = "eth0";
  p.global_traffic_class.value = 160;
  p.default_roce_tos.value = 0;
  s.rdma("mlx5_0").ports.push_back(p);
  Plan plan = make_plan(s, default_policy(), {});
  std::vector<const Action*> tos;
  for (const Action& a : plan.actions)
    if (a.rule == "app.roce-tos") tos.push_back(&a);
  // The global class replaces rdma_cm's default too: one step, on the traffic_class.
  ASSERT_EQ(tos.size(), 1u);
  EXPECT_EQ(tos[0]->kind, ActionKind::traffic_class);
  EXPECT_EQ(tos[0]->subject, "eth0");
  EXPECT_EQ(tos[0]->write_path, "/sys/class/infiniband/mlx5_0/tc/1/traffic_class");
  EXPECT_EQ(tos[0]->write_value, "106");
  EXPECT_EQ(tos[0]->check_regex, std::vector<std::string>{"^Global tclass=106$"});
  EXPECT_EQ(tos[0]->undo_write_value, "160");
  EXPECT_EQ(tos[0]->disruption, Disruption::none);
  for (const Unplanned& u : plan.unplanned) EXPECT_NE(u.subject, "mlx5_0/1") << u.rule << ": " << u.reason;
  // Without a global class (inbox driver), rdma_cm's default_roce_tos 0 is the step.
  s.rdma("mlx5_0").ports[0].global_traffic_class.set_missing("not present", ReasonKind::not_applicable);
  Plan cm = make_plan(s, default_policy(), {});
  tos.clear();
  for (const Action& a : cm.actions)
    if (a.rule == "app.roce-tos") tos.push_back(&a);
  ASSERT_EQ(tos.size(), 1u);
  EXPECT_EQ(tos[0]->kind, ActionKind::roce_tos);
  EXPECT_EQ(tos[0]->write_path, "/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos");
  EXPECT_EQ(tos[0]->check_regex, std::vector<std::string>{"^106$"});
  EXPECT_EQ(tos[0]->undo_write_value, "0");
  for (const Unplanned& u : cm.unplanned) EXPECT_NE(u.subject, "rdma_cm mlx5_0/1") << u.reason;
  // A port already at the policy's ToS gets no step.
  s.rdma("mlx5_0").ports[0].global_traffic_class.value = 106;
  s.rdma("mlx5_0").ports[0].default_roce_tos.value = 106;
  for (const Action& a : make_plan(s, default_policy(), {}).actions) EXPECT_NE(a.rule, "app.roce-tos");
}

}  // namespace
}  // namespace rk::plan

// Plan scope (issue 14 item 2): only netdevs backed by an Ethernet RDMA port (or named with
// --netdev / a compute role), never a management-role netdev, never the interface of the
// default route or the ssh session unless named. Fixture trees under testdata/sysroots plus
// a virtio-only root built here (the layout of this project's CI VM: eth0 on virtio_net).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "golden.hpp"
#include "rocekit/collect/collect.hpp"
#include "rocekit/plan/host_guard.hpp"
#include "rocekit/plan/plan.hpp"
#include "rocekit/policy/scope.hpp"

namespace rk::plan {
namespace {

namespace fs = std::filesystem;

Snapshot collect_root(const fs::path& root) {
  collect::NoToolsRunner runner("vendor tools not requested");
  collect::CollectRequest req;
  return collect::collect_snapshot(req, collect::HostView(root), runner);
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

struct ScopeTest : ::testing::Test {
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() / ("rk_scope_test_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  /// A host like a cloud VM: eth0 on virtio_net (PCI 0000:00:03.0), MTU 1500, no RDMA device,
  /// the default route on eth0.
  fs::path virtio_root() {
    fs::path r = dir / "vm";
    fs::path dev = r / "sys/devices/pci0000:00/0000:00:03.0";
    write(dev / "virtio0/net/eth0/mtu", "1500\n");
    write(dev / "virtio0/net/eth0/operstate", "up\n");
    write(r / "sys/bus/virtio/drivers/virtio_net/.keep", "");
    fs::create_directory_symlink("../../../../bus/virtio/drivers/virtio_net", dev / "virtio0/driver");
    fs::create_directory_symlink("../..", dev / "virtio0/net/eth0/device");  // -> virtio0
    fs::create_directories(r / "sys/class/net");
    fs::create_directory_symlink("../../devices/pci0000:00/0000:00:03.0/virtio0/net/eth0", r / "sys/class/net/eth0");
    write(r / "proc/sys/kernel/hostname", "vm-1\n");
    write(r / "proc/net/route",
          "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
          "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
          "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n");
    return r;
  }
};

TEST_F(ScopeTest, AMachineWithoutRdmaDevicesPlansNothing) {
  fs::path root = virtio_root();
  Snapshot s = collect_root(root);
  ASSERT_NE(s.find_netdev("eth0"), nullptr);
  ASSERT_TRUE(s.find_netdev("eth0")->mtu_bytes.has_value());
  EXPECT_EQ(*s.find_netdev("eth0")->mtu_bytes, 1500);
  PlanOptions o;
  o.protected_netdevs = live_protected_netdevs(root, "", o.protected_unchecked);
  EXPECT_EQ(o.protected_netdevs.at("eth0"), "carries the default route (/proc/net/route)");
  Plan p = make_plan(s, default_policy(), o);
  EXPECT_TRUE(p.actions.empty()) << render_sh(p);
  ASSERT_EQ(p.unplanned.size(), 1u);
  EXPECT_EQ(p.unplanned[0].rule, "scope");
  EXPECT_TRUE(p.unplanned[0].reason.starts_with("not changed: not backed by an RDMA port (driver virtio_net)"))
      << p.unplanned[0].reason;
}

TEST_F(ScopeTest, TheDefaultRouteInterfaceIsChangedOnlyWhenNamed) {
  fs::path root = virtio_root();
  Snapshot s = collect_root(root);
  PlanOptions o;
  o.protected_netdevs = live_protected_netdevs(root, "", o.protected_unchecked);
  Policy pol = default_policy();
  pol.interfaces.push_back({InterfaceRole::compute, {"eth*"}, {}, {}});
  Plan p = make_plan(s, pol, o);  // a compute role is not a name: the default route still wins
  EXPECT_TRUE(p.actions.empty());
  std::string lines;
  for (const Unplanned& u : p.unplanned) lines += u.rule + " " + u.subject + ": " + u.reason + "\n";
  ASSERT_EQ(p.unplanned.size(), 1u) << lines;
  EXPECT_EQ(p.unplanned[0].reason,
            "not changed: carries the default route (/proc/net/route); name it with --netdev to plan "
            "changes for it");
  pol.named_netdevs = {"eth0"};
  p = make_plan(s, pol, o);
  ASSERT_EQ(p.actions.size(), 1u);
  EXPECT_EQ(p.actions[0].kind, ActionKind::mtu);
}

TEST_F(ScopeTest, TheSshSessionInterfaceIsProtected) {
  fs::path r = dir / "routes";
  write(r / "proc/net/route",
        "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        "ens1\t00000000\t0100000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
        "eno1\t0000A8C0\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n");
  std::string unchecked;
  std::map<std::string, std::string> p = live_protected_netdevs(r, "192.168.4.20 52000 192.168.0.5 22", unchecked);
  EXPECT_EQ(p.at("ens1"), "carries the default route (/proc/net/route)");
  EXPECT_EQ(p.at("eno1"), "carries this ssh session (to 192.168.4.20)");
  EXPECT_TRUE(unchecked.empty());
  std::map<std::string, std::string> none = live_protected_netdevs(dir / "nothing", "", unchecked);
  EXPECT_TRUE(none.empty());
  EXPECT_NE(unchecked.find("could not be checked"), std::string::npos);
}

TEST_F(ScopeTest, DgxFixturePlansOnlyForRdmaNetdevsAndNeverForManagement) {
  Snapshot s = collect_root(rk::test::testdata_dir() / "sysroots" / "dgx-h100-8gpu-8nic");
  // A non-RDMA onboard NIC beside the twelve ConnectX-7 ports.
  NetDev eno;
  eno.name = "eno1";
  eno.mtu_bytes.value = 1500;
  eno.driver.value = DriverInfo{"igb", std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  s.netdevs.push_back(eno);
  Policy pol = default_policy();
  pol.interfaces.push_back({InterfaceRole::management, {}, {}, {"mlx5_9"}});
  Plan p = make_plan(s, pol, {});
  const NetDev* mgmt = nullptr;
  for (const NetDev& n : s.netdevs)
    if (n.rdma_device && *n.rdma_device == "mlx5_9") mgmt = &n;
  ASSERT_NE(mgmt, nullptr);
  for (const Action& a : p.actions) {
    EXPECT_NE(a.subject, "eno1");
    EXPECT_NE(a.subject, mgmt->name);
    if (a.kind == ActionKind::nv_config || a.kind == ActionKind::max_read_request) continue;
    const NetDev* n = s.find_netdev(a.subject);
    ASSERT_NE(n, nullptr) << a.subject;
    EXPECT_TRUE(n->rdma_device.has_value()) << a.subject;
  }
  auto reason = [&](const std::string& subject) {
    for (const Unplanned& u : p.unplanned)
      if (u.rule == "scope" && u.subject == subject) return u.reason;
    return std::string();
  };
  EXPECT_TRUE(reason("eno1").starts_with("not changed: not backed by an RDMA port (driver igb)")) << reason("eno1");
  EXPECT_EQ(reason(mgmt->name), "not changed: policy interface role management: never judged or changed");
  NetdevScope sc = roce_netdev_scope(s, *s.find_netdev("enp24s0np0"), pol);
  EXPECT_TRUE(sc.roce);
  EXPECT_EQ(sc.why.substr(0, 12), "RDMA device ");
}

}  // namespace
}  // namespace rk::plan

// persist.runtime-settings end to end: the `persistence` capture listing (parser, capture
// assembly), the /etc reader of the live collector, and the rule on the real netarbiter
// bundle (trust dscp + PFC 3 set with mlnx_qos: runtime settings that a reboot resets).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "golden.hpp"
#include "rocekit/collect/persistence.hpp"
#include "rocekit/parse/persistence.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/plan/plan.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("rk_persist_" + std::to_string(::getpid()) + "_" + name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
};

const std::string k_listing_header =
    "# source: rocekit-capture 0.1 on host at 2026-11-30T07:00:00Z: sh rocekit-capture --list-persistence\n"
    "# notes: exit status 0\n# ---\n";
const std::string k_checked =
    "checked /etc/systemd/system\nchecked /etc/udev/rules.d\nchecked /etc/rc.local\n"
    "checked /etc/network/if-up.d\nchecked /etc/NetworkManager/dispatcher.d\n";

/// The persist.runtime-settings finding for a snapshot.
Finding persistence_finding(const Snapshot& s) {
  rules::Report r = rules::evaluate(s, default_policy(), {"persist.runtime-settings"});
  EXPECT_EQ(r.findings.size(), 1u);
  return r.findings.empty() ? Finding{} : r.findings[0];
}

/// The netarbiter bundle copied to a temp dir, plus a persistence.txt with `body`.
Snapshot netarbiter_with(const TempDir& d, const std::optional<std::string>& body) {
  fs::copy(test::testdata_dir() / "hosts" / "netarbiter-eth4-qos-healthy", d.path / "cap",
           fs::copy_options::recursive);
  if (body) d.write("cap/persistence.txt", k_listing_header + *body);
  Result<Snapshot> s = load_input(d.path / "cap");
  EXPECT_TRUE(s.has_value());
  return s ? *s : Snapshot{};
}

TEST(PersistenceListing, ParsesEveryKindAndSkipsJunk) {
  auto r = parse::parse_persistence(k_checked +
                                    "unit /etc/systemd/system/rocekit-roce.service\n"
                                    "enabled /etc/systemd/system/multi-user.target.wants/rocekit-roce.service\n"
                                    "udev /etc/udev/rules.d/90-rocekit-roce.rules\n"
                                    "other /etc/rc.local: mlnx_qos,setpci\n"
                                    "bogus line\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.units, (std::vector<std::string>{"/etc/systemd/system/rocekit-roce.service"}));
  EXPECT_EQ(r->value.enabled_links.size(), 1u);
  EXPECT_EQ(r->value.udev_rules, (std::vector<std::string>{"/etc/udev/rules.d/90-rocekit-roce.rules"}));
  EXPECT_EQ(r->value.other_scripts, (std::vector<std::string>{"/etc/rc.local: mlnx_qos,setpci"}));
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].line, 10u);
  EXPECT_EQ(r->warnings[0].code, "unrecognised_line");
  EXPECT_TRUE(parse::looks_like_persistence(k_checked));
  EXPECT_FALSE(parse::looks_like_persistence("Priority trust state: dscp\n"));
}

TEST(PersistenceRule, NetarbiterWithoutListingIsUnknownWithTheReason) {
  TempDir d("nolist");
  Finding f = persistence_finding(netarbiter_with(d, std::nullopt));
  EXPECT_EQ(f.outcome, Outcome::unknown);
  EXPECT_EQ(f.message,
            "runtime settings in place (eth4: trust dscp; eth4: PFC on priority 3) but the "
            "boot-time mechanisms were not collected: not captured (no rocekit-capture "
            "--list-persistence output in the capture)");
}

TEST(PersistenceRule, NetarbiterWithNothingAtBootFails) {
  TempDir d("none");
  Finding f = persistence_finding(netarbiter_with(d, k_checked));
  EXPECT_EQ(f.outcome, Outcome::fail);
  EXPECT_EQ(f.severity, Severity::warning);
  EXPECT_NE(f.message.find("runtime settings lost at reboot, nothing re-applies them"), std::string::npos);
  EXPECT_EQ(f.remediation.scope, FixScope::persistent);
  EXPECT_EQ(f.remediation.commands.front(), "rocekit plan live -f systemd -o /tmp/rocekit-boot");
  ASSERT_FALSE(f.evidence.empty());
  EXPECT_EQ(f.evidence[0].file, "mlnx_qos@eth4.txt");
}

TEST(PersistenceRule, UnitPresentButNotEnabledFails) {
  TempDir d("disabled");
  Finding f = persistence_finding(
      netarbiter_with(d, k_checked + "unit /etc/systemd/system/rocekit-roce.service\n"));
  EXPECT_EQ(f.outcome, Outcome::fail);
  EXPECT_EQ(f.message.rfind("/etc/systemd/system/rocekit-roce.service present but not enabled", 0), 0u)
      << f.message;
  EXPECT_EQ(f.remediation.commands, (std::vector<std::string>{"systemctl enable rocekit-roce.service"}));
}

TEST(PersistenceRule, EnabledUnitPasses) {
  TempDir d("enabled");
  Finding f = persistence_finding(netarbiter_with(
      d, k_checked + "unit /etc/systemd/system/rocekit-roce.service\n"
                     "enabled /etc/systemd/system/multi-user.target.wants/rocekit-roce.service\n"
                     "udev /etc/udev/rules.d/90-rocekit-roce.rules\n"));
  EXPECT_EQ(f.outcome, Outcome::pass);
  EXPECT_EQ(f.message,
            "runtime settings (eth4: trust dscp; eth4: PFC on priority 3) re-applied at boot by "
            "enabled /etc/systemd/system/rocekit-roce.service; udev rule "
            "/etc/udev/rules.d/90-rocekit-roce.rules");
}

TEST(PersistenceRule, FactoryQosHasNothingToPersist) {
  // roce-server: ens6 has trust pcp, PFC off, default dscp2prio (the reboot state already), but
  // the other Ethernet netdevs have no mlnx_qos output: unknown, naming them, never n/a.
  Result<Snapshot> s = load_input(test::testdata_dir() / "hosts" / "roce-server-8dev-trust-pcp-pfc-off");
  ASSERT_TRUE(s.has_value());
  Finding f = persistence_finding(*s);
  EXPECT_EQ(f.outcome, Outcome::unknown);
  EXPECT_NE(f.message.find("ens4f1: not captured (no mlnx_qos -i ens4f1 output"), std::string::npos) << f.message;
  EXPECT_EQ(f.message.find("ens6:"), std::string::npos) << f.message;
  // With only the netdevs whose QoS was captured: nothing differs from the defaults.
  std::erase_if(s->netdevs, [](const NetDev& n) { return !n.qos.has_value(); });
  EXPECT_EQ(persistence_finding(*s).outcome, Outcome::not_applicable);
}

TEST(PersistenceRule, EthernetRdmaPortsWithoutNetdevsAreUnknown) {
  // tf-gdr: ibv_devinfo shows link_layer Ethernet on mlx4_0 ports 1 and 2; no netdev captured.
  Result<Snapshot> s = load_input(test::testdata_dir() / "hosts" / "tf-gdr-k40-cx3-cross-socket");
  ASSERT_TRUE(s.has_value());
  Finding f = persistence_finding(*s);
  EXPECT_EQ(f.outcome, Outcome::unknown);
  EXPECT_NE(f.message.find("RDMA ports on Ethernet (mlx4_0/1, mlx4_0/2)"), std::string::npos) << f.message;
}

TEST(PersistenceCollect, ReadsTheGeneratedUnitAndOtherBootScripts) {
  // /etc as `rocekit plan -f systemd` + `systemctl enable` leave it, plus an rc.local with the
  // netarbiter setup commands (att/netarbiter setup-nic-lossless-layer3.sh).
  Result<Snapshot> s = load_input(test::testdata_dir() / "hosts" / "roce-server-8dev-trust-pcp-pfc-off");
  ASSERT_TRUE(s.has_value());
  plan::PlanOptions o;
  o.all_runtime = true;
  TempDir d("etc");
  for (const plan::GeneratedFile& f : plan::render_systemd(plan::make_plan(*s, default_policy(), o)))
    d.write(f.install_path.substr(1), f.content);
  fs::create_directories(d.path / "etc/systemd/system/multi-user.target.wants");
  fs::create_symlink("../rocekit-roce.service",
                     d.path / "etc/systemd/system/multi-user.target.wants/rocekit-roce.service");
  d.write("etc/rc.local", "#!/bin/sh\nmlnx_qos -i eth4 --trust dscp\nmlnx_qos -i eth4 --pfc 0,0,0,1,0,0,0,0\n");
  d.write("etc/systemd/system/ssh.service", "[Service]\nExecStart=/usr/sbin/sshd -D\n");
  Collected<PersistenceState> p = collect::read_persistence(collect::HostView(d.path));
  ASSERT_TRUE(p.has_value()) << p.reason;
  EXPECT_EQ(p->units, (std::vector<std::string>{"/etc/systemd/system/rocekit-roce.service"}));
  EXPECT_EQ(p->enabled_links,
            (std::vector<std::string>{"/etc/systemd/system/multi-user.target.wants/rocekit-roce.service"}));
  EXPECT_EQ(p->udev_rules, (std::vector<std::string>{"/etc/udev/rules.d/90-rocekit-roce.rules"}));
  EXPECT_EQ(p->other_scripts, (std::vector<std::string>{"/etc/rc.local: mlnx_qos"}));
  EXPECT_EQ(collect::persistence_tools_in("dcb pfc set dev eth0 prio-pfc 3:on\nsetpci -s 01:00.0 x\n"
                                          "echo 1 > /sys/class/net/eth0/ecn/roce_np/enable/3\n"),
            "dcb,setpci,ecn");
}

TEST(PersistenceCollect, AFixtureTreeWithoutEtcIsNotCollected) {
  Collected<PersistenceState> p =
      collect::read_persistence(collect::HostView(test::testdata_dir() / "sysroots" / "cx4lx-4port"));
  EXPECT_FALSE(p.has_value());
  EXPECT_EQ(p.reason.rfind("no /etc under ", 0), 0u) << p.reason;
}

}  // namespace
}  // namespace rk

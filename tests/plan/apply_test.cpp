// rocekit apply through a fake StepRunner: dry run writes nothing, state file + rollback restore
// every touched value, the lock refuses a second run, the first failure stops the run.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "golden.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/plan/apply.hpp"

namespace rk::plan {
namespace {

/// A host of MTUs and sysfs files: `ip link set dev X mtu N` / `ip -o link show dev X`.
class FakeHost : public StepRunner {
 public:
  std::map<std::string, std::string> mtu;
  std::map<std::string, std::string> files;
  std::vector<std::string> ran;
  bool ignore_writes = false;  ///< a NIC that accepts the command but keeps its value

  Result<std::string> run(const std::vector<std::string>& a) override {
    std::string line;
    for (const std::string& w : a) line += (line.empty() ? "" : " ") + w;
    ran.push_back(line);
    if (a.size() == 7 && a[0] == "ip" && a[1] == "link" && a[2] == "set") {
      if (!ignore_writes) mtu[a[4]] = a[6];
      return std::string();
    }
    if (a.size() == 6 && a[0] == "ip" && a[1] == "-o")
      return "2: " + a[5] + ": <UP> mtu " + mtu[a[5]] + " qdisc mq state UP\n";
    return unexpected(ErrorKind::not_found, a[0] + ": not installed");
  }
  Result<bool> write_file(const std::string& p, const std::string& v) override {
    ran.push_back("write " + v + " > " + p);
    files[p] = v;
    return true;
  }
  Result<std::string> read_file(const std::string& p) override { return files[p] + "\n"; }
};

struct ApplyTest : ::testing::Test {
  std::filesystem::path dir;
  ApplyOptions opts;
  Plan plan;
  FakeHost host;
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("rk_apply_test_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    opts.state_file = dir / "var" / "state.json";  // parent created by apply
    opts.lock_file = dir / "rocekit.lock";
    opts.allow_disruption = true;  // the MTU steps restart queues; refusal: DisruptionTest
    Result<Snapshot> s = load_input(rk::test::testdata_dir() / "hosts" / "aerial-21-4-a100-cx6dx");
    ASSERT_TRUE(s.has_value());
    NetDev& n = s->netdev("ens6f0");
    n.ecn.value = EcnState{{{3, false}}, {{3, true}}};
    plan = make_plan(*s, default_policy());
    host.mtu = {{"ens6f0", "1536"}, {"ens6f1", "1514"}};
    host.files["/sys/class/net/ens6f0/ecn/roce_rp/enable/3"] = "0";
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
};

TEST_F(ApplyTest, PlanIsEcnThenTwoMtuSteps) {
  ASSERT_EQ(plan.actions.size(), 3u);
  EXPECT_EQ(plan.actions[0].kind, ActionKind::ecn);
  EXPECT_EQ(plan.actions[1].undo_argv, (std::vector<std::string>{"ip", "link", "set", "dev", "ens6f0", "mtu", "1536"}));
}

TEST_F(ApplyTest, DryRunRunsAndWritesNothing) {
  opts.dry_run = true;
  Result<ApplyReport> r = apply_plan(plan, opts, host);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(host.ran.empty());
  EXPECT_FALSE(std::filesystem::exists(opts.state_file));
  EXPECT_FALSE(std::filesystem::exists(opts.lock_file));
  EXPECT_EQ(r->steps_done, 0);
  EXPECT_EQ(r->log.front(), "DRY RUN: nothing is changed");
}

TEST_F(ApplyTest, ApplyThenRollbackRestoresEveryTouchedValue) {
  Result<ApplyReport> r = apply_plan(plan, opts, host);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->ok) << r->error;
  EXPECT_EQ(r->steps_done, 3);
  EXPECT_EQ(host.mtu["ens6f0"], "4200");
  EXPECT_EQ(host.mtu["ens6f1"], "4200");
  EXPECT_EQ(host.files["/sys/class/net/ens6f0/ecn/roce_rp/enable/3"], "1");
  EXPECT_EQ(host.ran, (std::vector<std::string>{
                          "write 1 > /sys/class/net/ens6f0/ecn/roce_rp/enable/3",
                          "ip link set dev ens6f0 mtu 4200", "ip -o link show dev ens6f0",
                          "ip link set dev ens6f1 mtu 4200", "ip -o link show dev ens6f1"}));
  ASSERT_TRUE(std::filesystem::exists(opts.state_file));
  host.ran.clear();
  Result<ApplyReport> back = rollback(opts, host);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(back->ok);
  EXPECT_EQ(back->steps_done, 3);
  EXPECT_EQ(host.mtu["ens6f0"], "1536");
  EXPECT_EQ(host.mtu["ens6f1"], "1514");
  EXPECT_EQ(host.files["/sys/class/net/ens6f0/ecn/roce_rp/enable/3"], "0");
  // Each restored value is read back (the file read-back goes through read_file).
  EXPECT_EQ(host.ran, (std::vector<std::string>{
                          "ip link set dev ens6f1 mtu 1514", "ip -o link show dev ens6f1",
                          "ip link set dev ens6f0 mtu 1536", "ip -o link show dev ens6f0",
                          "write 0 > /sys/class/net/ens6f0/ecn/roce_rp/enable/3"}));
  EXPECT_EQ(std::count(back->log.begin(), back->log.end(), "  read-back ok"), 3);
}

TEST_F(ApplyTest, RollbackWhoseValueDoesNotComeBackFails) {
  ASSERT_TRUE(apply_plan(plan, opts, host).has_value());
  host.ignore_writes = true;  // the NIC keeps 4200 whatever rollback asks
  Result<ApplyReport> back = rollback(opts, host);
  ASSERT_TRUE(back.has_value());
  EXPECT_FALSE(back->ok);
  EXPECT_EQ(back->steps_done, 0);
  EXPECT_NE(back->error.find("read-back does not match  mtu 1514 "), std::string::npos) << back->error;
}

TEST_F(ApplyTest, LockRefusesASecondRun) {
  Result<std::shared_ptr<ApplyLock>> held = ApplyLock::acquire(opts.lock_file);
  ASSERT_TRUE(held.has_value());
  Result<ApplyReport> r = apply_plan(plan, opts, host);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("another rocekit apply holds"), std::string::npos);
  EXPECT_TRUE(host.ran.empty());
  held->reset();
  EXPECT_TRUE(apply_plan(plan, opts, host).has_value());
}

TEST_F(ApplyTest, FirstFailedReadBackStopsAndRollbackUndoesOnlyWhatWasTried) {
  host.ignore_writes = true;
  Result<ApplyReport> r = apply_plan(plan, opts, host);
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->ok);
  EXPECT_EQ(r->steps_done, 1);  // the ECN write; the first MTU read-back fails
  EXPECT_NE(r->error.find("read-back does not match  mtu 4200 "), std::string::npos) << r->error;
  EXPECT_EQ(host.ran.size(), 3u);  // write, ip link set, ip -o link show; ens6f1 never touched
  host.ran.clear();
  ASSERT_TRUE(rollback(opts, host).has_value());
  EXPECT_EQ(host.ran, (std::vector<std::string>{
                          "ip link set dev ens6f0 mtu 1536", "ip -o link show dev ens6f0",
                          "write 0 > /sys/class/net/ens6f0/ecn/roce_rp/enable/3"}));
}

TEST_F(ApplyTest, FirmwareStepsNeedTheFlag) {
  Action fw;
  fw.kind = ActionKind::nv_config;
  fw.scope = FixScope::firmware_reboot;
  fw.rule = "qos.cnp-firmware";
  fw.subject = "0000:b5:00";
  fw.argv = {"mstconfig", "-y", "-d", "0000:b5:00.0", "set", "CNP_DSCP_P1=48"};
  plan.actions.insert(plan.actions.begin(), fw);
  Result<ApplyReport> r = apply_plan(plan, opts, host);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->log.front(), "skip (needs --firmware): qos.cnp-firmware 0000:b5:00");
  EXPECT_FALSE(r->reboot_needed);
  EXPECT_EQ(host.ran.front(), "write 1 > /sys/class/net/ens6f0/ecn/roce_rp/enable/3");
}

/// State of a process from /proc/PID/stat ('R', 'S', 'Z', ...); 0 when it no longer exists.
char proc_state(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::size_t close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() ? 0 : stat[close + 2];
}

TEST(SystemRunner, RunsAToolAndReturnsItsOutput) {
  auto r = make_system_runner({"/usr/bin", "/bin"}, "/");
  Result<std::string> out = r->run({"printf", "%s\\n", "mtu 4200"});
  ASSERT_TRUE(out.has_value()) << out.error().describe();
  EXPECT_EQ(*out, "mtu 4200\n");
  Result<std::string> bad = r->run({"rk-no-such-tool"});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind, ErrorKind::not_found);
}

TEST(SystemRunner, AHangingToolHasItsProcessGroupKilled) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("rk_runner_timeout_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // A tool that starts a child and hangs: both must die (one process group).
  {
    std::ofstream t(dir / "hang");
    t << "#!/bin/sh\nsleep 300 &\necho $! > " << (dir / "child.pid").string() << "\nwait\n";
  }
  std::filesystem::permissions(dir / "hang", std::filesystem::perms::owner_all);
  auto r = make_system_runner({dir.string()}, "/", std::chrono::milliseconds(300));
  Result<std::string> out = r->run({"hang"});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().kind, ErrorKind::tool_failed);
  EXPECT_EQ(out.error().message, "timed out after 300 ms (process group killed)");
  EXPECT_EQ(out.error().context, "hang");  // rk::text::shell_quote leaves a plain word as it is
  std::ifstream pf(dir / "child.pid");
  pid_t child = 0;
  pf >> child;
  ASSERT_GT(child, 0);
  // SIGKILL was sent to the group; wait (bounded) until the kernel has finished the child.
  char st = proc_state(child);
  for (int i = 0; i < 500 && st != 0 && st != 'Z'; ++i) {
    ::usleep(10000);
    st = proc_state(child);
  }
  EXPECT_TRUE(st == 0 || st == 'Z') << "grandchild still running, state " << st;
  std::filesystem::remove_all(dir);
}

TEST(ApplyRollback, RejectsAMissingOrForeignStateFile) {
  ApplyOptions o;
  o.state_file = "/nonexistent/state.json";
  FakeHost h;
  EXPECT_FALSE(rollback(o, h).has_value());
}

// ---- Disruption (issue 14 item 6): the roce-server bundle, trust pcp and PFC off on ens6.

struct DisruptionTest : ApplyTest {
  Plan qos;
  void SetUp() override {
    ApplyTest::SetUp();
    Result<Snapshot> s = load_input(rk::test::testdata_dir() / "hosts" / "roce-server-8dev-trust-pcp-pfc-off");
    ASSERT_TRUE(s.has_value());
    qos = make_plan(*s, default_policy());
    opts.allow_disruption = false;
  }
};

TEST_F(DisruptionTest, EveryPfcAndTrustActionIsDisruptiveAndPfcComesLast) {
  ASSERT_FALSE(qos.actions.empty());
  bool saw_pfc = false, saw_trust = false;
  for (const Action& a : qos.actions) {
    if (a.kind == ActionKind::pfc) {
      saw_pfc = true;
      EXPECT_EQ(a.disruption, Disruption::link_flap);
      EXPECT_NE(a.disruption_why.find("mlx5_toggle_port_link"), std::string::npos);
    }
    if (a.kind == ActionKind::trust) {
      saw_trust = true;
      EXPECT_EQ(a.disruption, Disruption::channel_restart);
    }
    if (a.kind == ActionKind::dscp2prio || a.kind == ActionKind::ecn) {
      EXPECT_EQ(a.disruption, Disruption::none);
    }
  }
  EXPECT_TRUE(saw_pfc);
  EXPECT_TRUE(saw_trust);
  // One port: its link flap is the last step, after the trust switch and the DSCP map.
  EXPECT_EQ(qos.actions.back().kind, ActionKind::pfc);
  std::vector<PortDisruption> sum = disruption_summary(qos);
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(sum[0].subject, "ens6");
  EXPECT_EQ(sum[0].worst, Disruption::link_flap);
  EXPECT_EQ(sum[0].causes, (std::vector<std::string>{"trust: channel_restart", "pfc: link_flap"}));
}

TEST_F(DisruptionTest, YesWithoutAllowDisruptionRefusesAndTouchesNothing) {
  Result<ApplyReport> r = apply_plan(qos, opts, host);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::unsupported);
  EXPECT_NE(r.error().message.find("ens6 (trust: channel_restart, pfc: link_flap)"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("--allow-disruption"), std::string::npos);
  EXPECT_TRUE(host.ran.empty());
  EXPECT_FALSE(std::filesystem::exists(opts.state_file));
  EXPECT_FALSE(std::filesystem::exists(opts.lock_file));
  EXPECT_EQ(disruptive_ports(qos, opts), "ens6 (trust: channel_restart, pfc: link_flap)");
}

TEST_F(DisruptionTest, DryRunNamesThePortsAndAllowDisruptionRuns) {
  opts.dry_run = true;
  Result<ApplyReport> dry = apply_plan(qos, opts, host);
  ASSERT_TRUE(dry.has_value());
  EXPECT_EQ(dry->log.front(),
            "would disrupt traffic (needs --allow-disruption): ens6 (trust: channel_restart, pfc: link_flap)");
  EXPECT_TRUE(host.ran.empty());
  opts.dry_run = false;
  opts.allow_disruption = true;
  EXPECT_EQ(disruptive_ports(qos, opts), "");
  Result<ApplyReport> r = apply_plan(qos, opts, host);
  ASSERT_TRUE(r.has_value());
  // The fake host has no mlnx_qos: the first step runs and fails, so the refusal is gone.
  EXPECT_FALSE(r->ok);
  ASSERT_FALSE(host.ran.empty());
  EXPECT_EQ(host.ran.front(), "mlnx_qos -i ens6 --trust dscp");
}

TEST_F(DisruptionTest, PlanAndDryRunShowTheDiffTableBeforeTheCommands) {
  std::vector<std::string> lines = summary_lines(qos);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0], "Disruption (run in a maintenance window; `rocekit apply` needs --allow-disruption):");
  EXPECT_EQ(lines[1], "  ens6: link_flap (trust: channel_restart, pfc: link_flap)");
  EXPECT_EQ(lines[2], "Changes:");
  EXPECT_EQ(lines.back().substr(0, 18), "  ens6  pfc       ");
  EXPECT_NE(lines.back().find("0,0,0,0,0,0,0,0 -> 0,0,0,1,0,0,0,0  [link_flap]"), std::string::npos) << lines.back();
  std::string sh = render_sh(qos);
  EXPECT_LT(sh.find("# Changes:"), sh.find("step 1 "));
  EXPECT_NE(sh.find("# DISRUPTIVE (link_flap): a PFC change bounces the port link"), std::string::npos);
}

// ---- Host identity (issue 14 item 3).

TEST_F(ApplyTest, IdentityMatchesOnlyTheHostThePlanNames) {
  std::filesystem::path root = dir / "root";
  plan.hostname = "gpu-node-07";
  std::filesystem::create_directories(root / "proc/sys/kernel");
  std::ofstream(root / "proc/sys/kernel/hostname") << plan.hostname << "\n";
  for (const std::string& n : plan.identity.netdevs) std::filesystem::create_directories(root / "sys/class/net" / n);
  EXPECT_EQ(plan.identity.netdevs, (std::vector<std::string>{"ens6f0", "ens6f1"}));
  EXPECT_TRUE(identity_mismatches(plan, root).empty());
  std::filesystem::remove_all(root / "sys/class/net/ens6f1");
  std::ofstream(root / "proc/sys/kernel/hostname") << "other-host\n";
  EXPECT_EQ(identity_mismatches(plan, root),
            (std::vector<std::string>{"the plan is for host 'gpu-node-07', this host is 'other-host'",
                                      "netdev ens6f1 named by the plan is not on this host"}));
}

TEST(PlanIdentity, NodeGuidsComparedAsHexDigits) {
  EXPECT_EQ(node_guid_hex("b859:9f03:00d4:5E1a"), "b8599f0300d45e1a");
  EXPECT_EQ(node_guid_hex("0xB8599F0300D45E1A"), "b8599f0300d45e1a");
}

}  // namespace
}  // namespace rk::plan

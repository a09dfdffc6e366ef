// rocekit exporter: metric values from the fixture sysfs trees (testdata/sysroots) and the
// ethtool -S corpus, wrap widening, failed-device back-off, include/exclude, the textfile writer.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "rocekit/exporter/exporter.hpp"
#include "rocekit/exporter/metrics.hpp"
#include "rocekit/exporter/server.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/parse/ethtool_stats.hpp"
#include "rocekit/policy/policy.hpp"

namespace fs = std::filesystem;
using namespace rk;
using namespace rk::exporter;

namespace {

const std::string k_sysroots = std::string(RK_TESTDATA_DIR) + "/sysroots/";

/// The sample line starting with `prefix` ("name{labels}"), value only; "" when absent.
std::string value_of(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(prefix + " ", 0) == 0) return line.substr(prefix.size() + 1);
  return "";
}

bool has_line_starting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) return true;
  return false;
}

struct FakeClock {
  double now = 1000;
};

ExporterOptions options(const std::string& root, FakeClock* clock = nullptr) {
  ExporterOptions o;
  o.root = root;
  o.policy = default_policy();
  o.version = "test";
  if (clock) o.clock = [clock] { return clock->now; };
  return o;
}

/// A private copy of a fixture tree (symlinks kept) to change counters in.
struct TempTree {
  fs::path dir;
  explicit TempTree(const std::string& fixture) {
    dir = fs::temp_directory_path() / ("rk-exporter-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::copy(k_sysroots + fixture, dir, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  }
  ~TempTree() { fs::remove_all(dir); }
  void write(const std::string& rel, const std::string& text) const {
    std::ofstream(dir / rel, std::ios::trunc) << text << "\n";
  }
};

const std::string k_mlx5_hw = "sys/class/infiniband/mlx5_0/ports/1/hw_counters/";

}  // namespace

TEST(ExporterMetrics, EscapesLabelValuesAndWritesHelpTypeOnce) {
  EXPECT_EQ(escape_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  Exposition e;
  e.add("rocekit_rule_status", {{"rule", "net.mtu"}, {"subject", "eth\"0"}, {"severity", "error"}}, std::uint64_t{1});
  e.add("rocekit_rule_status", {{"rule", "net.mtu"}, {"subject", "eth1"}, {"severity", "error"}}, std::uint64_t{0});
  std::string t = e.str();
  EXPECT_EQ(t.find("# TYPE rocekit_rule_status gauge\n"), t.rfind("# TYPE rocekit_rule_status gauge\n"));
  EXPECT_NE(t.find("rocekit_rule_status{rule=\"net.mtu\",subject=\"eth\\\"0\",severity=\"error\"} 1\n"), std::string::npos);
  EXPECT_EQ(t.back(), '\n');
  EXPECT_THROW(e.add("not_declared", {}, std::uint64_t{1}), std::logic_error);
  // Counters end in _total; every name has the rocekit_ prefix.
  for (const MetricSpec& m : all_metrics()) {
    EXPECT_EQ(m.name.rfind("rocekit_", 0), 0u) << m.name;
    EXPECT_EQ(m.type == MetricType::counter, m.name.ends_with("_total")) << m.name;
  }
  // Exact integers beyond 2^53.
  Exposition big;
  big.add("rocekit_cnp_sent_total", {}, std::uint64_t{18446744073709551615ULL});
  EXPECT_NE(big.str().find("rocekit_cnp_sent_total 18446744073709551615\n"), std::string::npos);
}

TEST(Exporter, ProcfsMlx5FixtureCountersAndEcn) {
  Exporter ex(options(k_sysroots + "procfs-mlx5_0-eth0-ecn"));
  std::string t = ex.scrape();
  // Values of testdata/sysroots/procfs-mlx5_0-eth0-ecn (prometheus/procfs fixtures.ttar).
  const std::string l = "{device=\"mlx5_0\",port=\"1\",netdev=\"\"}";
  EXPECT_EQ(value_of(t, "rocekit_out_of_sequence_packets_total" + l), "1");
  EXPECT_EQ(value_of(t, "rocekit_duplicate_requests_total" + l), "41");
  EXPECT_EQ(value_of(t, "rocekit_local_ack_timeouts_total" + l), "131");
  EXPECT_EQ(value_of(t, "rocekit_adaptive_retransmissions_total" + l), "99");
  // port_rcv_data is in dwords: 18126345378 x 4 bytes.
  EXPECT_EQ(value_of(t, "rocekit_port_received_bytes_total" + l), "72505381512");
  // Other hw_counters keep their name as a label; lifespan (ms) is not a counter.
  EXPECT_EQ(value_of(t, "rocekit_rdma_hw_events_total{device=\"mlx5_0\",port=\"1\",netdev=\"\",counter=\"rx_read_requests\"}"), "175528982");
  EXPECT_FALSE(has_line_starting(t, "rocekit_rdma_hw_events_total{device=\"mlx5_0\",port=\"1\",netdev=\"\",counter=\"lifespan\"}"));
  // 25 Gb/sec (1X EDR) = 3.125e9 bytes/s.
  EXPECT_EQ(value_of(t, "rocekit_port_rate_bytes_per_second" + l), "3125000000");
  EXPECT_EQ(value_of(t, "rocekit_build_info{version=\"test\"}"), "1");
  EXPECT_NE(t.find("# TYPE rocekit_out_of_sequence_packets_total counter\n"), std::string::npos);
  EXPECT_NE(t.find("rocekit_scrape_duration_seconds "), std::string::npos);
  // No port of mlx5_0 names eth0 (no gid_attrs in this fixture), so ECN of eth0 is not per port;
  // the rule findings still judge eth0's ECN (qos.ecn-roce-priority on eth0).
  EXPECT_TRUE(has_line_starting(t, "rocekit_rule_status{rule=\""));
  EXPECT_EQ(value_of(t, "rocekit_collection_errors_total{source=\"rdma_counters\"}"), "0");
}

TEST(Exporter, Cx4lxFourPortsNetdevLabelsAndRuleOutcomes) {
  Exporter ex(options(k_sysroots + "cx4lx-4port"));
  std::string t = ex.scrape();
  // show_counters@mlx5_0 of the cx4lx-4port-fw-mismatch capture.
  EXPECT_NE(t.find("rocekit_out_of_buffer_drops_total{device=\"mlx5_0\",port=\"1\",netdev=\"eth01\"} 135\n"), std::string::npos) << t.substr(0, 3000);
  EXPECT_NE(t.find("rocekit_rdma_hw_events_total{device=\"mlx5_0\",port=\"1\",netdev=\"eth01\",counter=\"resp_cqe_error\"} 1009\n"), std::string::npos);
  // net.mtu fails: the tree's netdevs have MTU 1500 (policy: >= 4200).
  EXPECT_EQ(value_of(t, "rocekit_netdev_mtu_bytes{device=\"mlx5_0\",port=\"1\",netdev=\"eth01\"}"), "1500");
  EXPECT_TRUE(has_line_starting(t, "rocekit_rule_status{rule=\"net.mtu\",subject=\"eth01\",severity=\""));
  std::string mtu_line = t.substr(t.find("rocekit_rule_status{rule=\"net.mtu\",subject=\"eth01\""));
  EXPECT_EQ(mtu_line.substr(mtu_line.find("} ") + 2, 1), "1");
  std::string fails = value_of(t, "rocekit_findings{outcome=\"fail\",severity=\"error\"}");
  ASSERT_FALSE(fails.empty());
  EXPECT_GE(std::stoi(fails), 1);
}

TEST(Exporter, PcieLinkStateAndMaxReadRequest) {
  Exporter ex(options(k_sysroots + "cx4-100g-pcie-x8"));
  std::string t = ex.scrape();
  // lspci_vvv of homelab-host02: LnkCap 8GT/s x16, LnkSta 8GT/s x8, MaxReadReq 4096, MPS 256.
  const std::string l = "{device=\"\",bdf=\"0000:81:00.0\"}";
  EXPECT_EQ(value_of(t, "rocekit_pcie_link_width_lanes" + l), "8") << t;
  EXPECT_EQ(value_of(t, "rocekit_pcie_link_max_width_lanes" + l), "16");
  EXPECT_EQ(value_of(t, "rocekit_pcie_link_speed_transfers_per_second" + l), "8000000000");
  EXPECT_EQ(value_of(t, "rocekit_pcie_max_read_request_bytes" + l), "4096");
  EXPECT_EQ(value_of(t, "rocekit_pcie_max_payload_bytes" + l), "256");
}

TEST(Exporter, Widens32BitCountersAcrossScrapes) {
  TempTree tree("procfs-mlx5_0-eth0-ecn");
  FakeClock clock;
  Exporter ex(options(tree.dir.string(), &clock));
  tree.write(k_mlx5_hw + "out_of_sequence", "4294967000");
  tree.write(k_mlx5_hw + "np_cnp_sent", "4294967000");
  const std::string l = "{device=\"mlx5_0\",port=\"1\",netdev=\"\"}";
  EXPECT_EQ(value_of(ex.scrape(), "rocekit_out_of_sequence_packets_total" + l), "4294967000");
  clock.now += 15;
  tree.write(k_mlx5_hw + "out_of_sequence", "100");  // wrapped: 396 events later
  std::string t = ex.scrape();
  EXPECT_EQ(value_of(t, "rocekit_out_of_sequence_packets_total" + l), "4294967396");
  clock.now += 15;
  tree.write(k_mlx5_hw + "out_of_sequence", "150");
  EXPECT_EQ(value_of(ex.scrape(), "rocekit_out_of_sequence_packets_total" + l), "4294967446");
  // np_cnp_sent is 64-bit: not widened.
  EXPECT_EQ(value_of(t, "rocekit_cnp_sent_total" + l), "4294967000");
  // A decrease that is no plausible wrap (150 -> 5 would be a wrap of 2^32 - 145 > 2^31: a
  // driver reload) adds the new value: still monotonic.
  clock.now += 15;
  tree.write(k_mlx5_hw + "out_of_sequence", "5");
  EXPECT_EQ(value_of(ex.scrape(), "rocekit_out_of_sequence_packets_total" + l), "4294967451");
}

TEST(Exporter, CounterFilesStayOpenAndWideningSurvivesStateRefresh) {
  TempTree tree("procfs-mlx5_0-eth0-ecn");
  FakeClock clock;
  ExporterOptions o = options(tree.dir.string(), &clock);
  o.state_interval_s = 60;
  Exporter ex(o);
  tree.write(k_mlx5_hw + "out_of_sequence", "4294967000");
  const std::string l = "{device=\"mlx5_0\",port=\"1\",netdev=\"\"}";
  ex.scrape();
  // Every counter file of the one port, plus its state and rate files, is held open.
  std::size_t files = 0;
  for (const char* sub : {"counters", "hw_counters"})
    for (const auto& e : fs::directory_iterator(tree.dir / "sys/class/infiniband/mlx5_0/ports/1" / sub))
      files += e.path().filename() != "lifespan" ? 1 : 0;
  EXPECT_EQ(ex.stats().widened_counters, files);
  EXPECT_EQ(ex.stats().open_counter_files, files + 2);
  // An in-place change is seen through the held descriptor (pread at 0), and a state refresh
  // (which re-opens every file) keeps the widening: 4294967000 -> 100 is a wrap of 396.
  clock.now += 61;
  tree.write(k_mlx5_hw + "out_of_sequence", "100");
  std::string t = ex.scrape();
  EXPECT_EQ(ex.stats().state_refreshes, 2u);
  EXPECT_EQ(value_of(t, "rocekit_out_of_sequence_packets_total" + l), "4294967396");
  EXPECT_EQ(ex.stats().open_counter_files, files + 2);
}

TEST(Exporter, OverTheDescriptorBudgetCountersAreOpenedPerRead) {
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  ExporterOptions o = options(k_sysroots + "dgx-h100-8gpu-8nic");
  std::string expected;
  {
    Exporter all(o);
    expected = all.scrape();
    ASSERT_GT(all.stats().open_counter_files, 200u);
  }  // its descriptors are closed before the limit is lowered
  // A soft limit of 300 leaves a budget of 150 held descriptors: the rest are opened per read,
  // and the counter samples are the same.
  rlimit low = saved;
  low.rlim_cur = 300;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  Exporter few(o);
  std::string t = few.scrape();
  std::size_t held = few.stats().open_counter_files;
  ::setrlimit(RLIMIT_NOFILE, &saved);
  EXPECT_EQ(held, 150u);
  auto counters_of = [](const std::string& text) {
    std::string out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("rocekit_rdma_hw_events_total{", 0) == 0 || line.rfind("rocekit_out_of_", 0) == 0) out += line + "\n";
    return out;
  };
  EXPECT_FALSE(counters_of(t).empty());
  EXPECT_EQ(counters_of(t), counters_of(expected));
}

TEST(Exporter, RemovedDeviceIsForgottenAndItsFilesClosed) {
  TempTree tree("cx4lx-4port");
  Exporter ex(options(tree.dir.string()));
  std::string t = ex.scrape();
  ASSERT_TRUE(has_line_starting(t, "rocekit_port_info{device=\"mlx5_3\""));
  std::size_t before = ex.stats().open_counter_files;
  fs::remove(tree.dir / "sys/class/infiniband/mlx5_3");  // the class symlink: the device is gone
  t = ex.scrape();
  EXPECT_FALSE(has_line_starting(t, "rocekit_port_info{device=\"mlx5_3\""));
  EXPECT_TRUE(has_line_starting(t, "rocekit_port_info{device=\"mlx5_2\""));
  EXPECT_LT(ex.stats().open_counter_files, before);
  EXPECT_EQ(value_of(t, "rocekit_collection_errors_total{source=\"rdma_counters\"}"), "0");
}

TEST(Exporter, DeviceAddedBetweenRefreshesHasItsLabelsAtOnce) {
  TempTree tree("cx4lx-4port");
  FakeClock clock;
  ExporterOptions o = options(tree.dir.string(), &clock);
  o.state_interval_s = 60;
  Exporter ex(o);
  fs::path link = tree.dir / "sys/class/infiniband/mlx5_3";
  fs::path target = fs::read_symlink(link);
  fs::remove(link);
  std::string t = ex.scrape();
  EXPECT_FALSE(has_line_starting(t, "rocekit_port_info{device=\"mlx5_3\""));
  EXPECT_EQ(ex.stats().state_refreshes, 1u);
  // Hot-added 10 s later, well inside the 60 s state interval: the listing change refreshes the
  // state, so the first series of mlx5_3 already carry its netdev and identity.
  clock.now += 10;
  fs::create_directory_symlink(target, link);
  t = ex.scrape();
  EXPECT_EQ(ex.stats().state_refreshes, 2u);
  EXPECT_TRUE(has_line_starting(t, "rocekit_port_info{device=\"mlx5_3\",port=\"1\",netdev=\"eth04\",link_layer=\"Ethernet\""))
      << t.substr(0, 4000);
  EXPECT_TRUE(has_line_starting(t, "rocekit_out_of_buffer_drops_total{device=\"mlx5_3\",port=\"1\",netdev=\"eth04\"}"));
  // An unchanged listing does not refresh again before the interval.
  clock.now += 10;
  ex.scrape();
  EXPECT_EQ(ex.stats().state_refreshes, 2u);
}

TEST(Exporter, CounterThatIsNotANumberIsCountedNotExported) {
  TempTree tree("procfs-mlx5_0-eth0-ecn");
  tree.write(k_mlx5_hw + "out_of_sequence", "abc");
  Exporter ex(options(tree.dir.string()));
  std::string t = ex.scrape();
  EXPECT_FALSE(has_line_starting(t, "rocekit_out_of_sequence_packets_total"));
  EXPECT_TRUE(has_line_starting(t, "rocekit_duplicate_requests_total"));
  EXPECT_EQ(value_of(t, "rocekit_collection_errors_total{source=\"rdma_counter_values\"}"), "1");
  EXPECT_EQ(value_of(t, "rocekit_collection_errors_total{source=\"rdma_counters\"}"), "0");
}

TEST(Exporter, FailedDeviceIsSkippedCountedAndNotReRead) {
  TempTree tree("procfs-mlx5_0-eth0-ecn");
  // A counter whose read fails as on a firmware-restricted PF (here EISDIR: a directory).
  fs::remove(tree.dir / k_mlx5_hw / "packet_seq_err");
  fs::create_directory(tree.dir / k_mlx5_hw / "packet_seq_err");
  FakeClock clock;
  ExporterOptions o = options(tree.dir.string(), &clock);
  o.backoff_initial_s = 300;
  Exporter ex(o);
  std::string t = ex.scrape();
  EXPECT_EQ(value_of(t, "rocekit_device_read_failures_total{device=\"mlx5_0\"}"), "1");
  EXPECT_EQ(value_of(t, "rocekit_device_skipped{device=\"mlx5_0\",reason=\"read_failed\"}"), "1");
  EXPECT_EQ(value_of(t, "rocekit_collection_errors_total{source=\"rdma_counters\"}"), "1");
  EXPECT_FALSE(has_line_starting(t, "rocekit_out_of_sequence_packets_total"));
  // Within the back-off: not one counter file of the device is opened.
  std::vector<std::string> trace;
  ex.set_trace(&trace);
  clock.now += 60;
  t = ex.scrape();
  for (const std::string& p : trace) EXPECT_EQ(p.find("/sys/class/infiniband/mlx5_0/ports/1/hw_counters"), std::string::npos) << p;
  EXPECT_EQ(value_of(t, "rocekit_device_backoff_seconds{device=\"mlx5_0\"}"), "240");
  EXPECT_EQ(value_of(t, "rocekit_device_read_failures_total{device=\"mlx5_0\"}"), "1");
  // After it: tried again, fails again, the pause doubles.
  trace.clear();
  clock.now += 241;
  t = ex.scrape();
  bool reread = false;
  for (const std::string& p : trace) reread |= p.find("/sys/class/infiniband/mlx5_0/ports/1/") != std::string::npos;
  EXPECT_TRUE(reread);
  EXPECT_EQ(value_of(t, "rocekit_device_read_failures_total{device=\"mlx5_0\"}"), "2") << t;
  EXPECT_EQ(value_of(t, "rocekit_device_backoff_seconds{device=\"mlx5_0\"}"), "600");
  ex.set_trace(nullptr);
  // Fixed: read again after the back-off, counters are back.
  fs::remove(tree.dir / k_mlx5_hw / "packet_seq_err");
  tree.write(k_mlx5_hw + "packet_seq_err", "1");
  clock.now += 601;
  t = ex.scrape();
  EXPECT_EQ(value_of(t, "rocekit_packet_sequence_errors_total{device=\"mlx5_0\",port=\"1\",netdev=\"\"}"), "1");
  EXPECT_FALSE(has_line_starting(t, "rocekit_device_skipped{device=\"mlx5_0\""));
}

TEST(Exporter, WideningContinuesAfterABackOff) {
  TempTree tree("procfs-mlx5_0-eth0-ecn");
  FakeClock clock;
  ExporterOptions o = options(tree.dir.string(), &clock);
  o.backoff_initial_s = 300;
  o.state_interval_s = 10;  // the refresh re-opens the files, and so meets the failing one
  Exporter ex(o);
  const std::string l = "{device=\"mlx5_0\",port=\"1\",netdev=\"\"}";
  tree.write(k_mlx5_hw + "out_of_sequence", "4294967000");
  EXPECT_EQ(value_of(ex.scrape(), "rocekit_out_of_sequence_packets_total" + l), "4294967000");
  // A read fails (the device's files are closed and it backs off), then works again after a wrap.
  fs::remove(tree.dir / k_mlx5_hw / "packet_seq_err");
  fs::create_directory(tree.dir / k_mlx5_hw / "packet_seq_err");
  clock.now += 15;
  EXPECT_EQ(value_of(ex.scrape(), "rocekit_device_skipped{device=\"mlx5_0\",reason=\"read_failed\"}"), "1");
  fs::remove(tree.dir / k_mlx5_hw / "packet_seq_err");
  tree.write(k_mlx5_hw + "packet_seq_err", "0");
  tree.write(k_mlx5_hw + "out_of_sequence", "100");
  clock.now += 301;
  EXPECT_EQ(value_of(ex.scrape(), "rocekit_out_of_sequence_packets_total" + l), "4294967396");
}

TEST(Exporter, UnreadableDeviceListingKeepsTheCaches) {
  TempTree tree("cx4lx-4port");
  Exporter ex(options(tree.dir.string()));
  ex.scrape();
  std::size_t held = ex.stats().open_counter_files;
  ASSERT_GT(held, 0u);
  // /sys/class/infiniband cannot be listed (ELOOP here; EMFILE or EIO on a host): not "no
  // devices": counted, no counters this scrape, and the held files and widening state stay.
  fs::path ib = tree.dir / "sys/class/infiniband";
  fs::rename(ib, tree.dir / "sys/class/infiniband.real");
  fs::create_directory_symlink("infiniband", ib);
  std::string t = ex.scrape();
  EXPECT_EQ(value_of(t, "rocekit_collection_errors_total{source=\"rdma_counters\"}"), "1");
  EXPECT_FALSE(has_line_starting(t, "rocekit_port_info{"));
  EXPECT_EQ(ex.stats().open_counter_files, held);
  fs::remove(ib);
  fs::rename(tree.dir / "sys/class/infiniband.real", ib);
  t = ex.scrape();
  EXPECT_TRUE(has_line_starting(t, "rocekit_port_info{device=\"mlx5_0\""));
  EXPECT_EQ(ex.stats().open_counter_files, held);
}

TEST(Exporter, IncludeExcludeRegexes) {
  ExporterOptions o = options(k_sysroots + "cx4lx-4port");
  o.exclude_devices.emplace("mlx5_[13]");
  Exporter ex(o);
  std::string t = ex.scrape();
  EXPECT_EQ(value_of(t, "rocekit_device_skipped{device=\"mlx5_1\",reason=\"excluded\"}"), "1");
  EXPECT_EQ(value_of(t, "rocekit_device_skipped{device=\"mlx5_3\",reason=\"excluded\"}"), "1");
  EXPECT_FALSE(has_line_starting(t, "rocekit_port_info{device=\"mlx5_1\""));
  EXPECT_TRUE(has_line_starting(t, "rocekit_port_info{device=\"mlx5_0\""));
  EXPECT_TRUE(has_line_starting(t, "rocekit_port_info{device=\"mlx5_2\""));
  ExporterOptions only = options(k_sysroots + "cx4lx-4port");
  only.include_devices.emplace("mlx5_2");
  std::string t2 = Exporter(only).scrape();
  EXPECT_TRUE(has_line_starting(t2, "rocekit_port_info{device=\"mlx5_2\""));
  EXPECT_FALSE(has_line_starting(t2, "rocekit_port_info{device=\"mlx5_0\""));
}

TEST(Exporter, StateAndRulesRefreshOnlyEveryStateInterval) {
  FakeClock clock;
  ExporterOptions o = options(k_sysroots + "cx4lx-4port", &clock);
  o.state_interval_s = 60;
  Exporter ex(o);
  ex.scrape();
  clock.now += 15;
  std::string t = ex.scrape();
  EXPECT_EQ(value_of(t, "rocekit_state_age_seconds"), "15");
  clock.now += 15;
  ex.scrape();
  EXPECT_EQ(ex.stats().state_refreshes, 1u);
  EXPECT_EQ(ex.stats().scrapes, 3u);
  clock.now += 31;
  ex.scrape();
  EXPECT_EQ(ex.stats().state_refreshes, 2u);
}

TEST(ExporterEthtool, PerPriorityAndGlobalPauseFromCorpus) {
  // A real mlx5 ethtool -S (kernel 5.15, XDP flood): rx_prio0_discards 58591314012, tx global
  // pause 5745042 frames / 771103810 us.
  std::ifstream in(std::string(RK_TESTDATA_DIR) + "/corpus/ethtool_S/lore-xdp-regression-mlx5-k5.15.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  auto st = parse::parse_ethtool_stats(parse::strip_capture_header(text).body);
  ASSERT_TRUE(st);
  std::map<std::string, std::uint64_t> m;
  for (const parse::EthtoolStat& c : st->value.counters) m.emplace(c.name, c.value);
  Exposition e;
  std::size_t n = add_ethtool_stats(e, {{"device", "mlx5_0"}, {"port", "1"}, {"netdev", "eth0"}}, m);
  std::string t = e.str();
  EXPECT_GE(n, 6u);
  const std::string l = "device=\"mlx5_0\",port=\"1\",netdev=\"eth0\"";
  EXPECT_EQ(value_of(t, "rocekit_priority_discards_total{" + l + ",direction=\"rx\",priority=\"0\"}"), "58591314012");
  EXPECT_EQ(value_of(t, "rocekit_priority_bytes_total{" + l + ",direction=\"tx\",priority=\"0\"}"), "357288052986");
  EXPECT_EQ(value_of(t, "rocekit_global_pause_frames_total{" + l + ",direction=\"tx\"}"), "5745042");
  EXPECT_EQ(value_of(t, "rocekit_global_pause_duration_seconds_total{" + l + ",direction=\"tx\"}"), "771.10381");
  EXPECT_EQ(value_of(t, "rocekit_phy_discards_total{" + l + ",direction=\"rx\"}"), "58591428329");
  // Per-queue counters are not exported (bounded cardinality).
  EXPECT_EQ(t.find("rx0_"), std::string::npos);
  // PFC names (trailing-space quirk of one mlx5 release trimmed).
  Exposition p;
  add_ethtool_stats(p, {}, {{"rx_prio3_pause", 7}, {"tx_prio3_pause_duration", 2500000}, {"tx_pause_storm_warning_events ", 2}});
  std::string pt = p.str();
  EXPECT_EQ(value_of(pt, "rocekit_pfc_pause_frames_total{direction=\"rx\",priority=\"3\"}"), "7");
  EXPECT_EQ(value_of(pt, "rocekit_pfc_pause_duration_seconds_total{direction=\"tx\",priority=\"3\"}"), "2.5");
  EXPECT_EQ(value_of(pt, "rocekit_pause_storm_events_total{severity=\"warning\"}"), "2");
}

TEST(ExporterTextfile, RemovesTempFilesOfDeadWritersOnly) {
  fs::path dir = fs::temp_directory_path() / ("rk-textfile-stale-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);  // reaped: this pid runs nothing now
  std::ofstream(dir / (".rocekit.prom." + std::to_string(child))) << "x";
  std::ofstream(dir / (".rocekit.prom." + std::to_string(::getpid()))) << "x";  // alive: kept
  std::ofstream(dir / ".rocekit.prom.notapid") << "x";
  std::ofstream(dir / "other.prom") << "x";
  EXPECT_EQ(remove_stale_textfile_temps(dir.string()), 1u);
  EXPECT_FALSE(fs::exists(dir / (".rocekit.prom." + std::to_string(child))));
  EXPECT_TRUE(fs::exists(dir / (".rocekit.prom." + std::to_string(::getpid()))));
  EXPECT_TRUE(fs::exists(dir / ".rocekit.prom.notapid"));
  EXPECT_TRUE(fs::exists(dir / "other.prom"));
  fs::remove_all(dir);
}

TEST(ExporterTextfile, WritesAtomicallyAndRefusesMissingDir) {
  fs::path dir = fs::temp_directory_path() / ("rk-textfile-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  Exporter ex(options(k_sysroots + "procfs-mlx5_0-eth0-ecn"));
  std::string body = ex.scrape();
  EXPECT_FALSE(write_textfile(dir.string(), body).has_value());
  std::ifstream in(dir / "rocekit.prom");
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), body);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(e.path().filename(), "rocekit.prom");  // no temp file left behind
  }
  EXPECT_EQ(files, 1u);
  std::optional<WriteError> err = write_textfile((dir / "missing").string(), body);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->path, (dir / "missing").string());
  fs::remove_all(dir);
}

TEST(ExporterServer, ParsesListenAddresses) {
  auto a = parse_listen_address("127.0.0.1:9857");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->first, "127.0.0.1");
  EXPECT_EQ(a->second, 9857);
  auto v6 = parse_listen_address("[::1]:9000");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->first, "::1");
  auto any = parse_listen_address(":9857");
  ASSERT_TRUE(any);
  EXPECT_EQ(any->first, "0.0.0.0");
  EXPECT_FALSE(parse_listen_address("localhost"));
  EXPECT_FALSE(parse_listen_address("127.0.0.1:70000"));
  EXPECT_FALSE(parse_listen_address("::1:9000"));
}

TEST(ExporterServer, BindsAnyPortAndStopsFromAnotherThreadIdempotently) {
  Exporter ex(options(k_sysroots + "cx4lx-4port"));
  ServerOptions so;
  so.port = 0;
  Server server(ex, so);
  Result<int> port = server.bind();
  ASSERT_TRUE(port) << port.error().message;
  EXPECT_GT(*port, 0);
  // A second listener on the same port fails with io naming the address.
  Server other(ex, ServerOptions{"127.0.0.1", *port, 5, 5});
  Result<int> busy = other.bind();
  ASSERT_FALSE(busy);
  EXPECT_EQ(busy.error().kind, ErrorKind::io);
  EXPECT_NE(busy.error().message.find("cannot listen"), std::string::npos);
  EXPECT_EQ(busy.error().context, "127.0.0.1:" + std::to_string(*port));
  auto t0 = std::chrono::steady_clock::now();
  std::thread serving([&server] { server.run(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  server.stop();
  server.stop();
  serving.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

TEST(ExporterServer, StopBeforeRunMakesRunReturnAtOnce) {
  Exporter ex(options(k_sysroots + "cx4lx-4port"));
  Server server(ex, ServerOptions{"127.0.0.1", 0, 5, 5});
  ASSERT_TRUE(server.bind());
  server.stop();
  server.run();  // returns: a hang here fails the test by its timeout
  SUCCEED();
}

TEST(ExporterEthtool, CaptureDirFeedsPerPriorityMetricsOfThePortsNetdev) {
  // The real mlx5 ethtool -S of the corpus, as a capture file for eth01 of the cx4lx-4port tree.
  fs::path dir = fs::temp_directory_path() / ("rk-ethtool-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(std::string(RK_TESTDATA_DIR) + "/corpus/ethtool_S/lore-xdp-regression-mlx5-k5.15.txt",
                dir / "ethtool_S@eth01.txt");
  ExporterOptions o = options(k_sysroots + "cx4lx-4port");
  o.ethtool_stats_dir = dir.string();
  std::string t = Exporter(o).scrape();
  const std::string l = "device=\"mlx5_0\",port=\"1\",netdev=\"eth01\"";
  EXPECT_EQ(value_of(t, "rocekit_priority_discards_total{" + l + ",direction=\"rx\",priority=\"0\"}"), "58591314012");
  EXPECT_EQ(value_of(t, "rocekit_global_pause_frames_total{" + l + ",direction=\"tx\"}"), "5745042");
  // Netdevs without a capture file have no ethtool series (absent, not zero).
  EXPECT_FALSE(has_line_starting(t, "rocekit_priority_discards_total{device=\"mlx5_1\""));
  fs::remove_all(dir);
}

TEST(Exporter, NicIdentityAndDscpMapForFleetDrift) {
  // dgx-h100-8gpu-8nic: mlx5_7 is enp170s0f0np0, board_id MT_0000001244, driver link mlx5_core
  // with /sys/module/mlx5_core/version 23.10-3.2.2, and qos/dscp2prio mapping DSCP 8p..8p+7 to
  // priority p (the MLNX_OFED default).
  Exporter ex(options(k_sysroots + "dgx-h100-8gpu-8nic"));
  std::string t = ex.scrape();
  const std::string l = "{device=\"mlx5_7\",port=\"1\",netdev=\"enp170s0f0np0\",";
  EXPECT_EQ(value_of(t, "rocekit_nic_info" + l +
                            "model=\"PSID MT_0000001244\",driver=\"mlx5_core\",driver_version=\"23.10-3.2.2\"}"),
            "1") << t.substr(0, 4000);
  EXPECT_EQ(value_of(t, "rocekit_qos_dscp_map_info" + l +
                            "map=\"0:0-7 1:8-15 2:16-23 3:24-31 4:32-39 5:40-47 6:48-55 7:56-63\"}"),
            "1");
  EXPECT_NE(t.find("# TYPE rocekit_nic_info gauge\n"), std::string::npos);
  EXPECT_NE(t.find("# TYPE rocekit_qos_dscp_map_info gauge\n"), std::string::npos);
}

// The simdjson snapshot reader (model/json_fast.hpp) against nlohmann's (model/json.hpp
// snapshot_from_json_text): on every snapshot the project can make from its real inputs (the
// collect sysroots, with counters and evidence, and the host bundles), both readers give the
// same Snapshot, with and without counters and evidence; on documents nlohmann reads another
// way or refuses, the fast reader declines (nullopt) so the caller falls back.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/capture/assemble.hpp"
#include "rocekit/collect/collect.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/model/json_fast.hpp"
#include "rocekit/pipeline.hpp"

namespace rk {
namespace {

namespace fs = std::filesystem;

/// The two readers agree on `text`: when nlohmann reads it, the fast reader gives the same
/// snapshot or declines (`must_take`: it must not decline); when nlohmann refuses, it declines.
void expect_same(const std::string& text, bool lean, bool must_take, const std::string& what) {
  SCOPED_TRACE(what + (lean ? " (without counters and evidence)" : ""));
  Result<Snapshot> slow = snapshot_from_json_text(text, lean);
  std::optional<Snapshot> fast = snapshot_from_json_fast(text, lean);
  if (!slow) {
    EXPECT_FALSE(fast.has_value()) << "nlohmann refuses it: " << slow.error().message;
    return;
  }
  if (must_take) {
    ASSERT_TRUE(fast.has_value());
  }
  if (fast) {
    EXPECT_EQ(snapshot_to_json(*fast).dump(1), snapshot_to_json(*slow).dump(1));
  }
}

std::vector<std::pair<std::string, std::string>> real_snapshots() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const fs::directory_entry& e : fs::directory_iterator(test::testdata_dir() / "sysroots")) {
    if (!e.is_directory()) continue;
    collect::NoToolsRunner runner("vendor tools not requested");
    Snapshot s = collect::collect_snapshot(collect::CollectRequest{}, collect::HostView(e.path()), runner);
    out.emplace_back("sysroot " + e.path().filename().string(), snapshot_to_json(s).dump());
  }
  for (const char* dir : {"hosts", "fleet/multihost"})
    for (const fs::directory_entry& e : fs::directory_iterator(test::testdata_dir() / dir)) {
      if (!e.is_directory()) continue;
      Result<Snapshot> s = load_input(e.path());
      if (s) out.emplace_back(std::string(dir) + "/" + e.path().filename().string(), snapshot_to_json(*s).dump());
    }
  return out;
}

TEST(JsonFast, ReadsEveryRealSnapshotAsNlohmannDoes) {
  if (!fast_snapshot_reader_available()) GTEST_SKIP() << "this build has no simdjson (libsimdjson-dev)";
  const auto snapshots = real_snapshots();
  // 11 sysroots, the host bundles and the 4 Multi-Host hosts.
  ASSERT_GE(snapshots.size(), 20u);
  std::size_t with_counters = 0;
  for (const auto& [what, text] : snapshots) {
    Result<Snapshot> read = snapshot_from_json_text(text, false);
    ASSERT_TRUE(read) << what << ": " << read.error().message;
    bool counters = false;
    for (const RdmaDevice& d : read->rdma_devices)
      for (const RdmaPort& p : d.ports) counters = counters || (p.counters.value && !p.counters.value->empty());
    with_counters += counters ? 1 : 0;
    expect_same(text, false, true, what);
    expect_same(text, true, true, what);
  }
  EXPECT_GE(with_counters, 3u);  // the live sysroots carry RDMA counters the lean read drops
}

TEST(JsonFast, DropsCountersAndEvidenceOnlyWhenAsked) {
  if (!fast_snapshot_reader_available()) GTEST_SKIP() << "this build has no simdjson (libsimdjson-dev)";
  collect::NoToolsRunner runner("vendor tools not requested");
  Snapshot s = collect::collect_snapshot(collect::CollectRequest{},
                                         collect::HostView(test::testdata_dir() / "sysroots" / "dgx-h100-8gpu-8nic"), runner);
  const std::string text = snapshot_to_json(s).dump();
  std::optional<Snapshot> full = snapshot_from_json_fast(text, false);
  std::optional<Snapshot> lean = snapshot_from_json_fast(text, true);
  ASSERT_TRUE(full && lean);
  ASSERT_FALSE(full->rdma_devices.empty());
  const RdmaPort& fp = full->rdma_devices.front().ports.front();
  const RdmaPort& lp = lean->rdma_devices.front().ports.front();
  EXPECT_TRUE(fp.counters.value.has_value());
  EXPECT_FALSE(lp.counters.value.has_value());
  EXPECT_FALSE(full->pci_functions.front().source.file.empty());
  EXPECT_TRUE(lean->pci_functions.front().source.file.empty());
  EXPECT_EQ(full->hostname, lean->hostname);
  EXPECT_EQ(full->pci_functions.size(), lean->pci_functions.size());
}

// The BlueField fields (netdevs[].devlink_port, pci_functions[].eswitch) from real devlink
// outputs (testdata/corpus/devlink_port, devlink_dev_eswitch): the fast reader reads them as
// nlohmann does, a mode and a kernel answer alike.
TEST(JsonFast, ReadsDevlinkPortsAndEswitchesAsNlohmannDoes) {
  if (!fast_snapshot_reader_available()) GTEST_SKIP() << "this build has no simdjson (libsimdjson-dev)";
  auto corpus = [](const std::string& name, const std::string& rel) {
    return capture::CaptureFile{name, test::read_file(test::testdata_dir() / "corpus" / rel), ""};
  };
  capture::CaptureSet set;
  set.files.push_back(corpus("devlink_port.txt", "devlink_port/mlx5-patch-bf-arm-devlink-port-show-pf0hpf-controller1-external.txt"));
  set.files.push_back(corpus("devlink_dev_eswitch@0000:03:00.0.txt",
                             "devlink_dev_eswitch/openshellbf-bf3-arm-devlink-dev-eswitch-show-ecpf-switchdev.txt"));
  set.files.push_back(corpus("devlink_dev_eswitch@0000:b3:00.0.txt",
                             "devlink_dev_eswitch/openshellbf-bf3-host-devlink-dev-eswitch-show-not-supported.txt"));
  Snapshot s = capture::snapshot_from_capture(set);
  ASSERT_TRUE(s.find_pci("0000:03:00.0") && s.find_pci("0000:03:00.0")->eswitch);
  ASSERT_TRUE(s.find_pci("0000:b3:00.0") && s.find_pci("0000:b3:00.0")->eswitch);
  std::string text = snapshot_to_json(s).dump();
  expect_same(text, false, true, "devlink capture");
  expect_same(text, true, true, "devlink capture");
  std::optional<Snapshot> fast = snapshot_from_json_fast(text, false);
  ASSERT_TRUE(fast);
  EXPECT_EQ(fast->find_pci("0000:03:00.0")->eswitch->mode, "switchdev");
  EXPECT_EQ(fast->find_pci("0000:03:00.0")->eswitch->encap_mode, "basic");
  EXPECT_EQ(fast->find_pci("0000:b3:00.0")->eswitch->kernel_error, "Operation not supported");
  EXPECT_EQ(fast->find_netdev("pf0hpf")->devlink_port->controller, 1);
}

// Documents built to hit each place where nlohmann converts, keeps the last key, or refuses.
TEST(JsonFast, DeclinesOrAgreesWhereNlohmannConvertsOrRefuses) {
  if (!fast_snapshot_reader_available()) GTEST_SKIP() << "this build has no simdjson (libsimdjson-dev)";
  const std::string head = R"({"schema_version":7,"hostname":"h",)";
  struct Case {
    std::string body;
    bool must_take;
    std::string refused = {};  // nlohmann's error, when it must refuse the document
  };
  const std::vector<Case> cases = {
      {R"("netdevs":[{"name":"eth0","mtu_bytes":{"value":9000}}]})", true},
      {R"("netdevs":[{"name":"eth0","mtu_bytes":{"value":9000.0}}]})", false,
       "bad snapshot field: (/netdevs/0/mtu_bytes/value) expected an integer, got 9000.0"},
      {R"("netdevs":[{"name":"eth0","mtu_bytes":{"value":4200.9}}]})", false,
       "bad snapshot field: (/netdevs/0/mtu_bytes/value) expected an integer, got 4200.9"},
      {R"("netdevs":[{"name":"eth0","mtu_bytes":{"value":true}}]})", false,
       "bad snapshot field: (/netdevs/0/mtu_bytes/value) expected an integer, got true"},
      {R"("netdevs":[{"name":"eth0","mtu_bytes":{"value":1e300}}]})", false,
       "number out of range at /netdevs/0/mtu_bytes/value"},
      {R"("netdevs":[{"name":"eth0","mtu_bytes":{"value":4294967296}}]})", false,
       "bad snapshot field: (/netdevs/0/mtu_bytes/value) 4294967296 is out of range for this field "
       "(-2147483648..2147483647)"},
      {R"("netdevs":[{"name":"eth0","mtu_bytes":{"value":4294976296}}]})", false,  // 2^32 + 9000, not 9000
       "bad snapshot field: (/netdevs/0/mtu_bytes/value) 4294976296 is out of range for this field "
       "(-2147483648..2147483647)"},
      {R"("netdevs":[{"name":"eth0","name":"eth1"}]})", false},  // repeated: nlohmann says so
      {R"("netdevs":[{"name":"eth0","mtu_bytes":{"value":1500,"value":null}}]})", false},
      {R"("hostname":"g","netdevs":[]})", false},
      {R"("netdevs":[{"name":"eth0","stats":{"value":{"rx":1,"rx":2}}}]})", false},
      {R"("netdevs":[{"name":"eth0","unknown":1,"unknown":2}]})", false},  // not a field, still said
      {R"("netdevs":[{"name":"eth0","unknown":1,"other":2}]})", true},       // not a field: skipped
      {R"("netdevs":[{"name":"eth0","mtu_bytes":9000}]})", false,  // a Collected section not an object
       R"(bad snapshot field: (/netdevs/0/mtu_bytes) expected an object ({"value": ...} or {"value": null, "reason": ...}), got 9000)"},
      {R"("kernel_release":null})", false,
       R"(bad snapshot field: (/kernel_release) expected an object ({"value": ...} or {"value": null, "reason": ...}), got null)"},
      {R"("netdevs":[{"name":"eth0","qos":{"value":{"trust":"dscp","dscp_to_priority":[[26,3],[26,5],[48,6,9]]}}}]})", true},
      {R"("netdevs":[{"name":"eth0","qos":{"value":{"trust":"DSCP"}}}]})", false},  // unknown enum
      {R"("netdevs":[{"name":"eth0","qos":{"value":{"dscp_to_priority":{"26":3}}}}]})", false},
      {R"("netdevs":[{"name":"eth0","qos":{"value":{"pfc_enabled":[false,true,0]}}}]})", false},
      {R"("rdma_devices":[{"name":"mlx5_0","ports":[{"port":1,"gids":{"value":[{"index":3,"type":""},{"index":4,"type":"RoCE v2"}]}}]}]})", true},
      {R"("rdma_devices":[{"name":"mlx5_0","ports":[{"port":1,"gids":{"value":[{"index":3,"type":7}]}}]}]})", false},
      {R"("pci_bridges":{"value":[{"bdf":"0000:00:01.0","acs":{"value":{"capability":{"source_validation":true}}}}]}})", false},
      {R"("source":{"kind":"","path":"/x"},"notes":["a"],"unknown_key":{"x":1.5e12}})", false},  // bad float anywhere
      {R"("netdevs":[{"name":"eth0","stats":{"value":{"rx":1.5e12}}}]})", false},  // dropped only when lean
      {R"("netdevs":[{"name":"eth0"}],"schema_version":99})", false},
      {R"("netdevs":"eth0"})", false},
      {R"("netdevs":[{"name":"eth0"}]} trailing)", false},
  };
  for (const Case& c : cases) {
    expect_same(head + c.body, false, c.must_take, c.body);
    expect_same(head + c.body, true, c.must_take, c.body);
    if (!c.refused.empty()) {
      Result<Snapshot> slow = snapshot_from_json_text(head + c.body, false);
      ASSERT_FALSE(slow.has_value()) << c.body;
      EXPECT_EQ(slow.error().message, c.refused);
      EXPECT_FALSE(snapshot_from_json_fast(head + c.body, false).has_value()) << c.body;
    }
  }
  // The lean read drops the counters, so a bad float there does not matter to it.
  EXPECT_TRUE(snapshot_from_json_fast(head + R"("netdevs":[{"name":"eth0","stats":{"value":{"rx":1.5e12}}}]})", true));
  // A repeated key: the fast reader declines; nlohmann keeps the last one and says so.
  const std::string repeated = head + R"("netdevs":[{"name":"eth0","name":"eth1"}]})";
  EXPECT_FALSE(snapshot_from_json_fast(repeated, false));
  EXPECT_FALSE(snapshot_from_json_fast(repeated, true));
  Result<Snapshot> dup = snapshot_from_json_text(repeated, true, "node.json");
  ASSERT_TRUE(dup) << dup.error().message;
  EXPECT_EQ(dup->netdevs.at(0).name, "eth1");
  ASSERT_EQ(dup->inputs.size(), 1u);
  EXPECT_EQ(dup->inputs[0].status, "parsed_with_warnings");
  EXPECT_EQ(dup->inputs[0].messages,
            std::vector<std::string>{"node.json: key \"name\" appears twice in /netdevs/0: the last one is used"});
}

}  // namespace
}  // namespace rk

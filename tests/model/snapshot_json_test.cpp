// Snapshot JSON (model/json.hpp, docs/snapshot-schema.md): a hand-built snapshot survives a
// round trip with its values, the reasons of what was not collected, and its evidence.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "rocekit/model/json.hpp"

namespace rk {
namespace {

Snapshot sample() {
  Snapshot s;
  s.hostname = "node-a";
  s.source = {"capture_dir", "/captures/node-a"};
  NetDev& n = s.netdev("eth4");
  n.bdf = "0000:3b:00.0";
  n.mtu_bytes.value = 9000;
  n.mtu_bytes.source = {"ip_link.txt", 3, "eth4: mtu 9000"};
  QosState q;
  q.trust = "dscp";
  q.dscp_to_priority = {{26, 3}, {48, 6}};
  q.pfc_enabled = std::vector<bool>{false, false, false, true, false, false, false, false};
  q.trust_source = {"mlnx_qos@eth4.txt", 2, "Priority trust state: dscp"};
  n.qos.value = q;
  n.qos.notes = {"output truncated after the dscp2prio table"};
  n.pause = Collected<PauseState>::missing("ethtool -a was not captured");
  RdmaDevice& d = s.rdma("mlx5_0");
  RdmaPort p;
  p.port = 1;
  p.state.value = "ACTIVE";
  p.gids = Collected<std::vector<Gid>>::missing("no show_gids in the input");
  d.ports.push_back(p);
  s.numa_cpu_count = Collected<std::map<int, int>>::missing("no lscpu in the input");
  return s;
}

TEST(SnapshotJson, CollectedKeepsValueReasonEvidenceAndNotes) {
  nlohmann::json j = snapshot_to_json(sample());
  const nlohmann::json& n = j["netdevs"][0];
  EXPECT_EQ(n["mtu_bytes"]["value"], 9000);
  EXPECT_EQ(n["mtu_bytes"]["source"]["file"], "ip_link.txt");
  EXPECT_EQ(n["mtu_bytes"]["source"]["line"], 3);
  EXPECT_EQ(n["mtu_bytes"]["source"]["text"], "eth4: mtu 9000");
  EXPECT_FALSE(n["mtu_bytes"].contains("reason"));
  EXPECT_TRUE(n["pause"]["value"].is_null());
  EXPECT_EQ(n["pause"]["reason"], "ethtool -a was not captured");
  EXPECT_EQ(n["qos"]["notes"][0], "output truncated after the dscp2prio table");
  EXPECT_EQ(n["qos"]["value"]["trust"], "dscp");
  EXPECT_EQ(n["qos"]["value"]["trust_source"]["text"], "Priority trust state: dscp");
  EXPECT_EQ(j["rdma_devices"][0]["ports"][0]["gids"]["reason"], "no show_gids in the input");
  EXPECT_EQ(j["schema_version"], k_snapshot_schema_version);
}

TEST(SnapshotJson, RoundTripGivesTheSameSnapshot) {
  const Snapshot s = sample();
  nlohmann::json once = snapshot_to_json(s);
  Result<Snapshot> back = snapshot_from_json(once);
  ASSERT_TRUE(back.has_value()) << back.error().describe();
  EXPECT_EQ(snapshot_to_json(*back), once);
  const NetDev* n = back->find_netdev("eth4");
  ASSERT_NE(n, nullptr);
  ASSERT_TRUE(n->mtu_bytes.has_value());
  EXPECT_EQ(*n->mtu_bytes, 9000);
  EXPECT_EQ(n->mtu_bytes.source.file, "ip_link.txt");
  EXPECT_EQ(n->mtu_bytes.source.line, 3u);
  EXPECT_FALSE(n->pause.has_value());
  EXPECT_EQ(n->pause.reason, "ethtool -a was not captured");
  ASSERT_TRUE(n->qos.has_value());
  EXPECT_EQ(n->qos->dscp_to_priority.at(26), 3);
  EXPECT_EQ(n->qos.notes, std::vector<std::string>{"output truncated after the dscp2prio table"});
  EXPECT_EQ(back->rdma_devices.at(0).ports.at(0).gids.reason, "no show_gids in the input");
  EXPECT_EQ(back->numa_cpu_count.reason, "no lscpu in the input");
  EXPECT_EQ(back->hostname, "node-a");
}

TEST(SnapshotJson, NotASnapshotIsAnError) {
  Result<Snapshot> r = snapshot_from_json(nlohmann::json{{"hostname", "x"}});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::malformed_input);
}

}  // namespace
}  // namespace rk

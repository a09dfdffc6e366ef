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
  s.source = {SourceKind::capture_dir, "/captures/node-a"};
  NetDev& n = s.netdev("eth4");
  n.bdf = "0000:3b:00.0";
  n.mtu_bytes.value = 9000;
  n.mtu_bytes.source = {"ip_link.txt", 3, "eth4: mtu 9000"};
  QosState q;
  q.trust = Trust::dscp;
  q.dscp_to_priority = {{26, 3}, {48, 6}};
  q.pfc_enabled = std::vector<bool>{false, false, false, true, false, false, false, false};
  q.trust_source = {"mlnx_qos@eth4.txt", 2, "Priority trust state: dscp"};
  n.qos.value = q;
  n.qos.notes = {"output truncated after the dscp2prio table"};
  n.pause = Collected<PauseState>::missing("ethtool -a was not captured");
  RdmaDevice& d = s.rdma("mlx5_0");
  RdmaPort p;
  p.port = 1;
  p.state.value = PortState::active;
  p.gids = Collected<std::vector<Gid>>::missing("no show_gids in the input", ReasonKind::not_captured);
  p.link_layer = LinkLayer::ethernet;
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

// The vocabulary keeps the JSON strings the schema has always had (docs/snapshot-schema.md).
TEST(SnapshotJson, VocabularyKeepsItsStrings) {
  nlohmann::json j = snapshot_to_json(sample());
  EXPECT_EQ(j["source"]["kind"], "capture_dir");
  const nlohmann::json& port = j["rdma_devices"][0]["ports"][0];
  EXPECT_EQ(port["state"]["value"], "ACTIVE");
  EXPECT_EQ(port["link_layer"], "Ethernet");
  EXPECT_EQ(port["gids"]["reason_kind"], "not_captured");
  EXPECT_FALSE(j["netdevs"][0]["pause"].contains("reason_kind"));  // not classified: no field

  Result<Snapshot> back = snapshot_from_json(j);
  ASSERT_TRUE(back.has_value()) << back.error().describe();
  EXPECT_EQ(back->rdma_devices[0].ports[0].gids.reason_kind, ReasonKind::not_captured);
  EXPECT_EQ(back->rdma_devices[0].ports[0].state.value, PortState::active);
}

TEST(SnapshotJson, UnknownVocabularyIsAnErrorNamingTheField) {
  nlohmann::json j = snapshot_to_json(sample());
  j["rdma_devices"][0]["ports"][0]["link_layer"] = "Token Ring";
  Result<Snapshot> r = snapshot_from_json(j);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("/rdma_devices/0/ports/0/link_layer"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("expected a link layer (Ethernet, InfiniBand), got \"Token Ring\""), std::string::npos)
      << r.error().message;
}

// Old snapshots wrote no source kind, or an empty one: they read as "snapshot".
TEST(SnapshotJson, EmptySourceKindReadsAsSnapshot) {
  nlohmann::json j = snapshot_to_json(sample());
  j["source"]["kind"] = "";
  Result<Snapshot> r = snapshot_from_json(j);
  ASSERT_TRUE(r.has_value()) << r.error().describe();
  EXPECT_EQ(r->source.kind, SourceKind::snapshot);
}

// Before the typed vocabulary an Ethernet GID without a type column was written as "".
TEST(SnapshotJson, UntypedGidOfAnOlderSnapshotReadsAsNoType) {
  nlohmann::json j = snapshot_to_json(sample());
  j["rdma_devices"][0]["ports"][0]["gids"] = {
      {"value", {{{"index", 0}, {"gid", "fe80:0000:0000:0000:0202:c9ff:fe00:0001"}, {"type", ""}},
                 {{"index", 3}, {"gid", "0000:0000:0000:0000:0000:ffff:0a00:0001"}, {"ipv4", "10.0.0.1"},
                  {"type", "RoCE v2"}, {"netdev", "eth4"}}}}};
  Result<Snapshot> r = snapshot_from_json(j);
  ASSERT_TRUE(r.has_value()) << r.error().describe();
  const std::vector<Gid>& g = *r->rdma_devices[0].ports[0].gids;
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].type, std::nullopt);
  EXPECT_EQ(g[1].type, GidType::roce_v2);
  EXPECT_EQ(g[1].ipv4, "10.0.0.1");
  EXPECT_EQ(g[1].netdev, "eth4");
}

// The error of a snapshot that must not load; `edit` breaks the sample's JSON.
template <class Edit>
std::string refusal(Edit edit) {
  nlohmann::json j = snapshot_to_json(sample());
  edit(j);
  Result<Snapshot> r = snapshot_from_json(j);
  return r.has_value() ? "(loaded)" : r.error().message;
}

// Values no host has are refused after the typed parse, at their JSON pointer.
TEST(SnapshotValidate, OutOfRangeValuesNameTheirPointer) {
  using J = nlohmann::json;
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["mtu_bytes"]["value"] = -1; }),
            "/netdevs/0/mtu_bytes/value: -1 is not an MTU (68..65535)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["mtu_bytes"]["value"] = 65536; }),
            "/netdevs/0/mtu_bytes/value: 65536 is not an MTU (68..65535)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["mtu_bytes"]["value"] = 67; }),
            "/netdevs/0/mtu_bytes/value: 67 is not an MTU (68..65535)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["qos"]["value"]["dscp_to_priority"] = J::parse("[[26, 9]]"); }),
            "/netdevs/0/qos/value/dscp_to_priority: DSCP 26 maps to 9, not a priority (0..7)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["qos"]["value"]["dscp_to_priority"] = J::parse("[[64, 3]]"); }),
            "/netdevs/0/qos/value/dscp_to_priority: 64 is not a DSCP (0..63)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["qos"]["value"]["pfc_enabled"] = J::parse("[false, true, false, true, false]"); }),
            "/netdevs/0/qos/value/pfc_enabled: 5 entries, not 8 (one per priority 0..7)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["qos"]["value"]["priority_to_tc"] = J::parse("[0, 1, 8, 3, 4, 5, 6, 7]"); }),
            "/netdevs/0/qos/value/priority_to_tc/2: 8 is not a traffic class (0..7)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["qos"]["value"]["priority_to_buffer"] = J::parse("[0, 0, 0, 1]"); }),
            "/netdevs/0/qos/value/priority_to_buffer: 4 entries, not 8 (one per priority 0..7)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["ecn"] = J::parse(R"({"value": {"rp_enabled": [[8, true]], "np_enabled": []}})"); }),
            "/netdevs/0/ecn/value/rp_enabled: 8 is not a priority (0..7)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["rdma_port"] = 0; }),
            "/netdevs/0/rdma_port: 0 is not a port number (1 or more)");
  EXPECT_EQ(refusal([](J& j) { j["rdma_devices"][0]["ports"][0]["port"] = -1; }),
            "/rdma_devices/0/ports/0/port: -1 is not a port number (1 or more)");
  EXPECT_EQ(refusal([](J& j) { j["pci_functions"] = J::parse(R"([{"bdf": "0000:3b:00.0", "max_read_request_bytes": {"value": 3000}}])"); }),
            "/pci_functions/0/max_read_request_bytes/value: 3000 is not a MaxReadReq (a power of two, 128..4096)");
  EXPECT_EQ(refusal([](J& j) { j["pci_functions"] = J::parse(R"([{"bdf": "0000:3b:00.0", "max_read_request_bytes": {"value": 8192}}])"); }),
            "/pci_functions/0/max_read_request_bytes/value: 8192 is not a MaxReadReq (a power of two, 128..4096)");
}

// An integer field takes a JSON integer in its type's range: a larger one must not wrap
// (2^32 + 9000 read as 9000) and a fraction must not be cut (4200.9 read as 4200).
TEST(SnapshotJson, IntegerFieldRefusesWhatItCannotHoldNamingTheField) {
  using J = nlohmann::json;
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["mtu_bytes"]["value"] = 4294976296; }),
            "bad snapshot field: (/netdevs/0/mtu_bytes/value) 4294976296 is out of range for this field "
            "(-2147483648..2147483647)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["mtu_bytes"]["value"] = 4200.9; }),
            "bad snapshot field: (/netdevs/0/mtu_bytes/value) expected an integer, got 4200.9");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["mtu_bytes"]["value"] = 9000.0; }),
            "bad snapshot field: (/netdevs/0/mtu_bytes/value) expected an integer, got 9000.0");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["mtu_bytes"]["value"] = true; }),
            "bad snapshot field: (/netdevs/0/mtu_bytes/value) expected an integer, got true");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["rdma_port"] = -4294967295; }),
            "bad snapshot field: (/netdevs/0/rdma_port) -4294967295 is out of range for this field "
            "(-2147483648..2147483647)");
  // Inside containers: an array element, a [key, value] pair of a map, a GID.
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["qos"]["value"]["priority_to_tc"] = J::parse("[0, 1, 4294967298, 3, 4, 5, 6, 7]"); }),
            "bad snapshot field: (/netdevs/0/qos/value/priority_to_tc/2) 4294967298 is out of range for this field "
            "(-2147483648..2147483647)");
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["qos"]["value"]["dscp_to_priority"] = J::parse("[[26, 3.5]]"); }),
            "bad snapshot field: (/netdevs/0/qos/value/dscp_to_priority/0/1) expected an integer, got 3.5");
  EXPECT_EQ(refusal([](J& j) { j["rdma_devices"][0]["ports"][0]["gids"] = J::parse(R"({"value": [{"index": 2.5}]})"); }),
            "bad snapshot field: (/rdma_devices/0/ports/0/gids/value/0/index) expected an integer, got 2.5");
  EXPECT_EQ(refusal([](J& j) { j["numa_cpu_count"] = J::parse(R"({"value": [[0, 4294967360]]})"); }),
            "bad snapshot field: (/numa_cpu_count/value/0/1) 4294967360 is out of range for this field "
            "(-2147483648..2147483647)");
  // An unsigned counter takes no negative value.
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["stats"] = J::parse(R"({"value": {"rx_bytes": -1}})"); }),
            "bad snapshot field: (/netdevs/0/stats/value/rx_bytes) -1 is out of range for this field "
            "(0..18446744073709551615)");
  // The largest values of the fields still load.
  EXPECT_EQ(refusal([](J& j) {
              j["netdevs"][0]["stats"] = J::parse(R"({"value": {"rx_bytes": 18446744073709551615}})");
              j["numa_cpu_count"] = J::parse(R"({"value": [[0, 2147483647]]})");
            }),
            "(loaded)");
}

// A Collected section is an object; anything else is an error naming its key, not "not collected".
TEST(SnapshotJson, CollectedSectionNotAnObjectIsAnErrorNamingTheKey) {
  using J = nlohmann::json;
  EXPECT_EQ(refusal([](J& j) { j["netdevs"][0]["mtu_bytes"] = 9000; }),
            R"(bad snapshot field: (/netdevs/0/mtu_bytes) expected an object ({"value": ...} or {"value": null, "reason": ...}), got 9000)");
  EXPECT_EQ(refusal([](J& j) { j["numa_cpu_count"] = J::parse("[[0, 64]]"); }),
            R"(bad snapshot field: (/numa_cpu_count) expected an object ({"value": ...} or {"value": null, "reason": ...}), got [[0,64]])");
  EXPECT_EQ(refusal([](J& j) { j["rdma_devices"][0]["ports"][0]["state"] = "ACTIVE"; }),
            R"(bad snapshot field: (/rdma_devices/0/ports/0/state) expected an object ({"value": ...} or {"value": null, "reason": ...}), got "ACTIVE")");
}

// A key repeated in one object: the last one is read (as JSON parsers do), and the snapshot's
// inputs say which key, where, and in which file.
TEST(SnapshotJson, RepeatedKeyIsSaidNamingTheKeyAndFile) {
  const std::string text = R"({"schema_version": 7, "hostname": "a", "hostname": "b",
    "netdevs": [{"name": "eth0"}, {"name": "eth4", "mtu_bytes": {"value": 1500, "value": 9000},
                                   "stats": {"value": {"rx": 1}}}],
    "rdma_devices": [{"name": "mlx5_0", "ports": [{"port": 1, "counters": {"value": {"x": 1, "x": 2}}}]}]})";
  Result<Snapshot> r = snapshot_from_json_text(text, false, "node-a.json");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->hostname, "b");
  EXPECT_EQ(r->netdevs.at(1).mtu_bytes.value, 9000);
  ASSERT_EQ(r->inputs.size(), 1u);
  EXPECT_EQ(r->inputs[0].file, "node-a.json");
  EXPECT_EQ(r->inputs[0].status, "parsed_with_warnings");
  EXPECT_EQ(r->inputs[0].messages,
            (std::vector<std::string>{
                "node-a.json: key \"hostname\" appears twice in /: the last one is used",
                "node-a.json: key \"value\" appears twice in /netdevs/1/mtu_bytes: the last one is used",
                "node-a.json: key \"x\" appears twice in /rdma_devices/0/ports/0/counters/value: the last one is used"}));
  // Without counters (rocekit fleet): the same places, counters' keys being dropped unread.
  Result<Snapshot> lean = snapshot_from_json_text(text, true, "node-a.json");
  ASSERT_TRUE(lean) << lean.error().message;
  ASSERT_EQ(lean->inputs.size(), 1u);
  EXPECT_EQ(lean->inputs[0].messages.at(1),
            "node-a.json: key \"value\" appears twice in /netdevs/1/mtu_bytes: the last one is used");
  // A document without repeated keys adds no input.
  Result<Snapshot> plain = snapshot_from_json_text(snapshot_to_json(sample()).dump(), false, "x.json");
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_TRUE(plain->inputs.empty());
}

TEST(SnapshotValidate, NameThatAppearsTwiceNamesBoth) {
  using J = nlohmann::json;
  EXPECT_EQ(refusal([](J& j) {
              J other = j["netdevs"][0];
              other["name"] = "eth5";
              j["netdevs"].push_back(other);
              j["netdevs"].push_back(j["netdevs"][0]);
            }),
            "/netdevs/2/name: netdev \"eth4\" appears twice (also /netdevs/0)");
  EXPECT_EQ(refusal([](J& j) { j["rdma_devices"].push_back(j["rdma_devices"][0]); }),
            "/rdma_devices/1/name: RDMA device \"mlx5_0\" appears twice (also /rdma_devices/0)");
  EXPECT_EQ(refusal([](J& j) { j["rdma_devices"][0]["ports"].push_back(j["rdma_devices"][0]["ports"][0]); }),
            "/rdma_devices/0/ports/1/port: port 1 appears twice (also /rdma_devices/0/ports/0)");
  // One PCI function however its address is spelt.
  EXPECT_EQ(refusal([](J& j) { j["pci_functions"] = J::parse(R"([{"bdf": "0000:3b:00.0"}, {"bdf": "3B:00.0"}])"); }),
            "/pci_functions/1/bdf: PCI function \"0000:3b:00.0\" appears twice (also /pci_functions/0)");
}

// The PCIe tree: bridges once each, bus numbers in range, parent links that end; GPUs once each
// by index and by address, never at a NIC's address.
TEST(SnapshotValidate, PciTreeAndGpus) {
  using J = nlohmann::json;
  const J bridge = J::parse(R"({"bdf": "0000:02:00.0", "parent_bdf": "0000:01:00.0", "secondary_bus": 3, "subordinate_bus": 3})");
  auto with_bridges = [&](J list) { return [list](J& j) { j["pci_bridges"] = {{"value", list}}; }; };
  J two = J::array({bridge, J::parse(R"({"bdf": "2:00.0"})")});
  EXPECT_EQ(refusal(with_bridges(two)), "/pci_bridges/value/1/bdf: PCI bridge \"0000:02:00.0\" appears twice (also /pci_bridges/value/0)");
  J big = J::array({bridge});
  big[0]["subordinate_bus"] = 256;
  EXPECT_EQ(refusal(with_bridges(big)), "/pci_bridges/value/0/subordinate_bus: 256 is not a bus number (0..255)");
  J loop = J::array({bridge, J::parse(R"({"bdf": "0000:01:00.0", "parent_bdf": "0000:02:00.0"})")});
  EXPECT_EQ(refusal(with_bridges(loop)), "/pci_bridges/value/0/parent_bdf: the parent_bdf links form a loop");
  auto with_gpus = [](J list) { return [list](J& j) { j["gpus"] = {{"value", list}}; }; };
  EXPECT_EQ(refusal(with_gpus(J::parse(R"([{"index": 0, "bdf": "0000:1b:00.0"}, {"index": 0, "bdf": "0000:43:00.0"}])"))),
            "/gpus/value/1/index: GPU index 0 appears twice (also /gpus/value/0)");
  EXPECT_EQ(refusal(with_gpus(J::parse(R"([{"index": 0, "bdf": "0000:1b:00.0"}, {"index": 1, "bdf": "1b:00.0"}])"))),
            "/gpus/value/1/bdf: GPU PCI address \"0000:1b:00.0\" appears twice (also /gpus/value/0)");
  EXPECT_EQ(refusal(with_gpus(J::parse(R"([{"index": 0, "bdf": "0000:zz:00.0"}])"))),
            "/gpus/value/0/bdf: \"0000:zz:00.0\" is not a PCI address");
}

// The edges of each range load.
TEST(SnapshotValidate, ValuesAtTheEdgesLoad) {
  nlohmann::json j = snapshot_to_json(sample());
  j["netdevs"][0]["mtu_bytes"]["value"] = 68;
  j["netdevs"][0]["qos"]["value"]["dscp_to_priority"] = nlohmann::json::parse("[[0, 0], [63, 7]]");
  j["pci_functions"] = nlohmann::json::parse(R"([{"bdf": "0000:3b:00.0", "max_read_request_bytes": {"value": 128}},
                                                 {"bdf": "0000:3b:00.1", "max_read_request_bytes": {"value": 4096}}])");
  Result<Snapshot> r = snapshot_from_json(j);
  ASSERT_TRUE(r.has_value()) << r.error().describe();
  j["netdevs"][0]["mtu_bytes"]["value"] = 65535;
  EXPECT_TRUE(snapshot_from_json(j).has_value());
}

TEST(Vocabulary, ParsesEveryToolSpelling) {
  EXPECT_EQ(port_state_from_string("4: ACTIVE"), PortState::active);   // sysfs ports/<p>/state
  EXPECT_EQ(port_state_from_string("PORT_ACTIVE"), PortState::active);  // ibv_devinfo
  EXPECT_EQ(port_state_from_string("1: DOWN"), PortState::down);
  EXPECT_EQ(port_state_from_string("ACTIVE_DEFER"), PortState::active_defer);
  EXPECT_EQ(port_state_from_string("UP"), std::nullopt);
  EXPECT_EQ(link_layer_from_string("InfiniBand"), LinkLayer::infiniband);
  EXPECT_EQ(link_layer_from_string("Ethernet\n"), LinkLayer::ethernet);
  EXPECT_EQ(gid_type_from_string("IB/RoCE v1"), GidType::roce_v1);  // sysfs gid_attrs/types
  EXPECT_EQ(gid_type_from_string("RoCE v2"), GidType::roce_v2);
  EXPECT_EQ(gid_type_from_string("v2"), std::nullopt);
  EXPECT_EQ(trust_from_string("DSCP"), Trust::dscp);
  EXPECT_EQ(to_string(GidType::roce_v2), "RoCE v2");
  EXPECT_EQ(to_string(PortState::active), "ACTIVE");
  EXPECT_EQ(to_string(ReasonKind::needs_root), "needs_root");
  // Every value parses back from its own spelling, the last one included.
  EXPECT_EQ(port_state_from_string(to_string(PortState::unknown)), PortState::unknown);
  EXPECT_EQ(reason_kind_from_string(to_string(ReasonKind::unreadable)), ReasonKind::unreadable);
  EXPECT_EQ(source_kind_from_string(to_string(SourceKind::live)), SourceKind::live);
  EXPECT_EQ(reason_kind_from_string("?"), std::nullopt);
}

TEST(SnapshotJson, NotASnapshotIsAnError) {
  Result<Snapshot> r = snapshot_from_json(nlohmann::json{{"hostname", "x"}});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::malformed_input);
}

}  // namespace
}  // namespace rk

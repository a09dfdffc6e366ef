// rocekit diagnose: deltas (wrap, reset, missing counters), every cause, the healthy case, and
// the live sysfs sampler. Counter pairs start from real captured counter sets in
// testdata/corpus (ethtool_S, sysfs show_counters, rdma statistic) and add deltas.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "golden.hpp"
#include "rocekit/collect/collect.hpp"
#include "rocekit/collect/command_runner.hpp"
#include "rocekit/diagnose/diagnose.hpp"
#include "rocekit/parse/ethtool_stats.hpp"
#include "rocekit/parse/rdma_statistic.hpp"
#include "rocekit/parse/show_counters.hpp"

namespace rk::diagnose {
namespace {

using Counters = std::map<std::string, std::uint64_t>;

Counters ethtool_set(const std::string& corpus) {
  auto r = parse::parse_ethtool_stats(test::corpus_body(corpus));
  EXPECT_TRUE(r.has_value()) << corpus;
  Counters m;
  for (const parse::EthtoolStat& s : r->value.counters)
    if (!s.ring) m[s.name] = s.value;
  return m;
}

Counters show_counters_set(const std::string& corpus) {
  auto r = parse::parse_show_counters(test::corpus_body(corpus));
  EXPECT_TRUE(r.has_value()) << corpus;
  return r->value.ports.at(0).hw_counters;
}

Counters merge(Counters a, const Counters& b) {
  for (const auto& [k, v] : b) a[k] = v;
  return a;
}

/// The real full mlx5 set (ConnectX-4 Lx, PFC off: no rx_prio<N>_pause keys).
Counters mlx5_full() { return ethtool_set("ethtool_S/ethq-fixture-mlx5-cx4lx-k4.15.txt"); }

/// The same set as mlx5 prints it once PFC is on for priority `p` (en_stats.c adds these keys
/// only for PFC-enabled priorities, monitoring.md §3.1).
Counters with_pfc_keys(Counters m, int p, std::uint64_t rx_pause = 0) {
  std::string pr = "prio" + std::to_string(p);
  m["rx_" + pr + "_pause"] = rx_pause;
  m["rx_" + pr + "_pause_duration"] = rx_pause * 3;
  m["tx_" + pr + "_pause"] = 0;
  m["tx_" + pr + "_pause_duration"] = 0;
  m["rx_" + pr + "_pause_transition"] = rx_pause / 2;
  return m;
}

Snapshot sample(const Counters& eth, const std::optional<Counters>& rdma, const std::string& at) {
  Snapshot s;
  s.hostname = "gpu-node-17";
  s.collected_at = at;
  NetDev& n = s.netdev("eth0");
  n.stats.value = eth;
  n.stats.source = {"ethtool_S@eth0.txt", 0, ""};
  if (rdma) {
    n.rdma_device = "mlx5_0";
    n.rdma_port = 1;
    RdmaPort p;
    p.port = 1;
    p.counters.value = *rdma;
    s.rdma("mlx5_0").ports.push_back(p);
  }
  return s;
}

constexpr const char* k_t0 = "2026-11-30T04:00:00Z";
constexpr const char* k_t1 = "2026-11-30T04:01:00Z";  // 60 s later

Diagnosis run(const Counters& eb, const Counters& ea, const std::optional<Counters>& rb,
              const std::optional<Counters>& ra, Policy p = {}) {
  std::vector<Snapshot> v{sample(eb, rb, k_t0), sample(ea, ra, k_t1)};
  Result<Window> w = build_window(v, 0, "");
  EXPECT_TRUE(w.has_value()) << (w ? "" : w.error().describe());
  return diagnose(*w, p);
}

const Cause* find(const Diagnosis& d, const std::string& id) {
  for (const Cause& c : d.causes)
    if (c.id == id) return &c;
  return nullptr;
}

const CounterEvidence* ev(const Cause& c, const std::string& counter) {
  for (const CounterEvidence& e : c.evidence)
    if (e.counter == counter) return &e;
  return nullptr;
}

std::string ids(const Diagnosis& d) {
  std::string s;
  for (const Cause& c : d.causes) s += c.id + " ";
  return s;
}

// ------------------------------------------------------------------ deltas -------------------

TEST(DiagnoseDeltas, ThirtyTwoBitHwCounterWrapIsDetectedAndCounted) {
  Counters before = show_counters_set("sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt");
  ASSERT_EQ(before.at("out_of_sequence"), 1811101u);
  before["out_of_sequence"] = 4294967000u;  // near 2^32
  Counters after = before;
  after["out_of_sequence"] = 200;
  CounterTable t = compare_tables({&before, &after}, 60, true);
  const CounterDelta* d = t.find("out_of_sequence");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->status, DeltaStatus::wrapped);
  EXPECT_EQ(d->delta, 496u);  // 200 + 2^32 - 4294967000
  EXPECT_NEAR(d->rate_per_s, 496.0 / 60, 1e-9);
}

TEST(DiagnoseDeltas, LargeDecreaseIsAResetNotAWrap) {
  Counters before = show_counters_set("sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt");
  Counters after = before;
  after["out_of_sequence"] = 5;                 // 1811101 -> 5: driver reload
  after["np_ecn_marked_roce_packets"] = 1000;   // 64-bit counter: any decrease is a reset
  CounterTable t = compare_tables({&before, &after}, 60, true);
  EXPECT_EQ(t.find("out_of_sequence")->status, DeltaStatus::reset);
  EXPECT_EQ(t.find("out_of_sequence")->delta, 5u);
  EXPECT_EQ(t.find("np_ecn_marked_roce_packets")->status, DeltaStatus::reset);
  EXPECT_EQ(t.find("np_ecn_marked_roce_packets")->delta, 1000u);
  // ethtool -S counters are 64-bit: a decrease is a reset even below 2^32.
  EXPECT_EQ(compare_counter("rx_discards_phy", 4294967000u, 200, false).status, DeltaStatus::reset);
}

TEST(DiagnoseDeltas, WrapInTheMiddleOfThreeSamplesIsSummedPairByPair) {
  Counters a{{"packet_seq_err", 4294967290u}};
  Counters b{{"packet_seq_err", 10}};
  Counters c{{"packet_seq_err", 30}};
  CounterTable t = compare_tables({&a, &b, &c}, 20, true);
  EXPECT_EQ(t.find("packet_seq_err")->status, DeltaStatus::wrapped);
  EXPECT_EQ(t.find("packet_seq_err")->delta, 36u);  // 6 to the wrap + 10 + 20
}

TEST(DiagnoseDeltas, CounterThatDisappearsOrAppearsIsSaid) {
  Counters before = with_pfc_keys(mlx5_full(), 3, 1000);
  Counters after = mlx5_full();  // PFC turned off in between: the prio3 pause keys vanish
  after["rx_prio4_pause"] = 7;   // and appear on priority 4
  std::vector<Snapshot> v{sample(before, std::nullopt, k_t0), sample(after, std::nullopt, k_t1)};
  Result<Window> w = build_window(v, 0, "");
  ASSERT_TRUE(w.has_value());
  const CounterDelta* d = w->links.at(0).eth.find("rx_prio3_pause");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->status, DeltaStatus::disappeared);
  EXPECT_FALSE(w->links.at(0).eth.delta("rx_prio3_pause").has_value());
  std::string notes;
  for (const std::string& n : w->notes) notes += n + "\n";
  EXPECT_NE(notes.find("eth0: counter rx_prio3_pause present before (1000) and missing after"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("eth0: counter rx_prio4_pause missing before and present after (7)"),
            std::string::npos)
      << notes;
}

TEST(DiagnoseDeltas, ASampleWithNoCountersAtAllIsAnError) {
  Counters e = ethtool_set("ethtool_S/cn-notes-cx4lx-grep-pause-zero.txt");
  Snapshot bare = sample(e, std::nullopt, k_t1);
  bare.netdev("eth0").stats = Collected<std::map<std::string, std::uint64_t>>::missing("not captured");
  EXPECT_FALSE(has_counters(bare));
  std::vector<Snapshot> v{sample(e, std::nullopt, k_t0), bare};
  EXPECT_TRUE(has_counters(v[0]));
  Result<Window> w = build_window(v, 0, "");
  ASSERT_FALSE(w.has_value());
  EXPECT_EQ(w.error().message,
            "sample 2 of 2 has no counters at all (need ethtool -S, hw_counters, show_counters or "
            "rdma statistic output)");
}

TEST(DiagnoseDeltas, IntervalFromCollectedAtOrFlagElseAnError) {
  Counters e = ethtool_set("ethtool_S/cn-notes-cx4lx-grep-pause-zero.txt");
  std::vector<Snapshot> v{sample(e, std::nullopt, k_t0), sample(e, std::nullopt, k_t1)};
  EXPECT_DOUBLE_EQ(build_window(v, 0, "")->interval_s, 60);
  EXPECT_EQ(build_window(v, 0, "")->interval_source, "collected_at");
  EXPECT_DOUBLE_EQ(build_window(v, 7.5, "--interval")->interval_s, 7.5);
  v[0].collected_at.clear();
  Result<Window> w = build_window(v, 0, "");
  ASSERT_FALSE(w.has_value());
  EXPECT_NE(w.error().message.find("--interval DURATION"), std::string::npos);
  v[0].collected_at = k_t1;
  v[1].collected_at = k_t0;
  EXPECT_FALSE(build_window(v, 0, "").has_value());  // reversed order
  v[1].hostname = "other";
  EXPECT_NE(build_window(v, 5, "x").error().message.find("different hosts"), std::string::npos);
  EXPECT_EQ(parse_utc_timestamp("2026-11-30T04:01:00Z").value() -
                parse_utc_timestamp("2026-11-30T04:00:00Z").value(),
            60);
  EXPECT_FALSE(parse_utc_timestamp("yesterday").has_value());
}

TEST(DiagnoseDeltas, LinkedRdmaPortWithoutCountersSaysWhyAndIsNotGuessed) {
  Counters e = mlx5_full();
  Counters r = show_counters_set("sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt");
  std::vector<Snapshot> v{sample(e, r, k_t0), sample(e, r, k_t1)};
  for (Snapshot& s : v) {
    s.find_netdev("eth0")->rdma_device = "mlx5_1";  // linked to a port with no counters
    s.rdma("mlx5_1").ports.push_back(RdmaPort{});
    s.rdma("mlx5_1").ports.back().counters.reason = "not captured (no hw_counters)";
  }
  Result<Window> w = build_window(v, 0, "");
  ASSERT_TRUE(w.has_value());
  ASSERT_EQ(w->links.size(), 2u);
  EXPECT_EQ(w->links[0].subject(), "eth0 (mlx5_1/1)");
  EXPECT_FALSE(w->links[0].rdma.available);
  EXPECT_NE(w->links[0].rdma.reason.find("not captured (no hw_counters)"), std::string::npos)
      << w->links[0].rdma.reason;
  EXPECT_EQ(w->links[1].subject(), "mlx5_0/1");  // the other port stays on its own
}

/// `rocekit collect --root testdata/sysroots/<name>`: sysfs only, no ethtool -S.
Snapshot collect_sysroot(const std::string& name, const std::string& at) {
  collect::NoToolsRunner runner("vendor tools not requested");
  collect::CollectRequest req;
  Snapshot s = collect::collect_snapshot(
      req, collect::HostView(test::testdata_dir() / "sysroots" / name), runner);
  s.collected_at = at;
  return s;
}

std::uint64_t& hw_counter(Snapshot& s, const std::string& dev, const std::string& name) {
  for (RdmaDevice& d : s.rdma_devices)
    if (d.name == dev) return d.ports.at(0).counters.value->at(name);
  throw std::runtime_error("no RDMA device " + dev);
}

TEST(DiagnoseDeltas, CollectedSnapshotsPairPortsWithNetdevsAndUseTheirPfcState) {
  // Two collects of the DGX tree: hw_counters per port, netdevs without ethtool -S, PFC from
  // sysfs qos/pfc. AFTER: mlx5_0/1 out_of_sequence +6000.
  std::vector<Snapshot> v{collect_sysroot("dgx-h100-8gpu-8nic", k_t0),
                          collect_sysroot("dgx-h100-8gpu-8nic", k_t1)};
  hw_counter(v[1], "mlx5_0", "out_of_sequence") += 6000;
  Result<Window> w = build_window(v, 0, "");
  ASSERT_TRUE(w.has_value()) << w.error().describe();
  const LinkDeltas* l = nullptr;
  for (const LinkDeltas& x : w->links) {
    EXPECT_FALSE(x.netdev.empty()) << x.rdma_port << ": every port has its netdev";
    if (x.rdma_port == "mlx5_0/1") l = &x;
  }
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->subject(), "enp24s0np0 (mlx5_0/1)");
  EXPECT_EQ(l->pairing_note, "paired by the snapshot's netdev/RDMA link");
  EXPECT_FALSE(l->eth.available);
  EXPECT_NE(l->eth.reason.find("ethtool statistics not collected"), std::string::npos) << l->eth.reason;
  ASSERT_TRUE(l->pfc_enabled.has_value());
  ASSERT_EQ(l->pfc_enabled->size(), 8u);
  EXPECT_EQ(l->pfc_source, "/sys/class/net/enp24s0np0/qos/pfc");
  ASSERT_TRUE(l->rdma.available);
  EXPECT_EQ(l->rdma.delta("out_of_sequence"), 6000u);

  Diagnosis d = diagnose(*w, Policy{});
  bool pfc3 = (*l->pfc_enabled)[3];
  const Cause* c = find(d, pfc3 ? "diag.retransmission-despite-pfc" : "diag.lossy-retransmission");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->subject, "enp24s0np0 (mlx5_0/1)");
  EXPECT_NE(c->summary.find("PFC state from /sys/class/net/enp24s0np0/qos/pfc"), std::string::npos)
      << c->summary;
  EXPECT_EQ(find(d, "diag.retransmission"), nullptr) << "PFC state must be known: " << ids(d);
}

TEST(DiagnoseDeltas, CollectedSnapshotsOfDifferentHostsAreRefused) {
  // cx4lx-4port has no hostname: the RDMA device mlx5_0 exists in both with another node_guid.
  std::vector<Snapshot> v{collect_sysroot("cx4lx-4port", k_t0),
                          collect_sysroot("dgx-h100-8gpu-8nic", k_t1)};
  ASSERT_TRUE(v[0].hostname.empty());
  Result<Window> w = build_window(v, 0, "");
  ASSERT_FALSE(w.has_value());
  EXPECT_EQ(w.error().message,
            "the samples come from different hosts: RDMA device mlx5_0 has node_guid "
            "0200:0003:0000:0011 in one sample and 0200:0003:0000:1a00 in the other");
  // Same host twice without a hostname: accepted.
  std::vector<Snapshot> same{collect_sysroot("cx4lx-4port", k_t0), collect_sysroot("cx4lx-4port", k_t1)};
  EXPECT_TRUE(build_window(same, 0, "").has_value());
  // No GUIDs: a PCI function at the same BDF with another vendor:device is another host.
  for (Snapshot& s : same)
    for (RdmaDevice& d : s.rdma_devices) d.node_guid = d.sys_image_guid = std::nullopt;
  EXPECT_TRUE(build_window(same, 0, "").has_value());
  ASSERT_FALSE(same[1].pci_functions.empty());
  PciFunction& f = same[1].pci_functions.front();
  ASSERT_TRUE(f.vendor_id && f.device_id);
  f.device_id = 0xdead;
  f.vendor_id = 0x15b3;
  Result<Window> w2 = build_window(same, 0, "");
  ASSERT_FALSE(w2.has_value());
  EXPECT_NE(w2.error().message.find("PCI function " + f.bdf + " is "), std::string::npos)
      << w2.error().message;
  EXPECT_NE(w2.error().message.find("15b3:dead in the other"), std::string::npos) << w2.error().message;
  // Both hostnames present and different: refused by name.
  same[0].hostname = "a";
  same[1].hostname = "b";
  EXPECT_EQ(build_window(same, 0, "").error().message, "the samples come from different hosts (a, b)");
}

// ------------------------------------------------------------------ causes -------------------

TEST(DiagnoseRules, HealthyIncastPausesOnRocePriorityWithCnpsIsNotAFault) {
  Counters rdma_b = show_counters_set("sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt");
  Counters eb = with_pfc_keys(mlx5_full(), 3, 1000);
  Counters ea = eb;
  ea["rx_prio3_pause"] += 6000;  // 100 pauses/s on the RoCE priority
  ea["rx_prio3_bytes"] += 60'000'000'000;
  ea["rx_vport_rdma_unicast_bytes"] += 59'000'000'000;
  Counters ra = rdma_b;
  ra["np_ecn_marked_roce_packets"] += 120000;
  ra["np_cnp_sent"] += 6000;
  ra["rx_write_requests"] += 900000;
  Diagnosis d = run(eb, ea, rdma_b, ra);
  ASSERT_EQ(d.causes.size(), 1u) << ids(d);
  EXPECT_EQ(d.causes[0].id, "diag.incast-pfc-with-ecn");
  EXPECT_EQ(d.causes[0].severity, Severity::info);
  EXPECT_FALSE(d.has_fault());
  EXPECT_NEAR(ev(d.causes[0], "rx_prio3_pause")->rate_per_s, 100, 1e-9);
  EXPECT_EQ(ev(d.causes[0], "np_cnp_sent")->delta, 6000u);
}

TEST(DiagnoseRules, PfcPausesWithNoEcnMarksNorCnps) {
  Counters rdma = show_counters_set("sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt");
  Counters eb = with_pfc_keys(mlx5_full(), 3, 1000);
  Counters ea = eb;
  ea["rx_prio3_pause"] += 30000;  // 500/s, np_/rp_ flat
  Diagnosis d = run(eb, ea, rdma, rdma);
  const Cause* c = find(d, "diag.pfc-without-ecn");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->severity, Severity::warning);
  EXPECT_NEAR(ev(*c, "rx_prio3_pause")->rate_per_s, 500, 1e-9);
  EXPECT_EQ(ev(*c, "np_cnp_sent")->delta, 0u);
  EXPECT_NE(c->next_step.find("qos.ecn-roce-priority"), std::string::npos);
  EXPECT_TRUE(d.has_fault());
}

TEST(DiagnoseRules, PolicyDiagnoseThresholdsQuietASlowPauseRate) {
  Result<Policy> p = load_policy_text("diagnose: {pfc_min_pause_per_s: 1000, storm_occupancy: 0.5}\n",
                                      "site.yaml", {});
  ASSERT_TRUE(p.has_value()) << p.error().describe();
  EXPECT_DOUBLE_EQ(p->diagnose.pfc_min_pause_per_s, 1000);
  EXPECT_NE(policy_to_yaml(*p).find("pfc_min_pause_per_s: 1000"), std::string::npos);
  Counters rdma = show_counters_set("sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt");
  Counters eb = with_pfc_keys(mlx5_full(), 3, 1000);
  Counters ea = eb;
  ea["rx_prio3_pause"] += 30000;  // 500/s: under the site's 1000/s
  EXPECT_EQ(find(run(eb, ea, rdma, rdma, *p), "diag.pfc-without-ecn"), nullptr);
  Result<Policy> bad = load_policy_text("diagnose: {storm_occupancy: 2}\n", "site.yaml", {});
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().describe().find("diagnose.storm_occupancy"), std::string::npos);
  EXPECT_FALSE(load_policy_text("diagnose: {storm: 1}\n", "site.yaml", {}).has_value());
}

TEST(DiagnoseRules, PfcPausesWithoutRdmaCountersIsUnknownNotPass) {
  Counters eb = with_pfc_keys(mlx5_full(), 3, 1000);
  Counters ea = eb;
  ea["rx_prio3_pause"] += 30000;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  EXPECT_EQ(find(d, "diag.pfc-without-ecn"), nullptr);
  bool said = false;
  for (const Unknown& u : d.unknowns)
    said = said || (u.id == "diag.pfc-without-ecn" &&
                    u.reason.find("no RDMA hw_counters") != std::string::npos);
  EXPECT_TRUE(said);
}

TEST(DiagnoseRules, PausesOnANonRocePriority) {
  Counters eb = with_pfc_keys(mlx5_full(), 4, 0);
  Counters ea = eb;
  ea["rx_prio4_pause"] += 1200;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  const Cause* c = find(d, "diag.pfc-non-roce-priority");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->confidence, Confidence::high);
  EXPECT_NE(c->summary.find("priority 4, not the RoCE priority 3"), std::string::npos);
  EXPECT_NEAR(ev(*c, "rx_prio4_pause")->rate_per_s, 20, 1e-9);
  EXPECT_EQ(ev(*c, "rx_prio3_pause")->status, "absent");
}

TEST(DiagnoseRules, GlobalPauseMovingFromTheRealGlobalPauseCapture) {
  Counters eb = ethtool_set("ethtool_S/cn-notes-cx4lx-grep-pause-tx-global-pause.txt");
  ASSERT_EQ(eb.at("tx_global_pause"), 1266552u);
  Counters ea = eb;
  ea["tx_global_pause"] += 3000;
  ea["tx_pause_ctrl_phy"] += 3000;
  ea["tx_global_pause_duration"] += 1'300'000;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  const Cause* c = find(d, "diag.global-pause");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->confidence, Confidence::high);
  EXPECT_NEAR(ev(*c, "tx_global_pause")->rate_per_s, 50, 1e-9);
  EXPECT_NE(c->next_step.find("qos.global-pause-off"), std::string::npos);
}

TEST(DiagnoseRules, PauseStormErrorIsCritical) {
  Counters eb = ethtool_set("ethtool_S/cn-notes-cx4lx-grep-pause-zero.txt");
  Counters ea = eb;
  ea["tx_pause_storm_error_events"] += 2;
  ea["tx_pause_storm_warning_events"] += 5;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  ASSERT_FALSE(d.causes.empty());
  EXPECT_EQ(d.causes[0].id, "diag.pause-storm");  // ranked first
  EXPECT_EQ(d.causes[0].severity, Severity::critical);
  EXPECT_EQ(ev(d.causes[0], "tx_pause_storm_error_events")->delta, 2u);
}

TEST(DiagnoseRules, TxPauseOccupancyNearOneIsAStormOrigin) {
  Counters eb = with_pfc_keys(mlx5_full(), 3, 0);
  Counters ea = eb;
  ea["tx_prio3_pause"] += 400000;
  ea["tx_prio3_pause_duration"] += 58'000'000;  // 58 s of 60 s paused: 96.7 %
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  const Cause* c = find(d, "diag.pause-storm");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_NE(c->summary.find("96.7%"), std::string::npos) << c->summary;
}

TEST(DiagnoseRules, EcnMarksWithNoCnpsSent) {
  Counters rb = show_counters_set("sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt");
  Counters ra = rb;
  ra["np_ecn_marked_roce_packets"] += 3'000'000;  // np_cnp_sent stays 1052612505
  Counters e = mlx5_full();
  Diagnosis d = run(e, e, rb, ra);
  const Cause* c = find(d, "diag.ecn-marks-no-cnp");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->confidence, Confidence::high);
  EXPECT_NEAR(ev(*c, "np_ecn_marked_roce_packets")->rate_per_s, 50000, 1e-6);
  EXPECT_NE(c->next_step.find("roce_np/enable/3"), std::string::npos);
}

TEST(DiagnoseRules, RpCnpIgnoredRising) {
  auto st = parse::parse_rdma_statistic(test::corpus_body("sysfs/cn-notes-rdma-statistic-show-4port.txt"));
  ASSERT_TRUE(st.has_value());
  Counters rb = st->value.ports.at(0).counters;
  ASSERT_EQ(rb.at("out_of_buffer"), 135u);
  Counters ra = rb;
  ra["rp_cnp_ignored"] += 300;
  Counters e = mlx5_full();
  Diagnosis d = run(e, e, rb, ra);
  const Cause* c = find(d, "diag.cnp-ignored");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_NEAR(ev(*c, "rp_cnp_ignored")->rate_per_s, 5, 1e-9);
}

TEST(DiagnoseRules, RetransmissionWithPfcOffIsLossyRoce) {
  Counters rb = show_counters_set("sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt");
  Counters ra = rb;
  ra["out_of_sequence"] += 6000;
  ra["np_ecn_marked_roce_packets"] += 1000;
  ra["np_cnp_sent"] += 100;
  Counters eb = merge(mlx5_full(), ethtool_set("ethtool_S/cn-notes-cx4lx-grep-discards.txt"));
  Counters ea = eb;
  ea["rx_prio3_bytes"] += 1'000'000;
  ea["rx_discards_phy"] += 600;
  Diagnosis d = run(eb, ea, rb, ra);
  const Cause* c = find(d, "diag.lossy-retransmission");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->confidence, Confidence::high);
  EXPECT_NE(c->summary.find("rx_prio3_pause absent"), std::string::npos) << c->summary;
  EXPECT_NEAR(ev(*c, "out_of_sequence")->rate_per_s, 100, 1e-9);
  EXPECT_EQ(ev(*c, "rx_discards_phy")->delta, 600u);
  EXPECT_NE(find(d, "diag.nic-rx-discards"), nullptr);
}

TEST(DiagnoseRules, RetransmissionDespitePfcAndTransportRetriesExceededIsCritical) {
  Counters rb = show_counters_set("sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt");
  rb["req_transport_retries_exceeded"] = 0;
  Counters ra = rb;
  ra["packet_seq_err"] += 120;
  ra["local_ack_timeout_err"] += 30;
  ra["req_transport_retries_exceeded"] += 2;
  Counters e = with_pfc_keys(mlx5_full(), 3, 1000);
  Diagnosis d = run(e, e, rb, ra);
  const Cause* c = find(d, "diag.retransmission-despite-pfc");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->severity, Severity::critical);
  EXPECT_EQ(ev(*c, "req_transport_retries_exceeded")->delta, 2u);
  EXPECT_EQ(d.causes[0].id, "diag.retransmission-despite-pfc");
}

TEST(DiagnoseRules, RetransmissionWithPhyErrorsIsPhysicalLoss) {
  Counters rb = show_counters_set("sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt");
  Counters ra = rb;
  ra["out_of_sequence"] += 50;
  Counters eb = mlx5_full();
  eb["rx_crc_errors_phy"] = 0;
  Counters ea = eb;
  ea["rx_crc_errors_phy"] += 44;
  Diagnosis d = run(eb, ea, rb, ra);
  EXPECT_NE(find(d, "diag.physical-loss"), nullptr) << ids(d);
  EXPECT_EQ(find(d, "diag.lossy-retransmission"), nullptr);
}

TEST(DiagnoseRules, PerPriorityBufferDiscardsAndHostOutOfBuffer) {
  Counters eb = ethtool_set("ethtool_S/cn-notes-cx4lx-grep-discards.txt");
  eb["rx_prio3_buf_discard"] = 0;
  eb["rx_prio3_cong_discard"] = 0;
  Counters ea = eb;
  ea["rx_prio3_buf_discard"] += 90;
  ea["rx_prio3_cong_discard"] += 30;
  ea["rx_out_of_buffer"] += 240;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  const Cause* c = find(d, "diag.nic-rx-discards");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(ev(*c, "rx_prio3_buf_discard")->delta, 90u);
  EXPECT_EQ(ev(*c, "rx_prio3_cong_discard")->delta, 30u);
  const Cause* h = find(d, "diag.host-rx-out-of-buffer");
  ASSERT_NE(h, nullptr);
  EXPECT_NEAR(ev(*h, "rx_out_of_buffer")->rate_per_s, 4, 1e-9);
}

TEST(DiagnoseRules, RoceTrafficLandingInPriorityZero) {
  Counters eb = merge(mlx5_full(), ethtool_set("ethtool_S/cn-notes-cx4lx-grep-rdma-vport.txt"));
  Counters ea = eb;
  ea["rx_prio0_bytes"] += 30'000'000'000;
  ea["rx_vport_rdma_unicast_bytes"] += 29'000'000'000;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  const Cause* c = find(d, "diag.roce-in-priority-0");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->confidence, Confidence::high);
  EXPECT_EQ(ev(*c, "rx_prio3_bytes")->delta, 0u);
  EXPECT_NEAR(ev(*c, "rx_prio0_bytes")->rate_per_s, 5e8, 1e-3);
  // Only TCP moving in priority 0 (no RDMA bytes): not RoCE, no cause.
  Counters tcp = eb;
  tcp["rx_prio0_bytes"] += 30'000'000'000;
  EXPECT_EQ(find(run(eb, tcp, std::nullopt, std::nullopt), "diag.roce-in-priority-0"), nullptr);
}

// RoCE by priority and direction. The base is the real ConnectX-4 Lx ethtool -S (all traffic on
// priority 0 in both directions, vport RDMA counters 0) with the real vport RDMA counters of the
// ConnectX-4 Lx RoCE bond member; AFTER, 60 s later, adds the window's traffic.
Counters roce_host() {
  Counters m = merge(mlx5_full(), ethtool_set("ethtool_S/cn-notes-cx4lx-grep-rdma-vport.txt"));
  EXPECT_EQ(m.at("rx_prio0_bytes"), 2202570777997u);
  EXPECT_EQ(m.at("tx_prio0_bytes"), 2662454044895u);
  EXPECT_EQ(m.at("rx_vport_rdma_unicast_bytes"), 343918719286u);
  EXPECT_EQ(m.at("tx_vport_rdma_unicast_bytes"), 147370719852u);
  return m;
}

/// Adds one direction's RoCE traffic on priority `p`: 4000-byte frames, the vport RDMA bytes
/// 2% under the per-priority bytes (headers).
void add_roce(Counters& m, const std::string& dir, int p, std::uint64_t bytes) {
  std::string pr = dir + "_prio" + std::to_string(p);
  m[pr + "_bytes"] += bytes;
  m[pr + "_packets"] += bytes / 4000;
  m[dir + "_vport_rdma_unicast_bytes"] += bytes / 50 * 49;
  m[dir + "_vport_rdma_unicast_packets"] += bytes / 4000;
}

std::string causes_text(const Diagnosis& d) {
  std::string s;
  for (const Cause& c : d.causes) s += c.id + ": " + c.summary + "\n";
  return s;
}

TEST(DiagnosePriority, RoceOnPriorityZeroInBothDirections) {
  Counters eb = roce_host();
  Counters ea = eb;
  add_roce(ea, "rx", 0, 30'000'000'000);
  add_roce(ea, "tx", 0, 24'000'000'000);
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  ASSERT_EQ(d.causes.size(), 1u) << causes_text(d);
  const Cause& c = d.causes[0];
  EXPECT_EQ(c.id, "diag.roce-in-priority-0");
  EXPECT_EQ(c.subject, "eth0");
  EXPECT_EQ(c.severity, Severity::warning);
  EXPECT_EQ(c.confidence, Confidence::high);
  EXPECT_EQ(c.summary,
            "transmitted and received RoCE ride priority 0, none on priority 3, with RDMA traffic "
            "flowing: RoCE rides the lossy default queue (trust pcp vs dscp, or the "
            "DSCP->priority map differs from the switch)");
  EXPECT_EQ(ev(c, "rx_prio0_bytes")->delta, 30'000'000'000u);
  EXPECT_NEAR(ev(c, "rx_prio0_bytes")->rate_per_s, 5e8, 1e-3);
  EXPECT_EQ(ev(c, "rx_prio0_packets")->delta, 7'500'000u);
  EXPECT_EQ(ev(c, "tx_prio0_bytes")->delta, 24'000'000'000u);
  EXPECT_EQ(ev(c, "tx_prio0_packets")->delta, 6'000'000u);
  EXPECT_EQ(ev(c, "rx_prio3_bytes")->delta, 0u);
  EXPECT_EQ(ev(c, "rx_prio3_bytes")->status, "ok");
  EXPECT_EQ(ev(c, "tx_prio3_bytes")->delta, 0u);
  EXPECT_EQ(ev(c, "rx_vport_rdma_unicast_bytes")->delta, 29'400'000'000u);
  EXPECT_EQ(ev(c, "tx_vport_rdma_unicast_bytes")->delta, 23'520'000'000u);
  EXPECT_NE(c.next_step.find("qos.trust-dscp"), std::string::npos) << c.next_step;
  EXPECT_NE(c.next_step.find("RoCE DSCP 26 (traffic class 104"), std::string::npos) << c.next_step;

  // The per-priority view the renderers print: only priority 0 moved.
  std::vector<PriorityTraffic> t = priority_traffic(d.window.links.at(0).eth);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].priority, 0);
  EXPECT_EQ(t[0].rx_bytes.delta, 30'000'000'000u);
  EXPECT_NEAR(t[0].rx_bytes.rate_per_s, 5e8, 1e-3);
  EXPECT_EQ(t[0].rx_packets.delta, 7'500'000u);
  EXPECT_EQ(t[0].tx_bytes.delta, 24'000'000'000u);
  EXPECT_NEAR(t[0].tx_packets.rate_per_s, 1e5, 1e-6);
}

TEST(DiagnosePriority, TransmittedRoceOnlyOnPriorityZeroMeansThisHostMarksDifferently) {
  Counters eb = roce_host();
  Counters ea = eb;
  add_roce(ea, "rx", 3, 30'000'000'000);
  add_roce(ea, "tx", 0, 24'000'000'000);
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  ASSERT_EQ(d.causes.size(), 1u) << causes_text(d);
  const Cause& c = d.causes[0];
  EXPECT_EQ(c.id, "diag.roce-in-priority-0");
  EXPECT_EQ(c.confidence, Confidence::high);
  EXPECT_EQ(c.summary,
            "transmitted RoCE leaves on priority 0, none on priority 3, with RDMA traffic flowing, "
            "while received RoCE arrives on priority 3: this host marks its RoCE differently from "
            "the peer (a traffic class applied in one direction only: the application's traffic "
            "class/DSCP, or this host's DSCP->priority map)");
  EXPECT_EQ(ev(c, "tx_prio0_bytes")->delta, 24'000'000'000u);
  EXPECT_EQ(ev(c, "tx_prio3_bytes")->delta, 0u);
  EXPECT_EQ(ev(c, "tx_vport_rdma_unicast_bytes")->delta, 23'520'000'000u);
  EXPECT_EQ(ev(c, "rx_prio3_bytes")->delta, 30'000'000'000u);  // the direction that is right
  EXPECT_EQ(ev(c, "rx_prio0_bytes"), nullptr);
  EXPECT_NE(c.next_step.find("; senders: RoCE DSCP 26"), std::string::npos) << c.next_step;
}

TEST(DiagnosePriority, ReceivedRoceOnlyOnPriorityZeroMeansThePeerMarksDifferently) {
  Counters eb = roce_host();
  Counters ea = eb;
  add_roce(ea, "rx", 0, 30'000'000'000);
  add_roce(ea, "tx", 3, 24'000'000'000);
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  ASSERT_EQ(d.causes.size(), 1u) << causes_text(d);
  const Cause& c = d.causes[0];
  EXPECT_EQ(c.id, "diag.roce-in-priority-0");
  EXPECT_EQ(c.summary,
            "received RoCE lands in priority 0, none in priority 3, with RDMA traffic flowing, "
            "while transmitted RoCE leaves on priority 3: the peer (or its application) marks "
            "RoCE differently from this host, or the switch rewrites its DSCP/PCP (a traffic "
            "class applied in one direction only)");
  EXPECT_EQ(ev(c, "rx_prio0_bytes")->delta, 30'000'000'000u);
  EXPECT_EQ(ev(c, "rx_prio3_packets")->delta, 0u);
  EXPECT_EQ(ev(c, "rx_vport_rdma_unicast_packets")->delta, 7'500'000u);
  EXPECT_EQ(ev(c, "tx_prio3_bytes")->delta, 24'000'000'000u);
  EXPECT_EQ(ev(c, "tx_prio0_bytes"), nullptr);
  EXPECT_NE(c.next_step.find("the peer's senders: RoCE DSCP 26"), std::string::npos) << c.next_step;
  EXPECT_NE(c.next_step.find("compare the peer's tx_prio<N>_bytes"), std::string::npos);
}

TEST(DiagnosePriority, RoceOnPriorityFiveWhenThePolicySaysThree) {
  Counters eb = roce_host();
  Counters ea = eb;
  add_roce(ea, "rx", 5, 30'000'000'000);
  add_roce(ea, "tx", 5, 24'000'000'000);
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  ASSERT_EQ(d.causes.size(), 1u) << causes_text(d);
  const Cause& c = d.causes[0];
  EXPECT_EQ(c.id, "diag.roce-off-policy-priority");
  EXPECT_EQ(c.confidence, Confidence::high);
  EXPECT_EQ(c.summary,
            "transmitted and received RoCE ride priority 5, none on priority 3, with RDMA traffic "
            "flowing: RoCE misses the PFC and ECN set for priority 3 (the RoCE DSCP maps to another "
            "priority here or on the switch, or the senders mark another DSCP/PCP)");
  EXPECT_EQ(ev(c, "rx_prio5_bytes")->delta, 30'000'000'000u);
  EXPECT_NEAR(ev(c, "rx_prio5_packets")->rate_per_s, 125'000, 1e-6);
  EXPECT_EQ(ev(c, "tx_prio5_bytes")->delta, 24'000'000'000u);
  EXPECT_EQ(ev(c, "rx_prio3_bytes")->delta, 0u);
  EXPECT_EQ(ev(c, "tx_prio3_bytes")->delta, 0u);
  EXPECT_NE(c.next_step.find("`mlnx_qos -i <if> --dscp2prio set,26,3`"), std::string::npos)
      << c.next_step;
  // The same counters under a policy whose RoCE priority is 5: on policy, no cause.
  Result<Policy> p5 = load_policy_text("roce: {priority: 5}\n", "site.yaml", {});
  ASSERT_TRUE(p5.has_value()) << p5.error().describe();
  Diagnosis on = run(eb, ea, std::nullopt, std::nullopt, *p5);
  EXPECT_TRUE(on.causes.empty()) << causes_text(on);
}

TEST(DiagnosePriority, PlainTcpOnPriorityZeroWithNoRdmaActivityIsNoCause) {
  // The real host as captured: TCP on priority 0, vport RDMA counters 0 and staying 0.
  Counters eb = mlx5_full();
  Counters ea = eb;
  ea["rx_prio0_bytes"] += 30'000'000'000;
  ea["rx_prio0_packets"] += 20'000'000;
  ea["tx_prio0_bytes"] += 24'000'000'000;
  ea["tx_prio0_packets"] += 16'000'000;
  Counters r = show_counters_set("sysfs/cn-notes-show_counters-mlx5_0-cx4lx.txt");
  ASSERT_EQ(r.at("rx_write_requests"), 0u);
  Diagnosis d = run(eb, ea, r, r);
  EXPECT_TRUE(d.causes.empty()) << causes_text(d);
  // The per-priority table still shows the TCP on priority 0.
  std::vector<PriorityTraffic> t = priority_traffic(d.window.links.at(0).eth);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].tx_packets.delta, 16'000'000u);
}

TEST(DiagnosePriority, UnknownRdmaActivityGivesLowConfidence) {
  Counters eb = mlx5_full();
  for (const char* n : {"rx_vport_rdma_unicast_bytes", "rx_vport_rdma_unicast_packets",
                        "tx_vport_rdma_unicast_bytes", "tx_vport_rdma_unicast_packets"})
    eb.erase(n);
  Counters ea = eb;
  ea["rx_prio0_bytes"] += 30'000'000'000;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  const Cause* c = find(d, "diag.roce-in-priority-0");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->confidence, Confidence::low);
  EXPECT_EQ(c->summary,
            "received RoCE lands in priority 0, none in priority 3 (RDMA activity unknown: may be "
            "plain TCP/UDP): RoCE rides the lossy default queue (trust pcp vs dscp, or the "
            "DSCP->priority map differs from the switch)");
  EXPECT_EQ(ev(*c, "rx_vport_rdma_unicast_bytes"), nullptr);
}

TEST(DiagnosePriority, RdmaHwCountersAloneOpenTheReceiveGate) {
  // No vport counters in ethtool -S; the real congested hw_counters show RDMA writes arriving.
  Counters eb = mlx5_full();
  for (const char* n : {"rx_vport_rdma_unicast_bytes", "rx_vport_rdma_unicast_packets"}) eb.erase(n);
  Counters ea = eb;
  ea["rx_prio0_bytes"] += 30'000'000'000;
  Counters rb = show_counters_set("sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt");
  ASSERT_EQ(rb.at("rx_write_requests"), 2402134794u);
  Counters ra = rb;
  ra["rx_write_requests"] += 900'000;
  Diagnosis d = run(eb, ea, rb, ra);
  const Cause* c = find(d, "diag.roce-in-priority-0");
  ASSERT_NE(c, nullptr) << ids(d);
  EXPECT_EQ(c->confidence, Confidence::high);
  EXPECT_EQ(c->subject, "eth0 (mlx5_0/1)");
  EXPECT_EQ(ev(*c, "rx_write_requests")->source, "rdma");
  EXPECT_EQ(ev(*c, "rx_write_requests")->delta, 900'000u);
  // The same window with the hw_counters flat: the gate is known and closed.
  EXPECT_EQ(find(run(eb, ea, rb, rb), "diag.roce-in-priority-0"), nullptr);
}

TEST(DiagnosePriority, PriorityZeroAndAnotherPriorityMovingIsAmbiguous) {
  Counters eb = roce_host();
  Counters ea = eb;
  add_roce(ea, "rx", 0, 30'000'000'000);
  ea["rx_prio5_bytes"] += 1'000'000'000;
  ea["rx_prio5_packets"] += 250'000;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  const Cause* z = find(d, "diag.roce-in-priority-0");
  const Cause* o = find(d, "diag.roce-off-policy-priority");
  ASSERT_NE(z, nullptr) << causes_text(d);
  ASSERT_NE(o, nullptr) << causes_text(d);
  EXPECT_EQ(z->confidence, Confidence::medium);
  EXPECT_EQ(o->confidence, Confidence::medium);
  EXPECT_NE(o->summary.find("received RoCE lands in priority 5, none in priority 3 (priority 0 "
                            "moved too: RoCE or other traffic)"),
            std::string::npos)
      << o->summary;
  EXPECT_EQ(ev(*o, "rx_prio0_bytes")->delta, 30'000'000'000u);
  EXPECT_EQ(ev(*o, "rx_prio5_bytes")->delta, 1'000'000'000u);
}

TEST(DiagnosePriority, RoceOnItsPriorityBesideTcpOnPriorityZeroIsHealthy) {
  Counters eb = roce_host();
  Counters ea = eb;
  add_roce(ea, "rx", 3, 30'000'000'000);
  add_roce(ea, "tx", 3, 24'000'000'000);
  ea["rx_prio0_bytes"] += 5'000'000'000;  // TCP beside it
  ea["tx_prio0_bytes"] += 5'000'000'000;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  EXPECT_TRUE(d.causes.empty()) << causes_text(d);
  EXPECT_EQ(priority_traffic(d.window.links.at(0).eth).size(), 2u);
}

TEST(DiagnoseRules, QuietRealCountersGiveNoCause) {
  Counters e = mlx5_full();
  Counters r = show_counters_set("sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt");
  Diagnosis d = run(e, e, r, r);
  EXPECT_TRUE(d.causes.empty()) << ids(d);
  EXPECT_FALSE(d.has_fault());
}

// ------------------------------------------------------------------ render / live ------------

TEST(DiagnoseRender, TextJsonMarkdownCarryCausesAndTheRateTable) {
  Counters eb = with_pfc_keys(mlx5_full(), 4, 0);
  Counters ea = eb;
  ea["rx_prio4_pause"] += 1200;
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  std::string text = render(d, Format::text);
  EXPECT_NE(text.find("diag.pfc-non-roce-priority on eth0"), std::string::npos) << text;
  EXPECT_NE(text.find("eth:rx_prio4_pause +1200 (20/s)"), std::string::npos) << text;
  EXPECT_NE(text.find("window 60 s (collected_at, 2 samples)"), std::string::npos) << text;
  nlohmann::json j = nlohmann::json::parse(render(d, Format::json));
  EXPECT_EQ(j["causes"][0]["id"], "diag.pfc-non-roce-priority");
  EXPECT_EQ(j["links"][0]["eth"]["moved"]["rx_prio4_pause"]["delta"], 1200);
  EXPECT_DOUBLE_EQ(j["links"][0]["eth"]["moved"]["rx_prio4_pause"]["rate_per_s"].get<double>(), 20);
  std::string md = render(d, Format::markdown);
  EXPECT_NE(md.find("| eth | `rx_prio4_pause` | 1200 | 20 | ok |"), std::string::npos) << md;
}

TEST(DiagnoseRender, TrafficPerPriorityMarksTheRocePriority) {
  Counters eb = roce_host();
  Counters ea = eb;
  add_roce(ea, "rx", 0, 30'000'000'000);
  add_roce(ea, "tx", 3, 24'000'000'000);
  Diagnosis d = run(eb, ea, std::nullopt, std::nullopt);
  std::string text = render(d, Format::text);
  EXPECT_NE(text.find("Traffic per priority (delta, rate/s; RoCE priority 3):\n  eth0\n"
                      "    priority  dir            bytes        bytes/s          packets      "
                      "packets/s\n"
                      "    0         rx       30000000000      500000000          7500000         "
                      "125000\n"
                      "    0         tx                 0              0                0          "
                      "    0\n"
                      "    3 (RoCE)  rx                 0              0                0          "
                      "    0\n"
                      "    3 (RoCE)  tx       24000000000      400000000          6000000         "
                      "100000\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("eth:rx_prio0_bytes +30000000000 (500000000/s)"), std::string::npos) << text;
  std::string md = render(d, Format::markdown);
  EXPECT_NE(md.find("## Traffic per priority\n\n### eth0\n\n"
                    "| priority | direction | bytes | bytes/s | packets | packets/s |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 3 (RoCE) | tx | 24000000000 | 400000000 | 6000000 | 100000 |"),
            std::string::npos)
      << md;
  nlohmann::json j = nlohmann::json::parse(render(d, Format::json));
  const nlohmann::json& pr = j["links"][0]["priorities"];
  ASSERT_EQ(pr.size(), 2u) << pr.dump();
  EXPECT_EQ(pr[0]["priority"], 0);
  EXPECT_EQ(pr[0]["is_roce_priority"], false);
  EXPECT_EQ(pr[0]["rx_bytes"]["delta"], 30000000000u);
  EXPECT_DOUBLE_EQ(pr[0]["rx_bytes"]["rate_per_s"].get<double>(), 5e8);
  EXPECT_EQ(pr[0]["tx_bytes"]["delta"], 0);
  EXPECT_EQ(pr[1]["priority"], 3);
  EXPECT_EQ(pr[1]["is_roce_priority"], true);
  EXPECT_EQ(pr[1]["tx_packets"]["delta"], 6000000);
  EXPECT_DOUBLE_EQ(pr[1]["tx_packets"]["rate_per_s"].get<double>(), 1e5);
  // -q leaves the table out, with the counter table.
  RenderOptions quiet;
  quiet.quiet = true;
  EXPECT_EQ(render(d, Format::text, quiet).find("Traffic per priority"), std::string::npos);
}

TEST(DiagnoseRender, RocePriorityThatDidNotMoveIsSaid) {
  Counters eb = mlx5_full();
  Counters ea = eb;
  ea["rx_prio0_bytes"] += 3000;
  ea["rx_prio0_packets"] += 2;
  std::string text = render(run(eb, ea, std::nullopt, std::nullopt), Format::text);
  EXPECT_NE(text.find("    RoCE priority 3: nothing moved\n"), std::string::npos) << text;
  // No per-priority counters moved: no table.
  std::string none = render(run(eb, eb, std::nullopt, std::nullopt), Format::text);
  EXPECT_EQ(none.find("Traffic per priority"), std::string::npos) << none;
}

TEST(DiagnoseLive, SamplerReadsAFixtureSysfsTree) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("rk-diag-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "sys/class/net/eth2/statistics");
  fs::create_directories(root / "sys/class/infiniband/mlx5_0/ports/1/hw_counters");
  fs::create_directories(root / "sys/class/infiniband/mlx5_0/ports/1/counters");
  fs::create_directories(root / "sys/class/infiniband/mlx5_0/device/net/eth2");
  auto put = [](const fs::path& p, const std::string& v) { std::ofstream(p) << v << "\n"; };
  put(root / "sys/class/net/eth2/statistics/rx_bytes", "2195783498134");
  put(root / "sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence", "1811101");
  put(root / "sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan", "10");
  put(root / "sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data", "99");
  Result<Snapshot> s = sample_sysfs(root.string());
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->find_netdev("eth2")->stats.value->at("rx_bytes"), 2195783498134u);
  const RdmaPort& p = s->rdma_devices.at(0).ports.at(0);
  EXPECT_EQ(p.counters.value->at("out_of_sequence"), 1811101u);
  EXPECT_EQ(p.counters.value->at("port_rcv_data"), 99u);
  EXPECT_EQ(p.netdev.value_or(""), "eth2");
  EXPECT_TRUE(s->notes.empty());
  fs::remove_all(root);
  EXPECT_FALSE(sample_sysfs(root.string()).has_value());
}

TEST(DiagnoseLive, ThisMachineHasNetdevCountersAndTheRdmaPartSaysSo) {
  if (!std::filesystem::exists("/sys/class/net/lo/statistics/rx_bytes"))
    GTEST_SKIP() << "no /sys/class/net/lo here";
  Result<Snapshot> a = sample_sysfs("/");
  ASSERT_TRUE(a.has_value());
  Result<Snapshot> b = sample_sysfs("/");
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(a->find_netdev("lo")->stats.has_value());
  std::vector<Snapshot> v{*a, *b};
  Result<Window> w = build_window(v, 1.0, "measured");
  ASSERT_TRUE(w.has_value());
  if (!std::filesystem::exists("/sys/class/infiniband")) {
    std::string notes;
    for (const std::string& n : w->notes) notes += n + "\n";
    EXPECT_NE(notes.find("no RDMA devices"), std::string::npos) << notes;
  }
}

}  // namespace
}  // namespace rk::diagnose

// rk_collect: live collection read back from fixture sysroots built from real captures
// (testdata/sysroots/README.md), from this machine's kernel, and the pure decoders.
#include <linux/ethtool.h>
#include <unistd.h>

#include <cstring>

#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden.hpp"
#include "rocekit/collect/collect.hpp"
#include "rocekit/collect/ethtool.hpp"
#include "rocekit/collect/pci_vpd.hpp"
#include "rocekit/collect/pcie_config.hpp"
#include "rocekit/model/json.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/pipeline.hpp"

namespace rk::collect {
namespace {

std::filesystem::path sysroot(const std::string& name) { return test::testdata_dir() / "sysroots" / name; }

Snapshot collect_fixture(const std::string& name) {
  NoToolsRunner runner("vendor tools not requested");
  CollectRequest req;
  return collect_snapshot(req, HostView(sysroot(name)), runner);
}

const RdmaPort& port1(const Snapshot& s, const std::string& dev) {
  for (const RdmaDevice& d : s.rdma_devices)
    if (d.name == dev) return d.ports.at(0);
  throw std::runtime_error("no RDMA device " + dev);
}

/// Every row of a bundle's expected.json, except `skip` (rules whose input sysfs does not have),
/// is reported with the same outcome for the fixture collected from that bundle's values.
void expect_findings(const Snapshot& s, const std::filesystem::path& expected_json, const std::set<std::string>& skip) {
  nlohmann::json expected = nlohmann::json::parse(test::read_file(expected_json));
  rules::Report report = rules::evaluate(s, default_policy());
  int compared = 0;
  for (const nlohmann::json& row : expected["findings"]) {
    std::string rule = row["rule"], subject = row["subject"], outcome = row["outcome"];
    if (skip.count(rule + " " + subject) || skip.count(rule)) continue;
    const Finding* found = nullptr;
    for (const Finding& f : report.findings)
      if (f.rule == rule && f.subject == subject) found = &f;
    ASSERT_NE(found, nullptr) << rule << " on " << subject << ": no finding";
    EXPECT_EQ(std::string(to_string(found->outcome)), outcome) << rule << " on " << subject << ": " << found->message;
    if (found->outcome == Outcome::fail) {
      EXPECT_FALSE(found->evidence.empty()) << rule << " " << subject;
    }
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

void expect_bundle_findings(const Snapshot& s, const std::string& bundle, const std::set<std::string>& skip) {
  expect_findings(s, test::testdata_dir() / "hosts" / bundle / "expected.json", skip);
}

// ------------------------------------------------------------------ fixtures ---------------

TEST(CollectFixture, Cx4lx4PortReadsTheCapturedValues) {
  Snapshot s = collect_fixture("cx4lx-4port");
  EXPECT_EQ(s.source.kind, SourceKind::live);
  ASSERT_EQ(s.rdma_devices.size(), 4u);
  const RdmaDevice& d0 = s.rdma_devices[0];
  EXPECT_EQ(d0.name, "mlx5_0");
  EXPECT_EQ(d0.bdf, "0000:2f:00.0");
  EXPECT_EQ(d0.fw_ver, "14.28.2006");
  EXPECT_EQ(d0.board_id, "MT_2420110034");
  EXPECT_EQ(d0.vendor_part_id, 4117u);
  EXPECT_EQ(d0.source.file, "/sys/class/infiniband/mlx5_0/fw_ver");
  EXPECT_EQ(s.rdma_devices[2].fw_ver, "14.32.1010");
  EXPECT_EQ(s.rdma_devices[3].sys_image_guid, "0200:0003:0000:0013");

  const RdmaPort& p0 = port1(s, "mlx5_0");
  ASSERT_TRUE(p0.state.has_value());
  EXPECT_EQ(*p0.state, PortState::active);
  EXPECT_EQ(p0.state.source.file, "/sys/class/infiniband/mlx5_0/ports/1/state");
  EXPECT_EQ(p0.state.source.text, "4: ACTIVE");
  EXPECT_EQ(p0.phys_state, "LinkUp");
  EXPECT_EQ(p0.link_layer, LinkLayer::ethernet);
  EXPECT_EQ(p0.netdev, "eth01");
  EXPECT_EQ(*port1(s, "mlx5_1").state, PortState::down);
  // GID table: index 3 is the IPv4-mapped RoCE v2 GID of 192.0.2.36 (show_gids line).
  ASSERT_TRUE(p0.gids.has_value());
  ASSERT_EQ(p0.gids->size(), 4u);
  const Gid& g3 = (*p0.gids)[3];
  EXPECT_EQ(g3.index, 3);
  EXPECT_EQ(g3.gid, "0000:0000:0000:0000:0000:ffff:c000:0224");
  EXPECT_EQ(g3.ipv4, "192.0.2.36");
  EXPECT_EQ(g3.type, GidType::roce_v2);
  EXPECT_EQ(g3.netdev, "eth01");
  EXPECT_EQ((*p0.gids)[0].type, GidType::roce_v1);
  EXPECT_EQ(p0.gids.source.file, "/sys/class/infiniband/mlx5_0/ports/1/gids");
  EXPECT_EQ(p0.gids.source.text, "gids/3 0000:0000:0000:0000:0000:ffff:c000:0224 RoCE v2 eth01");
  EXPECT_EQ(port1(s, "mlx5_3").gids->size(), 2u);  // only link-local GIDs
  // hw_counters (show_counters mlx5_0): out_of_buffer 135, resp_cqe_error 1009.
  ASSERT_TRUE(p0.counters.has_value());
  EXPECT_EQ(p0.counters->at("out_of_buffer"), 135u);
  EXPECT_EQ(p0.counters->at("resp_cqe_error"), 1009u);
  EXPECT_EQ(p0.counters->at("req_cqe_error"), 22u);
  // RoCE active MTU derived from the 1500-byte netdev MTU: 1024.
  EXPECT_EQ(p0.active_mtu_bytes, 1024);
  EXPECT_EQ(p0.mtu_source.file, "/sys/class/net/eth01/mtu");
  // rdma_cm configfs absent: a reason, never a value.
  EXPECT_FALSE(p0.default_roce_mode.has_value());
  EXPECT_NE(p0.default_roce_mode.reason.find("/sys/kernel/config/rdma_cm"), std::string::npos);

  const NetDev* eth01 = s.find_netdev("eth01");
  ASSERT_NE(eth01, nullptr);
  EXPECT_EQ(eth01->bdf, "0000:2f:00.0");
  EXPECT_EQ(eth01->rdma_device, "mlx5_0");
  EXPECT_EQ(*eth01->mtu_bytes, 1500);
  EXPECT_EQ(*eth01->operstate, "up");
  EXPECT_EQ(*s.find_netdev("eth02")->operstate, "down");
  ASSERT_TRUE(eth01->driver.has_value());
  EXPECT_EQ(eth01->driver->driver, "mlx5_core");
  EXPECT_EQ(eth01->driver->version, "5.0-2.1.8");
  EXPECT_FALSE(eth01->qos.has_value());
  EXPECT_FALSE(eth01->qos.reason.empty());
  EXPECT_NE(eth01->ecn.reason.find("/sys/class/net/eth01/ecn not present"), std::string::npos);
  EXPECT_EQ(eth01->ecn.reason_kind, ReasonKind::not_present);

  ASSERT_EQ(s.pci_functions.size(), 4u);
  const PciFunction* pf = s.find_pci("0000:30:00.1");
  ASSERT_NE(pf, nullptr);
  EXPECT_EQ(pf->vendor_id, 0x15b3);
  EXPECT_EQ(pf->device_id, 0x1015);
  EXPECT_EQ(pf->device_name, "ConnectX-4 Lx");
  EXPECT_EQ(pf->driver, "mlx5_core");
  EXPECT_EQ(pf->is_vf, false);
  EXPECT_FALSE(pf->link.has_value());  // no config file captured for this host
  EXPECT_NE(pf->nv_config.reason.find("not requested"), std::string::npos);
  EXPECT_EQ(pf->nv_config.reason_kind, ReasonKind::not_requested);
}

TEST(CollectFixture, Cx4lx4PortGivesTheBundleFindings) {
  expect_bundle_findings(collect_fixture("cx4lx-4port"), "cx4lx-4port-fw-mismatch", {});
}

TEST(CollectFixture, Cx7TwoPciDomains) {
  Snapshot s = collect_fixture("cx7-rocep-2domain");
  ASSERT_EQ(s.rdma_devices.size(), 4u);
  RdmaDevice* d = s.find_rdma("roceP2p1s0f0");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->bdf, "0002:01:00.0");
  EXPECT_EQ(d->fw_ver, "28.45.4028");
  EXPECT_EQ(d->vendor_part_id, 4129u);
  EXPECT_EQ(s.find_netdev("enP2p1s0f0np0")->bdf, "0002:01:00.0");
  EXPECT_EQ(port1(s, "rocep1s0f1").active_mtu_bytes, 4096);
  EXPECT_EQ(s.find_pci("0002:01:00.1")->device_name, "ConnectX-7");
  expect_bundle_findings(s, "cx7-rocep-2domain-ports-down", {});
}

TEST(CollectFixture, PcieLinkFromConfigSpace) {
  // Values of hosts/homelab-host02-cx4-100g-pcie-x8/lspci_vvv@0000:81:00.0.txt.
  Snapshot s = collect_fixture("cx4-100g-pcie-x8");
  const PciFunction* p = s.find_pci("0000:81:00.0");
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->link.has_value()) << p->link.reason;
  EXPECT_EQ(p->link->capability.speed_gts, 8.0);
  EXPECT_EQ(p->link->capability.width_lanes, 16);
  EXPECT_EQ(p->link->status.speed_gts, 8.0);
  EXPECT_EQ(p->link->status.width_lanes, 8);
  EXPECT_TRUE(p->link->status.downgraded);
  EXPECT_EQ(p->link->max_payload_bytes, 256);
  EXPECT_EQ(p->link->max_payload_cap_bytes, 512);
  EXPECT_EQ(*p->max_read_request_bytes, 4096);
  EXPECT_EQ(p->numa_node, 1);
  EXPECT_EQ(p->device_name, "ConnectX-4");
  EXPECT_EQ(p->link.source.file, "/sys/bus/pci/devices/0000:81:00.0/config");
  EXPECT_EQ(p->link.source.text, "LnkCap 8GT/s x16, LnkSta 8GT/s x8 (downgraded), MaxPayload 256 of 512, MaxReadReq 4096");
  // The card's VPD (the lspci capture's "[PN] Part number: MCX416A-CCAT") gives the catalog
  // its 2 x 100GbE, so bandwidth-feeds-ports is judged as from the capture; fw.image-state
  // needs the flint image state, which is not in sysfs.
  EXPECT_EQ(p->vpd_part_number, "MCX416A-CCAT");
  EXPECT_EQ(p->vpd_product_name, "CX416A - ConnectX-4 QSFP28");
  expect_bundle_findings(s, "homelab-host02-cx4-100g-pcie-x8", {"fw.image-state"});
}

TEST(CollectFixture, UnprivilegedConfigReadSaysNeedsRoot) {
  Snapshot s = collect_fixture("cx4-100g-pcie-x8-unprivileged");
  const PciFunction* p = s.find_pci("0000:81:00.0");
  ASSERT_NE(p, nullptr);
  EXPECT_FALSE(p->link.has_value());
  EXPECT_NE(p->link.reason.find("needs root: only 64 bytes"), std::string::npos) << p->link.reason;
  EXPECT_FALSE(p->max_read_request_bytes.has_value());
  bool noted = false;
  for (const std::string& n : s.notes) noted = noted || n.find("not readable without root") != std::string::npos;
  EXPECT_TRUE(noted);
  rules::Report r = rules::evaluate(s, default_policy());
  for (const Finding& f : r.findings)
    if (f.rule == "pcie.max-read-request" && f.subject == "0000:81:00.0") {
      EXPECT_EQ(f.outcome, Outcome::unknown);
    }
}

TEST(CollectFixture, FlashRecoveryFunctionFromTheCatalog) {
  Snapshot s = collect_fixture("oci-h100-cx7-flash-recovery");
  EXPECT_EQ(s.pci_functions.size(), 17u);
  const PciFunction* p = s.find_pci("0000:d5:00.0");
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->flash_recovery);
  EXPECT_EQ(p->driver, std::nullopt);
  EXPECT_FALSE(s.find_pci("0000:0c:00.0")->flash_recovery);
  EXPECT_EQ(s.find_pci("0000:1f:00.0")->device_name, "ConnectX-6 Dx");
  expect_bundle_findings(s, "oci-h100-cx7-flash-recovery", {});
}

TEST(CollectFixture, ProcfsMlx5AndEcnFixture) {
  Snapshot s = collect_fixture("procfs-mlx5_0-eth0-ecn");
  ASSERT_EQ(s.rdma_devices.size(), 1u);
  const RdmaDevice& d = s.rdma_devices[0];
  EXPECT_EQ(d.fw_ver, "14.28.2006");
  EXPECT_EQ(d.vendor_part_id, 4118u);
  EXPECT_EQ(d.node_guid, "0a7f:bc12:45ef:d23b");  // ttar "EOF": no trailing newline
  EXPECT_EQ(d.bdf, std::nullopt);                  // the fixture has no device link
  const RdmaPort& p = d.ports.at(0);
  EXPECT_EQ(*p.state, PortState::active);
  EXPECT_EQ(p.link_layer, LinkLayer::infiniband);
  ASSERT_TRUE(p.counters.has_value());
  EXPECT_EQ(p.counters->at("port_rcv_data"), 18126345378u);
  EXPECT_EQ(p.counters->at("out_of_sequence"), 1u);
  EXPECT_EQ(p.active_mtu_bytes, std::nullopt);  // IB port: no sysfs active_mtu
  const NetDev* eth0 = s.find_netdev("eth0");
  ASSERT_NE(eth0, nullptr);
  ASSERT_TRUE(eth0->ecn.has_value()) << eth0->ecn.reason;
  EXPECT_EQ(eth0->ecn->np_enabled.size(), 8u);
  EXPECT_FALSE(eth0->ecn->np_enabled.at(2));
  EXPECT_FALSE(eth0->ecn->np_enabled.at(5));
  EXPECT_TRUE(eth0->ecn->np_enabled.at(3));
  EXPECT_EQ(eth0->ecn.source.file, "/sys/class/net/eth0/ecn");
  EXPECT_FALSE(eth0->mtu_bytes.has_value());
  EXPECT_EQ(eth0->mtu_bytes.reason, "/sys/class/net/eth0/mtu not present");
  EXPECT_EQ(eth0->mtu_bytes.reason_kind, ReasonKind::not_present);
}

TEST(CollectFixture, ProcfsHfi1AndMlx4Fixtures) {
  Snapshot s = collect_fixture("procfs-hfi1-mlx4");
  ASSERT_EQ(s.rdma_devices.size(), 2u);
  EXPECT_EQ(s.rdma_devices[0].name, "hfi1_0");
  EXPECT_EQ(s.rdma_devices[1].ports.size(), 2u);
  Snapshot n = collect_fixture("node_exporter-i40iw-mlx4");
  ASSERT_EQ(n.rdma_devices.size(), 2u);
  EXPECT_EQ(n.rdma_devices[0].name, "i40iw0");
  for (const RdmaDevice& d : n.rdma_devices)
    for (const RdmaPort& p : d.ports) EXPECT_TRUE(p.state.has_value()) << d.name;
}

TEST(CollectFixture, TwoNumaNodesGpusAndPeermem) {
  Snapshot s = collect_fixture("v100-2gpu-4nic-2numa");
  ASSERT_TRUE(s.numa_cpu_count.has_value()) << s.numa_cpu_count.reason;
  EXPECT_EQ(*s.numa_cpu_count, (std::map<int, int>{{0, 28}, {1, 28}}));  // 0-13,28-41 / 14-27,42-55
  ASSERT_TRUE(s.gpudirect.has_value()) << s.gpudirect.reason;
  EXPECT_EQ(s.gpudirect->peermem_loaded, true);
  EXPECT_EQ(s.gpudirect.source.file, "/sys/module/nvidia_peermem");
  ASSERT_TRUE(s.kernel_modules.has_value());
  EXPECT_EQ(s.kernel_modules->size(), 4u);
  EXPECT_EQ(s.kernel_modules->front(), "nvidia_peermem");
  // GPU-NIC relations as corpus/nvidia_smi_topo/nccl-notes-v100-2gpu-4nic-mlx5-names.txt shows
  // them: "GPU0  X  SYS  PHB  PHB  SYS  SYS  0-13,28-41  0".
  ASSERT_TRUE(s.gpus.has_value()) << s.gpus.reason;
  ASSERT_EQ(s.gpus->size(), 2u);
  const Gpu& g0 = (*s.gpus)[0];
  EXPECT_EQ(g0.numa_node, 0);
  EXPECT_EQ(g0.cpu_affinity, "0-13,28-41");
  std::map<std::string, std::string> rel0, rel1;
  for (const GpuNicLink& l : g0.nics) rel0[l.nic] = l.relation;
  for (const GpuNicLink& l : (*s.gpus)[1].nics) rel1[l.nic] = l.relation;
  EXPECT_EQ(rel0, (std::map<std::string, std::string>{
                      {"mlx5_0", "PHB"}, {"mlx5_1", "PHB"}, {"mlx5_2", "SYS"}, {"mlx5_3", "SYS"}}));
  EXPECT_EQ(rel1, (std::map<std::string, std::string>{
                      {"mlx5_0", "SYS"}, {"mlx5_1", "SYS"}, {"mlx5_2", "PHB"}, {"mlx5_3", "PHB"}}));
  EXPECT_EQ((*s.gpus)[1].cpu_affinity, "14-27,42-55");
  EXPECT_EQ(s.find_netdev("ens2f0np0")->numa_node, 1);
  EXPECT_EQ(s.find_netdev("ens1f1np1")->rdma_device, "mlx5_1");
  EXPECT_EQ(s.pci_functions.size(), 4u);  // the NICs; GPUs are not PCI functions of the audit
  // Loaded but no /sys/kernel/mm/memory_peers entry (the tree has none): the rule's "loaded is
  // not registered" failure (host-facts G, NCCL #1939), as the V100's proprietary driver rules out
  // DMA-BUF.
  EXPECT_EQ(s.nvidia_driver->open_module, false);
  EXPECT_EQ(s.nvidia_driver->version, "550.144.03");
  EXPECT_EQ(s.kernel_release.value, "5.15.0-126-generic");
  EXPECT_EQ(s.gpudirect->peer_memory_registered, false);
  rules::Report r = rules::evaluate(s, default_policy());
  bool peer = false;
  for (const Finding& f : r.findings)
    if (f.rule == "gpudirect.peer-memory") {
      peer = true;
      EXPECT_EQ(f.outcome, Outcome::fail) << f.message;
      EXPECT_NE(f.message.find("although nvidia_peermem is loaded, and DMA-BUF cannot work: the NVIDIA driver "
                               "550.144.03 is the proprietary kernel module"),
                std::string::npos)
          << f.message;
    }
  EXPECT_TRUE(peer);
}

// The DGX H100 layout (testdata/sysroots/README.md): 8 GPUs, 8 compute + 4 storage ConnectX-7
// functions, 2 NUMA nodes; GPU i's NIC behind the same PCIe switch.
TEST(CollectFixture, DgxH100EightGpusEightNics) {
  Snapshot s = collect_fixture("dgx-h100-8gpu-8nic");
  EXPECT_EQ(s.hostname, "dgx-h100-01");
  ASSERT_EQ(s.rdma_devices.size(), 12u);
  EXPECT_EQ(s.netdevs.size(), 12u);
  EXPECT_EQ(s.pci_functions.size(), 12u);  // the NICs; not the GPUs, root ports or switch ports
  ASSERT_TRUE(s.numa_cpu_count.has_value()) << s.numa_cpu_count.reason;
  EXPECT_EQ(*s.numa_cpu_count, (std::map<int, int>{{0, 112}, {1, 112}}));  // 0-55,112-167 / 56-111,168-223
  for (const PciFunction& p : s.pci_functions) {
    EXPECT_EQ(p.device_name, "ConnectX-7") << p.bdf;
    ASSERT_TRUE(p.link.has_value()) << p.bdf << ": " << p.link.reason;
    EXPECT_EQ(p.link->capability.speed_gts, 32.0) << p.bdf;
    EXPECT_EQ(p.link->status.width_lanes, 16) << p.bdf;
    EXPECT_FALSE(p.link->status.downgraded) << p.bdf;
    EXPECT_EQ(p.link->max_payload_bytes, 256) << p.bdf;
    EXPECT_EQ(*p.max_read_request_bytes, p.bdf == "0000:ce:00.0" ? 512 : 4096) << p.bdf;
    // Single-port compute cards carry VPD; the dual-port storage cards (29:00, aa:00) none.
    bool storage = p.bdf.starts_with("0000:29:") || p.bdf.starts_with("0000:aa:");
    EXPECT_EQ(p.vpd_part_number, storage ? std::nullopt : std::optional<std::string>("MCX715105AS-WEAT")) << p.bdf;
  }
  const NetDev* bad = s.find_netdev("enp94s0np0");
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(bad->rdma_device, "mlx5_5");
  EXPECT_EQ(bad->numa_node, 0);
  EXPECT_EQ(*bad->mtu_bytes, 1500);
  ASSERT_TRUE(bad->qos.has_value()) << bad->qos.reason;
  EXPECT_EQ(bad->qos->trust, Trust::pcp);
  EXPECT_EQ(*bad->qos->pfc_enabled, std::vector<bool>(8, false));
  const NetDev* good = s.find_netdev("enp220s0np0");
  ASSERT_NE(good, nullptr);
  EXPECT_EQ(good->rdma_device, "mlx5_11");
  EXPECT_EQ(good->numa_node, 1);
  EXPECT_EQ(good->qos->trust, Trust::dscp);
  EXPECT_EQ(good->qos->dscp_to_priority.at(26), 3);
  EXPECT_EQ(*good->qos->pfc_enabled, (std::vector<bool>{false, false, false, true, false, false, false, false}));
  ASSERT_TRUE(good->ecn.has_value()) << good->ecn.reason;
  EXPECT_TRUE(good->ecn->rp_enabled.at(3));
  EXPECT_FALSE(good->ecn->np_enabled.at(2));
  EXPECT_EQ(port1(s, "mlx5_5").active_mtu_bytes, 1024);
  EXPECT_EQ(port1(s, "mlx5_0").active_mtu_bytes, 4096);
  EXPECT_EQ(*port1(s, "mlx5_0").default_roce_mode, "RoCE v2");
  EXPECT_EQ(port1(s, "mlx5_5").counters->at("np_ecn_marked_roce_packets"), 21278189006u);  // congested capture
  EXPECT_EQ(port1(s, "mlx5_7").netdev, "enp170s0f0np0");
  ASSERT_TRUE(s.gpudirect.has_value()) << s.gpudirect.reason;
  EXPECT_EQ(s.gpudirect->peermem_loaded, true);
  EXPECT_EQ(s.gpudirect->peer_memory_registered, true);

  // GPU <-> NIC relations as nvidia-smi topo -m names them: PIX to its own NIC (same switch),
  // NODE to every other NIC of its socket (other host bridge), SYS across sockets.
  ASSERT_TRUE(s.gpus.has_value()) << s.gpus.reason;
  ASSERT_EQ(s.gpus->size(), 8u);
  const std::vector<std::string> compute = {"mlx5_0", "mlx5_3", "mlx5_4",  "mlx5_5",
                                            "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"};
  const std::set<std::string> socket0 = {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5"};
  for (const Gpu& g : *s.gpus) {
    int node = g.index < 4 ? 0 : 1;
    EXPECT_EQ(g.numa_node, node) << "gpu" << g.index;
    EXPECT_EQ(g.cpu_affinity, node == 0 ? "0-55,112-167" : "56-111,168-223") << "gpu" << g.index;
    ASSERT_EQ(g.nics.size(), 12u);
    for (const GpuNicLink& l : g.nics) {
      std::string want = l.nic == compute[static_cast<std::size_t>(g.index)] ? "PIX"
                         : (socket0.count(l.nic) == 1) == (node == 0)     ? "NODE"
                                                                          : "SYS";
      EXPECT_EQ(l.relation, want) << "gpu" << g.index << " " << l.nic << ": " << l.source.text;
    }
  }
  EXPECT_EQ((*s.gpus)[3].source.text,
            "GPU 0000:61:00.0 -> /sys/devices/pci0000:5b/0000:5b:01.0/0000:5c:00.0/0000:5d:03.0/0000:61:00.0");
  // Every rule's outcome, as testdata/sysroots/dgx-h100-8gpu-8nic.expected.json writes it down.
  expect_findings(s, test::testdata_dir() / "sysroots" / "dgx-h100-8gpu-8nic.expected.json", {});
}

// The one-readlink resolution gives what canonical() gives, for every PCI device link of the
// trees with a PCI hierarchy, and refuses a link that climbs out of the root.
TEST(HostViewTest, ResolveDeviceLinkAgreesWithCanonical) {
  int compared = 0;
  for (const char* name : {"dgx-h100-8gpu-8nic", "v100-2gpu-4nic-2numa", "cx7-rocep-2domain"}) {
    HostView host(sysroot(name));
    Result<std::vector<std::string>> bdfs = host.list_dir("/sys/bus/pci/devices");
    ASSERT_TRUE(bdfs.has_value()) << name;
    for (const std::string& b : *bdfs) {
      Result<std::string> fast = host.resolve_device_link("/sys/bus/pci/devices/" + b);
      Result<std::string> slow = host.resolve("/sys/bus/pci/devices/" + b);
      ASSERT_TRUE(fast.has_value() && slow.has_value()) << name << " " << b;
      EXPECT_EQ(*fast, *slow) << name << " " << b;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 54 + 6 + 4);  // dgx: 12 NICs, 8 GPUs, 34 bridges; v100: 4 NICs, 2 GPUs
  std::filesystem::path root = std::filesystem::temp_directory_path() / ("rk-link-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "sys/bus/pci/devices");
  std::filesystem::create_symlink("../../../../../etc", root / "sys/bus/pci/devices/0000:00:01.0");
  Result<std::string> out = HostView(root).resolve_device_link("/sys/bus/pci/devices/0000:00:01.0");
  std::filesystem::remove_all(root);
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().kind, ErrorKind::io);
}

TEST(CollectFixture, NoGpuMeansGpudirectDoesNotApply) {
  Snapshot s = collect_fixture("cx4lx-4port");
  EXPECT_FALSE(s.gpudirect.has_value());
  EXPECT_NE(s.gpudirect.reason.find("no NVIDIA GPU"), std::string::npos);
}

TEST(CollectFixture, SnapshotRoundTripsThroughJson) {
  for (const char* name : {"cx4lx-4port", "cx4-100g-pcie-x8", "procfs-mlx5_0-eth0-ecn", "v100-2gpu-4nic-2numa",
                           "dgx-h100-8gpu-8nic"}) {
    Snapshot s = collect_fixture(name);
    nlohmann::json once = snapshot_to_json(s);
    Result<Snapshot> back = snapshot_from_json(once);
    ASSERT_TRUE(back.has_value()) << name << ": " << back.error().describe();
    EXPECT_EQ(snapshot_to_json(*back), once) << name;
  }
}

TEST(CollectFixture, NoRdmaDevicesIsStated) {
  Snapshot s = collect_fixture("oci-h100-cx7-flash-recovery");
  bool stated = false;
  for (const std::string& n : s.notes) stated = stated || n.starts_with("no RDMA devices found");
  EXPECT_TRUE(stated);
}

// ------------------------------------------------------------------ this machine -----------

TEST(CollectLive, ThisMachine) {
  if (!std::filesystem::exists("/sys/class/net")) GTEST_SKIP() << "no /sys/class/net here";
  NoToolsRunner runner("vendor tools not requested");
  Snapshot s = collect_snapshot(CollectRequest{}, HostView("/"), runner);
  EXPECT_EQ(runner.started(), 0);
  if (!std::filesystem::exists("/sys/class/infiniband")) {
    bool stated = false;
    for (const std::string& n : s.notes) stated = stated || n.starts_with("no RDMA devices found");
    EXPECT_TRUE(stated);
  }
  for (const NetDev& n : s.netdevs) {
    ASSERT_TRUE(n.mtu_bytes.has_value()) << n.name << ": " << n.mtu_bytes.reason;
    EXPECT_EQ(n.mtu_bytes.source.file, "/sys/class/net/" + n.name + "/mtu");
    EXPECT_GT(*n.mtu_bytes, 0);
  }
  for (const PciFunction& p : s.pci_functions) {
    EXPECT_TRUE(p.vendor_id.has_value()) << p.bdf;
    // Either decoded or a stated reason (conventional PCI, needs root).
    EXPECT_TRUE(p.link.has_value() || !p.link.reason.empty()) << p.bdf;
  }
}

TEST(CollectLive, EthtoolIoctlOnThisMachine) {
  if (!std::filesystem::exists("/sys/class/net")) GTEST_SKIP() << "no /sys/class/net here";
  NoToolsRunner runner("vendor tools not requested");
  CollectRequest req;
  req.kernel_ioctls = true;
  Snapshot s = collect_snapshot(req, HostView("/"), runner);
  if (s.netdevs.empty()) GTEST_SKIP() << "no device-backed netdev on this machine";
  for (const NetDev& n : s.netdevs) {
    ASSERT_TRUE(n.driver.has_value()) << n.name << ": " << n.driver.reason;
    EXPECT_TRUE(n.driver.source.file == "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO " + n.name ||
                n.driver.source.file == "/sys/class/net/" + n.name + "/device/driver")
        << n.driver.source.file;
    // Each get either answered or says why (e.g. "not supported by driver virtio_net").
    EXPECT_TRUE(n.channels.has_value() || !n.channels.reason.empty()) << n.name;
    EXPECT_TRUE(n.coalesce.has_value() || !n.coalesce.reason.empty()) << n.name;
    EXPECT_TRUE(n.pause.has_value() || !n.pause.reason.empty()) << n.name;
    if (n.channels.has_value()) {
      EXPECT_GE(n.channels->combined_max.value_or(0), n.channels->combined.value_or(0));
    }
    // The ioctl's bus-info agrees with the sysfs device link.
    if (n.driver.has_value() && n.driver->bus_info && n.bdf) {
      EXPECT_EQ(*n.driver->bus_info, *n.bdf) << n.name;
    }
  }
}

// ------------------------------------------------------------------ decoders ---------------

TEST(Ethtool, ConvertsKernelStructs) {
  ethtool_drvinfo d{};
  std::strcpy(d.driver, "mlx5_core");
  std::strcpy(d.version, "5.0-2.1.8");
  std::strcpy(d.fw_version, "14.32.1010 (MT_2420110034)");  // ethtool_i@eth03.txt
  std::strcpy(d.bus_info, "0000:30:00.0");
  DriverInfo di = to_driver_info(d);
  EXPECT_EQ(di.driver, "mlx5_core");
  EXPECT_EQ(di.version, "5.0-2.1.8");
  EXPECT_EQ(di.firmware_version, "14.32.1010");
  EXPECT_EQ(di.psid, "MT_2420110034");
  EXPECT_EQ(di.bus_info, "0000:30:00.0");
  ethtool_coalesce c{};
  c.use_adaptive_rx_coalesce = 1;
  c.rx_coalesce_usecs = 8;
  c.tx_coalesce_usecs = 16;
  c.rx_max_coalesced_frames = 128;
  CoalesceState cs = to_coalesce(c);
  EXPECT_EQ(cs.adaptive_rx, true);
  EXPECT_EQ(cs.adaptive_tx, false);
  EXPECT_EQ(cs.rx_usecs, 8u);
  EXPECT_EQ(cs.tx_usecs, 16u);
  EXPECT_EQ(cs.rx_frames, 128u);
  ethtool_channels ch{};
  ch.max_combined = 63;
  ch.combined_count = 32;
  ChannelState chs = to_channels(ch);
  EXPECT_EQ(chs.combined, 32u);
  EXPECT_EQ(chs.combined_max, 63u);
  ethtool_pauseparam p{};
  p.rx_pause = 1;
  PauseState ps = to_pause(p);
  EXPECT_EQ(ps.rx, true);
  EXPECT_EQ(ps.tx, false);
  EXPECT_EQ(ps.autoneg, false);
}

TEST(PciVpd, DecodesTheCapturedCard) {
  // testdata/sysroots/cx4-100g-pcie-x8/.../vpd: encoded from the lspci -vvv capture's VPD block.
  std::string raw = test::read_file(sysroot("cx4-100g-pcie-x8") /
                                    "sys/devices/pci0000:00/0000:00:01.0/0000:81:00.0/vpd");
  std::vector<std::uint8_t> b(raw.begin(), raw.end());
  Result<PciVpd> v = parse_pci_vpd(b);
  ASSERT_TRUE(v.has_value()) << v.error().describe();
  EXPECT_EQ(v->product_name, "CX416A - ConnectX-4 QSFP28");
  EXPECT_EQ(v->read_only, (std::map<std::string, std::string>{
                              {"PN", "MCX416A-CCAT"}, {"EC", "AG"}, {"SN", "MT0000X00000"}, {"V0", "PCIeGen3 x16"}}));
  EXPECT_TRUE(v->checksum_ok);  // lspci: "[RV] Reserved: checksum good"
  EXPECT_FALSE(v->truncated);
  // A read that stops inside a later resource keeps what was complete.
  std::vector<std::uint8_t> cut(b.begin(), b.end() - 1);  // drop the end tag ...
  cut.push_back(0x91);                                    // ... and start a VPD-W that is not there
  cut.push_back(0x40);
  cut.push_back(0x00);
  Result<PciVpd> t = parse_pci_vpd(cut);
  ASSERT_TRUE(t.has_value());
  EXPECT_TRUE(t->truncated);
  EXPECT_EQ(t->read_only.at("PN"), "MCX416A-CCAT");
  b[0x55] ^= 1;  // the RV checksum byte
  EXPECT_FALSE(parse_pci_vpd(b)->checksum_ok);
  // Cut inside the ID string: nothing complete, an error with the offset.
  Result<PciVpd> bad = parse_pci_vpd(std::span<const std::uint8_t>(b.data(), 10));
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message, "VPD resource at byte 0 (26 bytes) runs past the 10 bytes read");
  std::vector<std::uint8_t> erased(64, 0xff);
  EXPECT_EQ(parse_pci_vpd(erased).error().message, "no ID string or VPD-R resource");
  EXPECT_FALSE(parse_pci_vpd(std::vector<std::uint8_t>{}).has_value());
}

TEST(PcieConfig, ShortOrConventional) {
  std::vector<std::uint8_t> c(32);
  EXPECT_EQ(parse_pcie_config(c).error().kind, ErrorKind::malformed_input);
  c.assign(256, 0);
  EXPECT_EQ(parse_pcie_config(c).error().kind, ErrorKind::unsupported);  // no capability list
  c[0x06] = 0x10;
  c[0x34] = 0x40;
  c[0x40] = 0x05;  // MSI, end of list
  EXPECT_EQ(parse_pcie_config(c).error().kind, ErrorKind::unsupported);
  c[0x41] = 0x40;  // loops to itself
  EXPECT_EQ(parse_pcie_config(c).error().kind, ErrorKind::malformed_input);
}

TEST(Decoders, PcieRelationNamesLikeNvidiaSmi) {
  const std::string sw = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0";  // switch upstream
  EXPECT_EQ(pcie_relation(sw + "/0000:02:00.0/0000:03:00.0", 0, sw + "/0000:02:01.0/0000:04:00.0", 0), "PIX");
  EXPECT_EQ(pcie_relation(sw + "/0000:02:00.0/0000:03:00.0/0000:05:00.0/0000:06:00.0", 0,
                          sw + "/0000:02:01.0/0000:04:00.0", 0),
            "PXB");
  EXPECT_EQ(pcie_relation("/sys/devices/pci0000:00/0000:00:01.0/0000:1a:00.0", 0,
                          "/sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0", 0),
            "PHB");
  EXPECT_EQ(pcie_relation("/sys/devices/pci0000:00/0000:00:01.0/0000:1a:00.0", 0,
                          "/sys/devices/pci0000:17/0000:17:02.0/0000:18:00.0", 0),
            "NODE");
  EXPECT_EQ(pcie_relation("/sys/devices/pci0000:00/0000:00:01.0/0000:1a:00.0", 0,
                          "/sys/devices/pci0000:80/0000:80:02.0/0000:bb:00.0", 1),
            "SYS");
}

TEST(Decoders, IboeMtuAndCpulist) {
  EXPECT_EQ(iboe_active_mtu_bytes(1500), 1024);
  EXPECT_EQ(iboe_active_mtu_bytes(4200), 4096);
  EXPECT_EQ(iboe_active_mtu_bytes(4191), 2048);
  EXPECT_EQ(iboe_active_mtu_bytes(9000), 4096);
  EXPECT_EQ(iboe_active_mtu_bytes(300), 0);
  EXPECT_EQ(cpulist_count("0-3,8-11"), 8);
  EXPECT_EQ(cpulist_count("5"), 1);
  EXPECT_EQ(cpulist_count(""), 0);
  EXPECT_EQ(cpulist_count("3-1"), std::nullopt);
}

TEST(CommandRunner, OnlyQueryFormsRun) {
  EXPECT_TRUE(is_query_form({"mstconfig", "-d", "0000:81:00.0", "-e", "q"}));
  EXPECT_TRUE(is_query_form({"mlxconfig", "-d", "81:00.0", "-e", "query"}));
  EXPECT_FALSE(is_query_form({"mstconfig", "-d", "0000:81:00.0", "-e", "q", "-y"}));
  EXPECT_FALSE(is_query_form({"mstconfig", "-d", "0000:81:00.0", "set", "LINK_TYPE_P1=2"}));
  EXPECT_FALSE(is_query_form({"mstconfig", "-d", "0000:81:00.0", "-e", "reset"}));
  EXPECT_FALSE(is_query_form({"mstconfig", "-d", "-y", "-e", "q"}));
  EXPECT_FALSE(is_query_form({"mstconfig", "-d", "81:00.0;reboot", "-e", "q"}));
  EXPECT_FALSE(is_query_form({"sh", "-c", "mstconfig", "-e", "q"}));
  EXPECT_TRUE(is_query_form({"devlink", "port", "show"}));
  EXPECT_TRUE(is_query_form({"devlink", "dev", "eswitch", "show", "pci/0000:03:00.0"}));
  EXPECT_FALSE(is_query_form({"devlink", "dev", "eswitch", "set", "pci/0000:03:00.0", "mode", "switchdev"}));
  EXPECT_FALSE(is_query_form({"devlink", "dev", "eswitch", "show", "pci/0000:03:00.0;reboot"}));
  EXPECT_FALSE(is_query_form({"devlink", "dev", "eswitch", "show", "0000:03:00.0"}));
  EXPECT_FALSE(is_query_form({"devlink", "port", "function", "set", "pci/0000:03:00.0/1", "roce", "disable"}));
  EXPECT_FALSE(is_query_form({"devlink", "port", "show", "-j"}));
  ReplayRunner r(std::map<std::string, std::string>{{"mstconfig -d 0000:81:00.0 set X=1", "never returned"}});
  Result<std::string> out = r.run({"mstconfig", "-d", "0000:81:00.0", "set", "X=1"});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().kind, ErrorKind::permission_denied);
  EXPECT_EQ(r.started(), 0);
}

TEST(CommandRunner, NvConfigThroughTheRunnerUsesTheMlxconfigParser) {
  // Real `mlxconfig q` output (corpus; no `-e q` output is in the corpus, and the parser reads
  // both), replayed as the answer for the fixture's PF; mstconfig is "not installed".
  std::string file = test::read_file(test::testdata_dir() / "corpus" / "mlxconfig" /
                                     "homelab-host01-cx4lx-q-next-boot.txt");
  std::string text(parse::strip_capture_header(file).body);
  ReplayRunner runner(std::map<std::string, std::string>{{"mlxconfig -d 0000:81:00.0 -e q", text}});
  CollectRequest req;
  req.nv_config = true;
  Snapshot s = collect_snapshot(req, HostView(sysroot("cx4-100g-pcie-x8")), runner);
  const PciFunction* p = s.find_pci("0000:81:00.0");
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->nv_config.has_value()) << p->nv_config.reason;
  const NvParam* cnp = p->nv_config->find("CNP_DSCP_P1");
  ASSERT_NE(cnp, nullptr);
  EXPECT_EQ(cnp->next_boot_value, "48");
  EXPECT_EQ(p->nv_config->find("NUM_OF_VFS")->next_boot_value, "8");
  EXPECT_EQ(p->nv_config->part_number, "MCX4121A-ACA_Ax");
  EXPECT_EQ(p->nv_config.source.file, "mlxconfig -d 0000:81:00.0 -e q");
  EXPECT_EQ(runner.started(), 2);  // mstconfig (not installed) then mlxconfig
}

// SystemRunner keeps a failed command's first stderr line: a stand-in `devlink` that answers as
// the kernel does on a BlueField-3 host PF in DPU mode (the real answer of
// testdata/corpus/devlink_dev_eswitch) and exits 1, as iproute2 does on an error.
TEST(CommandRunner, SystemRunnerKeepsTheFirstStderrLine) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("rk_collect_runner_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream t(dir / "devlink");
    t << "#!/bin/sh\necho 'kernel answers: Operation not supported' >&2\necho second >&2\nexit 1\n";
  }
  std::filesystem::permissions(dir / "devlink", std::filesystem::perms::owner_all);
  SystemRunner r({dir.string()});
  Result<std::string> out = r.run({"devlink", "dev", "eswitch", "show", "pci/0000:b3:00.0"});
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().kind, ErrorKind::tool_failed);
  EXPECT_EQ(out.error().message, "exited with status 1: kernel answers: Operation not supported");
  SystemRunner none({"/nonexistent-rk-dir"});
  Result<std::string> missing = none.run({"devlink", "port", "show"});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message, "devlink: not installed (iproute2)");
}

/// A runner whose devlink eswitch query fails as on the host PF of a BlueField-3 in DPU mode
/// (testdata/corpus/devlink_dev_eswitch: "kernel answers: Operation not supported" on stderr,
/// which SystemRunner appends to its "exited with status" message), and whose other answers are
/// replayed.
class DpuHostRunner : public CommandRunner {
 public:
  explicit DpuHostRunner(std::map<std::string, std::string> outputs) : m_replay(std::move(outputs)) {}

 protected:
  Result<std::string> do_run(const std::vector<std::string>& argv) override {
    if (argv.size() == 5 && argv[2] == "eswitch" && argv[4] == "pci/0000:01:00.1")
      return unexpected(ErrorKind::tool_failed, "exited with status 1: kernel answers: Operation not supported",
                        "devlink dev eswitch show pci/0000:01:00.1");
    return m_replay.run(argv);
  }

 private:
  ReplayRunner m_replay;
};

// `--devlink`: devlink port show once, devlink dev eswitch show per NVIDIA PF, parsed by the
// capture's parsers. The answers are constructed for the fixture's addresses and netdevs from
// real lines: the ConnectX-4 Lx `mode legacy inline-mode link encap-mode basic`
// (OpenNebula/one-deploy PR 214) and a port line as the mlx5 SF commit messages print an uplink
// (`type eth netdev ... flavour physical port 0 splittable false`).
TEST(CommandRunner, DevlinkPortsAndEswitchModesThroughTheRunner) {
  DpuHostRunner runner(std::map<std::string, std::string>{
      {"devlink port show",
       "pci/0000:01:00.0/65535: type eth netdev enp1s0f0np0 flavour physical port 0 splittable false\n"
       "pci/0000:01:00.0/32768: type eth netdev eth6 flavour pcisf controller 0 pfnum 0 sfnum 88 splittable false\n"},
      {"devlink dev eswitch show pci/0000:01:00.0", "pci/0000:01:00.0: mode legacy inline-mode link encap-mode basic\n"},
  });
  CollectRequest req;
  req.devlink = true;
  Snapshot s = collect_snapshot(req, HostView(sysroot("cx7-rocep-2domain")), runner);
  const NetDev* n = s.find_netdev("enp1s0f0np0");
  ASSERT_NE(n, nullptr);
  ASSERT_TRUE(n->devlink_port.has_value());
  EXPECT_EQ(n->devlink_port->handle, "pci/0000:01:00.0/65535");
  EXPECT_EQ(n->devlink_port->flavour, "physical");
  EXPECT_EQ(n->devlink_port->source.file, "devlink port show");
  EXPECT_EQ(n->devlink_port->source.line, 1u);
  EXPECT_EQ(s.find_netdev("eth6"), nullptr);  // a port of a netdev this collection did not read
  const PciFunction* pf0 = s.find_pci("0000:01:00.0");
  ASSERT_NE(pf0, nullptr);
  ASSERT_TRUE(pf0->eswitch.has_value());
  EXPECT_EQ(pf0->eswitch->mode, "legacy");
  EXPECT_EQ(pf0->eswitch->inline_mode, "link");
  EXPECT_EQ(pf0->eswitch->source.file, "devlink dev eswitch show pci/0000:01:00.0");
  EXPECT_EQ(pf0->eswitch->source.text, "pci/0000:01:00.0: mode legacy inline-mode link encap-mode basic");
  const PciFunction* pf1 = s.find_pci("0000:01:00.1");
  ASSERT_NE(pf1, nullptr);
  ASSERT_TRUE(pf1->eswitch.has_value());
  EXPECT_EQ(pf1->eswitch->kernel_error, "Operation not supported");
  EXPECT_FALSE(pf1->eswitch->mode.has_value());
  // The other domain's PFs have no replayed answer: a note names the command, nothing is made up.
  ASSERT_NE(s.find_pci("0002:01:00.0"), nullptr);
  EXPECT_FALSE(s.find_pci("0002:01:00.0")->eswitch.has_value());
  bool noted = false;
  for (const std::string& note : s.notes)
    noted = noted || note.starts_with("devlink dev eswitch show pci/0002:01:00.0 not read: ");
  EXPECT_TRUE(noted);
  // Without --devlink nothing runs and nothing is set.
  ReplayRunner idle(std::map<std::string, std::string>{});
  Snapshot plain = collect_snapshot(CollectRequest{}, HostView(sysroot("cx7-rocep-2domain")), idle);
  EXPECT_EQ(idle.started(), 0);
  EXPECT_FALSE(plain.find_pci("0000:01:00.0")->eswitch.has_value());
}

}  // namespace
}  // namespace rk::collect

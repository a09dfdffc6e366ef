// `select --host` on the real bundles in testdata/hosts: the downgraded x8 link of
// homelab-host02 and the one-NIC-for-four-GPUs cross-socket topology of tf-gdr-k40.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/pipeline.hpp"
#include "rocekit/select/host.hpp"
#include "rocekit/select/render.hpp"

namespace sel = rk::select;

namespace {

sel::HostJudgement judge(const std::string& bundle) {
  rk::Result<rk::Snapshot> s = rk::load_input(std::string(RK_TESTDATA_DIR) + "/hosts/" + bundle);
  EXPECT_TRUE(s) << bundle << ": " << (s ? "" : s.error().describe());
  return sel::judge_host(*s, rk::catalog::Catalog::builtin());
}

const sel::HostAdvice* find(const sel::HostJudgement& h, const std::string& id) {
  for (const sel::HostAdvice& a : h.advice)
    if (a.id == id) return &a;
  return nullptr;
}

}  // namespace

// lspci: LnkCap 8GT/s x16, LnkSta 8GT/s x8 (downgraded), MaxPayload 256; mlxfwmanager:
// "100GbE dual-port QSFP28". catalog.md 3.2: Gen3 x8 = 52.9, Gen3 x16 = 104.0 (MPS 256).
TEST(SelectHost, HomelabHost02DowngradedX8) {
  sel::HostJudgement h = judge("homelab-host02-cx4-100g-pcie-x8");
  ASSERT_EQ(h.nics.size(), 1u);
  const sel::HostNic& n = h.nics[0];
  EXPECT_EQ(n.bdf, "0000:81:00.0");
  EXPECT_EQ(n.model, "ConnectX-4");
  EXPECT_EQ(n.numa_node, 1);
  EXPECT_EQ(n.ports, 2);
  EXPECT_EQ(n.port_gbps, 100.0);
  EXPECT_EQ(n.link_capability, "Gen3 x16");
  EXPECT_EQ(n.link_status, "Gen3 x8 (downgraded)");
  EXPECT_EQ(n.max_payload_bytes, 256);
  EXPECT_DOUBLE_EQ(*n.effective_gbps, 52.9);
  EXPECT_DOUBLE_EQ(*n.effective_at_capability_gbps, 104.0);
  EXPECT_DOUBLE_EQ(*n.ratio, 0.26);
  EXPECT_EQ(n.verdict, "oversubscribed");
  const sel::HostAdvice* a = find(h, "host.pcie-downgraded");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->severity, "error");
  EXPECT_NE(a->action.find("move the card to a slot wired Gen3 x16"), std::string::npos) << a->action;
  // Even at Gen3 x16 two 100G ports are 104/200 = 0.52: say so.
  EXPECT_NE(a->action.find("moves 104 Gb/s (ratio 0.52)"), std::string::npos) << a->action;
  // catalog.md 3.3: 2 x 100G needs Gen4 x16 (207.9 Gb/s, 1.04): the oldest generation that feeds it.
  EXPECT_NE(a->action.find("on Gen4 x16 (207.9 Gb/s, ratio 1.04) in a slot of that generation"),
            std::string::npos) << a->action;
  EXPECT_NE(a->evidence.file.find("lspci_vvv"), std::string::npos);
  EXPECT_TRUE(h.any_error());
  const sel::HostAdvice* g = find(h, "host.gpu-placement");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->severity, "unknown");
}

// nvidia-smi topo: GPU0/GPU1 SOC (= SYS) to mlx4_0 with CPU affinity 0-5; GPU2/GPU3 PHB, 6-11.
TEST(SelectHost, TfGdrOneNicForFourGpusCrossSocket) {
  sel::HostJudgement h = judge("tf-gdr-k40-cx3-cross-socket");
  ASSERT_EQ(h.nics.size(), 1u);
  EXPECT_EQ(h.nics[0].rdma_device, "mlx4_0");
  EXPECT_EQ(h.nics[0].gpus, (std::vector<int>{0, 1, 2, 3}));
  ASSERT_EQ(h.gpus.size(), 4u);
  EXPECT_EQ(h.gpus[0].relation, "SYS");
  EXPECT_EQ(h.gpus[1].relation, "SYS");
  EXPECT_EQ(h.gpus[2].relation, "PHB");
  EXPECT_EQ(h.gpus[3].relation, "PHB");
  const sel::HostAdvice* x = find(h, "host.gpu-nic-cross-socket");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->severity, "error");
  EXPECT_EQ(x->subject, "gpu 0,1");
  EXPECT_NE(x->action.find("root complex of CPUs 0-5"), std::string::npos) << x->action;
  const sel::HostAdvice* shared = find(h, "host.nic-shared-by-gpus");
  ASSERT_NE(shared, nullptr);
  EXPECT_NE(shared->message.find("one NIC (mlx4_0) for 4 GPUs (0, 1, 2, 3)"), std::string::npos) << shared->message;
  EXPECT_NE(shared->action.find("3 more"), std::string::npos);
  const sel::HostAdvice* phb = find(h, "host.gpu-nic-through-cpu");
  ASSERT_NE(phb, nullptr);
  EXPECT_EQ(phb->subject, "gpu 2,3");
  // No lspci in this bundle: the PCIe link is unknown, not assumed fine.
  const sel::HostAdvice* link = find(h, "host.pcie-link");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->severity, "unknown");
}

TEST(SelectHost, RendersEveryFormat) {
  sel::HostJudgement h = judge("homelab-host02-cx4-100g-pcie-x8");
  std::string t = sel::render(h, sel::Format::text);
  EXPECT_NE(t.find("link Gen3 x16 -> Gen3 x8 (downgraded); 52.9 Gb/s effective, ratio 0.26 oversubscribed"),
            std::string::npos) << t;
  std::string m = sel::render(h, sel::Format::markdown);
  EXPECT_NE(m.find("| Gen3 x16 -> Gen3 x8 (downgraded) | 52.9 | 0.26 oversubscribed |"), std::string::npos) << m;
  EXPECT_EQ(sel::to_json(h)["nics"][0]["effective_gbps"], 52.9);
}

// aerial: only nvidia-smi topo (GPU0 PIX to both ports mlx5_0 and mlx5_1): placement is good, the
// link is unknown, and both NICs are still listed rather than silently dropped.
TEST(SelectHost, AerialTopologyOnlyNicIsUnknownNotDropped) {
  sel::HostJudgement h = judge("aerial-21-4-a100-cx6dx");
  ASSERT_EQ(h.gpus.size(), 1u);
  EXPECT_EQ(h.gpus[0].relation, "PIX");
  ASSERT_EQ(h.nics.size(), 2u);
  EXPECT_EQ(h.nics[0].rdma_device, "mlx5_0");
  EXPECT_EQ(h.nics[0].gpus, std::vector<int>{0});  // GPU0's GPUDirect NIC: the first of the PIX pair
  EXPECT_EQ(h.nics[1].rdma_device, "mlx5_1");
  EXPECT_TRUE(h.nics[1].gpus.empty());
  const sel::HostAdvice* link = find(h, "host.pcie-link");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->severity, "unknown");
  EXPECT_EQ(find(h, "host.gpu-nic-cross-socket"), nullptr);
  EXPECT_FALSE(h.any_error());
  EXPECT_TRUE(h.anything_judged());  // GPU0's affinity passes at PIX
}

// GB200 (testdata/corpus/nvidia_smi_topo, GPU NUMA ID 2/10/18/26, every GPU <-> NIC pair SYS): the
// GPUs reach their NICs through the Grace CPU by design, so no PCIe placement advice contradicts
// `check`, and all eight NICs of the topology are listed.
TEST(SelectHost, GraceTopologyGivesNoPcieSwitchAdvice) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("rk-select-grace-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(fs::path(RK_TESTDATA_DIR) / "corpus/nvidia_smi_topo/gb200-4gpu-8nic-all-sys-gpu-numa-id-topo-m.txt",
                dir / "nvidia_smi_topo.txt", fs::copy_options::overwrite_existing);
  rk::Result<rk::Snapshot> s = rk::load_input(dir.string());
  fs::remove_all(dir);
  ASSERT_TRUE(s) << s.error().describe();
  sel::HostJudgement h = sel::judge_host(*s, rk::catalog::Catalog::builtin());
  ASSERT_EQ(h.gpus.size(), 4u);
  ASSERT_EQ(h.nics.size(), 8u);
  EXPECT_EQ(h.nics[7].rdma_device, "mlx5_7");
  for (const char* id : {"host.gpu-nic-cross-socket", "host.gpu-nic-through-cpu", "host.nic-shared-by-gpus"})
    EXPECT_EQ(find(h, id), nullptr) << id;
  EXPECT_FALSE(h.any_error());
  EXPECT_FALSE(h.anything_judged());  // topology alone: every verdict unknown, no NIC link
  ASSERT_EQ(h.data_paths.size(), 4u);
  EXPECT_EQ(h.data_paths[2].c2c, "GPU NUMA ID 18");
  // Every NIC at SYS and no NIC NUMA node: no NIC is named for a GPU (GPU 2 is on the other CPU).
  EXPECT_FALSE(h.data_paths[2].nic.has_value());
  EXPECT_NE(h.data_paths[2].hops_unknown.find("which NIC hangs off GPU 2's own Grace CPU is not known"), std::string::npos)
      << h.data_paths[2].hops_unknown;
  for (const sel::HostNic& n : h.nics) EXPECT_TRUE(n.gpus.empty()) << *n.rdma_device;
}

#include "rocekit/parse/nvidia_smi_topo.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<NvidiaSmiTopo>> r = parse_nvidia_smi_topo(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(NvidiaSmiTopoGolden, CorpusFiles) {
  for (const char* f : {"nvidia_smi_topo/aerial-21-4-a100-cx6dx-pix.txt",
                        "nvidia_smi_topo/container-4xh100-8nic-all-phb.txt",
                        "nvidia_smi_topo/nccl-notes-v100-2gpu-4nic-mlx5-names.txt",
                        "nvidia_smi_topo/nccl-notes-v100-2gpu-4nic-rocep-names.txt",
                        "nvidia_smi_topo/tensorflow-gdr-k40-mlx4-soc.txt",
                        "nvidia_smi_topo/gb200-4gpu-8nic-all-sys-gpu-numa-id-topo-m.txt",
                        "nvidia_smi_topo/dgx-spark-gb10-cx7-rocep-node-topo-m.txt"}) {
    test::check_golden(f, run);
  }
}

// Host-bundle captures are byte-identical to corpus files; they are compared with their twin
// rather than given a golden inside the bundle directory.
TEST(NvidiaSmiTopoGolden, HostBundleFiles) {
  const std::pair<const char*, const char*> k_twins[] = {
      {"../hosts/aerial-21-4-a100-cx6dx/nvidia_smi_topo.txt",
       "nvidia_smi_topo/aerial-21-4-a100-cx6dx-pix.txt"},
      {"../hosts/tf-gdr-k40-cx3-cross-socket/nvidia_smi_topo.txt",
       "nvidia_smi_topo/tensorflow-gdr-k40-mlx4-soc.txt"},
  };
  for (const auto& [host, twin] : k_twins) {
    SCOPED_TRACE(host);
    EXPECT_EQ(run(test::corpus_body(host)), run(test::corpus_body(twin)));
  }
}


TEST(NvidiaSmiTopoBehaviour, K40SocIsSys) {
  Result<Parsed<NvidiaSmiTopo>> r =
      parse_nvidia_smi_topo(test::corpus_body("nvidia_smi_topo/tensorflow-gdr-k40-mlx4-soc.txt"));
  ASSERT_TRUE(r.has_value());
  const NvidiaSmiTopo& t = r->value;
  EXPECT_TRUE(t.legacy_soc);
  ASSERT_EQ(t.gpus.size(), 4u);
  EXPECT_EQ(t.gpus[0].nics.at(0).rdma_device, "mlx4_0");
  EXPECT_EQ(t.gpus[0].closest_nic_link, TopoLink::sys);
  EXPECT_EQ(t.gpus[2].closest_nic_link, TopoLink::phb);
  EXPECT_EQ(t.rows[2].cpu_affinity, "6-11");
}

TEST(NvidiaSmiTopoBehaviour, NicLegendResolvesNames) {
  Result<Parsed<NvidiaSmiTopo>> r = parse_nvidia_smi_topo(
      test::corpus_body("nvidia_smi_topo/nccl-notes-v100-2gpu-4nic-rocep-names.txt"));
  ASSERT_TRUE(r.has_value());
  const NvidiaSmiTopo& t = r->value;
  ASSERT_EQ(t.gpus.size(), 2u);
  EXPECT_EQ(t.gpus[1].nics.at(2).rdma_device, "rocep137s0f0");
  EXPECT_EQ(t.gpus[1].nics.at(2).link, TopoLink::phb);
  EXPECT_EQ(t.rows[1].numa_affinity, "1");
  EXPECT_EQ(t.rows[1].gpu_numa_id, "N/A");
}

TEST(NvidiaSmiTopoBehaviour, OrderingAndNvlink) {
  EXPECT_LT(TopoLink::pix, TopoLink::pxb);
  EXPECT_LT(TopoLink::pxb, TopoLink::phb);
  EXPECT_LT(TopoLink::phb, TopoLink::node);
  EXPECT_LT(TopoLink::node, TopoLink::sys);
  EXPECT_EQ(topo_link_from_text("SOC"), TopoLink::sys);
  EXPECT_EQ(topo_link_from_text("NV18"), TopoLink::nvlink);
  EXPECT_EQ(topo_link_from_text("NV"), TopoLink::unknown);
}

TEST(NvidiaSmiTopoBehaviour, TruncatedCrlfAndErrors) {
  EXPECT_FALSE(parse_nvidia_smi_topo("").has_value());
  EXPECT_FALSE(parse_nvidia_smi_topo("GPU0 is hot\n").has_value());
  Result<Parsed<NvidiaSmiTopo>> r = parse_nvidia_smi_topo(
      "\tGPU0\tmlx5_0\tCPU Affinity\r\nGPU0\t X \tPIX\t0-7\r\nmlx5_0\tPIX\r\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->value.gpus.at(0).closest_nic_link, TopoLink::pix);
  EXPECT_EQ(r->value.rows.at(0).cpu_affinity, "0-7");
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "truncated");
  EXPECT_EQ(r->warnings[0].line, 3u);
}

}  // namespace
}  // namespace rk::parse

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
                        "nvidia_smi_topo/tensorflow-gdr-k40-mlx4-soc.txt"}) {
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

}  // namespace
}  // namespace rk::parse

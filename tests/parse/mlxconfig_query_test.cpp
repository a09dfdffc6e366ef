#include "rocekit/parse/mlxconfig_query.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<MlxconfigQuery>> r = parse_mlxconfig_query(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(MlxconfigQueryGolden, CorpusFiles) {
  for (const char* f : {"mlxconfig/dpservice-issue26-cx5-q-dcqcn-fragment.txt",
                        "mlxconfig/homelab-host01-cx4lx-q-next-boot.txt",
                        "mlxconfig/jiegec-cx4-vpi-set-link-type-eth.txt",
                        "mlxconfig/ocp-nno-cx7-q-egrep-sriov.txt",
                        "mlxconfig/rdma-notes-cx6dx-mstconfig-q-grep-roce.txt",
                        "mlxconfig/rdma-notes-cx6dx-mstconfig-set-legacy-dcqcn.txt"}) {
    test::check_golden(f, run);
  }
}

// Host-bundle captures are byte-identical to corpus files; they are compared with their twin
// rather than given a golden inside the bundle directory.
TEST(MlxconfigQueryGolden, HostBundleFiles) {
  const std::pair<const char*, const char*> k_twins[] = {
      {"../hosts/cx6dx-mstconfig-set-pending-reboot/mlxconfig_q@0000:3d:00.1.txt",
       "mlxconfig/rdma-notes-cx6dx-mstconfig-set-legacy-dcqcn.txt"},
      {"../hosts/homelab-host01-cx4lx-fw14.32/mlxconfig_q@0000:01:00.0.txt",
       "mlxconfig/homelab-host01-cx4lx-q-next-boot.txt"},
  };
  for (const auto& [host, twin] : k_twins) {
    SCOPED_TRACE(host);
    EXPECT_EQ(run(test::corpus_body(host)), run(test::corpus_body(twin)));
  }
}

}  // namespace
}  // namespace rk::parse

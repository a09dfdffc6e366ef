#include "rocekit/parse/lspci_vv.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<LspciVv>> r = parse_lspci_vv(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(LspciVvGolden, CorpusFiles) {
  for (const char* f : {"lspci/homelab-host01-cx4lx-dell-x8.txt",
                        "lspci/homelab-host02-cx4-100g-x16-downgraded-x8.txt",
                        "lspci/iommu-list-cx7-vf-speed-unknown-x0.txt",
                        "lspci/oci-h100-lspci-vv-grep-mellanox-flash-recovery.txt"}) {
    test::check_golden(f, run);
  }
}

// Host-bundle captures are byte-identical to corpus files; they are compared with their twin
// rather than given a golden inside the bundle directory.
TEST(LspciVvGolden, HostBundleFiles) {
  const std::pair<const char*, const char*> k_twins[] = {
      {"../hosts/cx7-vf-lspci-not-applicable/lspci_vvv@0000:b1:00.2.txt",
       "lspci/iommu-list-cx7-vf-speed-unknown-x0.txt"},
      {"../hosts/homelab-host01-cx4lx-dell-fw14.14/lspci_vvv@0000:01:00.0.txt",
       "lspci/homelab-host01-cx4lx-dell-x8.txt"},
      {"../hosts/homelab-host02-cx4-100g-pcie-x8/lspci_vvv@0000:81:00.0.txt",
       "lspci/homelab-host02-cx4-100g-x16-downgraded-x8.txt"},
      {"../hosts/oci-h100-cx7-flash-recovery/lspci_vvv.txt",
       "lspci/oci-h100-lspci-vv-grep-mellanox-flash-recovery.txt"},
  };
  for (const auto& [host, twin] : k_twins) {
    SCOPED_TRACE(host);
    EXPECT_EQ(run(test::corpus_body(host)), run(test::corpus_body(twin)));
  }
}

}  // namespace
}  // namespace rk::parse

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

// ---- looks_like_* of the six group-D tools against every corpus capture ----

#include <filesystem>
#include <functional>
#include <map>

#include "rocekit/parse/flint_query.hpp"
#include "rocekit/parse/mlxconfig_query.hpp"
#include "rocekit/parse/mlxfwmanager.hpp"
#include "rocekit/parse/mst_status.hpp"
#include "rocekit/parse/nvidia_smi_topo.hpp"

namespace rk::parse {
namespace {

/// Which tool a corpus file belongs to, from its path; "" for other tools.
std::string tool_of(const std::string& rel) {
  if (rel.starts_with("lspci/")) return "lspci";
  if (rel.starts_with("mlxconfig/")) return "mlxconfig";
  if (rel.starts_with("nvidia_smi_topo/")) return "topo";
  if (rel.starts_with("flint/") && rel.find("mlxfwmanager") != std::string::npos) return "fwm";
  if (rel.starts_with("flint/")) return "flint";
  if (rel.find("mst-status") != std::string::npos) return "mst";
  return "";
}

TEST(GroupDLooksLike, EveryCorpusCapture) {
  const std::map<std::string, std::function<bool(std::string_view)>> k_sniffers = {
      {"lspci", looks_like_lspci_vv},         {"mlxconfig", looks_like_mlxconfig_query},
      {"topo", looks_like_nvidia_smi_topo},   {"fwm", looks_like_mlxfwmanager},
      {"flint", looks_like_flint_query},      {"mst", looks_like_mst_status}};
  std::filesystem::path root = test::testdata_dir() / "corpus";
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".txt") continue;
    std::string rel = std::filesystem::relative(entry.path(), root).generic_string();
    std::string body = test::corpus_body(rel);
    std::string tool = tool_of(rel);
    ++files;
    for (const auto& [name, sniff] : k_sniffers) {
      EXPECT_EQ(sniff(body), name == tool) << name << " on " << rel;
    }
  }
  EXPECT_GT(files, 30u);
}

TEST(GroupDLooksLike, EveryHostBundleCapture) {
  const std::map<std::string, std::function<bool(std::string_view)>> k_sniffers = {
      {"lspci_vvv", looks_like_lspci_vv},          {"mlxconfig_q", looks_like_mlxconfig_query},
      {"nvidia_smi_topo", looks_like_nvidia_smi_topo}, {"mlxfwmanager", looks_like_mlxfwmanager},
      {"flint_q", looks_like_flint_query},         {"mst_status", looks_like_mst_status}};
  std::filesystem::path root = test::testdata_dir() / "hosts";
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".txt") continue;
    std::string stem = entry.path().stem().string();
    std::string tool = stem.substr(0, stem.find('@'));
    std::string rel = "../hosts/" + std::filesystem::relative(entry.path(), root).generic_string();
    std::string body = test::corpus_body(rel);
    ++files;
    for (const auto& [name, sniff] : k_sniffers) {
      EXPECT_EQ(sniff(body), name == tool) << name << " on " << rel;
    }
  }
  EXPECT_GT(files, 30u);
}

}  // namespace
}  // namespace rk::parse

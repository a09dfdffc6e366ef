#include "rocekit/parse/mlxfwmanager.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<Mlxfwmanager>> r = parse_mlxfwmanager(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(MlxfwmanagerGolden, CorpusFiles) {
  for (const char* f : {"flint/cn-blog-mlxfwmanager-dell-psid.txt",
                        "flint/homelab-host01-mlxfwmanager-dell-cx4lx.txt",
                        "flint/homelab-host02-mlxfwmanager-cx4.txt",
                        "flint/jiegec-mlxfwmanager-abridged-cx3-2.36.txt",
                        "flint/jiegec-mlxfwmanager-abridged-cx4-vpi-12.25.txt",
                        "flint/jiegec-mlxfwmanager-abridged-dell-cx4-edr-old-fw.txt"}) {
    test::check_golden(f, run);
  }
}

// Host-bundle captures are byte-identical to corpus files; they are compared with their twin
// rather than given a golden inside the bundle directory.
TEST(MlxfwmanagerGolden, HostBundleFiles) {
  const std::pair<const char*, const char*> k_twins[] = {
      {"../hosts/homelab-host01-cx4lx-dell-fw14.14/mlxfwmanager@0000:01:00.0.txt",
       "flint/homelab-host01-mlxfwmanager-dell-cx4lx.txt"},
      {"../hosts/homelab-host02-cx4-100g-pcie-x8/mlxfwmanager@0000:81:00.0.txt",
       "flint/homelab-host02-mlxfwmanager-cx4.txt"},
      {"../hosts/sn2410-host-eth4-qos-truncated/mlxfwmanager@0000:06:00.0.txt",
       "flint/cn-blog-mlxfwmanager-dell-psid.txt"},
  };
  for (const auto& [host, twin] : k_twins) {
    SCOPED_TRACE(host);
    EXPECT_EQ(run(test::corpus_body(host)), run(test::corpus_body(twin)));
  }
}

}  // namespace
}  // namespace rk::parse

#include "rocekit/parse/flint_query.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<FlintQuery>> r = parse_flint_query(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(FlintQueryGolden, CorpusFiles) {
  for (const char* f : {"flint/homelab-host01-mstflint-q-after-fw14.32.txt",
                        "flint/homelab-host01-mstflint-q-dell-psid-fw14.14.txt",
                        "flint/homelab-host02-mstflint-q-cx4-fw12.28.txt",
                        "flint/ocp-nno-cx7-flint-q-28.43.txt"}) {
    test::check_golden(f, run);
  }
}

// Host-bundle captures are byte-identical to corpus files; they are compared with their twin
// rather than given a golden inside the bundle directory.
TEST(FlintQueryGolden, HostBundleFiles) {
  const std::pair<const char*, const char*> k_twins[] = {
      {"../hosts/homelab-host01-cx4lx-dell-fw14.14/flint_q@0000:01:00.0.txt",
       "flint/homelab-host01-mstflint-q-dell-psid-fw14.14.txt"},
      {"../hosts/homelab-host01-cx4lx-fw14.32/flint_q@0000:01:00.0.txt",
       "flint/homelab-host01-mstflint-q-after-fw14.32.txt"},
      {"../hosts/homelab-host02-cx4-100g-pcie-x8/flint_q@0000:81:00.0.txt",
       "flint/homelab-host02-mstflint-q-cx4-fw12.28.txt"},
  };
  for (const auto& [host, twin] : k_twins) {
    SCOPED_TRACE(host);
    EXPECT_EQ(run(test::corpus_body(host)), run(test::corpus_body(twin)));
  }
}

}  // namespace
}  // namespace rk::parse

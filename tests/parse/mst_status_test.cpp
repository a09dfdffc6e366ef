#include "rocekit/parse/mst_status.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden.hpp"

namespace rk::parse {
namespace {

nlohmann::json run(std::string_view body) {
  Result<Parsed<MstStatus>> r = parse_mst_status(body);
  if (!r) return {{"error", r.error().message}};
  return {{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}

TEST(MstStatusGolden, CorpusFiles) {
  for (const char* f : {"misc/jiegec-mst-status-redacted.txt",
                        "misc/ocp-nno-mst-status-v-cx7-vfs.txt"}) {
    test::check_golden(f, run);
  }
}

}  // namespace
}  // namespace rk::parse

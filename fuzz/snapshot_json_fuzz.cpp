// libFuzzer target for the two snapshot readers (model/json.hpp snapshot_from_json_text and
// model/json_fast.hpp), with and without counters and evidence: the fast reader never takes a
// document nlohmann refuses, and whenever both take one they read the same snapshot. Built as
// fuzz_snapshot_json; seeds in fuzz/seeds/snapshot.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "rocekit/model/json.hpp"
#include "rocekit/model/json_fast.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (bool lean : {false, true}) {
    rk::Result<rk::Snapshot> slow = rk::snapshot_from_json_text(text, lean);
    std::optional<rk::Snapshot> fast = rk::snapshot_from_json_fast(text, lean);
    if (fast && !slow) __builtin_trap();
    if (fast && rk::snapshot_to_json(*fast) != rk::snapshot_to_json(*slow)) __builtin_trap();
  }
  return 0;
}

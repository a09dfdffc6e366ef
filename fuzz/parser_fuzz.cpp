// libFuzzer target for one tool parser, selected at build time with RK_FUZZ_TOOL (a tool id of
// capture/tools.cpp). Builds one binary per tool: fuzz_<tool>.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rocekit/capture/tools.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const rk::capture::Tool* tool = rk::capture::find_tool(RK_FUZZ_TOOL);
  if (tool == nullptr) __builtin_trap();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)tool->looks_like(text);
  nlohmann::json j = tool->parse_to_json(text);
  (void)j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return 0;
}

// The tool-id registry: a literal table of every parser, used to identify capture files by
// content, by `rocekit parse`, and by the fuzz targets. Tool ids are those of
// testdata/hosts/README.md (public contract).
#pragma once

#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace rk::parse {

struct ToolParser {
  std::string_view id;       ///< capture tool id, e.g. "mlnx_qos", "ethtool_S"
  std::string_view command;  ///< the read-only command that produces it
  bool (*looks_like)(std::string_view body);
  /// {"value": ..., "warnings": [...]} or {"error": "..."}; never throws.
  nlohmann::json (*parse_to_json)(std::string_view body);
};

/// Every parser, most specific sniff first (the order `identify` tries them).
const std::vector<ToolParser>& all_tools();
const ToolParser* find_tool(std::string_view id);
/// The first tool whose sniff accepts the body, or nullptr.
const ToolParser* identify(std::string_view body);

}  // namespace rk::parse

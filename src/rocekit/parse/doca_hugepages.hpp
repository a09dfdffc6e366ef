// Parser for `doca-hugepages show`, tool id "doca_hugepages": the hugepages a BlueField's Arm OS
// reserves per application (Mellanox/mlnx-tools tsbin/doca-hugepages show_config(); the sos
// report's doca plugin collects the same command). Its table, every column 20 wide:
//   Current Hugepages Configuration:
//   Application         Page Size (kB)      Number of Pages     Allocated (GB)      Is Active
//   ====================================================================================================
//   ovs-doca (default)  2048                512                 1.00                active
//   ====================================================================================================
//   Total                                                       1.00
// or "No hugepages configuration found. Try adding one." when none is kept. An application name
// may hold spaces ("ovs-doca (default)"), so a row is read from the right.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct DocaHugepageRow {
  std::string app;
  std::uint64_t page_kib = 0;
  std::uint64_t pages = 0;
  std::string state;  ///< "active", "inactive", "unknown"
  std::size_t line = 0;
};

struct DocaHugepages {
  std::vector<DocaHugepageRow> rows;  ///< empty: "No hugepages configuration found"
};

/// Errors when the text has neither the table header nor the "No hugepages configuration
/// found" line.
Result<Parsed<DocaHugepages>> parse_doca_hugepages(std::string_view text);
nlohmann::json to_json(const DocaHugepages& v);
bool looks_like_doca_hugepages(std::string_view text);

}  // namespace rk::parse

// The firmware NV parameter database that mstflint ships (mlxconfig_host.db, SQLite, tables
// `tlvs` and `params`), read once, read-only, into memory. It answers what mstconfig/mlxconfig
// would answer before touching a NIC: does this parameter exist, does its CLI name need a port
// suffix, is the value legal for its type, width, enum and bounds, and which other NV parameter
// must be set first (the `dependency` column, e.g. MAX_ACC_OUT_READ needs
// ADVANCED_PCI_SETTINGS). Source of the schema and the naming rule: host-facts.md §A.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"

namespace rk::plan {

/// Where mstflint (Debian package `mstflint`) installs the host parameter database.
inline constexpr std::string_view k_default_mlxconfig_db = "/usr/share/mstflint/mlxconfig_dbs/mlxconfig_host.db";

/// One row of `params` joined with its TLV.
struct NvParamInfo {
  std::string name;          ///< DB mlxconfig_name, e.g. "CNP_DSCP" (no port suffix)
  std::string field;         ///< DB field name, e.g. "cnp_dscp"
  std::string tlv;           ///< TLV name, e.g. "nv_roce_cc_ecn"
  int tlv_class = 0;         ///< 0 global, 1 physical port (CLI name needs _P<n>), 3 per host/function, 7 ..., 9 module
  bool read_only = false;    ///< TLV is a capability (cap = 1): never settable
  std::string type;          ///< BOOL, UNSIGNED, INTEGER, ENUM, BINARY, BYTES or STRING
  int width_bits = 0;        ///< from size "0x<bytes hex>.<bits decimal>"
  std::vector<std::pair<std::string, std::int64_t>> enum_values;  ///< ENUM: alias -> number
  std::optional<std::int64_t> min_value;  ///< numeric min_val, when the DB gives a number
  std::optional<std::int64_t> max_value;  ///< numeric max_val, when the DB gives a number
  std::string symbolic_bounds;            ///< non-numeric min/max (device capabilities), as text
  int array_length = 0;
  /// NV parameters (CLI names without suffix) that must be non-zero first, from `dependency`
  /// terms `$<conf tlv>.<field>!=0` / `==1`; capability terms are not listed (device-side).
  std::vector<std::string> prerequisites;
};

/// A CLI name resolved against the DB: the parameter and its port (1..8, 0 = no suffix).
struct NvParamRef {
  const NvParamInfo* info = nullptr;
  int port = 0;
};

class NvParamDb {
 public:
  /// Reads `path` with sqlite3_open_v2(SQLITE_OPEN_READONLY). Errors: not_found (no such
  /// file), malformed_input (not an SQLite DB, or no `params`/`tlvs` tables), with the path.
  static Result<NvParamDb> open(const std::filesystem::path& path);

  /// Resolves a CLI name: "CNP_DSCP_P1" -> CNP_DSCP, port 1. Errors (malformed_input, message
  /// names the parameter and the DB): unknown name, port TLV without _P<n>, suffix on a
  /// non-port parameter, capability (read-only), array, module parameters.
  Result<NvParamRef> resolve(std::string_view cli_name) const;

  /// Validates `cli_name=value` as mstconfig would: BOOL True/False/1/0, ENUM alias or one of
  /// its numbers, UNSIGNED/INTEGER decimal or 0x hex within the field width and numeric DB
  /// bounds. Returns the numeric value. Errors: malformed_input naming parameter, value and rule.
  Result<std::int64_t> validate(std::string_view cli_name, std::string_view value) const;

  /// Parameter by DB name (no suffix); nullptr when absent.
  const NvParamInfo* find(std::string_view name) const;
  std::size_t size() const { return m_params.size(); }
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
  std::map<std::string, NvParamInfo, std::less<>> m_params;
};

/// The DB for a plan: `db` when `path` is a readable parameter DB; when the file does not
/// exist, no db and `missing` = "not validated: <path> not found". Errors: the file exists but
/// cannot be read as a parameter DB (malformed_input naming the path).
struct NvDbChoice {
  std::optional<NvParamDb> db;
  std::string missing;
};
Result<NvDbChoice> open_nv_db_if_present(const std::filesystem::path& path);

}  // namespace rk::plan

// NVIDIA's firmware / driver compatibility table (data/compat/compat.json, schema
// fw-driver-compat/1, documented in data/compat/README.md): which NIC firmware each MLNX_OFED /
// DOCA-Host release's notes give for each adapter family, every row with the page it was copied
// from. Embedded at build time, like the catalog.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"

namespace rk::catalog {

struct CompatFamily {
  std::string family;                    ///< "ConnectX-7"
  std::vector<std::uint16_t> device_ids; ///< PCI device ids of its PFs
  std::optional<int> fw_major;           ///< first field of its firmware versions (28)
};

struct CompatRelease {
  std::string id;                           ///< "mlnx-ofed-23.10-1.1.9.0"
  std::string stack;                        ///< "MLNX_OFED", "DOCA-Host"
  std::string version;                      ///< "23.10-1.1.9.0"
  std::string line;                         ///< "23.10 LTS (2023 LTS U1)"
  std::optional<std::string> ofed_info_s;   ///< what `ofed_info -s` prints, without the ':'
  std::optional<std::string> firmware_train;  ///< "xx.39.2048" (MLNX_OFED)
  std::vector<std::string> sources;
  std::vector<std::string> unsupported_families;
  std::string unsupported_source;
};

struct CompatRow {
  std::string release;                  ///< a CompatRelease id
  std::string family;                   ///< a CompatFamily name
  std::string recommended;              ///< "28.39.2048"
  std::vector<std::string> supported;   ///< further versions the page names
  std::string source;                   ///< the page the versions were copied from
};

/// "28.39.2048": three dot-separated numbers, as NVIDIA firmware versions are written.
bool is_firmware_version(std::string_view v);

class CompatTable {
 public:
  /// The embedded data/compat/compat.json (parsed once; a broken embedded file is a build bug
  /// the tests catch, and gives an empty table here).
  static const CompatTable& builtin();
  /// The table the rules use: builtin(), or the one `use()` installed (`rocekit check --compat
  /// FILE`). Install it before evaluating, from one thread; rules only read it.
  static const CompatTable& active();
  static void use(CompatTable table);
  /// Reads and parses a user's table (at most 16 MiB). Errors: not_found, io, malformed_input
  /// with "FILE:LINE:COLUMN" for JSON syntax, "FILE" and the JSON path for a wrong field.
  static Result<CompatTable> load_file(const std::string& path);
  /// Parses a table. Errors (malformed_input) name `file` and, for JSON syntax, the line.
  static Result<CompatTable> parse(std::string_view json, const std::string& file);

  const CompatFamily* family_of_device(std::uint16_t device_id) const;
  /// The family whose firmware major (the first field of its versions) is `major`.
  const CompatFamily* family_of_major(int major) const;
  /// The release whose `ofed_info -s` string is `release` (trailing ':' ignored).
  const CompatRelease* release_by_ofed_info(std::string_view release) const;
  const CompatRow* row(std::string_view release_id, std::string_view family) const;

  std::vector<CompatFamily> families;
  std::vector<CompatRelease> releases;
  std::vector<CompatRow> rows;

 private:
  static Result<CompatTable> parse_checked(std::string_view json, const std::string& file);
};

}  // namespace rk::catalog

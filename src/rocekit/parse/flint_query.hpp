// Parser for `flint -d <dev> q` / `mstflint -d <BDF> q` (tool id `flint_q`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// One expansion-ROM entry from `Rom Info:` (one line per ROM, e.g.
/// `type=UEFI version=14.25.17 cpu=AMD64,AARCH64`).
struct FlintRomInfo {
  std::string raw;                     ///< the entry as printed, trimmed
  std::optional<std::string> type;     ///< `type=` (UEFI, PXE, FCODE, ...)
  std::optional<std::string> version;  ///< `version=`, kept as a string
  std::optional<std::string> cpu;      ///< `cpu=` (comma list as printed)
};

/// A `Key: value` line that this parser has no dedicated field for (flint adds fields over
/// releases, e.g. `Default Update Method`, `Life cycle`).
struct FlintField {
  std::string name;
  std::string value;
};

/// `flint q` output. Every value is the text flint printed (trimmed), including `N/A`;
/// nullopt means the line is absent. Versions stay strings.
struct FlintQuery {
  std::optional<std::string> image_type;       ///< `Image type:` (FS3, FS4, ...)
  std::optional<std::string> fw_version;       ///< `FW Version:`: the image stored in flash
  /// `FW Version(Running):`: printed only when the running firmware differs from the stored
  /// image (a burn not yet activated by a reset).
  std::optional<std::string> fw_version_running;
  std::optional<std::string> fw_release_date;  ///< `FW Release Date:` (D.M.YYYY as printed)
  std::optional<std::string> product_version;  ///< `Product Version:`
  std::optional<std::string> product_version_running;  ///< `Product Version(Running):`
  std::vector<FlintRomInfo> rom_info;          ///< `Rom Info:` and its continuation lines
  std::optional<std::string> base_guid;        ///< `Base GUID:` first column (hex, as printed)
  std::optional<std::uint64_t> base_guid_count;  ///< `Base GUID:` GuidsNumber column
  std::optional<std::string> base_mac;         ///< `Base MAC:` first column
  std::optional<std::uint64_t> base_mac_count;   ///< `Base MAC:` number column
  std::optional<std::string> image_vsd;        ///< `Image VSD:`
  std::optional<std::string> device_vsd;       ///< `Device VSD:`
  std::optional<std::string> psid;             ///< `PSID:` (MT_... = NVIDIA, DEL... = Dell OEM)
  std::optional<std::string> orig_psid;        ///< `Orig PSID:` (shown after a PSID change)
  std::optional<std::string> device_id;        ///< `Device ID:` (decimal, as printed)
  std::optional<std::string> security_attributes;  ///< `Security Attributes:`
  std::vector<FlintField> other_fields;        ///< other `Key: value` lines, in order
  /// True when the stored (or running) FW version reads 255.255.65535 (flint's value for an
  /// invalid or unreadable image).
  bool invalid_fw_version = false;
};

/// True for flint's "no valid image" version text `255.255.65535`.
bool is_invalid_fw_version(std::string_view version);

/// Parses `flint q` text (capture header already removed). Error only when no flint field is
/// recognised. Warning `truncated` when FW Version is shown but PSID is not (PSID is printed after
/// the versions, GUIDs and VSDs).
Result<Parsed<FlintQuery>> parse_flint_query(std::string_view text);

nlohmann::json to_json(const FlintQuery& v);

/// Cheap sniff: `FW Version:` together with `Image type:`, `PSID:` or `Rom Info:`.
bool looks_like_flint_query(std::string_view text);

}  // namespace rk::parse

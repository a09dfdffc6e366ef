// Parser for `mlxfwmanager [--query]` (tool id `mlxfwmanager`), full and abridged forms.
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

/// The `Status:` line of a device block.
enum class FwManagerStatus {
  up_to_date,          ///< "Up to date"
  update_required,     ///< "Update required" / "Forced update required"
  no_matching_image,   ///< "No matching image found" (no image for this PSID was given/found)
  other,               ///< any other text (kept in status_text)
};

std::string_view to_string(FwManagerStatus s);

/// One row of the `Versions:` table, e.g. `FW  14.23.1020  N/A`.
struct FwManagerVersion {
  std::string component;                ///< FW, PXE, UEFI, FCODE, ...
  std::optional<std::string> current;   ///< `Current` column, as printed (may be "N/A")
  std::optional<std::string> available; ///< `Available` column; nullopt when the column is absent
};

/// A `Key: value` line without a dedicated field (e.g. `Port1 MAC:`, `Port2 GUID:`).
struct FwManagerField {
  std::string name;
  std::string value;
};

/// One `Device #N:` block (or the single implicit block of an abridged capture). String values
/// are as printed, including `N/A` and empty (an empty `Description:`).
struct FwManagerDevice {
  std::optional<std::uint32_t> index;         ///< N of `Device #N:`; nullopt in abridged form
  std::optional<std::string> device_type;     ///< `Device Type:` (ConnectX4LX, ...)
  std::optional<std::string> part_number;     ///< `Part Number:`
  std::optional<std::string> description;     ///< `Description:`
  std::optional<std::string> psid;            ///< `PSID:`
  std::optional<std::string> pci_device_name; ///< `PCI Device Name:` (BDF or /dev/mst path)
  std::optional<std::string> base_mac;        ///< `Base MAC:`
  std::optional<std::string> base_guid;       ///< `Base GUID:`
  std::vector<FwManagerVersion> versions;     ///< `Versions:` table rows
  std::optional<FwManagerStatus> status;      ///< `Status:`; nullopt when not printed
  std::optional<std::string> status_text;     ///< the `Status:` text as printed
  std::vector<FwManagerField> other_fields;   ///< other `Key: value` lines, in order
};

struct Mlxfwmanager {
  std::vector<FwManagerDevice> devices;
};

/// Parses mlxfwmanager output. Error when no device field is recognised. Warning `truncated`
/// for each device block without a `Status:` line (the status is printed last).
Result<Parsed<Mlxfwmanager>> parse_mlxfwmanager(std::string_view text);

nlohmann::json to_json(const Mlxfwmanager& v);

/// Cheap sniff: `Versions:` with `PSID:` or `Device Type:`, or the "Querying Mellanox devices
/// firmware" banner.
bool looks_like_mlxfwmanager(std::string_view text);

}  // namespace rk::parse

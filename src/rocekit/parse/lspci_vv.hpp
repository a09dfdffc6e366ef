// Parser for `lspci -vv` / `-vvv` output, possibly filtered with grep and possibly several
// devices (tool id `lspci_vvv`).
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

/// A PCIe link as shown by `LnkCap:` or `LnkSta:` in the Express capability.
struct PciLink {
  std::string raw;                         ///< the register text, continuation lines joined
  std::optional<double> speed_gts;         ///< `Speed 8GT/s` -> 8.0; nullopt for `unknown`
  bool speed_unknown = false;              ///< `Speed unknown`
  std::optional<std::uint32_t> width_lanes;  ///< `Width x8` -> 8 (`x0` -> 0)
  bool speed_downgraded = false;           ///< `(downgraded)` after the speed (LnkSta)
  bool width_downgraded = false;           ///< `(downgraded)` after the width (LnkSta)
  std::optional<std::uint32_t> port;       ///< `Port #N` (LnkCap)
};

/// One VPD keyword line: `[PN] Part number: MCX4121A-ACAT`.
struct PciVpdField {
  std::string keyword;  ///< PN, EC, SN, V0, ...
  std::string label;    ///< "Part number"
  std::string value;
};

/// The Vital Product Data capability.
struct PciVpd {
  std::optional<std::string> product_name;   ///< `Product Name:`
  std::optional<std::string> part_number;    ///< `[PN]`
  std::optional<std::string> serial_number;  ///< `[SN]`
  std::optional<std::string> engineering_changes;  ///< `[EC]`
  std::vector<PciVpdField> fields;           ///< every `[XX]` line, in order
};

/// The SR-IOV capability of a physical function.
struct PciSriov {
  std::optional<std::uint32_t> initial_vfs;  ///< `Initial VFs:`
  std::optional<std::uint32_t> total_vfs;    ///< `Total VFs:`
  std::optional<std::uint32_t> number_of_vfs;  ///< `Number of VFs:` (enabled now)
  std::optional<std::string> vf_device_id;   ///< `Device ID:` of the VFs (hex, as printed)
};

/// A register printed as flags: `SrcValid+ TransBlk- ReqRedir+ ...` (pciutils FLAG(): '+' set,
/// '-' clear).
struct PciFlags {
  std::string raw;
  std::vector<std::pair<std::string, bool>> flags;  ///< in printed order
  /// The flag `name`, nullopt when the register does not print it.
  std::optional<bool> get(std::string_view name) const;
};

/// One device block.
struct LspciDevice {
  std::string bdf_raw;                  ///< address as printed (`01:00.0` or `0000:01:00.0`)
  std::string bdf;                      ///< normalised `dddd:bb:dd.f`, lower case
  std::size_t line = 0;                 ///< 1-based line of the device header
  std::string class_name;               ///< `Ethernet controller`, `Memory controller`, ...
  std::optional<std::string> class_id;  ///< `[0200]` with -nn
  std::string name;                     ///< device name (ids and `(rev ..)` removed)
  std::optional<std::string> vendor_id;   ///< `[15b3:1015]` with -nn: "15b3"
  std::optional<std::string> device_id;   ///< "1015"
  std::optional<std::string> revision;    ///< `(rev 80)` -> "80"
  std::optional<std::string> subsystem;   ///< `Subsystem:` text (ids removed)
  std::optional<std::string> subsystem_vendor_id;
  std::optional<std::string> subsystem_device_id;
  std::optional<std::string> physical_slot;  ///< `Physical Slot:`
  std::optional<std::int64_t> numa_node;     ///< `NUMA node:`
  std::optional<std::uint32_t> iommu_group;  ///< `IOMMU group:`
  std::optional<std::string> express_type;   ///< `Express (v2) Endpoint` -> "Endpoint"
  std::optional<std::uint32_t> devcap_max_payload_bytes;  ///< DevCap `MaxPayload N bytes`
  std::optional<std::uint32_t> max_payload_bytes;         ///< DevCtl `MaxPayload N bytes`
  std::optional<std::uint32_t> max_read_request_bytes;    ///< DevCtl `MaxReadReq N bytes`
  std::optional<PciLink> link_capability;  ///< LnkCap
  std::optional<PciLink> link_status;      ///< LnkSta
  std::optional<std::string> link_cap2_speeds;   ///< LnkCap2 `Supported Link Speeds: 2.5-8GT/s`
  std::optional<double> link_cap2_max_speed_gts;  ///< highest of those speeds
  std::optional<double> target_link_speed_gts;   ///< LnkCtl2 `Target Link Speed:`
  std::optional<std::uint32_t> primary_bus;      ///< bridges: `Bus: primary=00, secondary=01, ...`
  std::optional<std::uint32_t> secondary_bus;
  std::optional<std::uint32_t> subordinate_bus;
  std::optional<bool> relaxed_ordering;   ///< DevCtl `RlxdOrd+`
  std::optional<bool> no_snoop;           ///< DevCtl `NoSnoop+`
  bool has_acs = false;                   ///< an `Access Control Services` capability
  std::optional<PciFlags> acs_capability; ///< `ACSCap:`
  std::optional<PciFlags> acs_control;    ///< `ACSCtl:`
  bool has_ats = false;                   ///< an `Address Translation Service (ATS)` capability
  std::optional<bool> ats_enabled;        ///< `ATSCtl: Enable+`
  std::optional<PciSriov> sriov;         ///< SR-IOV capability (PFs that support VFs)
  std::optional<PciVpd> vpd;             ///< Vital Product Data
  std::optional<std::string> kernel_driver;  ///< `Kernel driver in use:`
  std::vector<std::string> kernel_modules;   ///< `Kernel modules:` (comma list)
  bool is_virtual_function = false;  ///< name says "Virtual Function" (SR-IOV VF)
  /// Flash-recovery ("livefish") identity: the name says "Flash Recovery" or the device id is a
  /// Mellanox recovery id (0x0209..0x021f range used by ConnectX/BlueField).
  bool flash_recovery = false;
  bool capabilities_denied = false;  ///< `Capabilities: <access denied>` (not run as root)
  bool full_listing = false;         ///< the block has -vv detail lines (`Control:`), not grep'd
  /// Express register lines without a device header (`lspci -vvv -s BDF | grep -E 'Lnk|DevCtl'`):
  /// `bdf` is empty, the file name or the paste's prompt gives the address.
  bool headerless = false;
};

struct LspciVv {
  std::vector<LspciDevice> devices;
};

/// "01:00.0" -> "0000:01:00.0"; lower-cased; nullopt when `s` is not a PCI address.
std::optional<std::string> normalise_bdf(std::string_view s);

/// Parses lspci -vv text (also with -xxx: the hex dump lines are skipped). Error when no device
/// header line is found. Warnings: `unrecognised_line` for unindented lines that are neither
/// device headers nor hex dump lines; `access_denied` when
/// capabilities were not readable; `truncated` when the last full device shows an Express
/// capability without `LnkSta`.
Result<Parsed<LspciVv>> parse_lspci_vv(std::string_view text);

nlohmann::json to_json(const LspciVv& v);

/// Cheap sniff: an unindented `bb:dd.f <class>: <name>` line among the first lines.
bool looks_like_lspci_vv(std::string_view text);

}  // namespace rk::parse

// The NIC/DPU catalog: what each NVIDIA ConnectX / BlueField model is, how to recognise it from a
// PCI device ID, a part number (OPN / OEM P/N), a PSID or a firmware description, and what it can
// do. Data: data/catalog.json (embedded at build time; facts and sources from
// shared/reference/catalog.md sections 1-2 and 5, host-facts.md section I, pci.ids and the
// corpus). Unknown values are std::nullopt / empty, never guessed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"

namespace rk::catalog {

enum class NicKind { nic, dpu, supernic };
std::string_view to_string(NicKind kind);

/// One port configuration a model ships in (catalog.md 2.1/2.2 "Port options").
struct PortOption {
  std::optional<int> port_count;
  std::optional<double> speed_gbps;  ///< Per port, one direction, Gb/s.
  std::string connector;             ///< "QSFP56", "OSFP", ...
  std::vector<std::string> protocols;  ///< "ETH", "IB".
  std::optional<std::string> sku;
  std::optional<std::string> note;
};

/// A flash-recovery ("livefish") PCI device ID: the card has no usable firmware.
struct FlashRecoveryId {
  std::uint16_t device_id = 0;
  bool secure = false;  ///< pci.ids "Secure Flash Recovery" variant.
};

/// Board options; true = documented for some SKUs of the model, nullopt = not documented.
struct NicOptions {
  std::optional<bool> socket_direct;
  std::optional<bool> multi_host;
  std::optional<bool> x16_extension;  ///< "x16 PCIe extension option" (2nd x16 via aux card).
};

struct NicModel {
  std::string key;     ///< Stable id used for merging and part references: "connectx-7".
  std::string name;    ///< "ConnectX-7", "BlueField-3 SuperNIC".
  std::string family;  ///< "ConnectX-7", "BlueField-3".
  NicKind kind = NicKind::nic;
  std::uint16_t pci_vendor_id = 0x15b3;
  std::uint16_t pci_device_id = 0;                 ///< Physical function.
  std::optional<std::uint16_t> vf_device_id;       ///< SR-IOV VF (0x101e is shared, see 1).
  std::optional<std::uint16_t> pcie_bridge_device_id;
  std::vector<FlashRecoveryId> flash_recovery;
  std::optional<std::string> mst_name;             ///< "mt4129" (decimal device ID).
  std::optional<int> fw_major;                     ///< FW "MM" of MM.mm.bbbb (catalog.md 5).
  std::optional<double> max_port_gbps;
  std::vector<PortOption> port_options;
  std::optional<int> pcie_gen;                     ///< Highest PCIe generation of the host link.
  std::vector<int> pcie_gen_supported;
  std::optional<int> pcie_lanes;                   ///< Edge-connector width, lanes.
  std::optional<bool> integrated_pcie_switch;
  NicOptions options;
  std::vector<std::string> ib_gens;                ///< "EDR", "HDR", ... (empty: Ethernet only
                                                   ///< or not documented).
  std::vector<double> eth_speeds_gbps;
  std::vector<std::string> features;               ///< Offloads seen in a primary source.
  std::vector<std::string> features_secondary;     ///< Third-party sources only.
  std::vector<std::string> features_unverified;
  std::vector<std::string> features_not_supported;
  std::optional<int> arm_cores;
  std::optional<std::string> arm_core_type;
  std::optional<double> dram_gb;
  std::optional<double> typical_power_w;
  std::optional<std::string> notes;
  std::vector<std::string> sources;
};

/// One orderable part (OPN) or OEM part number, with what its description/sources state.
struct PartNumber {
  std::string opn;        ///< As printed by the sources: "MCX4121A-ACAT", "020NJD".
  std::string model_key;  ///< NicModel::key.
  std::optional<std::string> oem;  ///< "Dell" for OEM part numbers.
  std::optional<int> port_count;
  std::optional<double> speed_gbps;     ///< Ethernet per port, Gb/s.
  std::optional<double> ib_speed_gbps;  ///< InfiniBand per port (VPI cards), Gb/s.
  std::optional<int> pcie_gen;
  std::optional<int> pcie_lanes;
  std::string description;
  std::vector<std::string> psids;    ///< Board IDs: "MT_2420110034", "DEL2420110034".
  std::vector<std::string> aliases;  ///< Other spellings: "020NJD_0MRT0D".
  std::optional<std::string> note;
  std::vector<std::string> sources;
};

/// Which kind of PCI function a device ID names.
enum class PciFunction { physical, virtual_function, flash_recovery, bridge };
std::string_view to_string(PciFunction function);

/// Result of a device-ID lookup. Several candidates when the ID is shared (0x101e is the VF of
/// every mlx5Gen device; 0xa2dc is both BlueField-3 DPU and SuperNIC): tell them apart by part
/// number or PSID, never by picking the first.
struct DeviceMatch {
  PciFunction function = PciFunction::physical;
  std::uint16_t device_id = 0;
  bool secure_recovery = false;  ///< Only for flash_recovery: the "Secure Flash Recovery" ID.
  std::vector<const NicModel*> candidates;
  /// The model when exactly one candidate matched, else nullptr.
  const NicModel* unique() const { return candidates.size() == 1 ? candidates.front() : nullptr; }
};

/// Result of a part-number or PSID lookup. `part` is null when only the OPN base matched (e.g.
/// "MCX4121A", shared by the 25G and 10G cards) and all candidates agree on the model.
struct PartMatch {
  const PartNumber* part = nullptr;
  const NicModel* model = nullptr;
};

/// Port layout read from a description ("25GbE dual-port SFP28" -> 2 x 25 Gb/s).
struct PortSpeeds {
  int port_count = 0;
  std::optional<double> eth_speed_gbps;  ///< "25GbE", "40GigE", "2x25G".
  std::optional<double> ib_speed_gbps;   ///< From "EDR", "HDR", "NDR IB", ... per port.
  /// The faster of the two (a VPI port runs one protocol at a time), Gb/s.
  double line_rate_gbps() const;
  /// port_count * line_rate_gbps(): what the PCIe link must feed, Gb/s.
  double total_gbps() const;
};

/// Port count and per-port speed from a VPD product name, mlxfwmanager/mlxconfig "Description"
/// or lspci subsystem string. Errors (not_found / malformed_input) when the text has no port
/// count, no speed, or two different counts or speeds: the caller must not guess then.
Result<PortSpeeds> port_speeds_from_text(std::string_view description);

/// Upper-cases, trims and drops a firmware revision suffix: "MCX4121A-ACA_Ax" -> "MCX4121A-ACA".
std::string normalize_part_number(std::string_view part_number);

class Catalog {
 public:
  /// The embedded data/catalog.json, parsed once at first use. The embedded file is checked by
  /// the tests; a broken one is a build defect and throws std::logic_error.
  static const Catalog& builtin();
  /// A copy of builtin(), e.g. to merge a user file into.
  static Result<Catalog> load_builtin();
  /// Reads and parses a catalog file (schema "nic-catalog/1"). Errors carry the path as context
  /// and the JSON position (line/column for syntax, JSON pointer for content) in the message.
  static Result<Catalog> load_file(const std::filesystem::path& path);
  /// Parses catalog JSON text; `origin` names it in errors.
  static Result<Catalog> load_text(std::string_view json_text, std::string_view origin);

  /// Overlays `overlay`: a model with the same key replaces ours, new keys are appended; parts
  /// likewise by normalised OPN. Invalidates pointers previously returned by lookups.
  void merge(const Catalog& overlay);

  const std::vector<NicModel>& models() const { return m_models; }
  const std::vector<PartNumber>& parts() const { return m_parts; }

  const NicModel* find_by_key(std::string_view key) const;
  /// PF, VF, flash-recovery or bridge function ID (vendor 0x15b3). nullopt when unknown.
  std::optional<DeviceMatch> find_by_pci_device_id(std::uint16_t device_id) const;
  bool is_flash_recovery_id(std::uint16_t device_id) const;
  /// The flash-recovery match for `device_id`, nullopt if it is not a recovery ID.
  std::optional<DeviceMatch> recovery(std::uint16_t device_id) const;
  /// OPN ("MCX4121A-ACAT", "MCX4121A-ACA_Ax", base "MCX4121A") or OEM P/N ("020NJD",
  /// "020NJD_0MRT0D_Ax"). not_found when unknown; malformed_input when ambiguous.
  Result<PartMatch> find_by_part_number(std::string_view part_number) const;
  /// Board PSID as printed by flint/mlxfwmanager/devlink ("MT_2420110034", "DEL2420110034").
  Result<PartMatch> find_by_psid(std::string_view psid) const;

 private:
  std::vector<NicModel> m_models;
  std::vector<PartNumber> m_parts;
};

}  // namespace rk::catalog

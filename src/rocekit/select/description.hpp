// A GPU server and its fabric, as `rocekit select` needs them: GPUs and their PCIe switch / NUMA
// placement, NIC slots (generation, lanes, NUMA, switch, power), fabric, tenancy, storage and
// security needs. Read from a YAML description or a built-in platform preset
// (data/platforms/*.yaml, embedded at build time; every preset cites catalog.md section 4).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"

namespace rk::select {

enum class Fabric { roce, infiniband };
enum class Tenancy { single, multi_tenant };
enum class Storage { none, nvme_of, gds };
std::string_view to_string(Fabric f);
std::string_view to_string(Tenancy t);
std::string_view to_string(Storage s);

/// One GPU position. `pcie_switch` names the switch it hangs off (matched against Slot's).
struct GpuPosition {
  int index = 0;
  std::optional<int> numa_node;
  std::optional<std::string> pcie_switch;
};

/// What a slot is meant for: the GPU (east-west, rail) fabric, the frontend (north-south,
/// storage, tenant) network, or either.
enum class SlotUse { compute, frontend, any };
std::string_view to_string(SlotUse u);

/// One NIC slot (or mezzanine / baseboard position).
struct Slot {
  std::string name;
  int gen = 0;                 ///< PCIe generation the slot trains at, 1..6.
  int lanes = 0;               ///< Electrical width, 1/2/4/8/16.
  std::optional<int> numa_node;
  std::optional<std::string> pcie_switch;
  bool x16_extension = false;  ///< A second x16 (aux cable / Socket Direct) is wired to it.
  std::optional<double> power_w;  ///< Power the slot can deliver, W; nullopt = not described.
  SlotUse use = SlotUse::any;
};

struct Description {
  std::string key;                 ///< Preset name or file stem.
  std::string name;                ///< "NVIDIA DGX H100".
  std::string origin;              ///< "preset dgx-h100" or the file path.
  std::vector<std::string> sources;  ///< Citations ("[BASEPOD] ...").
  std::vector<std::string> notes;
  std::optional<std::string> gpu_model;
  int sockets = 1;
  int numa_nodes = 1;
  std::optional<int> gpu_positions;  ///< How many GPUs the chassis takes; nullopt = unlimited.
  std::vector<GpuPosition> gpus;
  std::vector<Slot> slots;
  Fabric fabric = Fabric::roce;
  double gpu_bandwidth_gbps = 400;  ///< Scale-out bandwidth per GPU: 100, 200, 400 or 800.
  int rails = 0;                    ///< NICs (= rails) per server; 0 = one per GPU.
  Tenancy tenancy = Tenancy::single;
  Storage storage = Storage::none;
  bool ipsec = false;               ///< IPsec at line rate required.
  bool tls = false;                 ///< kTLS offload at line rate required.
  bool management_network = true;   ///< A separate management network exists (OOB, BMC).
  int frontend_nics = 0;            ///< NICs/DPUs for the north-south/storage network.
  std::optional<std::string> nic_model;  ///< Force the compute NIC model (catalog key).
};

/// Names of the built-in presets, sorted.
std::vector<std::string> preset_names();
/// The preset's YAML text (embedded), or nullptr-like empty optional when unknown.
std::optional<std::string_view> preset_text(std::string_view name);

/// Loads a built-in preset. not_found (listing the known names) for an unknown name.
Result<Description> load_preset(std::string_view name);
/// Loads a YAML description. A top-level `preset: NAME` starts from that preset and the file's
/// other keys replace its sections. Errors: io (unreadable), malformed_input with
/// "file:line:column: <field>: <why>" for unknown keys, wrong types and out-of-range values
/// (Gen7, negative lanes, more GPUs than gpu_positions, unknown enum words).
Result<Description> load_description_file(const std::string& path);
/// As load_description_file, from text; `origin` names it in errors.
Result<Description> load_description_text(std::string_view yaml, const std::string& origin);

}  // namespace rk::select

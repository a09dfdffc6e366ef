// `rocekit select`: choose the NICs / DPUs for a GPU server and its fabric from the catalog.
//
// Method (catalog.md sections 3.3 and 4): one NIC per rail, NIC k serving GPUs
// [k*g, (k+1)*g) where g = ceil(GPUs / rails); each NIC must carry g x per-GPU bandwidth. Every
// catalog port option is a candidate; it must (1) give that many Gb/s, (2) speak the fabric
// (ETH for RoCE, IB for InfiniBand), (3) carry the features the role needs, (4) be fed by the
// slot's negotiated PCIe link (min of card and slot generation/width, MPS 256 assumed) at a
// ratio >= 1.0 of its port line rate. Among those that pass, the least over-provisioned, fewest
// ports and cheapest kind (NIC < SuperNIC < DPU) wins. Pure function: no I/O.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/catalog/pcie.hpp"
#include "rocekit/core/result.hpp"
#include "rocekit/select/description.hpp"

namespace rk::select {

/// One row of the PCIe feasibility table: a placed NIC, its port line rate and what the slot's
/// negotiated link can move (catalog::effective_gbps, MPS 256), in Gb/s per direction.
struct PcieRow {
  std::string slot;
  std::string role;          ///< "compute" or "frontend".
  std::string model_key;
  int ports = 0;
  double port_gbps = 0;
  double line_rate_gbps = 0;  ///< ports x port_gbps.
  int link_gen = 0;           ///< min(card generation, slot generation).
  int link_lanes = 0;         ///< min(card width, slot width), per link.
  int links = 1;              ///< 2 with an x16 extension (two x16 links).
  int max_payload_bytes = 256;
  double effective_gbps = 0;
  double ratio = 0;           ///< effective / line rate.
  catalog::FeedVerdict verdict = catalog::FeedVerdict::ok;
  double headroom_pct = 0;    ///< (ratio - 1) x 100; negative = oversubscribed.
};

/// Where the NIC serving one GPU sits, and the GPU -> NIC path class that results
/// ("PIX" same switch, "NODE" same NUMA node through the CPU, "SYS" across sockets, "unknown").
struct GpuPlacement {
  int gpu = 0;
  std::optional<int> gpu_numa;
  int rail = 0;
  std::string slot;
  std::optional<std::string> pcie_switch;
  std::optional<int> nic_numa;
  std::string path;
};

/// One line of the bill of NICs for one server.
struct BillLine {
  std::string role;  ///< "compute" (east-west, one per rail) or "frontend" (storage/north-south).
  std::string model_key;
  std::string model_name;
  std::string kind;  ///< "nic", "supernic", "dpu".
  int count = 0;
  int ports = 0;
  double port_gbps = 0;
  std::string connector;
  std::vector<std::string> slots;
};

/// NIC or DPU for the role the description's needs apply to (the frontend when frontend_nics > 0,
/// else the compute NICs), with the reasons and the costs the seed names: Arm cores, memory,
/// power and operational complexity. Unknown catalog values say "unknown" and why.
struct Decision {
  std::string choice;   ///< "nic" or "dpu".
  std::string applies_to;  ///< "frontend" or "compute".
  std::vector<std::string> reasons;
  std::vector<std::string> costs;
};

struct Warning {
  std::string id;        ///< "select.gen4-slot-400g", ...
  std::string severity;  ///< "warning" or "error".
  std::string message;
  std::string fix;
};

/// A compute-NIC candidate that lost, best first, and why.
struct Alternative {
  int rank = 0;  ///< 2 = runner-up (the winner is rank 1).
  std::string model_key;
  std::string model_name;
  int ports = 0;
  double port_gbps = 0;
  std::optional<double> ratio;  ///< PCIe ratio in the first compute slot; nullopt if not evaluated.
  std::string why_lost;
};

struct Selection {
  std::string platform_key;
  std::string platform_name;
  std::string origin;
  std::vector<std::string> sources;
  std::vector<std::string> notes;
  std::string fabric;
  double gpu_bandwidth_gbps = 0;
  int gpu_count = 0;
  int rails = 0;
  int gpus_per_nic = 0;
  double need_per_nic_gbps = 0;
  std::vector<BillLine> bill;
  std::vector<GpuPlacement> placement;
  Decision decision;
  std::vector<PcieRow> pcie;
  std::vector<Warning> warnings;
  std::vector<Alternative> alternatives;
};

/// Runs the selection. Errors: malformed_input "nic_model: unknown model 'x' (known: ...)" when
/// a forced model is not in the catalog; malformed_input when no compute slot is described.
Result<Selection> select_nics(const Description& description, const catalog::Catalog& catalog);

/// The link(s) a card trains in a slot: min generation, min width, MPS 256 assumed. A slot with
/// an x16 extension and a card with the x16 extension or Socket Direct option train two x16
/// links (catalog.md 3.3 "Gen5 2 x x16"), each with its own DMA engine path.
struct NegotiatedLink {
  catalog::PcieLink link;
  int links = 1;
  /// links x catalog::effective_gbps(link), Gb/s per direction; error outside the model.
  Result<double> effective_gbps() const;
};

/// nullopt when the card's PCIe generation or width is not in the catalog.
std::optional<NegotiatedLink> negotiated_link(const catalog::NicModel& model, const Slot& slot);

}  // namespace rk::select

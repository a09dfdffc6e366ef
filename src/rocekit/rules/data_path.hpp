// The GPUDirect data path of a host, GPU by GPU: the NIC each GPU would use, the PCIe hops
// between them with their links, the bandwidth ceiling the slowest hop sets, and the verdicts of
// the path rules on that pair. `rocekit select --host` renders it; the verdicts are the rules'
// own findings (rules/path_rules.cpp, rules/host_rules.cpp), not a second judgement.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rocekit/model/finding.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk::rules {

/// One device or bridge port on the path, GPU first, NIC last.
struct PathHop {
  std::string bdf;
  std::string role;                 ///< "GPU", "Downstream Port", "Root Port", ..., "NIC"
  std::optional<std::string> link;  ///< negotiated link of the port or device, "Gen4 x16"
  std::optional<int> max_payload_bytes;
  std::optional<double> gbps;       ///< payload rate of that link (catalog/pcie.hpp model)
  std::optional<std::string> acs;   ///< ACSCtl bits of a bridge port, as lspci prints them
};

/// A path rule's finding on this GPU <-> NIC pair (or on the GPU, or on the NIC's function).
struct PathVerdict {
  std::string rule;
  Outcome outcome = Outcome::unknown;
  Severity severity = Severity::warning;
  std::string message;
};

struct DataPath {
  int gpu = 0;
  std::optional<std::string> gpu_bdf;
  std::optional<std::string> gpu_model;
  std::optional<std::string> nic;        ///< RDMA device: the closest by relation (on Grace: on the GPU's CPU)
  std::optional<std::string> nic_bdf;
  std::optional<std::string> relation;   ///< PIX, PXB, PHB, NODE, SYS as nvidia-smi names it
  std::optional<std::string> c2c;        ///< why the GPU is NVLink-C2C coupled to a Grace CPU
  bool through_root_complex = false;     ///< no shared bridge: the path turns at the CPU
  std::vector<PathHop> hops;
  std::optional<double> ceiling_gbps;    ///< min payload rate over the hops' links, one direction
  std::optional<std::string> ceiling_at; ///< the hop that sets it
  std::string hops_unknown;              ///< why the hops are not listed (empty when they are)
  std::vector<PathVerdict> verdicts;
};

/// One row per GPU of the snapshot (empty when the GPUs are not known).
std::vector<DataPath> data_paths(const Snapshot& s, const Policy& policy);

}  // namespace rk::rules

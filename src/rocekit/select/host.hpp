// `rocekit select --host`: judge the NICs actually installed in a host (a capture or snapshot)
// against their negotiated PCIe links, NUMA nodes and GPU placement, and say what to move or
// replace. Pure function over a Snapshot; missing inputs become `unknowns` with the reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/rules/data_path.hpp"

namespace rk::select {

/// One installed NIC (a physical PCI function of vendor 0x15b3), as judged.
struct HostNic {
  std::string bdf;
  std::optional<std::string> rdma_device;  ///< mlx5_0, mlx4_0
  std::string model;                       ///< catalog name, else the lspci name, else "unknown"
  std::optional<std::string> part_number;
  std::optional<int> numa_node;
  std::optional<int> ports;
  std::optional<double> port_gbps;         ///< Per port line rate (port_speeds_from_text).
  std::optional<std::string> link_capability;  ///< "Gen3 x16"
  std::optional<std::string> link_status;      ///< "Gen3 x8 (downgraded)"
  std::optional<int> max_payload_bytes;
  std::optional<double> effective_gbps;        ///< At the negotiated link.
  std::optional<double> effective_at_capability_gbps;
  std::optional<double> ratio;                 ///< effective / (ports x port_gbps).
  std::optional<std::string> verdict;          ///< ok / marginal / oversubscribed.
  std::vector<int> gpus;                       ///< GPUs whose closest NIC this is.
};

/// One GPU and its closest NIC by nvidia-smi topo relation.
struct HostGpu {
  int index = 0;
  std::optional<int> numa_node;
  std::optional<std::string> cpu_affinity;
  std::optional<std::string> nic;
  std::optional<std::string> relation;  ///< PIX, PXB, PHB, NODE, SYS
};

/// A finding with the action: what to move or replace.
struct HostAdvice {
  std::string id;        ///< "host.pcie-downgraded", "host.gpu-nic-cross-socket", ...
  std::string severity;  ///< "error", "warning", "unknown"
  std::string subject;
  std::string message;
  std::string action;
  Evidence evidence;
};

struct HostJudgement {
  std::string hostname;
  std::string source;
  std::vector<HostNic> nics;
  std::vector<HostGpu> gpus;
  /// Per GPU, the PCIe path to its NIC with the path rules' verdicts (default policy).
  std::vector<rules::DataPath> data_paths;
  std::vector<HostAdvice> advice;
  bool any_error() const;
  /// Whether anything was judged: a NIC's PCIe link is known, or a path rule passed or failed
  /// on some GPU. Without it, no error is no verdict (`select --host` exits 3).
  bool anything_judged() const;
};

HostJudgement judge_host(const Snapshot& snapshot, const catalog::Catalog& catalog);

}  // namespace rk::select

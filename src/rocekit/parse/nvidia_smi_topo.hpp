// Parser for `nvidia-smi topo -m` (tool id `nvidia_smi_topo`).
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

/// The connection type of one matrix cell, declared closest first so that `<` means "closer":
/// self < nvlink < pix < pxb < phb < node < sys < unknown. The legacy `SOC` (drivers before
/// ~2017) is `sys`.
enum class TopoLink {
  self,     ///< `X`
  nvlink,   ///< `NV#`: a bonded set of # NVLinks
  pix,      ///< at most one PCIe bridge
  pxb,      ///< several PCIe bridges, no host bridge
  phb,      ///< through a PCIe host bridge (the CPU)
  node,     ///< between host bridges within one NUMA node
  sys,      ///< across the SMP interconnect between NUMA nodes (`SYS`, legacy `SOC`)
  unknown,  ///< any other text
};

std::string_view to_string(TopoLink link);

/// `X`, `NV12`, `PIX`, ... -> TopoLink (case-sensitive, as printed).
TopoLink topo_link_from_text(std::string_view cell);

/// One matrix cell: the row's relation to the device of column `peer`.
struct TopoCell {
  std::string peer;                       ///< column header (GPU1, NIC0, mlx5_0, ...)
  std::string text;                       ///< cell as printed (`PIX`, `NV18`, `SOC`, `X`)
  TopoLink link = TopoLink::unknown;
  std::optional<std::uint32_t> nvlinks;   ///< # of `NV#`
};

/// One matrix row (a GPU or a NIC).
struct TopoRow {
  std::string name;                       ///< row label as printed (GPU0, NIC0, mlx4_0)
  std::size_t line = 0;                   ///< 1-based line of the row in the text
  bool is_gpu = false;                    ///< label is GPU<n>
  std::vector<TopoCell> cells;            ///< one per device column, in header order
  std::optional<std::string> cpu_affinity;   ///< `CPU Affinity` (e.g. "0-13,28-41", "N/A")
  std::optional<std::string> numa_affinity;  ///< `NUMA Affinity` (e.g. "0", "N/A")
  std::optional<std::string> gpu_numa_id;    ///< `GPU NUMA ID`
};

/// `NIC Legend:` entry: `NIC0: mlx5_0`.
struct TopoNicLegend {
  std::string label;   ///< NIC0
  std::string device;  ///< RDMA device name (mlx5_0, rocep4s0f0)
};

/// One GPU's relation to one NIC (derived from the GPU's row).
struct TopoGpuNic {
  std::string nic;          ///< column label (NIC0 or the device name in older matrices)
  std::string rdma_device;  ///< RDMA device name: the NIC Legend entry, else the column label
  TopoLink link = TopoLink::unknown;
  std::string text;         ///< cell as printed
};

/// Per GPU: its NICs, in column order, and the closest relation among them.
struct TopoGpu {
  std::string name;                     ///< GPU0
  std::optional<std::uint32_t> index;   ///< 0 for GPU0
  /// Product name from an `nvidia-smi -L` line pasted above the matrix
  /// (`GPU 0: NVIDIA GB10 (UUID: GPU-...)`), else nullopt.
  std::optional<std::string> model;
  std::vector<TopoGpuNic> nics;
  std::optional<TopoLink> closest_nic_link;  ///< min over nics; nullopt without NICs
};

struct NvidiaSmiTopo {
  std::vector<std::string> columns;     ///< device column labels, header order
  std::vector<std::string> attribute_columns;  ///< "CPU Affinity", "NUMA Affinity", ...
  std::vector<TopoRow> rows;
  std::vector<TopoNicLegend> nic_legend;
  bool legacy_soc = false;              ///< a `SOC` cell or legend line was seen
  std::vector<TopoGpu> gpus;            ///< derived GPU -> NIC view
};

/// Parses the matrix (TAB- or space-separated; cells are whitespace tokens counted against the
/// header), the `NIC Legend:` section, and skips the `Legend:` text. Above the header it takes
/// `nvidia-smi -L` lines (GPU models) and skips the echoed `nvidia-smi` command lines. Error when no header row
/// with device columns is found. Warning `truncated` when rows are missing or short.
Result<Parsed<NvidiaSmiTopo>> parse_nvidia_smi_topo(std::string_view text);

nlohmann::json to_json(const NvidiaSmiTopo& v);

/// Cheap sniff: the first non-blank line is a matrix header (GPU<n>/NIC<n> column labels).
bool looks_like_nvidia_smi_topo(std::string_view text);

}  // namespace rk::parse

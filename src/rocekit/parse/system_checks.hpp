// Parser for the NVIDIA Aerial `cuBB_system_checks.py` report, tool id "system_checks".
//
// The report is a list of sections, each opened by a banner "-----Name-----...". Inside a
// section, lines are "Key   : value"; a line without a colon at column 0 ("GPU0", "NIC0",
// "Interface0") opens a record whose indented "  Key : value" lines follow. The
// "GPUDirect topology" section holds an `nvidia-smi topo -m` matrix and its legend instead.
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

/// One "Key : value" line as printed (key and value trimmed).
struct SystemChecksField {
  std::string key;
  std::string value;
};

/// A record inside a section ("GPU0", "NIC0", "Interface0") with its indented fields.
struct SystemChecksRecord {
  std::string name;
  std::vector<SystemChecksField> fields;
};

/// One "-----Name-----" section: its top-level fields and its records.
struct SystemChecksSection {
  std::string name;
  std::vector<SystemChecksField> fields;
  std::vector<SystemChecksRecord> records;
};

/// A record of the "Mellanox NIC Interfaces" section, typed.
struct SystemChecksInterface {
  std::string record;                         ///< "Interface0"
  std::optional<std::string> netdev;          ///< "Name"
  std::optional<std::string> rdma_device;     ///< "Network adapter" (mlx5_N)
  std::optional<std::string> pcie_bdf;        ///< "PCIe bus id" (with domain)
  std::optional<std::string> mac;             ///< "Ethernet address"
  std::optional<std::string> operstate;       ///< "Operstate" (up/down/...)
  std::optional<std::uint32_t> mtu_bytes;     ///< "MTU" (netdev MTU)
  std::optional<bool> rx_flow_control;        ///< "RX flow control" on/off (802.3x pause)
  std::optional<bool> tx_flow_control;        ///< "TX flow control" on/off (802.3x pause)
  std::optional<std::string> trust;           ///< "QoS Priority trust state" (dscp/pcp)
  std::optional<std::uint32_t> max_read_request_bytes;  ///< "PCIe MRRS" ("4096 bytes")
  std::optional<std::uint32_t> ptp_hardware_clock;      ///< "PTP hardware clock" index
};

/// A record of the "Mellanox NICs" section, typed; `params` holds the mlxconfig-style rows.
struct SystemChecksNic {
  std::string record;                         ///< "NIC0"
  std::optional<std::string> product_name;    ///< "NIC product name" (ConnectX6DX)
  std::optional<std::string> part_number;     ///< "NIC part number"
  std::optional<std::string> pcie_bdf;        ///< "NIC PCIe bus id"
  std::optional<std::string> fw_version;      ///< "NIC FW version"
  std::vector<SystemChecksField> params;      ///< the other rows (FLEX_PARSER_PROFILE_ENABLE...)
};

/// One GPU -> NIC cell of the "GPUDirect topology" matrix (nvidia-smi topo -m).
struct SystemChecksGpuNicLink {
  std::string gpu;          ///< row label, "GPU0"
  std::string nic;          ///< column label, "mlx5_0"
  std::string connection;   ///< X, PIX, PXB, PHB, NODE, SYS, SOC, NV#
};

struct SystemChecks {
  std::vector<SystemChecksSection> sections;  ///< everything, in printed order
  std::optional<std::string> hostname;              ///< General / "Hostname"
  std::optional<std::string> kernel_version;        ///< General / "Linux kernel version"
  std::optional<std::string> gpu_driver_version;    ///< Nvidia GPUs / "GPU driver version"
  std::optional<std::string> cuda_version;          ///< Nvidia GPUs / "CUDA version"
  std::optional<std::string> mofed_version;         ///< Software Packages / "MOFED"
  /// Loaded Kernel Modules: module names as printed ("nvidia_peermem", "gdrdrv", ...).
  std::vector<std::string> loaded_modules;
  std::vector<SystemChecksNic> nics;
  std::vector<SystemChecksInterface> interfaces;
  std::vector<SystemChecksGpuNicLink> gpu_nic_links;
};

/// Parses a cuBB_system_checks.py report. Warnings: "unrecognised_line", "bad_number".
Result<Parsed<SystemChecks>> parse_system_checks(std::string_view text);

nlohmann::json to_json(const SystemChecks& v);

/// True on the "-----General-----" / "-----Mellanox NIC Interfaces-----" banners.
bool looks_like_system_checks(std::string_view text);

}  // namespace rk::parse

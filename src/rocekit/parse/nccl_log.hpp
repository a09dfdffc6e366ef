// Parser for NCCL_DEBUG=INFO log lines, tool id "nccl_log".
//   host:pid:tid [cudaDev] NCCL INFO <message>
//   host:pid:tid [cudaDev] <file>:<line> NCCL WARN <message>
// also behind Open MPI's --tag-output "[1,0]<stdout>:" prefix.
// Recognised messages: "NCCL version X", "NET/IB : Using [0]mlx5_0:1/RoCE ...",
// "NET/IB : GPU Direct RDMA Enabled|Disabled for HCA <n> '<dev>'", "DMA-BUF is available on GPU
// device <n>" (init.cc ncclDmaBufSupport(): NCCL_DMABUF_ENABLE on, the net plugin registers
// DMA-BUF memory, CUDA driver >= 11.7 and CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED), "Channel NN/M : ... via
// <transport>" (GPUDirect RDMA when the transport ends in "/GDRDMA"), "<NAME> set by environment to
// <value>[.]" (what NCCL read from its environment, which includes what /etc/nccl.conf and
// ~/.nccl.conf set: src/misc/param.cc ncclLoadParam, setEnvFile), "Using network <name>" (init.cc:
// "IB", "Socket" or a plugin's name such as "IBext_v8"), "Connected all rings" (and trees, NVLS:
// the connections are up), and every WARN line (with "status=N" and
// "vendor err N" of IB completion errors). Other INFO lines are counted only.
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

/// One "[i]dev:port/LinkLayer" item of "NET/IB : Using".
struct NcclIbDevice {
  std::uint32_t index = 0;                 ///< NCCL's NET/IB device index (the n of NET/IB/n)
  std::string rdma_device;                 ///< mlx5_0
  std::optional<std::uint32_t> port;       ///< RDMA port
  std::optional<std::string> link_layer;   ///< "RoCE" or "IB"
};

/// "GPU Direct RDMA Enabled|Disabled for HCA n 'dev'".
struct NcclGdrStatus {
  std::uint32_t hca_index = 0;
  std::string rdma_device;
  bool enabled = false;
};

/// A "Channel" transport line.
struct NcclChannel {
  std::string host;                        ///< the log prefix host name
  std::uint32_t channel = 0;               ///< "Channel 03/0" -> 3
  std::optional<std::string> direction;    ///< "send" / "receive" when printed
  std::string transport;                   ///< "NET/IB/1/GDRDMA", "P2P/IPC", ...
  std::optional<std::uint32_t> net_device; ///< n of NET/IB/n or NET/Socket/n
  bool gdrdma = false;                     ///< transport ends with "/GDRDMA"
  std::size_t line = 0;
};

/// A "NCCL WARN" line.
struct NcclWarn {
  std::string host;
  std::optional<std::string> source;       ///< "transport/net_ib.cc:2244"
  std::string message;                     ///< text after "NCCL WARN "
  std::optional<std::uint32_t> status;     ///< ibv_wc_status from "status=N" (12 = retry exceeded)
  std::optional<std::uint32_t> vendor_err; ///< "vendor err N"
  std::size_t line = 0;
};

/// "NCCL_IB_TC set by environment to 106.": a parameter NCCL read from its environment.
struct NcclEnvEcho {
  std::string name;   ///< "NCCL_IB_TC"
  std::string value;  ///< as printed, the trailing '.' of numeric parameters removed
  std::size_t line = 0;
};

struct NcclLog {
  std::optional<std::string> version;      ///< "NCCL version 2.21.5+cuda12.4"
  std::vector<NcclIbDevice> ib_devices;
  std::vector<NcclGdrStatus> gdr_status;
  std::vector<std::uint32_t> dmabuf_gpus;  ///< "DMA-BUF is available on GPU device N", N as printed
  std::size_t dmabuf_line = 0;             ///< the first such line
  std::vector<NcclChannel> channels;
  std::vector<NcclWarn> warns;
  /// Every "set by environment" line, first per name (later ones repeat it per thread or rank).
  std::vector<NcclEnvEcho> env;
  std::optional<std::string> network;      ///< "Using network IB": "IB", "Socket", "IBext_v8"
  std::size_t network_line = 0;
  std::uint64_t info_lines = 0;            ///< all "NCCL INFO" lines
  bool elided = false;                     ///< a "[...]" line (the capture was cut by hand)
  /// The first "Connected all rings|trees|..." line: the channels' connections are established.
  std::size_t connected_line = 0;
  /// The "host" of each line's "host:pid:tid" prefix, distinct, in first-seen order: an mpirun or
  /// srun log holds the lines of every node.
  std::vector<std::string> hosts;
};

/// `text` with every NCCL line of another host than `host` blanked (line numbers kept).
std::string nccl_log_of_host(std::string_view text, std::string_view host);

/// True when at least one channel goes over NET with GDRDMA.
bool any_gdrdma(const NcclLog& v);

/// Errors when no NCCL log line is present.
Result<Parsed<NcclLog>> parse_nccl_log(std::string_view text);
nlohmann::json to_json(const NcclLog& v);
bool looks_like_nccl_log(std::string_view text);

}  // namespace rk::parse

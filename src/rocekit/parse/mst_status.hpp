// Parser for `mst status [-v]` (tool id `mst_status`, MFT).
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

/// One entry of the `MST devices:` list (`mst status` without -v):
/// `/dev/mst/mt4119_pciconf0  - PCI configuration cycles access.` and its indented detail lines.
struct MstDevice {
  std::string path;                        ///< /dev/mst/... as printed
  std::optional<std::string> access;       ///< text after " - " (access method description)
  std::optional<std::string> bdf;          ///< `domain:bus:dev.fn=` value as printed
  std::optional<std::string> chip_revision;  ///< `Chip revision is: NN`
};

/// One row of the `PCI devices:` table (`mst status -v`), columns DEVICE_TYPE MST PCI RDMA NET
/// NUMA. Cells printed as `NA` or left blank are nullopt.
struct MstPciDevice {
  std::optional<std::string> device_type;  ///< e.g. `ConnectX7(rev:0)`; NA for SR-IOV VFs
  std::optional<std::string> mst;          ///< MST device name, nullopt when NA (mst not started)
  std::string pci;                         ///< PCI address as printed (e.g. `37:00.4`)
  std::string bdf;                         ///< `pci` normalised to `dddd:bb:dd.f`, lower case
  std::optional<std::string> rdma;         ///< RDMA device (mlx5_N)
  std::optional<std::string> net;          ///< NET cell as printed (`net-ens1f0`)
  std::optional<std::string> netdev;       ///< the netdev name (NET cell without `net-`)
  std::optional<std::int64_t> numa_node;   ///< NUMA cell; nullopt when NA, blank or -1
};

struct MstStatus {
  std::vector<std::string> modules;         ///< lines under `MST modules:`, trimmed
  std::optional<bool> pci_module_loaded;    ///< "MST PCI module [is not] loaded"
  std::optional<bool> pciconf_module_loaded;  ///< "MST PCI configuration module [is not] loaded"
  std::vector<MstDevice> mst_devices;       ///< `MST devices:` list
  std::vector<MstPciDevice> pci_devices;    ///< `PCI devices:` table (-v)
};

/// Parses `mst status [-v]`. Error when no section or device is recognised.
Result<Parsed<MstStatus>> parse_mst_status(std::string_view text);

nlohmann::json to_json(const MstStatus& v);

/// Cheap sniff: `MST modules:` or `MST devices:` or the -v table header `DEVICE_TYPE`.
bool looks_like_mst_status(std::string_view text);

}  // namespace rk::parse

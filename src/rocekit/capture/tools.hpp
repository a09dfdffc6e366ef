// The tool table: every capture tool id declared once, with its content sniff, parser, merge
// into the Snapshot, merge order, the command that produces it and the "not captured" reasons
// of the snapshot sections it fills. Content detection (identify), the reasons of a capture that
// lacks a tool (assemble.cpp), `rocekit parse`, the fuzz targets (fuzz/tools.cmake, held equal
// by tests/capture/tools_test.cpp) and the tool table of testdata/hosts/README.md (same test)
// derive from it. Tool ids are a public contract (testdata/hosts/README.md).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace rk::capture {

struct Ctx;

/// A snapshot section that stays Collected-missing when no file fills it.
enum class Section {
  netdev_mtu, netdev_operstate, netdev_driver, netdev_qos, netdev_pause, netdev_coalesce,
  netdev_channels, netdev_ecn, netdev_link, netdev_stats,
  port_state, port_gids, port_cm_mode, port_counters,
  pci_link, pci_mrrs, pci_firmware, pci_nv_config,
  host_gpus, host_gpudirect, host_modules, host_persistence, host_nvidia_driver, host_kernel_release,
  pci_ats, pci_iommu_group, host_iommu,
  port_cm_tos, port_traffic_class, host_app_settings, host_driver_stack,
  host_memory, host_doca_hugepages, host_static_pods,
};

/// The reason a section is missing when no file of this tool filled it. In `what`, "<netdev>",
/// "<rdma>", "<port>" and "<bdf>" stand for the subject. A plain gap reads "not captured (no
/// <what> output in the capture)", or "<tool> <status> on the host" when the capture log records
/// the tool as missing or failed; a `fixed` gap is the whole reason (several tools fill it).
struct Gap {
  Section section;
  std::string_view what;
  bool fixed = false;
};

struct Tool {
  std::string_view id;       ///< capture tool id, e.g. "mlnx_qos", "ethtool_S"
  std::string_view command;  ///< the read-only command that produces it
  bool (*looks_like)(std::string_view body);
  /// {"value": ..., "warnings": [...]} or {"error": "..."}; never throws.
  nlohmann::json (*parse_to_json)(std::string_view body);
  void (*merge)(Ctx&);       ///< nullptr: parsed, not used by a rule yet
  int order = 100;           ///< merge order: identity and links (lower) first
  std::vector<Gap> gaps;
};

/// Every tool, most specific sniff first (the order `identify` tries them).
const std::vector<Tool>& all_tools();
const Tool* find_tool(std::string_view id);
/// The first tool whose sniff accepts the body, or nullptr.
const Tool* identify(std::string_view body);

/// "line N" in a parser's error message, with N + offset (a file's header lines before the body).
std::string shift_line_text(const std::string& message, std::size_t offset);

/// `rocekit parse`: `t`'s parse_to_json of a file's body (parse::strip_capture_header) whose
/// first line is line `body_first_line` of the file, with every line number a line of the file
/// (as the capture reader cites them): the warnings' and the value's "line" and "*_line" keys,
/// and "line N" in the error.
nlohmann::json parse_file_to_json(const Tool& t, std::string_view body, std::size_t body_first_line);

}  // namespace rk::capture

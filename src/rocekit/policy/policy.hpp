// The RoCE policy a host is checked against. The built-in default is the seed chapter's intent
// with the real mechanisms of shared/reference/host-facts.md: RoCE priority 3 / DSCP 26, CNP
// DSCP 48 -> priority 6, trust dscp, PFC on priority 3 only, DCQCN on priority 3, netdev MTU
// >= 4200, RoCE active MTU 4096, MaxReadReq 4096, coalescing profile "ai-training".
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/model/finding.hpp"

namespace rk {

struct RuleOverride {
  std::optional<bool> enabled;
  std::optional<Severity> severity;
};

/// Interrupt-coalescing profile. It affects netdev (TCP/IP) traffic only: RDMA completions do
/// not go through the netdev's interrupt moderation.
struct CoalescingProfile {
  std::string name = "ai-training";
  std::optional<bool> adaptive_rx = false;  ///< nullopt = not judged
  std::uint32_t rx_usecs_min = 8;
  std::uint32_t rx_usecs_max = 16;
  std::uint32_t tx_usecs_min = 8;
  std::uint32_t tx_usecs_max = 16;
};

/// Thresholds of `rocekit diagnose` (policy section `diagnose:`). Defaults follow counters.csv.
struct DiagnoseThresholds {
  /// tx_prio<N>_pause_duration occupancy (us paused per us of window, 0..1) at or above which
  /// the host is a pause-storm origin (counters.csv: ~1.0 sustained).
  double storm_occupancy = 0.9;
  /// PFC pause frames per second on the RoCE priority below which "PFC without ECN" stays quiet.
  double pfc_min_pause_per_s = 1.0;
};

/// What an interface is for (policy section `interfaces:`). compute and storage netdevs are
/// RoCE ports: judged and planned with the policy's settings; management netdevs are never
/// judged or changed, whatever their hardware.
enum class InterfaceRole { compute, storage, management };
std::string_view to_string(InterfaceRole r);

/// One `interfaces:` entry: a role and what it matches. An interface matches when its netdev
/// name, its PCI address or its RDMA device matches one of the shell patterns (fnmatch).
struct InterfaceRoleRule {
  InterfaceRole role = InterfaceRole::compute;
  std::vector<std::string> netdev;       ///< "ens*np0", "eno1"
  std::vector<std::string> pci;          ///< "0000:c1:00.*"
  std::vector<std::string> rdma_device;  ///< "mlx5_*"
};

struct Policy {
  std::string name = "default";
  int roce_priority = 3;              ///< IEEE 802.1p priority carrying RoCE (0..7)
  int roce_dscp = 26;                 ///< DSCP of RoCE data packets (0..63)
  std::string trust = "dscp";         ///< "dscp" or "pcp"
  std::vector<int> pfc_priorities{3}; ///< priorities that must have PFC on; all others off
  std::vector<int> ecn_priorities{3}; ///< priorities with DCQCN RP and NP enabled
  /// Longest host-to-switch cable in metres (`roce.cable_length_m`): mlx5 sizes the lossless
  /// buffer's headroom from the NIC's cable length (mlnx_qos --cable_len, default 7 m), so a
  /// NIC set shorter than the real cable drops on the RoCE priority under pause. nullopt = the
  /// policy does not say; only the buffer the NIC's own setting needs is judged.
  std::optional<int> cable_length_m;
  int cnp_dscp = 48;
  int cnp_priority = 6;
  int netdev_mtu_min_bytes = 4200;
  int roce_active_mtu_bytes = 4096;
  int max_read_request_bytes = 4096;
  CoalescingProfile coalescing;
  bool channels_within_numa_cores = true;
  std::vector<std::string> gpu_nic_relations{"PIX", "PXB"};  ///< nvidia-smi topo values that pass
  std::optional<bool> adaptive_routing;  ///< required ROCE_ADAPTIVE_ROUTING_EN; nullopt = report
  /// `firmware.warn_releases_behind`: fw.releases-behind warns when a NIC's firmware is this
  /// many firmware releases (trains, the middle field: 28.43 -> 28.47 is four) or more behind
  /// the newest the compatibility table knows for its adapter family (1..99).
  int firmware_warn_releases_behind = 5;
  std::vector<InterfaceRoleRule> interfaces;  ///< first match wins
  /// Netdevs named on the command line (--netdev): in scope even without an RDMA device, and
  /// planned even when they carry the default route or the ssh session. Not in the YAML.
  std::vector<std::string> named_netdevs;
  std::map<std::string, RuleOverride> rules;
  DiagnoseThresholds diagnose;
  /// `fleet.ignore`: settings `rocekit fleet` does not compare across hosts: a fleet setting id
  /// ("mtu", "firmware", ...: the `setting` of the fleet rules) or a firmware parameter
  /// ("nv.NUM_OF_VFS"). Syntax is checked at load; rocekit fleet refuses ids it does not know.
  std::vector<std::string> fleet_ignore;

  bool rule_enabled(const std::string& id) const;
  Severity severity_for(const std::string& id, Severity builtin) const;
};

Policy default_policy();

/// Loads a YAML policy file over the defaults. Errors (malformed_input) name the file and
/// line:column: unknown keys, wrong types, out-of-range values, unknown rule ids.
/// `known_rule_ids` validates the `rules:` section (rules::policy_rule_ids(): host, switch and
/// fleet rules of the rule registry).
Result<Policy> load_policy_file(const std::filesystem::path& path,
                                const std::vector<std::string>& known_rule_ids);
Result<Policy> load_policy_text(std::string_view yaml, const std::string& file_name,
                                const std::vector<std::string>& known_rule_ids);

/// The effective policy as YAML (`rocekit policy show`); loading it gives the same policy.
std::string policy_to_yaml(const Policy& p);

}  // namespace rk

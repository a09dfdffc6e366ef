// The fleet rules (`rocekit fleet`): rows of the one rule registry (rule.hpp). Evaluated by
// fleet::compare_hosts (src/rocekit/fleet/compare.cpp, judge.cpp): per setting, the majority value
// across the group (the subject) is the baseline and every NIC with another value is an outlier;
// when the majority violates the policy or there is a tie, the policy's value (reference.cpp) is
// the reference and the NICs that violate it are the outliers; a tie without a policy value, or
// fewer than two reporting NICs, is unknown.
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

void add_fleet_rules(std::vector<RuleInfo>& out) {
  out.push_back({
      .id = "fleet.input-loaded",
      .title = "Every host input loads",
      .severity = Severity::error,
      .subject = "input",
      .rationale = "A host that cannot be read is a host nobody checked; the report names the file and why.",
      .outcomes = {Outcome::fail},
      .inputs = "every host input (capture directory, tarball or snapshot JSON) given to `rocekit fleet`",
      .family = Family::fleet,
  });
  out.push_back({
      .id = "fleet.trust-consistent",
      .title = "One trust mode across the fleet",
      .severity = Severity::error,
      .subject = "all NICs",
      .rationale = "A port left at trust pcp classifies routed RoCE into priority 0 and misses PFC while every "
          "other host is lossless.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC port: the trust state (mlnx_qos / dcbnl APP table)",
      .family = Family::fleet,
      .setting = "trust",
      .value_form = "`dscp` / `pcp`",
  });
  out.push_back({
      .id = "fleet.dscp-map-consistent",
      .title = "One DSCP to priority map across the fleet",
      .severity = Severity::error,
      .subject = "all NICs",
      .rationale = "A host that maps the RoCE DSCP to another priority sends RoCE into a lossy queue.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC port: the DSCP-to-priority map (mlnx_qos / dcbnl APP table)",
      .family = Family::fleet,
      .setting = "dscp_map",
      .value_form = "per priority its DSCPs as ranges: `0:0-7 1:8-15 ... 7:56-63`",
  });
  out.push_back({
      .id = "fleet.pfc-consistent",
      .title = "Same PFC priorities across the fleet",
      .severity = Severity::critical,
      .subject = "all NICs",
      .rationale = "One host with PFC off on the RoCE priority drops packets under congestion and drags the "
          "whole job into retransmission.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC port: the PFC enabled priorities (mlnx_qos / dcbnl / sysfs qos)",
      .family = Family::fleet,
      .setting = "pfc",
      .value_form = "enabled priorities `3`, `3,4` or `none`",
  });
  out.push_back({
      .id = "fleet.ecn-consistent",
      .title = "Same DCQCN (ECN) priorities across the fleet",
      .severity = Severity::error,
      .subject = "all NICs",
      .rationale = "A host without DCQCN on the RoCE priority neither slows down on ECN marks nor sends CNPs: "
          "congestion turns into PFC pauses.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC port: ECN roce_rp / roce_np enable per priority (sysfs ecn)",
      .family = Family::fleet,
      .setting = "ecn",
      .value_form = "`rp:<priorities> np:<priorities>` (`none` when empty)",
  });
  out.push_back({
      .id = "fleet.cnp-consistent",
      .title = "Same CNP DSCP and priority across the fleet",
      .severity = Severity::warning,
      .subject = "all NICs",
      .rationale = "CNPs marked differently land in different switch queues; a CNP stuck behind data slows "
          "congestion control.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC port: firmware CNP_DSCP_P<n> and CNP_802P_PRIO_P<n> (mlxconfig query)",
      .family = Family::fleet,
      .setting = "cnp",
      .value_form = "`dscp <CNP_DSCP_P<n>> priority <CNP_802P_PRIO_P<n>>` of the port's PF (n = function + 1)",
  });
  out.push_back({
      .id = "fleet.mtu-consistent",
      .title = "One netdev MTU across the fleet",
      .severity = Severity::error,
      .subject = "all NICs",
      .rationale = "Mismatched MTUs give different RoCE active MTUs; a path MTU below the sender's drops "
          "packets.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC port: the netdev MTU (ip link / sysfs)",
      .family = Family::fleet,
      .setting = "mtu",
      .value_form = "bytes, `9000`",
  });
  out.push_back({
      .id = "fleet.max-read-request-consistent",
      .title = "One PCIe MaxReadReq per NIC model",
      .severity = Severity::warning,
      .subject = "NIC model (PSID)",
      .rationale = "A smaller MaxReadReq on some hosts caps their DMA read bandwidth: the slowest host paces "
          "collective operations."
          " NICs of unknown model (no PSID, PCI device name or vendor part id) are never pooled into one group: "
          "they are listed, unknown, in group `model unknown`, each with why.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC: PCIe MaxReadReq (lspci -vv / PCI config space)",
      .family = Family::fleet,
      .setting = "max_read_request",
      .value_form = "bytes, `4096`",
  });
  out.push_back({
      .id = "fleet.coalescing-consistent",
      .title = "One interrupt coalescing setting per NIC model",
      .severity = Severity::warning,
      .subject = "NIC model (PSID)",
      .rationale = "Different coalescing gives hosts different netdev latency and CPU load (RDMA completions "
          "are not affected)."
          " NICs of unknown model (no PSID, PCI device name or vendor part id) are never pooled into one group: "
          "they are listed, unknown, in group `model unknown`, each with why.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC port: interrupt coalescing (ethtool -c)",
      .family = Family::fleet,
      .setting = "coalescing",
      .value_form = "the fields ethtool -c shows: `adaptive-rx off adaptive-tx on rx-usecs 8 tx-usecs 16 ...`",
  });
  out.push_back({
      .id = "fleet.firmware-version-consistent",
      .title = "One firmware version per NIC model",
      .severity = Severity::warning,
      .subject = "NIC model (PSID)",
      .rationale = "Mixed firmware on one model gives ports different congestion-control and PFC behaviour."
          " NICs of unknown model (no PSID, PCI device name or vendor part id) are never pooled into one group: "
          "they are listed, unknown, in group `model unknown`, each with why.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC: the running firmware version (ethtool -i, flint, mlxfwmanager, devlink)",
      .family = Family::fleet,
      .setting = "firmware",
      .value_form = "`28.41.1000`",
  });
  out.push_back({
      .id = "fleet.driver-version-consistent",
      .title = "One driver version per NIC model",
      .severity = Severity::warning,
      .subject = "NIC model (PSID)",
      .rationale = "Mixed drivers behave differently on the same NIC and complicate support."
          " NICs of unknown model (no PSID, PCI device name or vendor part id) are never pooled into one group: "
          "they are listed, unknown, in group `model unknown`, each with why.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC port: driver name and version (ethtool -i)",
      .family = Family::fleet,
      .setting = "driver",
      .value_form = "`<driver> <version>`, `mlx5_core 6.8.12-8-pve`",
  });
  out.push_back({
      .id = "fleet.driver-firmware-compat",
      .title = "Every (driver release, firmware) pair of a NIC model is in the driver's release notes",
      .severity = Severity::warning,
      .subject = "NIC model (PSID)",
      .rationale = "A rolling upgrade half done leaves one model in two (driver release, firmware) groups; the "
          "group whose firmware is not in its driver's release notes runs an untested pair. The NICs of a model "
          "are grouped by pair, each group judged by fw.driver-compat (data/compat/compat.json, or `--compat "
          "FILE`), and a group not in the notes is named with its hosts.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per NIC: the driver release (ofed_info -s) and the running firmware version; "
          "fw.driver-compat's verdict on the pair on its host",
      .family = Family::fleet,
      .setting = "driver_firmware",
      .value_form = "`<ofed_info -s release> + <firmware>`, `MLNX_OFED_LINUX-24.10-3.2.5.0 + 28.43.3608`",
  });
  out.push_back({
      .id = "fleet.nv-config-consistent",
      .title = "Same firmware NV parameters per NIC model",
      .severity = Severity::warning,
      .subject = "physical NIC, per NIC model (PSID)",
      .rationale = "NV parameters (ROCE_CC_PRIO_MASK, LINK_TYPE, NUM_OF_VFS, ...) set differently on some "
          "NICs change their behaviour after the next reboot. A Multi-Host NIC is counted once. Physical NICs of "
          "unknown model are not compared: one unknown check (`nv.*`, group `model unknown`) lists them.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},  // a parameter no NIC shows is not compared
      .inputs = "per physical NIC: firmware NV parameters (mlxconfig query)",
      .family = Family::fleet,
      .value_form = "each parameter's current (else next-boot) value, compared per parameter (`nv.<NAME>`); "
          "CNP_* parameters are left to fleet.cnp-consistent",
  });
  out.push_back({
      .id = "fleet.multi-host-qos-identical",
      .title = "PFs of one Multi-Host NIC share PFC, ECN, trust and DSCP map",
      .severity = Severity::critical,
      .subject = "physical NIC (board serial, else system image GUID)",
      .rationale = "The hosts of a Multi-Host NIC share one physical port and its buffers: a PF with a "
          "different PFC or trust setting makes the shared port's lossless class inconsistent. Placeholder ids "
          "(`MT0000X00000`, the serial of a board whose VPD was never programmed; all-zero serials and GUIDs; "
          "`N/A`, `To be filled by O.E.M.`) join nothing, and PFs that share a serial are one NIC only when "
          "their PCI device id, PSID and part number agree: otherwise an unknown check (setting `model`) "
          "names each PF and its model.",
      .outcomes = {Outcome::pass, Outcome::fail, Outcome::unknown},
      .inputs = "per PF of a Multi-Host NIC: board serial or system image GUID, trust, DSCP map, PFC and ECN",
      .family = Family::fleet,
      .value_form = "trust, dscp_map, pfc, ecn as above, compared across the PFs of one physical NIC seen "
          "from two or more hosts",
  });
}

}  // namespace rk::rules

// disruption_of: what each planned change does to traffic on an mlx5 (ConnectX) port. Each case
// cites the Linux driver code (drivers/net/ethernet/mellanox/mlx5/core/) that causes it; both
// backends end in the same driver callbacks: `dcb` talks dcbnl (DCB_CMD_IEEE_SET) directly and
// mlnx_qos sets PFC, trust and the DSCP map through the same dcbnl operations.
#include "rocekit/plan/disruption.hpp"

#include "rocekit/plan/plan.hpp"

#include <algorithm>

namespace rk::plan {

std::string_view to_string(Disruption d) {
  switch (d) {
    case Disruption::none: return "none";
    case Disruption::channel_restart: return "channel_restart";
    case Disruption::link_flap: return "link_flap";
    case Disruption::reboot_or_fw_reset: return "reboot_or_fw_reset";
  }
  return "?";
}

DisruptionInfo disruption_of(const Action& a, QosBackend backend) {
  (void)backend;  // both backends reach the same mlx5 dcbnl callbacks (see the file comment)
  // Re-applying the value in place (boot script): each driver path below returns early when
  // nothing changes (setpfc: pfc_en == curr_pfc_en; dev_set_mtu: same MTU; trust: same
  // tx_min_inline mode, reset false).
  if (a.current == a.desired) return {};
  switch (a.kind) {
    case ActionKind::pfc:
      // en_dcbnl.c mlx5e_dcbnl_ieee_setpfc(): when pfc_en differs from the port's, it calls
      // mlx5_set_port_pfc() and then mlx5_toggle_port_link() (port.c: admin status DOWN, then UP).
      return {Disruption::link_flap,
              "a PFC change bounces the port link (mlx5 mlx5e_dcbnl_ieee_setpfc -> "
              "mlx5_toggle_port_link); the switch sees the link go down"};
    case ActionKind::trust:
      // en_dcbnl.c mlx5e_set_trust_state(): mlx5e_safe_switch_params(..., reset) reopens the
      // channels unless the TX min-inline mode stays the same (trust dscp needs inline IP).
      return {Disruption::channel_restart,
              "a trust change can reopen the netdev's queues (mlx5 mlx5e_set_trust_state -> "
              "mlx5e_safe_switch_params)"};
    case ActionKind::mtu:
      // en_main.c mlx5e_change_mtu(): mlx5e_safe_switch_params(priv, &new_params, ..., reset)
      // with reset true on an open netdev (recent kernels always reset).
      return {Disruption::channel_restart,
              "an MTU change reopens the netdev's queues (mlx5 mlx5e_change_mtu -> "
              "mlx5e_safe_switch_params)"};
    case ActionKind::nv_config:
      // Firmware NV (mstconfig/mlxconfig set) is stored for the next firmware boot; the values
      // take effect after a cold reboot or `mstfwreset -d <bdf> reset`, which resets every port.
      return {Disruption::reboot_or_fw_reset,
              "takes effect only after a reboot or mstfwreset, which resets every port of the NIC"};
    case ActionKind::firmware_image_check:
      // `flint -i IMAGE query` reads a file; the device is not touched.
      return {};
    case ActionKind::firmware_burn:
      // flint burns the flash failsafe (BurnSubCommand::burnFs3) while the old firmware runs;
      // the new one runs after a reboot or `mstfwreset -d <bdf> reset`, which resets every port.
      return {Disruption::reboot_or_fw_reset,
              "the new firmware runs only after a reboot or mstfwreset, which resets every port of the NIC"};
    case ActionKind::dscp2prio:
      // en_dcbnl.c mlx5e_dcbnl_ieee_setapp(): with trust already dscp, only
      // mlx5e_set_dscp2prio() (QPDPM register): no reset. The trust switch is its own action.
      return {};
    case ActionKind::pause:
      // en_ethtool.c mlx5e_ethtool_set_pauseparam(): mlx5_set_port_pause() writes the PFCC
      // register (rx/tx pause) with no link toggle and no channel reset (autoneg must be off).
      return {};
    case ActionKind::ecn:
      // en/ecn sysfs (roce_rp/roce_np enable): a firmware congestion-control flag, no reset.
      return {};
    case ActionKind::traffic_class:
    case ActionKind::roce_tos:
      // mlx5_ib traffic_class_store() re-marks the RTS QPs with an RTS2RTS modify (no reset);
      // default_roce_tos applies to rdma_cm connections made afterwards.
      return {};
    case ActionKind::max_read_request:
      // A PCIe Device Control write (setpci): takes effect for new read requests, no reset.
      return {};
    case ActionKind::coalesce:
      // en_ethtool.c mlx5e_ethtool_set_coalesce(): usecs change the CQ moderation in place; a
      // change of adaptive-rx/-tx sets reset_rx/reset_tx, and kernels before the per-channel
      // DIM rework (mlx5e_channels_rx_change_dim) then call mlx5e_safe_switch_params(): reopen.
      if (a.desired.find("adaptive-") != std::string::npos)
        return {Disruption::channel_restart,
                "switching adaptive moderation can reopen the netdev's queues (mlx5 "
                "mlx5e_ethtool_set_coalesce -> mlx5e_safe_switch_params on older kernels)"};
      return {};
  }
  return {};
}

}  // namespace rk::plan

namespace rk::plan {

std::vector<std::string> summary_lines(const Plan& plan) {
  std::vector<std::string> out;
  if (plan.actions.empty()) return out;
  std::vector<PortDisruption> ports = disruption_summary(plan);
  if (ports.empty()) {
    out.push_back("Disruption: none (no step bounces a link, restarts queues or needs a reboot)");
  } else {
    out.push_back("Disruption (run in a maintenance window; `rocekit apply` needs --allow-disruption):");
    for (const PortDisruption& p : ports) {
      std::string causes;
      for (const std::string& c : p.causes) causes += (causes.empty() ? "" : ", ") + c;
      out.push_back("  " + p.subject + ": " + std::string(to_string(p.worst)) + " (" + causes + ")");
    }
  }
  // The change table: one row per step, columns aligned.
  std::size_t w_subject = 4, w_kind = 7;
  for (const Action& a : plan.actions) {
    w_subject = std::max(w_subject, a.subject.size());
    w_kind = std::max(w_kind, to_string(a.kind).size());
  }
  auto pad = [](std::string s, std::size_t w) {
    if (s.size() < w) s.append(w - s.size(), ' ');
    return s;
  };
  out.push_back("Changes:");
  out.push_back("  " + pad("port", w_subject) + "  " + pad("setting", w_kind) + "  current -> desired  [effect]");
  for (const Action& a : plan.actions)
    out.push_back("  " + pad(a.subject, w_subject) + "  " + pad(std::string(to_string(a.kind)), w_kind) + "  " +
                  a.current + " -> " + a.desired + "  [" + std::string(to_string(a.disruption)) + "]");
  return out;
}

}  // namespace rk::plan

// make_plan: Snapshot + Policy -> ordered idempotent actions (issue 5). Mechanisms and names:
// ../shared/reference/host-facts.md §A (NV parameter names, _P<n>), §B (setpci MRRS with mask
// and read-back), mlnx_qos / iproute2 dcb syntax.
#include "rocekit/plan/plan.hpp"

#include "rocekit/model/bluefield.hpp"
#include "rocekit/rules/qos_scope.hpp"

#include "rocekit/policy/scope.hpp"
#include "rocekit/rules/app.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/judged.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "rocekit/fix/fix.hpp"
#include "rocekit/plan/firmware_burn.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::plan {

std::string_view to_string(ActionKind k) {
  switch (k) {
    case ActionKind::nv_config: return "nv_config";
    case ActionKind::firmware_image_check: return "firmware_image_check";
    case ActionKind::firmware_burn: return "firmware_burn";
    case ActionKind::trust: return "trust";
    case ActionKind::dscp2prio: return "dscp2prio";
    case ActionKind::pfc: return "pfc";
    case ActionKind::pause: return "pause";
    case ActionKind::ecn: return "ecn";
    case ActionKind::mtu: return "mtu";
    case ActionKind::max_read_request: return "max_read_request";
    case ActionKind::coalesce: return "coalesce";
    case ActionKind::traffic_class: return "traffic_class";
    case ActionKind::roce_tos: return "roce_tos";
  }
  return "?";
}

bool valid_netdev_name(std::string_view name) {
  // Linux dev_valid_name (net/core/dev.c): 1..15 bytes, not "." or "..", no '/', ':' or
  // whitespace. rocekit also refuses a leading '-': `mlnx_qos -i -rf` or `ethtool -C -rf` would
  // read the name as an option (getopt/argparse), so no argv ever carries one.
  if (name.empty() || name.size() > 15 || name == "." || name == ".." || name.front() == '-')
    return false;
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    if (c == '/' || c == ':' || u <= 0x20 || u == 0x7f) return false;
  }
  return true;
}

std::optional<IprouteVersion> parse_iproute2_version(std::string_view text) {
  // `ip -V` / `dcb -V` print "<tool> utility, iproute2-6.1.0[, libbpf ...]" since v5.8.0
  // (ip/ip.c, dcb/dcb.c: printf("dcb utility, iproute2-%s\n", version)); older releases print a
  // snapshot date, "iproute2-ss200127", which predates `dcb app` and `-N` (v5.12.0).
  std::size_t at = text.find("iproute2-");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view v = text.substr(at + 9);
  if (v.starts_with("ss")) return IprouteVersion{5, 7};  // any snapshot-dated release is < 5.8
  auto num = [&](std::size_t& i) -> std::optional<int> {
    int n = 0;
    std::size_t start = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9' && i - start < 4) n = n * 10 + (v[i++] - '0');
    if (i == start) return std::nullopt;
    return n;
  };
  std::size_t i = 0;
  std::optional<int> major = num(i);
  if (!major || i >= v.size() || v[i] != '.') return std::nullopt;
  ++i;
  std::optional<int> minor = num(i);
  if (!minor) return std::nullopt;
  return IprouteVersion{*major, *minor};
}

namespace {

// Port-target TLV parameters rocekit emits: the CLI name is <base>_P<n> (host-facts.md §A).
constexpr std::array<std::string_view, 4> k_port_params{"CNP_DSCP", "CNP_802P_PRIO",
                                                        "ROCE_CC_PRIO_MASK", "LINK_TYPE"};
// Device-target parameters rocekit emits: never suffixed.
constexpr std::array<std::string_view, 1> k_device_params{"ROCE_ADAPTIVE_ROUTING_EN"};

}  // namespace

Result<std::string> validate_nv_param(std::string_view cli_name) {
  std::string name(cli_name);
  for (std::string_view d : k_device_params)
    if (name == d) return name;
  std::size_t us = name.rfind("_P");
  if (us != std::string::npos && us + 2 < name.size()) {
    std::string base = name.substr(0, us);
    std::string port = name.substr(us + 2);
    bool digits = std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits && port.size() == 1 && port != "0" &&
        std::find(k_port_params.begin(), k_port_params.end(), base) != k_port_params.end())
      return name;
  }
  for (std::string_view b : k_port_params)
    if (name == b)
      return unexpected(ErrorKind::malformed_input,
                        "port parameter needs the _P<n> suffix (e.g. " + name + "_P1)", name);
  return unexpected(ErrorKind::malformed_input,
                    "not a firmware parameter rocekit sets (built-in list; mstflint's "
                    "mlxconfig_host.db not consulted)",
                    name);
}

namespace {

using rules::join;
// The one IPoIB test of the rules (the RDMA port's link layer, else an ib<N> name).
bool is_infiniband(const Snapshot& s, const NetDev& n) { return rules::is_infiniband_netdev(s, n); }

bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

QosBackend pick_qos_backend(const Snapshot& s) {
  for (const NetDev& n : s.netdevs)
    if (n.qos.has_value() &&
        (contains(n.qos.source.file, "mlnx_qos") || contains(n.qos->trust_source.file, "mlnx_qos") ||
         contains(n.qos->pfc_source.file, "mlnx_qos") || contains(n.qos.source.file, "system_checks")))
      return QosBackend::mlnx_qos;
  for (const ToolRun& t : s.tool_runs)
    if (t.tool == "mlnx_qos" && t.status == "ok") return QosBackend::mlnx_qos;
  return QosBackend::dcb;
}

NvBackend pick_nv_backend(const Snapshot& s) {
  for (const PciFunction& f : s.pci_functions)
    if (f.nv_config.has_value() && contains(f.nv_config.source.file, "mlxconfig") &&
        !contains(f.nv_config.source.text, "mstconfig"))
      return NvBackend::mlxconfig;
  return NvBackend::mstconfig;
}

struct Builder {
  const Snapshot& s;
  const Policy& pol;
  const PlanOptions& opts;
  Plan& plan;
  /// (rule, subject) of every failing finding of `check` (rules::evaluate with the same policy):
  /// plan acts where check failed and does not judge again. Boot mode (all_runtime) re-applies
  /// every setting, failing or not.
  std::set<std::pair<std::string, std::string>> failing;
  /// Physical devices ("dddd:bb:dd") of protected netdevs (default route, ssh) not named with
  /// --netdev: no firmware NV or MaxReadReq step touches the NIC the management path rides on.
  std::set<std::string> held;

  bool fails(const std::string& rule, const std::string& subject) const {
    return opts.all_runtime || failing.count({rule, subject}) > 0;
  }
  /// A failing finding of `rule` on a function of physical device `dev` ("dddd:bb:dd") or on a
  /// netdev of it.
  bool fails_on_device(const std::string& rule, const std::string& dev) const {
    for (const auto& [r, subject] : failing) {
      if (r != rule) continue;
      if (subject.starts_with(dev)) return true;
      if (const NetDev* n = s.find_netdev(subject); n && n->bdf && n->bdf->starts_with(dev)) return true;
    }
    return false;
  }

  void unplanned(std::string rule, std::string subject, std::string reason) {
    plan.unplanned.push_back({std::move(rule), std::move(subject), std::move(reason)});
  }

  Action& add(ActionKind kind, std::string rule, std::string subject, std::string current,
              std::string desired, FixScope scope) {
    Action a;
    a.kind = kind;
    a.rule = std::move(rule);
    a.subject = std::move(subject);
    a.current = std::move(current);
    a.desired = std::move(desired);
    a.scope = scope;
    plan.actions.push_back(std::move(a));
    return plan.actions.back();
  }

  /// Copies a fix step (rk::fix, the one place that knows each tool's form) into the action,
  /// and the same builder's step for the old value as its undo (empty = not restorable).
  static void use(Action& a, const FixStep& step, const std::optional<FixStep>& undo) {
    a.argv = step.argv;
    a.write_path = step.write_path;
    a.write_value = step.write_value;
    a.check_argv = step.check_argv;
    a.check_regex = step.check_regex;
    if (undo) {
      a.undo_argv = undo->argv;
      a.undo_write_value = undo->write_value;
      a.undo_check_regex = undo->check_regex;
    }
  }

  /// "" or why the host looks deliberately configured for RoCE on another lossless priority.
  std::string other_lossless_priority(const NetDev& n, const QosState& q) const {
    if (!q.pfc_enabled || q.pfc_enabled->size() != 8) return {};
    std::vector<int> host;
    for (int p = 0; p < 8; ++p)
      if ((*q.pfc_enabled)[static_cast<std::size_t>(p)]) host.push_back(p);
    int want = pol.roce_priority & 7;
    if (host.empty() || std::find(host.begin(), host.end(), want) != host.end()) return {};
    std::vector<std::string> why;
    int roce_on = -1;
    if (auto it = q.dscp_to_priority.find(pol.roce_dscp);
        it != q.dscp_to_priority.end() && q.trust == Trust::dscp &&
        std::find(host.begin(), host.end(), it->second) != host.end()) {
      roce_on = it->second;
      why.push_back("DSCP " + std::to_string(pol.roce_dscp) + " -> priority " + std::to_string(roce_on));
    }
    if (q.priority_to_buffer && q.priority_to_buffer->size() == 8) {
      // A lossless buffer: every priority mapped to it has PFC on (prio2buffer).
      for (int p : host) {
        int b = (*q.priority_to_buffer)[static_cast<std::size_t>(p)];
        bool alone = true;
        for (int o = 0; o < 8; ++o)
          if ((*q.priority_to_buffer)[static_cast<std::size_t>(o)] == b && !(*q.pfc_enabled)[static_cast<std::size_t>(o)])
            alone = false;
        if (alone && (roce_on < 0 || roce_on == p)) {
          if (roce_on < 0 && host.size() == 1) roce_on = p;
          why.push_back("priority " + std::to_string(p) + " in lossless receive buffer " + std::to_string(b));
          break;
        }
      }
    }
    if (roce_on < 0) return {};
    std::string pfc;
    for (int p : host) pfc += (pfc.empty() ? "" : ",") + std::to_string(p);
    std::string ways;
    for (const std::string& w : why) ways += ", " + w;
    return "the host runs RoCE lossless on priority " + std::to_string(roce_on) + " (PFC on " + pfc +
           ways + "), the policy on " + std::to_string(want) +
           ": no PFC, trust or DSCP-map change planned for " + n.name + ", because moving it turns PFC "
           "off where the traffic is. If " + std::to_string(roce_on) + " is intended, set roce.priority: " +
           std::to_string(roce_on) + " (and pfc/ecn priorities) in the policy; to move to " +
           std::to_string(want) + ", pass --migrate-priority and change the switch the same way";
  }

  bool mlnx() const { return plan.qos_backend == QosBackend::mlnx_qos; }

  void dscp_map(const NetDev& n, const QosState& q, int dscp, int prio, const char* rule,
                bool trust_changes) {
    auto it = q.dscp_to_priority.find(dscp);
    std::string current;
    if (it != q.dscp_to_priority.end()) {
      // check's verdict (rule failing), or the map a trust change brings into effect.
      if (!fails(rule, n.name) && !(trust_changes && it->second != prio)) return;
      current = "prio " + std::to_string(it->second);
    } else if (trust_changes) {
      current = "not shown (trust " + (q.trust ? str(*q.trust) : std::string("?")) + ")";
    } else {
      return unplanned(rule, n.name, "dscp2prio table not shown for DSCP " + std::to_string(dscp));
    }
    Action& a = add(ActionKind::dscp2prio, rule, n.name, "dscp " + std::to_string(dscp) + ": " + current,
                    "dscp " + std::to_string(dscp) + ": prio " + std::to_string(prio), FixScope::runtime);
    auto build = [&](int p) { return mlnx() ? fix::mlnx_qos_dscp(n.name, dscp, p) : fix::dcb_dscp(n.name, dscp, p); };
    std::optional<FixStep> undo;
    if (it != q.dscp_to_priority.end()) undo = build(it->second);
    use(a, build(prio), undo);
  }

  /// Why this host must not write the port's QoS: a BlueField in DPU mode (the Arm side owns it),
  /// or one whose mode is not known (it may be in DPU mode); nullopt otherwise.
  std::optional<std::string> dpu_port_qos(const NetDev& n) const {
    const std::optional<std::string> arm = bluefield_arm_side(s);
    if (std::optional<std::string> e = rules::port_qos_elsewhere(s, n, arm); e && !arm) return *e;
    return rules::port_qos_mode_unknown(s, n, arm);
  }

  void qos(const NetDev& n) {
    if (is_infiniband(s, n)) return;  // IPoIB: no DCB trust, PFC or DSCP map to plan
    if (std::optional<std::string> why = dpu_port_qos(n)) return unplanned("qos", n.name, *why + "; no QoS step planned");
    if (!n.qos.has_value()) {
      if (n.rdma_device) unplanned("qos.trust-dscp", n.name, "QoS state not collected: " + n.qos.reason);
      return;
    }
    const QosState& q = *n.qos;
    // DCBX in firmware (willing) mode: the switch's DCBX TLVs set PFC and ETS on this port and
    // override a host write; point at the switch or at the NV setting that hands QoS to the host.
    if (q.dcbx_mode && *q.dcbx_mode == "firmware") {
      const PciFunction* nvf = n.bdf ? rules::nv_source_for(s, *n.bdf) : nullptr;
      std::optional<int> pp = rules::physical_port_of(s, n, nvf ? rules::nv_port_count(*nvf->nv_config, "DCBX_WILLING") : 0);
      std::string port = pp ? std::to_string(*pp) : "<n>";
      return unplanned("qos", n.name,
                       "DCBX mode: Firmware controlled (willing): the NIC takes PFC/ETS from the switch's "
                       "DCBX, so a host write would be overridden; no QoS step planned. Configure "
                       "PFC priority " + std::to_string(pol.roce_priority) + " and the DSCP map on the "
                       "switch port, or hand QoS to the host: mlxconfig set DCBX_WILLING_P" + port +
                       "=0 (or LLDP_NB_DCBX_P" + port + "=0; mstflint mlxconfig_host.db "
                       "nv_lldp_nb_dcbx / nv_lldp_nb_conf), then reboot or mstfwreset");
    }
    // Coupled settings: a host that consistently runs RoCE lossless on another priority
    // (PFC on it, RoCE's DSCP mapped to it or it alone in a receive buffer) is not moved to the
    // policy's priority silently: that turns PFC off where the traffic is (an outage).
    if (std::string other = other_lossless_priority(n, q); !other.empty() && !opts.migrate_priority) {
      return unplanned("qos", n.name, other);  // covers every DCB rule of the port
    }
    bool trust_changes = false;
    if (!q.trust) {
      unplanned("qos.trust-dscp", n.name, "trust state not shown");
    } else if (fails("qos.trust-dscp", n.name)) {
      trust_changes = str(*q.trust) != pol.trust;
      Action& a = add(ActionKind::trust, "qos.trust-dscp", n.name, str(*q.trust), pol.trust, FixScope::runtime);
      if (mlnx()) {
        use(a, fix::mlnx_qos_trust(n.name, pol.trust), fix::mlnx_qos_trust(n.name, str(*q.trust)));
      } else {
        // Undo to dscp re-installs the map the host had; without it shown, not restorable.
        std::optional<FixStep> undo;
        if (*q.trust == Trust::pcp) undo = fix::dcb_trust(n.name, "pcp");
        else if (!q.dscp_to_priority.empty()) undo = fix::dcb_trust(n.name, "dscp", &q.dscp_to_priority);
        use(a, fix::dcb_trust(n.name, pol.trust), undo);
        a.note = "trust is the presence of DSCP APP entries on mlx5 (no APP-trust object needed)";
      }
    }
    if (pol.trust == "dscp") {
      dscp_map(n, q, pol.roce_dscp, pol.roce_priority, "qos.roce-dscp-priority", trust_changes);
      dscp_map(n, q, pol.cnp_dscp, pol.cnp_priority, "qos.cnp-dscp-priority", trust_changes);
    }
    if (!q.pfc_enabled || q.pfc_enabled->size() != 8) {
      unplanned("qos.pfc-roce-priority", n.name, "PFC table not shown");
      return;
    }
    std::vector<bool> want = fix::pfc_mask(pol.pfc_priorities);
    if (!fails("qos.pfc-roce-priority", n.name) && !fails("qos.pfc-only-roce-priority", n.name)) return;
    bool roce_off = !(*q.pfc_enabled)[static_cast<std::size_t>(pol.roce_priority & 7)];
    Action& a = add(ActionKind::pfc, roce_off ? "qos.pfc-roce-priority" : "qos.pfc-only-roce-priority",
                    n.name, fix::pfc_list(*q.pfc_enabled), fix::pfc_list(want),
                    FixScope::runtime);
    if (mlnx())
      use(a, fix::mlnx_qos_pfc(n.name, want), fix::mlnx_qos_pfc(n.name, *q.pfc_enabled));
    else
      use(a, fix::dcb_pfc(n.name, want), fix::dcb_pfc(n.name, *q.pfc_enabled));
  }

  void ecn(const NetDev& n) {
    if (is_infiniband(s, n)) return;  // RoCE ECN (DCQCN) does not apply to an InfiniBand port
    if (!n.ecn.has_value()) {
      if (n.rdma_device && n.qos.has_value())
        unplanned("qos.ecn-roce-priority", n.name, "ECN sysfs not collected: " + n.ecn.reason);
      return;
    }
    bool judged_bad = fails("qos.ecn-roce-priority", n.name);
    for (const char* point : {"roce_rp", "roce_np"}) {
      const auto& m = std::string_view(point) == "roce_rp" ? n.ecn->rp_enabled : n.ecn->np_enabled;
      for (int p : pol.ecn_priorities) {
        auto it = m.find(p);
        if (it == m.end()) {
          unplanned("qos.ecn-roce-priority", n.name,
                    std::string(point) + " enable/" + std::to_string(p) + " not collected");
          continue;
        }
        if (!judged_bad || (it->second && !opts.all_runtime)) continue;
        Action& a = add(ActionKind::ecn, "qos.ecn-roce-priority", n.name,
                        std::string(point) + "[" + std::to_string(p) + "]=" + (it->second ? "1" : "0"),
                        std::string(point) + "[" + std::to_string(p) + "]=1", FixScope::runtime);
        use(a, fix::sysfs_ecn(n.name, point, p, true), fix::sysfs_ecn(n.name, point, p, it->second));
      }
    }
  }

  /// A ToS byte written to a sysfs/configfs file that reads back as `shown` + the value
  /// ("Global tclass=106" for traffic_class, "106" for default_roce_tos); undo writes `cur` back.
  void tos_write(ActionKind kind, const std::string& netdev, std::string path, const std::string& shown, int cur,
                 int want, std::string note) {
    std::string label = shown.empty() ? "default_roce_tos " : shown;
    Action& a = add(kind, "app.roce-tos", netdev, label + std::to_string(cur), label + std::to_string(want),
                    FixScope::runtime);
    a.write_path = std::move(path);
    a.write_value = std::to_string(want);
    a.check_regex = {"^" + shown + std::to_string(want) + "$"};
    a.undo_write_value = std::to_string(cur);
    a.undo_check_regex = {"^" + shown + std::to_string(cur) + "$"};
    a.note = std::move(note);
  }

  /// app.roce-tos on the port of a netdev: MLNX_OFED's global traffic_class set to another DSCP
  /// is written to the policy's ToS (not cleared: with it cleared, an application that sets no
  /// ToS, NCCL by default, sends DSCP 0); rdma_cm's default_roce_tos likewise, where its configfs
  /// entry exists. Both are runtime sysfs/configfs writes read back from the same file.
  void tos(const NetDev& n) {
    if (!n.rdma_device) return;
    const RdmaDevice* d = s.find_rdma(*n.rdma_device);
    if (!d) return;
    int want = rules::policy_roce_tos(pol);
    for (const RdmaPort& p : d->ports) {
      if (!p.netdev || *p.netdev != n.name) continue;
      std::string subject = rules::port_subject(*d, p);
      std::string port = std::to_string(p.port);
      if (p.global_traffic_class.has_value() && fails("app.roce-tos", subject) &&
          (*p.global_traffic_class >> 2 != pol.roce_dscp || opts.all_runtime))
        tos_write(ActionKind::traffic_class, n.name, "/sys/class/infiniband/" + d->name + "/tc/" + port + "/traffic_class",
                  "Global tclass=", *p.global_traffic_class, want,
                  d->name + " port " + port + ": replaces the ToS of every RoCE QP (mlx5_ib traffic_class_store)");
      if (p.default_roce_tos.has_value() && fails("app.roce-tos", "rdma_cm " + subject) &&
          (*p.default_roce_tos >> 2 != pol.roce_dscp || opts.all_runtime))
        tos_write(ActionKind::roce_tos, n.name, "/sys/kernel/config/rdma_cm/" + d->name + "/ports/" + port + "/default_roce_tos",
                  "", *p.default_roce_tos, want,
                  d->name + " port " + port + ": rdma_cm connections that set no ToS (drivers/infiniband/core/cma_configfs.c)");
    }
  }

  /// qos.global-pause-off: 802.3x pause off on both directions.
  void pause(const NetDev& n) {
    if (is_infiniband(s, n) || !n.pause.has_value() || !fails("qos.global-pause-off", n.name)) return;
    if (!n.pause->rx || !n.pause->tx)
      return unplanned("qos.global-pause-off", n.name,
                       "RX/TX pause not both shown (ethtool -a): the value to restore is unknown");
    bool rx = *n.pause->rx, tx = *n.pause->tx;
    auto onoff = [](bool b) { return std::string(b ? "on" : "off"); };
    Action& a = add(ActionKind::pause, "qos.global-pause-off", n.name,
                    "rx " + onoff(rx) + ", tx " + onoff(tx), "rx off, tx off", FixScope::runtime);
    use(a, fix::ethtool_pause(n.name, false, false, false), fix::ethtool_pause(n.name, n.pause->autoneg, rx, tx));
    a.note = "802.3x pause stops every priority; PFC replaces it";
  }

  void mtu(const NetDev& n) {
    if (is_infiniband(s, n)) return;
    if (!n.mtu_bytes.has_value()) {
      if (n.rdma_device) unplanned("net.mtu", n.name, "netdev MTU not collected: " + n.mtu_bytes.reason);
      return;
    }
    if (!fails("net.mtu", n.name)) return;
    // The policy's MTU is a minimum: a larger MTU (9000) is kept as it is, also at boot.
    int want = std::max(*n.mtu_bytes, pol.netdev_mtu_min_bytes);
    Action& a = add(ActionKind::mtu, "net.mtu", n.name, std::to_string(*n.mtu_bytes), std::to_string(want),
                    FixScope::runtime);
    use(a, fix::ip_mtu(n.name, want), fix::ip_mtu(n.name, *n.mtu_bytes));
    a.note = "every switch port on the path needs an MTU of at least " + std::to_string(want);
  }

  void mrrs(const PciFunction& f) {
    // Same subjects as pcie.max-read-request: a VF's MaxReadReq field is RsvdP (the PF's value
    // applies), a function in flash recovery has no working driver; NVIDIA/Mellanox functions only.
    if (f.is_vf.value_or(false) || f.flash_recovery) return;
    if (f.vendor_id && *f.vendor_id != 0x15b3) return;
    if (!f.max_read_request_bytes.has_value()) return;  // pcie rules report the unknown
    // The policy is a minimum: a larger MaxReadReq is kept, never lowered (the rule passes >=).
    if (!fails("pcie.max-read-request", f.bdf)) return;
    int want = std::max(pol.max_read_request_bytes, *f.max_read_request_bytes);
    std::optional<FixStep> step = fix::setpci_mrrs(f.bdf, want);
    if (!step)
      return unplanned("pcie.max-read-request", f.bdf,
                       "policy max_read_request_bytes " + std::to_string(want) +
                           " is not 128..4096 in powers of two");
    Action& a = add(ActionKind::max_read_request, "pcie.max-read-request", f.bdf,
                    std::to_string(*f.max_read_request_bytes), std::to_string(want), FixScope::runtime);
    use(a, *step, fix::setpci_mrrs(f.bdf, *f.max_read_request_bytes));
    a.note = "masked write of DevCtl bits 14:12 (MaxReadReq) only; lost at reboot";
  }

  void coalesce(const NetDev& n) {
    if (!n.coalesce.has_value()) return;
    if (!fails("irq.coalescing", n.name)) return;
    const CoalesceState& c = *n.coalesce;
    const CoalescingProfile& prof = pol.coalescing;
    std::vector<std::pair<std::string, std::string>> set, old;
    std::vector<std::string> cur, want;
    if (prof.adaptive_rx && c.adaptive_rx && (*c.adaptive_rx != *prof.adaptive_rx || opts.all_runtime)) {
      std::string v = *prof.adaptive_rx ? "on" : "off", o = *c.adaptive_rx ? "on" : "off";
      set.emplace_back("adaptive-rx", v);
      old.emplace_back("adaptive-rx", o);
      cur.push_back("adaptive-rx " + o);
      want.push_back("adaptive-rx " + v);
    }
    auto usecs = [&](const char* key, const std::optional<std::uint32_t>& v, std::uint32_t lo,
                     std::uint32_t hi) {
      bool in_range = v && *v >= lo && *v <= hi;
      if (!v || (in_range && !opts.all_runtime)) return;
      std::uint32_t to = in_range ? *v : lo;  // re-applying at boot keeps an in-range value
      set.emplace_back(key, std::to_string(to));
      old.emplace_back(key, std::to_string(*v));
      cur.push_back(std::string(key) + " " + std::to_string(*v));
      want.push_back(std::string(key) + " " + std::to_string(to));
    };
    usecs("rx-usecs", c.rx_usecs, prof.rx_usecs_min, prof.rx_usecs_max);
    usecs("tx-usecs", c.tx_usecs, prof.tx_usecs_min, prof.tx_usecs_max);
    if (set.empty()) return;
    Action& a = add(ActionKind::coalesce, "irq.coalescing", n.name, join(cur, ", "), join(want, ", "),
                    FixScope::runtime);
    use(a, fix::ethtool_coalesce(n.name, set), fix::ethtool_coalesce(n.name, old));
    a.note = "netdev (TCP/IP) interrupts only; RDMA completions are not moderated by this";
  }
  /// Numeric value of an NV query value: "48" -> 48, "True(1)" -> 1, "ETH(2)" -> 2.
  static std::optional<long long> nv_number(const std::string& text) {
    std::string digits = text;
    if (std::size_t open = text.rfind('('); open != std::string::npos && text.back() == ')')
      digits = text.substr(open + 1, text.size() - open - 2);
    if (digits.empty() || digits.size() > 18) return std::nullopt;
    long long v = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /// One NV value a rule wants on one physical device.
  struct NvWant {
    std::string name;     ///< CLI name, e.g. CNP_DSCP_P1
    std::string value;    ///< decimal
    std::string current;  ///< as the query prints it
    std::string why;      ///< "" or e.g. "prerequisite of MAX_ACC_OUT_READ"
  };

  /// A firmware step on a BlueField (issue 22): the operation mode is recorded (the query's
  /// INTERNAL_CPU_MODEL / INTERNAL_CPU_OFFLOAD_ENGINE Next Boot values) and read back with the
  /// step and its undo, and the plan warns that a reset can change it. A NIC-mode BlueField came
  /// back in DPU mode after a firmware reset (Mellanox/nic-configuration-operator PR 86), and
  /// `mlxconfig reset` resets the mode (PR 97): rocekit never plans `mlxconfig reset`.
  void guard_bluefield_mode(const PciFunction& owner, const std::string& tool, FixStep& step,
                            std::optional<FixStep>& undo, std::vector<std::string>& notes) {
    const BlueFieldMode& m = *owner.bluefield_mode;
    const NvConfig& nv = *owner.nv_config;
    std::vector<std::string> kept;
    for (const char* name : {"INTERNAL_CPU_MODEL", "INTERNAL_CPU_OFFLOAD_ENGINE"}) {
      const NvParam* p = nv.find(name);
      if (!p) continue;
      std::optional<long long> v = nv_number(p->next_boot_value.value_or(p->current_value.value_or("")));
      if (!v) continue;
      fix::nv_expect(step, name, std::to_string(*v));
      if (undo) fix::nv_expect(*undo, name, std::to_string(*v));
      kept.push_back(std::string(name) + "=" + std::to_string(*v));
    }
    std::string query = tool + " -d " + owner.bdf + " q INTERNAL_CPU_MODEL INTERNAL_CPU_OFFLOAD_ENGINE";
    if (!kept.empty()) notes.push_back("BlueField mode recorded and read back with the step: " + join(kept, " "));
    std::string w = "BlueField " + owner.bdf + " is in " + m.mode + " mode (" + m.why +
                    "): a firmware reset (mlxfwreset) or `mlxconfig reset` can change its operation mode (a "
                    "NIC-mode BlueField returned to DPU mode after a firmware reset, "
                    "Mellanox/nic-configuration-operator PR 86; `mlxconfig reset` resets the mode, PR 97). "
                    "After the reset read it back with `" + query + "`" +
                    (kept.empty() ? std::string() : " and expect " + join(kept, " ")) +
                    "; rocekit never plans `mlxconfig reset`.";
    if (m.mode == "dpu")
      w += " In DPU mode a changed NV setting takes effect only after a power cycle of the host, not a warm "
           "reboot (k8snetworkplumbingwg/sriov-network-operator issue 662).";
    if (std::find(plan.warnings.begin(), plan.warnings.end(), w) == plan.warnings.end()) plan.warnings.push_back(w);
  }

  /// Validates each want (DB when present, else the built-in name rule), adds DB
  /// prerequisites, and emits one nv_config action for `rule` on device `dev`.
  void nv_action(const std::string& rule, const std::string& dev, const PciFunction& owner,
                 std::vector<NvWant> wants) {
    const NvConfig& nv = *owner.nv_config;
    std::vector<NvWant> ok;
    auto refuse = [&](const NvWant& w, const std::string& why) {
      unplanned(rule, owner.bdf, w.name + "=" + w.value + " refused: " + why);
    };
    auto planned = [&](const std::string& name) {
      return std::any_of(ok.begin(), ok.end(), [&](const NvWant& w) { return w.name == name; });
    };
    for (NvWant& w : wants) {
      if (opts.nv_db) {
        Result<std::int64_t> v = opts.nv_db->validate(w.name, w.value);
        if (!v) {
          refuse(w, v.error().message);
          continue;
        }
        Result<NvParamRef> ref = opts.nv_db->resolve(w.name);
        bool blocked = false;
        for (const std::string& pre : ref->info->prerequisites) {
          const NvParam* q = nv.find(pre);
          std::optional<long long> qv;
          if (q) qv = nv_number(q->next_boot_value.value_or(q->current_value.value_or("")));
          if (qv && *qv != 0) continue;
          if (!q) {
            refuse(w, "needs " + pre + " (" + opts.nv_db->path().filename().string() +
                          " dependency), which the firmware query does not show");
            blocked = true;
            break;
          }
          if (!planned(pre))
            ok.push_back({pre, "1", q->next_boot_value.value_or(q->current_value.value_or("?")),
                          "prerequisite of " + w.name});
        }
        if (blocked) continue;
      } else if (Result<std::string> name_ok = validate_nv_param(w.name); !name_ok) {
        refuse(w, name_ok.error().message);
        continue;
      }
      ok.push_back(std::move(w));
    }
    // Prerequisites first: mstconfig applies a set in order of the arguments.
    std::stable_partition(ok.begin(), ok.end(), [](const NvWant& w) { return !w.why.empty(); });
    if (ok.empty()) return;
    std::vector<std::string> cur, want;
    for (const NvWant& w : ok) {
      cur.push_back(w.name + "=" + w.current);
      want.push_back(w.name + "=" + w.value);
    }
    std::string tool = plan.nv_backend == NvBackend::mlxconfig ? "mlxconfig" : "mstconfig";
    Action& a = add(ActionKind::nv_config, rule, dev, join(cur, " "), join(want, " "),
                    FixScope::firmware_reboot);
    if (std::find(plan.identity.bdfs.begin(), plan.identity.bdfs.end(), owner.bdf) == plan.identity.bdfs.end())
      plan.identity.bdfs.push_back(owner.bdf);
    std::vector<std::pair<std::string, std::string>> set, old;
    std::vector<std::string> notes;
    for (const NvWant& w : ok) {
      set.emplace_back(w.name, w.value);
      if (std::optional<long long> v = nv_number(w.current)) old.emplace_back(w.name, std::to_string(*v));
      if (!w.why.empty()) notes.push_back(w.name + " is a " + w.why);
    }
    std::optional<FixStep> undo_step;
    if (old.size() == ok.size()) undo_step = fix::nv_set(tool, owner.bdf, old);
    FixStep step = fix::nv_set(tool, owner.bdf, set);
    if (owner.bluefield_mode) guard_bluefield_mode(owner, tool, step, undo_step, notes);
    use(a, step, undo_step);
    notes.push_back(owner.bluefield_mode && owner.bluefield_mode->mode == "dpu"
                        ? "takes effect after a power cycle of the host (DPU mode)"
                        : "takes effect after a reboot or mstfwreset");
    notes.push_back(opts.nv_db ? "validated against " + opts.nv_db->path().string()
                               : opts.nv_db_missing);
    a.note = join(notes, "; ");
  }

  // Firmware NV: once per physical device (domain:bus:device), on its lowest function.
  void firmware() {
    std::map<std::string, std::vector<const PciFunction*>> groups;
    for (const PciFunction& f : s.pci_functions)
      if (f.bdf.size() == 12) groups[f.bdf.substr(0, 10)].push_back(&f);
    for (auto& [dev, fns] : groups) {
      const PciFunction* owner = nullptr;
      for (const PciFunction* f : fns)
        if (f->nv_config.has_value() && !f->nv_config->is_set_transcript) {
          owner = f;
          break;
        }
      if (!owner) continue;
      if (held.count(dev)) {
        unplanned("scope", dev, "not changed: the NIC carries a protected netdev (default route or "
                                "ssh session); name that netdev with --netdev to plan firmware steps");
        continue;
      }
      const NvConfig& nv = *owner->nv_config;
      std::size_t before = plan.actions.size();
      // The value a parameter has after the next boot, numerically; nullopt + unplanned when
      // the query shows the parameter without a readable value.
      auto value_of = [&](const std::string& rule, const NvParam& p) -> std::optional<long long> {
        const std::optional<std::string>& v = p.next_boot_value ? p.next_boot_value : p.current_value;
        std::optional<long long> n = v ? nv_number(*v) : std::nullopt;
        if (!n) unplanned(rule, owner->bdf, p.name + " has no numeric value in the query");
        return n;
      };
      auto text_of = [](const NvParam& p) {
        return p.next_boot_value.value_or(p.current_value.value_or("?"));
      };
      std::vector<NvWant> link, cnp, cc, ar;
      for (int port = 1; port <= 4; ++port) {
        std::string sfx = "_P" + std::to_string(port);
        // fw.link-type-eth: VPI ports run Ethernet (LINK_TYPE ETH = 2).
        if (const NvParam* p = nv.find("LINK_TYPE" + sfx))
          if (std::optional<long long> v = value_of("fw.link-type-eth", *p); v && *v != 2)
            link.push_back({p->name, "2", text_of(*p), ""});
        // qos.cnp-firmware: CNP DSCP and 802.1p priority of the policy.
        for (auto [base, want] : {std::pair<const char*, int>{"CNP_DSCP", pol.cnp_dscp},
                                  std::pair<const char*, int>{"CNP_802P_PRIO", pol.cnp_priority}})
          if (const NvParam* p = nv.find(base + sfx))
            if (std::optional<long long> v = value_of("qos.cnp-firmware", *p); v && *v != want)
              cnp.push_back({p->name, std::to_string(want), text_of(*p), ""});
        // qos.ecn-roce-priority: DCQCN on every ECN priority; other bits are kept.
        if (const NvParam* p = nv.find("ROCE_CC_PRIO_MASK" + sfx))
          if (std::optional<long long> v = value_of("qos.ecn-roce-priority", *p)) {
            long long mask = *v;
            for (int prio : pol.ecn_priorities)
              if (prio >= 0 && prio < 8) mask |= 1LL << prio;
            if (mask != *v) cc.push_back({p->name, std::to_string(mask), text_of(*p), ""});
          }
      }
      // fw.adaptive-routing: only when the policy says which way.
      if (const NvParam* p = nv.find("ROCE_ADAPTIVE_ROUTING_EN"); p && pol.adaptive_routing)
        if (std::optional<long long> v = value_of("fw.adaptive-routing", *p);
            v && (*v != 0) != *pol.adaptive_routing)
          ar.push_back({p->name, *pol.adaptive_routing ? "1" : "0", text_of(*p), ""});
      // Only where check failed the rule on this device; the values are the rules' advice.
      if (!link.empty() && fails_on_device("fw.link-type-eth", dev))
        nv_action("fw.link-type-eth", dev, *owner, std::move(link));
      if (!cnp.empty() && fails_on_device("qos.cnp-firmware", dev))
        nv_action("qos.cnp-firmware", dev, *owner, std::move(cnp));
      if (!cc.empty() && fails_on_device("qos.ecn-roce-priority", dev))
        nv_action("qos.ecn-roce-priority", dev, *owner, std::move(cc));
      if (!ar.empty() && fails_on_device("fw.adaptive-routing", dev))
        nv_action("fw.adaptive-routing", dev, *owner, std::move(ar));
      if (plan.actions.size() == before) continue;
      plan.nv_validation = opts.nv_db ? "validated against " + opts.nv_db->path().string() + " (" +
                                            std::to_string(opts.nv_db->size()) + " parameters)"
                                      : opts.nv_db_missing;
      if (fns.size() > 1 || owner->bdf.back() != '0') {
        std::vector<std::string> names;
        for (const PciFunction* f : fns) names.push_back(f->bdf);
        plan.warnings.push_back("firmware NV settings of " + dev + " are set once for the physical "
                                "device: they affect every function (" + join(names, ", ") +
                                ") and every host sharing the NIC (multi-host)");
      } else {
        plan.warnings.push_back("firmware NV settings of " + dev + " affect every host sharing the "
                                "NIC if it is a multi-host card");
      }
    }
  }
};

/// Sets each action's disruption (disruption_of) and orders the plan so that every port is
/// disrupted in one window: firmware NV first (effective only at the next reboot), then PCIe
/// MaxReadReq (no traffic effect), then one netdev after another in snapshot order; within a
/// netdev the steps without traffic effect first, then trust and its DSCP map, MTU and
/// adaptive coalescing (channel restarts) back to back, the PFC change (link flap) last, so
/// that the link comes back up with every setting in place.
bool is_firmware_burn(const Action& a) {
  return a.kind == ActionKind::firmware_image_check || a.kind == ActionKind::firmware_burn;
}

void order_by_disruption(Plan& plan) {
  std::map<std::string, std::size_t> port_order;
  for (Action& a : plan.actions) {
    DisruptionInfo d = disruption_of(a, plan.qos_backend);
    a.disruption = d.effect;
    a.disruption_why = std::move(d.why);
    if (a.kind != ActionKind::nv_config && a.kind != ActionKind::max_read_request && !is_firmware_burn(a))
      port_order.emplace(a.subject, port_order.size());
  }
  // Firmware first: NV settings, then every image check before any burn (enum order).
  auto phase = [](const Action& a) {
    return a.kind == ActionKind::nv_config || is_firmware_burn(a) ? 0 : a.kind == ActionKind::max_read_request ? 1 : 2;
  };
  auto rank = [](const Action& a) {
    switch (a.kind) {
      case ActionKind::ecn: return 0;
      case ActionKind::trust: return 10;
      case ActionKind::dscp2prio: return 11;  // after the trust switch of the same port
      case ActionKind::mtu: return 12;
      case ActionKind::coalesce: return a.disruption == Disruption::none ? 1 : 13;
      case ActionKind::pfc: return 20;
      default: return 0;
    }
  };
  std::stable_sort(plan.actions.begin(), plan.actions.end(), [&](const Action& x, const Action& y) {
    if (phase(x) != phase(y)) return phase(x) < phase(y);
    if (phase(x) < 2) return x.kind < y.kind;
    std::size_t px = port_order[x.subject], py = port_order[y.subject];
    if (px != py) return px < py;
    return rank(x) < rank(y);
  });
}

/// The netdevs, PCI functions and node GUIDs the actions name (PlanIdentity).
void fill_identity(const Snapshot& s, Plan& plan) {
  auto add = [](std::vector<std::string>& v, const std::string& x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  };
  for (const Action& a : plan.actions) {
    // nv_action and plan_firmware_burn record the function they name.
    if (a.kind == ActionKind::nv_config || is_firmware_burn(a)) continue;
    if (a.kind == ActionKind::max_read_request) {
      add(plan.identity.bdfs, a.subject);
      continue;
    }
    add(plan.identity.netdevs, a.subject);
    const NetDev* n = s.find_netdev(a.subject);
    if (!n || !n->rdma_device) continue;
    for (const RdmaDevice& d : s.rdma_devices)
      if (d.name == *n->rdma_device && d.node_guid &&
          std::none_of(plan.identity.node_guids.begin(), plan.identity.node_guids.end(),
                       [&](const auto& g) { return g.first == d.name; }))
        plan.identity.node_guids.emplace_back(d.name, *d.node_guid);
  }
}

/// The dcb forms need iproute2 >= 5.12 (`dcb app`, `-N`): below that the steps cannot run and
/// become `unplanned`; when the version is not known the plan says which release it assumes.
void gate_dcb_forms(Plan& plan, const PlanOptions& opts) {
  auto is_dcb = [](const Action& a) { return !a.argv.empty() && a.argv.front() == "dcb"; };
  if (std::none_of(plan.actions.begin(), plan.actions.end(), is_dcb)) return;
  std::string need = std::to_string(k_dcb_app_min_iproute2.major) + "." +
                     std::to_string(k_dcb_app_min_iproute2.minor);
  if (!opts.iproute2) {
    plan.warnings.push_back("iproute2 version not known: the dcb steps use `dcb app` and `dcb -N` "
                            "(iproute2 >= " + need + "; Debian 12 has 6.1, Ubuntu 22.04 5.15); "
                            "`dcb -V` shows the version");
    return;
  }
  if (*opts.iproute2 >= k_dcb_app_min_iproute2) return;
  std::string have = std::to_string(opts.iproute2->major) + "." + std::to_string(opts.iproute2->minor);
  std::vector<Action> kept;
  for (Action& a : plan.actions) {
    if (!is_dcb(a)) {
      kept.push_back(std::move(a));
      continue;
    }
    plan.unplanned.push_back({a.rule, a.subject,
                              "iproute2 " + have + " has no `dcb app` / `dcb -N` (needs >= " + need +
                                  "): install a newer iproute2 or mlnx_qos; wanted " + a.desired});
  }
  plan.actions = std::move(kept);
}

/// Rules whose failure one planned step fixes together (one PFC action satisfies both PFC rules;
/// an MTU step satisfies roce.active-mtu on the port of the netdev).
bool action_covers(const Action& a, const Finding& f, const Snapshot& s) {
  auto same_rule = [&](std::string_view r) {
    if (a.rule == r) return true;
    bool pfc = r == "qos.pfc-roce-priority" || r == "qos.pfc-only-roce-priority";
    return pfc && a.kind == ActionKind::pfc;
  };
  // app.roce-tos names the port ("mlx5_0/1", "rdma_cm mlx5_0/1"); the action, its netdev.
  // A stack judged on the ports' global class ("NCCL's RoCE QPs carry the global
  // traffic_class of ...") is fixed by the traffic_class step.
  if (f.rule == "app.roce-tos" && a.kind == ActionKind::traffic_class &&
      f.message.find("carry the global traffic_class") != std::string::npos)
    return true;
  if (f.rule == "app.roce-tos" && (a.kind == ActionKind::traffic_class || a.kind == ActionKind::roce_tos)) {
    for (const RdmaDevice& d : s.rdma_devices)
      for (const RdmaPort& p : d.ports) {
        std::string port = d.name + "/" + std::to_string(p.port);
        if (p.netdev && *p.netdev == a.subject &&
            f.subject == (a.kind == ActionKind::roce_tos ? "rdma_cm " + port : port))
          return true;
      }
  }
  // A burn is per physical device; fw.driver-compat names a port's RDMA device, netdev or function.
  if (is_firmware_burn(a))
    return a.rule == f.rule && s.subject_bdf(f.subject).starts_with(a.subject.substr(0, 10));
  if (same_rule(f.rule)) {
    if (a.subject == f.subject) return true;
    // Firmware steps are per physical device "dddd:bb:dd"; findings name a function or netdev.
    if (a.kind == ActionKind::nv_config) {
      if (f.subject.starts_with(a.subject)) return true;
      for (const NetDev& n : s.netdevs)
        if (n.name == f.subject && n.bdf && n.bdf->starts_with(a.subject)) return true;
    }
    return false;
  }
  if (f.rule == "roce.active-mtu" && a.kind == ActionKind::mtu) {
    for (const RdmaDevice& d : s.rdma_devices)
      for (const RdmaPort& p : d.ports)
        if (d.name + "/" + std::to_string(p.port) == f.subject && p.netdev && *p.netdev == a.subject)
          return true;
  }
  return false;
}

/// Why `plan` does not act on a failing rule it has no step for.
std::string why_not_planned(const Finding& f) {
  std::string why;
  switch (f.remediation.scope) {
    case FixScope::hardware: why = "a hardware, slot or cabling change"; break;
    case FixScope::persistent: why = "an OS configuration change (persistent), made by hand"; break;
    case FixScope::firmware_reboot: why = "a firmware change rocekit does not plan"; break;
    default: why = "no step rocekit plans for this rule"; break;
  }
  if (f.rule == "roce.active-mtu") why = "RoCE active_mtu follows the netdev MTU and the switch port MTU";
  if (f.rule.starts_with("app.") && f.subject != "host" && f.subject.find('/') == std::string::npos)
    why = "the application's setting: `rocekit plan -f nccl` writes the host's nccl.conf with it";
  if (f.rule == "app.nccl-hca" || f.rule == "app.gid-index")
    why = "an NCCL setting: `rocekit plan -f nccl` writes the host's nccl.conf with it";
  std::string out = "failing (" + f.message + "): " + why;
  if (!f.remediation.commands.empty()) out += "; check advises: " + f.remediation.commands.front();
  return out;
}

/// Whether a "not planned" line already answers a failing finding: same rule, a netdev-wide
/// line (rejected name, scope or protected path), the port's DCB group line (DCBX in firmware,
/// RoCE on another lossless priority) for every DCB rule, or one PFC line for both PFC rules.
bool unplanned_covers(const Unplanned& u, const Finding& f) {
  if (u.subject != f.subject) return false;
  if (u.rule == f.rule || u.rule == "net" || u.rule == "scope") return true;
  static const std::set<std::string_view> dcb{"qos.trust-dscp", "qos.roce-dscp-priority",
                                              "qos.cnp-dscp-priority", "qos.pfc-roce-priority",
                                              "qos.pfc-only-roce-priority"};
  if (u.rule == "qos" && dcb.count(f.rule)) return true;
  auto pfc = [](std::string_view r) { return r == "qos.pfc-roce-priority" || r == "qos.pfc-only-roce-priority"; };
  return pfc(u.rule) && pfc(f.rule);
}

/// Every failing rule of `check` becomes an action or a "not planned" line (never silence).
void cover_failing_rules(const Snapshot& s, const rules::Report& rep, Plan& plan) {
  for (const Finding& f : rep.findings) {
    if (f.outcome != Outcome::fail) continue;
    bool done = std::any_of(plan.actions.begin(), plan.actions.end(),
                            [&](const Action& a) { return action_covers(a, f, s); });
    done = done || std::any_of(plan.unplanned.begin(), plan.unplanned.end(),
                               [&](const Unplanned& u) { return unplanned_covers(u, f); });
    if (!done) plan.unplanned.push_back({f.rule, f.subject, why_not_planned(f)});
  }
}

}  // namespace

std::vector<PortDisruption> disruption_summary(const Plan& plan) {
  std::vector<PortDisruption> out;
  for (const Action& a : plan.actions) {
    if (a.disruption == Disruption::none) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const PortDisruption& p) { return p.subject == a.subject; });
    if (it == out.end()) {
      out.push_back({a.subject, a.disruption, {}});
      it = out.end() - 1;
    }
    it->worst = std::max(it->worst, a.disruption);
    std::string what = std::string(to_string(a.kind)) + ": " + std::string(to_string(a.disruption));
    if (std::find(it->causes.begin(), it->causes.end(), what) == it->causes.end()) it->causes.push_back(what);
  }
  return out;
}

Plan make_plan(const Snapshot& snapshot, const Policy& policy, const PlanOptions& opts) {
  Plan plan;
  plan.hostname = snapshot.hostname;
  plan.input = snapshot.source.path;
  plan.policy_name = policy.name;
  plan.qos_backend = pick_qos_backend(snapshot);
  plan.nv_backend = pick_nv_backend(snapshot);
  Builder b{snapshot, policy, opts, plan, {}, {}};
  rules::Report report = rules::evaluate(snapshot, policy);
  for (const Finding& f : report.findings)
    if (f.outcome == Outcome::fail) b.failing.insert({f.rule, f.subject});
  plan.nothing_judged = !rules::anything_judged(report.findings);
  plan.no_roce_port = rules::no_roce_port_judged(snapshot, report.findings);
  if (policy.trust != "dscp" && policy.trust != "pcp") {
    b.unplanned("qos.trust-dscp", "host", "policy trust must be dscp or pcp, not " +
                                              shell_quote(policy.trust));
    return plan;
  }
  std::vector<const NetDev*> devs;
  for (const NetDev& n : snapshot.netdevs) {
    if (!valid_netdev_name(n.name)) {
      b.unplanned("net", n.name, "rejected netdev name: not a valid Linux interface name, or it starts with '-' "
                                 "(a tool would read it as an option)");
      continue;
    }
    // Scope (issue 14 item 2): only RoCE ports, never the management path unless named.
    NetdevScope sc = roce_netdev_scope(snapshot, n, policy);
    if (!sc.roce && is_infiniband(snapshot, n)) continue;  // IPoIB: no RoCE step, no line (check says n/a)
    if (!sc.roce) {
      b.unplanned("scope", n.name, "not changed: " + sc.why);
      continue;
    }
    if (auto it = opts.protected_netdevs.find(n.name); it != opts.protected_netdevs.end() && !sc.named) {
      b.unplanned("scope", n.name, "not changed: " + it->second +
                                       "; name it with --netdev to plan changes for it");
      if (n.bdf && n.bdf->size() == 12) b.held.insert(n.bdf->substr(0, 10));
      continue;
    }
    devs.push_back(&n);
  }
  // After the netdev loop, so that the NIC of a protected netdev gets no firmware step; the
  // order of the plan is set by order_by_disruption (firmware NV first) at the end.
  // The warnings of the firmware steps: a restricted plan (keep_action) that keeps none of
  // those steps drops them too.
  const std::size_t firmware_warnings_from = plan.warnings.size();
  if (!opts.all_runtime) {
    b.firmware();
    detail::plan_firmware_burn(snapshot, policy, b.failing, b.held, opts, plan);
  }
  const std::size_t firmware_warnings_to = plan.warnings.size();
  if (!opts.protected_unchecked.empty() && !devs.empty()) plan.warnings.push_back(opts.protected_unchecked);
  for (const NetDev* n : devs) b.qos(*n);
  for (const NetDev* n : devs) b.pause(*n);
  for (const NetDev* n : devs) b.ecn(*n);
  for (const NetDev* n : devs) b.tos(*n);
  for (const NetDev* n : devs) b.mtu(*n);
  for (const PciFunction& f : snapshot.pci_functions) {
    if (normalize_bdf(f.bdf) != f.bdf) {
      b.unplanned("pcie.max-read-request", f.bdf, "rejected PCI address: not dddd:bb:dd.f");
      continue;
    }
    // Scope: MaxReadReq is planned for NVIDIA/Mellanox (0x15b3) functions only, never for the
    // virtio or onboard NIC of the management path.
    if (f.vendor_id && *f.vendor_id != 0x15b3) continue;
    if (f.bdf.size() == 12 && b.held.count(f.bdf.substr(0, 10))) continue;
    b.mrrs(f);
  }
  for (const NetDev* n : devs) b.coalesce(*n);
  if (opts.keep_action) {
    std::erase_if(plan.actions, [&](const Action& a) { return !opts.keep_action(a); });
    if (std::none_of(plan.actions.begin(), plan.actions.end(),
                     [](const Action& a) { return a.kind == ActionKind::nv_config || is_firmware_burn(a); })) {
      plan.warnings.erase(plan.warnings.begin() + static_cast<std::ptrdiff_t>(firmware_warnings_from),
                          plan.warnings.begin() + static_cast<std::ptrdiff_t>(firmware_warnings_to));
      plan.nv_validation.clear();
    }
  }
  // After the restriction: the dcb warning only when a dcb step is kept.
  gate_dcb_forms(plan, opts);
  if (!opts.all_runtime) cover_failing_rules(snapshot, report, plan);
  if (opts.keep_unplanned) std::erase_if(plan.unplanned, [&](const Unplanned& u) { return !opts.keep_unplanned(u); });
  order_by_disruption(plan);
  // A BlueField in DPU mode applies firmware NV and new firmware only at a power cycle of the
  // host, not at a warm reboot or mlxfwreset (k8snetworkplumbingwg/sriov-network-operator issue
  // 662): the disruption says so instead of disruption_of's "reboot or mstfwreset".
  for (Action& a : plan.actions) {
    if (a.kind != ActionKind::nv_config && a.kind != ActionKind::firmware_burn) continue;
    // NV steps name the physical device ("0000:3b:00"), burns a function of it.
    const std::string dev = a.subject.substr(0, 10);
    bool dpu = std::any_of(snapshot.pci_functions.begin(), snapshot.pci_functions.end(), [&](const PciFunction& f) {
      return f.bdf.starts_with(dev) && f.bluefield_mode && f.bluefield_mode->mode == "dpu";
    });
    if (dpu)
      a.disruption_why = "takes effect only after a power cycle of the host (a BlueField in DPU mode does not apply it "
                         "at a warm reboot or mstfwreset), which resets every port of the NIC";
  }
  fill_identity(snapshot, plan);
  return plan;
}

}  // namespace rk::plan

// make_plan: Snapshot + Policy -> ordered idempotent actions (issue 5). Mechanisms and names:
// /work/shared/reference/host-facts.md §A (NV parameter names, _P<n>), §B (setpci MRRS with mask
// and read-back), mlnx_qos / iproute2 dcb syntax.
#include "rocekit/plan/plan.hpp"
#include "rocekit/policy/scope.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace rk::plan {

std::string_view to_string(ActionKind k) {
  switch (k) {
    case ActionKind::nv_config: return "nv_config";
    case ActionKind::trust: return "trust";
    case ActionKind::dscp2prio: return "dscp2prio";
    case ActionKind::pfc: return "pfc";
    case ActionKind::ecn: return "ecn";
    case ActionKind::mtu: return "mtu";
    case ActionKind::max_read_request: return "max_read_request";
    case ActionKind::coalesce: return "coalesce";
  }
  return "?";
}

bool valid_netdev_name(std::string_view name) {
  if (name.empty() || name.size() > 15 || name == "." || name == "..") return false;
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    if (c == '/' || u <= 0x20 || u == 0x7f) return false;
  }
  return true;
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

std::string shell_quote(std::string_view word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += "'";
  return out;
}

namespace {

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

bool is_infiniband(const Snapshot& s, const NetDev& n) {
  for (const RdmaDevice& d : s.rdma_devices)
    for (const RdmaPort& p : d.ports)
      if (p.netdev == n.name && p.link_layer) return *p.link_layer == "InfiniBand";
  if (n.name.size() < 3 || !n.name.starts_with("ib")) return false;
  return std::all_of(n.name.begin() + 2, n.name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

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

std::string mask_text(const std::vector<bool>& m, std::string_view sep, bool words) {
  std::string out;
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (i) out += sep;
    if (words)
      out += std::to_string(i) + (m[i] ? ":on" : ":off");
    else
      out += m[i] ? "1" : "0";
  }
  return out;
}

struct Builder {
  const Snapshot& s;
  const Policy& pol;
  const PlanOptions& opts;
  Plan& plan;

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

  std::vector<std::string> qos_read(const std::string& dev, const char* what) const {
    if (plan.qos_backend == QosBackend::mlnx_qos) return {"mlnx_qos", "-i", dev};
    if (std::string_view(what) == "pfc") return {"dcb", "pfc", "show", "dev", dev, "prio-pfc"};
    if (std::string_view(what) == "app") return {"dcb", "app", "show", "dev", dev, "dscp-prio"};
    return {"dcb", "apptrust", "show", "dev", dev};
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
        it != q.dscp_to_priority.end() && q.trust && *q.trust == "dscp" &&
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

  void dscp_map(const NetDev& n, const QosState& q, int dscp, int prio, const char* rule,
                bool trust_changes) {
    auto it = q.dscp_to_priority.find(dscp);
    std::string current;
    if (it != q.dscp_to_priority.end()) {
      if (it->second == prio && !opts.all_runtime) return;
      current = "prio " + std::to_string(it->second);
    } else if (trust_changes) {
      current = "not shown (trust " + q.trust.value_or("?") + ")";
    } else {
      return unplanned(rule, n.name, "dscp2prio table not shown for DSCP " + std::to_string(dscp));
    }
    Action& a = add(ActionKind::dscp2prio, rule, n.name, "dscp " + std::to_string(dscp) + ": " + current,
                    "dscp " + std::to_string(dscp) + ": prio " + std::to_string(prio), FixScope::runtime);
    std::string d = std::to_string(dscp), p = std::to_string(prio);
    if (plan.qos_backend == QosBackend::mlnx_qos) {
      a.argv = {"mlnx_qos", "-i", n.name, "--dscp2prio", "set," + d + "," + p};
      std::string dd = dscp < 10 ? "0" + d : d;
      a.check_regex = {"prio:" + p + " dscp:([0-9]+,)*" + dd + ","};
      if (it != q.dscp_to_priority.end()) {
        a.undo_argv = {"mlnx_qos", "-i", n.name, "--dscp2prio", "set," + d + "," + std::to_string(it->second)};
        a.undo_check_regex = {"prio:" + std::to_string(it->second) + " dscp:([0-9]+,)*" + dd + ","};
      }
    } else {
      a.argv = {"dcb", "app", "replace", "dev", n.name, "dscp-prio", d + ":" + p};
      a.check_regex = {"(^|[[:space:]])" + d + ":" + p + "([[:space:]]|$)"};
      if (it != q.dscp_to_priority.end()) {
        a.undo_argv = {"dcb", "app", "replace", "dev", n.name, "dscp-prio", d + ":" + std::to_string(it->second)};
        a.undo_check_regex = {"(^|[[:space:]])" + d + ":" + std::to_string(it->second) + "([[:space:]]|$)"};
      }
    }
    a.check_argv = qos_read(n.name, "app");
  }

  void qos(const NetDev& n) {
    if (is_infiniband(s, n)) return;  // IPoIB: no DCB trust, PFC or DSCP map to plan
    if (!n.qos.has_value()) {
      if (n.rdma_device) unplanned("qos.trust-dscp", n.name, "QoS state not collected: " + n.qos.reason);
      return;
    }
    const QosState& q = *n.qos;
    // DCBX in firmware (willing) mode: the switch's DCBX TLVs set PFC and ETS on this port and
    // override a host write; point at the switch or at the NV setting that hands QoS to the host.
    if (q.dcbx_mode && *q.dcbx_mode == "firmware") {
      std::string port = n.rdma_port ? std::to_string(*n.rdma_port) : "<n>";
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
      return unplanned("qos.pfc-roce-priority", n.name, other);
    }
    bool trust_changes = false;
    if (!q.trust) {
      unplanned("qos.trust-dscp", n.name, "trust state not shown");
    } else if (*q.trust != pol.trust || opts.all_runtime) {
      trust_changes = *q.trust != pol.trust;
      Action& a = add(ActionKind::trust, "qos.trust-dscp", n.name, *q.trust, pol.trust, FixScope::runtime);
      if (plan.qos_backend == QosBackend::mlnx_qos) {
        a.argv = {"mlnx_qos", "-i", n.name, "--trust", pol.trust};
        a.undo_argv = {"mlnx_qos", "-i", n.name, "--trust", *q.trust};
        a.check_regex = {"^Priority trust state:[[:space:]]+" + pol.trust + "$"};
        a.undo_check_regex = {"^Priority trust state:[[:space:]]+" + *q.trust + "$"};
      } else {
        a.argv = {"dcb", "apptrust", "set", "dev", n.name, "order", pol.trust};
        a.undo_argv = {"dcb", "apptrust", "set", "dev", n.name, "order", *q.trust};
        a.check_regex = {"order: " + pol.trust + "( |$)"};
        a.undo_check_regex = {"order: " + *q.trust + "( |$)"};
      }
      a.check_argv = qos_read(n.name, "trust");
    }
    if (pol.trust == "dscp") {
      dscp_map(n, q, pol.roce_dscp, pol.roce_priority, "qos.roce-dscp-priority", trust_changes);
      dscp_map(n, q, pol.cnp_dscp, pol.cnp_priority, "qos.cnp-dscp-priority", trust_changes);
    }
    if (!q.pfc_enabled || q.pfc_enabled->size() != 8) {
      unplanned("qos.pfc-roce-priority", n.name, "PFC table not shown");
      return;
    }
    std::vector<bool> want(8, false);
    for (int p : pol.pfc_priorities)
      if (p >= 0 && p < 8) want[static_cast<std::size_t>(p)] = true;
    if (want == *q.pfc_enabled && !opts.all_runtime) return;
    bool roce_off = !(*q.pfc_enabled)[static_cast<std::size_t>(pol.roce_priority & 7)];
    Action& a = add(ActionKind::pfc, roce_off ? "qos.pfc-roce-priority" : "qos.pfc-only-roce-priority",
                    n.name, mask_text(*q.pfc_enabled, ",", false), mask_text(want, ",", false),
                    FixScope::runtime);
    if (plan.qos_backend == QosBackend::mlnx_qos) {
      a.argv = {"mlnx_qos", "-i", n.name, "--pfc", mask_text(want, ",", false)};
      a.undo_argv = {"mlnx_qos", "-i", n.name, "--pfc", mask_text(*q.pfc_enabled, ",", false)};
      a.check_regex = {"^[[:space:]]*enabled[[:space:]]+" + mask_text(want, "[[:space:]]+", false) +
                       "[[:space:]]*$"};
      a.undo_check_regex = {"^[[:space:]]*enabled[[:space:]]+" +
                            mask_text(*q.pfc_enabled, "[[:space:]]+", false) + "[[:space:]]*$"};
    } else {
      a.argv = {"dcb", "pfc", "set", "dev", n.name, "prio-pfc"};
      a.undo_argv = a.argv;
      for (std::size_t i = 0; i < 8; ++i) {
        a.argv.push_back(std::to_string(i) + (want[i] ? ":on" : ":off"));
        a.undo_argv.push_back(std::to_string(i) + ((*q.pfc_enabled)[i] ? ":on" : ":off"));
      }
      a.check_regex = {"prio-pfc " + mask_text(want, " ", true)};
      a.undo_check_regex = {"prio-pfc " + mask_text(*q.pfc_enabled, " ", true)};
    }
    a.check_argv = qos_read(n.name, "pfc");
  }

  void ecn(const NetDev& n) {
    if (is_infiniband(s, n)) return;  // RoCE ECN (DCQCN) does not apply to an InfiniBand port
    if (!n.ecn.has_value()) {
      if (n.rdma_device && n.qos.has_value())
        unplanned("qos.ecn-roce-priority", n.name, "ECN sysfs not collected: " + n.ecn.reason);
      return;
    }
    for (const char* point : {"roce_rp", "roce_np"}) {
      const auto& m = std::string_view(point) == "roce_rp" ? n.ecn->rp_enabled : n.ecn->np_enabled;
      for (int p : pol.ecn_priorities) {
        auto it = m.find(p);
        if (it == m.end()) {
          unplanned("qos.ecn-roce-priority", n.name,
                    std::string(point) + " enable/" + std::to_string(p) + " not collected");
          continue;
        }
        if (it->second && !opts.all_runtime) continue;
        std::string path = "/sys/class/net/" + n.name + "/ecn/" + point + "/enable/" + std::to_string(p);
        Action& a = add(ActionKind::ecn, "qos.ecn-roce-priority", n.name,
                        std::string(point) + "[" + std::to_string(p) + "]=" + (it->second ? "1" : "0"),
                        std::string(point) + "[" + std::to_string(p) + "]=1", FixScope::runtime);
        a.write_path = path;
        a.write_value = "1";
        a.undo_write_value = it->second ? "1" : "0";
        a.check_regex = {"^1$"};
        a.undo_check_regex = {"^" + a.undo_write_value + "$"};
      }
    }
  }

  void mtu(const NetDev& n) {
    if (is_infiniband(s, n)) return;
    if (!n.mtu_bytes.has_value()) {
      if (n.rdma_device) unplanned("net.mtu", n.name, "netdev MTU not collected: " + n.mtu_bytes.reason);
      return;
    }
    if (*n.mtu_bytes >= pol.netdev_mtu_min_bytes && !opts.all_runtime) return;
    // Re-applying at boot keeps a larger MTU (9000) as it is.
    std::string want = std::to_string(std::max(*n.mtu_bytes, pol.netdev_mtu_min_bytes));
    Action& a = add(ActionKind::mtu, "net.mtu", n.name, std::to_string(*n.mtu_bytes), want,
                    FixScope::runtime);
    a.argv = {"ip", "link", "set", "dev", n.name, "mtu", want};
    a.undo_argv = {"ip", "link", "set", "dev", n.name, "mtu", std::to_string(*n.mtu_bytes)};
    a.check_argv = {"ip", "-o", "link", "show", "dev", n.name};
    a.check_regex = {" mtu " + want + " "};
    a.undo_check_regex = {" mtu " + std::to_string(*n.mtu_bytes) + " "};
    a.note = "every switch port on the path needs an MTU of at least " + want;
  }

  void mrrs(const PciFunction& f) {
    if (!f.max_read_request_bytes.has_value()) return;  // pcie rules report the unknown
    int want = pol.max_read_request_bytes;
    if (*f.max_read_request_bytes == want && !opts.all_runtime) return;
    int idx = -1;
    for (int i = 0; i <= 5; ++i)
      if ((128 << i) == want) idx = i;
    if (idx < 0)
      return unplanned("pcie.max-read-request", f.bdf,
                       "policy max_read_request_bytes " + std::to_string(want) +
                           " is not 128..4096 in powers of two");
    const char* hex = "0123456789abcdef";
    Action& a = add(ActionKind::max_read_request, "pcie.max-read-request", f.bdf,
                    std::to_string(*f.max_read_request_bytes), std::to_string(want), FixScope::runtime);
    a.argv = {"setpci", "-s", f.bdf, std::string("CAP_EXP+08.w=") + hex[idx] + "000:F000"};
    a.check_argv = {"setpci", "-s", f.bdf, "CAP_EXP+08.w"};
    for (int i = 0; i <= 5; ++i)
      if ((128 << i) == *f.max_read_request_bytes) {
        a.undo_argv = {"setpci", "-s", f.bdf, std::string("CAP_EXP+08.w=") + hex[i] + "000:F000"};
        a.undo_check_regex = {std::string("^[") + hex[i] + hex[i + 8] + "][0-9a-fA-F]{3}$"};
      }
    a.check_regex = {std::string("^[") + hex[idx] + hex[idx + 8] + "][0-9a-fA-F]{3}$"};
    a.note = "masked write of DevCtl bits 15:12 only; lost at reboot";
  }

  void coalesce(const NetDev& n) {
    if (!n.coalesce.has_value()) return;
    const CoalesceState& c = *n.coalesce;
    const CoalescingProfile& prof = pol.coalescing;
    std::vector<std::string> args, cur, want, rx, undo;
    std::vector<std::string> undo_rx;
    if (prof.adaptive_rx && c.adaptive_rx && (*c.adaptive_rx != *prof.adaptive_rx || opts.all_runtime)) {
      std::string v = *prof.adaptive_rx ? "on" : "off";
      args.insert(args.end(), {"adaptive-rx", v});
      undo.insert(undo.end(), {"adaptive-rx", *c.adaptive_rx ? "on" : "off"});
      cur.push_back(std::string("adaptive-rx ") + (*c.adaptive_rx ? "on" : "off"));
      want.push_back("adaptive-rx " + v);
      rx.push_back("^Adaptive RX:[[:space:]]+" + v + "([[:space:]]|$)");
      undo_rx.push_back(std::string("^Adaptive RX:[[:space:]]+") + (*c.adaptive_rx ? "on" : "off") +
                        "([[:space:]]|$)");
    }
    auto usecs = [&](const char* key, const std::optional<std::uint32_t>& v, std::uint32_t lo,
                     std::uint32_t hi) {
      bool in_range = v && *v >= lo && *v <= hi;
      if (!v || (in_range && !opts.all_runtime)) return;
      std::uint32_t to = in_range ? *v : lo;  // re-applying at boot keeps an in-range value
      args.insert(args.end(), {key, std::to_string(to)});
      undo.insert(undo.end(), {key, std::to_string(*v)});
      cur.push_back(std::string(key) + " " + std::to_string(*v));
      want.push_back(std::string(key) + " " + std::to_string(to));
      rx.push_back(std::string("^") + key + ":[[:space:]]+" + std::to_string(to) + "$");
      undo_rx.push_back(std::string("^") + key + ":[[:space:]]+" + std::to_string(*v) + "$");
    };
    usecs("rx-usecs", c.rx_usecs, prof.rx_usecs_min, prof.rx_usecs_max);
    usecs("tx-usecs", c.tx_usecs, prof.tx_usecs_min, prof.tx_usecs_max);
    if (args.empty()) return;
    Action& a = add(ActionKind::coalesce, "irq.coalescing", n.name, join(cur, ", "), join(want, ", "),
                    FixScope::runtime);
    a.argv = {"ethtool", "-C", n.name};
    a.argv.insert(a.argv.end(), args.begin(), args.end());
    a.check_argv = {"ethtool", "-c", n.name};
    a.undo_argv = {"ethtool", "-C", n.name};
    a.undo_argv.insert(a.undo_argv.end(), undo.begin(), undo.end());
    a.check_regex = rx;
    a.undo_check_regex = undo_rx;
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
    std::vector<std::string> cur, want, undo, a_undo_rx;
    for (const NvWant& w : ok) {
      cur.push_back(w.name + "=" + w.current);
      want.push_back(w.name + "=" + w.value);
      if (std::optional<long long> n = nv_number(w.current)) {
        undo.push_back(w.name + "=" + std::to_string(*n));
        a_undo_rx.push_back("^[[:space:]]*" + w.name + "[[:space:]]+([A-Za-z_]+\\()?" + std::to_string(*n) +
                            "\\)?([[:space:]]|$)");
      }
    }
    std::string tool = plan.nv_backend == NvBackend::mlxconfig ? "mlxconfig" : "mstconfig";
    Action& a = add(ActionKind::nv_config, rule, dev, join(cur, " "), join(want, " "),
                    FixScope::firmware_reboot);
    if (std::find(plan.identity.bdfs.begin(), plan.identity.bdfs.end(), owner.bdf) == plan.identity.bdfs.end())
      plan.identity.bdfs.push_back(owner.bdf);
    a.argv = {tool, "-y", "-d", owner.bdf, "set"};
    a.check_argv = {tool, "-d", owner.bdf, "query"};
    std::vector<std::string> notes;
    for (const NvWant& w : ok) {
      a.argv.push_back(w.name + "=" + w.value);
      a.check_argv.push_back(w.name);
      // The query prints numbers as "48" and enums/booleans as "ALIAS(n)".
      a.check_regex.push_back("^[[:space:]]*" + w.name + "[[:space:]]+([A-Za-z_]+\\()?" + w.value +
                              "\\)?([[:space:]]|$)");
      if (!w.why.empty()) notes.push_back(w.name + " is a " + w.why);
    }
    if (undo.size() == ok.size()) {
      a.undo_argv = {tool, "-y", "-d", owner.bdf, "set"};
      a.undo_argv.insert(a.undo_argv.end(), undo.begin(), undo.end());
      a.undo_check_regex = a_undo_rx;
    }
    notes.push_back("takes effect after a reboot or mstfwreset");
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
      if (!link.empty()) nv_action("fw.link-type-eth", dev, *owner, std::move(link));
      if (!cnp.empty()) nv_action("qos.cnp-firmware", dev, *owner, std::move(cnp));
      if (!cc.empty()) nv_action("qos.ecn-roce-priority", dev, *owner, std::move(cc));
      if (!ar.empty()) nv_action("fw.adaptive-routing", dev, *owner, std::move(ar));
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
void order_by_disruption(Plan& plan) {
  std::map<std::string, std::size_t> port_order;
  for (Action& a : plan.actions) {
    DisruptionInfo d = disruption_of(a, plan.qos_backend);
    a.disruption = d.effect;
    a.disruption_why = std::move(d.why);
    if (a.kind != ActionKind::nv_config && a.kind != ActionKind::max_read_request)
      port_order.emplace(a.subject, port_order.size());
  }
  auto phase = [](const Action& a) {
    return a.kind == ActionKind::nv_config ? 0 : a.kind == ActionKind::max_read_request ? 1 : 2;
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
    if (a.kind == ActionKind::nv_config) continue;  // nv_action records the owner function
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
  plan.policy_name = policy.name;
  plan.qos_backend = pick_qos_backend(snapshot);
  plan.nv_backend = pick_nv_backend(snapshot);
  Builder b{snapshot, policy, opts, plan};
  if (policy.trust != "dscp" && policy.trust != "pcp") {
    b.unplanned("qos.trust-dscp", "host", "policy trust must be dscp or pcp, not " +
                                              shell_quote(policy.trust));
    return plan;
  }
  if (!opts.all_runtime) b.firmware();
  std::vector<const NetDev*> devs;
  for (const NetDev& n : snapshot.netdevs) {
    if (!valid_netdev_name(n.name)) {
      b.unplanned("net", n.name, "rejected netdev name: not a valid Linux interface name");
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
      continue;
    }
    devs.push_back(&n);
  }
  if (!opts.protected_unchecked.empty() && !devs.empty()) plan.warnings.push_back(opts.protected_unchecked);
  for (const NetDev* n : devs) b.qos(*n);
  for (const NetDev* n : devs) b.ecn(*n);
  for (const NetDev* n : devs) b.mtu(*n);
  for (const PciFunction& f : snapshot.pci_functions) {
    if (normalize_bdf(f.bdf) != f.bdf) {
      b.unplanned("pcie.max-read-request", f.bdf, "rejected PCI address: not dddd:bb:dd.f");
      continue;
    }
    // Scope: MaxReadReq is planned for NVIDIA/Mellanox (0x15b3) functions only, never for the
    // virtio or onboard NIC of the management path.
    if (f.vendor_id && *f.vendor_id != 0x15b3) continue;
    b.mrrs(f);
  }
  for (const NetDev* n : devs) b.coalesce(*n);
  order_by_disruption(plan);
  fill_identity(snapshot, plan);
  return plan;
}

}  // namespace rk::plan

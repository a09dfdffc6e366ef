// make_plan: Snapshot + Policy -> ordered idempotent actions (issue 5). Mechanisms and names:
// /work/shared/reference/host-facts.md §A (NV parameter names, _P<n>), §B (setpci MRRS with mask
// and read-back), mlnx_qos / iproute2 dcb syntax.
#include "rocekit/plan/plan.hpp"

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

  void dscp_map(const NetDev& n, const QosState& q, int dscp, int prio, const char* rule,
                bool trust_changes) {
    auto it = q.dscp_to_priority.find(dscp);
    std::string current;
    if (it != q.dscp_to_priority.end()) {
      if (it->second == prio) return;
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
      if (it != q.dscp_to_priority.end())
        a.undo_argv = {"mlnx_qos", "-i", n.name, "--dscp2prio", "set," + d + "," + std::to_string(it->second)};
    } else {
      a.argv = {"dcb", "app", "replace", "dev", n.name, "dscp-prio", d + ":" + p};
      a.check_regex = {"(^|[[:space:]])" + d + ":" + p + "([[:space:]]|$)"};
      if (it != q.dscp_to_priority.end())
        a.undo_argv = {"dcb", "app", "replace", "dev", n.name, "dscp-prio", d + ":" + std::to_string(it->second)};
    }
    a.check_argv = qos_read(n.name, "app");
  }

  void qos(const NetDev& n) {
    if (!n.qos.has_value()) {
      if (n.rdma_device) unplanned("qos.trust-dscp", n.name, "QoS state not collected: " + n.qos.reason);
      return;
    }
    const QosState& q = *n.qos;
    bool trust_changes = false;
    if (!q.trust) {
      unplanned("qos.trust-dscp", n.name, "trust state not shown");
    } else if (*q.trust != pol.trust) {
      trust_changes = true;
      Action& a = add(ActionKind::trust, "qos.trust-dscp", n.name, *q.trust, pol.trust, FixScope::runtime);
      if (plan.qos_backend == QosBackend::mlnx_qos) {
        a.argv = {"mlnx_qos", "-i", n.name, "--trust", pol.trust};
        a.undo_argv = {"mlnx_qos", "-i", n.name, "--trust", *q.trust};
        a.check_regex = {"^Priority trust state:[[:space:]]+" + pol.trust + "$"};
      } else {
        a.argv = {"dcb", "apptrust", "set", "dev", n.name, "order", pol.trust};
        a.undo_argv = {"dcb", "apptrust", "set", "dev", n.name, "order", *q.trust};
        a.check_regex = {"order: " + pol.trust + "( |$)"};
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
    if (want == *q.pfc_enabled) return;
    bool roce_off = !(*q.pfc_enabled)[static_cast<std::size_t>(pol.roce_priority & 7)];
    Action& a = add(ActionKind::pfc, roce_off ? "qos.pfc-roce-priority" : "qos.pfc-only-roce-priority",
                    n.name, mask_text(*q.pfc_enabled, ",", false), mask_text(want, ",", false),
                    FixScope::runtime);
    if (plan.qos_backend == QosBackend::mlnx_qos) {
      a.argv = {"mlnx_qos", "-i", n.name, "--pfc", mask_text(want, ",", false)};
      a.undo_argv = {"mlnx_qos", "-i", n.name, "--pfc", mask_text(*q.pfc_enabled, ",", false)};
      a.check_regex = {"^[[:space:]]*enabled[[:space:]]+" + mask_text(want, "[[:space:]]+", false) +
                       "[[:space:]]*$"};
    } else {
      a.argv = {"dcb", "pfc", "set", "dev", n.name, "prio-pfc"};
      a.undo_argv = a.argv;
      for (std::size_t i = 0; i < 8; ++i) {
        a.argv.push_back(std::to_string(i) + (want[i] ? ":on" : ":off"));
        a.undo_argv.push_back(std::to_string(i) + ((*q.pfc_enabled)[i] ? ":on" : ":off"));
      }
      a.check_regex = {"prio-pfc " + mask_text(want, " ", true)};
    }
    a.check_argv = qos_read(n.name, "pfc");
  }

  void ecn(const NetDev& n) {
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
        if (it->second) continue;
        std::string path = "/sys/class/net/" + n.name + "/ecn/" + point + "/enable/" + std::to_string(p);
        Action& a = add(ActionKind::ecn, "qos.ecn-roce-priority", n.name,
                        std::string(point) + "[" + std::to_string(p) + "]=0",
                        std::string(point) + "[" + std::to_string(p) + "]=1", FixScope::runtime);
        a.write_path = path;
        a.write_value = "1";
        a.undo_write_value = "0";
        a.check_regex = {"^1$"};
      }
    }
  }

  void mtu(const NetDev& n) {
    if (is_infiniband(s, n)) return;
    if (!n.mtu_bytes.has_value()) {
      if (n.rdma_device) unplanned("net.mtu", n.name, "netdev MTU not collected: " + n.mtu_bytes.reason);
      return;
    }
    if (*n.mtu_bytes >= pol.netdev_mtu_min_bytes) return;
    std::string want = std::to_string(pol.netdev_mtu_min_bytes);
    Action& a = add(ActionKind::mtu, "net.mtu", n.name, std::to_string(*n.mtu_bytes), want,
                    FixScope::runtime);
    a.argv = {"ip", "link", "set", "dev", n.name, "mtu", want};
    a.undo_argv = {"ip", "link", "set", "dev", n.name, "mtu", std::to_string(*n.mtu_bytes)};
    a.check_argv = {"ip", "-o", "link", "show", "dev", n.name};
    a.check_regex = {" mtu " + want + " "};
    a.note = "every switch port on the path needs an MTU of at least " + want;
  }

  void mrrs(const PciFunction& f) {
    if (!f.max_read_request_bytes.has_value()) return;  // pcie rules report the unknown
    int want = pol.max_read_request_bytes;
    if (*f.max_read_request_bytes == want) return;
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
      if ((128 << i) == *f.max_read_request_bytes)
        a.undo_argv = {"setpci", "-s", f.bdf, std::string("CAP_EXP+08.w=") + hex[i] + "000:F000"};
    a.check_regex = {std::string("^[") + hex[idx] + hex[idx + 8] + "][0-9a-fA-F]{3}$"};
    a.note = "masked write of DevCtl bits 15:12 only; lost at reboot";
  }

  void coalesce(const NetDev& n) {
    if (!n.coalesce.has_value()) return;
    const CoalesceState& c = *n.coalesce;
    const CoalescingProfile& prof = pol.coalescing;
    std::vector<std::string> args, cur, want, rx, undo;
    if (prof.adaptive_rx && c.adaptive_rx && *c.adaptive_rx != *prof.adaptive_rx) {
      std::string v = *prof.adaptive_rx ? "on" : "off";
      args.insert(args.end(), {"adaptive-rx", v});
      undo.insert(undo.end(), {"adaptive-rx", *c.adaptive_rx ? "on" : "off"});
      cur.push_back(std::string("adaptive-rx ") + (*c.adaptive_rx ? "on" : "off"));
      want.push_back("adaptive-rx " + v);
      rx.push_back("^Adaptive RX:[[:space:]]+" + v + "([[:space:]]|$)");
    }
    auto usecs = [&](const char* key, const std::optional<std::uint32_t>& v, std::uint32_t lo,
                     std::uint32_t hi) {
      if (!v || (*v >= lo && *v <= hi)) return;
      args.insert(args.end(), {key, std::to_string(lo)});
      undo.insert(undo.end(), {key, std::to_string(*v)});
      cur.push_back(std::string(key) + " " + std::to_string(*v));
      want.push_back(std::string(key) + " " + std::to_string(lo));
      rx.push_back(std::string("^") + key + ":[[:space:]]+" + std::to_string(lo) + "$");
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
    a.note = "netdev (TCP/IP) interrupts only; RDMA completions are not moderated by this";
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
      std::vector<std::pair<std::string, std::string>> sets;
      std::vector<std::string> cur, want, undo;
      auto want_value = [&](const std::string& name, const std::string& value) {
        const NvParam* p = nv.find(name);
        if (!p) return;
        const std::optional<std::string>& v = p->next_boot_value ? p->next_boot_value : p->current_value;
        if (!v) return unplanned("qos.cnp-firmware", owner->bdf, name + " has no value in the query");
        if (*v == value) return;
        if (Result<std::string> ok = validate_nv_param(name); !ok)
          return unplanned("qos.cnp-firmware", owner->bdf, ok.error().message);
        sets.emplace_back(name, value);
        cur.push_back(name + "=" + *v);
        undo.push_back(name + "=" + *v);
        want.push_back(name + "=" + value);
      };
      for (int port = 1; port <= 4; ++port) {
        std::string sfx = "_P" + std::to_string(port);
        want_value("CNP_DSCP" + sfx, std::to_string(pol.cnp_dscp));
        want_value("CNP_802P_PRIO" + sfx, std::to_string(pol.cnp_priority));
      }
      if (sets.empty()) continue;
      std::string tool = plan.nv_backend == NvBackend::mlxconfig ? "mlxconfig" : "mstconfig";
      Action& a = add(ActionKind::nv_config, "qos.cnp-firmware", dev, join(cur, " "), join(want, " "),
                      FixScope::firmware_reboot);
      a.argv = {tool, "-y", "-d", owner->bdf, "set"};
      a.check_argv = {tool, "-d", owner->bdf, "query"};
      for (auto& [k, v] : sets) {
        a.argv.push_back(k + "=" + v);
        a.check_argv.push_back(k);
        a.check_regex.push_back("^[[:space:]]*" + k + "[[:space:]]+" + v + "([[:space:]]|$)");
      }
      a.undo_argv = {tool, "-y", "-d", owner->bdf, "set"};
      a.undo_argv.insert(a.undo_argv.end(), undo.begin(), undo.end());
      a.note = "takes effect after a reboot or mstfwreset";
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

}  // namespace

Plan make_plan(const Snapshot& snapshot, const Policy& policy) {
  Plan plan;
  plan.hostname = snapshot.hostname;
  plan.policy_name = policy.name;
  plan.qos_backend = pick_qos_backend(snapshot);
  plan.nv_backend = pick_nv_backend(snapshot);
  Builder b{snapshot, policy, plan};
  if (policy.trust != "dscp" && policy.trust != "pcp") {
    b.unplanned("qos.trust-dscp", "host", "policy trust must be dscp or pcp, not " +
                                              shell_quote(policy.trust));
    return plan;
  }
  b.firmware();
  std::vector<const NetDev*> devs;
  for (const NetDev& n : snapshot.netdevs) {
    if (!valid_netdev_name(n.name)) {
      b.unplanned("net", n.name, "rejected netdev name: not a valid Linux interface name");
      continue;
    }
    devs.push_back(&n);
  }
  for (const NetDev* n : devs) b.qos(*n);
  for (const NetDev* n : devs) b.ecn(*n);
  for (const NetDev* n : devs) b.mtu(*n);
  for (const PciFunction& f : snapshot.pci_functions) {
    if (normalize_bdf(f.bdf) != f.bdf) {
      b.unplanned("pcie.max-read-request", f.bdf, "rejected PCI address: not dddd:bb:dd.f");
      continue;
    }
    b.mrrs(f);
  }
  for (const NetDev* n : devs) b.coalesce(*n);
  // Kinds were emitted in enum order, except dscp2prio/pfc interleaved per netdev: sort stably.
  std::stable_sort(plan.actions.begin(), plan.actions.end(),
                   [](const Action& x, const Action& y) { return x.kind < y.kind; });
  return plan;
}

}  // namespace rk::plan

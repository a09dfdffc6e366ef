// What the application really sends: app.roce-tos, app.gid-index, app.nccl-hca, app.nccl-transport.
// The derivations (setting in force, HCA filter, GID auto-selection, rails) are in rules/app.cpp.
#include <map>
#include <set>

#include "rocekit/core/shell.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/rules/app.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

/// The priority a DSCP lands on at this host's receive side: the rails' DSCP map when read,
/// else the default map (DSCP >> 3); `how` names which.
struct DscpPriority {
  int priority = 0;
  std::string how;
};
DscpPriority priority_of_dscp(const Snapshot& s, const Rails& rails, int dscp) {
  for (const RailPort& r : rails.ports) {
    const NetDev* n = r.port->netdev ? s.find_netdev(*r.port->netdev) : nullptr;
    if (n && n->qos.has_value() && !n->qos->dscp_to_priority.empty()) {
      auto it = n->qos->dscp_to_priority.find(dscp);
      if (it != n->qos->dscp_to_priority.end()) return {it->second, n->name + "'s DSCP map"};
    }
  }
  return {dscp >> 3, "the default DSCP map, DSCP >> 3"};
}

/// The global traffic class shared by the ports, with its evidence: set when every port with a
/// read value has the same one (nullopt when none has one, or they differ: judged per port).
struct Override {
  std::optional<int> tos;
  std::vector<Evidence> evidence;
  std::vector<std::string> ports;
};

Override global_override(const Snapshot& s, const Rails& rails) {
  Override o;
  std::set<int> values;
  bool every = !rails.ports.empty();
  for (const RailPort& r : rails.ports) {
    if (!r.port->global_traffic_class.has_value()) {
      every = false;
      continue;
    }
    values.insert(*r.port->global_traffic_class);
    o.evidence.push_back(r.port->global_traffic_class.source);
    o.ports.push_back(port_subject(*r.device, *r.port));
  }
  (void)s;
  if (every && values.size() == 1) o.tos = *values.begin();
  return o;
}

/// A stack's failure caused by the global traffic class: the fix is on the ports, not the stack.
void overridden(Finding& f, const Override& ov) {
  if (f.outcome != Outcome::fail) return;
  f.remediation.scope = FixScope::runtime;
  f.remediation.notes = "The global traffic_class of " + join(ov.ports) + " decides this ToS, whatever the "
                        "stack's own setting: fix the ports' traffic_class (their findings give the command).";
}

/// A failed setting's fix names the line that set it: an `export` elsewhere does not change a
/// nccl.conf line, and a job script's assignment wins over an exported value set before it.
void set_where(Finding& f, const AppSetting& a) {
  if (f.outcome != Outcome::fail || a.source.file.empty()) return;
  std::string at = a.source.file + (a.source.line ? ":" + std::to_string(a.source.line) : "");
  if (a.origin == "nccl log")
    f.remediation.notes = "NCCL read it from its environment or a nccl.conf (the log does not say which): find where " +
                          a.name + " is set on the host and change it there. " + f.remediation.notes;
  else
    f.remediation.notes = "It is set at " + at + " (" + a.origin + "): change it there. " + f.remediation.notes;
}

std::optional<int> tos_value(const std::string& v) {
  std::optional<std::uint64_t> n = text::parse_uint(text::trim(v));
  if (!n || *n > 255) return std::nullopt;
  return static_cast<int>(*n);
}

/// pass or fail of one stack's ToS against the policy, the message led by `what`.
Finding& judge_tos(Emitter& e, const Snapshot& s, const Policy& pol, const Rails& rails, const std::string& subject,
               const std::string& what, int tos, const std::vector<Evidence>& ev, const std::string& fix_env) {
  int want = policy_roce_tos(pol);
  int dscp = tos >> 2;
  if (dscp == pol.roce_dscp) {
    std::string ecn = (tos & 3) == (want & 3) ? "" : "; the ECN bits differ from the policy's " + tos_text(want);
    Finding& f = e.pass(subject, what + ": " + tos_text(tos) + ", the policy's RoCE DSCP" + ecn);
    for (const Evidence& x : ev) add_evidence(f, x);
    return f;
  }
  DscpPriority lands = priority_of_dscp(s, rails, dscp);
  std::string where = "priority " + std::to_string(lands.priority) + " (" + lands.how + ")";
  std::string effect = lands.priority == pol.roce_priority
                           ? ": this host puts DSCP " + std::to_string(dscp) + " on the lossless " + where +
                                 " too, but the switches classify RoCE by DSCP " + std::to_string(pol.roce_dscp) +
                                 " (their PFC class, ECN marking and buffers)"
                           : ": RoCE lands on " + where + " instead of the lossless priority " +
                                 std::to_string(pol.roce_priority);
  Finding& f = e.fail(subject, what + ": " + tos_text(tos) + ", not the policy's DSCP " + std::to_string(pol.roce_dscp) +
                                   effect);
  for (const Evidence& x : ev) add_evidence(f, x);
  f.remediation.scope = FixScope::persistent;
  if (!fix_env.empty()) {
    f.remediation.commands = {fix_env};
    f.remediation.notes = "`rocekit plan -f nccl` writes the host's nccl.conf with it. " + tos_text(want) +
                          " is DSCP " + std::to_string(pol.roce_dscp) + " << 2 | ECT(0).";
  }
  return f;
}

void eval_roce_tos(const Snapshot& s, const Policy& pol, Emitter& e) {
  Rails rails = roce_rails(s, pol);
  if (rails.ports.empty() && !s.rdma_devices.empty()) {
    e.not_applicable("host", "no Ethernet RDMA port: no RoCE traffic to mark");
    return;
  }
  int want = policy_roce_tos(pol);
  // The MLNX_OFED global traffic class: per port, it replaces what every QP asks for.
  for (const RailPort& r : rails.ports) {
    const Collected<int>& g = r.port->global_traffic_class;
    if (!g.has_value()) continue;
    std::string subject = port_subject(*r.device, *r.port);
    Finding& f = judge_tos(e, s, pol, rails, subject,
                           "global traffic_class of " + subject + " replaces the ToS of every RoCE QP (NCCL_IB_TC, "
                           "UCX_IB_TRAFFIC_CLASS, rdma_cm)",
                           *g, {g.source}, "");
    if (f.outcome == Outcome::fail) {
      std::string path = "/sys/class/infiniband/" + r.device->name + "/tc/" + std::to_string(r.port->port) + "/traffic_class";
      f.remediation.scope = FixScope::runtime;
      f.remediation.commands = {"echo " + std::to_string(want) + " > " + path};
      f.remediation.checks = {"cat " + path};
      f.remediation.notes = "Or write -1 to clear the global class so each application's own ToS applies "
                            "(mlx5_ib traffic_class_store). Lost at driver reload: `rocekit plan` makes it persistent.";
    }
  }
  Override ov = global_override(s, rails);
  // Ports whose global class was not read: an MLNX_OFED override there would replace the stacks'
  // ToS. Said in the stacks' passes, not silently assumed absent.
  std::vector<std::string> unread;
  for (const RailPort& r : rails.ports)
    if (!r.port->global_traffic_class.has_value() && r.port->global_traffic_class.reason_kind != ReasonKind::not_applicable)
      unread.push_back(port_subject(*r.device, *r.port));
  auto caveat = [&](Finding& f) {
    if (f.outcome == Outcome::pass && !ov.tos && !unread.empty())
      f.message += " (the global traffic_class of " + join(unread) +
                   " was not read: an MLNX_OFED override there would replace it)";
  };
  // NCCL: NCCL_IB_TC in force, default 0 (connect.cc NCCL_IB_TC_DEFAULT).
  if (ov.tos) {
    overridden(judge_tos(e, s, pol, rails, "nccl", "NCCL's RoCE QPs carry the global traffic_class of " + join(ov.ports),
                         *ov.tos, ov.evidence, ""), ov);
  } else if (s.nccl_run.has_value() && s.nccl_run->network && *s.nccl_run->network == "Socket") {
    add_evidence(e.unknown("nccl", "the NCCL log shows `Using network Socket`: NCCL sent no RoCE, so NCCL_IB_TC "
                                   "marked nothing (rule app.nccl-transport)"),
                 s.nccl_run->network_source);
  } else if (!s.app_settings.has_value()) {
    e.missing("nccl", "NCCL settings (NCCL_IB_TC)", s.app_settings);
  } else {
    SettingInForce tc = setting_in_force(*s.app_settings, "NCCL_IB_TC");
    if (!tc.ambiguous.empty()) {
      Finding& f = e.unknown("nccl", tc.ambiguous);
      add_evidence(f, tc.setting->source);
    } else if (std::string why = tc.setting ? "" : unproven_absence(s, "NCCL_IB_TC"); !why.empty()) {
      add_evidence(e.unknown("nccl", why), s.app_settings.source);
    } else if (!tc.setting) {
      // From a log's echoes alone: the NET channel line shows NCCL got to where it reads it.
      bool from_log = log_echoes_only(s) && s.nccl_run.has_value();
      Evidence ev = from_log ? s.nccl_run->connected_source : s.app_settings.source;
      Finding& f = judge_tos(e, s, pol, rails, "nccl",
                std::string("NCCL_IB_TC is not set") +
                    (from_log ? " (the NCCL log connects its NET channels without echoing it)" : "") +
                    ", so NCCL marks RoCE with its default",
                0, {ev}, "export NCCL_IB_TC=" + std::to_string(want));
      f.message += conf_caveat(s, "NCCL_IB_TC");
    } else if (std::optional<std::int64_t> n = nccl_int_param(tc.setting->value); !n) {
      judge_tos(e, s, pol, rails, "nccl", "NCCL_IB_TC=" + tc.setting->value + " (" + tc.setting->origin +
                                              ") is empty or out of range, so NCCL keeps its default",
                0, {tc.setting->source}, "export NCCL_IB_TC=" + std::to_string(want));
    } else if (*n >= 0 && *n <= 255) {
      // NCCL reads it with strtoll(value, nullptr, 0): "0x68" is 104, "010" is 8.
      std::string read = std::to_string(*n) == text::trim(tc.setting->value) ? "" : ", which NCCL reads as " + std::to_string(*n);
      Finding& f = judge_tos(e, s, pol, rails, "nccl", "NCCL_IB_TC=" + tc.setting->value + " (" + tc.setting->origin + ")" + read,
                             static_cast<int>(*n), {tc.setting->source}, "export NCCL_IB_TC=" + std::to_string(want));
      caveat(f);
      set_where(f, *tc.setting);
    } else {
      Finding& f = e.fail("nccl", "NCCL_IB_TC=" + tc.setting->value + " is not a ToS byte 0..255");
      add_evidence(f, tc.setting->source);
      f.remediation.commands = {"export NCCL_IB_TC=" + std::to_string(want)};
    }
  }
  // UCX: only when the input shows UCX settings (a job that uses UCX); default 106 on RoCE v2.
  bool ucx = false;
  if (s.app_settings.has_value())
    for (const AppSetting& a : s.app_settings->settings) ucx = ucx || a.name.starts_with("UCX_");
  if (ucx) {
    SettingInForce tc = setting_in_force(*s.app_settings, "UCX_IB_TRAFFIC_CLASS");
    if (ov.tos) {
      overridden(judge_tos(e, s, pol, rails, "ucx", "UCX's RoCE QPs carry the global traffic_class of " + join(ov.ports),
                           *ov.tos, ov.evidence, ""), ov);
    } else if (!tc.ambiguous.empty()) {
      add_evidence(e.unknown("ucx", tc.ambiguous), tc.setting->source);
    } else if (!tc.setting || tc.setting->value == "auto") {
      caveat(judge_tos(e, s, pol, rails, "ucx", "UCX_IB_TRAFFIC_CLASS is auto: UCX marks RoCE v2 with ToS 106 (ib_iface.c)",
                       106, {s.app_settings.source}, "export UCX_IB_TRAFFIC_CLASS=" + std::to_string(want)));
    } else if (std::optional<int> v = tos_value(tc.setting->value)) {
      Finding& f = judge_tos(e, s, pol, rails, "ucx", "UCX_IB_TRAFFIC_CLASS=" + tc.setting->value, *v, {tc.setting->source},
                             "export UCX_IB_TRAFFIC_CLASS=" + std::to_string(want));
      caveat(f);
      set_where(f, *tc.setting);
    } else {
      add_evidence(e.fail("ucx", "UCX_IB_TRAFFIC_CLASS=" + tc.setting->value + " is not a ToS byte 0..255"),
                   tc.setting->source);
    }
  }
  // rdma_cm: the configfs default of each port that shows it.
  if (ov.tos) {
    overridden(judge_tos(e, s, pol, rails, "rdma_cm", "rdma_cm connections carry the global traffic_class of " + join(ov.ports),
                         *ov.tos, ov.evidence, ""), ov);
    return;
  }
  bool any_cm = false;
  for (const RailPort& r : rails.ports) {
    const Collected<int>& t = r.port->default_roce_tos;
    if (!t.has_value()) continue;
    any_cm = true;
    std::string subject = "rdma_cm " + port_subject(*r.device, *r.port);
    if (r.port->global_traffic_class.has_value()) {
      add_evidence(e.not_applicable(subject, "default_roce_tos " + std::to_string(*t) +
                                                 " is replaced by the port's global traffic_class"),
                   t.source);
      continue;
    }
    Finding& f = judge_tos(e, s, pol, rails, subject, "rdma_cm default_roce_tos " + std::to_string(*t), *t, {t.source}, "");
    if (f.outcome == Outcome::fail) {
      std::string path = "/sys/kernel/config/rdma_cm/" + r.device->name + "/ports/" + std::to_string(r.port->port) +
                         "/default_roce_tos";
      f.remediation.scope = FixScope::runtime;
      f.remediation.commands = {"echo " + std::to_string(want) + " > " + path};
      f.remediation.checks = {"cat " + path};
      f.remediation.notes = "cma_roce_tos -d " + r.device->name + " -p " + std::to_string(r.port->port) + " -t " +
                            std::to_string(want) + " (mlnx-tools) does the same. It applies to rdma_cm users "
                            "(not NCCL) and is lost at reboot: `rocekit plan` makes it persistent.";
    }
  }
  if (!any_cm && !rails.ports.empty()) {
    e.missing("rdma_cm", "rdma_cm default_roce_tos", rails.ports.front().port->default_roce_tos);
  } else if (!any_cm) {
    e.unknown("rdma_cm", "rdma_cm default_roce_tos not collected: no RDMA device in the input").needs = {"cma_roce_tos"};
  }
}

}  // namespace

// The other three evaluators are in app_rules_nccl.cpp.
void eval_gid_index(const Snapshot& s, const Policy& pol, Emitter& e);
void eval_nccl_hca(const Snapshot& s, const Policy& pol, Emitter& e);
void eval_nccl_transport(const Snapshot& s, const Policy& pol, Emitter& e);

void add_app_rules(std::vector<RuleInfo>& out) {
  out.push_back({"app.roce-tos", "RoCE leaves the host with the policy's DSCP", Severity::error, "stack or rdma port",
                 "The NIC marks RoCE with the ToS byte the application stack asks for (NCCL_IB_TC, UCX_IB_TRAFFIC_CLASS, "
                 "rdma_cm default_roce_tos), unless MLNX_OFED's global traffic_class replaces it. With the defaults "
                 "NCCL sends DSCP 0: every QoS rule passes while RoCE rides the lossy priority 0.",
                 "§4.2 QoS: the DSCP the switch and the NIC trust must be the DSCP RoCE is sent with; ToS = DSCP << 2 "
                 "| ECN bits, 106 = DSCP 26 + ECT(0) (host-facts §F; domain-audit D2).",
                 eval_roce_tos, k_any_outcome,
                 "NCCL/UCX settings (app_env, nccl_conf, nccl_log), tc/<port>/traffic_class, rdma_cm default_roce_tos"});
  out.push_back({"app.gid-index", "NCCL uses the routable RoCE v2 GID", Severity::error, "rdma port",
                 "The GID index decides RoCE v1 or v2 and IPv4 or IPv6; a configured index that points at a "
                 "link-local or v1 GID, or auto-selection on a port with several GIDs, gives unroutable or "
                 "mismatched connections (NVIDIA/nccl#718, #890).",
                 "§4.2 'use RoCEv2': NCCL_IB_GID_INDEX, else NCCL's own choice (connect.cc ncclIbGetGidIndex: "
                 "NCCL_IB_ADDR_FAMILY AF_INET, NCCL_IB_ROCE_VERSION_NUM 2).",
                 eval_gid_index, k_any_outcome,
                 "GID table (show_gids, sysfs gid_attrs), NCCL settings (NCCL_IB_GID_INDEX, NCCL_IB_ADDR_FAMILY, "
                 "NCCL_IB_ROCE_VERSION_NUM)"});
  out.push_back({"app.nccl-hca", "NCCL_IB_HCA selects exactly the RoCE rails", Severity::error, "host",
                 "Without NCCL_IB_HCA NCCL uses every active RDMA port, storage and management NICs included; a "
                 "list that misses a rail halves a GPU's bandwidth, a prefix such as mlx5_1 also selects mlx5_10.",
                 "§4.3 GPU-NIC affinity: one rail per GPU (NVIDIA/nccl src/misc/utils.cc matchIfList).",
                 eval_nccl_hca, k_any_outcome,
                 "NCCL_IB_HCA (app_env, nccl_conf, nccl_log), RDMA devices, GPU topology (nvidia-smi topo -m, lspci)"});
  out.push_back({"app.nccl-transport", "NCCL runs over RoCE with GPUDirect RDMA", Severity::error, "host",
                 "An NCCL log that says `Using network Socket` runs over TCP; NET channels without /GDRDMA stage "
                 "every transfer through host memory.",
                 "§4.3 GPUDirect RDMA: the seed's `ibv_devinfo | grep peer` shows nothing; the NCCL log shows the "
                 "transport and GDR per channel.",
                 eval_nccl_transport, k_any_outcome, "NCCL_DEBUG=INFO log (nccl_log)"});
}

}  // namespace rk::rules

// NCCL's own choices: app.gid-index, app.nccl-hca, app.nccl-transport (registered in app_rules.cpp).
#include <optional>
#include <set>

#include "rocekit/core/text.hpp"
#include "rocekit/rules/app.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

std::string gid_text(const Gid& g) {
  std::string type = g.type ? (*g.type == GidType::roce_v2 ? "RoCE v2" : *g.type == GidType::roce_v1 ? "RoCE v1" : "IB")
                            : "type not shown";
  std::string addr = g.ipv4 ? *g.ipv4 : g.gid;
  return "index " + std::to_string(g.index) + " (" + type + ", " + addr + (routable_gid(g) ? "" : ", link-local") + ")";
}

const Gid* gid_at(const std::vector<Gid>& gids, int index) {
  for (const Gid& g : gids)
    if (g.index == index) return &g;
  return nullptr;
}

bool port_down(const RdmaPort& p) { return p.state.has_value() && *p.state != PortState::active; }

/// The rails to judge, or nullopt with the host finding emitted: unknown without any RDMA
/// device in the input, not_applicable when none of them is an Ethernet port.
std::optional<Rails> judged_rails(const Snapshot& s, const Policy& pol, Emitter& e) {
  if (s.rdma_devices.empty()) {
    e.unknown("host", "no RDMA device in the input (ibv_devinfo, show_gids, rdma link)").needs = {"show_gids"};
    return std::nullopt;
  }
  Rails rails = roce_rails(s, pol);
  if (rails.ports.empty()) {
    e.not_applicable("host", "no Ethernet RDMA port");
    return std::nullopt;
  }
  return rails;
}

}  // namespace

void eval_gid_index(const Snapshot& s, const Policy& pol, Emitter& e) {
  std::optional<Rails> judged = judged_rails(s, pol, e);
  if (!judged) return;
  const Rails& rails = *judged;
  for (const RailPort& r : rails.ports) {
    std::string subject = port_subject(*r.device, *r.port);
    if (port_down(*r.port)) {
      e.not_applicable(subject, "port is not ACTIVE: NCCL does not use it (net_ib/init.cc)");
      continue;
    }
    if (!r.port->gids.has_value()) {
      e.missing(subject, "GID table", r.port->gids);
      continue;
    }
    const std::vector<Gid>& gids = *r.port->gids;
    const Gid* want4 = routable_v2_gid(gids, true);
    const Gid* want6 = routable_v2_gid(gids, false);
    if (!s.app_settings.has_value()) {
      std::optional<int> a = nccl_auto_gid_index(gids, true, 2);
      Finding& f = e.missing(subject, "NCCL settings (NCCL_IB_GID_INDEX)", s.app_settings);
      if (a) f.message += "; with NCCL's defaults it would pick GID index " + std::to_string(*a);
      continue;
    }
    const AppSettings& app = *s.app_settings;
    SettingInForce idx = setting_in_force(app, "NCCL_IB_GID_INDEX");
    SettingInForce fam = setting_in_force(app, "NCCL_IB_ADDR_FAMILY");
    SettingInForce ver = setting_in_force(app, "NCCL_IB_ROCE_VERSION_NUM");
    const SettingInForce* unclear = nullptr;
    for (const SettingInForce* x : {&idx, &fam, &ver})
      if (!unclear && !x->ambiguous.empty()) unclear = x;
    if (unclear) {
      add_evidence(e.unknown(subject, unclear->ambiguous), unclear->setting->source);
      continue;
    }
    if (std::string why = idx.setting ? "" : unproven_absence(s, "NCCL_IB_GID_INDEX"); !why.empty()) {
      add_evidence(e.unknown(subject, why), s.app_settings.source);
      continue;
    }
    {
      bool ipv4 = !(fam.setting && fam.setting->value == "AF_INET6");
      // Integers as ncclLoadParam reads them; NCCL_IB_GID_INDEX -1 (its default) auto-selects.
      std::optional<std::int64_t> vn = ver.setting ? nccl_int_param(ver.setting->value) : std::nullopt;
      int version = vn ? static_cast<int>(*vn) : 2;
      const Gid* want = ipv4 ? want4 : want6;
      std::optional<std::int64_t> set = idx.setting ? nccl_int_param(idx.setting->value) : std::nullopt;
      if (set && *set < 0) set.reset();
      std::string how;
      std::optional<int> chosen;
      if (set) {
        chosen = static_cast<int>(*set);
        how = "NCCL_IB_GID_INDEX=" + idx.setting->value + " (" + idx.setting->origin + ")";
      } else {
        chosen = nccl_auto_gid_index(gids, ipv4, version);
        how = std::string("NCCL's auto-selection (NCCL_IB_GID_INDEX unset, ") + (ipv4 ? "AF_INET" : "AF_INET6") +
              ", RoCE v" + std::to_string(version) + ")";
      }
      const Gid* g = chosen ? gid_at(gids, *chosen) : nullptr;
      std::vector<Evidence> ev{r.port->gids.source};
      if (idx.setting) ev.push_back(idx.setting->source);
      std::string caveat = idx.setting ? "" : conf_caveat(s, "NCCL_IB_GID_INDEX");
      if (g && want && g->index == want->index) {
        Finding& f = e.pass(subject, how + " uses GID " + gid_text(*g) + ", the routable RoCE v2 " +
                                         (ipv4 ? "IPv4" : "IPv6") + " GID");
        f.message += caveat;
        for (const Evidence& x : ev) add_evidence(f, x);
        continue;
      }
      if (g && g->type == GidType::roce_v2 && routable_gid(*g) && !want) {
        Finding& f = e.pass(subject, how + " uses GID " + gid_text(*g) + ", a routable RoCE v2 GID");
        f.message += caveat;
        for (const Evidence& x : ev) add_evidence(f, x);
        continue;
      }
      std::string got = g ? "GID " + gid_text(*g) : "GID index " + (chosen ? std::to_string(*chosen) : std::string("?")) +
                                                       ", which this port's table does not hold";
      Finding& f = e.fail(subject, how + " uses " + got + "; " +
                                       (want ? "the routable RoCE v2 GID is " + gid_text(*want)
                                             : std::string("the port has no routable RoCE v2 ") + (ipv4 ? "IPv4" : "IPv6") + " GID"));
      f.message += caveat;
      for (const Evidence& x : ev) add_evidence(f, x);
      f.remediation.scope = FixScope::persistent;
      if (want) {
        std::optional<int> a = nccl_auto_gid_index(gids, ipv4, 2);
        f.remediation.commands = {a && *a == want->index ? "unset NCCL_IB_GID_INDEX"
                                                         : "export NCCL_IB_GID_INDEX=" + std::to_string(want->index)};
        f.remediation.notes = a && *a == want->index
                                  ? "NCCL's auto-selection picks index " + std::to_string(*a) + " on this port."
                                  : "The index must be the same on every port NCCL uses; `rocekit plan -f nccl` checks that.";
      } else {
        f.remediation.notes = "Give " + r.port->netdev.value_or("the port's netdev") + " an IP address: the driver "
                              "then adds its RoCE v2 GID (rule roce.v2-gid).";
      }
    }
  }
}

void eval_nccl_hca(const Snapshot& s, const Policy& pol, Emitter& e) {
  std::optional<Rails> judged = judged_rails(s, pol, e);
  if (!judged) return;
  const Rails& rails = *judged;
  if (!s.app_settings.has_value()) {
    e.missing("host", "NCCL settings (NCCL_IB_HCA)", s.app_settings);
    return;
  }
  SettingInForce hca = setting_in_force(*s.app_settings, "NCCL_IB_HCA");
  if (!hca.ambiguous.empty()) {
    add_evidence(e.unknown("host", hca.ambiguous), hca.setting->source);
    return;
  }
  // Only a log's echoes: NCCL prints "NCCL_IB_HCA set to" before its "NET/IB : Using" line
  // (net_ib/init.cc), so without that line the log does not show the variable unset.
  if (!hca.setting && log_echoes_only(s) && (!s.nccl_run.has_value() || s.nccl_run->hcas.empty())) {
    add_evidence(e.unknown("host", "the NCCL log does not echo NCCL_IB_HCA, but it ends before NCCL lists its "
                                   "devices (`NET/IB : Using`): capture the job's environment (app_env.txt)"),
                 s.app_settings.source);
    return;
  }
  std::set<std::pair<std::string, int>> rail_set;
  std::vector<std::string> rail_names;
  for (const RailPort& r : rails.ports) {
    rail_set.insert({r.device->name, r.port->port});
    rail_names.push_back(hca_entry(*r.device, *r.port));
  }
  HcaFilter f = hca.setting ? parse_hca_filter(hca.setting->value) : HcaFilter{};
  std::vector<std::string> extra, missing, unknown_entries, dups;
  for (const RdmaDevice& d : s.rdma_devices)
    for (const RdmaPort& p : d.ports) {
      if (port_down(p) || !hca_selected(f, d.name, p.port)) continue;
      if (rail_set.count({d.name, p.port})) continue;
      std::string name = hca_entry(d, p), why = name;
      for (const std::string& x : rails.excluded)
        if (x.starts_with(name + " (")) why = x;  // "mlx5_10 (no GPU's data path uses it)"
      extra.push_back(why);
    }
  for (const RailPort& r : rails.ports)
    if (!port_down(*r.port) && !hca_selected(f, r.device->name, r.port->port))
      missing.push_back(hca_entry(*r.device, *r.port));
  std::set<std::string> seen;
  for (const HcaFilter::Entry& en : f.entries) {
    std::string key = en.prefix + (en.port ? ":" + std::to_string(*en.port) : "");
    if (!seen.insert(key).second) dups.push_back(key);
    bool any = false;
    for (const RdmaDevice& d : s.rdma_devices) any = any || (f.exact ? d.name == en.prefix : d.name.starts_with(en.prefix));
    if (!any) unknown_entries.push_back(key);
  }
  std::string what = hca.setting ? "NCCL_IB_HCA=" + hca.setting->value + " (" + hca.setting->origin + ")"
                                 : "NCCL_IB_HCA is not set (NCCL uses every active RDMA port)";
  std::string note = dups.empty() ? "" : "; listed twice: " + join(dups);
  std::vector<Evidence> ev;
  if (hca.setting) ev.push_back(hca.setting->source);
  if (extra.empty() && missing.empty()) {
    // Names this host lacks are skipped by NCCL: harmless once every rail is selected (a job
    // script shared by hosts with more NICs), said so a typo is still seen.
    if (!unknown_entries.empty())
      note += "; names " + join(unknown_entries) + ", which this host does not have (NCCL skips them)";
    Finding& fd = e.pass("host", what + " selects the " + std::to_string(rail_names.size()) + " RoCE rails (" +
                                     join(rail_names) + "; rails: " + rails.how + ")" + note);
    for (const Evidence& x : ev) add_evidence(fd, x);
    return;
  }
  std::vector<std::string> parts;
  if (!missing.empty()) parts.push_back("leaves out the rails " + join(missing));
  if (!extra.empty()) parts.push_back("also selects " + join(extra));
  if (!unknown_entries.empty())
    parts.push_back("names " + join(unknown_entries) + ", which this host does not have (a typo of a rail?)");
  Finding& fd = e.fail("host", what + " " + join(parts, "; ") + note + " (rails: " + rails.how + ")");
  for (const Evidence& x : ev) add_evidence(fd, x);
  fd.remediation.scope = FixScope::persistent;
  fd.remediation.commands = {"export NCCL_IB_HCA==" + join(rail_names, ",")};
  fd.remediation.notes = "The leading '=' makes NCCL match whole names (mlx5_1 would also select mlx5_10). "
                         "`rocekit plan -f nccl` writes the host's nccl.conf with it.";
}

void eval_nccl_transport(const Snapshot& s, const Policy&, Emitter& e) {
  if (!s.nccl_run.has_value()) {
    e.missing("host", "NCCL run", s.nccl_run);
    return;
  }
  const NcclRun& r = *s.nccl_run;
  bool roce = false, ib = false;
  for (const NcclHca& h : r.hcas) {
    if (h.link_layer && h.link_layer->starts_with("RoCE")) roce = true;
    if (h.link_layer && h.link_layer->starts_with("IB")) ib = true;
  }
  if (r.network && *r.network == "Socket") {
    Finding& f = e.fail("host", "NCCL ran over TCP sockets (`Using network Socket`): no RDMA, a fraction of the "
                                "fabric's bandwidth");
    add_evidence(f, r.network_source);
    f.remediation.checks = {"ibv_devinfo", "env | grep -E '^NCCL_(IB_DISABLE|IB_HCA|NET)='"};
    f.remediation.notes = "NCCL falls back to sockets when no RDMA device is usable: NCCL_IB_DISABLE=1, an "
                          "NCCL_IB_HCA that matches no active port, or no libibverbs/RDMA devices in the container.";
    return;
  }
  if (ib && !roce) {
    add_evidence(e.not_applicable("host", "NCCL uses InfiniBand HCAs (" + r.hcas.front().rdma_device + "/" +
                                              r.hcas.front().link_layer.value_or("") + "), not RoCE"),
                 r.hcas_source);
    return;
  }
  if (!roce) {
    e.unknown("host", "the NCCL log shows neither `Using network` nor the `NET/IB : Using` devices: it was cut "
                      "before NCCL chose its network").needs = {"nccl_log"};
    return;
  }
  std::string devs;
  for (const NcclHca& h : r.hcas) devs += (devs.empty() ? "" : ", ") + h.rdma_device + (h.port ? ":" + std::to_string(*h.port) : "");
  if (r.net_channels > 0 && r.gdrdma_channels == 0) {
    Finding& f = e.fail("host", "NCCL runs over RoCE (" + devs + ") but none of its " + std::to_string(r.net_channels) +
                                    " NET channels uses GPUDirect RDMA (no /GDRDMA): every transfer is staged "
                                    "through host memory");
    add_evidence(f, r.hcas_source);
    add_evidence(f, r.channel_source);
    f.remediation.notes = "See gpudirect.peer-memory (DMA-BUF or nvidia-peermem) and gpudirect.gpu-nic-affinity: "
                          "NCCL refuses GDR when the GPU-NIC path is farther than NCCL_NET_GDR_LEVEL (default PXB).";
    return;
  }
  std::string gdr = r.net_channels > 0 ? ", " + std::to_string(r.gdrdma_channels) + " of " + std::to_string(r.net_channels) +
                                              " NET channels with GPUDirect RDMA"
                                        : " (the log shows no NET channel line, so GPUDirect RDMA is not shown)";
  Finding& f = e.pass("host", "NCCL runs over RoCE (" + devs + ")" + gdr);
  add_evidence(f, r.hcas_source);
  if (r.net_channels > 0) add_evidence(f, r.channel_source);
}

}  // namespace rk::rules

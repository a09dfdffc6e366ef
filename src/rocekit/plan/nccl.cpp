#include "rocekit/plan/nccl.hpp"

#include <map>
#include <set>

#include "rocekit/core/shell.hpp"
#include "rocekit/policy/scope.hpp"
#include "rocekit/rules/app.hpp"
#include "rocekit/rules/helpers.hpp"

namespace rk::plan {

NcclConf make_nccl_conf(const Snapshot& s, const Policy& pol) {
  NcclConf c;
  rules::Rails rails = rules::roce_rails(s, pol);
  c.notes.push_back("NCCL settings for " + (s.hostname.empty() ? std::string("this host") : s.hostname) +
                    ", written by `rocekit plan -f nccl` (policy " + pol.name + ": RoCE DSCP " +
                    std::to_string(pol.roce_dscp) + " on priority " + std::to_string(pol.roce_priority) + ").");
  c.notes.push_back("NCCL reads /etc/nccl.conf after the job's environment and ~/.nccl.conf, and sets only "
                    "what is still unset (NVIDIA/nccl src/misc/param.cc).");
  // The rails: NCCL_IB_HCA with '=' so that mlx5_1 does not also select mlx5_10.
  std::vector<std::string> hcas;
  for (const rules::RailPort& r : rails.ports) hcas.push_back(rules::hca_entry(*r.device, *r.port));
  if (hcas.empty()) {
    c.settings.push_back({"NCCL_IB_HCA", "", "left out: no Ethernet RDMA port in the snapshot"});
  } else {
    c.settings.push_back({"NCCL_IB_HCA", "=" + rules::join(hcas, ","),
                          std::to_string(hcas.size()) + " RoCE rails: " + rails.how +
                              (rails.excluded.empty() ? "" : "; left out: " + rules::join(rails.excluded))});
  }
  // The ToS byte: the policy's DSCP with ECT(0). A global traffic_class on the ports replaces it.
  int tos = rules::policy_roce_tos(pol);
  std::string override_note;
  for (const rules::RailPort& r : rails.ports)
    if (r.port->global_traffic_class.has_value() && (*r.port->global_traffic_class >> 2) != pol.roce_dscp)
      override_note += (override_note.empty() ? "" : ", ") + rules::port_subject(*r.device, *r.port) + " (" +
                       std::to_string(*r.port->global_traffic_class) + ")";
  c.settings.push_back({"NCCL_IB_TC", std::to_string(tos),
                        rules::tos_text(tos) + ": the policy's RoCE DSCP" +
                            (override_note.empty() ? ""
                                                   : "; the global traffic_class of " + override_note +
                                                         " replaces it until that is fixed (rule app.roce-tos)")});
  // The GID index: the routable RoCE v2 IPv4 GID, when it has the same index on every rail.
  std::map<int, std::vector<std::string>> by_index;
  std::vector<std::string> unknown, none;
  for (const rules::RailPort& r : rails.ports) {
    std::string name = rules::hca_entry(*r.device, *r.port);
    if (!r.port->gids.has_value()) {
      unknown.push_back(name);
      continue;
    }
    if (const Gid* g = rules::routable_v2_gid(*r.port->gids, true)) by_index[g->index].push_back(name);
    else none.push_back(name);
  }
  if (rails.ports.empty()) {
    c.settings.push_back({"NCCL_IB_GID_INDEX", "", "left out: no rail"});
  } else if (!unknown.empty()) {
    c.settings.push_back({"NCCL_IB_GID_INDEX", "", "left out: the GID table of " + rules::join(unknown) +
                                                       " is not in the snapshot (show_gids)"});
  } else if (!none.empty()) {
    c.settings.push_back({"NCCL_IB_GID_INDEX", "", "left out: " + rules::join(none) +
                                                       " has no routable RoCE v2 IPv4 GID (give its netdev an IPv4 address)"});
  } else if (by_index.size() > 1) {
    std::string per;
    for (const auto& [i, ports] : by_index) per += (per.empty() ? "" : "; ") + std::to_string(i) + " on " + rules::join(ports);
    c.settings.push_back({"NCCL_IB_GID_INDEX", "", "left out: the routable RoCE v2 IPv4 GID has a different index per "
                                                   "rail (" + per + "); NCCL_IB_GID_INDEX is one value for all, so "
                                                   "NCCL's auto-selection (NCCL_IB_ADDR_FAMILY=AF_INET, "
                                                   "NCCL_IB_ROCE_VERSION_NUM=2) is left to pick per port"});
  } else {
    int i = by_index.begin()->first;
    c.settings.push_back({"NCCL_IB_GID_INDEX", std::to_string(i),
                          "the routable RoCE v2 IPv4 GID on every rail (show_gids)"});
  }
  // The bootstrap interface: the management-role netdev of the policy, when exactly one matches.
  std::vector<std::string> mgmt;
  for (const NetDev& n : s.netdevs)
    if (const InterfaceRoleRule* r = interface_role(pol, n); r && r->role == InterfaceRole::management) mgmt.push_back(n.name);
  if (mgmt.size() == 1) {
    c.settings.push_back({"NCCL_SOCKET_IFNAME", "=" + mgmt.front(),
                          "the policy's management interface carries NCCL's bootstrap (TCP) traffic"});
  } else {
    c.settings.push_back({"NCCL_SOCKET_IFNAME", "",
                          mgmt.empty() ? "left out: the interface for NCCL's bootstrap traffic (usually the front-end "
                                         "network) is not named: give it a management role in the policy's interfaces:"
                                       : "left out: several management interfaces (" + rules::join(mgmt) + ")"});
  }
  for (const NcclSetting& x : c.settings) c.any = c.any || !x.value.empty();
  return c;
}

namespace {
std::string render(const NcclConf& c, bool env) {
  std::string out;
  for (const std::string& n : c.notes) out += "# " + n + "\n";
  for (const NcclSetting& x : c.settings) {
    out += "# " + x.why + "\n";
    if (x.value.empty()) continue;
    out += env ? "export " + x.name + "=" + text::shell_quote(x.value) + "\n" : x.name + "=" + x.value + "\n";
  }
  return out;
}
}  // namespace

std::string render_nccl_conf(const NcclConf& c) { return render(c, false); }
std::string render_nccl_env(const NcclConf& c) { return render(c, true); }

}  // namespace rk::plan

// Per-outcome cases of the RoCE, link and netdev MTU host rules (rules/roce_rules.cpp) on
// hand-built snapshots: RDMA device mlx5_0 port 1, netdev eth4.
#include "host_cases.hpp"

namespace rk::testcases {
namespace {

struct PortSpec {
  std::optional<PortState> state = PortState::active;
  std::optional<LinkLayer> link_layer = LinkLayer::ethernet;
  std::vector<Gid> gids{Gid{3, "0000:0000:0000:0000:0000:ffff:0a00:0001", "10.0.0.1", GidType::roce_v2, "eth4"}};
  bool gids_collected = true;
  std::optional<int> active_mtu = 4096;
  const char* cm_mode = "RoCE v2";
};

Snapshot port(PortSpec spec) {
  Snapshot s;
  RdmaDevice& d = s.rdma("mlx5_0");
  RdmaPort p;
  p.port = 1;
  if (spec.state) p.state.value = *spec.state;
  else p.state.reason = "no ibv_devinfo in the input";
  p.link_layer = spec.link_layer;
  p.netdev = std::string(spec.link_layer == LinkLayer::infiniband ? "ib0" : "eth4");
  if (spec.gids_collected) p.gids.value = spec.gids;
  else p.gids.reason = "no show_gids in the input";
  p.active_mtu_bytes = spec.active_mtu;
  p.max_mtu_bytes = 4096;
  if (spec.cm_mode) p.default_roce_mode.value = spec.cm_mode;
  else p.default_roce_mode.reason = "no cma_roce_mode in the input";
  d.ports.push_back(p);
  return s;
}

Snapshot netdev_mtu(std::optional<int> mtu, const std::string& name = "eth4") {
  Snapshot s;
  NetDev& n = s.netdev(name);
  if (mtu) n.mtu_bytes.value = *mtu;
  else n.mtu_bytes.reason = "no ip link in the input";
  return s;
}

const std::string k_port = "mlx5_0/1";
PortSpec ib() {
  PortSpec p;
  p.link_layer = LinkLayer::infiniband;
  return p;
}
PortSpec down() {
  PortSpec p;
  p.state = PortState::down;
  p.gids.clear();
  return p;
}

/// The default policy with the management role on `netdev` (a pattern) or `rdma_device`.
Policy management(std::vector<std::string> netdev, std::vector<std::string> rdma_device = {}) {
  Policy pol = default_policy();
  InterfaceRoleRule r;
  r.role = InterfaceRole::management;
  r.netdev = std::move(netdev);
  r.rdma_device = std::move(rdma_device);
  pol.interfaces.push_back(r);
  return pol;
}

const Cases k_cases{
    host_case("link.port-active", Outcome::pass, k_port, "port is ACTIVE (eth4)", [] { return port({}); }),
    host_case("link.port-active", Outcome::fail, k_port, "port is DOWN", [] { return port(down()); }),
    host_case("link.port-active", Outcome::unknown, k_port, "port state not collected: no ibv_devinfo",
              [] { PortSpec p; p.state.reset(); return port(p); }),
    // A management port is never judged (policy interfaces:), as fleet and the netdev rules
    // leave it out: a down one gets no fix line.
    host_case("link.port-active", Outcome::not_applicable, k_port,
              "policy interface role management: never judged or changed (eth4)", [] { return port(down()); },
              management({"eth*"})),
    host_case("link.port-active", Outcome::not_applicable, k_port,
              "policy interface role management: never judged or changed (eth4)", [] { return port(down()); },
              management({}, {"mlx5_0"})),
    host_case("roce.enabled", Outcome::pass, k_port, "RoCE GIDs present", [] { return port({}); }),
    host_case("roce.enabled", Outcome::fail, k_port, "no RoCE GID in the port's GID table",
              [] { PortSpec p; p.gids.clear(); return port(p); }),
    host_case("roce.enabled", Outcome::unknown, k_port, "GID table not collected: no show_gids",
              [] { PortSpec p; p.gids_collected = false; return port(p); }),
    host_case("roce.enabled", Outcome::not_applicable, k_port, "InfiniBand port", [] { return port(ib()); }),
    host_case("roce.enabled", Outcome::not_applicable, k_port,
              "policy interface role management: never judged or changed (eth4)", [] { return port({}); },
              management({"eth4"})),
    host_case("roce.v2-gid", Outcome::pass, k_port, "routable RoCE v2 GID at index 3", [] { return port({}); }),
    host_case("roce.v2-gid", Outcome::fail, k_port, "",
              [] {
                PortSpec p;
                p.gids = {Gid{0, "fe80:0000:0000:0000:0202:c9ff:fe00:0001", std::nullopt, GidType::roce_v2, "eth4"},
                          Gid{1, "0000:0000:0000:0000:0000:ffff:0a00:0001", "10.0.0.1", GidType::roce_v1, "eth4"}};
                return port(p);
              }),
    host_case("roce.v2-gid", Outcome::unknown, k_port, "GID table not collected",
              [] { PortSpec p; p.gids_collected = false; return port(p); }),
    host_case("roce.v2-gid", Outcome::not_applicable, k_port, "a down port has no routable GID",
              [] { return port(down()); }),
    host_case("roce.cm-default-v2", Outcome::pass, k_port, "rdma_cm default_roce_mode is RoCE v2",
              [] { return port({}); }),
    host_case("roce.cm-default-v2", Outcome::fail, k_port, "rdma_cm default_roce_mode is IB/RoCE v1",
              [] { PortSpec p; p.cm_mode = "IB/RoCE v1"; return port(p); }),
    host_case("roce.cm-default-v2", Outcome::unknown, k_port, "rdma_cm default RoCE mode not collected",
              [] { PortSpec p; p.cm_mode = nullptr; return port(p); }),
    host_case("roce.cm-default-v2", Outcome::not_applicable, k_port, "InfiniBand port", [] { return port(ib()); }),
    host_case("roce.active-mtu", Outcome::pass, k_port, "active_mtu 4096", [] { return port({}); }),
    host_case("roce.active-mtu", Outcome::fail, k_port, "1024",
              [] { PortSpec p; p.active_mtu = 1024; return port(p); }),
    host_case("roce.active-mtu", Outcome::unknown, k_port, "active_mtu not collected",
              [] { PortSpec p; p.active_mtu.reset(); return port(p); }),
    host_case("roce.active-mtu", Outcome::not_applicable, k_port,
              "policy interface role management: never judged or changed (eth4)",
              [] { PortSpec p; p.active_mtu = 1024; return port(p); }, management({"eth4"})),
    host_case("roce.active-mtu", Outcome::not_applicable, k_port, "port is DOWN; active_mtu is judged on active ports",
              [] { return port(down()); }),
    host_case("net.mtu", Outcome::pass, "eth4", "MTU 9000", [] { return netdev_mtu(9000); }),
    host_case("net.mtu", Outcome::fail, "eth4", "MTU 1500 is below 4200", [] { return netdev_mtu(1500); }),
    host_case("net.mtu", Outcome::unknown, "eth4", "netdev MTU not collected: no ip link",
              [] { return netdev_mtu(std::nullopt); }),
    host_case("net.mtu", Outcome::not_applicable, "ib0", "IPoIB netdev", [] { return netdev_mtu(2044, "ib0"); }),
};

}  // namespace
}  // namespace rk::testcases

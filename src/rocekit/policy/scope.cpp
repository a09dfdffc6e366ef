#include "rocekit/policy/scope.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "rocekit/model/bluefield.hpp"

namespace rk {

namespace {

bool any_match(const std::vector<std::string>& patterns, const std::string& value) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return ::fnmatch(p.c_str(), value.c_str(), 0) == 0; });
}

bool is_ipoib_name(std::string_view name) {
  if (name.size() < 3 || !name.starts_with("ib")) return false;
  return std::all_of(name.begin() + 2, name.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

}  // namespace

const InterfaceRoleRule* interface_role(const Policy& pol, const NetDev& n) {
  for (const InterfaceRoleRule& r : pol.interfaces) {
    if (any_match(r.netdev, n.name)) return &r;
    if (n.bdf && any_match(r.pci, *n.bdf)) return &r;
    if (n.rdma_device && any_match(r.rdma_device, *n.rdma_device)) return &r;
  }
  return nullptr;
}

std::optional<std::string> management_role_why(const Policy& pol, const NetDev& n) {
  const InterfaceRoleRule* role = interface_role(pol, n);
  if (role && role->role == InterfaceRole::management)
    return "policy interface role management: never judged or changed";
  return std::nullopt;
}

NetdevScope roce_netdev_scope(const Snapshot& s, const NetDev& n, const Policy& pol) {
  if (std::optional<std::string> why = management_role_why(pol, n)) return {false, false, *why};
  const InterfaceRoleRule* role = interface_role(pol, n);
  if (std::find(pol.named_netdevs.begin(), pol.named_netdevs.end(), n.name) != pol.named_netdevs.end())
    return {true, true, "named with --netdev"};
  if (role) return {true, false, "policy interface role " + std::string(to_string(role->role))};
  // A representor (devlink flavour pcipf/pcivf/pcisf, driver mlx5e_rep) stands for another
  // function on the embedded switch: the RoCE settings are those of that function and of the
  // uplink. A name alone (pf0hpf) does not decide: it may be a renamed netdev.
  if (std::optional<Representor> rep = representor_of(s, n); rep && !rep->by_name_only)
    return {false, false,
            "representor of " + rep->of + " (" + rep->why + "): RoCE settings apply to the function it "
            "represents and to the uplink" + (rep->uplink ? " " + *rep->uplink : std::string()) +
            ", not to the representor"};
  const RdmaPort* port = nullptr;
  const RdmaDevice* dev = nullptr;
  for (const RdmaDevice& d : s.rdma_devices)
    for (const RdmaPort& p : d.ports)
      if (p.netdev == n.name) {
        port = &p;
        dev = &d;
      }
  if (port && port->link_layer == LinkLayer::infiniband)
    return {false, false, "InfiniBand port (IPoIB netdev): RoCE settings do not apply"};
  // No link layer shown (ibdev2netdev names the port but not its link layer): an ib<N> name
  // is IPoIB, as before the scope rules (rules/helpers.cpp is_infiniband_netdev).
  if ((!port || !port->link_layer) && is_ipoib_name(n.name))
    return {false, false, "IPoIB netdev (ib<N>): RoCE settings do not apply"};
  if (port) return {true, false, "RDMA device " + dev->name + " port " + std::to_string(port->port)};
  if (n.rdma_device) return {true, false, "RDMA device " + *n.rdma_device};
  std::optional<std::string> driver;
  if (n.driver.has_value() && n.driver->driver) driver = *n.driver->driver;
  if (driver && *driver == "mlx5_core") return {true, false, "driver mlx5_core"};
  if (n.bdf)
    for (const PciFunction& f : s.pci_functions)
      if (f.bdf == *n.bdf && f.vendor_id && *f.vendor_id == 0x15b3)
        return {true, false, "NVIDIA/Mellanox PCI function " + f.bdf};
  // mlnx_qos (and the system-check report built on it) only reads mlx4/mlx5 netdevs.
  if (n.qos.has_value() && (n.qos.source.file.find("mlnx_qos") != std::string::npos ||
                            n.qos->trust_source.file.find("mlnx_qos") != std::string::npos ||
                            n.qos.source.file.find("system_checks") != std::string::npos))
    return {true, false, "QoS state read by mlnx_qos"};
  // /sys/class/net/<if>/ecn/roce_{rp,np} exists only on mlx5 netdevs (en/ecn sysfs).
  if (n.ecn.has_value()) return {true, false, "mlx5 ECN sysfs (roce_rp/roce_np) present"};
  // A capture without any RDMA device list (no ibdev2netdev, ibv_devinfo, sysfs) cannot show
  // that a netdev has no RDMA port: judge it, and say why, unless its driver is known.
  bool rdma_known = s.source.kind == SourceKind::live || !s.rdma_devices.empty() ||
                    std::any_of(s.netdevs.begin(), s.netdevs.end(), [](const NetDev& x) { return x.rdma_device.has_value(); });
  if (!rdma_known && !driver)
    return {true, false, "the input lists no RDMA devices: judged as a RoCE netdev"};
  return {false, false,
          "not backed by an RDMA port" + (driver ? " (driver " + *driver + ")" : std::string()) +
              ": RoCE settings do not apply (name it with --netdev, or give it a compute role in "
              "the policy's interfaces:, to include it)"};
}

}  // namespace rk

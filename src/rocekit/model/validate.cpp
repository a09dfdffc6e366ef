#include "rocekit/model/validate.hpp"

#include <map>
#include <type_traits>

namespace rk {
namespace {

std::string at(const std::string& base, std::size_t i) { return base + "/" + std::to_string(i); }

/// Walks the snapshot and keeps the first problem ("<pointer>: <what>").
class Checker {
 public:
  std::optional<std::string> first;

  void fail(const std::string& pointer, const std::string& what) {
    if (!first) first = pointer + ": " + what;
  }

  /// `key` of `element` (its field `field`, `label` in the message) must be the only one of
  /// `seen`.
  void unique(std::map<std::string, std::string>& seen, const std::string& key,
              const std::string& label, const std::string& element, const char* field) {
    auto [it, fresh] = seen.emplace(key, element);
    if (!fresh) fail(element + "/" + field, label + " appears twice (also " + it->second + ")");
  }

  void port_number(const std::optional<int>& v, const std::string& pointer) {
    if (v && *v < 1) fail(pointer, std::to_string(*v) + " is not a port number (1 or more)");
  }

  /// An 8-entry vector, one entry per priority 0..7; non-bool entries are in 0..7 (`what`).
  template <class T>
  void per_priority(const std::optional<std::vector<T>>& v, const std::string& pointer,
                    const char* what) {
    if (!v) return;
    if (v->size() != 8)
      fail(pointer, std::to_string(v->size()) + " entries, not 8 (one per priority 0..7)");
    if constexpr (!std::is_same_v<T, bool>) {
      for (std::size_t i = 0; i < v->size(); ++i)
        if ((*v)[i] < 0 || (*v)[i] > 7)
          fail(at(pointer, i), std::to_string((*v)[i]) + " is not " + what + " (0..7)");
    }
  }

  void qos(const QosState& q, const std::string& p) {
    for (const auto& [dscp, prio] : q.dscp_to_priority) {
      if (dscp < 0 || dscp > 63)
        fail(p + "/dscp_to_priority", std::to_string(dscp) + " is not a DSCP (0..63)");
      if (prio < 0 || prio > 7)
        fail(p + "/dscp_to_priority", "DSCP " + std::to_string(dscp) + " maps to " +
                                          std::to_string(prio) + ", not a priority (0..7)");
    }
    per_priority(q.pfc_enabled, p + "/pfc_enabled", "");
    per_priority(q.priority_to_tc, p + "/priority_to_tc", "a traffic class");
    per_priority(q.priority_to_buffer, p + "/priority_to_buffer", "a receive buffer");
    for (std::size_t i = 0; i < q.tc_schedule.size(); ++i) {
      const TcSchedule& t = q.tc_schedule[i];
      if (t.tc < 0 || t.tc > 7) fail(at(p + "/tc_schedule", i), std::to_string(t.tc) + " is not a traffic class (0..7)");
      if (t.bandwidth_percent && (*t.bandwidth_percent < 0 || *t.bandwidth_percent > 100))
        fail(at(p + "/tc_schedule", i), std::to_string(*t.bandwidth_percent) + "% is not an ETS share (0..100)");
    }
    if (q.cable_length_m && (*q.cable_length_m < 0 || *q.cable_length_m > 0xffff))
      fail(p + "/cable_length_m", std::to_string(*q.cable_length_m) + " is not a cable length in metres");
    if (q.receive_buffer_bytes && q.receive_buffer_bytes->size() != 8)
      fail(p + "/receive_buffer_bytes", "has " + std::to_string(q.receive_buffer_bytes->size()) +
                                            " entries, not 8 (one per receive buffer)");
  }

  void ecn(const std::map<int, bool>& m, const std::string& pointer) {
    for (const auto& [prio, on] : m)
      if (prio < 0 || prio > 7) fail(pointer, std::to_string(prio) + " is not a priority (0..7)");
  }

  void netdev(const NetDev& n, const std::string& p) {
    port_number(n.rdma_port, p + "/rdma_port");
    if (n.mtu_bytes.value && !is_netdev_mtu(*n.mtu_bytes.value))
      fail(p + "/mtu_bytes/value", std::to_string(*n.mtu_bytes.value) + " is not an MTU (" +
                                       std::to_string(k_min_mtu_bytes) + ".." +
                                       std::to_string(k_max_mtu_bytes) + ")");
    if (n.qos.value) qos(*n.qos.value, p + "/qos/value");
    if (n.ecn.value) {
      ecn(n.ecn.value->rp_enabled, p + "/ecn/value/rp_enabled");
      ecn(n.ecn.value->np_enabled, p + "/ecn/value/np_enabled");
    }
  }

  void rdma_device(const RdmaDevice& d, const std::string& p) {
    std::map<std::string, std::string> ports;
    for (std::size_t i = 0; i < d.ports.size(); ++i) {
      const std::string pp = at(p + "/ports", i);
      port_number(d.ports[i].port, pp + "/port");
      const std::string n = std::to_string(d.ports[i].port);
      unique(ports, n, "port " + n, pp, "port");
    }
  }

  void pci_function(const PciFunction& f, const std::string& p) {
    if (f.max_read_request_bytes.value && !is_max_read_request(*f.max_read_request_bytes.value))
      fail(p + "/max_read_request_bytes/value",
           std::to_string(*f.max_read_request_bytes.value) +
               " is not a MaxReadReq (a power of two, 128..4096)");
  }
};

}  // namespace

std::optional<std::string> validate_snapshot(const Snapshot& s) {
  Checker c;
  std::map<std::string, std::string> netdevs;
  for (std::size_t i = 0; i < s.netdevs.size(); ++i) {
    const std::string p = at("/netdevs", i);
    const std::string& name = s.netdevs[i].name;
    c.unique(netdevs, name, "netdev \"" + name + "\"", p, "name");
    c.netdev(s.netdevs[i], p);
  }
  std::map<std::string, std::string> rdma;
  for (std::size_t i = 0; i < s.rdma_devices.size(); ++i) {
    const std::string p = at("/rdma_devices", i);
    const std::string& name = s.rdma_devices[i].name;
    c.unique(rdma, name, "RDMA device \"" + name + "\"", p, "name");
    c.rdma_device(s.rdma_devices[i], p);
  }
  // One PCI function however its address is spelt ("3b:00.0" is "0000:3b:00.0").
  std::map<std::string, std::string> pci;
  for (std::size_t i = 0; i < s.pci_functions.size(); ++i) {
    const std::string p = at("/pci_functions", i);
    const std::string& bdf = s.pci_functions[i].bdf;
    const std::string key = normalize_bdf(bdf).value_or(bdf);
    c.unique(pci, key, "PCI function \"" + key + "\"", p, "bdf");
    c.pci_function(s.pci_functions[i], p);
  }
  if (s.gpus.value) {
    std::map<std::string, std::string> idx, addr;
    for (std::size_t i = 0; i < s.gpus.value->size(); ++i) {
      const Gpu& g = (*s.gpus.value)[i];
      const std::string p = at("/gpus/value", i);
      c.unique(idx, std::to_string(g.index), "GPU index " + std::to_string(g.index), p, "index");
      if (g.bdf) {
        std::optional<std::string> n = normalize_bdf(*g.bdf);
        if (!n) c.fail(p + "/bdf", "\"" + *g.bdf + "\" is not a PCI address");
        else c.unique(addr, *n, "GPU PCI address \"" + *n + "\"", p, "bdf");
        if (n && s.find_pci(*n)) c.fail(p + "/bdf", *n + " is also a PCI function (NIC) of the snapshot");
      }
    }
  }
  // Bridges: one per address, and the parent_bdf links end (a loop would never reach a root).
  if (s.pci_bridges.value) {
    const std::vector<PciBridge>& bridges = *s.pci_bridges.value;
    std::map<std::string, std::string> seen;
    std::map<std::string, std::string> parent;
    for (std::size_t i = 0; i < bridges.size(); ++i) {
      const std::string p = at("/pci_bridges/value", i);
      const std::string key = normalize_bdf(bridges[i].bdf).value_or(bridges[i].bdf);
      c.unique(seen, key, "PCI bridge \"" + key + "\"", p, "bdf");
      for (const auto& [v, name] : {std::pair{bridges[i].secondary_bus, "secondary_bus"},
                                    std::pair{bridges[i].subordinate_bus, "subordinate_bus"}})
        if (v && (*v < 0 || *v > 255)) c.fail(p + "/" + name, std::to_string(*v) + " is not a bus number (0..255)");
      if (bridges[i].parent_bdf) parent[key] = normalize_bdf(*bridges[i].parent_bdf).value_or(*bridges[i].parent_bdf);
    }
    for (std::size_t i = 0; i < bridges.size(); ++i) {
      std::string cur = normalize_bdf(bridges[i].bdf).value_or(bridges[i].bdf);
      for (std::size_t hops = 0; hops <= bridges.size(); ++hops) {
        auto it = parent.find(cur);
        if (it == parent.end()) break;
        cur = it->second;
        if (hops == bridges.size())
          c.fail(at("/pci_bridges/value", i) + "/parent_bdf", "the parent_bdf links form a loop");
      }
    }
  }
  return c.first;
}

}  // namespace rk

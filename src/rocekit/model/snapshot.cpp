#include "rocekit/model/snapshot.hpp"

#include <cstdio>

#include "rocekit/core/text.hpp"

namespace rk {

NetDev* Snapshot::find_netdev(const std::string& name) {
  for (NetDev& n : netdevs)
    if (n.name == name) return &n;
  return nullptr;
}
const NetDev* Snapshot::find_netdev(const std::string& name) const {
  for (const NetDev& n : netdevs)
    if (n.name == name) return &n;
  return nullptr;
}
RdmaDevice* Snapshot::find_rdma(const std::string& name) {
  for (RdmaDevice& d : rdma_devices)
    if (d.name == name) return &d;
  return nullptr;
}
const RdmaDevice* Snapshot::find_rdma(const std::string& name) const {
  for (const RdmaDevice& d : rdma_devices)
    if (d.name == name) return &d;
  return nullptr;
}
PciFunction* Snapshot::find_pci(const std::string& bdf) {
  for (PciFunction& p : pci_functions)
    if (p.bdf == bdf) return &p;
  return nullptr;
}
const PciFunction* Snapshot::find_pci(const std::string& bdf) const {
  for (const PciFunction& p : pci_functions)
    if (p.bdf == bdf) return &p;
  return nullptr;
}
std::string acs_flags_text(const AcsBits& b) {
  auto f = [](const char* name, bool on) { return std::string(name) + (on ? "+" : "-"); };
  return f("SrcValid", b.source_validation) + " " + f("TransBlk", b.translation_blocking) + " " +
         f("ReqRedir", b.request_redirect) + " " + f("CmpltRedir", b.completion_redirect) + " " +
         f("UpstreamFwd", b.upstream_forwarding) + " " + f("EgressCtrl", b.egress_control) + " " +
         f("DirectTrans", b.direct_translated);
}

const PciBridge* Snapshot::find_bridge(const std::string& bdf) const {
  if (!pci_bridges.value) return nullptr;
  for (const PciBridge& b : *pci_bridges.value)
    if (b.bdf == bdf) return &b;
  return nullptr;
}
NetDev& Snapshot::netdev(const std::string& name) {
  if (NetDev* n = find_netdev(name)) return *n;
  NetDev n;
  n.name = name;
  netdevs.push_back(std::move(n));
  return netdevs.back();
}
RdmaDevice& Snapshot::rdma(const std::string& name) {
  if (RdmaDevice* d = find_rdma(name)) return *d;
  RdmaDevice d;
  d.name = name;
  rdma_devices.push_back(std::move(d));
  return rdma_devices.back();
}
PciFunction& Snapshot::pci(const std::string& bdf) {
  if (PciFunction* p = find_pci(bdf)) return *p;
  PciFunction p;
  p.bdf = bdf;
  pci_functions.push_back(std::move(p));
  return pci_functions.back();
}

std::optional<std::string> normalize_bdf(std::string_view text) {
  std::string_view t = text::trim(text);
  if (t.starts_with("pci/")) t.remove_prefix(4);
  // [domain:]bus:dev.fn
  std::vector<std::string_view> parts = text::split(t, ':');
  std::string_view domain = "0000";
  std::string_view bus;
  std::string_view devfn;
  if (parts.size() == 3) {
    domain = parts[0];
    bus = parts[1];
    devfn = parts[2];
  } else if (parts.size() == 2) {
    bus = parts[0];
    devfn = parts[1];
  } else {
    return std::nullopt;
  }
  std::size_t dot = devfn.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view dev = devfn.substr(0, dot);
  std::string_view fn = devfn.substr(dot + 1);
  auto d = text::parse_hex(domain);
  auto b = text::parse_hex(bus);
  auto v = text::parse_hex(dev);
  auto f = text::parse_hex(fn);
  if (!d || !b || !v || !f || domain.size() > 8 || bus.size() > 2 || dev.size() > 2 ||
      fn.size() != 1 || *v > 0x1f || *f > 7 || domain.empty() || bus.empty() || dev.empty())
    return std::nullopt;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04llx:%02llx:%02llx.%llx",
                static_cast<unsigned long long>(*d), static_cast<unsigned long long>(*b),
                static_cast<unsigned long long>(*v), static_cast<unsigned long long>(*f));
  return std::string(buf);
}

std::string NetDev::pci_address() const {
  if (driver.has_value() && driver->bus_info && normalize_bdf(*driver->bus_info)) return *driver->bus_info;
  return bdf.value_or("");
}

std::string Snapshot::subject_bdf(const std::string& subject) const {
  if (find_pci(subject)) return subject;
  if (const NetDev* n = find_netdev(subject)) return n->pci_address();
  if (const RdmaDevice* d = find_rdma(subject)) return d->bdf.value_or("");
  return normalize_bdf(subject) == subject ? subject : std::string();
}

std::string link_speed_text(const std::optional<double>& gts) {
  if (!gts) return "unknown";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%gGT/s", *gts);
  return buf;
}

std::string link_end_text(const PcieLinkEnd& e) {
  return link_speed_text(e.speed_gts) + " x" + (e.width_lanes ? std::to_string(*e.width_lanes) : "?");
}

}  // namespace rk

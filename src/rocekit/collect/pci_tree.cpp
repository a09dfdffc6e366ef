#include "rocekit/collect/pci_tree.hpp"

#include <cstdio>
#include <map>

#include "rocekit/collect/pcie_config.hpp"
#include "rocekit/collect/sysfs_util.hpp"
#include "rocekit/core/text.hpp"

namespace rk::collect {

namespace {

/// The BDF components of a device's resolved sysfs path, root port first, the device last;
/// empty when the link does not resolve.
std::vector<std::string> bdf_chain(const HostView& host, const std::string& bdf) {
  std::vector<std::string> out;
  Result<std::string> path = host.resolve_device_link("/sys/bus/pci/devices/" + bdf);
  if (!path) return out;
  for (std::string_view c : text::split(*path, '/'))
    if (is_full_bdf(c))
      if (std::optional<std::string> n = normalize_bdf(c)) out.push_back(*n);
  return out;
}

PciBridge read_bridge(const HostView& host, const std::string& bdf, std::optional<std::string> parent,
                      std::vector<std::string>& needs_root) {
  std::string base = "/sys/bus/pci/devices/" + bdf;
  PciBridge b;
  b.bdf = bdf;
  b.parent_bdf = std::move(parent);
  b.vendor_id = read_hex16(host, base + "/vendor");
  b.device_id = read_hex16(host, base + "/device");
  char ids[32];
  std::snprintf(ids, sizeof ids, "%04x:%04x", b.vendor_id.value_or(0), b.device_id.value_or(0));
  b.source = ev(base, std::string("bridge ") + ids);
  std::string cfg_path = base + "/config";
  Result<std::vector<std::uint8_t>> cfg = host.read_bytes(cfg_path, 4096);
  if (!cfg) {
    set_failed(b.link, cfg.error());
    set_failed(b.acs, cfg.error());
    return b;
  }
  Result<PcieConfigFacts> f = parse_pcie_config(*cfg);
  if (!f) {
    bool root = f.error().kind == ErrorKind::permission_denied;
    std::string r = cfg_path + ": " + f.error().message;
    ReasonKind k = root ? ReasonKind::needs_root : ReasonKind::unreadable;
    b.link.set_missing(r, k);
    b.acs.set_missing(r, k);
    if (root) needs_root.push_back(cfg_path);
    return b;
  }
  b.port_type = f->port_type;
  b.secondary_bus = f->secondary_bus;
  b.subordinate_bus = f->subordinate_bus;
  set_value(b.link, f->link, ev(cfg_path, f->port_type + ", " + link_text(f->link)));
  if (f->acs) {
    set_value(b.acs, *f->acs, ev(cfg_path, "ACSCtl: " + acs_flags_text(f->acs->control)));
  } else {
    b.acs.set_missing(cfg_path + ": " + f->acs_reason, f->acs_reason_kind);
  }
  return b;
}

}  // namespace

void read_pci_tree(const HostView& host, Snapshot& s, std::vector<std::string>& needs_root) {
  std::map<std::string, std::optional<std::string>> above;  // bridge -> its parent, in path order
  std::vector<std::string> order;
  auto walk = [&](const std::string& bdf) -> std::optional<std::string> {
    std::vector<std::string> chain = bdf_chain(host, bdf);
    if (chain.size() < 2 || chain.back() != bdf) return std::nullopt;
    for (std::size_t i = 0; i + 1 < chain.size(); ++i)
      if (above.emplace(chain[i], i ? std::optional<std::string>(chain[i - 1]) : std::nullopt).second)
        order.push_back(chain[i]);
    return chain[chain.size() - 2];
  };
  for (PciFunction& p : s.pci_functions) p.parent_bdf = walk(p.bdf);
  if (s.gpus.value)
    for (Gpu& g : *s.gpus.value)
      if (g.bdf) g.parent_bdf = walk(*g.bdf);
  std::vector<PciBridge> bridges;
  for (const std::string& b : order) bridges.push_back(read_bridge(host, b, above[b], needs_root));
  if (bridges.empty() && s.pci_functions.empty()) {
    s.pci_bridges.set_missing("no PCI function or GPU to trace", ReasonKind::not_applicable);
    return;
  }
  set_value(s.pci_bridges, std::move(bridges),
            ev("/sys/bus/pci/devices", std::to_string(order.size()) + " bridge(s) above the GPUs and NICs"));
}

}  // namespace rk::collect

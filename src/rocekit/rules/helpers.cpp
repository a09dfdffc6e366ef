#include "rocekit/rules/helpers.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "rocekit/catalog/pcie.hpp"
#include "rocekit/rules/rule.hpp"

#include <algorithm>

#include "rocekit/core/text.hpp"

namespace rk::rules {

std::string port_subject(const RdmaDevice& d, const RdmaPort& p) {
  return d.name + "/" + std::to_string(p.port);
}

const RdmaPort* port_of_netdev(const Snapshot& s, const NetDev& n) {
  for (const RdmaDevice& d : s.rdma_devices)
    for (const RdmaPort& p : d.ports)
      if (p.netdev && *p.netdev == n.name) return &p;
  return nullptr;
}

bool is_ipoib_name(std::string_view name) {
  if (name.size() <= 2 || !name.starts_with("ib")) return false;
  for (std::size_t i = 2; i < name.size(); ++i)
    if (!(name[i] >= '0' && name[i] <= '9') && name[i] != '.') return false;
  return true;
}

bool is_infiniband_netdev(const Snapshot& s, const NetDev& n) {
  if (const RdmaPort* p = port_of_netdev(s, n)) {
    if (p->link_layer) return *p->link_layer == LinkLayer::infiniband;
  }
  return is_ipoib_name(n.name);
}

std::optional<long long> nv_number(const std::optional<std::string>& value_text) {
  if (!value_text) return std::nullopt;
  std::string_view v = text::trim(*value_text);
  std::size_t open = v.rfind('(');
  if (open != std::string_view::npos && v.ends_with(")")) {
    std::string_view inner = v.substr(open + 1, v.size() - open - 2);
    if (auto n = text::parse_int(inner)) return *n;
    if (auto h = text::parse_hex(inner); h && inner.starts_with("0x"))
      return static_cast<long long>(*h);
  }
  if (auto n = text::parse_int(v)) return *n;
  if (v.starts_with("0x") || v.starts_with("0X")) {
    if (auto h = text::parse_hex(v)) return static_cast<long long>(*h);
  }
  std::string lower = text::to_lower(v);
  if (lower == "true") return 1;
  if (lower == "false") return 0;
  return std::nullopt;
}

std::optional<std::string> nv_value(const NvParam& p) {
  if (p.next_boot_value) return p.next_boot_value;
  if (p.current_value) return p.current_value;
  return p.new_value;
}

int port_index_of_bdf(const std::string& bdf) {
  if (bdf.empty()) return 1;
  char fn = bdf.back();
  if (fn >= '0' && fn <= '7') return fn - '0' + 1;
  return 1;
}

std::optional<int> physical_port_of(const Snapshot& s, const NetDev& n, int nv_ports) {
  std::string_view name = n.name;
  std::size_t at = name.rfind("np");
  if (at != std::string_view::npos && at > 0 && at + 2 < name.size()) {
    std::string_view digits = name.substr(at + 2);
    if (digits.size() <= 2 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::stoi(std::string(digits)) + 1;
  }
  if (n.rdma_device && n.rdma_port)
    for (const RdmaDevice& d : s.rdma_devices)
      if (d.name == *n.rdma_device && d.ports.size() > 1) return *n.rdma_port;
  if (nv_ports == 1) return 1;
  return std::nullopt;
}

int nv_port_count(const NvConfig& nv, std::string_view base) {
  int n = 0;
  for (int p = 1; p <= 4; ++p)
    if (nv.find(std::string(base) + "_P" + std::to_string(p))) ++n;
  return n;
}

const PciFunction* nv_source_for(const Snapshot& s, const std::string& bdf) {
  if (const PciFunction* own = s.find_pci(bdf); own && own->nv_config.has_value()) return own;
  std::string device = bdf.size() > 2 ? bdf.substr(0, bdf.size() - 2) : bdf;
  for (const PciFunction& p : s.pci_functions)
    if (p.nv_config.has_value() && p.bdf.size() > 2 && p.bdf.substr(0, p.bdf.size() - 2) == device)
      return &p;
  return nullptr;
}

void add_evidence(Finding& f, const Evidence& e) {
  if (e.file.empty() && e.text.empty()) return;
  f.evidence.push_back(e);
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

bool judged_pci_function(const PciFunction& p, Emitter& e, const std::string& vf_why) {
  if (p.is_vf.value_or(false)) {
    e.not_applicable(p.bdf, "SR-IOV VF: " + vf_why);
    return false;
  }
  if (p.flash_recovery) {
    e.not_applicable(p.bdf, "function is in flash recovery (see fw.image-state)");
    return false;
  }
  return true;
}

const std::vector<Gpu>* judged_gpus(const Snapshot& s, Emitter& e) {
  if (!s.gpus.has_value()) {
    e.missing("host", "GPU topology", s.gpus);
    return nullptr;
  }
  if (s.gpus->empty()) {
    e.not_applicable("host", "no NVIDIA GPU in the topology");
    return nullptr;
  }
  return &*s.gpus.value;
}

std::optional<int> gen_of(const std::optional<double>& gts) {
  if (!gts) return std::nullopt;
  for (int g = 1; g <= 6; ++g)
    if (std::fabs(*gts - *catalog::raw_gbps_per_lane(g)) < 0.01) return g;
  return std::nullopt;
}

}  // namespace rk::rules

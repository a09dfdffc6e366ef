#include "rocekit/model/identity.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "rocekit/core/text.hpp"

namespace rk {

std::string dscp_map_text(const std::map<int, int>& dscp_to_priority) {
  // (priority, DSCP) pairs: the map gives each priority's DSCPs in ascending order already.
  std::vector<std::pair<int, int>> by_prio;
  by_prio.reserve(dscp_to_priority.size());
  for (auto [dscp, prio] : dscp_to_priority) by_prio.emplace_back(prio, dscp);
  std::stable_sort(by_prio.begin(), by_prio.end(),
                   [](const std::pair<int, int>& a, const std::pair<int, int>& b) { return a.first < b.first; });
  std::string s;
  s.reserve(by_prio.size() * 3);
  auto add = [&s](int v) {
    char buf[16];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    s.append(buf, end);
  };
  for (std::size_t i = 0; i < by_prio.size();) {
    const int prio = by_prio[i].first;
    if (!s.empty()) s += ' ';
    add(prio);
    s += ':';
    bool first = true;
    while (i < by_prio.size() && by_prio[i].first == prio) {
      std::size_t j = i;  // a run of consecutive DSCPs: "24-27"
      while (j + 1 < by_prio.size() && by_prio[j + 1].first == prio && by_prio[j + 1].second == by_prio[j].second + 1) ++j;
      if (!first) s += ',';
      first = false;
      add(by_prio[i].second);
      if (j > i) {
        s += '-';
        add(by_prio[j].second);
      }
      i = j + 1;
    }
  }
  return s;
}

namespace {

std::string hex16(std::uint32_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  for (int shift = 12; shift >= 0; shift -= 4) s += digits[(v >> shift) & 0xf];
  return s;
}

}  // namespace

NicIdentity nic_identity(const NetDev* n, const PciFunction* p, const RdmaDevice* r) {
  NicIdentity id;
  if (n && n->driver.has_value() && n->driver->psid) id.psid = n->driver->psid;
  if (!id.psid && p && p->firmware.has_value() && p->firmware->psid) id.psid = p->firmware->psid;
  if (!id.psid && r && r->board_id) id.psid = r->board_id;
  if (p && p->device_id) id.pci_device = hex16(*p->device_id);
  else if (r && r->vendor_part_id) id.pci_device = hex16(*r->vendor_part_id);
  std::optional<std::string> part;
  if (p && p->firmware.has_value() && p->firmware->part_number) part = p->firmware->part_number;
  if (!part && p && p->vpd_part_number) part = p->vpd_part_number;
  if (!part && p && p->nv_config.has_value() && p->nv_config->part_number) part = p->nv_config->part_number;
  if (part && !text::trim(*part).empty()) id.part_number = std::string(text::trim(*part));
  if (id.psid) id.model = "PSID " + *id.psid;
  else if (p && p->device_name) id.model = *p->device_name;
  else if (r && r->vendor_part_id) id.model = "vendor part " + std::to_string(*r->vendor_part_id);
  else id.model = "unknown model";
  return id;
}

}  // namespace rk

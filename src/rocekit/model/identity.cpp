#include "rocekit/model/identity.hpp"

#include <algorithm>
#include <vector>

#include "rocekit/core/text.hpp"

namespace rk {

std::string dscp_map_text(const std::map<int, int>& dscp_to_priority) {
  std::map<int, std::vector<int>> by_prio;
  for (auto [dscp, prio] : dscp_to_priority) by_prio[prio].push_back(dscp);
  std::string s;
  for (auto& [prio, dscps] : by_prio) {
    std::sort(dscps.begin(), dscps.end());
    s += (s.empty() ? "" : " ") + std::to_string(prio) + ":";
    for (std::size_t i = 0; i < dscps.size();) {
      std::size_t j = i;
      while (j + 1 < dscps.size() && dscps[j + 1] == dscps[j] + 1) ++j;
      if (i > 0) s += ",";
      s += std::to_string(dscps[i]);
      if (j > i) s += "-" + std::to_string(dscps[j]);
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

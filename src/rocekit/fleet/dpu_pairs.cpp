// BlueField DPUs across the fleet (issue 22): a host whose BlueField is in DPU mode does not own
// its port QoS (NVIDIA BlueField BSP "QoS Configuration": "Users must only use mlnx_qos from the
// Arm"), so the host's check is not_applicable there and the audit lives in the card's Arm-side
// input. This file pairs the two by the card's physical id (board serial, else system image
// GUID, as NicRecord::physical_id), and says which DPU-mode cards have no Arm-side input.
#include <map>
#include <set>

#include "rocekit/fleet/fleet.hpp"
#include "rocekit/model/bluefield.hpp"

namespace rk::fleet {

void note_bluefield(const Snapshot& s, HostSummary& h) {
  if (std::optional<std::string> arm = bluefield_arm_side(s)) h.bluefield_arm = *arm;
  for (const NicRecord& n : h.nics) {
    if (n.bdf.empty()) continue;
    const PciFunction* p = s.find_pci(n.bdf);
    // On the Arm side every port of the card counts (its own NV query may not be in the input);
    // on a host only the PFs of a BlueField in DPU mode.
    if (h.bluefield_arm.empty() && !(p && dpu_mode(*p))) continue;
    h.dpu_ports.push_back({n.subject, n.bdf, n.physical_id});
  }
}

namespace {

/// "board serial MT2306X00001" -> "MT2306X00001 (board serial)".
std::string id_text(const std::string& physical_id) {
  for (std::string_view kind : {"board serial ", "system image GUID "})
    if (physical_id.starts_with(kind))
      return physical_id.substr(kind.size()) + " (" + std::string(kind.substr(0, kind.size() - 1)) +
             ")";
  return physical_id;
}

}  // namespace

std::vector<DpuPairing> pair_dpus(const std::vector<HostSummary>& hosts) {
  // physical id -> the Arm-side inputs that show the card
  std::map<std::string, std::vector<const HostSummary*>> arm_of;
  for (const HostSummary& h : hosts) {
    if (!h.loaded || h.bluefield_arm.empty()) continue;
    std::set<std::string> ids;
    for (const DpuPort& p : h.dpu_ports)
      if (!p.physical_id.empty() && !is_placeholder_id(p.physical_id)) ids.insert(p.physical_id);
    for (const std::string& id : ids) arm_of[id].push_back(&h);
  }
  std::vector<DpuPairing> out;
  for (const HostSummary& h : hosts) {
    if (!h.loaded || !h.bluefield_arm.empty() || h.dpu_ports.empty()) continue;
    std::map<std::string, std::vector<const DpuPort*>> cards;  // physical id ("" unknown) -> ports
    for (const DpuPort& p : h.dpu_ports) cards[p.physical_id].push_back(&p);
    for (const auto& [id, ports] : cards) {
      DpuPairing d;
      d.host = h.host;
      d.physical_id = id;
      for (const DpuPort* p : ports)
        d.ports += (d.ports.empty() ? "" : ", ") + p->subject +
                   (p->subject == p->bdf ? "" : " (" + p->bdf + ")");
      std::string what = h.host + " " + d.ports + ": BlueField in DPU mode";
      auto arm = id.empty() ? arm_of.end() : arm_of.find(id);
      if (arm != arm_of.end()) {
        d.arm_host = arm->second.front()->host;
        d.message = what + ", DPU " + id_text(id) + ": port QoS audited on its Arm side, input " +
                    d.arm_host + " (" + arm->second.front()->bluefield_arm + ")";
        if (arm->second.size() > 1)
          d.message += "; " + std::to_string(arm->second.size() - 1) +
                       " more Arm-side input(s) show the same card";
      } else if (id.empty()) {
        d.message =
            what +
            ": port QoS not audited: the input shows neither a board serial nor a system image "
            "GUID "
            "of the card, so no Arm-side capture can be paired with it (capture `devlink dev info` "
            "or `lspci -vvv` as root on both sides)";
      } else {
        d.message = what + ": port QoS not audited: no Arm-side capture of DPU " + id_text(id) +
                    " among the inputs (in DPU mode the port QoS is set from the Arm, NVIDIA "
                    "BlueField BSP \"QoS "
                    "Configuration\"; run rocekit-capture on the DPU's Arm side and add it)";
      }
      out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace rk::fleet

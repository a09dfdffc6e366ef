// BlueField DPUs (issue 22): where a BlueField's port QoS is judged. In DPU mode the Arm side owns
// the port's QoS: NVIDIA BlueField BSP "QoS Configuration" (v3.9.8 LTS, v4.5.x:
// https://docs.nvidia.com/networking/display/bluefielddpuosv398/QoS+Configuration): "When
// working in Embedded Host mode, using mlnx_qos on both the host and Arm will result with
// undefined behavior. Users must only use mlnx_qos from the Arm." On the Arm side the port is
// the uplink representor p<N>; pf<N>hpf and pf<N>vf<M> represent host functions (DOCA "DPU
// Kernel Representors Model",
// https://docs.nvidia.com/doca/sdk/DPU+Kernel+Representors+Model/index.html).
#include <array>
#include <charconv>
#include <set>
#include <vector>

#include "rocekit/model/bluefield.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/qos_scope.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

namespace {

/// The oldest firmware NVIDIA tested with a DOCA LTS release on the Arm side, per BlueField
/// generation: only values read on the cited page. The firmware major is the generation
/// (BlueField-2 24.x, BlueField-3 32.x, as the pages list them).
struct DpuFirmwareFloor {
  int major;
  std::string_view family;
  std::string_view minimum;
  std::string_view source;
};

// DOCA Documentation v2.9.2 LTS, "Firmware Compatibility Matrix"
// (https://docs.nvidia.com/doca/archive/2-9-2/Firmware+Compatibility+Matrix): "NVIDIA BlueField-3
// Firmware 32.43.2566 / 32.43.2402 / 32.43.1014", "NVIDIA BlueField-2 Firmware 24.43.2566 /
// 24.43.2402 / 24.43.1014", "BlueField DPU OS Software 4.9.2", the versions "tested that you can
// upgrade from or downgrade to". The oldest of each is the floor.
constexpr std::array<DpuFirmwareFloor, 2> k_dpu_firmware_floor{{
    {24, "BlueField-2", "24.43.1014",
     "DOCA 2.9.2 LTS Firmware Compatibility Matrix (https://docs.nvidia.com/doca/archive/2-9-2/"
     "Firmware+Compatibility+Matrix): BlueField-2 firmware 24.43.2566 / 24.43.2402 / 24.43.1014"},
    {32, "BlueField-3", "32.43.1014",
     "DOCA 2.9.2 LTS Firmware Compatibility Matrix (https://docs.nvidia.com/doca/archive/2-9-2/"
     "Firmware+Compatibility+Matrix): BlueField-3 firmware 32.43.2566 / 32.43.2402 / 32.43.1014"},
}};

/// "32.43.2566" -> {32, 43, 2566}; empty when a part is not a number.
std::vector<int> version_parts(std::string_view v) {
  std::vector<int> out;
  while (!v.empty()) {
    std::size_t dot = v.find('.');
    std::string_view part = v.substr(0, dot);
    int n = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), n);
    if (ec != std::errc() || end != part.data() + part.size()) return {};
    out.push_back(n);
    if (dot == std::string_view::npos) break;
    v.remove_prefix(dot + 1);
  }
  return out;
}

/// The running firmware of a function: a firmware query (flint, mlxfwmanager, devlink), else
/// ethtool -i of a netdev on it.
std::pair<std::optional<std::string>, Evidence> firmware_of(const Snapshot& s,
                                                            const PciFunction& p) {
  if (p.firmware.has_value() && p.firmware->version)
    return {p.firmware->version, p.firmware.source};
  for (const NetDev& n : s.netdevs)
    if (n.bdf == p.bdf && n.driver.has_value() && n.driver->firmware_version)
      return {n.driver->firmware_version, n.driver.source};
  return {std::nullopt, {}};
}

/// Judges the running firmware of a BlueField function known to be in DPU mode (`mode_why`
/// says how it is known, `mode_source` where).
void judge_dpu_firmware(const Snapshot& s, const PciFunction& p, const std::string& mode_why,
                        const Evidence& mode_source, Emitter& e) {
  auto [fw, where] = firmware_of(s, p);
  if (!fw) {
    Finding& f = e.unknown(p.bdf, "BlueField in DPU mode, firmware version not collected (needs flint -d " + p.bdf +
                                      " q, mlxfwmanager --query or ethtool -i)");
    f.needs = {"flint_q"};
    return;
  }
  std::vector<int> have = version_parts(*fw);
  const DpuFirmwareFloor* row = nullptr;
  for (const DpuFirmwareFloor& r : k_dpu_firmware_floor)
    if (!have.empty() && have.front() == r.major) row = &r;
  if (!row) {
    e.unknown(p.bdf, "BlueField in DPU mode with firmware " + *fw + ": no NVIDIA compatibility row for firmware major " +
                         (have.empty() ? std::string("?") : std::to_string(have.front())) +
                         " in rocekit's table (BlueField-2 24.x, BlueField-3 32.x)");
    return;
  }
  std::vector<int> floor = version_parts(row->minimum);
  if (have >= floor) {
    Finding& f = e.pass(p.bdf, std::string(row->family) + " in DPU mode, firmware " + *fw + " >= " +
                                   std::string(row->minimum));
    add_evidence(f, where);
    return;
  }
  Finding& f = e.fail(p.bdf, std::string(row->family) + " in DPU mode runs firmware " + *fw + ", below " +
                                 std::string(row->minimum) + ", the oldest tested with DOCA 2.9.2 LTS (" +
                                 std::string(row->source) + "); DPU mode: " + mode_why);
  add_evidence(f, where);
  if (!mode_source.file.empty()) add_evidence(f, mode_source);
  f.remediation.scope = FixScope::firmware_reboot;
  f.remediation.notes =
      "Update the BlueField with a BFB bundle of a supported DOCA release from its Arm side or with bfb-install "
      "over rshim from the host (NVIDIA DOCA installation guide); the bundle carries the matching NIC firmware. A "
      "firmware reset can change the BlueField's operation mode: read INTERNAL_CPU_MODEL and "
      "INTERNAL_CPU_OFFLOAD_ENGINE back afterwards (mlxconfig -d " + p.bdf + " q).";
}

void eval_dpu_firmware(const Snapshot& s, const Policy&, Emitter& e) {
  bool any = false;
  for (const PciFunction& p : s.pci_functions) {
    if (!p.bluefield_mode) continue;
    any = true;
    const BlueFieldMode& m = *p.bluefield_mode;
    if (m.mode == "unknown") {  // the query could not say: the minimum may apply
      e.unknown(p.bdf, "BlueField operation mode unknown (" + m.why + "): the DPU-mode firmware minimum "
                       "may apply");
      continue;
    }
    if (m.mode != "dpu") {
      e.not_applicable(p.bdf, "BlueField not in DPU mode: " + m.mode + " (" + m.why + ")");
      continue;
    }
    judge_dpu_firmware(s, p, m.why, m.source, e);
  }
  if (any) return;
  // Taken on the Arm side without an NV query: the Arm's own PCI functions are the BlueField's.
  // The host PF's representor (devlink flavour pcipf) exists only on an eswitch-managing Arm, i.e.
  // in DPU mode; a BlueField kernel alone does not tell the mode.
  if (std::optional<std::string> arm = bluefield_arm_side(s)) {
    // The Arm's NVIDIA PFs, and the PCI functions of its uplinks (an `ethtool -i p0` gives the
    // address without a PCI function of its own).
    std::set<std::string> bdfs;
    for (const PciFunction& p : s.pci_functions)
      if (!(p.vendor_id && *p.vendor_id != 0x15b3) && !p.is_vf.value_or(false) && !p.flash_recovery) bdfs.insert(p.bdf);
    for (const NetDev& n : s.netdevs)
      if (n.bdf && normalize_bdf(*n.bdf) && !representor_of(s, n) && !arm_sub_function(n)) bdfs.insert(*n.bdf);
    for (const std::string& bdf : bdfs) {
      PciFunction bare;
      bare.bdf = bdf;
      const PciFunction* found = s.find_pci(bdf);
      const PciFunction& p = found ? *found : bare;
      any = true;
      if (arm->starts_with("devlink port"))
        judge_dpu_firmware(s, p, "Arm side with the host PF's representor: " + *arm, Evidence{}, e);
      else
        e.unknown(p.bdf, "Arm side of a BlueField (" + *arm + "), operation mode not in the input: the DPU-mode "
                         "firmware minimum may apply (mlxconfig -d " + p.bdf + " q shows INTERNAL_CPU_MODEL)");
    }
  }
  // A host's BlueField known by name or firmware, without its mode: the minimum may apply.
  if (!any) {
    std::set<std::string> seen;
    const std::optional<std::string> arm = bluefield_arm_side(s);
    for (const NetDev& n : s.netdevs)
      if (std::optional<std::string> why = port_qos_mode_unknown(s, n, arm);
          why && seen.insert(n.bdf->substr(0, 10)).second) {
        any = true;
        e.unknown(*n.bdf, *why).needs = {"mlxconfig_q"};
      }
  }
  if (!any)
    e.not_applicable("host",
                     "no BlueField with a firmware NV query (INTERNAL_CPU_MODEL) in the input");
}

}  // namespace

std::optional<std::string> port_qos_elsewhere(const Snapshot& s, const NetDev& n,
                                              const std::optional<std::string>& arm_side) {
  if (arm_side) {
    if (std::optional<Representor> r = representor_of(s, n))
      return n.name + " is a representor of " + r->of + ": QoS is set on the uplink " +
             (r->uplink ? *r->uplink : "(the flavour physical port, p0 or p1)") + ", judged there (" + r->why +
             "; Arm side of a BlueField: " + *arm_side + "; NVIDIA DOCA \"DPU Kernel Representors Model\")";
    // The Arm OS's own SF (enp3s0f0s0) carries the Arm's traffic through the same uplink: the
    // port's QoS is the uplink's.
    if (std::optional<ArmSubFunction> sf = arm_sub_function(n))
      return n.name + " is a scalable function (SF) of the Arm OS, not a RoCE data port: the port's QoS is set "
             "on the uplink " + (sf->uplink ? *sf->uplink : "(the flavour physical port, p0 or p1)") +
             ", judged there (" + sf->why + "; Arm side of a BlueField: " + *arm_side + ")";
    return std::nullopt;
  }
  if (!n.bdf) return std::nullopt;
  const PciFunction* nv = nv_source_for(s, *n.bdf);
  const PciFunction* own = s.find_pci(*n.bdf);
  const BlueFieldMode* m = own ? dpu_mode(*own) : nullptr;
  if (!m && nv) m = dpu_mode(*nv);
  if (!m) return std::nullopt;
  // The host PF's eswitch answer backs the NV query: in DPU mode the Arm's ECPF manages the
  // embedded switch, and the host PF answers `Operation not supported` (a BlueField-3 host,
  // testdata/corpus/devlink_dev_eswitch).
  std::string esw;
  if (own && own->eswitch && own->eswitch->kernel_error == "Operation not supported")
    esw = "; " + *eswitch_evidence(*own);
  return "BlueField " + *n.bdf + " is in DPU mode (" + m->why + esw +
         "): QoS configured on the DPU's Arm side (" + arm_side_names(*n.bdf) +
         "); run rocekit check there. NVIDIA BlueField BSP \"QoS Configuration\": in DPU mode use "
         "mlnx_qos only "
         "from the Arm, never from the host";
}

std::optional<std::string> port_qos_mode_unknown(const Snapshot& s, const NetDev& n,
                                                 const std::optional<std::string>& arm_side) {
  if (arm_side || !n.bdf) return std::nullopt;
  const PciFunction* own = s.find_pci(*n.bdf);
  const PciFunction* nv = nv_source_for(s, *n.bdf);
  std::string unknown_why;
  for (const PciFunction* p : {own, nv}) {
    if (!p || !p->bluefield_mode) continue;
    if (p->bluefield_mode->mode != "unknown") return std::nullopt;  // the mode is known: judged by it
    unknown_why = p->bluefield_mode->why;
  }
  // A BlueField by its name, VPD or NV description, or by its firmware major (BlueField-2
  // firmware is 24.x, BlueField-3 32.x: no ConnectX shares them).
  std::string what;
  for (const PciFunction* p : {own, nv})
    if (p && is_bluefield(*p)) what = "named BlueField";
  std::optional<std::string> fw;
  if (own) fw = firmware_of(s, *own).first;
  if (!fw && n.driver.has_value()) fw = n.driver->firmware_version;
  if (what.empty() && fw) {
    std::vector<int> v = version_parts(fw->substr(0, fw->find(' ')));
    if (!v.empty() && (v.front() == 24 || v.front() == 32))
      what = "firmware " + fw->substr(0, fw->find(' ')) + (v.front() == 24 ? " (BlueField-2)" : " (BlueField-3)");
  }
  if (what.empty()) return std::nullopt;
  if (unknown_why.empty()) {
    const PciFunction* q = nv ? nv : own;
    unknown_why = q && q->nv_config.has_value() ? "the NV query shows no INTERNAL_CPU_MODEL"
                  : q && !q->nv_config.reason.empty() ? "no NV query: " + q->nv_config.reason
                                                      : "no NV query (mlxconfig -d " + *n.bdf + " q)";
  }
  return "BlueField " + *n.bdf + " (" + what + "), operation mode not known (" + unknown_why +
         "): in DPU mode its port QoS is set on the Arm side (" + arm_side_names(*n.bdf) +
         "), not on this host; read INTERNAL_CPU_MODEL and INTERNAL_CPU_OFFLOAD_ENGINE with `mlxconfig -d " + *n.bdf +
         " q` (NVIDIA BlueField BSP \"QoS Configuration\": mlnx_qos on both the host and the Arm is undefined "
         "behaviour)";
}

void add_bluefield_rules(std::vector<RuleInfo>& out) {
  out.push_back(
      {"fw.dpu-minimum",
       "A BlueField in DPU mode runs firmware tested with a supported DOCA release",
       Severity::warning, "pci function",
       "In DPU mode the BlueField's Arm side runs a DOCA BlueField bundle that ships with its own "
       "NIC "
       "firmware; NVIDIA tests each release with a short list of firmware versions, and RoCE "
       "behaviour "
       "(congestion control, PFC, counters) changes between firmware trains.",
       "NVIDIA DOCA 2.9.2 LTS Firmware Compatibility Matrix: BlueField-3 32.43.2566 / 32.43.2402 / "
       "32.43.1014, BlueField-2 24.43.2566 / 24.43.2402 / 24.43.1014.",
       eval_dpu_firmware, k_any_outcome,
       "BlueField operation mode (mlxconfig/mstconfig q: INTERNAL_CPU_MODEL, "
       "INTERNAL_CPU_OFFLOAD_ENGINE); "
       "firmware version (flint q, mlxfwmanager --query, devlink dev info, ethtool -i)"});
}

}  // namespace rk::rules

// BlueField DPUs (issue 22): where a BlueField's port QoS is judged. In DPU mode the Arm side owns
// the port's QoS: NVIDIA BlueField BSP "QoS Configuration" (v3.9.8 LTS, v4.5.x:
// https://docs.nvidia.com/networking/display/bluefielddpuosv398/QoS+Configuration): "When
// working in Embedded Host mode, using mlnx_qos on both the host and Arm will result with
// undefined behavior. Users must only use mlnx_qos from the Arm." On the Arm side the port is
// the uplink representor p<N>; pf<N>hpf and pf<N>vf<M> represent host functions (DOCA "DPU
// Kernel Representors Model", https://docs.nvidia.com/doca/sdk/DPU+Kernel+Representors+Model/index.html).
#include "rocekit/model/bluefield.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/qos_scope.hpp"

namespace rk::rules {

std::optional<std::string> port_qos_elsewhere(const Snapshot& s, const NetDev& n,
                                              const std::optional<std::string>& arm_side) {
  if (arm_side) {
    if (std::optional<std::string> uplink = representor_uplink(n.name))
      return n.name + " is an Arm-side representor of a host function (" + *arm_side +
             "): the port's QoS is configured on the uplink " + *uplink +
             ", judged there (NVIDIA DOCA \"DPU Kernel Representors Model\")";
    return std::nullopt;
  }
  if (!n.bdf) return std::nullopt;
  const PciFunction* nv = nv_source_for(s, *n.bdf);
  const PciFunction* own = s.find_pci(*n.bdf);
  const BlueFieldMode* m = own ? dpu_mode(*own) : nullptr;
  if (!m && nv) m = dpu_mode(*nv);
  if (!m) return std::nullopt;
  return "BlueField " + *n.bdf + " is in DPU mode (" + m->why + "): QoS configured on the DPU's Arm side (" +
         arm_side_names(*n.bdf) +
         "); run rocekit check there. NVIDIA BlueField BSP \"QoS Configuration\": in DPU mode use mlnx_qos only "
         "from the Arm, never from the host";
}

}  // namespace rk::rules

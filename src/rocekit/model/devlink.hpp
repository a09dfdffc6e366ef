// A PCI function's embedded switch mode and a netdev's devlink port (Part of PciFunction and NetDev,
// snapshot.hpp).
//
// A netdev's devlink port (`devlink port show`, iproute2 devlink/devlink.c pr_out_port): whether
// it is an uplink (flavour physical) or a representor of a host function (pcipf, pcivf) or of a
// sub-function (pcisf), as on a BlueField's Arm side in DPU mode. Part of NetDev (snapshot.hpp).
#pragma once

#include <optional>
#include <string>

#include "rocekit/model/evidence.hpp"

namespace rk {

struct DevlinkPortInfo {
  std::string handle;                  ///< `pci/0000:03:00.0/196608`
  std::optional<std::string> flavour;  ///< physical, pcipf, pcivf, pcisf, virtual, cpu, dsa
  std::optional<int> controller;       ///< 1 = the external host (BlueField Arm side, newer kernels)
  std::optional<int> pfnum;
  std::optional<int> vfnum;
  std::optional<int> sfnum;
  std::optional<bool> external;        ///< the function belongs to an external host
  std::optional<int> port;             ///< physical port number (uplinks)
  /// `function: ... roce enable|disable`: the represented function's RoCE capability, set from
  /// this side (`devlink port function set <handle> roce enable`); on a BlueField's Arm side the
  /// host PF representor's value is the host PF's RoCE. nullopt when the kernel does not print it.
  std::optional<bool> function_roce;
  std::optional<std::string> function_state;  ///< `active` / `inactive` (SFs)
  Evidence source;                            ///< the port's line
};

/// A PCI function's embedded switch (eswitch), `devlink dev eswitch show pci/<BDF>` (iproute2
/// devlink/devlink.c pr_out_eswitch). `switchdev` on a function means it manages the eswitch and
/// its representors stand for the functions attached to it (VFs, SFs, on a BlueField's Arm side
/// the host's PFs); on the Arm side of a BlueField in DPU mode the ECPFs are in switchdev mode,
/// and the host PF answers `Operation not supported` (it does not manage the eswitch).
struct DevlinkEswitchInfo {
  std::optional<std::string> mode;         ///< legacy, switchdev, switchdev_inactive
  std::optional<std::string> inline_mode;  ///< none, link, network, transport
  std::optional<std::string> encap_mode;   ///< none, basic (the older `encap enable` is basic)
  /// The kernel's answer instead of the modes ("Operation not supported", "No such device").
  std::optional<std::string> kernel_error;
  Evidence source;  ///< the output line (or the answer)
};

}  // namespace rk

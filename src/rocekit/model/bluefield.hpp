// BlueField DPUs (issue 22): the operation mode of a function from its firmware NV configuration,
// whether a snapshot was taken on the card's Arm side, and the Arm-side names of a host
// function's port. Pure functions of the snapshot.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "rocekit/model/snapshot.hpp"

namespace rk {

/// A BlueField function: its NV query holds INTERNAL_CPU_MODEL (the "BlueField Internal CPU
/// Configuration" parameters exist "only on BlueField-2 and BlueField-3 devices", NVIDIA
/// Flexboot/UEFI manual), or its lspci name, VPD, NV description or firmware description names
/// BlueField.
bool is_bluefield(const PciFunction& p);

/// The operation mode of a BlueField function from p.nv_config (see BlueFieldMode); nullopt when
/// the function is not a BlueField or no NV configuration was read.
std::optional<BlueFieldMode> bluefield_mode_of(const PciFunction& p);

/// Sets bluefield_mode of every PCI function (capture and live collection, after the merge).
void fill_bluefield_modes(Snapshot& s);

/// The function's mode when it is a BlueField in DPU mode, else nullptr.
const BlueFieldMode* dpu_mode(const PciFunction& p);

/// Why the snapshot was taken on the Arm side of a BlueField: "devlink port: uplink p0 (flavour
/// physical) and host PF representor pf0hpf (flavour pcipf)", "kernel 5.15.0-1035-bluefield"
/// (the BlueField Arm OS kernel flavour) or "netdev pf0hpf (host PF representor)"; nullopt for
/// a host.
std::optional<std::string> bluefield_arm_side(const Snapshot& s);

/// A representor netdev: it stands for another function (a host PF or VF, a sub-function) on the
/// embedded switch and carries no port QoS of its own; its uplink does.
struct Representor {
  std::string of;                     ///< "the host PF/VF", "a sub-function (SF)", "a function"
  std::string why;                    ///< "devlink port pci/0000:03:00.0/196608 flavour pcipf"
  std::optional<std::string> uplink;  ///< "p0"; nullopt when neither devlink nor the name tells
  bool by_name_only = false;          ///< no devlink port and no mlx5e_rep driver: the name alone
};

/// Whether `n` is a representor: its devlink port flavour is pcipf, pcivf or pcisf, its driver
/// is mlx5e_rep (the mlx5 representor netdev; `ethtool -i pf0hpf` on a BlueField-2 Arm, lshca
/// issue 62), or its name is a DOCA representor name (pf<N>hpf, pf<N>vf<M>, en..pf<N>sf<M>).
/// The uplink is the flavour-physical port of the same devlink instance, else the one the name
/// gives. nullopt for an uplink or any other netdev.
std::optional<Representor> representor_of(const Snapshot& s, const NetDev& n);

/// The Arm OS's own scalable function (SF): the netdev the BlueField's Arm OS uses for its own
/// traffic (`enp3s0f0s0`, DOCA's default SF of PF 0), an mlx5 SF auxiliary device
/// (`mlx5_core.sf.<N>`, drivers/net/ethernet/mellanox/mlx5/core/sf/dev/dev.c) with no RoCE port
/// of its own on the wire. Told by `ethtool -i` bus-info `mlx5_core.sf.<N>` (lshca issue 62:
/// `enp3s0f0s0` on a BlueField-2 Arm), or by a devlink port on an `auxiliary/mlx5_core.sf.<N>`
/// instance (flavour virtual: mlx5e_devlink_port_register() in linux
/// drivers/net/ethernet/mellanox/mlx5/core/en/devlink.c registers a non-PF function's netdev
/// port as DEVLINK_PORT_FLAVOUR_VIRTUAL).
struct ArmSubFunction {
  std::string why;                    ///< "ethtool -i bus-info mlx5_core.sf.2"
  std::optional<std::string> uplink;  ///< "p0" from the name's function number; nullopt if none
};

/// Whether `n` is the Arm OS's own SF (see ArmSubFunction); nullopt for any other netdev. Only
/// meaningful on a BlueField's Arm side (bluefield_arm_side).
std::optional<ArmSubFunction> arm_sub_function(const NetDev& n);

/// The eswitch mode of a PCI function as evidence: "devlink dev eswitch show pci/0000:03:00.0:
/// mode switchdev" (or "... kernel answers: Operation not supported"); nullopt when no output
/// names the function.
std::optional<std::string> eswitch_evidence(const PciFunction& p);

/// The uplink an Arm-side representor belongs to: "pf0hpf" (host PF 0) and "pf0vf3" (host VF 3
/// of PF 0) -> "p0" (NVIDIA DOCA "DPU Kernel Representors Model": uplink representors
/// p<port_number>, PF representors pf<port_number>hpf, VF representors
/// pf<port_number>vf<function_number>); nullopt for any other name.
std::optional<std::string> representor_uplink(std::string_view netdev);

/// The Arm-side netdevs of host PCI function `bdf`'s port, "p0/pf0hpf": the function number is
/// the port number (one host PF per BlueField port, the representor model's single-port
/// diagram duplicated for the second port).
std::string arm_side_names(const std::string& bdf);

}  // namespace rk

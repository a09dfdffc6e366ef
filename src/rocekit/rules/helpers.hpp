// Shared helpers for rule evaluators (not part of the public surface).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/model/snapshot.hpp"
#include "rocekit/model/finding.hpp"
#include "rocekit/policy/scope.hpp"

namespace rk::rules {

class Emitter;

/// PCIe generation 1..6 of a transfer rate in GT/s (2.5 ... 64); nullopt for other rates.
std::optional<int> gen_of(const std::optional<double>& gts);

/// False (and not_applicable emitted) for an SR-IOV VF (`vf_why`) or a function in flash
/// recovery: the PCIe rules judge physical functions with working firmware.
bool judged_pci_function(const PciFunction& p, Emitter& e, const std::string& vf_why);

/// The GPUs to judge, or nullptr with the finding emitted: unknown when the topology was not
/// collected, not_applicable when there is no NVIDIA GPU.
const std::vector<Gpu>* judged_gpus(const Snapshot& s, Emitter& e);


/// "dev/port", the subject of RDMA-port rules.
std::string port_subject(const RdmaDevice& d, const RdmaPort& p);

/// True for IPoIB netdev names: "ib" followed by digits and dots (ib0, ib1.8001).
bool is_ipoib_name(std::string_view name);

/// True when the netdev belongs to an InfiniBand port (IPoIB): by the RDMA port's link layer,
/// else by the ib<N> naming convention.
bool is_infiniband_netdev(const Snapshot& s, const NetDev& n);

/// The RDMA port a netdev belongs to, if the snapshot links them.
const RdmaPort* port_of_netdev(const Snapshot& s, const NetDev& n);

/// Numeric value of an mlxconfig value text: "48" -> 48, "True(1)" -> 1, "ETH(2)" -> 2.
std::optional<long long> nv_number(const std::optional<std::string>& value_text);

/// The effective value of an NV parameter: Next Boot when shown, else Current, else New.
std::optional<std::string> nv_value(const NvParam& p);

/// The NV config that covers a PCI function: its own, or another function of the same
/// physical device (same domain:bus:device) whose query shows all ports.
const PciFunction* nv_source_for(const Snapshot& s, const std::string& bdf);

/// 1-based port index of a PF on its card: function number + 1 ("0000:3b:00.1" -> 2).
/// Wrong with more PFs than ports, Socket-Direct and Multi-Host: new code uses physical_port_of.
int port_index_of_bdf(const std::string& bdf);

/// 1-based physical port of a netdev on its card, for the _P<n> firmware parameters: from
/// phys_port_name "p<N>" as udev's predictable name carries it (`enp1s0f1np1` -> 2,
/// systemd udev-builtin-net_id appends "n" + phys_port_name), else the RDMA port when one RDMA
/// device has several ports, else 1 when the firmware query shows a single port
/// (`nv_ports` = number of _P<n> of a port parameter). nullopt = not known.
std::optional<int> physical_port_of(const Snapshot& s, const NetDev& n, int nv_ports);

/// How many ports the firmware query shows for a per-port parameter: `base`_P1.._P4 present
/// (the `nv_ports` of physical_port_of).
int nv_port_count(const NvConfig& nv, std::string_view base);

/// "ens6: `Priority trust state: pcp` (mlnx_qos@ens6.txt:2)"-style evidence.
void add_evidence(Finding& f, const Evidence& e);

/// Comma-separated list.
std::string join(const std::vector<std::string>& v, std::string_view sep = ", ");

}  // namespace rk::rules

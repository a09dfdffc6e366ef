// Live collection of the machine's memory, hugepages and the DOCA services' asks (issue 22,
// "costs live"): /proc/meminfo and /sys/kernel/mm/hugepages (snapshot `memory`), the kubelet's
// static pod manifests /etc/kubelet.d/*.yaml (`static_pods`) and doca-hugepages' reservations
// /etc/mellanox/hugepages.d/*.json (`doca_hugepages`). Read-only; the same parsers as a capture's
// host_resources.txt and kubelet_pod@<name>.txt. Internal to rk_collect.
#pragma once

#include "rocekit/collect/host_view.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::collect {

void read_resources(const HostView& host, Snapshot& s);

}  // namespace rk::collect

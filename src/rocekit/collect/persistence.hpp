// Boot-time mechanisms that re-apply runtime RoCE settings, read from /etc under the
// HostView's root: the same listing as `rocekit-capture --list-persistence`.
#pragma once

#include "rocekit/collect/host_view.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::collect {

/// Lists /etc/systemd/system/rocekit-*.service, /etc/systemd/system/*.wants/rocekit-*.service,
/// /etc/udev/rules.d/*rocekit*.rules, and the other boot-time files (systemd units, rc.local,
/// network/if-up.d, NetworkManager/dispatcher.d) that mention mlnx_qos, `dcb app|pfc|ets|
/// apptrust`, setpci or ecn/roce_rp|roce_np. No /etc under the root: Collected missing with
/// that reason (fixture trees hold only /sys and /proc); a missing subdirectory is "none".
Collected<PersistenceState> read_persistence(const HostView& host);

/// The tools a boot script calls, by the same patterns as rocekit-capture: "mlnx_qos,setpci".
std::string persistence_tools_in(std::string_view script_text);

}  // namespace rk::collect

// ethtool netlink (generic netlink family "ethtool", kernel >= 5.6) through libnl-genl-3: the
// read-only ETHTOOL_MSG_CHANNELS_GET request, what `ethtool -l` sends on current kernels. The
// SIOCETHTOOL ioctl (ethtool.hpp) is the fallback for kernels without the family.
#pragma once

#include <string>

#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::collect {

/// Channel counts of `ifname` in the caller's network namespace: combined (COMBINED_COUNT),
/// combined_max (COMBINED_MAX), rx (RX_COUNT), tx (TX_COUNT); a pair the kernel leaves out (its
/// max is 0) is 0, as the ioctl reports it. Errors, all with context "ethtool netlink CHANNELS_GET <ifname>":
/// unsupported "no ethtool generic netlink family ..." (kernel before 5.6 or without
/// CONFIG_ETHTOOL_NETLINK: use the ioctl) or "the driver does not report channels (EOPNOTSUPP)";
/// not_found (ENODEV: no such netdev); permission_denied (EPERM/EACCES); io for socket errors.
Result<ChannelState> query_channels_netlink(const std::string& ifname);

}  // namespace rk::collect

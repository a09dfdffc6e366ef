// Read-only ethtool queries through the SIOCETHTOOL ioctl (ETHTOOL_GDRVINFO, GCOALESCE,
// GCHANNELS, GPAUSEPARAM): the data `ethtool -i/-c/-l/-a` prints, without the ethtool binary.
// The ioctl reads the running kernel only, so it is skipped under --root.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"

struct ethtool_drvinfo;
struct ethtool_coalesce;
struct ethtool_channels;
struct ethtool_pauseparam;

namespace rk::collect {

/// Pure conversions from the kernel structs (include/uapi/linux/ethtool.h) to the model.
/// `fw_version` "14.32.1010 (MT_2420110034)" is split into version and PSID as ethtool -i
/// output is by the parser. Microseconds and frame counts are copied as the kernel gives them.
DriverInfo to_driver_info(const ethtool_drvinfo& d);
CoalesceState to_coalesce(const ethtool_coalesce& c);
ChannelState to_channels(const ethtool_channels& c);
PauseState to_pause(const ethtool_pauseparam& p);

/// Fills n.driver (keeping the sysfs module version when the ioctl gives none), n.coalesce,
/// n.channels and n.pause from the running kernel. A get the driver does not implement
/// (EOPNOTSUPP) becomes the reason "<what>: not supported by driver <d>"; EPERM "needs root".
/// Evidence file: "ioctl SIOCETHTOOL ETHTOOL_G... <ifname>". Channels come from ethtool netlink
/// (ethtool_netlink.hpp; evidence "ethtool netlink ETHTOOL_MSG_CHANNELS_GET <ifname>") when
/// `channels_via_netlink` and the kernel has the family, else from ETHTOOL_GCHANNELS with a note
/// saying why netlink was not used.
void read_ethtool(const std::string& ifname, NetDev& n, bool channels_via_netlink = true);

/// Pairs `ethtool -S` names with values: `names` is the ETHTOOL_GSTRINGS(ETH_SS_STATS) payload
/// (count x 32-byte NUL-padded names), `values` the ETHTOOL_GSTATS payload (u64 counters, same
/// order). Extra names or values beyond the shorter list are ignored; a repeated name keeps the
/// first value and is listed in `*duplicates` (may be nullptr).
std::map<std::string, std::uint64_t> to_stats(std::span<const std::uint8_t> names,
                                              std::span<const std::uint64_t> values,
                                              std::vector<std::string>* duplicates);

/// Fills n.stats from the running kernel: ETHTOOL_GSSET_INFO (ETH_SS_STATS count; falls back to
/// ETHTOOL_GDRVINFO n_stats), ETHTOOL_GSTRINGS, ETHTOOL_GSTATS, all read-only gets. A driver
/// without statistics gives the reason "ethtool -S: driver <d> reports no statistics".
/// Evidence file: "ioctl SIOCETHTOOL ETHTOOL_GSTATS <ifname>", text "N counters".
void read_ethtool_stats(const std::string& ifname, NetDev& n);

}  // namespace rk::collect

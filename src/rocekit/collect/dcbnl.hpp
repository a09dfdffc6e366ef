// DCB/QoS state through dcbnl (rtnetlink RTM_GETDCB, DCB_CMD_IEEE_GET), read-only: the data
// `mlnx_qos -i <if>` prints on inbox and OFED drivers alike (IEEE APP table = trust and the
// DSCP->priority map, IEEE PFC, IEEE ETS), plus the OFED-only sysfs tree
// /sys/class/net/<if>/qos/{trust,dscp2prio,pfc}. Reads need no privilege (the kernel checks
// CAP_NET_ADMIN only for RTM_SETDCB).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rocekit/collect/host_view.hpp"
#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::collect {

/// The RTM_GETDCB / DCB_CMD_IEEE_GET request for `ifname` (nlmsghdr + dcbmsg + DCB_ATTR_IFNAME,
/// NUL-terminated), NLM_F_REQUEST, sequence `seq`. Pure; bytes in host order as the kernel
/// expects.
std::vector<std::uint8_t> encode_dcb_ieee_get(const std::string& ifname, std::uint32_t seq);

/// Decodes the kernel's reply to encode_dcb_ieee_get() (one netlink message, as recvmsg gave it).
/// Result: QosState with
///  - dscp_to_priority from DCB_ATTR_IEEE_APP_TABLE entries whose selector is DSCP
///    (IEEE_8021QAZ_APP_SEL_DSCP = 5; protocol = DSCP 0..63, priority 0..7);
///  - trust "dscp" when at least one DSCP entry is present, else "pcp" (how mlx5 decides it);
///  - pfc_enabled (8 entries, priority order) from DCB_ATTR_IEEE_PFC ieee_pfc.pfc_en bit i;
///  - priority_to_tc (8 entries) from DCB_ATTR_IEEE_ETS ieee_ets.prio_tc.
/// Each *_source is Evidence{"dcbnl IEEE_GET <ifname>", 0, decisive text}.
/// Errors: an NLMSG_ERROR reply -> unsupported ("the driver has no DCB support (dcbnl
/// EOPNOTSUPP)") for EOPNOTSUPP, permission_denied for EPERM/EACCES, io otherwise (strerror);
/// malformed_input when the buffer is short, not RTM_GETDCB, or has no DCB_ATTR_IEEE nest.
Result<QosState> decode_dcb_ieee_reply(std::span<const std::uint8_t> reply, const std::string& ifname);

/// Asks the running kernel over a NETLINK_ROUTE socket (send one request, read one reply,
/// 1 s receive timeout) and decodes it. Errors as decode_dcb_ieee_reply, plus io for socket
/// failures.
Result<QosState> query_dcb_ieee(const std::string& ifname);

/// Reads the MLNX_OFED sysfs tree /sys/class/net/<if>/qos/ under `host`: `trust` ("dscp",
/// "pcp", or "Priority trust state: dscp"), `dscp2prio` and `pfc` (the mlnx_qos text blocks
/// "dscp2prio mapping: prio:P dscp:a,b,..." and "PFC configuration: ... enabled 0 0 0 1 ...").
/// Errors: not_found when /sys/class/net/<if>/qos/trust does not exist (inbox drivers), otherwise the
/// read error; malformed_input when none of the three files yields a value.
Result<QosState> read_ofed_qos_sysfs(const HostView& host, const std::string& ifname);

}  // namespace rk::collect

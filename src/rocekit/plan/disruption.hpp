// What an action does to the traffic of its port while it runs (issue 14 item 6). One function,
// disruption_of(), decides it from the action kind and the QoS backend; make_plan stores the
// result in Action::disruption, the renderers print it, and apply refuses a disruptive step
// without --allow-disruption.
#pragma once

#include <string>
#include <string_view>

namespace rk::plan {

struct Action;
enum class QosBackend;

/// Effect on traffic, from least to most severe (the order is used to sort and to summarize).
enum class Disruption {
  none,                ///< no traffic effect
  channel_restart,     ///< the netdev's send/receive queues are closed and reopened (ms..s)
  link_flap,           ///< the port's link goes down and up: the peer sees link loss (seconds)
  reboot_or_fw_reset,  ///< takes effect only after a reboot or mstfwreset (all ports of the NIC)
};

std::string_view to_string(Disruption d);

/// The effect and the reason, citing the driver code that causes it.
struct DisruptionInfo {
  Disruption effect = Disruption::none;
  std::string why;  ///< "" for none
};

/// The one place that knows what each kind of change does on a ConnectX (mlx5) port: from
/// a.kind, the backend and (coalescing) whether adaptive moderation is switched.
DisruptionInfo disruption_of(const Action& a, QosBackend backend);

}  // namespace rk::plan

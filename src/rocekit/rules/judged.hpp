// What a report judged: shared by the verdict (render/summary), the exit code (cli/gate) and
// plan, so the three never disagree about "nothing was judged".
#pragma once

#include <string>
#include <vector>

#include "rocekit/model/finding.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::rules {

/// A finding passed or failed (not only unknown / not applicable).
bool anything_judged(const std::vector<Finding>& findings);
/// No RDMA device in the snapshot, and no netdev subject (or the netdev of a switch finding
/// "<port> <-> <netdev>") passed or failed: no RoCE port judged. A switch finding on a netdev of
/// the snapshot, judged or not, means the host has a RoCE port (the switch side is what is
/// unknown): false.
bool no_roce_port_judged(const Snapshot& s, const std::vector<Finding>& findings);

/// Why a host's report, with no failure, cannot be called healthy (empty: it can): no RoCE port
/// judged, an input file not used (status error or ignored), no rule passed or failed. `rocekit
/// check`'s exit code 3 (cli/gate.cpp, which adds --require and --fail-on unknown) and `rocekit
/// fleet`'s, per host.
std::vector<std::string> not_judged_reasons(const Snapshot& s, const std::vector<Finding>& findings);

}  // namespace rk::rules

// The interfaces a plan must not touch unless named: the one carrying the default route and
// the one the current ssh session rides on (issue 14 item 2). Read from the live host's
// /proc/net/route and /proc/net/ipv6_route under a root, and from $SSH_CONNECTION.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace rk::plan {

/// PlanOptions::protected_unchecked for a plan made from a capture or snapshot file: it holds
/// no route table, so the management path is not known (rocekit plan, rocekit fleet).
inline constexpr std::string_view k_no_route_table =
    "not checked which interface carries the default route or the ssh session (the input "
    "has no route table): make sure no step below is for the management interface";

/// netdev -> why ("carries the default route (/proc/net/route)", "carries this ssh session
/// (SSH_CONNECTION server address 192.0.2.10; /proc/net/route)"). `ssh_connection` is the
/// value of $SSH_CONNECTION ("client_ip client_port server_ip server_port") or empty.
/// `unchecked` gets a sentence when a route table could not be read.
std::map<std::string, std::string> live_protected_netdevs(const std::filesystem::path& root,
                                                          std::string_view ssh_connection,
                                                          std::string& unchecked);

}  // namespace rk::plan

// Parser for `devlink port show` (tool id `devlink_port`), iproute2 text output.
//
// Format source: iproute2 devlink/devlink.c (github:iproute2/iproute2, commit ee2a4a86, 2026-06):
// pr_out_port() prints the handle `<bus>/<dev>/<port index>:` (pr_out_port_handle_start, no nice
// names for `port show`), then `type eth|ib` (and `des_type` when the desired type differs),
// `netdev`, `ibdev`, `flavour` (port_flavour_map: physical, cpu, dsa, pcipf, pcivf, pcisf,
// virtual), for pcipf/pcivf/pcisf pr_out_port_pfvfsf_num(): `controller`, `pfnum`, `vfnum`,
// `sfnum`, `external true|false`; then `lc`, `port`, `split_group`, `splittable true|false`,
// `lanes`. pr_out_port_function() opens an indented `function:` object: `hw_addr`, `state
// active|inactive`, `opstate attached|detached`, the capabilities `roce`, `migratable`,
// `ipsec_crypto`, `ipsec_packet` (each `enable|disable`), `max_io_eqs`, and a nested
// `nested_devlink:` handle. Every attribute is one `name value` pair; the kernel leaves out the
// ones a port does not have (older kernels: no controller/external/splittable).
//
// On a BlueField's Arm side (DPU mode) the uplinks p0/p1 are flavour physical and the host's
// functions have representors: pf<N>hpf (pcipf, `controller 1 ... external true` on newer
// kernels), pf<N>vf<M> (pcivf), SF representors (pcisf). The `function:` of a host PF
// representor carries the host PF's `roce enable|disable`, set from the Arm.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

/// The `function:` object of a port (pr_out_port_function).
struct DevlinkPortFunction {
  std::optional<std::string> hw_addr;       ///< `hw_addr b8:3f:d2:e1:8f:dc`
  std::optional<std::string> state;         ///< `active` / `inactive` (SFs)
  std::optional<std::string> opstate;       ///< `attached` / `detached` (SFs)
  std::optional<bool> roce;                 ///< `roce enable|disable`
  std::optional<bool> migratable;           ///< `migratable enable|disable`
  std::optional<std::uint32_t> max_io_eqs;  ///< `max_io_eqs 120`
  /// Other `name value` pairs (`ipsec_crypto`, `ipsec_packet`, the nested devlink handle as
  /// `nested_devlink`), in order.
  std::vector<std::pair<std::string, std::string>> other;
};

/// One port, opened by a `<bus>/<dev>/<index>:` line.
struct DevlinkPort {
  std::size_t line = 0;  ///< 1-based line of the handle
  std::string bus;       ///< `pci`
  std::string device;    ///< `0000:03:00.0`
  std::uint32_t index = 0;
  std::optional<std::string> type;     ///< `eth`, `ib`
  std::optional<std::string> netdev;   ///< `p0`, `pf0hpf`
  std::optional<std::string> ibdev;
  std::optional<std::string> flavour;  ///< `physical`, `pcipf`, `pcivf`, `pcisf`, `virtual`, ...
  std::optional<std::uint32_t> controller;  ///< 0 = the local (Arm) host, 1 = the external host
  std::optional<std::uint32_t> pfnum;
  std::optional<std::uint32_t> vfnum;
  std::optional<std::uint32_t> sfnum;
  std::optional<bool> external;    ///< the function belongs to an external controller (the host)
  std::optional<std::uint32_t> port;  ///< physical port number (`port 0`)
  std::optional<bool> splittable;
  std::optional<std::uint32_t> lanes;
  std::optional<DevlinkPortFunction> function;
  /// Other `name value` pairs (`des_type`, `lc`, `split_group`, unknown ones), in order.
  std::vector<std::pair<std::string, std::string>> other;
};

struct DevlinkPorts {
  std::vector<DevlinkPort> ports;
  /// Text after `kernel answers:` / `devlink answers:` (e.g. `Operation not supported`).
  std::optional<std::string> kernel_error;
};

/// Parses `devlink port show` text (all ports, or one port). A `$ devlink ...` prompt line is
/// skipped. Warns `unrecognised_line` for a line that is not a port handle or attributes,
/// `bad_pair` for a dangling name without a value, `bad_number` / `bad_value` for a number or
/// boolean that does not read. Error when no port and no kernel error is found.
Result<Parsed<DevlinkPorts>> parse_devlink_port(std::string_view text);

/// `{"ports": [{"line","bus","device","index","type","netdev","ibdev","flavour","controller",
/// "pfnum","vfnum","sfnum","external","port","splittable","lanes","function": {"hw_addr",
/// "state","opstate","roce","migratable","max_io_eqs","other"} | null,"other"}],
/// "kernel_error"}`.
nlohmann::json to_json(const DevlinkPorts& v);

/// True when the first output line is a `<bus>/<dev>/<index>: type|netdev|flavour ...` port
/// handle (after an optional `devlink` prompt line).
bool looks_like_devlink_port(std::string_view text);

}  // namespace rk::parse

// Switch QoS configuration: a typed model of what a switch does with RoCE traffic, parsers for
// the dialects operators hand us (SONiC config_db.json, Cumulus NVUE JSON, `nv show` and `nv set`
// commands, Arista EOS, Cisco NX-OS, Juniper Junos, Dell Enterprise SONiC, NVIDIA Onyx
// `show roce`), which switch
// port faces which host netdev (mapping file or LLDP capture), and the host <-> switch alignment
// rules (`switch.*`, docs/rules.md).
//
// Every value carries the place it was read (file and 1-based line; for JSON also the JSON
// pointer in Evidence::text). A value the configuration does not state is absent with a reason
// (`Fact::reason`); where the NOS has a documented default the reason says "default, not in
// config: ..." and names it, but the value stays absent: the rules report `unknown`, never a
// silent pass. Facts: ../shared/reference/switch/switch.md (§0 mapping, §1.2 SONiC defaults).
//
// Terminology. `traffic class` is the switch-internal class a DSCP selects: SONiC TC, NVUE
// switch-priority, EOS traffic-class. `queue` is the egress queue: SONiC queue, NVUE
// traffic-class, EOS tx-queue. PFC priorities are 802.1p priorities 0..7 as carried in PFC
// frames; SONiC `pfc_enable` and NVUE `pfc-priority` list them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/model/finding.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::switchcfg {

/// A configuration value, or why the configuration does not give it.
template <class T>
struct Fact {
  std::optional<T> value;
  Evidence source;     ///< where the value (or the decisive absence) was read
  std::string reason;  ///< set when !value: "not in config", "default, not in config: ..."

  bool has_value() const { return value.has_value(); }
  const T& operator*() const { return *value; }
  const T* operator->() const { return &*value; }
  static Fact missing(std::string why, Evidence where = {}) {
    Fact f;
    f.reason = std::move(why);
    f.source = std::move(where);
    return f;
  }
  static Fact of(T v, Evidence where) {
    Fact f;
    f.value = std::move(v);
    f.source = std::move(where);
    return f;
  }
};

/// Input dialects, detected by content (never by file name).
enum class Dialect {
  sonic_config_db,    ///< SONiC config_db.json, nested ({"PORT_QOS_MAP": {...}}) or flat ("T|k")
  nvue_config_json,   ///< Cumulus `nv config show -o json` (list of {"header"}/{"set"} documents)
  nvue_show_roce,     ///< Cumulus `nv show qos roce` / `nv show interface <if> qos roce status`
  arista_eos,         ///< Arista EOS running-config (QoS, PFC, tx-queue, interface mtu lines)
  cisco_nxos,         ///< Cisco NX-OS running-config (class-map/policy-map type qos|network-qos|queuing)
  juniper_junos,      ///< Juniper Junos class-of-service, hierarchy or `set` form
  nvue_commands,      ///< Cumulus `nv set ...` commands (`nv config show -o commands`)
  dell_sonic_cli,     ///< Dell Enterprise SONiC `sonic-cli` running-config (qos map, wred/scheduler policies)
  onyx_show_roce,     ///< NVIDIA Onyx `show roce` (RoCE mode, trust, PFC, ECN, RoCE used TCs, buffer pools)
};
std::string_view to_string(Dialect d);

/// Egress scheduling of one queue.
struct Scheduling {
  std::string type;                   ///< "strict" or "dwrr" (SONiC DWRR/WRR, EOS bandwidth)
  std::optional<int> weight;          ///< DWRR weight (SONiC) or bandwidth percent (NVUE, EOS)
};

/// ECN / WRED on one queue.
struct EcnConfig {
  bool ecn_marking = false;           ///< marks CE on ECT packets (SONiC ecn != ecn_none)
  std::optional<std::string> mode;    ///< SONiC "ecn_all"/"ecn_green"/...; NVUE "ECN"; EOS "ecn"
  std::optional<bool> wred_drop;      ///< WRED drops (non-ECT packets) above the thresholds
  std::optional<std::uint64_t> min_threshold_bytes;
  std::optional<std::uint64_t> max_threshold_bytes;
  std::optional<std::string> threshold_text;  ///< as written when not in bytes ("2000 segments")
  std::optional<int> mark_probability_percent;
  std::string profile;                ///< SONiC WRED_PROFILE name, EOS/NVUE: ""
};

/// One egress queue of a port.
struct QueueConfig {
  int queue = 0;
  Fact<Scheduling> scheduling;
  Fact<EcnConfig> ecn;
};

/// An ingress priority-group buffer assignment (SONiC BUFFER_PG|port|3-4, NVUE lossless pool).
struct BufferPg {
  int first_pg = 0;
  int last_pg = 0;
  std::string profile;                ///< "pg_lossless_100000_5m_profile", "NULL" (dynamic)
  std::optional<bool> lossless;       ///< nullopt when the profile is not described
  std::string basis;                  ///< why lossless/lossy: "xoff 40960", "dynamic (NULL)"
  Evidence source;
};

/// PFC watchdog (SONiC PFC_WD + PORT_QOS_MAP.pfcwd_sw_enable; EOS/NVUE when stated).
struct PfcWatchdog {
  bool enabled = false;
  std::vector<int> priorities;        ///< SONiC pfcwd_sw_enable; empty = not stated
  std::optional<std::string> action;  ///< drop / forward / alert
  std::optional<int> detection_time_ms;
  std::optional<int> restoration_time_ms;
  std::optional<int> poll_interval_ms;
};

/// The QoS a switch applies on one port (or on every port: name "*", for system-wide dumps).
struct PortQos {
  std::string name;                             ///< "Ethernet0", "swp16", "Ethernet2/5/1", "*"
  Fact<std::string> trust;                      ///< "dscp", "pcp", "pcp,dscp"
  Fact<std::map<int, int>> dscp_to_tc;          ///< DSCP 0..63 -> traffic class
  std::string dscp_to_tc_map_name;              ///< SONiC map name ("AZURE"), when named
  std::map<int, std::size_t> dscp_to_tc_lines;  ///< DSCP -> line of its entry, when known
  Fact<std::map<int, int>> tc_to_queue;         ///< traffic class -> egress queue
  Fact<std::map<int, int>> tc_to_pg;            ///< traffic class -> ingress priority group
  Fact<std::map<int, int>> pfc_priority_to_queue;  ///< PFC priority -> queue it pauses
  /// Lossless traffic class -> the PFC priority that pauses it, where the config states it
  /// (NX-OS `pause pfc-cos` in class c-8q-nq<tc>, Junos no-loss `pfc-priority`); when not empty
  /// it lists every lossless class, and a class it lacks is paused by no priority. Empty: a
  /// traffic class is paused by the PFC priority of the same number (SONiC, NVUE, EOS).
  std::map<int, int> tc_pfc_priority;
  Fact<std::vector<int>> pfc_enabled;           ///< PFC priorities (lossless), ascending
  std::vector<BufferPg> buffer_pgs;             ///< empty: see buffer_reason
  std::string buffer_reason;                    ///< why buffer_pgs is empty
  std::map<int, QueueConfig> queues;            ///< by queue index; absent queue = not configured
  Fact<int> mtu_bytes;                          ///< L3 (IP) MTU as every NOS here configures it
  Fact<PfcWatchdog> pfc_watchdog;

  /// The queue entry, or nullptr when the configuration names nothing for it.
  const QueueConfig* queue(int q) const;
};

/// A parsed switch configuration.
struct SwitchQos {
  std::string file;                   ///< the input path as given
  Dialect dialect = Dialect::sonic_config_db;
  std::string name;                   ///< switch hostname when the config names it, else ""
  std::vector<PortQos> ports;         ///< config order (SONiC: natural port order)
  std::vector<std::string> notes;     ///< things read but not modelled, assumptions

  /// Port by exact name, else the most specific wildcard entry that matches it (Junos `et-*`,
  /// `xe-0/0/*`, shell-style), else the system-wide "*" entry, else nullptr.
  const PortQos* find_port(std::string_view name) const;
};

// ------------------------------------------------------------------ loading -----------------

/// Detects the dialect of `text`, or nullopt. JSON: SONiC when a known config_db table (nested
/// or "TABLE|key") is present, NVUE when a "set" document with "qos" or "interface" is present.
/// Text: by marker lines only one NOS writes (detect.cpp); nullopt when the lines belong to a
/// NOS rocekit does not read, to two dialects, or to none.
std::optional<Dialect> detect_dialect(std::string_view text);
/// The same, with the reason when no dialect is read: the NOS the lines look like (Dell OS10,
/// Cisco IOS, ...: refused, never parsed as the closest dialect), two dialects in one file, or
/// no QoS line at all; the message lists the dialects rocekit reads. Error: unsupported, with
/// "file:line" of the deciding line.
Result<Dialect> detect_dialect_of(std::string_view text, const std::string& file);

/// Parses a switch configuration of any supported dialect. `file` names the input in evidence
/// and errors. Errors (malformed_input, unsupported) carry "file:line" context.
Result<SwitchQos> parse_switch_config(std::string_view text, const std::string& file);
/// Per-dialect parsers (same contract; no detection).
Result<SwitchQos> parse_sonic_config_db(std::string_view text, const std::string& file);
Result<SwitchQos> parse_nvue_config_json(std::string_view text, const std::string& file);
Result<SwitchQos> parse_nvue_show_roce(std::string_view text, const std::string& file);
Result<SwitchQos> parse_arista_eos(std::string_view text, const std::string& file);
Result<SwitchQos> parse_cisco_nxos(std::string_view text, const std::string& file);
Result<SwitchQos> parse_juniper_junos(std::string_view text, const std::string& file);
Result<SwitchQos> parse_nvue_commands(std::string_view text, const std::string& file);
Result<SwitchQos> parse_dell_sonic(std::string_view text, const std::string& file);
Result<SwitchQos> parse_onyx_show_roce(std::string_view text, const std::string& file);

/// Reads and parses a switch configuration file (at most 64 MiB). Errors: not_found, io,
/// unsupported (dialect not recognised), malformed_input (file:line).
Result<SwitchQos> load_switch_config(const std::filesystem::path& path);

// ------------------------------------------------------------------ port map ----------------

/// One cable: host netdev <-> switch port.
struct Link {
  std::string host;         ///< host name ("" = any host)
  std::string netdev;       ///< host netdev ("*" = every RoCE netdev of the host)
  std::string switch_name;  ///< switch name ("" = any switch)
  std::string port;         ///< switch port name
  Evidence source;          ///< mapping-file line or LLDP capture line
};

struct PortMap {
  std::vector<Link> links;
};

/// Loads a mapping file. CSV: a header line `host,netdev,switch,port` (columns in that order;
/// `#` comments and blank lines allowed), then one link per line. YAML: a sequence of maps with
/// the keys host, netdev, switch, port (or `links:` holding that sequence). Dialect by content.
/// Errors name file:line (malformed_input) for missing columns, empty fields, unknown keys.
Result<PortMap> load_port_map(const std::filesystem::path& path);
Result<PortMap> parse_port_map(std::string_view text, const std::string& file);

/// Builds a port map from an LLDP capture taken on host `host`: `lldpctl` (default text,
/// `-f keyvalue`, `-f json`) or `lldptool -t -n -i IF` (needs a `# interface: IF` header or a
/// `lldptool ... -i IF` command line in the file, since that output does not name the local
/// interface). The switch port is the neighbour's port id when its subtype is an interface name
/// (ifname / local with a name), else its port description. Errors: malformed_input (file:line),
/// unsupported (format not recognised).
Result<PortMap> port_map_from_lldp(const std::filesystem::path& path, std::string host);
Result<PortMap> parse_lldp(std::string_view text, const std::string& file, std::string host);

// ------------------------------------------------------------------ alignment ---------------

/// The `switch.*` rules, in report order: the Family::switch_port rows of the one rule registry
/// (rules/table_switch.cpp; metadata, evaluation is check_alignment()).
using SwitchRule = rules::RuleInfo;
const std::vector<SwitchRule>& switch_rules();
const SwitchRule* find_switch_rule(std::string_view id);

/// Checks one host against one switch. Pairs: with `map`, every link whose host matches the
/// snapshot hostname (or is empty/"*", or the snapshot has no hostname) and whose switch
/// matches `sw.name` (or either is empty) pairs that netdev ("*" = every RoCE netdev) with that
/// port; a named port the config lacks gives an `unknown` finding. Without `map`, every port
/// of `sw` is paired with every RoCE netdev (meant for single-port or system-wide configs).
/// RoCE netdevs: netdevs with QoS state or an RDMA device, IPoIB excluded.
/// Host side: RoCE DSCP = policy.roce_dscp; its priority from the netdev's DSCP->priority map
/// (trust dscp); host PFC and ECN from the snapshot; CNP DSCP from firmware CNP_DSCP_P1 when
/// captured, else policy.cnp_dscp. Findings have subject "<port> <-> <netdev>" (switch name
/// prefixed when known) and evidence from both sides; disabled rules (policy.rules) are skipped.
/// With several switches whose configurations carry no hostname, set `SwitchQos::name` (from
/// the inventory or the port map) before calling, or every link pairs with every switch.
std::vector<Finding> check_alignment(const Snapshot& host, const SwitchQos& sw, const PortMap* map,
                                     const Policy& policy);

/// Why nothing was judged for `host`, when the host is not the cause: the findings pair host
/// netdevs with switch ports, and those ports carry no QoS in `sw` (no trust, DSCP map, PFC
/// priority or queue): "switch port X has no QoS binding in FILE ...; ports with QoS bindings:
/// ...". "" when no finding names a netdev of `host` (the host has no RoCE netdev).
std::string unjudged_reason(const Snapshot& host, const SwitchQos& sw, const std::vector<Finding>& findings);

// ------------------------------------------------------------------ rendering ---------------

/// `rocekit switch show` text: per port, the maps, PFC, queues, buffers, MTU and watchdog,
/// each with its source; unknowns with their reason.
std::string qos_text(const SwitchQos& sw);
/// The same as JSON (stable field names as in the structs above; unknown = {"unknown": reason}).
std::string qos_json(const SwitchQos& sw);

}  // namespace rk::switchcfg

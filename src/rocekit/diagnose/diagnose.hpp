// rocekit diagnose: counter samples of one host taken apart in time -> per-counter deltas and
// rates -> named causes (PFC/ECN misalignment, lossy RoCE, discards, pause storms).
//
// Inputs are Snapshots (NetDev::stats = `ethtool -S` or /sys/class/net/<if>/statistics names,
// RdmaPort::counters = hw_counters + counters). Counter meanings and rules follow
// ../shared/reference/counters.csv, monitoring.md §3.3/§4 and host-facts.md §H/§K.10.
// No printing, no exit, no sleeping: the CLI samples and renders.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk::diagnose {

/// What happened to one counter between two samples.
enum class DeltaStatus {
  ok,           ///< after >= before: delta = after - before
  wrapped,      ///< 32-bit hw_counter wrapped: delta = after + 2^32 - before
  reset,        ///< decreased and not a plausible wrap (driver reload): delta = after (lower bound)
  disappeared,  ///< present before, missing after (PFC config change, device gone): no delta
  appeared,     ///< missing before, present after (e.g. PFC enabled in between): no delta
};
std::string_view to_string(DeltaStatus s);

/// One counter over the window. `delta` and `rate_per_s` are meaningful for ok/wrapped/reset.
struct CounterDelta {
  std::string name;
  std::optional<std::uint64_t> before;   ///< first sample's value
  std::optional<std::uint64_t> after;    ///< last sample's value
  std::uint64_t delta = 0;               ///< events (or bytes, microseconds: the counter's unit)
  double rate_per_s = 0;                 ///< delta / interval_s
  DeltaStatus status = DeltaStatus::ok;
};

/// The counters of one source (an ethtool -S netdev or an RDMA port) over the window.
struct CounterTable {
  bool available = false;                     ///< false: see `reason`
  std::string reason;                         ///< why the counters are absent
  std::string source;                         ///< capture file / sysfs dir of the last sample
  std::map<std::string, CounterDelta> counters;

  const CounterDelta* find(std::string_view name) const;
  /// Delta when the counter is present in both samples (ok/wrapped/reset); nullopt otherwise.
  std::optional<std::uint64_t> delta(std::string_view name) const;
  /// True when the counter exists in the last sample (key presence matters: mlx5 prints
  /// rx_prio<N>_pause only for PFC-enabled priorities).
  bool has(std::string_view name) const;
};

/// One counter of one priority over the window: its delta and rate (0 when absent or not
/// comparable between the samples).
struct PriorityCounter {
  std::uint64_t delta = 0;
  double rate_per_s = 0;
};

/// The traffic of one IEEE 802.1p priority in both directions over the window, from the mlx5
/// per-priority counters rx_prio<N>_bytes, rx_prio<N>_packets, tx_prio<N>_bytes and
/// tx_prio<N>_packets (PPCNT per-priority group: drivers/net/ethernet/mellanox/mlx5/core/
/// en_stats.c, pport_per_prio_traffic_stats_desc).
struct PriorityTraffic {
  int priority = 0;  ///< 0..7
  PriorityCounter rx_bytes;
  PriorityCounter rx_packets;
  PriorityCounter tx_bytes;
  PriorityCounter tx_packets;
};

/// The priorities 0..7 whose rx or tx bytes or packets moved, lowest first. Empty when the
/// table has no per-priority counters or none of them moved.
std::vector<PriorityTraffic> priority_traffic(const CounterTable& eth);

/// One link: a netdev and, when known, its RDMA port (same physical port).
struct LinkDeltas {
  std::string netdev;                   ///< "" when only an RDMA port is known
  std::string rdma_port;                ///< "mlx5_0/1", "" when none
  std::string pairing_note;             ///< how netdev and RDMA port were paired
  CounterTable eth;                     ///< NetDev::stats deltas
  CounterTable rdma;                    ///< RdmaPort::counters deltas
  std::optional<std::vector<bool>> pfc_enabled;  ///< from the snapshot's QoS state, when known
  std::string pfc_source;               ///< where pfc_enabled was read (mlnx_qos, sysfs qos/pfc)
  std::string subject() const;          ///< "eth4 (mlx5_0/1)", "eth4", "mlx5_0/1"
};

/// The time window and the per-link deltas.
struct Window {
  double interval_s = 0;              ///< seconds between first and last sample
  std::string interval_source;        ///< "collected_at", "--interval", "measured"
  std::size_t samples = 2;
  std::vector<LinkDeltas> links;
  std::vector<std::string> notes;     ///< "no RDMA devices", counters that disappeared, ...
};

enum class Confidence { low, medium, high };
std::string_view to_string(Confidence c);

/// One counter quoted as evidence.
struct CounterEvidence {
  std::string source;   ///< "eth" (ethtool -S / netdev statistics) or "rdma" (hw_counters)
  std::string counter;
  std::uint64_t delta = 0;
  double rate_per_s = 0;
  std::string status;   ///< "ok", "wrapped", "reset", "absent", "appeared", "disappeared"
};

/// A named cause with its evidence and what to do next.
struct Cause {
  std::string id;          ///< stable: diag.pause-storm, diag.pfc-without-ecn, ...
  std::string subject;     ///< LinkDeltas::subject()
  Severity severity = Severity::warning;  ///< info = observed and healthy (not a fault)
  Confidence confidence = Confidence::medium;
  std::string summary;     ///< one line: what the counters show and what it means
  std::vector<CounterEvidence> evidence;
  std::string next_step;   ///< rocekit check rule / host command / switch setting
};

/// A rule that could not be judged, with the reason (never a silent pass).
struct Unknown {
  std::string id;
  std::string subject;
  std::string reason;
};

struct Diagnosis {
  Window window;
  int roce_priority = 3;
  std::vector<Cause> causes;      ///< ranked: severity, then confidence, then rate
  std::vector<Unknown> unknowns;
  bool has_fault() const;         ///< a cause at warning or above
};

/// Parses "YYYY-MM-DDTHH:MM:SSZ" (capture `started:` / snapshot collected_at) to Unix seconds.
std::optional<std::int64_t> parse_utc_timestamp(std::string_view iso);

/// True for counters the mlx5 driver reads as 32-bit Q counters (hw_counters that wrap at
/// 2^32: out_of_sequence, packet_seq_err, local_ack_timeout_err, ... per monitoring.md §3.3).
bool is_32bit_counter(std::string_view name);

/// Compares two samples of one counter. `is_32bit`: a decrease from a value < 2^32 whose
/// wrapped delta is < 2^31 is a wrap; any other decrease is a reset.
CounterDelta compare_counter(std::string name, std::optional<std::uint64_t> before,
                             std::optional<std::uint64_t> after, bool is_32bit);

/// Deltas over a sequence of samples (oldest first, at least 2) of one counter set; wraps and
/// resets are detected pair by pair and deltas summed. `interval_s` > 0 gives rate_per_s.
CounterTable compare_tables(const std::vector<const std::map<std::string, std::uint64_t>*>& samples,
                            double interval_s, bool rdma);

/// True when the snapshot holds at least one counter: NetDev::stats or RdmaPort::counters.
bool has_counters(const Snapshot& s);

/// Builds the window from samples of one host (oldest first, >= 2). The interval comes from
/// `interval_s` when > 0 (flag or measured, named by `interval_source`), else from the first and
/// last collected_at. Errors: malformed_input when fewer than 2 samples, when a sample has no
/// counters at all ("sample N of M has no counters ..."), when the interval is unknown or not
/// positive, or when the samples come from different hosts: different hostnames when every
/// sample names one, else an RDMA device of the same name with another node_guid or
/// sys_image_guid, or a PCI function of the same BDF with another vendor:device.
Result<Window> build_window(const std::vector<Snapshot>& samples, double interval_s,
                            const std::string& interval_source);

/// Runs every rule on the window. The RoCE priority, DSCP, CNP values and the thresholds
/// (policy section `diagnose:`) come from the policy.
Diagnosis diagnose(const Window& w, const Policy& policy);

enum class Format { text, json, markdown };

/// Ranked causes, unknowns, then per link the traffic per priority (priority_traffic, the RoCE
/// priority marked) and the counters that moved (delta, rate/s, status). JSON (docs/diagnose.md):
/// {"interval_s", "interval_source", "samples", "roce_priority", "has_fault", "causes": [...],
/// "unknowns": [...], "links": [{"netdev", "rdma_port", "pairing", "priorities": [...],
/// "eth": {...}, "rdma": {...}}], "notes"}.
struct RenderOptions {
  bool quiet = false;  ///< text/markdown: leave info causes (healthy observations) and the counter table out
  bool color = false;  ///< text: ANSI colours (faults red, info green, unknown yellow)
};
std::string render(const Diagnosis& d, Format f, const RenderOptions& o = {});
/// Keeps only the causes and unknowns whose id `selectors` select (rules::selects); empty keeps all.
void keep_rules(Diagnosis& d, const std::vector<std::string>& selectors);

/// Reads one live sample under `root` (normally "/"): /sys/class/net/<if>/statistics/<name>
/// into NetDev::stats and /sys/class/infiniband/<dev>/ports/<p>/{counters,hw_counters}/<name>
/// into RdmaPort::counters (netdev paired through <dev>/device/net/). Unreadable files are
/// skipped; a missing /sys/class/infiniband adds the note "no RDMA devices found". Errors:
/// not_found when <root>/sys/class/net does not exist.
Result<Snapshot> sample_sysfs(const std::string& root);

}  // namespace rk::diagnose

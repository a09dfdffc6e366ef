// rocekit exporter: RoCE counters, link/PCIe/QoS state and rule outcomes of one host as
// Prometheus metrics (metrics.hpp lists every name). No printing, no exit, no sleeping: the CLI
// serves (server.hpp) or writes the text file.
//
// Every scrape reads the RDMA port counters (/sys/class/infiniband/<dev>/ports/<p>/{counters,
// hw_counters}) and, on the live host, `ethtool -S` (SIOCETHTOOL GSTATS) of the ports' netdevs.
// The configuration state (collect::collect_snapshot without counters) and the rule outcomes
// (rules::evaluate) are slower and change rarely: they are cached and refreshed every
// `state_interval_s` (rocekit_state_age_seconds says how old they are).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "rocekit/collect/host_view.hpp"
#include "rocekit/model/finding.hpp"
#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk::exporter {

class Exposition;

struct ExporterOptions {
  std::string root = "/";          ///< host root: "/" or a fixture tree (testdata/sysroots/<x>)
  /// Read the running kernel (ethtool GSTATS, dcbnl): only when `root` is this host's "/".
  bool kernel_ioctls = false;
  /// RDMA device names (ECMAScript regex, full match): read only matching devices / skip
  /// matching devices. nullopt = no filter.
  std::optional<std::regex> include_devices;
  std::optional<std::regex> exclude_devices;
  Policy policy;                   ///< for the rules and the RoCE/CNP priority
  double state_interval_s = 60;    ///< refresh of the cached state and rule outcomes (0 = every scrape)
  double backoff_initial_s = 300;  ///< first pause after a device's reads fail; doubles each time
  double backoff_max_s = 3600;
  std::string version;             ///< rk::version(), for rocekit_build_info
  /// Instead of the ethtool ioctl: `ethtool -S` text per netdev from DIR/ethtool_S@<netdev>.txt
  /// (the rocekit-capture file name), re-read every scrape. For replaying a capture and for
  /// fixture trees, which have no ethtool statistics. Empty = off.
  std::string ethtool_stats_dir;
  /// Monotonic clock in seconds (default: std::chrono::steady_clock). Tests inject one.
  std::function<double()> clock;
};

/// Widens a 32-bit hardware counter to a monotonic 64-bit one across scrapes (diagnose's wrap
/// rule: a decrease from below 2^32 whose wrapped delta is < 2^31 is a wrap; any other decrease
/// is a reset and adds the new value, a lower bound). 64-bit counters pass through unchanged.
class CounterWidener {
 public:
  /// The exported value for `key` (device/port/counter) after reading `raw`.
  std::uint64_t update(const std::string& key, std::string_view counter, std::uint64_t raw,
                       bool is_32bit);
  /// Forgets keys not updated since the previous call (devices that disappeared).
  void sweep();
  std::size_t size() const { return m_state.size(); }

 private:
  struct State {
    std::uint64_t last_raw = 0;
    std::uint64_t value = 0;
    bool seen = true;
  };
  std::map<std::string, State, std::less<>> m_state;
};

class Exporter {
 public:
  explicit Exporter(ExporterOptions options);

  /// One scrape: the whole exposition text (Prometheus text format 0.0.4). Thread-safe:
  /// concurrent callers are serialised, and a caller that waited while another scrape ran gets
  /// that scrape's text (one collection serves a burst of requests).
  std::string scrape();

  /// Statistics for tests and the bench.
  struct Stats {
    std::uint64_t scrapes = 0;        ///< collections actually run
    std::uint64_t state_refreshes = 0;
    std::size_t widened_counters = 0;
  };
  Stats stats() const;

  /// Records every file the counter reads open (HostView trace), for tests that prove a failed
  /// device is not re-read. nullptr: off.
  void set_trace(std::vector<std::string>* trace);

 private:
  struct DeviceHealth {
    double retry_at = 0;       ///< clock time when reads may be tried again
    double backoff_s = 0;      ///< current pause
    std::uint64_t failures = 0;
    std::string last_error;
  };
  std::string collect_locked(double now);
  void refresh_state(double now);
  bool included(const std::string& device) const;
  std::optional<std::string> read_counter_dir(
      const std::string& host_dir, const char* sub,
      std::vector<std::pair<std::string, std::pair<std::string, std::uint64_t>>>& out);

  ExporterOptions m_opt;
  collect::HostView m_host;
  mutable std::mutex m_mutex;
  std::string m_last_text;
  double m_last_started = -1;
  std::uint64_t m_generation = 0;
  // Cached state.
  std::optional<Snapshot> m_state;
  std::vector<Finding> m_findings;
  double m_state_at = 0;
  // Per-device health and counter state across scrapes.
  std::map<std::string, DeviceHealth> m_health;
  CounterWidener m_widener;
  std::map<std::string, std::uint64_t> m_errors;  ///< source -> count
  double m_last_duration_s = 0;
  Stats m_stats;
  std::vector<std::string>* m_trace = nullptr;
};

/// Per-priority and port metrics from one netdev's `ethtool -S` names (trimmed): appends
/// samples to `out` with `base` labels ({device, port, netdev}). Names not in the table are
/// ignored (bounded cardinality; no per-queue series). Returns the number of samples.
std::size_t add_ethtool_stats(Exposition& out, const std::vector<std::pair<std::string, std::string>>& base,
                              const std::map<std::string, std::uint64_t>& stats);

/// Writes `text` to DIR/rocekit.prom atomically (DIR/.rocekit.prom.<pid> then rename in the same
/// directory), mode 0644. Errors name the path: not_found (DIR missing), io.
struct WriteError {
  std::string path;
  std::string message;
};
std::optional<WriteError> write_textfile(const std::string& dir, const std::string& text);

}  // namespace rk::exporter

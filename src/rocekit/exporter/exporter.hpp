// rocekit exporter: RoCE counters, link/PCIe/QoS state and rule outcomes of one host as
// Prometheus metrics (metrics.hpp lists every name). No printing, no exit, no sleeping: the CLI
// serves (server.hpp) or writes the text file.
//
// Every scrape reads the RDMA port counters (/sys/class/infiniband/<dev>/ports/<p>/{counters,
// hw_counters}) and, on the live host, `ethtool -S` (SIOCETHTOOL GSTATS) of the ports' netdevs.
// The counter files are opened once (when a device is first seen and after each state refresh)
// and re-read with pread at offset 0, which makes sysfs regenerate the value: one syscall per
// counter instead of open/read/close and a path walk.
// The configuration state (collect::collect_snapshot without counters) and the rule outcomes
// (rules::evaluate) are slower and change rarely: they are cached and refreshed every
// `state_interval_s` (rocekit_state_age_seconds says how old they are).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>
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

/// One counter's widening state: a 32-bit hardware counter becomes a monotonic 64-bit one across
/// scrapes (diagnose's wrap rule: a decrease from below 2^32 whose wrapped delta is < 2^31 is a
/// wrap; any other decrease is a reset and adds the new value, a lower bound). 64-bit counters
/// pass through unchanged.
struct WidenedCounter {
  std::uint64_t last_raw = 0;
  std::uint64_t value = 0;
  bool primed = false;  ///< false until the first read
  /// The exported value after reading `raw` from the counter file named `counter`.
  std::uint64_t update(std::string_view counter, std::uint64_t raw, bool is_32bit);
};

/// A file descriptor owned by one object (closed on destruction; move-only).
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : m_fd(fd) {}
  Fd(Fd&& o) noexcept : m_fd(std::exchange(o.m_fd, -1)) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  int get() const { return m_fd; }

 private:
  int m_fd = -1;
};

class Exporter {
 public:
  explicit Exporter(ExporterOptions options);
  ~Exporter();
  Exporter(const Exporter&) = delete;
  Exporter& operator=(const Exporter&) = delete;

  /// One scrape: the whole exposition text (Prometheus text format 0.0.4). Thread-safe:
  /// concurrent callers are serialised, and a caller that waited while another scrape ran gets
  /// that scrape's text (one collection serves a burst of requests).
  std::string scrape();

  /// Statistics for tests and the bench.
  struct Stats {
    std::uint64_t scrapes = 0;        ///< collections actually run
    std::uint64_t state_refreshes = 0;
    std::size_t widened_counters = 0;  ///< counters with widening state (cached counter files)
    std::size_t open_counter_files = 0;  ///< counter files held open between scrapes
  };
  Stats stats() const;

  /// Whether `device` (an RDMA device name) passes --include-device/--exclude-device.
  bool included(const std::string& device) const;

  /// Records every file the counter reads open (HostView trace), for tests that prove a failed
  /// device is not re-read. nullptr: off.
  void set_trace(std::vector<std::string>* trace);

 private:
  /// One counter file of a port, held open between scrapes and re-read with pread at offset 0
  /// (sysfs regenerates an attribute on every read from offset 0).
  struct CachedCounter {
    std::string name;          ///< file name in counters/ or hw_counters/
    std::string path;          ///< filesystem path under the root (trace, errors, re-open)
    Fd fd;                     ///< -1 when over the descriptor budget: opened per read
    std::size_t family = 0;    ///< metric_index() of its metric
    std::string series;        ///< rendered `metric{labels}`
    std::uint64_t scale = 1;   ///< 4 for dword counters
    bool is_32bit = false;
    WidenedCounter widened;
  };
  struct CachedPort {
    std::string port, netdev;
    std::string labels_info_series, up_series, rate_series;
    std::string state_path, rate_path;
    Fd state_fd, rate_fd;
    std::vector<CachedCounter> counters;  ///< counters/ then hw_counters/, each sorted by name
  };
  struct CachedDevice {
    std::uint64_t state_generation = 0;  ///< the state its labels were rendered from
    std::vector<CachedPort> ports;
    /// Widening state of counters whose files were closed (read failure, back-off, ENODEV), by
    /// path: a 32-bit counter continues where it was instead of restarting at its raw value.
    /// Forgotten with the device when it leaves the listing.
    std::map<std::string, WidenedCounter> widening;
  };
  struct DeviceHealth {
    double retry_at = 0;       ///< clock time when reads may be tried again
    double backoff_s = 0;      ///< current pause
    std::uint64_t failures = 0;
    std::string last_error;
  };
  std::string collect_locked(double now);
  void refresh_state(double now);
  /// Lists and opens the counter files of `dev` (labels from the cached state), keeping the
  /// widening state of counters it already had. Errors: the first directory that could not be
  /// listed for a reason other than not-found.
  std::optional<std::string> build_device(const std::string& dev, CachedDevice& cache);
  /// Closes the device's held files (m_open_fds follows) and keeps the widening state of the
  /// counters read so far in cache.widening.
  void release(CachedDevice& cache);
  /// Reads one file of the cache: pread at 0 on the held descriptor, else open/read/close.
  /// Returns the bytes read or -errno.
  ssize_t read_cached(const Fd& fd, const std::string& path, char* buf, std::size_t size);

  ExporterOptions m_opt;
  collect::HostView m_host;
  mutable std::mutex m_mutex;
  std::string m_last_text;
  double m_last_started = -1;
  // Cached state and what is rendered from it once per refresh.
  std::optional<Snapshot> m_state;
  std::uint64_t m_state_generation = 0;
  std::unique_ptr<Exposition> m_state_out;
  double m_state_at = 0;
  // Per-device counter files, health and widening state across scrapes.
  std::map<std::string, CachedDevice> m_devices;
  std::map<std::string, DeviceHealth> m_health;
  std::size_t m_open_fds = 0;     ///< counter files held open
  std::size_t m_fd_budget = 0;    ///< most counter files held open (from RLIMIT_NOFILE)
  std::map<std::string, std::uint64_t> m_errors;  ///< source -> count
  /// The device listing that last forced a state refresh (see collect_locked).
  std::vector<std::string> m_listing_at_forced_refresh;
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

/// Removes DIR/.rocekit.prom.<pid> files left by a writer that was killed before its rename
/// (the process <pid> no longer exists). Returns how many were removed; errors are ignored.
std::size_t remove_stale_textfile_temps(const std::string& dir);

}  // namespace rk::exporter

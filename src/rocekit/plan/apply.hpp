// rocekit apply: runs a Plan on the live host through a StepRunner seam (tests use a fake),
// under an exclusive lock, after saving the values it changes to a state file; --rollback
// restores them. Nothing here prints; the CLI shows the returned log.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "rocekit/core/result.hpp"
#include "rocekit/plan/plan.hpp"

namespace rk::plan {

/// Every effect of apply goes through here: commands (argv, no shell) and sysfs writes.
class StepRunner {
 public:
  virtual ~StepRunner() = default;
  /// Runs argv; stdout on exit status 0. Errors: not_found, tool_failed (status), io.
  virtual Result<std::string> run(const std::vector<std::string>& argv) = 0;
  /// Writes `value` + "\n" into the file at absolute host path `path`.
  virtual Result<bool> write_file(const std::string& path, const std::string& value) = 0;
  /// Reads the file at absolute host path `path`.
  virtual Result<std::string> read_file(const std::string& path) = 0;
};

/// Runs real programs (posix_spawn of the first `search_dirs` match, no shell, stdin
/// /dev/null, in their own process group) and reads/writes files under `root` ("/" on a live
/// host). A command still running after `timeout` has its whole process group killed
/// (SIGKILL) and fails with tool_failed "timed out after <ms> ms (process group killed)".
std::unique_ptr<StepRunner> make_system_runner(std::vector<std::string> search_dirs,
                                               std::filesystem::path root,
                                               std::chrono::milliseconds timeout = std::chrono::seconds(120));

/// An exclusive flock(2) on `path`, held until destruction. Errors: io "another rocekit apply
/// holds <path>" when held elsewhere (LOCK_NB), or the open(2) error.
class ApplyLock {
 public:
  static Result<std::shared_ptr<ApplyLock>> acquire(const std::filesystem::path& path);
  ~ApplyLock();
  ApplyLock(const ApplyLock&) = delete;
  ApplyLock& operator=(const ApplyLock&) = delete;

 private:
  explicit ApplyLock(int fd) : m_fd(fd) {}
  int m_fd;
};

struct ApplyOptions {
  bool dry_run = false;        ///< log the steps, run and write nothing (no state file, no lock)
  bool firmware = false;       ///< include firmware_reboot (NV) steps; skipped otherwise
  /// Run steps that bounce a link or restart a netdev's queues (Action::disruption
  /// link_flap / channel_restart). Without it apply_plan refuses before touching anything and
  /// names the ports; firmware NV steps are gated by `firmware` (they act at the next reboot).
  bool allow_disruption = false;
  std::filesystem::path state_file;  ///< previous values, written before the first step
  std::filesystem::path lock_file = "/run/rocekit.lock";
};

struct ApplyReport {
  std::vector<std::string> log;   ///< one line per step / check / skip
  int steps_done = 0;             ///< steps whose read-back matched
  bool ok = true;                 ///< false: stopped at the first failure (see `error`)
  std::string error;
  bool reboot_needed = false;     ///< a firmware NV step ran: reboot or mstfwreset needed
};

/// Why `plan` does not describe the host under `root` ("/" live): its hostname
/// (root/proc/sys/kernel/hostname) differs, or a netdev (/sys/class/net/<n>), PCI function
/// (/sys/bus/pci/devices/<bdf>) or RDMA node GUIDs (/sys/class/infiniband/<dev>/node_guid) the
/// plan names is not there. Empty = same host. The sh and Ansible renderers run the same checks.
std::vector<std::string> identity_mismatches(const Plan& plan, const std::filesystem::path& root);

/// The ports whose steps would disrupt traffic and are not allowed by `opts`, as
/// "ens6f0 (pfc: link_flap); ens6f1 (mtu: channel_restart)"; "" = none (or allow_disruption).
std::string disruptive_ports(const Plan& plan, const ApplyOptions& opts);

/// Applies `plan` in order; stops at the first failed command or read-back. The state file
/// (JSON "rocekit-apply-state/1": the undo step of every action and how many were attempted)
/// is written before the first step and after each. Errors (nothing ran, nothing written):
/// a disruptive step without `allow_disruption` (unsupported, naming the ports), the lock is
/// held, the state file cannot be written.
Result<ApplyReport> apply_plan(const Plan& plan, const ApplyOptions& opts, StepRunner& runner);

/// Restores the values saved in `opts.state_file`, newest step first, under the same lock, and
/// reads each restored value back (the check command with the old value's regexes).
/// Errors: the state file is missing or malformed, the lock is held.
Result<ApplyReport> rollback(const ApplyOptions& opts, StepRunner& runner);

}  // namespace rk::plan

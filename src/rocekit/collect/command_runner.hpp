// CommandRunner: the only way the collector runs a program. It refuses anything that is not a
// read-only query form, so a bug or a crafted BDF can never turn a "read" into a write (the
// issue's history: helper scripts whose "query" changed firmware settings).
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "rocekit/core/result.hpp"

namespace rk::collect {

/// True when `argv` is exactly `{mstconfig|mlxconfig, "-d", <PCI address>, "-e", "q"}` (also
/// `query` for `q`), `{devlink, port, show}` or `{devlink, dev, eswitch, show, pci/<PCI
/// address>}` (iproute2's read forms). Nothing else is a query form: no `set`, `reset`, `-y`,
/// extra words, or a device that is not a dddd:bb:dd.f / bb:dd.f address.
bool is_query_form(const std::vector<std::string>& argv);

/// Runs allowed commands. `run` checks the query form and then calls `do_run`; subclasses
/// cannot bypass the check.
class CommandRunner {
 public:
  virtual ~CommandRunner() = default;

  /// The command's standard output. Errors: permission_denied "not a query form: ..." for a
  /// refused command (nothing runs), not_found when the tool is not installed, tool_failed
  /// (exit status, first stderr line) or unsupported (this runner runs nothing).
  Result<std::string> run(const std::vector<std::string>& argv);

  /// How many commands were actually started (refused ones are not counted).
  int started() const { return m_started; }

 protected:
  virtual Result<std::string> do_run(const std::vector<std::string>& argv) = 0;

 private:
  int m_started = 0;
};

/// Runs nothing: every allowed command answers `unsupported` with `why` ("vendor tools not
/// requested"). The default for `rocekit collect`: no process is spawned.
class NoToolsRunner : public CommandRunner {
 public:
  explicit NoToolsRunner(std::string why) : m_why(std::move(why)) {}

 protected:
  Result<std::string> do_run(const std::vector<std::string>& argv) override;

 private:
  std::string m_why;
};

/// Answers from a table of canned outputs keyed by the command line joined with spaces (tests,
/// replaying a recorded host). Missing key: not_found "<tool>: not installed".
class ReplayRunner : public CommandRunner {
 public:
  explicit ReplayRunner(std::map<std::string, std::string> outputs) : m_outputs(std::move(outputs)) {}

 protected:
  Result<std::string> do_run(const std::vector<std::string>& argv) override;

 private:
  std::map<std::string, std::string> m_outputs;
};

/// Runs the real program (posix_spawn, no shell), looked up in `search_dirs` (absolute
/// directories; the library reads no environment). Stdout is returned; a command that runs
/// longer than `timeout` is killed and reported as tool_failed.
class SystemRunner : public CommandRunner {
 public:
  explicit SystemRunner(std::vector<std::string> search_dirs,
                        std::chrono::milliseconds timeout = std::chrono::seconds(30));

 protected:
  Result<std::string> do_run(const std::vector<std::string>& argv) override;

 private:
  std::vector<std::string> m_dirs;
  std::chrono::milliseconds m_timeout;
};

}  // namespace rk::collect

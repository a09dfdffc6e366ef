// apply_plan / rollback: ordered execution with read-back, a state file written before the first
// change, and an flock(2) so that two applies never interleave on one host.
#include "rocekit/plan/apply.hpp"
#include "rocekit/core/text.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

extern char** environ;

namespace rk::plan {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& w : v) out += (out.empty() ? "" : " ") + shell_quote(w);
  return out;
}

class SystemStepRunner : public StepRunner {
 public:
  SystemStepRunner(std::vector<std::string> dirs, std::filesystem::path root,
                   std::chrono::milliseconds timeout)
      : m_dirs(std::move(dirs)), m_root(std::move(root)), m_timeout(timeout) {}

  Result<std::string> run(const std::vector<std::string>& argv) override {
    if (argv.empty()) return unexpected(ErrorKind::malformed_input, "empty command");
    std::string exe;
    for (const std::string& d : m_dirs) {
      std::filesystem::path p = std::filesystem::path(d) / argv[0];
      if (::access(p.c_str(), X_OK) == 0) {
        exe = p;
        break;
      }
    }
    if (exe.empty()) return unexpected(ErrorKind::not_found, argv[0] + ": not installed", join(argv));
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) return unexpected(ErrorKind::io, std::strerror(errno), join(argv));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // Its own process group, so that a timeout kills the tool and everything it started.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid = 0;
    int rc = ::posix_spawn(&pid, exe.c_str(), &fa, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ::close(out[1]);
    if (rc != 0) {
      ::close(out[0]);
      return unexpected(ErrorKind::io, std::strerror(rc), join(argv));
    }
    std::string text;
    char buf[4096];
    auto deadline = std::chrono::steady_clock::now() + m_timeout;
    bool timed_out = false;
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        timed_out = true;
        break;
      }
      pollfd pfd{out[0], POLLIN, 0};
      int pr = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
      if (pr < 0 && errno == EINTR) continue;
      if (pr <= 0) continue;  // poll timeout slice: re-check the deadline
      ssize_t n = ::read(out[0], buf, sizeof buf);
      if (n > 0) text.append(buf, static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR) break;
    }
    ::close(out[0]);
    int status = 0;
    if (timed_out) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return unexpected(ErrorKind::tool_failed,
                        "timed out after " + std::to_string(m_timeout.count()) +
                            " ms (process group killed)",
                        join(argv));
    }
    // The tool closed stdout; a grandchild may still run in its group: wait for the tool only.
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      return unexpected(ErrorKind::tool_failed,
                        "exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1),
                        join(argv));
    return text;
  }

  Result<bool> write_file(const std::string& path, const std::string& value) override {
    std::ofstream f(m_root / std::filesystem::path(path).relative_path());
    if (!f) return unexpected(ErrorKind::io, std::strerror(errno), "writing " + path);
    f << value << "\n";
    f.close();
    if (!f) return unexpected(ErrorKind::io, "write failed", "writing " + path);
    return true;
  }

  Result<std::string> read_file(const std::string& path) override {
    std::ifstream f(m_root / std::filesystem::path(path).relative_path());
    if (!f) return unexpected(ErrorKind::io, std::strerror(errno), "reading " + path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }

 private:
  std::vector<std::string> m_dirs;
  std::filesystem::path m_root;
  std::chrono::milliseconds m_timeout;
};

bool matches_all(const std::string& text, const std::vector<std::string>& regexes, std::string& bad) {
  for (const std::string& r : regexes) {
    std::regex re;
    try {
      re = std::regex(r, std::regex::extended);
    } catch (const std::regex_error&) {
      bad = r + " (not a valid regular expression)";
      return false;
    }
    bool hit = false;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      if (std::regex_search(line, re)) {
        hit = true;
        break;
      }
    if (!hit) {
      bad = r;
      return false;
    }
  }
  return true;
}

/// One step of apply or rollback: a command or a file write, and its read-back.
struct Step {
  std::string title;
  std::vector<std::string> argv;
  std::optional<std::string> write_path;
  std::string write_value;
  std::vector<std::string> check_argv;
  std::vector<std::string> check_regex;
};

/// Runs one step; false (report filled) on failure.
bool run_step(const Step& s, bool dry_run, StepRunner& r, ApplyReport& rep) {
  rep.log.push_back("step: " + s.title);
  if (s.write_path)
    rep.log.push_back("  write " + shell_quote(s.write_value) + " > " + shell_quote(*s.write_path));
  else
    rep.log.push_back("  $ " + join(s.argv));
  if (dry_run) return true;
  auto fail = [&](const std::string& why) {
    rep.ok = false;
    rep.error = s.title + ": " + why;
    rep.log.push_back("  FAILED: " + why);
    return false;
  };
  if (s.write_path) {
    if (Result<bool> w = r.write_file(*s.write_path, s.write_value); !w) return fail(w.error().message);
  } else if (Result<std::string> o = r.run(s.argv); !o) {
    return fail(o.error().message);
  }
  if (s.check_regex.empty()) return true;
  Result<std::string> back = s.write_path ? r.read_file(*s.write_path) : r.run(s.check_argv);
  if (!back) return fail("read-back: " + back.error().message);
  std::string bad;
  if (!matches_all(*back, s.check_regex, bad)) return fail("read-back does not match " + bad);
  rep.log.push_back("  read-back ok");
  return true;
}

nlohmann::json undo_json(const Action& a) {
  nlohmann::json j{{"rule", a.rule}, {"subject", a.subject}, {"restore", a.current},
                   {"scope", std::string(to_string(a.scope))}};
  if (a.write_path) {
    j["write"] = {{"path", *a.write_path}, {"value", a.undo_write_value}};
  } else {
    j["argv"] = a.undo_argv;
    j["check_argv"] = a.check_argv;
  }
  j["check_regex"] = a.undo_check_regex;
  return j;
}

Result<bool> save_state(const std::filesystem::path& path, const nlohmann::json& state) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  std::error_code mk;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), mk);
  if (mk) return unexpected(ErrorKind::io, mk.message(), "creating " + path.parent_path().string());
  {
    std::ofstream f(tmp);
    if (!f) return unexpected(ErrorKind::io, std::strerror(errno), "writing " + tmp.string());
    f << state.dump(2) << "\n";
    if (!f) return unexpected(ErrorKind::io, "write failed", "writing " + tmp.string());
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return unexpected(ErrorKind::io, ec.message(), "renaming " + tmp.string());
  return true;
}

}  // namespace

std::unique_ptr<StepRunner> make_system_runner(std::vector<std::string> search_dirs,
                                               std::filesystem::path root,
                                               std::chrono::milliseconds timeout) {
  return std::make_unique<SystemStepRunner>(std::move(search_dirs), std::move(root), timeout);
}

Result<std::shared_ptr<ApplyLock>> ApplyLock::acquire(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return unexpected(ErrorKind::io, std::strerror(errno), "opening lock " + path.string());
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    ::close(fd);
    if (e == EWOULDBLOCK)
      return unexpected(ErrorKind::io, "another rocekit apply holds " + path.string(), "locking");
    return unexpected(ErrorKind::io, std::strerror(e), "locking " + path.string());
  }
  return std::shared_ptr<ApplyLock>(new ApplyLock(fd));
}

ApplyLock::~ApplyLock() { ::close(m_fd); }

namespace {

std::string read_trimmed(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::string s;
  if (!f || !std::getline(f, s)) return {};
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

}  // namespace

std::vector<std::string> identity_mismatches(const Plan& plan, const std::filesystem::path& root) {
  std::vector<std::string> out;
  auto at = [&](const std::string& abs) { return root / std::filesystem::path(abs).relative_path(); };
  std::string here = read_trimmed(at("/proc/sys/kernel/hostname"));
  if (plan.hostname.empty())
    out.push_back("the plan names no host (the input had no hostname)");
  else if (here != plan.hostname)
    out.push_back("the plan is for host '" + plan.hostname + "', this host is '" +
                  (here.empty() ? std::string("(hostname unreadable)") : here) + "'");
  std::error_code ec;
  for (const std::string& n : plan.identity.netdevs)
    if (!std::filesystem::exists(at("/sys/class/net/" + n), ec))
      out.push_back("netdev " + n + " named by the plan is not on this host");
  for (const std::string& b : plan.identity.bdfs)
    if (!std::filesystem::exists(at("/sys/bus/pci/devices/" + b), ec))
      out.push_back("PCI function " + b + " named by the plan is not on this host");
  for (const auto& [dev, guid] : plan.identity.node_guids) {
    std::string have = read_trimmed(at("/sys/class/infiniband/" + dev + "/node_guid"));
    if (node_guid_hex(have) != node_guid_hex(guid))
      out.push_back("RDMA device " + dev + " has node GUID " + (have.empty() ? "(none)" : have) +
                    " on this host, the plan's host has " + guid);
  }
  return out;
}

std::string disruptive_ports(const Plan& plan, const ApplyOptions& opts) {
  if (opts.allow_disruption) return {};
  std::string list;
  for (const PortDisruption& d : disruption_summary(plan)) {
    std::string causes;
    for (const Action& a : plan.actions)
      if (a.subject == d.subject &&
          (a.disruption == Disruption::link_flap || a.disruption == Disruption::channel_restart) &&
          (a.scope != FixScope::firmware_reboot || opts.firmware))
        causes += (causes.empty() ? "" : ", ") + std::string(to_string(a.kind)) + ": " +
                  std::string(to_string(a.disruption));
    if (!causes.empty()) list += (list.empty() ? "" : "; ") + d.subject + " (" + causes + ")";
  }
  return list;
}

Result<ApplyReport> apply_plan(const Plan& plan, const ApplyOptions& opts, StepRunner& runner) {
  ApplyReport rep;
  std::vector<const Action*> todo;
  for (const Action& a : plan.actions) {
    if (a.scope == FixScope::firmware_reboot && !opts.firmware) {
      rep.log.push_back("skip (needs --firmware): " + a.rule + " " + a.subject);
      continue;
    }
    todo.push_back(&a);
  }
  // A firmware step without an image (only reached with --firmware): refuse before anything runs.
  if (opts.firmware) {
    std::vector<std::string> missing = missing_firmware_images(plan);
    if (!missing.empty() && !opts.dry_run)
      return unexpected(ErrorKind::unsupported, missing.front() + "; nothing was changed", "apply");
    for (const std::string& m : missing) rep.log.push_back("would refuse: " + m);
  }
  if (std::string ports = disruptive_ports(plan, opts); !ports.empty()) {
    if (!opts.dry_run)
      return unexpected(ErrorKind::unsupported,
                        "refusing to disrupt traffic without --allow-disruption: " + ports +
                            ". Drain the ports (or use a maintenance window) and pass "
                            "--allow-disruption; nothing was changed",
                        "apply");
    rep.log.push_back("would disrupt traffic (needs --allow-disruption): " + ports);
  }
  if (opts.dry_run) rep.log.push_back("DRY RUN: nothing is changed");
  std::shared_ptr<ApplyLock> lock;
  nlohmann::json state{{"schema", "rocekit-apply-state/1"}, {"hostname", plan.hostname},
                       {"attempted", 0}, {"steps", nlohmann::json::array()}};
  if (!opts.dry_run) {
    Result<std::shared_ptr<ApplyLock>> l = ApplyLock::acquire(opts.lock_file);
    if (!l) return unexpected(l.error());
    lock = *l;
    for (const Action* a : todo) state["steps"].push_back(undo_json(*a));
    if (Result<bool> s = save_state(opts.state_file, state); !s) return unexpected(s.error());
  }
  int n = 0;
  for (const Action* a : todo) {
    Step s{a->rule + " " + a->subject + ": " + a->current + " -> " + a->desired,
           a->argv, a->write_path, a->write_value, a->check_argv, a->check_regex};
    if (!opts.dry_run) {
      state["attempted"] = ++n;
      if (Result<bool> w = save_state(opts.state_file, state); !w) return unexpected(w.error());
    }
    if (!run_step(s, opts.dry_run, runner, rep)) break;
    if (!opts.dry_run) {
      ++rep.steps_done;
      if (a->scope == FixScope::firmware_reboot) rep.reboot_needed = true;
    }
  }
  if (rep.reboot_needed) {
    rep.log.push_back("firmware NV settings changed: reboot the host or run mstfwreset to apply them");
    // A BlueField's step reads its operation mode back (plan.cpp guard_bluefield_mode); a reset
    // can change the mode, so it is read again after the reset (issue 22).
    for (const Action* a : todo)
      if (a->scope == FixScope::firmware_reboot &&
          std::find(a->check_argv.begin(), a->check_argv.end(), "INTERNAL_CPU_MODEL") != a->check_argv.end())
        rep.log.push_back("BlueField " + a->subject + ": after the reset, read the operation mode back: " +
                          join(a->check_argv));
  }
  return rep;
}

Result<ApplyReport> rollback(const ApplyOptions& opts, StepRunner& runner) {
  std::ifstream f(opts.state_file);
  if (!f) return unexpected(ErrorKind::not_found, std::strerror(errno), opts.state_file.string());
  nlohmann::json state = nlohmann::json::parse(f, nullptr, false);
  if (state.is_discarded() || state.value("schema", "") != "rocekit-apply-state/1" ||
      !state.contains("steps") || !state["steps"].is_array() || !state.contains("attempted"))
    return unexpected(ErrorKind::malformed_input, "not a rocekit apply state file",
                      opts.state_file.string());
  ApplyReport rep;
  std::shared_ptr<ApplyLock> lock;
  if (!opts.dry_run) {
    Result<std::shared_ptr<ApplyLock>> l = ApplyLock::acquire(opts.lock_file);
    if (!l) return unexpected(l.error());
    lock = *l;
  }
  const auto& steps = state["steps"];
  std::size_t attempted = std::min<std::size_t>(state["attempted"].get<std::size_t>(), steps.size());
  try {
    for (std::size_t i = attempted; i-- > 0;) {
      const auto& j = steps[i];
      Step s;
      s.title = "restore " + j.at("rule").get<std::string>() + " " + j.at("subject").get<std::string>() +
                " to " + j.at("restore").get<std::string>();
      if (j.contains("write")) {
        s.write_path = j["write"].at("path").get<std::string>();
        s.write_value = j["write"].at("value").get<std::string>();
      } else {
        s.argv = j.at("argv").get<std::vector<std::string>>();
        if (s.argv.empty()) {
          rep.log.push_back("not restorable (previous value unknown): " + s.title);
          continue;
        }
        if (j.contains("check_argv")) s.check_argv = j["check_argv"].get<std::vector<std::string>>();
      }
      // Read back the restored value (state files from before this field: no read-back).
      if (j.contains("check_regex")) s.check_regex = j["check_regex"].get<std::vector<std::string>>();
      if (!s.write_path && s.check_argv.empty()) s.check_regex.clear();
      if (!run_step(s, opts.dry_run, runner, rep)) break;
      if (!opts.dry_run) ++rep.steps_done;
    }
  } catch (const nlohmann::json::exception& e) {
    return unexpected(ErrorKind::malformed_input, "bad state file: " + text::json_error_message(e.what()), opts.state_file.string());
  }
  return rep;
}

}  // namespace rk::plan

#include "rocekit/collect/command_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "rocekit/model/snapshot.hpp"

extern char** environ;

namespace rk::collect {

namespace {

std::string join(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

}  // namespace

namespace {

/// A PCI address as the query forms take it: hex digits, ':' and '.', normalisable.
bool is_bdf_word(const std::string& dev) {
  if (dev.empty() || dev.front() == '-') return false;
  for (char ch : dev)
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F') ||
          ch == ':' || ch == '.'))
      return false;
  return normalize_bdf(dev).has_value();
}

}  // namespace

bool is_query_form(const std::vector<std::string>& argv) {
  // iproute2 devlink's read forms (devlink/devlink.c cmd_port_show, cmd_dev_eswitch_show).
  if (!argv.empty() && argv[0] == "devlink") {
    if (argv == std::vector<std::string>{"devlink", "port", "show"}) return true;
    return argv.size() == 5 && argv[1] == "dev" && argv[2] == "eswitch" && argv[3] == "show" &&
           argv[4].starts_with("pci/") && is_bdf_word(argv[4].substr(4));
  }
  if (argv.size() != 5) return false;
  if (argv[0] != "mstconfig" && argv[0] != "mlxconfig") return false;
  if (argv[1] != "-d" || argv[3] != "-e" || (argv[4] != "q" && argv[4] != "query")) return false;
  return is_bdf_word(argv[2]);
}

Result<std::string> CommandRunner::run(const std::vector<std::string>& argv) {
  if (!is_query_form(argv))
    return unexpected(ErrorKind::permission_denied,
                      "not a query form: only `mstconfig|mlxconfig -d <BDF> -e q`, `devlink port show` "
                      "and `devlink dev eswitch show pci/<BDF>` may run",
                      join(argv));
  ++m_started;
  return do_run(argv);
}

Result<std::string> NoToolsRunner::do_run(const std::vector<std::string>& argv) {
  return unexpected(ErrorKind::unsupported, m_why, join(argv));
}

Result<std::string> ReplayRunner::do_run(const std::vector<std::string>& argv) {
  auto it = m_outputs.find(join(argv));
  if (it == m_outputs.end())
    return unexpected(ErrorKind::not_found, argv[0] + ": not installed", join(argv));
  return it->second;
}

SystemRunner::SystemRunner(std::vector<std::string> search_dirs, std::chrono::milliseconds timeout)
    : m_dirs(std::move(search_dirs)), m_timeout(timeout) {}

Result<std::string> SystemRunner::do_run(const std::vector<std::string>& argv) {
  std::string exe;
  for (const std::string& d : m_dirs) {
    std::string cand = d + "/" + argv[0];
    if (!d.empty() && d.front() == '/' && ::access(cand.c_str(), X_OK) == 0) {
      exe = cand;
      break;
    }
  }
  if (exe.empty())
    return unexpected(ErrorKind::not_found,
                      argv[0] + (argv[0] == "devlink" ? ": not installed (iproute2)" : ": not installed (MFT / mstflint)"),
                      join(argv));
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return unexpected(ErrorKind::io, std::strerror(errno), join(argv));
  // Standard error to a second pipe, read once the command is done: its first line says why a
  // command failed ("kernel answers: Operation not supported"). The read end alone is
  // non-blocking; a command that fills the pipe without closing stdout runs into the timeout.
  int err[2];
  if (::pipe2(err, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(out[0]);
    ::close(out[1]);
    return unexpected(ErrorKind::io, std::strerror(e), join(argv));
  }
  ::fcntl(err[0], F_SETFL, ::fcntl(err[0], F_GETFL) | O_NONBLOCK);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, exe.c_str(), &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(out[0]);
    ::close(err[0]);
    return unexpected(ErrorKind::tool_failed, std::string("cannot start: ") + std::strerror(rc), join(argv));
  }
  std::string text;
  bool timed_out = false;
  auto deadline = std::chrono::steady_clock::now() + m_timeout;
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    int pr = ::poll(&p, 1, static_cast<int>(left.count()));
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) {
      timed_out = pr == 0;
      break;
    }
    ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > 16u * 1024 * 1024) break;
  }
  ::close(out[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string errtext;
  for (ssize_t n; errtext.size() < 4096 && (n = ::read(err[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;  // EAGAIN: nothing more
    errtext.append(buf, static_cast<std::size_t>(n));
  }
  ::close(err[0]);
  if (timed_out) return unexpected(ErrorKind::tool_failed, "timed out, killed", join(argv));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string first = errtext.substr(0, errtext.find('\n'));
    return unexpected(ErrorKind::tool_failed,
                      "exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                          (first.empty() ? "" : ": " + first),
                      join(argv));
  }
  return text;
}

}  // namespace rk::collect

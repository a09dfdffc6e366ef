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

bool is_query_form(const std::vector<std::string>& argv) {
  if (argv.size() != 5) return false;
  if (argv[0] != "mstconfig" && argv[0] != "mlxconfig") return false;
  if (argv[1] != "-d" || argv[3] != "-e" || (argv[4] != "q" && argv[4] != "query")) return false;
  const std::string& dev = argv[2];
  if (dev.empty() || dev.front() == '-') return false;
  for (char ch : dev)
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F') ||
          ch == ':' || ch == '.'))
      return false;
  return normalize_bdf(dev).has_value();
}

Result<std::string> CommandRunner::run(const std::vector<std::string>& argv) {
  if (!is_query_form(argv))
    return unexpected(ErrorKind::permission_denied,
                      "not a query form: only `mstconfig|mlxconfig -d <BDF> -e q` may run",
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
    return unexpected(ErrorKind::not_found, argv[0] + ": not installed (MFT / mstflint)", join(argv));
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return unexpected(ErrorKind::io, std::strerror(errno), join(argv));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, exe.c_str(), &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(out[1]);
  if (rc != 0) {
    ::close(out[0]);
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
  if (timed_out) return unexpected(ErrorKind::tool_failed, "timed out, killed", join(argv));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return unexpected(ErrorKind::tool_failed,
                      "exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1),
                      join(argv));
  return text;
}

}  // namespace rk::collect

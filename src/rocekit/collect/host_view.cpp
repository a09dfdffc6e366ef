#include "rocekit/collect/host_view.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace rk::collect {

namespace {

Error errno_error(int err, const std::string& path) {
  if (err == ENOENT || err == ENOTDIR) return Error{ErrorKind::not_found, "not found", path};
  if (err == EACCES || err == EPERM)
    return Error{ErrorKind::permission_denied, "needs root (permission denied)", path};
  return Error{ErrorKind::io, std::strerror(err), path};
}

/// Closes the fd on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

HostView::HostView(std::filesystem::path root) : m_root(std::move(root)) {
  std::error_code ec;
  std::filesystem::path real = std::filesystem::canonical(m_root, ec);
  m_real_root = ec ? std::string() : real.string();
  m_prefix = m_root.empty() ? std::string(".") : m_root.string();
  while (!m_prefix.empty() && m_prefix.back() == '/') m_prefix.pop_back();
}

std::string HostView::host_path(const std::string& path) const {
  if (path.empty() || path.front() != '/') return m_prefix + "/" + path;
  return m_prefix + path;
}

Result<std::size_t> HostView::read_into(const std::string& path, std::uint8_t* buf,
                                        std::size_t max_bytes) const {
  const std::string p = host_path(path);
  if (m_trace) m_trace->push_back(p);
  Fd f{::open(p.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) return unexpected(errno_error(errno, path));
  std::size_t got = 0;
  const bool sysfs = path.rfind("/sys/", 0) == 0;
  while (got < max_bytes) {
    ssize_t n = ::read(f.fd, buf + got, max_bytes - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return unexpected(errno_error(errno, path));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    // sysfs returns an attribute in one read: stop without the extra read that would only
    // return 0. (procfs seq_files may return a page at a time, so keep reading those.)
    if (got < max_bytes && sysfs) break;
  }
  return got;
}

Result<std::vector<std::uint8_t>> HostView::read_bytes(const std::string& path,
                                                       std::size_t max_bytes) const {
  std::vector<std::uint8_t> out(max_bytes);
  Result<std::size_t> got = read_into(path, out.data(), max_bytes);
  if (!got) return unexpected(got.error());
  out.resize(*got);
  return out;
}

Result<std::string> HostView::read_text(const std::string& path) const {
  // A stack buffer: most attributes are a few bytes, so neither allocate nor zero 64 KiB per read.
  std::uint8_t buf[64 * 1024];
  Result<std::size_t> got = read_into(path, buf, sizeof buf);
  if (!got) return unexpected(got.error());
  std::size_t n = *got;
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r')) --n;
  return std::string(reinterpret_cast<const char*>(buf), n);
}

Result<std::vector<std::string>> HostView::list_dir(const std::string& path) const {
  // opendir/readdir directly: no std::filesystem::path object per entry.
  const std::string p = host_path(path);
  if (m_op_trace) m_op_trace->emplace_back('l', p);
  DIR* dir = ::opendir(p.c_str());
  if (dir == nullptr) return unexpected(errno_error(errno, path));
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* e = ::readdir(dir)) {
    const char* n = e->d_name;
    if (n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0))) continue;
    names.emplace_back(n);
  }
  int err = errno;
  ::closedir(dir);
  if (err != 0) return unexpected(errno_error(err, path));
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::string> HostView::resolve(const std::string& path) const {
  std::error_code ec;
  if (m_op_trace) m_op_trace->emplace_back('c', host_path(path));
  std::filesystem::path real = std::filesystem::canonical(host_path(path), ec);
  if (ec) return unexpected(errno_error(ec.value(), path));
  if (m_real_root.empty()) return unexpected(ErrorKind::not_found, "root not found", m_root.string());
  std::string r = real.string();
  const std::string& rs = m_real_root;
  if (rs == "/") return r;
  if (r.size() < rs.size() || r.compare(0, rs.size(), rs) != 0 ||
      (r.size() > rs.size() && r[rs.size()] != '/'))
    return unexpected(ErrorKind::io, "link leads outside the root " + rs, path);
  std::string host = r.substr(rs.size());
  return host.empty() ? std::string("/") : host;
}

Result<std::string> HostView::resolve_device_link(const std::string& path) const {
  Result<std::string> target = read_link(path);
  if (!target) {
    if (target.error().kind == ErrorKind::io) return resolve(path);  // not a symlink
    return target;
  }
  // Join the target to the link's directory and fold "." and ".." lexically.
  std::vector<std::string_view> parts;
  auto push = [&](std::string_view s) {
    std::size_t i = 0;
    while (i <= s.size()) {
      std::size_t j = s.find('/', i);
      if (j == std::string_view::npos) j = s.size();
      std::string_view c = s.substr(i, j - i);
      if (c == "..") {
        if (parts.empty()) return false;
        parts.pop_back();
      } else if (!c.empty() && c != ".") {
        parts.push_back(c);
      }
      i = j + 1;
    }
    return true;
  };
  const std::string& t = *target;
  bool inside = true;
  if (t.empty() || t.front() != '/') inside = push(std::string_view(path).substr(0, path.rfind('/')));
  if (inside) inside = push(t);
  if (!inside) return unexpected(ErrorKind::io, "link leads outside the root", path);
  std::string out;
  for (std::string_view c : parts) {
    out += '/';
    out += c;
  }
  return out.empty() ? std::string("/") : out;
}

Result<std::string> HostView::read_link(const std::string& path) const {
  const std::string p = host_path(path);
  if (m_op_trace) m_op_trace->emplace_back('k', p);
  char buf[4096];
  ssize_t n = ::readlink(p.c_str(), buf, sizeof buf);
  if (n < 0) {
    if (errno == EINVAL) return unexpected(ErrorKind::io, "not a symlink", path);
    return unexpected(errno_error(errno, path));
  }
  return std::string(buf, static_cast<std::size_t>(n));
}

bool HostView::exists(const std::string& path) const {
  const std::string p = host_path(path);
  if (m_op_trace) m_op_trace->emplace_back('s', p);
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

}  // namespace rk::collect

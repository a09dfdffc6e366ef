// HostView: every file read of the live collector goes through here, so tests point the
// collector at a fixture tree (testdata/sysroots/<name>/) instead of "/" (STYLE.md §9.5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "rocekit/core/result.hpp"

namespace rk::collect {

/// A read-only view of a host's /sys, /proc, configfs and debugfs under `root` ("/" = this
/// host). Paths given to the methods are absolute host paths ("/sys/class/net/eth0/mtu"); errors
/// name the host path, never the fixture path. Symlinks are followed inside the root only (the
/// fixture trees use relative links, as sysfs does).
class HostView {
 public:
  explicit HostView(std::filesystem::path root = "/");

  const std::filesystem::path& root() const { return m_root; }

  /// Reads a small text attribute (at most 64 KiB), without trailing newlines/whitespace.
  /// Errors: not_found (ENOENT), permission_denied (EACCES/EPERM: message "needs root"), io.
  Result<std::string> read_text(const std::string& path) const;

  /// Reads up to `max_bytes` raw bytes (PCI config space). Same errors as read_text.
  Result<std::vector<std::uint8_t>> read_bytes(const std::string& path, std::size_t max_bytes) const;

  /// Names in a directory, sorted; "." and ".." excluded. Errors as read_text.
  Result<std::vector<std::string>> list_dir(const std::string& path) const;

  /// The host path a symlink (or a path containing symlinks) resolves to, e.g.
  /// "/sys/class/net/eth0/device" -> "/sys/devices/pci0000:00/0000:00:03.0/virtio2".
  /// Errors: not_found, or io when the link leaves the root.
  Result<std::string> resolve(const std::string& path) const;

  /// The host path a sysfs device link leads to, with one readlink and lexical joining instead
  /// of canonical()'s lstat per component: "/sys/bus/pci/devices/0000:18:00.0" ->
  /// "/sys/devices/pci0000:15/0000:15:01.0/.../0000:18:00.0". Valid for links whose directory
  /// (here /sys/bus/pci/devices) holds no symlink and whose target's components are directories,
  /// as the kernel lays out /sys/bus/*/devices and the fixture trees copy; falls back to resolve()
  /// when `path` is not a symlink. Errors: not_found, or io when the target leaves the root.
  Result<std::string> resolve_device_link(const std::string& path) const;

  /// The target of one symlink as stored ("../../../0000:2f:00.0"), one readlink and no
  /// resolution. Errors: not_found, io "not a symlink" (EINVAL), permission_denied.
  Result<std::string> read_link(const std::string& path) const;

  /// True when the path exists (following links).
  bool exists(const std::string& path) const;

  /// Records every host path read_bytes/read_text opens into `*trace` (nullptr: off). For the
  /// benchmark's floor loop, which reads exactly the same files.
  void set_trace(std::vector<std::string>* trace) { m_trace = trace; }

  /// Records every other filesystem operation as (kind, root path): 'l' list_dir (opendir +
  /// readdir), 'k' read_link (readlink), 's' exists (stat), 'c' resolve (canonical). For the
  /// benchmark's second floor, which also replays these.
  void set_op_trace(std::vector<std::pair<char, std::string>>* trace) { m_op_trace = trace; }

 private:
  /// The path under the root as one string (no std::filesystem::path: appending one splits the
  /// path into components, an allocation each, on every read).
  std::string host_path(const std::string& path) const;
  /// Opens and reads up to `max_bytes` into `buf` (one read for sysfs); bytes read.
  Result<std::size_t> read_into(const std::string& path, std::uint8_t* buf, std::size_t max_bytes) const;
  std::filesystem::path m_root;
  std::string m_prefix;     ///< m_root without trailing '/' ("" for "/"): host_path() = m_prefix + path
  std::string m_real_root;  ///< canonical root, resolved once; empty when it does not exist
  std::vector<std::string>* m_trace = nullptr;
  std::vector<std::pair<char, std::string>>* m_op_trace = nullptr;
};

}  // namespace rk::collect

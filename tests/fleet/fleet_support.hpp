// Helpers of the rk_fleet tests: a temporary directory, capture copies edited line by line,
// lookups in a FleetReport.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/fleet/fleet.hpp"

namespace rk::fleet::test {

namespace fs = std::filesystem;

inline fs::path td() { return rk::test::testdata_dir(); }

/// A fresh temporary directory, removed by the destructor.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("rk-fleet-test-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(counter()++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  static int& counter() {
    static int n = 0;
    return n;
  }
};

inline void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Copies the capture directory `from` (relative to testdata/) to `to`.
inline void copy_capture(const std::string& from, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy(td() / from, to, fs::copy_options::recursive);
}

/// Replaces the one occurrence of `from` in file `p` with `to` (a test failure when absent).
inline void edit_line(const fs::path& p, std::string_view from, std::string_view to) {
  std::string t = read_text(p);
  auto at = t.find(from);
  ASSERT_NE(at, std::string::npos) << p << " has no \"" << from << "\"";
  t.replace(at, from.size(), to);
  write_text(p, t);
}

inline const Consistency* find_check(const FleetReport& r, std::string_view rule, std::string_view setting = {},
                                     std::string_view group = {}) {
  for (const Consistency& c : r.cross.checks)
    if (c.rule == rule && (setting.empty() || c.setting == setting) && (group.empty() || c.group == group))
      return &c;
  return nullptr;
}

}  // namespace rk::fleet::test

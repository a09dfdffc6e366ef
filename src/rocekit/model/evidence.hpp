// Evidence: where a snapshot value was read (used by snapshot.hpp and the model parts it includes).
#pragma once

#include <cstddef>
#include <string>

namespace rk {

/// Where a value was read: a capture file and 1-based line (line 0 = whole file), or a sysfs
/// path / command for live collection, with the decisive text.
struct Evidence {
  std::string file;
  std::size_t line = 0;
  std::string text;
};

}  // namespace rk

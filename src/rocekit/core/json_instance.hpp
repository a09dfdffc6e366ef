// nlohmann::json, included once for every target as its precompiled header (CMakeLists.txt),
// and instantiated once: basic_json<>'s members are compiled in json_instance.cpp instead of
// in each of the ~300 translation units that build or read JSON (a third of each unit's
// compile time under ASan+UBSan; docs/benchmarks.md, "Build time").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

extern template class nlohmann::basic_json<>;

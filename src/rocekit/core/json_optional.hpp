// nlohmann::json support for std::optional: nullopt <-> null. nlohmann-json 3.11 (Debian 12)
// does not provide it.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

namespace nlohmann {
template <class T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& v) {
    if (v) {
      j = *v;
    } else {
      j = nullptr;
    }
  }
  static void from_json(const json& j, std::optional<T>& v) {
    if (j.is_null()) {
      v = std::nullopt;
    } else {
      v = j.get<T>();
    }
  }
};
}  // namespace nlohmann

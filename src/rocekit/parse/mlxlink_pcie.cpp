#include "rocekit/parse/mlxlink_pcie.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

/// "8G-Gen 3", "32G PAM-4 Gen6", "16G-Gen 4" -> the digit after "Gen".
std::optional<int> gen_of(std::string_view s) {
  std::size_t g = s.find("Gen");
  if (g == std::string_view::npos) return std::nullopt;
  std::string_view rest = text::trim(s.substr(g + 3));
  if (rest.empty() || rest[0] < '1' || rest[0] > '6') return std::nullopt;
  if (rest.size() > 1 && rest[1] >= '0' && rest[1] <= '9') return std::nullopt;
  return rest[0] - '0';
}

/// "16X" -> 16.
std::optional<int> lanes_of(std::string_view s) {
  s = text::trim(s);
  if (!s.ends_with('X') && !s.ends_with('x')) return std::nullopt;
  std::optional<std::uint64_t> n = text::parse_uint(s.substr(0, s.size() - 1));
  if (!n || *n > 32) return std::nullopt;
  return static_cast<int>(*n);
}

/// "A (B)" -> {"A", "B"}; {"A", ""} without parentheses.
std::pair<std::string_view, std::string_view> active_enabled(std::string_view v) {
  std::size_t open = v.rfind('(');
  std::size_t close = v.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return {text::trim(v), {}};
  return {text::trim(v.substr(0, open)), text::trim(v.substr(open + 1, close - open - 1))};
}

}  // namespace

std::optional<double> pcie_gen_gts(int gen) {
  static constexpr double k_gts[] = {2.5, 5, 8, 16, 32, 64};
  if (gen < 1 || gen > 6) return std::nullopt;
  return k_gts[gen - 1];
}

Result<Parsed<MlxlinkPcie>> parse_mlxlink_pcie(std::string_view text) {
  if (text::looks_binary(text)) return unexpected(ErrorKind::malformed_input, "binary input");
  Parsed<MlxlinkPcie> out;
  MlxlinkPcie& v = out.value;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    std::size_t colon = t.find(" : ");
    if (colon == std::string_view::npos) colon = t.find(':');
    if (t.empty() || colon == std::string_view::npos) continue;  // titles, "-----" rules, errors text
    std::string_view key = text::trim(t.substr(0, colon));
    std::string_view value = text::trim(t.substr(t.find(':', colon) + 1));
    if (key == "Link Speed Active (Enabled)") {
      auto [a, e] = active_enabled(value);
      v.gen_active = gen_of(a);
      v.gen_enabled = gen_of(e);
      v.speed_line = i + 1;
      if (!v.gen_active && a != "N/A")
        out.warnings.push_back({i + 1, "bad_value", "no PCIe generation in \"" + std::string(a) + "\""});
    } else if (key == "Link Width Active (Enabled)") {
      auto [a, e] = active_enabled(value);
      v.width_active = lanes_of(a);
      v.width_enabled = lanes_of(e);
      v.width_line = i + 1;
      if (!v.width_active) out.warnings.push_back({i + 1, "bad_value", "no lane count in \"" + std::string(a) + "\""});
    } else if (key == "Depth, pcie index, node") {
      std::optional<std::int64_t> d = text::parse_int(text::trim(value.substr(0, value.find(','))));
      if (d && *d >= 0 && *d < 64) v.depth = static_cast<int>(*d);
    } else if (key == "Device Status") {
      v.device_status = std::string(value);
    } else if (key == "RX Errors" || key == "TX Errors" || key == "CRC Error dllp" || key == "CRC Error tlp" ||
               key == "dl down") {
      if (std::optional<std::uint64_t> n = text::parse_uint(value)) v.counters[std::string(key)] = *n;
    }
  }
  if (!v.speed_line && !v.width_line)
    return unexpected(ErrorKind::malformed_input,
                      "no \"Link Speed Active (Enabled)\" or \"Link Width Active (Enabled)\" row (mlxlink --port_type PCIE)");
  return out;
}

nlohmann::json to_json(const MlxlinkPcie& v) {
  return {{"depth", v.depth},
          {"gen_active", v.gen_active},
          {"gen_enabled", v.gen_enabled},
          {"width_active", v.width_active},
          {"width_enabled", v.width_enabled},
          {"device_status", v.device_status},
          {"counters", v.counters},
          {"speed_line", v.speed_line},
          {"width_line", v.width_line}};
}

bool looks_like_mlxlink_pcie(std::string_view text) {
  std::string_view head = text.substr(0, 8192);
  if (text::contains(head, "PCIe Operational (Enabled) Info")) return true;
  for (std::string_view l : text::lines(head)) {
    std::string_view t = text::trim(l);
    if (t.starts_with("Link Speed Active (Enabled)") && text::contains(t, "Gen")) return true;
  }
  return false;
}

}  // namespace rk::parse

#include "rocekit/parse/ethtool_driver.hpp"

#include <map>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_last_key = "supports-priv-flags";

// Splits "14.32.1010 (MT_2420110034)" into version and PSID.
void set_firmware(EthtoolDriver& v, std::string_view value) {
  if (value.ends_with(")")) {
    std::size_t open = value.rfind('(');
    if (open != std::string_view::npos && open > 0 && value[open - 1] == ' ') {
      std::string_view psid = value.substr(open + 1, value.size() - open - 2);
      std::string_view fw = text::trim(value.substr(0, open));
      if (!psid.empty() && !text::contains(psid, " ") && !fw.empty()) {
        v.firmware_version = std::string(fw);
        v.psid = std::string(psid);
        return;
      }
    }
  }
  v.firmware_version = std::string(value);
}

}  // namespace

Result<Parsed<EthtoolDriver>> parse_ethtool_driver(std::string_view text) {
  Parsed<EthtoolDriver> out;
  EthtoolDriver& v = out.value;
  std::vector<std::string_view> lines = text::lines(text);
  bool recognised = false;
  bool saw_last = false;
  std::map<std::string, std::size_t> seen;  // key -> its first line: one output has each key once
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = text::trim(lines[i]);
    std::size_t line_no = i + 1;
    if (t.empty()) continue;
    std::size_t colon = t.find(':');
    if (colon == std::string_view::npos) {
      out.warnings.push_back({line_no, "unrecognised_line", "not a `key: value` line"});
      continue;
    }
    std::string_view key = t.substr(0, colon);
    std::string_view value = text::trim(t.substr(colon + 1));
    std::optional<std::string>* str = nullptr;
    std::optional<bool>* flag = nullptr;
    if (key == "driver") str = &v.driver;
    if (key == "version") str = &v.version;
    if (key == "expansion-rom-version") str = &v.expansion_rom_version;
    if (key == "bus-info") str = &v.bus_info;
    if (key == "supports-statistics") flag = &v.supports_statistics;
    if (key == "supports-test") flag = &v.supports_test;
    if (key == "supports-eeprom-access") flag = &v.supports_eeprom_access;
    if (key == "supports-register-dump") flag = &v.supports_register_dump;
    if (key == "supports-priv-flags") flag = &v.supports_priv_flags;
    if (str != nullptr || flag != nullptr || key == "firmware-version") {
      auto [at, first] = seen.emplace(std::string(key), line_no);
      if (!first) {  // prose or a second output that looks like this one: the first line stands
        out.warnings.push_back({line_no, "duplicate_key",
                                std::string(key) + " again (first at line " + std::to_string(at->second) +
                                    "): the first value is kept"});
        continue;
      }
    }
    if (key == "firmware-version") {
      set_firmware(v, value);
      recognised = true;
      continue;
    }
    if (str == nullptr && flag == nullptr) {
      out.warnings.push_back({line_no, "unrecognised_line", "unknown ethtool -i key"});
      continue;
    }
    recognised = true;
    if (key == k_last_key) saw_last = true;
    if (str != nullptr) {
      *str = std::string(value);
    } else if (value == "yes" || value == "no") {
      *flag = value == "yes";
    } else {
      out.warnings.push_back(
          {line_no, "bad_value", std::string(key) + " is not yes/no: " + std::string(value)});
    }
  }
  if (!recognised) {
    return rk::unexpected(ErrorKind::malformed_input, "no ethtool -i fields found");
  }
  if (!saw_last) {
    out.warnings.push_back(
        {0, "truncated", "output ends before supports-priv-flags; later fields are missing"});
  }
  return out;
}

nlohmann::json to_json(const EthtoolDriver& v) {
  nlohmann::json j = nlohmann::json::object();
  j["driver"] = v.driver;
  j["version"] = v.version;
  j["firmware_version"] = v.firmware_version;
  j["psid"] = v.psid;
  j["expansion_rom_version"] = v.expansion_rom_version;
  j["bus_info"] = v.bus_info;
  j["supports_statistics"] = v.supports_statistics;
  j["supports_test"] = v.supports_test;
  j["supports_eeprom_access"] = v.supports_eeprom_access;
  j["supports_register_dump"] = v.supports_register_dump;
  j["supports_priv_flags"] = v.supports_priv_flags;
  return j;
}

bool looks_like_ethtool_driver(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::string_view line = nl == std::string_view::npos ? text.substr(start)
                                                         : text.substr(start, nl - start);
    std::string_view t = text::trim(line);
    if (!t.empty()) return t.starts_with("driver:");
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return false;
}

}  // namespace rk::parse

#include "rocekit/parse/flint_query.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

/// Splits "Key:   value" at the first ':'; nullopt when there is no ':' or the key is empty.
struct KeyValue {
  std::string_view key;
  std::string_view value;
};

std::optional<KeyValue> split_key_value(std::string_view line) {
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view key = text::trim(line.substr(0, colon));
  if (key.empty()) return std::nullopt;
  return KeyValue{key, text::trim(line.substr(colon + 1))};
}

FlintRomInfo parse_rom_entry(std::string_view entry) {
  FlintRomInfo rom;
  rom.raw = std::string(entry);
  for (std::string_view word : text::words(entry)) {
    std::size_t eq = word.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view k = word.substr(0, eq);
    std::string v(word.substr(eq + 1));
    if (k == "type") {
      rom.type = v;
    } else if (k == "version") {
      rom.version = v;
    } else if (k == "cpu") {
      rom.cpu = v;
    }
  }
  return rom;
}

/// "0200000300000002        8" -> value and count.
void split_value_count(std::string_view value, std::optional<std::string>& out,
                       std::optional<std::uint64_t>& count) {
  std::vector<std::string_view> w = text::words(value);
  if (w.empty()) {
    out = std::string();
    return;
  }
  out = std::string(w[0]);
  if (w.size() >= 2) count = text::parse_uint(w[1]);
}

}  // namespace

bool is_invalid_fw_version(std::string_view version) {
  return text::trim(version) == "255.255.65535";
}

Result<Parsed<FlintQuery>> parse_flint_query(std::string_view text) {
  Parsed<FlintQuery> out;
  FlintQuery& q = out.value;
  std::size_t recognised = 0;
  bool in_rom_info = false;
  std::vector<std::string_view> lines = text::lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view raw = lines[i];
    std::string_view line = text::trim(raw);
    if (line.empty()) {
      in_rom_info = false;
      continue;
    }
    // Continuation of "Rom Info:": an indented line that starts with "type=".
    if (in_rom_info && line.starts_with("type=")) {
      q.rom_info.push_back(parse_rom_entry(line));
      continue;
    }
    in_rom_info = false;
    std::optional<KeyValue> kv = split_key_value(line);
    if (!kv) {
      out.warnings.push_back({i + 1, "unrecognised_line", "no 'Key: value' form"});
      continue;
    }
    std::string_view key = kv->key;
    std::string value(kv->value);
    ++recognised;
    if (key == "Image type") {
      q.image_type = value;
    } else if (key == "FW Version") {
      q.fw_version = value;
    } else if (key == "FW Version(Running)") {
      q.fw_version_running = value;
    } else if (key == "FW Release Date") {
      q.fw_release_date = value;
    } else if (key == "Product Version") {
      q.product_version = value;
    } else if (key == "Product Version(Running)") {
      q.product_version_running = value;
    } else if (key == "Rom Info") {
      in_rom_info = true;
      if (!kv->value.empty() && kv->value != "N/A") {
        q.rom_info.push_back(parse_rom_entry(kv->value));
      }
    } else if (key == "Description") {
      // Table heading "UID  GuidsNumber" for the Base GUID / Base MAC rows; nothing to keep.
    } else if (key == "Base GUID") {
      split_value_count(kv->value, q.base_guid, q.base_guid_count);
    } else if (key == "Base MAC") {
      split_value_count(kv->value, q.base_mac, q.base_mac_count);
    } else if (key == "Image VSD") {
      q.image_vsd = value;
    } else if (key == "Device VSD") {
      q.device_vsd = value;
    } else if (key == "PSID") {
      q.psid = value;
    } else if (key == "Orig PSID") {
      q.orig_psid = value;
    } else if (key == "Device ID") {
      q.device_id = value;
    } else if (key == "Security Attributes") {
      q.security_attributes = value;
    } else if (key.size() <= 40 && key.find_first_of("=\t") == std::string_view::npos) {
      q.other_fields.push_back({std::string(key), value});
    } else {
      --recognised;
      out.warnings.push_back({i + 1, "unrecognised_line", "not a flint field"});
    }
  }
  bool known = q.image_type || q.fw_version || q.fw_version_running || q.psid ||
               q.product_version || q.base_guid || q.base_mac || !q.rom_info.empty();
  if (recognised == 0 || !known) {
    return unexpected(ErrorKind::malformed_input, "no flint query field found");
  }
  if (q.fw_version && !q.psid) {
    out.warnings.push_back(
        {0, "truncated", "no PSID line after FW Version; GUIDs, VSD and PSID may be missing"});
  }
  q.invalid_fw_version = (q.fw_version && is_invalid_fw_version(*q.fw_version)) ||
                         (q.fw_version_running && is_invalid_fw_version(*q.fw_version_running));
  return out;
}

nlohmann::json to_json(const FlintQuery& v) {
  nlohmann::json roms = nlohmann::json::array();
  for (const FlintRomInfo& r : v.rom_info) {
    roms.push_back({{"raw", r.raw}, {"type", r.type}, {"version", r.version}, {"cpu", r.cpu}});
  }
  nlohmann::json other = nlohmann::json::array();
  for (const FlintField& f : v.other_fields) other.push_back({{"name", f.name}, {"value", f.value}});
  return {{"image_type", v.image_type},
          {"fw_version", v.fw_version},
          {"fw_version_running", v.fw_version_running},
          {"fw_release_date", v.fw_release_date},
          {"product_version", v.product_version},
          {"product_version_running", v.product_version_running},
          {"rom_info", roms},
          {"base_guid", v.base_guid},
          {"base_guid_count", v.base_guid_count},
          {"base_mac", v.base_mac},
          {"base_mac_count", v.base_mac_count},
          {"image_vsd", v.image_vsd},
          {"device_vsd", v.device_vsd},
          {"psid", v.psid},
          {"orig_psid", v.orig_psid},
          {"device_id", v.device_id},
          {"security_attributes", v.security_attributes},
          {"other_fields", other},
          {"invalid_fw_version", v.invalid_fw_version}};
}

bool looks_like_flint_query(std::string_view text) {
  std::string_view head = text.substr(0, 8192);
  if (!text::contains(head, "FW Version")) return false;
  return text::contains(head, "Image type:") || text::contains(head, "Rom Info:") ||
         (text::contains(head, "PSID:") && !text::contains(head, "Versions:"));
}

}  // namespace rk::parse

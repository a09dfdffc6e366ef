#include "rocekit/catalog/compat.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "rocekit/catalog/catalog_data.hpp"
#include "rocekit/core/text.hpp"

namespace rk::catalog {
namespace {

std::string str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strs(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const nlohmann::json& v : *it)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

}  // namespace

bool is_firmware_version(std::string_view v) {
  int parts = 0;
  for (;;) {  // three non-empty digit runs joined by '.' (no allocation: called per NIC and row)
    const std::size_t dot = v.find('.');
    const std::string_view p = v.substr(0, dot);
    if (p.empty() || p.find_first_not_of("0123456789") != std::string_view::npos) return false;
    ++parts;
    if (dot == std::string_view::npos) return parts == 3;
    v.remove_prefix(dot + 1);
  }
}

Result<CompatTable> CompatTable::parse(std::string_view json, const std::string& file) {
  try {
    return parse_checked(json, file);
  } catch (const nlohmann::json::exception& e) {
    return unexpected(ErrorKind::malformed_input, std::string("not a fw-driver-compat/1 table: ") + e.what(), file);
  }
}

Result<CompatTable> CompatTable::parse_checked(std::string_view json, const std::string& file) {
  nlohmann::json j = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return unexpected(ErrorKind::malformed_input, "not a JSON object (fw-driver-compat/1 table)", file);
  if (str(j, "schema") != "fw-driver-compat/1")
    return unexpected(ErrorKind::malformed_input, "schema is \"" + str(j, "schema") + "\", not \"fw-driver-compat/1\"", file);
  CompatTable t;
  for (const nlohmann::json& f : j.value("families", nlohmann::json::array())) {
    CompatFamily cf;
    cf.family = str(f, "family");
    const std::string at = "families[" + std::to_string(t.families.size()) + "]";
    for (const std::string& d : strs(f, "device_ids")) {
      auto h = text::parse_hex(d);
      if (!h || *h > 0xffff) return unexpected(ErrorKind::malformed_input, at + ": device id \"" + d + "\" is not 0x0000..0xffff", file);
      cf.device_ids.push_back(static_cast<std::uint16_t>(*h));
    }
    if (f.is_object() && f.contains("fw_major")) {
      const nlohmann::json& m = f["fw_major"];
      if (!m.is_number_unsigned() && !m.is_number_integer())
        return unexpected(ErrorKind::malformed_input, at + ": fw_major is not an integer", file);
      const long long v = m.get<long long>();
      if (v < 1 || v > 999) return unexpected(ErrorKind::malformed_input, at + ": fw_major " + std::to_string(v) + " is not 1..999", file);
      cf.fw_major = static_cast<int>(v);
    }
    if (cf.family.empty())
      return unexpected(ErrorKind::malformed_input, "families[" + std::to_string(t.families.size()) + "]: no \"family\" name", file);
    t.families.push_back(std::move(cf));
  }
  for (const nlohmann::json& r : j.value("releases", nlohmann::json::array())) {
    CompatRelease cr;
    cr.id = str(r, "id");
    cr.stack = str(r, "stack");
    cr.version = str(r, "version");
    cr.line = str(r, "line");
    if (r.contains("match") && r["match"].is_object()) {
      std::string s = str(r["match"], "ofed_info_s");
      if (!s.empty()) cr.ofed_info_s = s;
    }
    if (r.contains("firmware_train") && r["firmware_train"].is_object()) {
      std::string v = str(r["firmware_train"], "value");
      if (!v.empty()) cr.firmware_train = v;
    }
    cr.sources = strs(r, "sources");
    if (r.contains("unsupported_families") && r["unsupported_families"].is_object()) {
      cr.unsupported_families = strs(r["unsupported_families"], "families");
      cr.unsupported_source = str(r["unsupported_families"], "source");
    }
    if (cr.id.empty())
      return unexpected(ErrorKind::malformed_input, "releases[" + std::to_string(t.releases.size()) + "]: no \"id\"", file);
    t.releases.push_back(std::move(cr));
  }
  for (const nlohmann::json& r : j.value("rows", nlohmann::json::array())) {
    CompatRow row;
    row.release = str(r, "release");
    row.family = str(r, "family");
    row.recommended = str(r, "recommended");
    row.supported = strs(r, "supported");
    row.source = str(r, "source");
    const std::string at = "rows[" + std::to_string(t.rows.size()) + "]";
    if (row.release.empty() || row.family.empty() || row.recommended.empty() || row.source.empty())
      return unexpected(ErrorKind::malformed_input, at + ": needs \"release\", \"family\", \"recommended\" and \"source\"", file);
    bool rel_known = false, fam_known = false;
    for (const CompatRelease& known : t.releases) rel_known = rel_known || known.id == row.release;
    for (const CompatFamily& f : t.families) fam_known = fam_known || f.family == row.family;
    if (!rel_known) return unexpected(ErrorKind::malformed_input, at + ": release \"" + row.release + "\" is not in releases", file);
    if (!fam_known) return unexpected(ErrorKind::malformed_input, at + ": family \"" + row.family + "\" is not in families", file);
    std::vector<std::string> versions = row.supported;
    versions.push_back(row.recommended);
    for (const std::string& v : versions)
      if (!is_firmware_version(v)) return unexpected(ErrorKind::malformed_input, at + ": firmware \"" + v + "\" is not NN.NN.NNNN", file);
    for (const CompatRow& other : t.rows)
      if (other.release == row.release && other.family == row.family)
        return unexpected(ErrorKind::malformed_input, at + ": a second row for " + row.release + " / " + row.family, file);
    t.rows.push_back(std::move(row));
  }
  return t;
}

const CompatTable& CompatTable::builtin() {
  static const CompatTable k_table = [] {
    Result<CompatTable> t = parse(detail::builtin_compat_json(), "data/compat/compat.json");
    return t ? *t : CompatTable{};
  }();
  return k_table;
}

namespace {
std::optional<CompatTable>& installed() {
  static std::optional<CompatTable> t;
  return t;
}
}  // namespace

const CompatTable& CompatTable::active() { return installed() ? *installed() : builtin(); }

void CompatTable::use(CompatTable table) { installed() = std::move(table); }

Result<CompatTable> CompatTable::load_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return unexpected(ErrorKind::malformed_input, "is a directory, not a compatibility table (JSON)", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(ErrorKind::not_found, "cannot open the compatibility table", path);
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > (16u << 20)) return unexpected(ErrorKind::malformed_input, "larger than 16 MiB", path);
  }
  // JSON syntax errors with line and column (nlohmann reports the byte offset).
  try {
    nlohmann::json probe = nlohmann::json::parse(text);  // throws with the byte offset
    (void)probe;
  } catch (const nlohmann::json::out_of_range& e) {
    return unexpected(ErrorKind::malformed_input, std::string("a number out of range: ") + e.what(), path);
  } catch (const nlohmann::json::parse_error& e) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    if (std::size_t at = what.find("syntax error"); at != std::string::npos) what = what.substr(at);
    return unexpected(ErrorKind::malformed_input, what, path + ":" + std::to_string(line) + ":" + std::to_string(col));
  }
  return parse(text, path);
}

const CompatFamily* CompatTable::family_of_device(std::uint16_t device_id) const {
  for (const CompatFamily& f : families)
    for (std::uint16_t d : f.device_ids)
      if (d == device_id) return &f;
  return nullptr;
}

const CompatFamily* CompatTable::family_of_major(int major) const {
  for (const CompatFamily& f : families)
    if (f.fw_major && *f.fw_major == major) return &f;
  return nullptr;
}

const CompatRelease* CompatTable::release_by_ofed_info(std::string_view release) const {
  if (release.ends_with(':')) release.remove_suffix(1);
  for (const CompatRelease& r : releases)
    if (r.ofed_info_s && *r.ofed_info_s == release) return &r;
  return nullptr;
}

const CompatRow* CompatTable::row(std::string_view release_id, std::string_view family) const {
  for (const CompatRow& r : rows)
    if (r.release == release_id && r.family == family) return &r;
  return nullptr;
}

}  // namespace rk::catalog

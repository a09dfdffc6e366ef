// NvParamDb: mstflint's mlxconfig_host.db read into memory (read-only SQLite). Column meanings
// from the DB's own CHECK constraints: size "0x<bytes hex>.<bits decimal>", textual_values
// "ALIAS=0xN,...", tlvs.class 1 = physical port (CLI name gets _P<n>, host-facts.md §A),
// tlvs.cap 1 = capability TLV (read-only).
#include "rocekit/plan/nv_db.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <system_error>

namespace rk::plan {

namespace {

std::string column_text(sqlite3_stmt* st, int i) {
  const unsigned char* t = sqlite3_column_text(st, i);
  return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// Decimal or 0x-hex integer, optionally negative; nullopt for anything else ("3; reboot").
std::optional<std::int64_t> parse_int(std::string_view s) {
  bool neg = false;
  if (!s.empty() && s[0] == '-') {
    neg = true;
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty() || s.size() > 16) return std::nullopt;
  std::int64_t v = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return std::nullopt;
    if (v > (INT64_MAX - d) / base) return std::nullopt;
    v = v * base + d;
  }
  return neg ? -v : v;
}

/// "0x0.6" -> 6 bits, "0x4.0" -> 32 bits; 0 when malformed.
int width_of(const std::string& size) {
  std::size_t dot = size.find('.');
  std::optional<std::int64_t> bytes = parse_int(size.substr(0, dot));
  std::optional<std::int64_t> bits =
      dot == std::string::npos ? std::optional<std::int64_t>(0) : parse_int(size.substr(dot + 1));
  if (!bytes || !bits || *bytes < 0 || *bits < 0 || *bytes > 4096) return 0;
  return static_cast<int>(*bytes * 8 + *bits);
}

/// "IB=0x1,ETH=0x2" -> {{"IB",1},{"ETH",2}}; malformed entries are skipped.
std::vector<std::pair<std::string, std::int64_t>> enum_values_of(const std::string& text) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t comma = text.find(',', at);
    std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    std::size_t eq = item.find('=');
    if (eq != std::string::npos)
      if (std::optional<std::int64_t> v = parse_int(item.substr(eq + 1)))
        out.emplace_back(item.substr(0, eq), *v);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

/// "$nv_pci_conf.advanced_pci_settings!=0" terms of a dependency expression, as (tlv, field).
std::vector<std::pair<std::string, std::string>> conf_terms(const std::string& dep) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t at = dep.find('$'); at != std::string::npos; at = dep.find('$', at + 1)) {
    std::size_t dot = dep.find('.', at);
    if (dot == std::string::npos) break;
    std::size_t end = dot + 1;
    while (end < dep.size() && (std::isalnum(static_cast<unsigned char>(dep[end])) || dep[end] == '_'))
      ++end;
    std::string rest = dep.substr(end, 3);
    if (rest != "!=0" && rest != "==1") continue;
    out.emplace_back(dep.substr(at + 1, dot - at - 1), dep.substr(dot + 1, end - dot - 1));
  }
  return out;
}

}  // namespace

Result<NvParamDb> NvParamDb::open(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return unexpected(ErrorKind::not_found, "not found", path.string());
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  if (rc != SQLITE_OK) {
    std::string why = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return unexpected(ErrorKind::malformed_input, "cannot open as SQLite: " + why, path.string());
  }
  const char* sql =
      "SELECT p.mlxconfig_name, p.name, p.tlv_name, t.class, t.cap, p.type, p.size, "
      "p.textual_values, p.min_val, p.max_val, p.array_length, p.dependency "
      "FROM params p JOIN tlvs t ON t.name = p.tlv_name "
      "WHERE p.mlxconfig_name IS NOT NULL AND p.mlxconfig_name != ''";
  sqlite3_stmt* st = nullptr;
  rc = sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
  if (rc != SQLITE_OK) {
    std::string why = sqlite3_errmsg(db);
    sqlite3_close(db);
    return unexpected(ErrorKind::malformed_input,
                      "not an mlxconfig parameter database (tables params/tlvs): " + why,
                      path.string());
  }
  NvParamDb out;
  out.m_path = path;
  std::vector<std::pair<std::string, std::string>> deps;  // param name -> dependency text
  std::map<std::string, std::string> field_to_name;       // "tlv.field" -> mlxconfig_name
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    NvParamInfo p;
    p.name = column_text(st, 0);
    p.field = column_text(st, 1);
    p.tlv = column_text(st, 2);
    p.tlv_class = sqlite3_column_int(st, 3);
    p.read_only = sqlite3_column_int(st, 4) == 1;
    p.type = column_text(st, 5);
    p.width_bits = width_of(column_text(st, 6));
    p.enum_values = enum_values_of(column_text(st, 7));
    std::string lo = column_text(st, 8), hi = column_text(st, 9);
    p.min_value = parse_int(lo);
    p.max_value = parse_int(hi);
    if ((!lo.empty() && !p.min_value) || (!hi.empty() && !p.max_value))
      p.symbolic_bounds = (lo.empty() ? "" : "min " + lo) + (lo.empty() || hi.empty() ? "" : ", ") +
                          (hi.empty() ? "" : "max " + hi);
    p.array_length = sqlite3_column_int(st, 10);
    deps.emplace_back(p.name, column_text(st, 11));
    field_to_name[p.tlv + "." + p.field] = p.name;
    std::string key = p.name;
    out.m_params.emplace(std::move(key), std::move(p));
  }
  std::string why = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db);
  sqlite3_finalize(st);
  sqlite3_close(db);
  if (!why.empty()) return unexpected(ErrorKind::malformed_input, "reading params: " + why, path.string());
  if (out.m_params.empty())
    return unexpected(ErrorKind::malformed_input, "no named parameters in table params", path.string());
  for (const auto& [name, dep] : deps)
    for (const auto& [tlv, field] : conf_terms(dep))
      if (auto it = field_to_name.find(tlv + "." + field); it != field_to_name.end())
        if (const NvParamInfo* pre = out.find(it->second); pre && !pre->read_only)
          out.m_params.find(name)->second.prerequisites.push_back(pre->name);
  return out;
}

const NvParamInfo* NvParamDb::find(std::string_view name) const {
  auto it = m_params.find(name);
  return it == m_params.end() ? nullptr : &it->second;
}

Result<NvParamRef> NvParamDb::resolve(std::string_view cli_name) const {
  std::string name(cli_name);
  std::string where = " (" + m_path.filename().string() + ")";
  NvParamRef ref;
  ref.info = find(name);
  if (!ref.info) {
    std::size_t us = name.rfind("_P");
    if (us != std::string::npos && us + 3 == name.size() && name.back() >= '1' && name.back() <= '8') {
      ref.info = find(std::string_view(name).substr(0, us));
      ref.port = name.back() - '0';
      if (ref.info && ref.info->tlv_class != 1)
        return unexpected(ErrorKind::malformed_input,
                          ref.info->name + " is not a port parameter (TLV " + ref.info->tlv +
                              "): no _P<n> suffix" + where,
                          name);
    }
    if (!ref.info)
      return unexpected(ErrorKind::malformed_input, "no such firmware parameter" + where, name);
  } else if (ref.info->tlv_class == 1) {
    return unexpected(ErrorKind::malformed_input,
                      "port parameter (TLV " + ref.info->tlv + ") needs the _P<n> suffix, e.g. " +
                          name + "_P1" + where,
                      name);
  }
  const NvParamInfo& p = *ref.info;
  if (p.read_only)
    return unexpected(ErrorKind::malformed_input, "read-only capability (TLV " + p.tlv + ")" + where, name);
  if (p.tlv_class == 9)
    return unexpected(ErrorKind::unsupported, "module parameter (TLV " + p.tlv + "): not set by rocekit", name);
  if (p.array_length > 0)
    return unexpected(ErrorKind::unsupported, "array parameter: not set by rocekit", name);
  return ref;
}

Result<std::int64_t> NvParamDb::validate(std::string_view cli_name, std::string_view value) const {
  Result<NvParamRef> ref = resolve(cli_name);
  if (!ref) return unexpected(ref.error());
  const NvParamInfo& p = *ref->info;
  std::string ctx = std::string(cli_name) + "=" + std::string(value);
  std::string where = " (" + m_path.filename().string() + ")";
  std::optional<std::int64_t> n = parse_int(value);
  if (p.type == "BOOL") {
    std::string u = upper(value);
    if (u == "TRUE") return 1;
    if (u == "FALSE") return 0;
    if (n && (*n == 0 || *n == 1)) return *n;
    return unexpected(ErrorKind::malformed_input, "BOOL takes True, False, 1 or 0" + where, ctx);
  }
  if (p.type == "ENUM") {
    std::string choices;
    for (const auto& [alias, num] : p.enum_values) {
      if (upper(alias) == upper(value) || (n && *n == num)) return num;
      choices += (choices.empty() ? "" : ", ") + alias + "=" + std::to_string(num);
    }
    return unexpected(ErrorKind::malformed_input, "not one of " + choices + where, ctx);
  }
  if (p.type != "UNSIGNED" && p.type != "INTEGER")
    return unexpected(ErrorKind::unsupported, p.type + " parameter: not set by rocekit", ctx);
  if (!n) return unexpected(ErrorKind::malformed_input, "not a number" + where, ctx);
  std::int64_t lo = 0, hi = 0;
  int w = std::clamp(p.width_bits, 1, 62);
  if (p.type == "UNSIGNED") {
    hi = (std::int64_t{1} << w) - 1;
  } else {
    lo = -(std::int64_t{1} << (w - 1));
    hi = (std::int64_t{1} << (w - 1)) - 1;
  }
  if (p.min_value) lo = std::max(lo, *p.min_value);
  if (p.max_value) hi = std::min(hi, *p.max_value);
  if (*n < lo || *n > hi)
    return unexpected(ErrorKind::malformed_input,
                      "out of range " + std::to_string(lo) + ".." + std::to_string(hi) + " (" +
                          std::to_string(p.width_bits) + "-bit " + p.type + ")" + where,
                      ctx);
  return *n;
}

Result<NvDbChoice> open_nv_db_if_present(const std::filesystem::path& path) {
  NvDbChoice c;
  Result<NvParamDb> db = NvParamDb::open(path);
  if (db) {
    c.db = std::move(*db);
  } else if (db.error().kind == ErrorKind::not_found) {
    c.missing = "not validated: " + path.string() + " not found";
  } else {
    return unexpected(db.error());
  }
  return c;
}

}  // namespace rk::plan

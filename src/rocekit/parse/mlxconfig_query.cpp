#include "rocekit/parse/mlxconfig_query.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

std::string_view to_string(MlxconfigColumn c) {
  switch (c) {
    case MlxconfigColumn::default_value:
      return "default";
    case MlxconfigColumn::current:
      return "current";
    case MlxconfigColumn::next_boot:
      return "next_boot";
    case MlxconfigColumn::new_value:
      return "new";
  }
  return "next_boot";
}

namespace {

bool is_dash_rule(std::string_view line) {
  return !line.empty() && line.find_first_not_of('-') == std::string_view::npos;
}

/// Parameter names: letters, digits and '_', starting with a letter or '_', with an upper-case
/// letter (EXP_ROM_UEFI_x86_ENABLE has a lower-case part).
bool is_param_name(std::string_view w) {
  if (w.empty() || w.size() > 128) return false;
  bool upper = false;
  for (char c : w) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_';
    if (!ok) return false;
    if (c >= 'A' && c <= 'Z') upper = true;
  }
  char first = w.front();
  return upper && !(first >= '0' && first <= '9');
}

std::optional<std::int64_t> parse_number(std::string_view s) {
  if (std::optional<std::int64_t> n = text::parse_int(s)) return n;
  if (s.starts_with("0x") || s.starts_with("0X")) {
    std::optional<std::uint64_t> h = text::parse_hex(s);
    if (h && *h <= 0x7fffffffffffffffULL) return static_cast<std::int64_t>(*h);
  }
  return std::nullopt;
}

MlxconfigValue parse_value(std::string_view s) {
  MlxconfigValue v;
  v.text = std::string(s);
  std::size_t open = s.rfind('(');
  if (s.size() >= 3 && s.back() == ')' && open != std::string_view::npos && open > 0) {
    std::optional<std::int64_t> n = parse_number(s.substr(open + 1, s.size() - open - 2));
    if (n) {
      v.alias = std::string(s.substr(0, open));
      v.number = n;
      return v;
    }
  }
  v.number = parse_number(s);
  return v;
}

/// "Configurations:   Default   Current   Next Boot" -> columns.
std::vector<MlxconfigColumn> parse_columns(std::string_view rest) {
  std::vector<MlxconfigColumn> cols;
  std::vector<std::string_view> w = text::words(rest);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "Default") {
      cols.push_back(MlxconfigColumn::default_value);
    } else if (w[i] == "Current") {
      cols.push_back(MlxconfigColumn::current);
    } else if (w[i] == "Next" && i + 1 < w.size() && w[i + 1] == "Boot") {
      cols.push_back(MlxconfigColumn::next_boot);
      ++i;
    } else if (w[i] == "New") {
      cols.push_back(MlxconfigColumn::new_value);
    }
  }
  return cols;
}

void assign(MlxconfigParam& p, MlxconfigColumn c, MlxconfigValue v) {
  switch (c) {
    case MlxconfigColumn::default_value:
      p.default_value = std::move(v);
      return;
    case MlxconfigColumn::current:
      p.current = std::move(v);
      return;
    case MlxconfigColumn::next_boot:
      p.next_boot = std::move(v);
      return;
    case MlxconfigColumn::new_value:
      p.new_value = std::move(v);
      return;
  }
}

std::vector<MlxconfigColumn> inferred_columns(std::size_t n) {
  switch (n) {
    case 1:
      return {MlxconfigColumn::next_boot};
    case 2:
      return {MlxconfigColumn::next_boot, MlxconfigColumn::new_value};
    case 3:
      return {MlxconfigColumn::default_value, MlxconfigColumn::current,
              MlxconfigColumn::next_boot};
    default:
      return {};
  }
}

}  // namespace

Result<Parsed<MlxconfigQuery>> parse_mlxconfig_query(std::string_view text) {
  Parsed<MlxconfigQuery> out;
  MlxconfigQuery& q = out.value;
  bool header_seen = false;
  bool table_seen = false;
  auto device = [&q]() -> MlxconfigDevice& {
    if (!q.device) q.device.emplace();
    return *q.device;
  };
  std::vector<std::string_view> lines = text::lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = text::trim(lines[i]);
    if (line.empty() || is_dash_rule(line)) continue;
    if (line.starts_with("-E-") || line.starts_with("-W-") || line.starts_with("-I-")) {
      q.messages.emplace_back(line);
      if (line.starts_with("-I-") && text::contains(text::to_lower(line), "reboot")) {
        q.reboot_required = true;
      }
      continue;
    }
    if (line.starts_with("Apply new Configuration?")) {
      q.is_set_transcript = true;
      std::size_t colon = line.rfind(':');
      if (colon != std::string_view::npos) {
        std::string a = text::to_lower(text::trim(line.substr(colon + 1)));
        if (a == "y" || a == "yes") q.apply_answer = true;
        if (a == "n" || a == "no") q.apply_answer = false;
      }
      continue;
    }
    if (line.starts_with("Applying...")) {
      q.is_set_transcript = true;
      q.applied = text::contains(line, "Done");
      continue;
    }
    if (line.starts_with("Device #") && line.ends_with(":")) {
      std::optional<std::uint64_t> n = text::parse_uint(line.substr(8, line.size() - 9));
      if (n && *n <= 0xffffffffULL) device().index = static_cast<std::uint32_t>(*n);
      continue;
    }
    if (std::optional<std::string_view> v = text::value_after(line, "Device type:")) {
      device().device_type = std::string(*v);
      continue;
    }
    if (std::optional<std::string_view> v = text::value_after(line, "Name:")) {
      device().name = std::string(*v);
      continue;
    }
    if (std::optional<std::string_view> v = text::value_after(line, "Description:")) {
      device().description = std::string(*v);
      continue;
    }
    if (std::optional<std::string_view> v = text::value_after(line, "Device:")) {
      // `mlxconfig q` without -d, or a loop over devices, prints one block per device: the rows
      // of one cannot be told from another's once merged, so the file is refused.
      if (device().device && *device().device != *v)
        return rk::unexpected(ErrorKind::malformed_input,
                              "line " + std::to_string(i + 1) + ": a second device (" + std::string(*v) + " after " +
                                  *device().device + "): save each device's query as its own file, "
                                  "mlxconfig_q@<BDF>.txt (mlxconfig -d <BDF> q)");
      device().device = std::string(*v);
      continue;
    }
    if (std::optional<std::string_view> v = text::value_after(line, "Configurations:")) {
      q.columns = parse_columns(*v);
      header_seen = true;
      if (std::find(q.columns.begin(), q.columns.end(), MlxconfigColumn::new_value) !=
          q.columns.end()) {
        q.is_set_transcript = true;
      }
      continue;
    }
    // A parameter row: [*][RO] NAME VALUE...
    std::vector<std::string_view> w = text::words(line);
    std::size_t k = 0;
    MlxconfigParam p;
    while (k < w.size() && k < 2 && (w[k] == "*" || w[k] == "RO" || w[k] == "*RO")) {
      if (w[k] == "*" || w[k] == "*RO") p.modified = true;
      if (w[k] == "RO" || w[k] == "*RO") p.read_only = true;
      ++k;
    }
    if (k >= w.size() || !is_param_name(w[k]) || k + 1 >= w.size()) {
      out.warnings.push_back({i + 1, "unrecognised_line", "not an mlxconfig parameter row"});
      continue;
    }
    p.name = std::string(w[k]);
    p.line = i + 1;
    std::size_t nvalues = w.size() - k - 1;
    if (q.columns.empty() && !header_seen) {
      q.columns = inferred_columns(nvalues);
      q.columns_inferred = !q.columns.empty();
    }
    if (q.columns.empty()) {
      out.warnings.push_back({i + 1, "unrecognised_line", "cannot tell which column is which"});
      continue;
    }
    if (nvalues > q.columns.size()) {
      out.warnings.push_back({i + 1, "unrecognised_line", "more values than columns"});
      continue;
    }
    if (nvalues < q.columns.size()) {
      out.warnings.push_back({i + 1, "truncated",
                              "row " + p.name + " has " + std::to_string(nvalues) + " of " +
                                  std::to_string(q.columns.size()) + " values"});
    }
    for (std::size_t c = 0; c < nvalues; ++c) assign(p, q.columns[c], parse_value(w[k + 1 + c]));
    table_seen = true;
    q.params.push_back(std::move(p));
  }
  if (!q.device && q.params.empty()) {
    return unexpected(ErrorKind::malformed_input, "no mlxconfig device header or parameter row");
  }
  if (header_seen && !table_seen) {
    out.warnings.push_back({0, "truncated", "Configurations header without parameter rows"});
  }
  return out;
}

const MlxconfigParam* find_param(const MlxconfigQuery& q, std::string_view name) {
  for (const MlxconfigParam& p : q.params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

namespace {

nlohmann::json value_json(const std::optional<MlxconfigValue>& v) {
  if (!v) return nullptr;
  return {{"text", v->text}, {"alias", v->alias}, {"number", v->number}};
}

}  // namespace

nlohmann::json to_json(const MlxconfigQuery& v) {
  nlohmann::json device = nullptr;
  if (v.device) {
    device = {{"index", v.device->index},
              {"device_type", v.device->device_type},
              {"name", v.device->name},
              {"description", v.device->description},
              {"device", v.device->device}};
  }
  nlohmann::json cols = nlohmann::json::array();
  for (MlxconfigColumn c : v.columns) cols.push_back(std::string(to_string(c)));
  nlohmann::json params = nlohmann::json::array();
  for (const MlxconfigParam& p : v.params) {
    params.push_back({{"name", p.name},
                      {"default", value_json(p.default_value)},
                      {"current", value_json(p.current)},
                      {"next_boot", value_json(p.next_boot)},
                      {"new", value_json(p.new_value)},
                      {"modified", p.modified},
                      {"read_only", p.read_only},
                      {"line", p.line}});
  }
  return {{"device", device},
          {"columns", cols},
          {"columns_inferred", v.columns_inferred},
          {"params", params},
          {"is_set_transcript", v.is_set_transcript},
          {"apply_answer", v.apply_answer},
          {"applied", v.applied},
          {"reboot_required", v.reboot_required},
          {"messages", v.messages}};
}

bool looks_like_mlxconfig_query(std::string_view text) {
  std::string_view head = text.substr(0, 16384);
  if (text::contains(head, "Configurations:") &&
      (text::contains(head, "Next Boot") || text::contains(head, "Current"))) {
    return true;
  }
  // Header-less fragment: most non-blank lines are "NAME  value" rows with NAME in upper case
  // and at least one "Alias(n)" or known suffix.
  std::size_t rows = 0;
  std::size_t other = 0;
  bool alias_or_port = false;
  for (std::string_view l : text::lines(head)) {
    std::vector<std::string_view> w = text::words(l);
    if (w.empty()) continue;
    if (w.size() == 2 && is_param_name(w[0]) && w[0].find('_') != std::string_view::npos) {
      ++rows;
      if (w[1].ends_with(")") || w[0].find("_P1") != std::string_view::npos) {
        alias_or_port = true;
      }
    } else {
      ++other;
    }
  }
  return rows >= 2 && other * 4 <= rows && alias_or_port;
}

}  // namespace rk::parse

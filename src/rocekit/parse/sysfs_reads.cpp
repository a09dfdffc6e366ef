#include "rocekit/parse/sysfs_reads.hpp"

#include <cstddef>
#include <utility>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

constexpr std::size_t k_num_priorities = 8;

bool has_space(std::string_view s) {
  for (char c : s) {
    if (c == ' ' || c == '\t') return true;
  }
  return false;
}

/// `ls -l` mode string such as "-r--r--r--", "drwxr-xr-x", "lrwxrwxrwx." or "-rw-r--r--+".
bool is_mode_string(std::string_view w) {
  if (w.size() < 10 || w.size() > 11) return false;
  std::string_view kinds = "-dlcbps";
  if (kinds.find(w[0]) == std::string_view::npos) return false;
  for (std::size_t i = 1; i < 10; ++i) {
    if (std::string_view("-rwxsStT").find(w[i]) == std::string_view::npos) return false;
  }
  return true;
}

std::optional<bool> zero_one(std::string_view v) {
  if (v == "1") return true;
  if (v == "0") return false;
  return std::nullopt;
}

/// Components of a path, without empty ones.
std::vector<std::string_view> components(std::string_view path) {
  std::vector<std::string_view> out;
  for (std::string_view c : text::split(path, '/')) {
    if (!c.empty()) out.push_back(c);
  }
  return out;
}

std::size_t index_of(const std::vector<std::string_view>& cs, std::string_view name,
                     std::size_t from = 0) {
  for (std::size_t i = from; i < cs.size(); ++i) {
    if (cs[i] == name) return i;
  }
  return cs.size();
}

nlohmann::json entries_json(const std::vector<SysfsEntry>& es) {
  nlohmann::json a = nlohmann::json::array();
  for (const SysfsEntry& e : es) {
    a.push_back({{"path", e.path}, {"value", e.value}, {"line", e.line}});
  }
  return a;
}

Result<Parsed<SysfsCounters>> parse_counters_impl(std::string_view text) {
  auto base = parse_sysfs_reads(text);
  if (!base) return rk::unexpected(base.error());
  SysfsCounters out;
  std::vector<Warning> warnings = std::move(base->warnings);
  out.entries = std::move(base->value.entries);
  for (const SysfsEntry& e : out.entries) {
    if (e.path.empty()) {
      warnings.push_back(Warning{e.line, "unrecognised_line", "content without a counter name"});
      continue;
    }
    std::vector<std::string_view> cs = components(e.path);
    if (cs.empty()) continue;
    SysfsCounterSet key;
    std::size_t ports = index_of(cs, "ports");
    if (ports > 0 && ports + 3 < cs.size()) {
      key.rdma_device = std::string(cs[ports - 1]);
      if (auto p = text::parse_uint(cs[ports + 1]); p && *p <= 0xffffffffULL) {
        key.port = static_cast<std::uint32_t>(*p);
      }
      key.kind = std::string(cs[ports + 2]);
    } else if (cs.size() >= 2 && (cs[cs.size() - 2] == "hw_counters" ||
                                  cs[cs.size() - 2] == "counters")) {
      key.kind = std::string(cs[cs.size() - 2]);
    }
    SysfsCounterSet* set = nullptr;
    for (SysfsCounterSet& s : out.sets) {
      if (s.rdma_device == key.rdma_device && s.port == key.port && s.kind == key.kind) {
        set = &s;
        break;
      }
    }
    if (set == nullptr) {
      out.sets.push_back(std::move(key));
      set = &out.sets.back();
    }
    std::optional<std::uint64_t> value;
    if (e.value) {
      value = text::parse_uint(*e.value);
      if (!value) warnings.push_back(Warning{e.line, "bad_number", "counter value is not a number"});
    }
    set->counters[std::string(cs.back())] = value;
  }
  return Parsed<SysfsCounters>{std::move(out), std::move(warnings)};
}

bool listing_has_any(std::string_view text, std::initializer_list<std::string_view> names) {
  std::string_view head = text.substr(0, 16384);
  for (std::string_view n : names) {
    if (text::contains(head, n)) return true;
  }
  return false;
}

/// Cheap check: the first non-empty lines are all sysfs-read shaped ("total N", `ls -l` rows,
/// "/path:value" or a single word).
bool sysfs_shaped(std::string_view text) {
  std::size_t seen = 0;
  std::size_t start = 0;
  while (start < text.size() && seen < 64) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view t = text::trim(text.substr(start, end - start));
    start = end + 1;
    if (t.empty()) continue;
    ++seen;
    std::vector<std::string_view> w = text::words(t);
    if (w.size() == 2 && w[0] == "total") continue;
    if (w.size() >= 9 && is_mode_string(w[0])) continue;
    if (w.size() == 1) continue;
    std::size_t colon = t.find(':');
    if (t[0] == '/' && colon != std::string_view::npos && !has_space(t.substr(0, colon))) continue;
    return false;
  }
  return seen > 0;
}

}  // namespace

Result<Parsed<SysfsReads>> parse_sysfs_reads(std::string_view text) {
  SysfsReads out;
  std::vector<Warning> warnings;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::size_t line_no = i + 1;
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    std::vector<std::string_view> w = text::words(t);
    if (w.size() == 2 && w[0] == "total" && text::parse_uint(w[1])) {
      continue;
    }
    if (w.size() >= 9 && is_mode_string(w[0])) {
      // ls -l: the name is the 9th field; a symlink shows "name -> target".
      out.entries.push_back(SysfsEntry{std::string(w[8]), std::nullopt, line_no});
      continue;
    }
    std::size_t colon = t.find(':');
    if (colon != std::string_view::npos && colon > 0 && !has_space(t.substr(0, colon))) {
      out.entries.push_back(
          SysfsEntry{std::string(t.substr(0, colon)), std::string(text::trim(t.substr(colon + 1))),
                     line_no});
      continue;
    }
    if (text::contains(t, "=") && colon == std::string_view::npos) {
      out.entries.push_back(SysfsEntry{std::string(), std::string(t), line_no});
      continue;
    }
    if (w.size() == 1) {
      out.entries.push_back(SysfsEntry{std::string(w[0]), std::nullopt, line_no});
      continue;
    }
    if (w.size() == 2 && colon == std::string_view::npos) {
      out.entries.push_back(SysfsEntry{std::string(w[0]), std::string(w[1]), line_no});
      continue;
    }
    warnings.push_back(Warning{line_no, "unrecognised_line",
                               "unrecognised line: " + std::string(t.substr(0, 80))});
  }
  if (out.entries.empty()) {
    return rk::unexpected(ErrorKind::malformed_input, "no sysfs read recognised");
  }
  return Parsed<SysfsReads>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const SysfsReads& v) { return {{"entries", entries_json(v.entries)}}; }

Result<Parsed<SysfsEcn>> parse_sysfs_ecn(std::string_view text) {
  auto base = parse_sysfs_reads(text);
  if (!base) return rk::unexpected(base.error());
  SysfsEcn out;
  std::vector<Warning> warnings = std::move(base->warnings);
  out.entries = std::move(base->value.entries);
  std::size_t ecn_reads = 0;
  for (const SysfsEntry& e : out.entries) {
    std::vector<std::string_view> cs = components(e.path);
    std::size_t ecn = index_of(cs, "ecn");
    if (ecn + 2 >= cs.size()) {
      warnings.push_back(Warning{e.line, "unrecognised_line", "not an ecn sysfs path"});
      continue;
    }
    std::string_view point = cs[ecn + 1];
    if (point != "roce_rp" && point != "roce_np") {
      warnings.push_back(Warning{e.line, "unrecognised_line", "not a roce_rp/roce_np path"});
      continue;
    }
    ++ecn_reads;
    // /sys/class/net/<netdev>/ecn/...: the netdev is the component before "ecn" (empty if the
    // path starts at ecn/).
    std::string netdev = ecn > 0 ? std::string(cs[ecn - 1]) : std::string();
    SysfsEcnNetdev* nd = nullptr;
    for (SysfsEcnNetdev& n : out.netdevs) {
      if (n.netdev == netdev) nd = &n;
    }
    if (nd == nullptr) {
      out.netdevs.push_back(SysfsEcnNetdev{netdev, {}, {}, {}, {}});
      nd = &out.netdevs.back();
    }
    bool rp = point == "roce_rp";
    if (cs[ecn + 2] == "enable" && ecn + 3 < cs.size()) {
      auto prio = text::parse_uint(cs[ecn + 3]);
      std::optional<bool> on = e.value ? zero_one(*e.value) : std::nullopt;
      if (!prio || *prio >= k_num_priorities || (e.value && !on)) {
        warnings.push_back(Warning{e.line, "bad_number", "bad ecn enable priority or value"});
        continue;
      }
      auto& arr = rp ? nd->rp_enabled : nd->np_enabled;
      arr[static_cast<std::size_t>(*prio)] = on;
      continue;
    }
    std::string name;
    for (std::size_t k = ecn + 2; k < cs.size(); ++k) {
      if (!name.empty()) name += '/';
      name += cs[k];
    }
    (rp ? nd->rp_params : nd->np_params)[name] = e.value.value_or(std::string());
  }
  if (ecn_reads == 0) {
    return rk::unexpected(ErrorKind::malformed_input, "no ecn/roce_rp or ecn/roce_np read found");
  }
  return Parsed<SysfsEcn>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const SysfsEcn& v) {
  nlohmann::json nds = nlohmann::json::array();
  for (const SysfsEcnNetdev& n : v.netdevs) {
    nds.push_back({{"netdev", n.netdev},
                   {"rp_enabled", n.rp_enabled},
                   {"np_enabled", n.np_enabled},
                   {"rp_params", n.rp_params},
                   {"np_params", n.np_params}});
  }
  return {{"netdevs", nds}, {"entries", entries_json(v.entries)}};
}

bool looks_like_sysfs_ecn(std::string_view text) {
  if (!sysfs_shaped(text)) return false;
  return listing_has_any(text, {"ecn/roce_rp/", "ecn/roce_np/"});
}

Result<Parsed<SysfsCounters>> parse_sysfs_hw_counters(std::string_view text) {
  return parse_counters_impl(text);
}

Result<Parsed<SysfsCounters>> parse_sysfs_counters(std::string_view text) {
  return parse_counters_impl(text);
}

nlohmann::json to_json(const SysfsCounters& v) {
  nlohmann::json sets = nlohmann::json::array();
  for (const SysfsCounterSet& s : v.sets) {
    sets.push_back({{"rdma_device", s.rdma_device},
                    {"port", s.port},
                    {"kind", s.kind},
                    {"counters", s.counters}});
  }
  return {{"sets", sets}, {"entries", entries_json(v.entries)}};
}

bool looks_like_sysfs_hw_counters(std::string_view text) {
  if (!sysfs_shaped(text)) return false;
  return listing_has_any(text, {"/hw_counters/", "np_cnp_sent", "rp_cnp_handled",
                                "out_of_sequence", "np_ecn_marked_roce_packets"});
}

bool looks_like_sysfs_counters(std::string_view text) {
  if (!sysfs_shaped(text) || looks_like_sysfs_hw_counters(text)) return false;
  return listing_has_any(text, {"/counters/", "port_rcv_data", "port_xmit_data"});
}

Result<Parsed<SysfsTrafficClass>> parse_sysfs_traffic_class(std::string_view text) {
  auto base = parse_sysfs_reads(text);
  if (!base) {
    return rk::unexpected(ErrorKind::malformed_input, "no traffic_class content recognised");
  }
  SysfsTrafficClass out;
  std::vector<Warning> warnings = std::move(base->warnings);
  bool found = false;
  for (const SysfsEntry& e : base->value.entries) {
    std::vector<std::string_view> cs = components(e.path);
    std::string_view content;
    if (!cs.empty() && cs.back() == "traffic_class") {
      found = true;
      std::size_t tc = index_of(cs, "tc");
      if (tc > 0 && tc + 2 < cs.size()) {
        out.rdma_device = std::string(cs[tc - 1]);
        if (auto p = text::parse_uint(cs[tc + 1]); p && *p <= 0xffffffffULL) {
          out.port = static_cast<std::uint32_t>(*p);
        }
      }
      content = e.value ? std::string_view(*e.value) : std::string_view();
    } else if (e.path.empty() && e.value) {
      content = *e.value;
    } else {
      warnings.push_back(Warning{e.line, "unrecognised_line", "not a traffic_class read"});
      continue;
    }
    // traffic_class_show() (MLNX_OFED mlx5_ib): "Global tclass=N" when the global class is set,
    // then one line per destination rule ("dst_ip=192.0.2.0/24,tclass=N"): a rule is not global.
    content = text::trim(content);
    std::size_t eq = content.find("tclass=");
    if (eq == std::string_view::npos) {
      if (!content.empty()) {
        warnings.push_back(Warning{e.line, "unrecognised_line", "no tclass= in traffic_class"});
      }
      continue;
    }
    found = true;
    if (!text::starts_with(content, "Global tclass=")) {
      warnings.push_back(Warning{e.line, "per_destination_rule",
                                 "a per-destination traffic class rule, not the global class: " + std::string(content)});
      continue;
    }
    std::string_view num = text::trim(content.substr(eq + 7));
    // A note the author typed after the value ("Global tclass=236   # DSCP 59"): not the file's.
    if (std::size_t hash = num.find(" #"); hash != std::string_view::npos) {
      warnings.push_back(Warning{e.line, "annotation", "text after the value is not the file's: " +
                                                           std::string(text::trim(num.substr(hash)))});
      num = text::trim(num.substr(0, hash));
    }
    auto n = text::parse_uint(num);
    if (!n || *n > 255) {
      warnings.push_back(Warning{e.line, "bad_number", "tclass is not 0..255"});
      continue;
    }
    out.traffic_class = static_cast<std::uint32_t>(*n);
    out.dscp = static_cast<std::uint32_t>(*n >> 2);
    out.ecn_bits = static_cast<std::uint32_t>(*n & 3U);
  }
  if (!found) {
    return rk::unexpected(ErrorKind::malformed_input, "no traffic_class content recognised");
  }
  return Parsed<SysfsTrafficClass>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const SysfsTrafficClass& v) {
  return {{"rdma_device", v.rdma_device}, {"port", v.port},
          {"traffic_class", v.traffic_class}, {"dscp", v.dscp}, {"ecn_bits", v.ecn_bits}};
}

bool looks_like_sysfs_traffic_class(std::string_view text) {
  if (text::starts_with(text::trim(text), "Global tclass=")) return true;
  return sysfs_shaped(text) && listing_has_any(text, {"/traffic_class:"});
}

Result<Parsed<CmaRoceTos>> parse_cma_roce_tos(std::string_view text) {
  auto base = parse_sysfs_reads(text);
  if (!base) return rk::unexpected(ErrorKind::malformed_input, "no default_roce_tos read recognised");
  CmaRoceTos out;
  std::vector<Warning> warnings = std::move(base->warnings);
  for (const SysfsEntry& e : base->value.entries) {
    std::vector<std::string_view> cs = components(e.path);
    RoceTosReading r;
    if (!cs.empty() && cs.back() == "default_roce_tos") {
      std::size_t ports = index_of(cs, "ports");
      if (ports > 0 && ports + 2 < cs.size()) {
        r.rdma_device = std::string(cs[ports - 1]);
        if (auto p = text::parse_uint(cs[ports + 1]); p && *p <= 255) r.port = static_cast<std::uint32_t>(*p);
      }
    } else if (e.value || !text::parse_uint(e.path)) {  // a bare `cat` is one word: the number
      warnings.push_back(Warning{e.line, "unrecognised_line", "not a default_roce_tos read"});
      continue;
    }
    auto n = e.value ? text::parse_uint(text::trim(*e.value)) : text::parse_uint(e.path);
    if (!n || *n > 255) {
      warnings.push_back(Warning{e.line, "bad_number", "default_roce_tos is not 0..255"});
      continue;
    }
    r.tos = static_cast<std::uint32_t>(*n);
    r.line = e.line;
    out.readings.push_back(std::move(r));
  }
  if (out.readings.empty()) return rk::unexpected(ErrorKind::malformed_input, "no default_roce_tos value recognised");
  return Parsed<CmaRoceTos>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const CmaRoceTos& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const RoceTosReading& r : v.readings)
    a.push_back({{"rdma_device", r.rdma_device}, {"port", r.port}, {"tos", r.tos}, {"line", r.line}});
  return {{"readings", a}};
}

bool looks_like_cma_roce_tos(std::string_view text) {
  return sysfs_shaped(text) && listing_has_any(text, {"/default_roce_tos:"});
}

}  // namespace rk::parse

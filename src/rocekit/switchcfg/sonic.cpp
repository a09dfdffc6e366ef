// SONiC config_db.json -> SwitchQos. Both serialisations: nested {"TABLE": {"key": {...}}} and
// the flat redis dump {"TABLE|key": {...}}. References may be bare names or "[TABLE|name]".
// Tables and defaults: shared/reference/switch/switch.md §1.1, §1.2 (qos_config.j2).
#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

using nlohmann::json;

/// Tables this parser reads (also the detection set).
const std::set<std::string>& qos_tables() {
  static const std::set<std::string> k{
      "DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP",
      "MAP_PFC_PRIORITY_TO_QUEUE", "PORT_QOS_MAP", "QUEUE", "WRED_PROFILE", "SCHEDULER",
      "BUFFER_PG", "BUFFER_PROFILE", "PFC_WD", "PORT"};
  return k;
}

struct Row {
  std::string key;                 ///< key within the table ("Ethernet0|3")
  const json* fields = nullptr;    ///< object of field -> value
  std::vector<std::string> path;   ///< JSON keys leading to `fields`, for line lookup
};

class Db {
 public:
  Db(const json& root, std::string_view text, std::string file)
      : m_index(text), m_file(std::move(file)) {
    for (auto it = root.begin(); it != root.end(); ++it) {
      const std::string& top = it.key();
      std::size_t bar = top.find('|');
      if (bar != std::string::npos) {  // flat form
        if (it->is_object()) m_tables[top.substr(0, bar)].push_back({top.substr(bar + 1), &*it, {top}});
        continue;
      }
      if (!it->is_object()) {
        if (qos_tables().count(top) && !m_bad_table) m_bad_table = top + " is a JSON " + it->type_name() + ", not an object of rows";
        if (qos_tables().count(top) && m_bad_table_line == 0) m_bad_table_line = m_index.line({top});
        continue;
      }
      for (auto row = it->begin(); row != it->end(); ++row)
        if (row->is_object()) m_tables[top].push_back({row.key(), &*row, {top, row.key()}});
    }
  }

  const std::vector<Row>& table(const std::string& name) const {
    static const std::vector<Row> k_empty;
    auto it = m_tables.find(name);
    return it == m_tables.end() ? k_empty : it->second;
  }
  bool has_table(const std::string& name) const { return m_tables.count(name) != 0; }
  const Row* row(const std::string& table_name, const std::string& key) const {
    for (const Row& r : table(table_name))
      if (r.key == key) return &r;
    return nullptr;
  }
  /// String field, or nullopt (numbers are accepted and printed as text).
  static std::optional<std::string> field(const Row& r, const std::string& name) {
    auto it = r.fields->find(name);
    if (it == r.fields->end()) return std::nullopt;
    if (it->is_string()) return it->get<std::string>();
    if (it->is_number_integer()) return std::to_string(it->get<long long>());
    return std::nullopt;
  }
  Evidence evidence(const Row& r, const std::string& field_name) const {
    std::vector<std::string> keys = r.path;
    if (!field_name.empty()) keys.push_back(field_name);
    std::string pointer;
    for (const std::string& k : keys) pointer += "/" + escape(k);
    std::optional<std::string> v = field_name.empty() ? std::nullopt : field(r, field_name);
    return Evidence{m_file, m_index.line(keys),
                    pointer + (v ? " = \"" + *v + "\"" : std::string())};
  }
  const std::string& file() const { return m_file; }
  /// A QoS table of the wrong JSON type ("DSCP_TO_TC_MAP": []), with its line.
  const std::optional<std::string>& bad_table() const { return m_bad_table; }
  std::size_t bad_table_line() const { return m_bad_table_line; }
  /// The raw value of a field as JSON text (for error messages), or "".
  static std::string raw(const Row& r, const std::string& name) {
    auto it = r.fields->find(name);
    return it == r.fields->end() ? std::string() : it->dump();
  }

 private:
  static std::string escape(const std::string& k) {
    std::string out;
    for (char c : k) {
      if (c == '~') out += "~0";
      else if (c == '/') out += "~1";
      else out += c;
    }
    return out;
  }
  detail::JsonLineIndex m_index;
  std::string m_file;
  std::map<std::string, std::vector<Row>> m_tables;
  std::optional<std::string> m_bad_table;
  std::size_t m_bad_table_line = 0;
};

/// "[SCHEDULER|scheduler.1]" -> "scheduler.1"; bare names unchanged.
std::string strip_ref(std::string s) {
  if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  std::size_t bar = s.find('|');
  if (bar != std::string::npos) s = s.substr(bar + 1);
  return s;
}

/// Port-name order: "Ethernet4" before "Ethernet16".
bool port_less(const std::string& a, const std::string& b) {
  auto split_num = [](const std::string& s) {
    std::size_t i = s.size();
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') --i;
    long long n = i < s.size() && s.size() - i < 12 ? std::stoll(s.substr(i)) : -1;
    return std::pair<std::string, long long>(s.substr(0, i), n);
  };
  auto pa = split_num(a), pb = split_num(b);
  return pa != pb ? pa < pb : a < b;
}

struct Parser {
  const Db& db;
  SwitchQos& out;
  std::optional<Error> error;

  void fail(const Evidence& where, std::string message) {
    if (!error) error = Error{ErrorKind::malformed_input, std::move(message),
                              where.line ? where.file + ":" + std::to_string(where.line) : where.file};
  }

  /// Reads a "<int>": "<int>" map table row; keys/values range-checked.
  Fact<std::map<int, int>> read_map(const std::string& table, const std::string& name, int key_max,
                                    int value_max, const Evidence& binding,
                                    std::map<int, std::size_t>* lines = nullptr) {
    const Row* r = db.row(table, name);
    if (!r)  // a config subset: the binding names a map the input does not carry
      return Fact<std::map<int, int>>::missing(binding.text + " names " + table + "|" + name +
                                                   ", which is not in the input",
                                               binding);
    std::map<int, int> m;
    for (auto it = r->fields->begin(); it != r->fields->end(); ++it) {
      std::optional<int> k = detail::parse_small_int(it.key(), 0, key_max);
      std::optional<int> v = it->is_string() ? detail::parse_small_int(it->get<std::string>(), 0, value_max)
                             : it->is_number_integer() && it->get<long long>() >= 0 && it->get<long long>() <= value_max
                                 ? std::optional<int>(static_cast<int>(it->get<long long>()))
                                 : std::nullopt;
      if (!k) {
        fail(db.evidence(*r, it.key()), table + "|" + name + ": key \"" + it.key() + "\" is not <0-" +
                                            std::to_string(key_max) + ">");
        continue;
      }
      if (!v) {
        fail(db.evidence(*r, it.key()), table + "|" + name + ": \"" + it.key() + "\": value " + it->dump() +
                                            " is not <0-" + std::to_string(value_max) + ">");
        continue;
      }
      m[*k] = *v;
      if (lines) (*lines)[*k] = db.evidence(*r, it.key()).line;
    }
    Evidence e = db.evidence(*r, "");
    e.text += " (bound by " + binding.text + ")";
    return Fact<std::map<int, int>>::of(std::move(m), e);
  }

  /// A map bound in PORT_QOS_MAP|port.<field>, falling back to PORT_QOS_MAP|global.<field>.
  Fact<std::map<int, int>> bound_map(const Row* port_row, const Row* global_row,
                                     const std::string& field, const std::string& table, int key_max,
                                     int value_max, const std::string& default_note,
                                     std::string* name_out = nullptr,
                                     std::map<int, std::size_t>* lines = nullptr) {
    for (const Row* r : {port_row, global_row}) {
      if (!r) continue;
      std::optional<std::string> name = Db::field(*r, field);
      if (!name) continue;
      std::string n = strip_ref(*name);
      if (name_out) *name_out = n;
      return read_map(table, n, key_max, value_max, db.evidence(*r, field), lines);
    }
    if (!db.has_table("PORT_QOS_MAP"))
      return Fact<std::map<int, int>>::missing("PORT_QOS_MAP not in config (default, not in config: " +
                                               default_note + ")");
    return Fact<std::map<int, int>>::missing(
        "no " + field + " in PORT_QOS_MAP for this port or global (default, not in config: " +
        default_note + ")");
  }

  void read_port(PortQos& p) {
    const Row* qos = db.row("PORT_QOS_MAP", p.name);
    const Row* global = db.row("PORT_QOS_MAP", "global");
    p.dscp_to_tc = bound_map(qos, global, "dscp_to_tc_map", "DSCP_TO_TC_MAP", 63, 7,
                             "qos_config.j2 binds AZURE: DSCP 3->3, 4->4, 5->2, 8->0, 46->5, "
                             "48->6, all others (24, 26 included) -> TC1",
                             &p.dscp_to_tc_map_name, &p.dscp_to_tc_lines);
    p.tc_to_queue = bound_map(qos, nullptr, "tc_to_queue_map", "TC_TO_QUEUE_MAP", 7, 7,
                              "qos_config.j2 binds AZURE: identity");
    p.tc_to_pg = bound_map(qos, nullptr, "tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP", 7, 7,
                           "qos_config.j2 binds AZURE: 3->3, 4->4, 7->7, others -> 0");
    p.pfc_priority_to_queue = bound_map(qos, nullptr, "pfc_to_queue_map", "MAP_PFC_PRIORITY_TO_QUEUE",
                                        7, 7, "qos_config.j2 binds AZURE: identity");
    // Trust: what the port classifies on.
    {
      std::optional<std::string> dot1p = qos ? Db::field(*qos, "dot1p_to_tc_map") : std::nullopt;
      if (p.dscp_to_tc.has_value() && dot1p)
        p.trust = Fact<std::string>::of("pcp,dscp", db.evidence(*qos, "dot1p_to_tc_map"));
      else if (p.dscp_to_tc.has_value())
        p.trust = Fact<std::string>::of("dscp", p.dscp_to_tc.source);
      else if (dot1p)
        p.trust = Fact<std::string>::of("pcp", db.evidence(*qos, "dot1p_to_tc_map"));
      else
        p.trust = Fact<std::string>::missing("no dscp_to_tc_map or dot1p_to_tc_map bound: " +
                                             p.dscp_to_tc.reason);
    }
    // PFC priorities and the software watchdog priorities.
    auto pri_list = [&](const std::string& field, const std::string& default_note) {
      if (!qos) {
        return Fact<std::vector<int>>::missing(
            (db.has_table("PORT_QOS_MAP") ? "no PORT_QOS_MAP|" + p.name + " entry"
                                          : std::string("PORT_QOS_MAP not in config")) +
            " (default, not in config: " + default_note + ")");
      }
      std::optional<std::string> v = Db::field(*qos, field);
      if (!v && field == "pfcwd_sw_enable")  // older SONiC: the watchdog covers pfc_enable
        return Fact<std::vector<int>>::missing("no pfcwd_sw_enable", db.evidence(*qos, ""));
      if (!v)
        return Fact<std::vector<int>>::of({}, db.evidence(*qos, ""));  // field absent: none
      std::optional<std::vector<int>> list = detail::parse_int_list(*v, 0, 7);
      Evidence e = db.evidence(*qos, field);
      if (!list) {
        fail(e, "PORT_QOS_MAP|" + p.name + "." + field + ": not a priority list 0-7: \"" + *v + "\"");
        return Fact<std::vector<int>>::missing("unreadable " + field, e);
      }
      return Fact<std::vector<int>>::of(*list, e);
    };
    p.pfc_enabled = pri_list("pfc_enable", "qos_config.j2 sets pfc_enable \"3,4\"");
    Fact<std::vector<int>> wd_pri = pri_list("pfcwd_sw_enable", "qos_config.j2 sets pfcwd_sw_enable \"3,4\"");
    read_watchdog(p, wd_pri);
    read_queues(p);
    read_buffers(p);
    // MTU.
    if (const Row* port = db.row("PORT", p.name)) {
      std::optional<std::string> v = Db::field(*port, "mtu");
      Evidence e = db.evidence(*port, v ? "mtu" : "");
      std::optional<int> mtu = v ? detail::parse_small_int(*v, 68, 65535) : std::nullopt;
      if (v && !mtu) fail(e, "PORT|" + p.name + ".mtu: not a number 68-65535: \"" + *v + "\"");
      p.mtu_bytes = mtu ? Fact<int>::of(*mtu, e)
                        : Fact<int>::missing("PORT|" + p.name + " has no mtu (default, not in "
                                             "config: SONiC port configs use 9100)", e);
    } else {
      p.mtu_bytes = Fact<int>::missing(std::string(db.has_table("PORT") ? "no PORT|" + p.name + " entry"
                                                                        : "PORT table not in config") +
                                       " (default, not in config: SONiC port configs use 9100)");
    }
  }

  void read_watchdog(PortQos& p, const Fact<std::vector<int>>& wd_pri) {
    const Row* wd = db.row("PFC_WD", p.name);
    const Row* global = db.row("PFC_WD", "GLOBAL");
    if (!wd) {
      std::string why = db.has_table("PFC_WD") ? "no PFC_WD|" + p.name + " entry"
                                               : std::string("PFC_WD not in config");
      why += " (default, not in config: `config pfcwd start_default` starts it with action drop, "
             "detection 200 ms, restoration 200 ms, poll 200 ms";
      if (const Row* meta = db.row("DEVICE_METADATA", "localhost"))
        if (std::optional<std::string> s = Db::field(*meta, "default_pfcwd_status"))
          why += "; DEVICE_METADATA|localhost.default_pfcwd_status is \"" + *s + "\"";
      why += ")";
      p.pfc_watchdog = Fact<PfcWatchdog>::missing(why);
      return;
    }
    PfcWatchdog w;
    w.enabled = true;
    std::string note;
    if (wd_pri.has_value()) {
      w.priorities = *wd_pri;
    } else if (p.pfc_enabled.has_value()) {
      w.priorities = *p.pfc_enabled;
      note = " (no pfcwd_sw_enable: the watchdog covers the pfc_enable priorities)";
    }
    w.action = Db::field(*wd, "action");
    auto ms = [&](const Row& r, const std::string& f) -> std::optional<int> {
      std::optional<std::string> v = Db::field(r, f);
      if (!v) return std::nullopt;
      std::optional<int> n = detail::parse_small_int(*v, 0, 10000000);
      if (!n) fail(db.evidence(r, f), "PFC_WD|" + r.key + "." + f + ": not a number of ms: \"" + *v + "\"");
      return n;
    };
    w.detection_time_ms = ms(*wd, "detection_time");
    w.restoration_time_ms = ms(*wd, "restoration_time");
    if (global) w.poll_interval_ms = ms(*global, "POLL_INTERVAL");
    if (wd_pri.has_value() && wd_pri->empty()) w.enabled = false;  // pfcwd_sw_enable absent/empty
    Evidence e = db.evidence(*wd, "action");
    e.text += note;
    p.pfc_watchdog = Fact<PfcWatchdog>::of(w, e);
  }

  void read_queues(PortQos& p) {
    for (const Row& r : db.table("QUEUE")) {
      // "<port>|<q>", "<port1>,<port2>|<q-range>", VOQ "<host>|<asic>|<port>|<q>".
      std::size_t bar = r.key.rfind('|');
      if (bar == std::string::npos) continue;
      std::string ports = r.key.substr(0, bar);
      std::size_t pb = ports.rfind('|');
      if (pb != std::string::npos) ports = ports.substr(pb + 1);
      bool mine = false;
      for (std::string_view n : text::split(ports, ',')) mine = mine || n == p.name;
      if (!mine) continue;
      std::optional<std::vector<int>> qs = detail::parse_int_list(r.key.substr(bar + 1), 0, 31);
      if (!qs) {
        fail(db.evidence(r, ""), "QUEUE|" + r.key + ": queue index is not 0-31 or a range");
        continue;
      }
      for (int q : *qs) {
        QueueConfig& qc = p.queues[q];
        qc.queue = q;
        if (std::optional<std::string> s = Db::field(r, "scheduler")) qc.scheduling = scheduler(r, strip_ref(*s));
        if (std::optional<std::string> w = Db::field(r, "wred_profile")) qc.ecn = wred(r, strip_ref(*w));
      }
    }
    for (auto& [q, qc] : p.queues) {
      if (!qc.scheduling.has_value() && qc.scheduling.reason.empty())
        qc.scheduling = Fact<Scheduling>::missing("QUEUE|" + p.name + "|" + std::to_string(q) +
                                                  " has no scheduler (SAI default scheduling)");
      if (!qc.ecn.has_value() && qc.ecn.reason.empty()) {
        EcnConfig none;
        none.mode = "none";
        Evidence e = queue_evidence(p.name, q);
        e.text += " (no wred_profile: no ECN marking, no WRED)";
        qc.ecn = Fact<EcnConfig>::of(none, e);
      }
    }
  }

  Evidence queue_evidence(const std::string& port, int q) {
    for (const Row& r : db.table("QUEUE"))
      if (r.key == port + "|" + std::to_string(q)) return db.evidence(r, "");
    return Evidence{db.file(), 0, "QUEUE|" + port + "|" + std::to_string(q)};
  }

  Fact<Scheduling> scheduler(const Row& queue_row, const std::string& name) {
    const Row* s = db.row("SCHEDULER", name);
    Evidence bind = db.evidence(queue_row, "scheduler");
    if (!s)
      return Fact<Scheduling>::missing("QUEUE|" + queue_row.key + " names SCHEDULER|" + name +
                                           ", which is not in the input",
                                       bind);
    Scheduling sc;
    std::string type = text::to_lower(Db::field(*s, "type").value_or(""));
    sc.type = type == "strict" ? "strict" : type == "dwrr" || type == "wrr" ? "dwrr" : type;
    if (s->fields->contains("weight")) {
      std::optional<std::string> w = Db::field(*s, "weight");
      sc.weight = w ? detail::parse_small_int(*w, 0, 1000000) : std::nullopt;
      if (!sc.weight)
        fail(db.evidence(*s, "weight"),
             "SCHEDULER|" + name + ": weight " + Db::raw(*s, "weight") + " is not <0-1000000>");
    }
    Evidence e = db.evidence(*s, "type");
    e.text += " (via " + bind.text + ")";
    return Fact<Scheduling>::of(sc, e);
  }

  Fact<EcnConfig> wred(const Row& queue_row, const std::string& name) {
    const Row* w = db.row("WRED_PROFILE", name);
    Evidence bind = db.evidence(queue_row, "wred_profile");
    if (!w)
      return Fact<EcnConfig>::missing("QUEUE|" + queue_row.key + " names WRED_PROFILE|" + name +
                                          ", which is not in the input",
                                      bind);
    EcnConfig e;
    e.profile = name;
    e.mode = Db::field(*w, "ecn");
    e.ecn_marking = e.mode && *e.mode != "ecn_none";
    std::optional<std::string> green = Db::field(*w, "wred_green_enable");
    if (green) e.wred_drop = *green == "true";
    // A threshold or probability that is present but not a number in range is an input
    // error (file:line), not a silently missing value.
    auto bytes = [&](const std::string& f) -> std::optional<std::uint64_t> {
      if (!w->fields->contains(f)) return std::nullopt;
      std::optional<std::string> v = Db::field(*w, f);
      std::optional<std::uint64_t> n = v ? text::parse_uint(*v) : std::nullopt;
      if (!n || *n > (std::uint64_t{1} << 40))
        fail(db.evidence(*w, f), "WRED_PROFILE|" + name + ": " + f + " " + Db::raw(*w, f) +
                                     " is not a byte count <0-1099511627776>");
      return n;
    };
    e.min_threshold_bytes = bytes("green_min_threshold");
    e.max_threshold_bytes = bytes("green_max_threshold");
    if (w->fields->contains("green_drop_probability")) {
      std::optional<std::string> pr = Db::field(*w, "green_drop_probability");
      e.mark_probability_percent = pr ? detail::parse_small_int(*pr, 0, 100) : std::nullopt;
      if (!e.mark_probability_percent)
        fail(db.evidence(*w, "green_drop_probability"), "WRED_PROFILE|" + name + ": green_drop_probability " +
                                                            Db::raw(*w, "green_drop_probability") + " is not <0-100>");
    }
    Evidence ev = db.evidence(*w, e.mode ? "ecn" : "");
    if (!e.mode) ev.text += " (no ecn field: ecn_none)";
    ev.text += " (via " + bind.text + ")";
    return Fact<EcnConfig>::of(e, ev);
  }

  void read_buffers(PortQos& p) {
    if (!db.has_table("BUFFER_PG")) {
      p.buffer_reason = "BUFFER_PG not in config (buffermgrd creates BUFFER_PG|<port>|3-4 with a "
                        "lossless profile on active ports: default, not in config)";
      return;
    }
    for (const Row& r : db.table("BUFFER_PG")) {
      std::size_t bar = r.key.rfind('|');
      if (bar == std::string::npos) continue;
      bool mine = false;
      for (std::string_view n : text::split(std::string_view(r.key).substr(0, bar), ',')) mine = mine || n == p.name;
      if (!mine) continue;
      std::optional<std::vector<int>> pgs = detail::parse_int_list(r.key.substr(bar + 1), 0, 15);
      if (!pgs || pgs->empty()) {
        fail(db.evidence(r, ""), "BUFFER_PG|" + r.key + ": priority group is not 0-15 or a range");
        continue;
      }
      BufferPg pg;
      pg.first_pg = pgs->front();
      pg.last_pg = pgs->back();
      pg.profile = strip_ref(Db::field(r, "profile").value_or(""));
      pg.source = db.evidence(r, "profile");
      if (pg.profile == "NULL") {
        pg.lossless = true;
        pg.basis = "profile NULL: dynamic lossless headroom computed by buffermgrd";
      } else if (const Row* prof = db.row("BUFFER_PROFILE", pg.profile)) {
        std::optional<std::string> xoff = Db::field(*prof, "xoff");
        pg.lossless = xoff.has_value();
        pg.basis = xoff ? "BUFFER_PROFILE|" + pg.profile + " has xoff " + *xoff
                        : "BUFFER_PROFILE|" + pg.profile + " has no xoff (no PFC headroom)";
      } else if (text::starts_with(pg.profile, "pg_lossless_")) {
        pg.lossless = true;
        pg.basis = "profile name pg_lossless_* (BUFFER_PROFILE row not in config)";
      } else if (text::contains(pg.profile, "lossy")) {
        pg.lossless = false;
        pg.basis = "profile name says lossy (BUFFER_PROFILE row not in config)";
      } else {
        pg.basis = "BUFFER_PROFILE|" + pg.profile + " not in config";
      }
      p.buffer_pgs.push_back(pg);
    }
    if (p.buffer_pgs.empty()) p.buffer_reason = "no BUFFER_PG|" + p.name + "|<pg> entry";
  }
};

}  // namespace

Result<SwitchQos> parse_sonic_config_db(std::string_view text, const std::string& file) {
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::size_t byte = std::min<std::size_t>(e.byte, text.size());
    std::size_t line = static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte ? byte - 1 : 0), '\n')) + 1;
    std::string what = e.what();
    std::size_t colon = what.rfind(": ");
    return detail::malformed(file, line, "not valid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
  } catch (const json::exception& e) {  // out_of_range 406: "number overflow parsing '1e400'"
    std::string what = e.what();
    std::size_t colon = what.find("] ");
    what = colon == std::string::npos ? what : what.substr(colon + 2);
    std::size_t line = 0;
    std::size_t q1 = what.find('\''), q2 = what.rfind('\'');
    if (q1 != std::string::npos && q2 > q1 + 1) {
      std::size_t at = text.find(what.substr(q1 + 1, q2 - q1 - 1));
      if (at != std::string_view::npos)
        line = static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
    }
    return detail::malformed(file, line, "not valid JSON: " + what);
  }
  if (!root.is_object())
    return detail::malformed(file, 1, "SONiC config_db.json must be a JSON object");
  Db db(root, text, file);
  if (db.bad_table()) return detail::malformed(file, db.bad_table_line(), *db.bad_table());
  bool any = false;
  for (const std::string& t : qos_tables()) any = any || db.has_table(t);
  if (!any)
    return unexpected(ErrorKind::unsupported,
                      "no SONiC QoS table (DSCP_TO_TC_MAP, PORT_QOS_MAP, QUEUE, BUFFER_PG, PFC_WD, PORT, ...)",
                      file);
  SwitchQos sw;
  sw.file = file;
  sw.dialect = Dialect::sonic_config_db;
  if (const Row* meta = db.row("DEVICE_METADATA", "localhost"))
    sw.name = Db::field(*meta, "hostname").value_or("");
  // Ports: every port any per-port table names.
  std::set<std::string> names;
  auto add_ports = [&](const std::string& table, bool has_suffix) {
    for (const Row& r : db.table(table)) {
      std::string k = r.key;
      if (has_suffix) {
        std::size_t bar = k.rfind('|');
        if (bar == std::string::npos) continue;
        k = k.substr(0, bar);
        std::size_t pb = k.rfind('|');
        if (pb != std::string::npos) k = k.substr(pb + 1);
      }
      if (k == "global" || k == "GLOBAL") continue;
      for (std::string_view n : text::split(k, ','))
        if (!text::trim(n).empty()) names.insert(std::string(text::trim(n)));
    }
  };
  add_ports("PORT", false);
  add_ports("PORT_QOS_MAP", false);
  add_ports("PFC_WD", false);
  add_ports("QUEUE", true);
  add_ports("BUFFER_PG", true);
  std::vector<std::string> ordered(names.begin(), names.end());
  std::sort(ordered.begin(), ordered.end(), port_less);
  Parser parser{db, sw, std::nullopt};
  for (const std::string& n : ordered) {
    PortQos p;
    p.name = n;
    parser.read_port(p);
    if (parser.error) return unexpected(*parser.error);
    sw.ports.push_back(std::move(p));
  }
  if (sw.ports.empty()) {
    // Only global maps (e.g. a rendered qos.json without ports): one system-wide entry.
    PortQos p;
    p.name = "*";
    parser.read_port(p);
    if (parser.error) return unexpected(*parser.error);
    sw.ports.push_back(std::move(p));
    sw.notes.push_back("no per-port table: the global PORT_QOS_MAP binding applies to every port");
  }
  if (db.has_table("DOT1P_TO_TC_MAP"))
    sw.notes.push_back("DOT1P_TO_TC_MAP present: PCP classification is not modelled beyond trust");
  return sw;
}

}  // namespace rk::switchcfg

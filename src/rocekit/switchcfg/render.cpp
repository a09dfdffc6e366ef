// `rocekit switch show` text/JSON and the switch.* rule table. Formats only.
#include <nlohmann/json.hpp>

#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

using nlohmann::json;

std::string where(const Evidence& e) {
  if (e.file.empty()) return e.text;
  std::string s = e.file + (e.line ? ":" + std::to_string(e.line) : std::string());
  return e.text.empty() ? s : s + " " + e.text;
}

json ev_json(const Evidence& e) {
  json j = {{"file", e.file}, {"text", e.text}};
  if (e.line) j["line"] = e.line;
  return j;
}

template <class T, class F>
json fact_json(const Fact<T>& f, F value_fn) {
  if (!f.has_value()) {
    json j = {{"unknown", f.reason}};
    if (!f.source.file.empty()) j["source"] = ev_json(f.source);
    return j;
  }
  return {{"value", value_fn(*f)}, {"source", ev_json(f.source)}};
}

json map_json(const std::map<int, int>& m) {
  json j = json::object();
  for (const auto& [k, v] : m) j[std::to_string(k)] = v;
  return j;
}

std::string map_text(const std::map<int, int>& m) {
  // Group keys by value: "3->3 4->4 {0-2,6,7,...}->1".
  std::map<int, std::vector<int>> by_value;
  for (const auto& [k, v] : m) by_value[v].push_back(k);
  std::string s;
  for (const auto& [v, keys] : by_value) {
    std::string ks;
    std::size_t i = 0;
    while (i < keys.size()) {
      std::size_t j = i;
      while (j + 1 < keys.size() && keys[j + 1] == keys[j] + 1) ++j;
      ks += (ks.empty() ? "" : ",") + std::to_string(keys[i]) + (j > i ? "-" + std::to_string(keys[j]) : "");
      i = j + 1;
    }
    s += (s.empty() ? "" : " ") + ks + "->" + std::to_string(v);
  }
  return s.empty() ? "(empty)" : s;
}

template <class T, class F>
std::string fact_text(const Fact<T>& f, F fmt) {
  if (!f.has_value()) return "unknown: " + f.reason;
  return fmt(*f) + "    [" + where(f.source) + "]";
}

std::string sched_text(const Scheduling& s) {
  return s.type + (s.weight ? " weight " + std::to_string(*s.weight) : std::string());
}

std::string ecn_text(const EcnConfig& e) {
  std::string s = e.ecn_marking ? "ECN " + e.mode.value_or("on") : "no ECN (" + e.mode.value_or("none") + ")";
  if (e.min_threshold_bytes && e.max_threshold_bytes)
    s += " " + std::to_string(*e.min_threshold_bytes) + "-" + std::to_string(*e.max_threshold_bytes) + " B";
  else if (e.threshold_text)
    s += " " + *e.threshold_text;
  if (e.mark_probability_percent) s += " p=" + std::to_string(*e.mark_probability_percent) + "%";
  if (e.wred_drop) s += *e.wred_drop ? ", WRED drop on" : ", WRED drop off";
  if (!e.profile.empty()) s += " (profile " + e.profile + ")";
  return s;
}

std::string wd_text(const PfcWatchdog& w) {
  std::string s = w.enabled ? "enabled" : "disabled";
  if (!w.priorities.empty()) s += " on " + detail::int_list(w.priorities);
  if (w.action) s += ", action " + *w.action;
  if (w.detection_time_ms) s += ", detection " + std::to_string(*w.detection_time_ms) + " ms";
  if (w.restoration_time_ms) s += ", restoration " + std::to_string(*w.restoration_time_ms) + " ms";
  if (w.poll_interval_ms) s += ", poll " + std::to_string(*w.poll_interval_ms) + " ms";
  return s;
}

}  // namespace

std::string qos_text(const SwitchQos& sw) {
  std::string o = "switch " + (sw.name.empty() ? std::string("(unnamed)") : sw.name) + "  " + sw.file +
                  "  dialect " + std::string(to_string(sw.dialect)) + "  ports " +
                  std::to_string(sw.ports.size()) + "\n";
  for (const std::string& n : sw.notes) o += "note: " + n + "\n";
  auto ident = [](const std::string& s) { return s; };
  auto ints = [](const std::vector<int>& v) { return v.empty() ? std::string("none") : detail::int_list(v); };
  for (const PortQos& p : sw.ports) {
    o += "\nport " + p.name + "\n";
    o += "  trust:          " + fact_text(p.trust, ident) + "\n";
    o += "  DSCP->TC:       " + fact_text(p.dscp_to_tc, map_text) + "\n";
    o += "  TC->queue:      " + fact_text(p.tc_to_queue, map_text) + "\n";
    o += "  TC->PG:         " + fact_text(p.tc_to_pg, map_text) + "\n";
    o += "  PFC prio->queue:" + std::string(" ") + fact_text(p.pfc_priority_to_queue, map_text) + "\n";
    o += "  PFC priorities: " + fact_text(p.pfc_enabled, ints) + "\n";
    if (!p.tc_pfc_priority.empty()) o += "  TC->PFC prio:   " + map_text(p.tc_pfc_priority) + "\n";
    if (p.buffer_pgs.empty()) o += "  buffer PGs:     unknown: " + p.buffer_reason + "\n";
    for (const BufferPg& b : p.buffer_pgs)
      o += "  buffer PG " + std::to_string(b.first_pg) + (b.last_pg != b.first_pg ? "-" + std::to_string(b.last_pg) : "") +
           ":  " + b.profile + " " + (b.lossless ? (*b.lossless ? "lossless" : "lossy") : "unknown") + " (" +
           b.basis + ")    [" + where(b.source) + "]\n";
    for (const auto& [q, qc] : p.queues) {
      o += "  queue " + std::to_string(q) + ":        scheduling " + fact_text(qc.scheduling, sched_text) + "\n";
      o += "                  " + fact_text(qc.ecn, ecn_text) + "\n";
    }
    o += "  MTU:            " + fact_text(p.mtu_bytes, [](int m) { return std::to_string(m) + " bytes"; }) + "\n";
    o += "  PFC watchdog:   " + fact_text(p.pfc_watchdog, wd_text) + "\n";
  }
  return o;
}

std::string qos_json(const SwitchQos& sw) {
  json ports = json::array();
  auto ident = [](const auto& v) { return json(v); };
  for (const PortQos& p : sw.ports) {
    json queues = json::array();
    for (const auto& [q, qc] : p.queues) {
      queues.push_back({{"queue", q},
                        {"scheduling", fact_json(qc.scheduling, [](const Scheduling& s) {
                           json j = {{"type", s.type}};
                           if (s.weight) j["weight"] = *s.weight;
                           return j;
                         })},
                        {"ecn", fact_json(qc.ecn, [](const EcnConfig& e) {
                           json j = {{"ecn_marking", e.ecn_marking}};
                           if (e.mode) j["mode"] = *e.mode;
                           if (e.wred_drop) j["wred_drop"] = *e.wred_drop;
                           if (e.min_threshold_bytes) j["min_threshold_bytes"] = *e.min_threshold_bytes;
                           if (e.max_threshold_bytes) j["max_threshold_bytes"] = *e.max_threshold_bytes;
                           if (e.threshold_text) j["threshold_text"] = *e.threshold_text;
                           if (e.mark_probability_percent) j["mark_probability_percent"] = *e.mark_probability_percent;
                           if (!e.profile.empty()) j["profile"] = e.profile;
                           return j;
                         })}});
    }
    json pgs = json::array();
    for (const BufferPg& b : p.buffer_pgs) {
      json j = {{"first_pg", b.first_pg}, {"last_pg", b.last_pg}, {"profile", b.profile},
                {"basis", b.basis}, {"source", ev_json(b.source)}};
      j["lossless"] = b.lossless ? json(*b.lossless) : json(nullptr);
      pgs.push_back(j);
    }
    json jp = {{"name", p.name},
               {"trust", fact_json(p.trust, ident)},
               {"dscp_to_tc", fact_json(p.dscp_to_tc, map_json)},
               {"tc_to_queue", fact_json(p.tc_to_queue, map_json)},
               {"tc_to_pg", fact_json(p.tc_to_pg, map_json)},
               {"pfc_priority_to_queue", fact_json(p.pfc_priority_to_queue, map_json)},
               {"pfc_enabled", fact_json(p.pfc_enabled, ident)},
               {"buffer_pgs", pgs},
               {"queues", queues},
               {"mtu_bytes", fact_json(p.mtu_bytes, ident)},
               {"pfc_watchdog", fact_json(p.pfc_watchdog, [](const PfcWatchdog& w) {
                  json j = {{"enabled", w.enabled}, {"priorities", w.priorities}};
                  if (w.action) j["action"] = *w.action;
                  if (w.detection_time_ms) j["detection_time_ms"] = *w.detection_time_ms;
                  if (w.restoration_time_ms) j["restoration_time_ms"] = *w.restoration_time_ms;
                  if (w.poll_interval_ms) j["poll_interval_ms"] = *w.poll_interval_ms;
                  return j;
                })}};
    if (!p.dscp_to_tc_map_name.empty()) jp["dscp_to_tc_map_name"] = p.dscp_to_tc_map_name;
    if (!p.tc_pfc_priority.empty()) jp["tc_pfc_priority"] = map_json(p.tc_pfc_priority);
    if (p.buffer_pgs.empty()) jp["buffer_reason"] = p.buffer_reason;
    ports.push_back(jp);
  }
  json j = {{"file", sw.file}, {"dialect", to_string(sw.dialect)}, {"name", sw.name},
            {"notes", sw.notes}, {"ports", ports}};
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace rk::switchcfg

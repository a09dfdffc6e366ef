// Diagnosis -> text, JSON, Markdown. Formats only; the rules decided.
#include <cstdio>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "rocekit/diagnose/diagnose.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::diagnose {

namespace {

std::string num(double v) {
  char buf[64];
  if (v == 0) return "0";
  if (v >= 100 || v == static_cast<double>(static_cast<long long>(v)))
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string evidence_line(const CounterEvidence& e) {
  std::string s = e.source + ":" + e.counter + " ";
  if (e.status == "absent") return s + "absent";
  if (e.status == "disappeared" || e.status == "appeared") return s + e.status;
  s += "+" + std::to_string(e.delta) + " (" + num(e.rate_per_s) + "/s)";
  if (e.status != "ok") s += " [" + e.status + "]";
  return s;
}

/// Counters that moved or changed status, per table.
std::vector<const CounterDelta*> moved(const CounterTable& t) {
  std::vector<const CounterDelta*> v;
  for (const auto& [name, d] : t.counters)
    if (d.delta > 0 || d.status != DeltaStatus::ok) v.push_back(&d);
  return v;
}

nlohmann::json table_json(const CounterTable& t) {
  nlohmann::json j;
  j["available"] = t.available;
  if (!t.available) j["reason"] = t.reason;
  j["source"] = t.source;
  nlohmann::json m = nlohmann::json::object();
  for (const CounterDelta* d : moved(t)) {
    nlohmann::json c;
    c["before"] = d->before ? nlohmann::json(*d->before) : nlohmann::json(nullptr);
    c["after"] = d->after ? nlohmann::json(*d->after) : nlohmann::json(nullptr);
    c["delta"] = d->delta;
    c["rate_per_s"] = d->rate_per_s;
    c["status"] = std::string(to_string(d->status));
    m[d->name] = c;
  }
  j["moved"] = m;
  return j;
}

nlohmann::json priorities_json(const LinkDeltas& l, int roce_priority) {
  nlohmann::json a = nlohmann::json::array();
  auto counter = [](const PriorityCounter& c) {
    return nlohmann::json{{"delta", c.delta}, {"rate_per_s", c.rate_per_s}};
  };
  for (const PriorityTraffic& t : priority_traffic(l.eth))
    a.push_back({{"priority", t.priority},
                 {"is_roce_priority", t.priority == roce_priority},
                 {"rx_bytes", counter(t.rx_bytes)},
                 {"rx_packets", counter(t.rx_packets)},
                 {"tx_bytes", counter(t.tx_bytes)},
                 {"tx_packets", counter(t.tx_packets)}});
  return a;
}

std::string render_json(const Diagnosis& d) {
  nlohmann::json j;
  j["interval_s"] = d.window.interval_s;
  j["interval_source"] = d.window.interval_source;
  j["samples"] = d.window.samples;
  j["roce_priority"] = d.roce_priority;
  j["has_fault"] = d.has_fault();
  nlohmann::json causes = nlohmann::json::array();
  for (const Cause& c : d.causes) {
    nlohmann::json e = nlohmann::json::array();
    for (const CounterEvidence& x : c.evidence)
      e.push_back({{"source", x.source}, {"counter", x.counter}, {"delta", x.delta},
                   {"rate_per_s", x.rate_per_s}, {"status", x.status}});
    causes.push_back({{"id", c.id}, {"subject", c.subject},
                      {"severity", std::string(to_string(c.severity))},
                      {"confidence", std::string(to_string(c.confidence))},
                      {"summary", c.summary}, {"evidence", e}, {"next_step", c.next_step}});
  }
  j["causes"] = causes;
  nlohmann::json unknowns = nlohmann::json::array();
  for (const Unknown& u : d.unknowns)
    unknowns.push_back({{"id", u.id}, {"subject", u.subject}, {"reason", u.reason}});
  j["unknowns"] = unknowns;
  nlohmann::json links = nlohmann::json::array();
  for (const LinkDeltas& l : d.window.links)
    links.push_back({{"netdev", l.netdev}, {"rdma_port", l.rdma_port},
                     {"pairing", l.pairing_note},
                     {"priorities", priorities_json(l, d.roce_priority)},
                     {"eth", table_json(l.eth)},
                     {"rdma", table_json(l.rdma)}});
  j["links"] = links;
  j["notes"] = d.window.notes;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string header(const Diagnosis& d) {
  return "window " + num(d.window.interval_s) + " s (" + d.window.interval_source + ", " +
         std::to_string(d.window.samples) + " samples), RoCE priority " +
         std::to_string(d.roce_priority);
}

/// Per link, the rx and tx bytes and packets of every priority that moved, the RoCE priority
/// marked; nothing when no link has per-priority counters that moved.
void render_priorities(std::ostringstream& o, const Diagnosis& d, bool md) {
  bool any = false;
  std::string rs = std::to_string(d.roce_priority);
  for (const LinkDeltas& l : d.window.links) {
    std::vector<PriorityTraffic> v = priority_traffic(l.eth);
    if (v.empty()) continue;
    if (!any)
      o << (md ? "\n## Traffic per priority\n"
               : "\nTraffic per priority (delta, rate/s; RoCE priority " + rs + "):\n");
    any = true;
    o << (md ? "\n### " : "  ") << l.subject() << (md ? "\n\n" : "\n");
    if (md)
      o << "| priority | direction | bytes | bytes/s | packets | packets/s |\n"
           "|---|---|---:|---:|---:|---:|\n";
    else {
      char head[128];
      std::snprintf(head, sizeof head, "    %-9s %-3s %16s %14s %16s %14s\n", "priority", "dir",
                    "bytes", "bytes/s", "packets", "packets/s");
      o << head;
    }
    bool roce_listed = false;
    for (const PriorityTraffic& t : v) {
      bool roce = t.priority == d.roce_priority;
      roce_listed = roce_listed || roce;
      std::string prio = std::to_string(t.priority) + (roce ? " (RoCE)" : "");
      for (const auto& [dir, bytes, packets] :
           {std::tuple<const char*, const PriorityCounter*, const PriorityCounter*>{
                "rx", &t.rx_bytes, &t.rx_packets},
            {"tx", &t.tx_bytes, &t.tx_packets}}) {
        if (md) {
          o << "| " << prio << " | " << dir << " | " << bytes->delta << " | "
            << num(bytes->rate_per_s) << " | " << packets->delta << " | "
            << num(packets->rate_per_s) << " |\n";
        } else {
          char line[256];
          std::snprintf(line, sizeof line, "    %-9s %-3s %16llu %14s %16llu %14s\n", prio.c_str(),
                        dir, static_cast<unsigned long long>(bytes->delta),
                        num(bytes->rate_per_s).c_str(),
                        static_cast<unsigned long long>(packets->delta),
                        num(packets->rate_per_s).c_str());
          o << line;
        }
      }
    }
    if (!roce_listed)
      o << (md ? "\nRoCE priority " : "    RoCE priority ") << rs << ": nothing moved\n";
  }
}

/// The per-link table of the counters that moved (delta, rate/s, status).
void render_counters(std::ostringstream& o, const Diagnosis& d, bool md) {
  o << (md ? "\n## Counters that moved\n" : "\nCounters that moved (delta, rate/s):\n");
  for (const LinkDeltas& l : d.window.links) {
    o << (md ? "\n### " : "  ") << l.subject() << (md ? "\n\n" : "\n");
    if (!l.pairing_note.empty() && l.pairing_note.rfind("assumed", 0) == 0)
      o << (md ? "" : "    ") << "(" << l.pairing_note << ")\n";
    if (md) o << "| source | counter | delta | rate/s | status |\n|---|---|---:|---:|---|\n";
    for (const auto& [src, t] : {std::pair<const char*, const CounterTable*>{"eth", &l.eth},
                                 {"rdma", &l.rdma}}) {
      if (!t->available) {
        if (md)
          o << "| " << src << " | - | - | - | " << t->reason << " |\n";
        else
          o << "    " << src << ": " << t->reason << "\n";
        continue;
      }
      std::vector<const CounterDelta*> m = moved(*t);
      if (m.empty()) {
        if (md)
          o << "| " << src << " | - | 0 | 0 | nothing moved |\n";
        else
          o << "    " << src << ": nothing moved (" << t->counters.size() << " counters)\n";
      }
      for (const CounterDelta* c : m) {
        if (md) {
          o << "| " << src << " | `" << c->name << "` | " << c->delta << " | "
            << num(c->rate_per_s) << " | " << to_string(c->status) << " |\n";
        } else {
          char line[256];
          std::snprintf(line, sizeof line, "    %-4s %-36s %16llu %14s", src, c->name.c_str(),
                        static_cast<unsigned long long>(c->delta), num(c->rate_per_s).c_str());
          o << line;
          if (c->status != DeltaStatus::ok) o << "  " << to_string(c->status);
          o << "\n";
        }
      }
    }
  }
}

std::string render_text(const Diagnosis& d, bool md, const RenderOptions& opt) {
  std::ostringstream o;
  o << (md ? "# rocekit diagnose\n\n" : "rocekit diagnose: ") << header(d) << "\n\n";
  o << (md ? "## Causes\n\n" : "Causes (ranked):\n");
  if (d.causes.empty()) o << (md ? "" : "  ") << "no cause found in the counters that moved\n";
  int i = 0;
  std::size_t hidden = 0;
  for (const Cause& c : d.causes) {
    if (opt.quiet && c.severity == Severity::info) {
      ++hidden;
      continue;
    }
    ++i;
    if (md) {
      o << i << ". **" << c.id << "** on `" << c.subject << "` (" << to_string(c.severity)
        << ", confidence " << to_string(c.confidence) << "): " << c.summary << "\n";
      for (const CounterEvidence& e : c.evidence) o << "   - `" << evidence_line(e) << "`\n";
      o << "   - next: " << c.next_step << "\n";
    } else {
      std::ostringstream head;
      head << "  " << i << ". [" << to_string(c.severity) << "/" << to_string(c.confidence) << "] " << c.id
           << " on " << c.subject;
      o << paint(opt.color, c.severity == Severity::info ? Outcome::pass : Outcome::fail, head.str())
        << "\n     " << c.summary << "\n";
      for (const CounterEvidence& e : c.evidence) o << "       " << evidence_line(e) << "\n";
      o << "     next: " << c.next_step << "\n";
    }
  }
  if (hidden) o << (md ? "\n" : "  ") << hidden << " healthy observation(s) (info) left out by -q\n";
  if (!d.unknowns.empty()) {
    o << (md ? "\n## Unknown\n\n" : "\n" + paint(opt.color, Outcome::unknown, "Unknown (could not judge):") + "\n");
    for (const Unknown& u : d.unknowns)
      o << (md ? "- **" : "  ") << u.id << (md ? "**" : "") << " on " << u.subject << ": "
        << u.reason << "\n";
  }
  if (!opt.quiet) {
    render_priorities(o, d, md);
    render_counters(o, d, md);
  }
  if (!d.window.notes.empty()) {
    o << (md ? "\n## Notes\n\n" : "\nNotes:\n");
    for (const std::string& n : d.window.notes) o << (md ? "- " : "  ") << n << "\n";
  }
  return o.str();
}

}  // namespace

std::string render(const Diagnosis& d, Format f, const RenderOptions& o) {
  switch (f) {
    case Format::json: return render_json(d);
    case Format::markdown: return render_text(d, true, o);
    case Format::text: return render_text(d, false, o);
  }
  return render_text(d, false, o);
}

void keep_rules(Diagnosis& d, const std::vector<std::string>& selectors) {
  std::erase_if(d.causes, [&](const Cause& c) { return !rules::selects_any(c.id, selectors); });
  std::erase_if(d.unknowns, [&](const Unknown& u) { return !rules::selects_any(u.id, selectors); });
}

}  // namespace rk::diagnose

// Cisco NX-OS running-config QoS -> SwitchQos. Syntax and semantics: Cisco Nexus 9000 Series NX-OS
// Quality of Service Configuration Guide 10.5(x), chapters "Configuring Classification",
// "Configuring Queuing and Scheduling", "Configuring Priority Flow Control"
// (https://cisco.com/c/en/us/td/docs/dcn/nx-os/nexus9000/105x/configuration/qos/cisco-nexus-9000-series-nx-os-quality-of-service-configuration-guide-105x/m-configuring-priority-flow-control.html);
// samples testdata/switch/cisco (ROCm/gpu-cluster-networking roce-network-config.rst, Azure Local
// TOR QoS reference). Lines read:
//   class-map type qos [match-any|match-all] <c>      match dscp <list> | match cos <list>
//   policy-map type qos <p>                           class <c> / set qos-group <n>
//   policy-map type network-qos <p>                   class type network-qos c-8q-nq<n> | c-8q-nq-default
//                                                     (pause pfc-cos <list> | pause buffer-size ... pfc-cos <list>, mtu <n>)
//   policy-map type queuing <p>                       class type queuing c-out-8q-q<n> | c-out-8q-q-default
//                                                     (bandwidth [remaining] percent <p>, priority [level <n>],
//                                                      random-detect minimum-threshold <n> <unit> maximum-threshold
//                                                      <n> <unit> drop-probability <p> weight <w> [ecn])
//   system qos                                        service-policy type {qos input|queuing output|network-qos} <p>
//   interface <name>[ - <last>]                       priority-flow-control mode on|auto|off [send-tlv],
//                                                     priority-flow-control watch-dog-interval on|off,
//                                                     service-policy type {qos input|queuing output} <p>, mtu <n>
// Model: traffic class = qos-group; queue n = the system-defined queuing class c-out-8q-q<n>, which
// matches qos-group n (4q platforms: c-out-q<n>); a network-qos class c-8q-nq<n> with `pause
// pfc-cos` makes qos-group n no-drop, paused by those CoS values (PFC priorities).
#include <algorithm>
#include <map>
#include <set>

#include "rocekit/core/text.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

using Line = detail::ConfigLine;
using detail::ev;

struct ClassMap {
  std::vector<int> dscp, cos;
  Line dscp_line, cos_line, header;
};

struct QosClass {  ///< one `class` of a `policy-map type qos`
  std::string class_map;
  std::optional<int> qos_group;
  Line set_line;
};

struct NqClass {  ///< one class of a `policy-map type network-qos`
  int qos_group = 0;
  std::vector<int> pfc_cos;
  Line pause_line;
  std::optional<int> mtu;
  Line mtu_line;
};

struct QClass {  ///< one class of a `policy-map type queuing`
  int queue = 0;
  Line header;
  std::optional<Scheduling> sched;
  Line sched_line;
  std::optional<EcnConfig> ecn;
  Line ecn_line;
};

struct Policy {
  std::string type;  ///< qos, network-qos, queuing
  Line header;
  std::vector<QosClass> qos;
  std::vector<NqClass> nq;
  std::vector<QClass> queuing;
};

struct Iface {
  std::vector<std::string> names;
  Line header;
  std::optional<std::string> pfc_mode;
  Line pfc_line;
  std::optional<bool> watchdog;
  Line watchdog_line;
  std::string qos_policy, queuing_policy;
  Line qos_line, queuing_line;
  std::optional<int> mtu;
  Line mtu_line;
};

/// DSCP value or name (NX-OS accepts af11..af43, cs0..cs7, ef, default).
std::optional<int> dscp_value(std::string_view w) {
  if (std::optional<int> v = detail::parse_small_int(w, 0, 63)) return v;
  if (w == "ef") return 46;
  if (w == "default") return 0;
  if (w.size() == 3 && w.substr(0, 2) == "cs" && w[2] >= '0' && w[2] <= '7') return (w[2] - '0') * 8;
  if (w.size() == 4 && w.substr(0, 2) == "af" && w[2] >= '1' && w[2] <= '4' && w[3] >= '1' && w[3] <= '3')
    return (w[2] - '0') * 8 + (w[3] - '0') * 2;
  return std::nullopt;
}

/// "26", "24-31", "af31,cs3", "3 4" (words after `match dscp|cos`).
std::optional<std::vector<int>> value_list(const std::vector<std::string_view>& w, std::size_t from, int hi) {
  std::vector<int> out;
  for (std::size_t i = from; i < w.size(); ++i) {
    for (std::string_view part : text::split(w[i], ',')) {
      part = text::trim(part);
      if (part.empty()) continue;
      std::size_t dash = part.find('-');
      if (dash != std::string_view::npos && dash > 0) {
        std::optional<int> a = detail::parse_small_int(part.substr(0, dash), 0, hi);
        std::optional<int> b = detail::parse_small_int(part.substr(dash + 1), 0, hi);
        if (!a || !b || *a > *b) return std::nullopt;
        for (int v = *a; v <= *b; ++v) out.push_back(v);
        continue;
      }
      std::optional<int> v = hi == 63 ? dscp_value(part) : detail::parse_small_int(part, 0, hi);
      if (!v) return std::nullopt;
      out.push_back(*v);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.empty()) return std::nullopt;
  return out;
}

/// The qos-group / queue number of a class: system-defined c-8q-nq3, c-nq3, c-8q-nq-default,
/// c-out-8q-q3, c-out-q3, c-out-8q-q-default; class-default (0); a user class-map with
/// `match qos-group` (Nexus 3000/5000 style). nullopt otherwise.
std::optional<int> class_number(const std::string& name, std::string_view nq_or_q,
                                const std::map<std::string, int>& user_classes) {
  if (name == "class-default") return 0;
  if (auto it = user_classes.find(name); it != user_classes.end()) return it->second;
  for (std::string_view prefix : {std::string_view("c-8q-"), std::string_view("c-"), std::string_view("c-out-8q-"),
                                  std::string_view("c-out-")}) {
    if (!text::starts_with(name, prefix)) continue;
    std::string_view rest = std::string_view(name).substr(prefix.size());
    if (!text::starts_with(rest, nq_or_q)) continue;
    rest = rest.substr(nq_or_q.size());
    if (rest == "-default") return 0;
    if (std::optional<int> n = detail::parse_small_int(rest, 0, 7)) return n;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> to_bytes(double v, std::string_view unit) {
  if (!(v >= 0 && v <= 1e12)) return std::nullopt;
  if (unit == "bytes") return static_cast<std::uint64_t>(v);
  if (unit == "kbytes") return static_cast<std::uint64_t>(v * 1024);
  if (unit == "mbytes") return static_cast<std::uint64_t>(v * 1024 * 1024);
  return std::nullopt;  // packets, microseconds: platform-dependent
}

/// `interface Ethernet1/1/1 - 2`, `interface Ethernet1/1-4`, `interface Ethernet1/1, Ethernet1/3`.
std::vector<std::string> interface_names(std::string_view spec) {
  std::vector<std::string> out;
  for (std::string_view part : text::split(spec, ',')) {
    std::string s;
    for (char c : part)
      if (c != ' ' && c != '\t') s += c;
    if (s.empty()) continue;
    std::size_t slash = s.rfind('/');
    std::size_t dash = s.rfind('-');
    if (slash != std::string::npos && dash != std::string::npos && dash > slash) {
      std::optional<int> a = detail::parse_small_int(std::string_view(s).substr(slash + 1, dash - slash - 1), 0, 4096);
      std::optional<int> b = detail::parse_small_int(std::string_view(s).substr(dash + 1), 0, 4096);
      if (a && b && *a <= *b && *b - *a < 512) {
        for (int i = *a; i <= *b; ++i) out.push_back(s.substr(0, slash + 1) + std::to_string(i));
        continue;
      }
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace

Result<SwitchQos> parse_cisco_nxos(std::string_view input, const std::string& file) {
  SwitchQos sw;
  sw.file = file;
  sw.dialect = Dialect::cisco_nxos;
  std::map<std::string, ClassMap> class_maps;
  std::map<std::string, Policy> policies;
  std::vector<Iface> ifaces;
  std::string sys_qos, sys_queuing, sys_nq;
  Line sys_qos_line, sys_queuing_line, sys_nq_line, global_wd_line;
  std::optional<bool> global_wd;
  std::map<std::string, int> group_classes;  // class-map type network-qos|queuing <c> / match qos-group <n>
  std::string group_class;
  enum class Ctx { none, class_map, group_class_map, policy, policy_class, system_qos, iface };
  Ctx ctx = Ctx::none;
  ClassMap* cm = nullptr;
  Policy* pol = nullptr;
  Iface* ifc = nullptr;
  std::vector<std::string_view> ls = text::lines(input);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::size_t ln = i + 1;
    std::string_view raw = ls[i];
    std::string_view l = text::trim(raw);
    if (l.empty() || l.front() == '!' || l.front() == '#') continue;
    const std::size_t indent = raw.find_first_not_of(" \t");
    std::vector<std::string_view> w = text::words(l);
    Line here{ln, std::string(l)};
    if (indent == 0) {
      ctx = Ctx::none;
      cm = nullptr;
      pol = nullptr;
      ifc = nullptr;
      if (w[0] == "hostname" && w.size() >= 2) {
        sw.name = std::string(w[1]);
      } else if (w[0] == "class-map" && w.size() >= 3 && w[1] == "type" && w[2] == "qos") {
        std::string_view name = w.back();
        if (w.size() < 4) return detail::malformed(file, ln, "class-map type qos: no class name");
        cm = &class_maps[std::string(name)];
        *cm = ClassMap{};
        cm->header = here;
        ctx = Ctx::class_map;
      } else if (w[0] == "class-map" && w.size() >= 4 && w[1] == "type" && (w[2] == "network-qos" || w[2] == "queuing")) {
        group_class = std::string(w.back());
        ctx = Ctx::group_class_map;
      } else if (w[0] == "policy-map" && w.size() >= 4 && w[1] == "type" &&
                 (w[2] == "qos" || w[2] == "network-qos" || w[2] == "queuing")) {
        pol = &policies[std::string(w[3])];
        *pol = Policy{};
        pol->type = std::string(w[2]);
        pol->header = here;
        ctx = Ctx::policy;
      } else if (w[0] == "system" && w.size() == 2 && w[1] == "qos") {
        ctx = Ctx::system_qos;
      } else if (w[0] == "interface" && w.size() >= 2) {
        ifaces.push_back(Iface{});
        ifc = &ifaces.back();
        ifc->names = interface_names(l.substr(l.find(w[1])));
        ifc->header = here;
        ctx = Ctx::iface;
      } else if (w.size() >= 3 && w[0] == "priority-flow-control" && w[1] == "watch-dog-interval") {
        global_wd = w[2] == "on";
        global_wd_line = here;
      }
      continue;
    }
    switch (ctx) {
      case Ctx::none: break;
      case Ctx::group_class_map:
        if (w.size() >= 3 && w[0] == "match" && w[1] == "qos-group") {
          std::optional<int> g = detail::parse_small_int(w[2], 0, 7);
          if (!g) return detail::malformed(file, ln, "match qos-group: '" + std::string(w[2]) + "' is not 0-7");
          group_classes[group_class] = *g;
        }
        break;
      case Ctx::class_map:
        if (w.size() >= 3 && w[0] == "match" && (w[1] == "dscp" || w[1] == "cos")) {
          const bool dscp = w[1] == "dscp";
          std::optional<std::vector<int>> v = value_list(w, 2, dscp ? 63 : 7);
          if (!v)
            return detail::malformed(file, ln, "match " + std::string(w[1]) + ": '" + std::string(l.substr(l.find(w[2]))) +
                                                   "' is not a list of " + (dscp ? "DSCP values 0-63" : "CoS values 0-7"));
          (dscp ? cm->dscp : cm->cos).insert((dscp ? cm->dscp : cm->cos).end(), v->begin(), v->end());
          (dscp ? cm->dscp_line : cm->cos_line) = here;
        }
        break;
      case Ctx::policy:
      case Ctx::policy_class:
        if (w[0] == "class" && w.size() >= 2) {
          // `class <name>` (qos) or `class type network-qos|queuing <name>`.
          const std::string name(w.back());
          if (pol->type == "qos") {
            pol->qos.push_back(QosClass{name, std::nullopt, {}});
          } else if (pol->type == "network-qos") {
            std::optional<int> n = class_number(name, "nq", group_classes);
            if (!n) {
              // A fragment may use a class-map it does not define: its qos-group is not known.
              sw.notes.push_back("line " + std::to_string(ln) + ": network-qos class " + name +
                                 ": not a system class and no `class-map type network-qos " + name +
                                 "` with `match qos-group` in the config; its settings are not read");
              ctx = Ctx::policy;
              break;
            }
            pol->nq.push_back(NqClass{*n, {}, {}, std::nullopt, {}});
          } else {
            std::optional<int> n = class_number(name, "q", group_classes);
            if (!n) {
              sw.notes.push_back("line " + std::to_string(ln) + ": queuing class " + name +
                                 ": not a system class and no `class-map type queuing " + name +
                                 "` with `match qos-group` in the config; its settings are not read");
              ctx = Ctx::policy;
              break;
            }
            QClass q;
            q.queue = *n;
            q.header = here;
            pol->queuing.push_back(q);
          }
          ctx = Ctx::policy_class;
          break;
        }
        if (ctx != Ctx::policy_class) break;
        if (pol->type == "qos") {
          if (w.size() >= 3 && w[0] == "set" && w[1] == "qos-group") {
            std::optional<int> g = detail::parse_small_int(w[2], 0, 7);
            if (!g) return detail::malformed(file, ln, "set qos-group: '" + std::string(w[2]) + "' is not 0-7");
            pol->qos.back().qos_group = *g;
            pol->qos.back().set_line = here;
          }
        } else if (pol->type == "network-qos") {
          NqClass& c = pol->nq.back();
          if (w[0] == "pause" && std::find(w.begin(), w.end(), std::string_view("pfc-cos")) == w.end()) {
            sw.notes.push_back("line " + std::to_string(ln) + ": `" + std::string(l) +
                               "` (Nexus 5000 style) names no pfc-cos: its PFC priority is not read");
          } else if (w[0] == "pause") {
            auto it = std::find(w.begin(), w.end(), std::string_view("pfc-cos"));
            if (it != w.end()) {
              std::optional<std::vector<int>> v = value_list(std::vector<std::string_view>(it + 1, w.end()), 0, 7);
              if (!v) return detail::malformed(file, ln, "pause pfc-cos: expected CoS values 0-7");
              c.pfc_cos = *v;
              c.pause_line = here;
            }
          } else if (w.size() >= 2 && w[0] == "mtu") {
            std::optional<int> m = detail::parse_small_int(w[1], 576, 65535);
            if (!m) return detail::malformed(file, ln, "mtu is not a number 576-65535");
            c.mtu = *m;
            c.mtu_line = here;
          }
        } else {
          QClass& q = pol->queuing.back();
          if (w[0] == "priority") {
            q.sched = Scheduling{"strict", std::nullopt};
            q.sched_line = here;
          } else if (w[0] == "bandwidth") {
            std::size_t k = w.size() >= 2 && w[1] == "remaining" ? 2 : 1;
            if (k + 1 >= w.size() || w[k] != "percent")
              return detail::malformed(file, ln, "bandwidth: expected 'bandwidth [remaining] percent <0-100>'");
            std::optional<int> p = detail::parse_small_int(w[k + 1], 0, 100);
            if (!p) return detail::malformed(file, ln, "bandwidth percent is not 0-100");
            if (!q.sched || q.sched->type != "strict") {
              q.sched = Scheduling{"dwrr", *p};
              q.sched_line = here;
            }
          } else if (w[0] == "random-detect") {
            EcnConfig e;
            e.ecn_marking = w.back() == "ecn";
            e.mode = e.ecn_marking ? "ecn" : "wred";
            e.wred_drop = true;  // WRED drops non-ECT packets (and all, without `ecn`)
            for (std::size_t k = 1; k + 1 < w.size(); ++k) {
              if (w[k] == "minimum-threshold" || w[k] == "maximum-threshold") {
                std::optional<double> v = text::parse_double(w[k + 1]);
                std::string unit = k + 2 < w.size() ? std::string(w[k + 2]) : "";
                if (!v || unit.empty())
                  return detail::malformed(file, ln, "random-detect: threshold needs '<number> <unit>'");
                std::optional<std::uint64_t> b = to_bytes(*v, unit);
                (w[k] == "minimum-threshold" ? e.min_threshold_bytes : e.max_threshold_bytes) = b;
                const std::string t = std::string(w[k + 1]) + " " + unit;
                if (!b) e.threshold_text = e.threshold_text ? *e.threshold_text + "-" + t : t;
              } else if (w[k] == "drop-probability") {
                e.mark_probability_percent = detail::parse_small_int(w[k + 1], 0, 100);
              }
            }
            q.ecn = e;
            q.ecn_line = here;
          }
        }
        break;
      case Ctx::system_qos:
        if (w.size() >= 4 && w[0] == "service-policy" && w[1] == "type") {
          if (w[2] == "qos" && w.size() >= 5) sys_qos = std::string(w[4]), sys_qos_line = here;
          else if (w[2] == "queuing" && w.size() >= 5 && w[3] == "output") sys_queuing = std::string(w[4]), sys_queuing_line = here;
          else if (w[2] == "network-qos") sys_nq = std::string(w[3]), sys_nq_line = here;
        }
        break;
      case Ctx::iface:
        if (w.size() >= 3 && w[0] == "priority-flow-control" && w[1] == "mode") {
          ifc->pfc_mode = std::string(w[2]);
          ifc->pfc_line = here;
        } else if (w.size() >= 3 && w[0] == "priority-flow-control" && w[1] == "watch-dog-interval") {
          ifc->watchdog = w[2] == "on";
          ifc->watchdog_line = here;
        } else if (w.size() >= 5 && w[0] == "service-policy" && w[1] == "type" && w[2] == "qos" && w[3] == "input") {
          ifc->qos_policy = std::string(w[4]);
          ifc->qos_line = here;
        } else if (w.size() >= 5 && w[0] == "service-policy" && w[1] == "type" && w[2] == "queuing" && w[3] == "output") {
          ifc->queuing_policy = std::string(w[4]);
          ifc->queuing_line = here;
        } else if (w.size() >= 2 && w[0] == "mtu") {
          std::optional<int> m = detail::parse_small_int(w[1], 576, 65535);
          if (!m) return detail::malformed(file, ln, "mtu is not a number 576-65535");
          ifc->mtu = *m;
          ifc->mtu_line = here;
        }
        break;
    }
  }
  if (class_maps.empty() && policies.empty() && ifaces.empty())
    return unexpected(ErrorKind::unsupported, "no NX-OS QoS lines (class-map, policy-map, system qos, interface)", file);

  auto find_policy = [&](const std::string& name, std::string_view type, const Line& used) -> Result<const Policy*> {
    if (name.empty()) return static_cast<const Policy*>(nullptr);
    auto it = policies.find(name);
    if (it == policies.end() || it->second.type != type)
      return detail::malformed(file, used.no, "policy-map type " + std::string(type) + " " + name + " is not defined");
    return &it->second;
  };
  Result<const Policy*> nq = find_policy(sys_nq, "network-qos", sys_nq_line);
  if (!nq) return unexpected(nq.error());
  Result<const Policy*> sys_q = find_policy(sys_queuing, "queuing", sys_queuing_line);
  if (!sys_q) return unexpected(sys_q.error());
  for (const auto& [name, p] : policies)
    if (p.type == "network-qos" && name != sys_nq)
      sw.notes.push_back("line " + std::to_string(p.header.no) + ": network-qos policy " + name +
                         " is not the system one (`system qos` / `service-policy type network-qos`): not applied");

  // Ports: interfaces with QoS or MTU lines; else one system-wide entry.
  std::vector<std::pair<std::string, const Iface*>> ports;
  for (const Iface& f : ifaces)
    if (f.pfc_mode || f.watchdog || !f.qos_policy.empty() || !f.queuing_policy.empty() || f.mtu)
      for (const std::string& n : f.names) ports.emplace_back(n, &f);
  static const Iface k_none{};
  if (ports.empty()) ports.emplace_back("*", &k_none);

  for (const auto& [name, f] : ports) {
    PortQos p;
    p.name = name;
    const std::string where = name == "*" ? std::string("any interface") : "interface " + name;
    // Classification: the interface's qos input policy, else the system one.
    const bool own_qos = !f->qos_policy.empty();
    Result<const Policy*> qp = own_qos ? find_policy(f->qos_policy, "qos", f->qos_line) : find_policy(sys_qos, "qos", sys_qos_line);
    if (!qp) return unexpected(qp.error());
    const Line& qline = own_qos ? f->qos_line : sys_qos_line;
    if (!*qp) {
      const std::string why = "no `service-policy type qos input` on " + where +
                              " or in `system qos` (default, not in config: NX-OS puts unclassified traffic in qos-group 0)";
      p.trust = Fact<std::string>::missing(why);
      p.dscp_to_tc = Fact<std::map<int, int>>::missing(why);
    } else {
      std::map<int, int> m;
      std::map<int, std::size_t> lines;
      std::vector<std::string> cos_notes;
      bool any_dscp = false, any_cos = false;
      int default_group = 0;
      for (const QosClass& c : (*qp)->qos) {
        if (c.class_map == "class-default") {
          if (c.qos_group) default_group = *c.qos_group;
          continue;
        }
        auto it = class_maps.find(c.class_map);
        if (it == class_maps.end())
          return detail::malformed(file, (*qp)->header.no, "policy-map " + (*qp)->header.text + ": class-map type qos " + c.class_map + " is not defined");
        if (!c.qos_group) continue;
        for (int d : it->second.dscp)
          if (!m.count(d)) {  // first matching class wins
            m[d] = *c.qos_group;
            lines[d] = it->second.dscp_line.no;
          }
        any_dscp = any_dscp || !it->second.dscp.empty();
        if (!it->second.cos.empty()) {
          any_cos = true;
          cos_notes.push_back("CoS " + detail::int_list(it->second.cos) + " -> qos-group " + std::to_string(*c.qos_group) +
                              " (line " + std::to_string(it->second.cos_line.no) + ")");
        }
      }
      for (int d = 0; d < 64; ++d)
        if (!m.count(d)) m[d] = default_group;
      p.trust = Fact<std::string>::of(any_dscp && any_cos ? "pcp,dscp" : any_cos ? "pcp" : "dscp",
                                      Evidence{file, qline.no, qline.text + " (policy-map type qos " +
                                                                   (own_qos ? f->qos_policy : sys_qos) + " matches " +
                                                                   (any_dscp && any_cos ? "dscp and cos" : any_cos ? "cos only" : "dscp") + ")"});
      Evidence e{file, qline.no, qline.text + " (DSCPs no class matches: qos-group " + std::to_string(default_group) + ")"};
      if (!cos_notes.empty()) e.text += "; VLAN-tagged frames also by " + rules::join(cos_notes, ", ");
      p.dscp_to_tc = Fact<std::map<int, int>>::of(m, e);
      p.dscp_to_tc_map_name = own_qos ? f->qos_policy : sys_qos;
      p.dscp_to_tc_lines = lines;
    }
    {
      std::map<int, int> id;
      for (int g = 0; g < 8; ++g) id[g] = g;
      p.tc_to_queue = Fact<std::map<int, int>>::of(
          id, Evidence{file, 0, "system-defined queuing classes: c-out-8q-q<N> matches qos-group N"});
    }
    // No-drop classes of the system network-qos policy.
    std::map<int, int> prio_to_queue;
    std::vector<int> pfc_cos;
    const NqClass* roce_nq = nullptr;
    if (*nq) {
      for (const NqClass& c : (*nq)->nq) {
        if (c.pfc_cos.empty()) continue;
        roce_nq = roce_nq ? roce_nq : &c;
        for (int cos : c.pfc_cos) {
          prio_to_queue[cos] = c.qos_group;
          pfc_cos.push_back(cos);
          p.tc_pfc_priority[c.qos_group] = cos;
        }
        BufferPg pg;
        pg.first_pg = pg.last_pg = c.qos_group;
        pg.profile = "network-qos no-drop class qos-group " + std::to_string(c.qos_group);
        pg.lossless = true;
        pg.basis = "NX-OS reserves no-drop buffer for a network-qos class with `pause`";
        pg.source = ev(file, c.pause_line);
        p.buffer_pgs.push_back(pg);
      }
    }
    std::sort(pfc_cos.begin(), pfc_cos.end());
    pfc_cos.erase(std::unique(pfc_cos.begin(), pfc_cos.end()), pfc_cos.end());
    {
      std::map<int, int> id;
      for (int g = 0; g < 8; ++g) id[g] = g;
      p.tc_to_pg = Fact<std::map<int, int>>::of(id, Evidence{file, 0, "NX-OS: the no-drop buffer follows the qos-group's network-qos class"});
    }
    if (p.buffer_pgs.empty()) p.buffer_reason = *nq ? "no network-qos class with `pause pfc-cos`" : "no system network-qos policy";
    const std::string mode = f->pfc_mode.value_or("");
    if (mode == "off") {
      p.pfc_enabled = Fact<std::vector<int>>::of({}, ev(file, f->pfc_line));
    } else if (mode == "on") {
      if (!*nq)
        p.pfc_enabled = Fact<std::vector<int>>::of({}, Evidence{file, f->pfc_line.no, f->pfc_line.text + " (no system network-qos policy: no no-drop class)"});
      else if (pfc_cos.empty())
        p.pfc_enabled = Fact<std::vector<int>>::of({}, Evidence{file, (*nq)->header.no, (*nq)->header.text + " (no `pause pfc-cos`: no no-drop class)"});
      else
        p.pfc_enabled = Fact<std::vector<int>>::of(
            pfc_cos, Evidence{file, roce_nq->pause_line.no, roce_nq->pause_line.text + " (" + f->pfc_line.text + ", line " + std::to_string(f->pfc_line.no) + ")"});
      if (!pfc_cos.empty())
        p.pfc_priority_to_queue = Fact<std::map<int, int>>::of(prio_to_queue, ev(file, roce_nq->pause_line));
    } else {
      p.pfc_enabled = Fact<std::vector<int>>::missing(
          (mode.empty() ? "no `priority-flow-control mode` on " + where : "`priority-flow-control mode " + mode + "` on " + where) +
          " (default, not in config: mode auto, PFC only where DCBX negotiates it with the host" +
          (pfc_cos.empty() ? std::string() : "; no-drop CoS " + detail::int_list(pfc_cos)) + ")");
    }
    if (!p.pfc_priority_to_queue.has_value() && p.pfc_priority_to_queue.reason.empty())
      p.pfc_priority_to_queue = Fact<std::map<int, int>>::missing(
          pfc_cos.empty() ? std::string("no network-qos `pause pfc-cos`") : "PFC not on (`priority-flow-control mode on`) on " + where);
    // Queuing: the interface's output policy, else the system one.
    const bool own_q = !f->queuing_policy.empty();
    Result<const Policy*> qq = own_q ? find_policy(f->queuing_policy, "queuing", f->queuing_line) : *sys_q;
    if (!qq) return unexpected(qq.error());
    if (*qq) {
      for (const QClass& c : (*qq)->queuing) {
        QueueConfig& qc = p.queues[c.queue];
        qc.queue = c.queue;
        if (c.sched) qc.scheduling = Fact<Scheduling>::of(*c.sched, ev(file, c.sched_line));
        else qc.scheduling = Fact<Scheduling>::missing(c.header.text + " sets no bandwidth or priority");
        if (c.ecn) {
          qc.ecn = Fact<EcnConfig>::of(*c.ecn, ev(file, c.ecn_line));
        } else {
          EcnConfig none;
          none.mode = "none";
          qc.ecn = Fact<EcnConfig>::of(none, Evidence{file, c.header.no, c.header.text + " (no random-detect)"});
        }
      }
    } else {
      sw.notes.push_back(name + ": no queuing policy in config (default, not in config: NX-OS default-8q-out-policy)");
    }
    if (f->mtu) p.mtu_bytes = Fact<int>::of(*f->mtu, ev(file, f->mtu_line));
    else p.mtu_bytes = Fact<int>::missing("no `mtu` on " + where + " (default, not in config: NX-OS interface MTU 1500)");
    const bool wd_set = f->watchdog.has_value() || global_wd.has_value();
    if (wd_set) {
      PfcWatchdog wd;
      wd.enabled = f->watchdog.value_or(*global_wd);
      p.pfc_watchdog = Fact<PfcWatchdog>::of(wd, ev(file, f->watchdog ? f->watchdog_line : global_wd_line));
    } else {
      p.pfc_watchdog = Fact<PfcWatchdog>::missing(
          "no `priority-flow-control watch-dog-interval` on " + where + " or globally (default, not in config: platform default)");
    }
    sw.ports.push_back(std::move(p));
  }
  return sw;
}

}  // namespace rk::switchcfg

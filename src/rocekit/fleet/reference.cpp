// The policy's value of each compared fleet setting (reference.hpp).
#include "rocekit/fleet/reference.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "rocekit/core/text.hpp"
#include "rocekit/fleet/fleet.hpp"

namespace rk::fleet {

namespace {

std::string priorities(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  if (v.empty()) return "none";
  std::string s;
  for (int p : v) s += (s.empty() ? "" : ",") + std::to_string(p);
  return s;
}

/// "3,4" / "none" -> {3, 4}; nullopt when unreadable.
std::optional<std::set<int>> priority_set(std::string_view list) {
  std::set<int> out;
  if (list == "none") return out;
  for (std::string_view p : text::split(list, ',')) {
    auto n = text::parse_int(p);
    if (!n) return std::nullopt;
    out.insert(static_cast<int>(*n));
  }
  return out;
}

/// The priority a canonical DSCP map ("0:0-7 1:8-15 ...") gives `dscp`, nullopt when none.
std::optional<int> map_priority(std::string_view map, int dscp) {
  for (std::string_view entry : text::words(map)) {
    auto colon = entry.find(':');
    if (colon == std::string_view::npos) continue;
    auto prio = text::parse_int(entry.substr(0, colon));
    if (!prio) continue;
    for (std::string_view range : text::split(entry.substr(colon + 1), ',')) {
      auto dash = range.find('-');
      auto lo = text::parse_int(range.substr(0, dash));
      auto hi = dash == std::string_view::npos ? lo : text::parse_int(range.substr(dash + 1));
      if (lo && hi && *lo <= dscp && dscp <= *hi) return static_cast<int>(*prio);
    }
  }
  return std::nullopt;
}

/// "key value key value ..." (the coalescing and CNP forms) -> key -> value.
std::map<std::string, std::string, std::less<>> pairs(std::string_view v) {
  std::map<std::string, std::string, std::less<>> out;
  std::vector<std::string_view> w = text::words(v);
  for (std::size_t i = 0; i + 1 < w.size(); i += 2) out.emplace(std::string(w[i]), std::string(w[i + 1]));
  return out;
}

bool number_at_least(std::string_view v, long long min) {
  auto n = text::parse_int(v);
  return n && *n >= min;
}

std::string on_off(bool b) { return b ? "on" : "off"; }

}  // namespace

std::optional<PolicyValue> policy_value(std::string_view setting, const Policy& pol) {
  if (setting == setting::trust) {
    std::string want = pol.trust;
    return PolicyValue{want, [want](std::string_view v) { return v == want; }};
  }
  if (setting == setting::dscp_map) {
    if (pol.trust != "dscp") return std::nullopt;  // no DSCP map is in effect under trust pcp
    int rd = pol.roce_dscp, rp = pol.roce_priority, cd = pol.cnp_dscp, cp = pol.cnp_priority;
    std::string t = "DSCP " + std::to_string(rd) + " -> priority " + std::to_string(rp) + ", DSCP " +
                    std::to_string(cd) + " -> priority " + std::to_string(cp);
    return PolicyValue{t, [=](std::string_view v) {
                         return map_priority(v, rd) == rp && map_priority(v, cd) == cp;
                       }};
  }
  if (setting == setting::pfc) {
    std::string want = priorities(pol.pfc_priorities);
    return PolicyValue{want, [want](std::string_view v) { return v == want; }};
  }
  if (setting == setting::ecn) {
    std::vector<int> need = pol.ecn_priorities;
    std::string t = "RP and NP on priority " + priorities(need);
    return PolicyValue{t, [need](std::string_view v) {
                         std::vector<std::string_view> w = text::words(v);
                         if (w.size() != 2 || !text::starts_with(w[0], "rp:") || !text::starts_with(w[1], "np:"))
                           return false;
                         auto rp = priority_set(w[0].substr(3));
                         auto np = priority_set(w[1].substr(3));
                         if (!rp || !np) return false;
                         return std::all_of(need.begin(), need.end(),
                                            [&](int p) { return rp->count(p) && np->count(p); });
                       }};
  }
  if (setting == setting::cnp) {
    int d = pol.cnp_dscp, q = pol.cnp_priority;
    std::string t = "dscp " + std::to_string(d) + " priority " + std::to_string(q);
    // A part the firmware query does not show ("?") is not judged, as qos.cnp-firmware does.
    return PolicyValue{t, [d, q](std::string_view v) {
                         auto m = pairs(v);
                         auto ok = [&](std::string_view key, int want) {
                           auto it = m.find(key);
                           if (it == m.end()) return false;
                           if (it->second == "?") return true;
                           auto n = text::parse_int(it->second);
                           return n && *n == want;
                         };
                         return ok("dscp", d) && ok("priority", q);
                       }};
  }
  if (setting == setting::mtu) {
    int min = pol.netdev_mtu_min_bytes;
    return PolicyValue{">= " + std::to_string(min), [min](std::string_view v) { return number_at_least(v, min); }};
  }
  if (setting == setting::max_read_request) {
    int min = pol.max_read_request_bytes;
    return PolicyValue{">= " + std::to_string(min), [min](std::string_view v) { return number_at_least(v, min); }};
  }
  if (setting == setting::coalescing) {
    CoalescingProfile cp = pol.coalescing;
    std::string t;
    if (cp.adaptive_rx) t = "adaptive-rx " + on_off(*cp.adaptive_rx) + ", ";
    t += "rx-usecs " + std::to_string(cp.rx_usecs_min) + ".." + std::to_string(cp.rx_usecs_max) + ", tx-usecs " +
         std::to_string(cp.tx_usecs_min) + ".." + std::to_string(cp.tx_usecs_max) + " (profile " + cp.name + ")";
    return PolicyValue{t, [cp](std::string_view v) {
                         auto m = pairs(v);
                         if (cp.adaptive_rx) {
                           auto it = m.find("adaptive-rx");
                           if (it == m.end() || it->second != on_off(*cp.adaptive_rx)) return false;
                         }
                         auto in = [&](std::string_view key, std::uint32_t lo, std::uint32_t hi) {
                           auto it = m.find(key);
                           auto n = it == m.end() ? std::nullopt : text::parse_int(it->second);
                           return n && *n >= lo && *n <= hi;
                         };
                         return in("rx-usecs", cp.rx_usecs_min, cp.rx_usecs_max) &&
                                in("tx-usecs", cp.tx_usecs_min, cp.tx_usecs_max);
                       }};
  }
  return std::nullopt;
}

}  // namespace rk::fleet

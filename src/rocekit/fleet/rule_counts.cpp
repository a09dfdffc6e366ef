// RuleCounts (fleet.hpp): per-host outcome counts, sorted by interned rule id, and shared
// between hosts whose counts are equal.
#include <algorithm>
#include <functional>
#include <mutex>
#include <set>

#include "rocekit/fleet/fleet.hpp"

namespace rk::fleet {

namespace {

/// Rule ids live as long as the process: a few hundred strings.
std::string_view intern_rule(std::string_view rule) {
  static std::mutex mu;
  static std::set<std::string, std::less<>> ids;
  std::lock_guard<std::mutex> lock(mu);
  auto it = ids.find(rule);
  if (it == ids.end()) it = ids.emplace(rule).first;
  return *it;
}

const std::vector<RuleCounts::Entry>& no_entries() {
  static const std::vector<RuleCounts::Entry> empty;
  return empty;
}

bool by_rule(const RuleCounts::Entry& e, std::string_view rule) { return e.first < rule; }

}  // namespace

const std::vector<RuleCounts::Entry>& RuleCounts::table() const { return m_table ? *m_table : no_entries(); }

OutcomeCounts& RuleCounts::operator[](std::string_view rule) {
  // Copy on write: another host may hold the same table.
  auto own = m_table && m_table.use_count() == 1
                 ? std::const_pointer_cast<std::vector<Entry>>(m_table)
                 : std::make_shared<std::vector<Entry>>(table());
  m_table = own;
  auto it = std::lower_bound(own->begin(), own->end(), rule, by_rule);
  if (it == own->end() || it->first != rule) it = own->insert(it, {intern_rule(rule), OutcomeCounts{}});
  return it->second;
}

const OutcomeCounts* RuleCounts::find(std::string_view rule) const {
  const std::vector<Entry>& t = table();
  auto it = std::lower_bound(t.begin(), t.end(), rule, by_rule);
  return it != t.end() && it->first == rule ? &it->second : nullptr;
}

void RuleCounts::share_identical() {
  if (!m_table) return;
  std::size_t h = 0;
  for (const Entry& e : *m_table) {
    h = h * 1000003u ^ std::hash<std::string_view>{}(e.first);
    for (std::uint32_t c : e.second) h = h * 31u + c;
  }
  m_table = pooled(m_table, h);
}

}  // namespace rk::fleet

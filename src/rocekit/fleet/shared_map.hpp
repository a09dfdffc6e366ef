// SharedMap: a std::map<std::string, std::string> that hosts with equal contents hold once.
// The fleet keeps the reduced settings of every NIC for the whole run (issue 23: 100,000 hosts x
// 8 NICs within 1 GiB); most NICs' settings, reasons and model ids are equal across hosts, so
// after share_identical() they point at one copy. Reads look like std::map's; a write copies
// first when the map is shared (copy on write).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rk::fleet {

/// The pool's copy of `*p` when an equal value was pooled before (`hash` of its contents), else
/// `p`, now pooled: one process-wide pool per T, thread-safe, kept for the process. What
/// SharedMap::share_identical and RuleCounts::share_identical do.
template <class T>
std::shared_ptr<const T> pooled(std::shared_ptr<const T> p, std::size_t hash) {
  static std::mutex mu;
  static std::unordered_multimap<std::size_t, std::shared_ptr<const T>> pool;
  std::lock_guard<std::mutex> lock(mu);
  auto [lo, hi] = pool.equal_range(hash);
  for (auto it = lo; it != hi; ++it)
    if (*it->second == *p) return it->second;
  pool.emplace(hash, p);
  return p;
}

class SharedMap {
 public:
  using Map = std::map<std::string, std::string, std::less<>>;
  using const_iterator = Map::const_iterator;

  SharedMap() = default;
  SharedMap(std::initializer_list<Map::value_type> init) : m_map(std::make_shared<Map>(init)) {}
  SharedMap(std::map<std::string, std::string> m)  // NOLINT(google-explicit-constructor): reads like a map
      : m_map(std::make_shared<Map>(m.begin(), m.end())) {}

  const_iterator begin() const { return map().begin(); }
  const_iterator end() const { return map().end(); }
  const_iterator find(std::string_view key) const { return map().find(key); }
  std::size_t count(std::string_view key) const { return map().count(key); }
  const std::string& at(std::string_view key) const;
  bool empty() const { return map().empty(); }
  std::size_t size() const { return map().size(); }
  bool operator==(const SharedMap& o) const { return m_map == o.m_map || map() == o.map(); }

  /// The value of `key`, added empty when absent (copies the map first when it is shared).
  std::string& operator[](std::string_view key);
  void erase(std::string_view key);

  /// Holds the same map as an earlier caller with equal contents (thread-safe; the maps are
  /// kept for the process).
  void share_identical();

 private:
  const Map& map() const;
  Map& own();
  std::shared_ptr<const Map> m_map;  // always made as a (non-const) Map: own() may write it
};

/// A string that hosts with the same text hold once: the text is kept in a process-wide pool
/// and this holds a pointer to it. A fleet whose hosts all fail the same rule the same way (a
/// firmware several releases behind on every NIC) keeps one copy of the message, not one per
/// NIC. Reads as a const std::string&.
class SharedText {
 public:
  SharedText() : m_text(&blank()) {}
  SharedText(std::string_view text);  // NOLINT(google-explicit-constructor): reads like a string
  SharedText(const std::string& text) : SharedText(std::string_view(text)) {}  // NOLINT
  SharedText(const char* text) : SharedText(std::string_view(text)) {}        // NOLINT
  operator const std::string&() const { return *m_text; }  // NOLINT(google-explicit-constructor)
  const std::string& str() const { return *m_text; }
  bool empty() const { return m_text->empty(); }
  bool operator==(const SharedText& o) const { return m_text == o.m_text || *m_text == *o.m_text; }
  bool operator==(std::string_view o) const { return *m_text == o; }
  bool operator==(const std::string& o) const { return *m_text == o; }
  bool operator==(const char* o) const { return *m_text == o; }

 private:
  static const std::string& blank();
  const std::string* m_text;
};

}  // namespace rk::fleet

#include "rocekit/fleet/shared_map.hpp"

#include <functional>
#include <mutex>
#include <stdexcept>
#include <unordered_set>

namespace rk::fleet {

const SharedMap::Map& SharedMap::map() const {
  static const Map empty;
  return m_map ? *m_map : empty;
}

SharedMap::Map& SharedMap::own() {
  // A map in the pool is held at least twice (pool + this), so it is never written in place.
  if (!m_map || m_map.use_count() != 1) {
    auto fresh = std::make_shared<Map>(map());
    m_map = fresh;
    return *fresh;
  }
  return const_cast<Map&>(*m_map);  // made as a Map, held by this object alone
}

const std::string& SharedMap::at(std::string_view key) const {
  auto it = map().find(key);
  if (it == map().end()) throw std::out_of_range("SharedMap::at: no key " + std::string(key));
  return it->second;
}

std::string& SharedMap::operator[](std::string_view key) {
  Map& m = own();
  auto it = m.find(key);
  if (it == m.end()) it = m.emplace(std::string(key), std::string()).first;
  return it->second;
}

void SharedMap::erase(std::string_view key) {
  if (map().find(key) == map().end()) return;
  Map& m = own();
  m.erase(m.find(key));
}

void SharedMap::share_identical() {
  if (!m_map) return;
  if (m_map->empty()) {
    m_map.reset();
    return;
  }
  std::size_t h = m_map->size();
  for (const auto& [k, v] : *m_map) h = (h * 1000003u) ^ std::hash<std::string>{}(k) ^ (std::hash<std::string>{}(v) << 1);
  m_map = pooled(m_map, h);
}

const std::string& SharedText::blank() {
  static const std::string e;
  return e;
}

SharedText::SharedText(std::string_view text) : m_text(&blank()) {
  if (text.empty()) return;
  static std::mutex mu;
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view t) const { return std::hash<std::string_view>{}(t); }
  };
  static std::unordered_set<std::string, Hash, std::equal_to<>> pool;
  std::lock_guard<std::mutex> lock(mu);
  auto it = pool.find(text);
  if (it == pool.end()) it = pool.emplace(text).first;
  m_text = &*it;  // unordered_set nodes do not move
}

}  // namespace rk::fleet

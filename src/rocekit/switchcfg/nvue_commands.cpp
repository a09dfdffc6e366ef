// Cumulus NVUE commands -> the `set` tree of `nv config show -o json`, so that one reader
// (nvue.cpp) resolves the profiles for both forms. `nv config show -o commands` prints one
// `nv set <path...> [<value>]` per line; the path words are the JSON keys, except that the
// word after a collection key names an entry: `nv set qos pfc default-global switch-priority 3`
// is {"qos": {"pfc": {"default-global": {"switch-priority": {"3": {}}}}}}, while
// `nv set qos mapping default-global dscp 26 switch-priority 3` is
// {"qos": {"mapping": {"default-global": {"dscp": {"26": {"switch-priority": 3}}}}}}
// (CumulusNetworks/docs:content/nvue-reference/Set-and-Unset-Commands/QoS.md; RoCE page
// RDMA-over-Converged-Ethernet-RoCE.md). Collections: `interface <if>` (ranges such as
// swp1-4,swp6 expand to each port), the QoS profile collections under `qos` (mapping, pfc,
// egress-scheduler, congestion-control, egress-queue-mapping, traffic-pool, remark,
// egress-shaper, link-pause), and `dscp`, `pcp`, `switch-priority`, `traffic-class` directly
// under a profile. `nv unset` removes the path.
#include <set>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"

namespace rk::switchcfg::detail {
namespace {

const std::set<std::string_view> k_profile_collections = {"mapping", "pfc", "egress-scheduler", "congestion-control",
                                                          "egress-queue-mapping", "traffic-pool", "remark",
                                                          "egress-shaper", "link-pause"};
const std::set<std::string> k_containers = {"roce", "qos", "link"};
const std::set<std::string_view> k_profile_members = {"dscp", "pcp", "switch-priority", "traffic-class"};

/// Whether `key`, reached by `path`, is a collection (the next word names an entry).
bool is_collection(const std::vector<std::string>& path, std::string_view key) {
  if (path.empty()) return key == "interface";
  if (path.size() == 1 && path[0] == "qos") return k_profile_collections.count(key) > 0;
  if (path.size() == 3 && path[0] == "qos" && k_profile_collections.count(path[1])) return k_profile_members.count(key) > 0;
  // nv set interface <if> qos <collection> <profile>: interface-level profile bindings are leaves.
  return false;
}

/// "swp1-4,swp6" -> swp1 swp2 swp3 swp4 swp6; other names unchanged.
std::vector<std::string> expand_ports(std::string_view spec) {
  std::vector<std::string> out;
  for (std::string_view part : text::split(spec, ',')) {
    std::size_t digits = part.size();
    while (digits > 0 && ((part[digits - 1] >= '0' && part[digits - 1] <= '9') || part[digits - 1] == '-')) --digits;
    std::string_view stem = part.substr(0, digits), range = part.substr(digits);
    std::size_t dash = range.find('-');
    if (!stem.empty() && dash != std::string_view::npos && dash > 0) {
      std::optional<int> a = parse_small_int(range.substr(0, dash), 0, 100000);
      std::optional<int> b = parse_small_int(range.substr(dash + 1), 0, 100000);
      if (a && b && *a <= *b && *b - *a < 1024) {
        for (int i = *a; i <= *b; ++i) out.push_back(std::string(stem) + std::to_string(i));
        continue;
      }
    }
    if (!part.empty()) out.emplace_back(part);
  }
  return out;
}

std::string unquote(std::string_view w) {
  if (w.size() >= 2 && (w.front() == '\'' || w.front() == '"') && w.back() == w.front()) return std::string(w.substr(1, w.size() - 2));
  return std::string(w);
}

std::string key_of(const std::vector<std::string>& path) {
  std::string k;
  for (std::size_t i = 0; i < path.size(); ++i) k += (i ? "\x1f" : "") + path[i];
  return k;
}

}  // namespace

Evidence NvueCommandLines::ev(const std::string& file, const std::vector<std::string>& keys, const std::string& value) const {
  std::vector<std::string> p = keys;
  for (;;) {
    auto it = by_path.find(key_of(p));
    if (it != by_path.end())
      return Evidence{file, it->second.first, it->second.second + (value.empty() ? "" : " (" + value + ")")};
    if (p.empty()) break;
    p.pop_back();
  }
  return Evidence{file, 0, value.empty() ? std::string("not in the commands") : value};
}

Result<NvueCommandTree> nvue_commands_to_set(std::string_view input, const std::string& file) {
  NvueCommandTree t;
  const std::vector<std::string_view> ls = text::lines(input);
  std::size_t commands = 0;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::size_t ln = i + 1;
    std::string_view l = text::trim(ls[i]);
    // Prompts as pasted from a session: "cumulus@leaf01:mgmt:~$ nv set ...".
    if (std::size_t at = l.find("$ nv "); at != std::string_view::npos) l = l.substr(at + 2);
    if (l.empty() || l.front() == '#') continue;
    std::vector<std::string_view> w = text::words(l);
    if (w.size() < 3 || w[0] != "nv" || (w[1] != "set" && w[1] != "unset")) continue;  // nv config apply, ...
    ++commands;
    const bool unset = w[1] == "unset";
    // Words -> key paths (several when an interface range expands).
    std::vector<std::vector<std::string>> paths{{}};
    std::optional<std::string> value;
    for (std::size_t k = 2; k < w.size(); ++k) {
      const std::string word = unquote(w[k]);
      const std::vector<std::string>& path = paths.front();
      if (is_collection(path, word)) {
        if (k + 1 >= w.size()) {
          for (auto& p : paths) p.push_back(word);
          break;
        }
        const std::string entry = unquote(w[k + 1]);
        std::vector<std::string> names = word == "interface" ? expand_ports(entry) : std::vector<std::string>{entry};
        if (names.empty()) return malformed(file, ln, "nv set " + word + ": empty name");
        std::vector<std::vector<std::string>> next;
        for (const auto& p : paths)
          for (const std::string& n : names) {
            next.push_back(p);
            next.back().push_back(word);
            next.back().push_back(n);
          }
        paths = std::move(next);
        ++k;
        continue;
      }
      // `<key> <value>` ends the command, unless the last word is a container that a command
      // may name alone (`nv set qos roce` turns the RoCE profile on).
      if (k + 2 == w.size() && !unset && !k_containers.count(unquote(w[k + 1]))) {
        for (auto& p : paths) p.push_back(word);
        value = unquote(w[k + 1]);
        break;
      }
      for (auto& p : paths) p.push_back(word);
    }
    for (const auto& p : paths) {
      if (p.size() > 32) return malformed(file, ln, "nv set: path deeper than 32 keys");
      nlohmann::json* node = &t.set;
      for (std::size_t k = 0; k + 1 < p.size(); ++k) {
        nlohmann::json& child = (*node)[p[k]];
        if (!child.is_object()) child = nlohmann::json::object();
        node = &child;
      }
      if (p.empty()) continue;
      if (unset) {
        node->erase(p.back());
        continue;
      }
      nlohmann::json& leaf = (*node)[p.back()];
      if (value) leaf = *value;
      else if (!leaf.is_object()) leaf = nlohmann::json::object();
      std::vector<std::string> prefix;
      for (const std::string& key : p) {
        prefix.push_back(key);
        t.lines.by_path.emplace(key_of(prefix), std::make_pair(ln, std::string(l)));
      }
      t.lines.by_path[key_of(p)] = {ln, std::string(l)};  // the last command for a path decides
    }
  }
  if (!commands) return unexpected(ErrorKind::unsupported, "no `nv set` commands", file);
  return t;
}

}  // namespace rk::switchcfg::detail

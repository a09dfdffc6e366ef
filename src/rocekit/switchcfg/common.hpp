// Helpers shared by the switch-config parsers (not part of the public surface).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/model/snapshot.hpp"

namespace rk::switchcfg::detail {

/// Line numbers of the object keys of a JSON text, by key path (array levels are skipped), built
/// in one pass. Lookups are O(1); a path not present gives 0. First occurrence wins.
class JsonLineIndex {
 public:
  explicit JsonLineIndex(std::string_view text);
  std::size_t line(const std::vector<std::string>& keys) const;

 private:
  std::unordered_map<std::string, std::size_t> m_lines;
};

/// 1-based line of the last key of `keys` found by searching `"key"` (followed by optional
/// blanks and ':') in order, each after the previous. 0 when a key is not found. Works for
/// config_db.json, where nested keys are unique within their parent.
std::size_t json_key_line(std::string_view text, const std::vector<std::string>& keys);

/// "1,3-4,6" -> {1,3,4,6}; nullopt on anything else or values outside [lo, hi].
std::optional<std::vector<int>> parse_int_list(std::string_view s, int lo, int hi);

/// Plain non-negative decimal integer (no sign, no spaces) in [lo, hi].
std::optional<int> parse_small_int(std::string_view s, int lo, int hi);

/// "1,3,4" from a list.
std::string int_list(const std::vector<int>& v);

/// `text` with its leading `#` comment lines (a provenance header) replaced by spaces, so that
/// byte offsets and line numbers stay true for JSON parsers.
std::string blank_comment_header(std::string_view text);

/// One line of a line-oriented running-config (EOS, NX-OS, Dell sonic-cli): its 1-based number
/// and trimmed text, kept as the evidence of the values it sets.
struct ConfigLine {
  std::size_t no = 0;
  std::string text;
};
inline Evidence ev(const std::string& file, const ConfigLine& l) { return Evidence{file, l.no, l.text}; }

/// The "key  value" fields of a show command (NVUE `nv show`, Onyx `show roce`): each value with
/// the line it was read on, for evidence.
struct KeyValue {
  std::string value;
  std::size_t line = 0;
  std::string text;  ///< the whole trimmed line
};
class KeyValues {
 public:
  /// Keeps the first occurrence of a key.
  void add(const std::string& key, KeyValue v) { m_kv.emplace(key, std::move(v)); }
  /// Replaces an earlier occurrence (the last one wins).
  void set(const std::string& key, KeyValue v) { m_kv[key] = std::move(v); }
  std::optional<std::string> get(const std::string& key) const {
    auto it = m_kv.find(key);
    return it == m_kv.end() ? std::nullopt : std::optional(it->second.value);
  }
  Evidence ev(const std::string& file, const std::string& key) const {
    auto it = m_kv.find(key);
    return it == m_kv.end() ? Evidence{file, 0, ""} : Evidence{file, it->second.line, it->second.text};
  }
  /// The line of `key`, 0 when absent.
  std::size_t line(const std::string& key) const {
    auto it = m_kv.find(key);
    return it == m_kv.end() ? 0 : it->second.line;
  }

 private:
  std::map<std::string, KeyValue> m_kv;
};

/// The command of a line of a pasted CLI session, with its prompt (`sonic(config)# `,
/// `leaf1(conf-if-Ethernet0)# `, `sonic# `: a host name, an optional `(mode)`, then `#`) removed;
/// nullopt when the trimmed line does not start with such a prompt.
std::optional<std::string_view> strip_cli_prompt(std::string_view trimmed);

/// Error with "file:line" context.
Unexpected<Error> malformed(const std::string& file, std::size_t line, std::string message);

}  // namespace rk::switchcfg::detail

namespace rk::switchcfg::detail {

/// Where each key path of an NVUE `set` tree built from `nv set` commands was written.
struct NvueCommandLines {
  std::map<std::string, std::pair<std::size_t, std::string>> by_path;  ///< keys joined by '\x1f'
  /// Evidence for `keys`: the command that set that path (or the nearest enclosing path).
  Evidence ev(const std::string& file, const std::vector<std::string>& keys, const std::string& value) const;
};

/// `nv set ...` commands (as `nv config show -o commands` prints them) as the JSON `set` tree
/// `nv config show -o json` would print, with the line of every path.
struct NvueCommandTree {
  nlohmann::json set = nlohmann::json::object();
  NvueCommandLines lines;
};
Result<NvueCommandTree> nvue_commands_to_set(std::string_view text, const std::string& file);

/// Reads a regular file of at most `max_bytes`. Errors: not_found, io, unsupported (too large).
Result<std::string> read_small_file(const std::filesystem::path& path, std::uintmax_t max_bytes);
}  // namespace rk::switchcfg::detail

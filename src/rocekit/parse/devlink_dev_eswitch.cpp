#include "rocekit/parse/devlink_dev_eswitch.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

// The values iproute2 prints (devlink/devlink.c eswitch_mode_name, eswitch_inline_mode_name,
// eswitch_encap_mode_name).
constexpr std::string_view k_modes[] = {"legacy", "switchdev", "switchdev_inactive"};
constexpr std::string_view k_inline_modes[] = {"none", "link", "network", "transport"};
constexpr std::string_view k_encap_modes[] = {"none", "basic"};

template <std::size_t N>
bool one_of(std::string_view v, const std::string_view (&values)[N]) {
  return std::find(std::begin(values), std::end(values), v) != std::end(values);
}

// "pci/0000:03:00.0:" (text) or "pci/0000:03:00.0" (a JSON key) -> bus, device. A port handle
// (`pci/0000:03:00.0/196608`) is not a device handle.
bool parse_handle(std::string_view w, bool colon, std::string& bus, std::string& device) {
  if (colon) {
    if (!w.ends_with(":")) return false;
    w.remove_suffix(1);
  }
  std::size_t slash = w.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 >= w.size() ||
      w.find('/', slash + 1) != std::string_view::npos || text::contains(w, " "))
    return false;
  bus = std::string(w.substr(0, slash));
  device = std::string(w.substr(slash + 1));
  return true;
}

struct Reader {
  Parsed<DevlinkEswitches>& out;
  std::size_t line_no = 0;

  void warn(const char* code, std::string msg) { out.warnings.push_back({line_no, code, std::move(msg)}); }

  template <std::size_t N>
  void value(std::optional<std::string>& slot, std::string_view name, std::string_view v,
             const std::string_view (&values)[N]) {
    if (!one_of(v, values)) return warn("bad_value", std::string(name) + " '" + std::string(v) + "'");
    slot = std::string(v);
  }

  void pair(DevlinkEswitch& d, std::string_view k, std::string_view v) {
    if (k == "mode") {
      value(d.mode, k, v, k_modes);
    } else if (k == "inline-mode") {
      value(d.inline_mode, k, v, k_inline_modes);
    } else if (k == "encap-mode") {
      value(d.encap_mode, k, v, k_encap_modes);
    } else if (k == "encap" && (v == "enable" || v == "disable")) {
      d.encap_mode = v == "enable" ? "basic" : "none";  // iproute2 before 0b1875cd (2020-04)
    } else {
      d.other.emplace_back(std::string(k), std::string(v));
    }
  }
};

// The 1-based line of the first `"<key>"` in `text`, 0 when absent.
std::size_t line_of_key(std::string_view text, const std::string& key) {
  std::size_t at = text.find("\"" + key + "\"");
  if (at == std::string_view::npos) return 0;
  return static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
}

// `devlink -j dev eswitch show`: {"dev":{"<bus>/<dev>":{"mode":...,"inline-mode":...}}}, one
// document per command (several when outputs are pasted together).
bool read_json(std::string_view text, Reader& r) {
  std::string_view t = text::trim(text);
  if (!t.starts_with("{")) return false;
  bool any = false;
  std::size_t offset = 0;
  while (offset < text.size()) {
    std::size_t open = text.find('{', offset);
    if (open == std::string_view::npos) break;
    std::size_t base_line = static_cast<std::size_t>(
        std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(open), '\n'));
    // One document: the text up to its matching brace (devlink never prints braces in values).
    int depth = 0;
    std::size_t end = open;
    for (; end < text.size(); ++end) {
      if (text[end] == '{') ++depth;
      if (text[end] == '}' && --depth == 0) break;
    }
    if (end >= text.size()) {
      r.line_no = base_line + 1;
      r.warn("truncated", "JSON document without its closing brace");
      break;
    }
    std::string_view doc = text.substr(open, end - open + 1);
    offset = end + 1;
    nlohmann::json j = nlohmann::json::parse(doc, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("dev") || !j["dev"].is_object()) {
      r.line_no = base_line + 1;
      r.warn("unrecognised_line", "JSON document without a \"dev\" object");
      continue;
    }
    for (const auto& [handle, attrs] : j["dev"].items()) {
      DevlinkEswitch d;
      r.line_no = base_line + line_of_key(doc, handle);
      if (!parse_handle(handle, false, d.bus, d.device) || !attrs.is_object()) {
        r.warn("unrecognised_line", "not a devlink device handle: '" + handle + "'");
        continue;
      }
      d.line = r.line_no;
      for (const auto& [k, v] : attrs.items())
        r.pair(d, k, v.is_string() ? v.get<std::string>() : v.dump());
      r.out.value.devices.push_back(std::move(d));
      any = true;
    }
  }
  return any;
}

}  // namespace

Result<Parsed<DevlinkEswitches>> parse_devlink_dev_eswitch(std::string_view text) {
  Parsed<DevlinkEswitches> out;
  DevlinkEswitches& v = out.value;
  Reader r{out};
  std::vector<std::string_view> lines = text::lines(text);
  std::size_t first = 0;  // the first line that is not blank or a prompt
  while (first < lines.size() &&
         (text::trim(lines[first]).empty() || text::trim(lines[first]).starts_with("$ ")))
    ++first;
  if (first < lines.size() && text::trim(lines[first]).starts_with("{")) {
    // Keep line numbers of the whole text: blank out the lines before the document.
    std::size_t at = 0;
    for (std::size_t i = 0; i < first; ++i) at += lines[i].size() + 1;
    std::string rest(first, '\n');
    rest += std::string(text.substr(std::min(at, text.size())));
    read_json(rest, r);
  } else {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      r.line_no = i + 1;
      std::string_view t = text::trim(lines[i]);
      if (t.empty() || t.starts_with("$ ")) continue;
      if (std::optional<std::string_view> err = devlink_answer(t)) {
        v.kernel_error = std::string(*err);
        continue;
      }
      std::vector<std::string_view> w = text::words(t);
      DevlinkEswitch d;
      if (!parse_handle(w[0], true, d.bus, d.device)) {
        r.warn("unrecognised_line", "not a devlink eswitch line");
        continue;
      }
      d.line = r.line_no;
      for (std::size_t k = 1; k < w.size(); k += 2) {
        if (k + 1 >= w.size()) {
          r.warn("bad_pair", "'" + std::string(w[k]) + "' without a value");
          break;
        }
        // `<unknown mode>` is two words: the kernel sent a value this iproute2 does not name.
        if (w[k + 1] == "<unknown" && k + 2 < w.size() && w[k + 2] == "mode>") {
          r.warn("bad_value", std::string(w[k]) + " '<unknown mode>'");
          ++k;
          continue;
        }
        r.pair(d, w[k], w[k + 1]);
      }
      v.devices.push_back(std::move(d));
    }
  }
  if (v.devices.empty() && !v.kernel_error)
    return rk::unexpected(ErrorKind::malformed_input,
                          "no devlink eswitch found (expected a line such as 'pci/0000:03:00.0: mode "
                          "switchdev inline-mode none encap-mode basic')");
  if (v.kernel_error) out.warnings.push_back({0, "tool_error", "kernel answers: " + *v.kernel_error});
  return out;
}

nlohmann::json to_json(const DevlinkEswitches& v) {
  nlohmann::json devices = nlohmann::json::array();
  for (const DevlinkEswitch& d : v.devices) {
    nlohmann::json other = nlohmann::json::array();
    for (const auto& [k, x] : d.other) other.push_back(nlohmann::json::array({k, x}));
    nlohmann::json j = nlohmann::json::object();
    j["line"] = d.line;
    j["bus"] = d.bus;
    j["device"] = d.device;
    j["mode"] = d.mode;
    j["inline_mode"] = d.inline_mode;
    j["encap_mode"] = d.encap_mode;
    j["other"] = std::move(other);
    devices.push_back(std::move(j));
  }
  nlohmann::json j = nlohmann::json::object();
  j["devices"] = std::move(devices);
  j["kernel_error"] = v.kernel_error;
  return j;
}

bool looks_like_devlink_dev_eswitch(std::string_view text) {
  for (std::string_view line : text::lines(text)) {
    std::string_view t = text::trim(line);
    if (t.empty()) continue;
    if (t.starts_with("$ ")) {
      if (!text::contains(t, "devlink")) return false;
      continue;
    }
    if (t.starts_with("{")) {  // -j, or -jp (pretty: the brace alone on the first line)
      std::string_view s = text.substr(text.find('{') + 1);
      s = text::trim(s);
      return s.starts_with("\"dev\"") && text::contains(text, "\"mode\"");
    }
    std::vector<std::string_view> w = text::words(t);
    std::string bus, device;
    return w.size() >= 3 && parse_handle(w[0], true, bus, device) &&
           (w[1] == "mode" || w[1] == "inline-mode" || w[1] == "encap-mode" || w[1] == "encap");
  }
  return false;
}

}  // namespace rk::parse

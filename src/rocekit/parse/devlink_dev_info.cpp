#include "rocekit/parse/devlink_dev_info.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

enum class Group { none, fixed, running, stored };

std::size_t indent_of(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

// "pci/0000:08:00.0:" -> bus "pci", name "0000:08:00.0". The line has no leading blanks.
bool parse_handle(std::string_view t, std::string& bus, std::string& name) {
  if (!t.ends_with(":") || text::contains(t, " ")) return false;
  std::size_t slash = t.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 2 > t.size() - 1) return false;
  bus = std::string(t.substr(0, slash));
  name = std::string(t.substr(slash + 1, t.size() - slash - 2));
  return !name.empty();
}

nlohmann::json group_json(const std::vector<DevlinkVersion>& g) {
  nlohmann::json a = nlohmann::json::array();
  for (const DevlinkVersion& e : g) a.push_back(nlohmann::json::array({e.name, e.value}));
  return a;
}

}  // namespace

std::optional<std::string> find_version(const std::vector<DevlinkVersion>& group,
                                        std::string_view name) {
  for (const DevlinkVersion& e : group) {
    if (e.name == name) return e.value;
  }
  return std::nullopt;
}

Result<Parsed<DevlinkDevInfo>> parse_devlink_dev_info(std::string_view text) {
  Parsed<DevlinkDevInfo> out;
  DevlinkDevInfo& v = out.value;
  std::vector<std::string_view> lines = text::lines(text);
  DevlinkDevice* dev = nullptr;
  bool in_versions = false;
  std::size_t versions_indent = 0;
  Group group = Group::none;
  bool group_empty = false;
  bool dev_empty = false;
  auto close_device = [&]() {
    if (dev != nullptr && (dev_empty || group_empty || (in_versions && group == Group::none))) {
      out.warnings.push_back(
          {0, "truncated", "device " + dev->bus + "/" + dev->name + " block is cut off"});
    }
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    std::string_view t = text::trim(line);
    std::size_t line_no = i + 1;
    if (t.empty()) continue;
    if (t.starts_with("$ ")) continue;  // shell prompt kept in the capture
    if (std::optional<std::string_view> err = devlink_answer(t)) {
      v.kernel_error = std::string(*err);
      continue;
    }
    std::size_t indent = indent_of(line);
    std::string bus;
    std::string name;
    if (indent == 0 && parse_handle(t, bus, name)) {
      close_device();
      v.devices.push_back(DevlinkDevice{});
      dev = &v.devices.back();
      dev->bus = std::move(bus);
      dev->name = std::move(name);
      in_versions = false;
      group = Group::none;
      group_empty = false;
      dev_empty = true;
      continue;
    }
    if (dev == nullptr || indent == 0) {
      out.warnings.push_back({line_no, "unrecognised_line", "not a devlink dev info line"});
      continue;
    }
    dev_empty = false;
    if (in_versions && indent <= versions_indent) {
      if (group_empty || group == Group::none) {
        out.warnings.push_back({line_no, "truncated", "versions group without entries"});
      }
      in_versions = false;
      group = Group::none;
      group_empty = false;
    }
    if (!in_versions && t == "versions:") {
      in_versions = true;
      versions_indent = indent;
      continue;
    }
    if (in_versions && (t == "fixed:" || t == "running:" || t == "stored:")) {
      if (group_empty) {
        out.warnings.push_back({line_no, "truncated", "versions group without entries"});
      }
      group = t == "fixed:" ? Group::fixed : t == "running:" ? Group::running : Group::stored;
      group_empty = true;
      continue;
    }
    std::vector<std::string_view> w = text::words(t);
    if (w.size() < 2) {
      out.warnings.push_back({line_no, "unrecognised_line", "expected `name value`"});
      continue;
    }
    std::string key(w[0]);
    std::size_t value_at = t.find(w[1], w[0].size());
    std::string value(value_at == std::string_view::npos ? w[1] : t.substr(value_at));
    if (in_versions) {
      if (group == Group::none) {
        out.warnings.push_back({line_no, "unrecognised_line", "version outside a group"});
        continue;
      }
      std::vector<DevlinkVersion>& g = group == Group::fixed     ? dev->fixed
                                       : group == Group::running ? dev->running
                                                                 : dev->stored;
      g.push_back({std::move(key), std::move(value)});
      group_empty = false;
      continue;
    }
    if (key == "driver") {
      dev->driver = std::move(value);
    } else if (key == "serial_number") {
      dev->serial_number = std::move(value);
    } else if (key == "board.serial_number") {
      dev->board_serial_number = std::move(value);
    } else if (key == "function.uid") {
      dev->function_uid = std::move(value);
    } else {
      dev->other.emplace_back(std::move(key), std::move(value));
    }
  }
  close_device();
  if (v.devices.empty() && !v.kernel_error) {
    return rk::unexpected(ErrorKind::malformed_input, "no devlink device found");
  }
  if (v.kernel_error) {
    out.warnings.push_back({0, "tool_error", "kernel answers: " + *v.kernel_error});
  }
  return out;
}

nlohmann::json to_json(const DevlinkDevInfo& v) {
  nlohmann::json devices = nlohmann::json::array();
  for (const DevlinkDevice& d : v.devices) {
    nlohmann::json j = nlohmann::json::object();
    j["bus"] = d.bus;
    j["name"] = d.name;
    j["driver"] = d.driver;
    j["serial_number"] = d.serial_number;
    j["board_serial_number"] = d.board_serial_number;
    j["function_uid"] = d.function_uid;
    j["versions"] = {{"fixed", group_json(d.fixed)},
                     {"running", group_json(d.running)},
                     {"stored", group_json(d.stored)}};
    nlohmann::json other = nlohmann::json::array();
    for (const auto& [key, value] : d.other) other.push_back(nlohmann::json::array({key, value}));
    j["other"] = std::move(other);
    devices.push_back(std::move(j));
  }
  nlohmann::json j = nlohmann::json::object();
  j["devices"] = std::move(devices);
  j["kernel_error"] = v.kernel_error;
  return j;
}

bool looks_like_devlink_dev_info(std::string_view text) {
  std::size_t start = 0;
  bool prompt = false;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::string_view line = nl == std::string_view::npos ? text.substr(start)
                                                         : text.substr(start, nl - start);
    start = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view t = text::trim(line);
    if (t.empty()) continue;
    if (t.starts_with("$ ")) {
      if (!text::contains(t, "devlink")) return false;
      prompt = true;
      continue;
    }
    if (prompt && devlink_answer(t)) return true;
    std::string bus;
    std::string name;
    return indent_of(line) == 0 && parse_handle(t, bus, name) &&
           (bus == "pci" || bus == "auxiliary" || bus == "netdevsim");
  }
  return false;
}

}  // namespace rk::parse

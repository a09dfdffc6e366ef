#include "rocekit/parse/devlink_port.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

std::size_t indent_of(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

// "pci/0000:03:00.0/196608:" -> bus "pci", device "0000:03:00.0", index 196608.
bool parse_handle(std::string_view w, DevlinkPort& p) {
  if (w.size() < 2 || !w.ends_with(":")) return false;
  w.remove_suffix(1);
  std::size_t first = w.find('/');
  std::size_t last = w.rfind('/');
  if (first == std::string_view::npos || first == 0 || last == first || last + 1 >= w.size())
    return false;
  std::optional<std::uint64_t> index = text::parse_uint(w.substr(last + 1));
  if (!index || *index > 0xffffffffULL) return false;
  p.bus = std::string(w.substr(0, first));
  p.device = std::string(w.substr(first + 1, last - first - 1));
  p.index = static_cast<std::uint32_t>(*index);
  return !p.device.empty();
}

struct Reader {
  Parsed<DevlinkPorts>& out;
  std::size_t line_no = 0;

  void warn(const char* code, std::string msg) { out.warnings.push_back({line_no, code, std::move(msg)}); }

  void number(std::optional<std::uint32_t>& slot, std::string_view name, std::string_view v) {
    std::optional<std::uint64_t> n = text::parse_uint(v);
    if (!n || *n > 0xffffffffULL) return warn("bad_number", std::string(name) + " '" + std::string(v) + "'");
    slot = static_cast<std::uint32_t>(*n);
  }
  // print_bool: "true"/"false"; the function capabilities: "enable"/"disable".
  void boolean(std::optional<bool>& slot, std::string_view name, std::string_view v) {
    if (v == "true" || v == "enable") {
      slot = true;
    } else if (v == "false" || v == "disable") {
      slot = false;
    } else {
      warn("bad_value", std::string(name) + " '" + std::string(v) + "'");
    }
  }

  void port_pair(DevlinkPort& p, std::string_view k, std::string_view v) {
    std::string s(v);
    if (k == "type") p.type = s;
    else if (k == "netdev") p.netdev = s;
    else if (k == "ibdev") p.ibdev = s;
    else if (k == "flavour") p.flavour = s;
    else if (k == "controller") number(p.controller, k, v);
    else if (k == "pfnum") number(p.pfnum, k, v);
    else if (k == "vfnum") number(p.vfnum, k, v);
    else if (k == "sfnum") number(p.sfnum, k, v);
    else if (k == "external") boolean(p.external, k, v);
    else if (k == "port") number(p.port, k, v);
    else if (k == "splittable") boolean(p.splittable, k, v);
    else if (k == "lanes") number(p.lanes, k, v);
    else p.other.emplace_back(std::string(k), s);
  }

  void function_pair(DevlinkPortFunction& f, std::string_view k, std::string_view v) {
    std::string s(v);
    if (k == "hw_addr") f.hw_addr = s;
    else if (k == "state") f.state = s;
    else if (k == "opstate") f.opstate = s;
    else if (k == "roce") boolean(f.roce, k, v);
    else if (k == "migratable") boolean(f.migratable, k, v);
    else if (k == "max_io_eqs") number(f.max_io_eqs, k, v);
    else f.other.emplace_back(std::string(k), s);
  }

  // `name value` pairs from word `from` on.
  template <class Fn>
  void pairs(const std::vector<std::string_view>& w, std::size_t from, Fn fn) {
    for (std::size_t i = from; i < w.size(); i += 2) {
      if (i + 1 >= w.size()) return warn("bad_pair", "'" + std::string(w[i]) + "' without a value");
      fn(w[i], w[i + 1]);
    }
  }
};

nlohmann::json pairs_json(const std::vector<std::pair<std::string, std::string>>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& [k, x] : v) a.push_back(nlohmann::json::array({k, x}));
  return a;
}

}  // namespace

Result<Parsed<DevlinkPorts>> parse_devlink_port(std::string_view text) {
  Parsed<DevlinkPorts> out;
  DevlinkPorts& v = out.value;
  Reader r{out};
  std::vector<std::string_view> lines = text::lines(text);
  DevlinkPort* port = nullptr;
  std::optional<std::size_t> function_indent;  // inside `function:` at this indent
  std::optional<std::size_t> nested_indent;    // inside `nested_devlink:` at this indent
  for (std::size_t i = 0; i < lines.size(); ++i) {
    r.line_no = i + 1;
    std::string_view line = lines[i];
    std::string_view t = text::trim(line);
    if (t.empty()) continue;
    if (t.starts_with("$ ")) continue;  // shell prompt kept in the capture
    if (std::optional<std::string_view> err = devlink_answer(t)) {
      v.kernel_error = std::string(*err);
      continue;
    }
    std::size_t indent = indent_of(line);
    std::vector<std::string_view> w = text::words(t);
    DevlinkPort candidate;
    if (indent == 0 && parse_handle(w[0], candidate)) {
      candidate.line = r.line_no;
      v.ports.push_back(std::move(candidate));
      port = &v.ports.back();
      function_indent.reset();
      nested_indent.reset();
      r.pairs(w, 1, [&](std::string_view k, std::string_view x) { r.port_pair(*port, k, x); });
      continue;
    }
    if (port == nullptr || indent == 0) {
      r.warn("unrecognised_line", "not a devlink port line");
      continue;
    }
    if (nested_indent && indent <= *nested_indent) nested_indent.reset();
    if (function_indent && indent <= *function_indent) function_indent.reset();
    if (nested_indent) {
      port->function->other.emplace_back("nested_devlink", std::string(t));
      continue;
    }
    if (function_indent && t == "nested_devlink:") {
      nested_indent = indent;
      continue;
    }
    if (!function_indent && t == "function:") {
      if (port->function) r.warn("unrecognised_line", "second function: object of one port");
      port->function.emplace();
      function_indent = indent;
      continue;
    }
    if (function_indent) {
      r.pairs(w, 0, [&](std::string_view k, std::string_view x) { r.function_pair(*port->function, k, x); });
    } else {
      r.pairs(w, 0, [&](std::string_view k, std::string_view x) { r.port_pair(*port, k, x); });
    }
  }
  if (v.ports.empty() && !v.kernel_error)
    return rk::unexpected(ErrorKind::malformed_input, "no devlink port found (expected a line such as "
                                                      "'pci/0000:03:00.0/262143: type eth netdev p0 "
                                                      "flavour physical port 0')");
  if (v.kernel_error) out.warnings.push_back({0, "tool_error", "kernel answers: " + *v.kernel_error});
  return out;
}

nlohmann::json to_json(const DevlinkPorts& v) {
  nlohmann::json ports = nlohmann::json::array();
  for (const DevlinkPort& p : v.ports) {
    nlohmann::json j = nlohmann::json::object();
    j["line"] = p.line;
    j["bus"] = p.bus;
    j["device"] = p.device;
    j["index"] = p.index;
    j["type"] = p.type;
    j["netdev"] = p.netdev;
    j["ibdev"] = p.ibdev;
    j["flavour"] = p.flavour;
    j["controller"] = p.controller;
    j["pfnum"] = p.pfnum;
    j["vfnum"] = p.vfnum;
    j["sfnum"] = p.sfnum;
    j["external"] = p.external;
    j["port"] = p.port;
    j["splittable"] = p.splittable;
    j["lanes"] = p.lanes;
    if (p.function) {
      const DevlinkPortFunction& f = *p.function;
      j["function"] = {{"hw_addr", f.hw_addr},       {"state", f.state},
                       {"opstate", f.opstate},       {"roce", f.roce},
                       {"migratable", f.migratable}, {"max_io_eqs", f.max_io_eqs},
                       {"other", pairs_json(f.other)}};
    } else {
      j["function"] = nullptr;
    }
    j["other"] = pairs_json(p.other);
    ports.push_back(std::move(j));
  }
  nlohmann::json j = nlohmann::json::object();
  j["ports"] = std::move(ports);
  j["kernel_error"] = v.kernel_error;
  return j;
}

bool looks_like_devlink_port(std::string_view text) {
  for (std::string_view line : text::lines(text)) {
    std::string_view t = text::trim(line);
    if (t.empty()) continue;
    if (t.starts_with("$ ")) {
      if (!text::contains(t, "devlink")) return false;
      continue;
    }
    std::vector<std::string_view> w = text::words(t);
    DevlinkPort p;
    return indent_of(line) == 0 && w.size() >= 3 && parse_handle(w[0], p) &&
           (w[1] == "type" || w[1] == "netdev" || w[1] == "flavour");
  }
  return false;
}

}  // namespace rk::parse

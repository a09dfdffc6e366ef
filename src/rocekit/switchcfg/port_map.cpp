// Which switch port faces which host netdev: a mapping file (CSV or YAML) or an LLDP capture
// (`lldpctl` text / -f keyvalue / -f json, `lldptool -t -n -i IF`).
#include <map>
#include <optional>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "rocekit/core/text.hpp"
#include "rocekit/switchcfg/common.hpp"
#include "rocekit/switchcfg/switchcfg.hpp"

namespace rk::switchcfg {
namespace {

/// Splits one CSV record (RFC 4180 quoting: a field in double quotes may hold commas, and `""`
/// inside it is one quote; fields are trimmed outside quotes). nullopt: a quote left open or text
/// after a closing quote.
std::optional<std::vector<std::string>> split_csv_record(std::string_view l) {
  std::vector<std::string> out;
  std::size_t i = 0;
  for (;;) {
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    std::string field;
    if (i < l.size() && l[i] == '"') {
      ++i;
      for (;;) {
        if (i >= l.size()) return std::nullopt;  // unterminated
        if (l[i] == '"') {
          if (i + 1 < l.size() && l[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += l[i++];
      }
      while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
      if (i < l.size() && l[i] != ',') return std::nullopt;  // text after the closing quote
    } else {
      std::size_t comma = l.find(',', i);
      std::size_t end = comma == std::string_view::npos ? l.size() : comma;
      field = std::string(text::trim(l.substr(i, end - i)));
      i = end;
    }
    out.push_back(std::move(field));
    if (i >= l.size()) return out;
    ++i;  // the comma
  }
}

Result<PortMap> parse_csv(std::string_view text, const std::string& file) {
  PortMap m;
  std::vector<std::string_view> ls = text::lines(text);
  bool header = false;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::size_t ln = i + 1;
    std::string_view l = text::trim(ls[i]);
    if (l.empty() || l.front() == '#') continue;
    std::optional<std::vector<std::string>> rec = split_csv_record(l);
    if (!rec)
      return detail::malformed(file, ln,
                               "bad double quotes: a quoted field must end on its line, followed by a comma "
                               "or the line's end");
    const std::vector<std::string>& f = *rec;
    if (!header) {
      if (f.size() != 4 || f[0] != "host" || f[1] != "netdev" || f[2] != "switch" || f[3] != "port")
        return detail::malformed(file, ln, "the first line must be the header `host,netdev,switch,port`");
      header = true;
      continue;
    }
    if (f.size() != 4)
      return detail::malformed(file, ln, "expected 4 columns host,netdev,switch,port, found " + std::to_string(f.size()));
    if (f[1].empty() || f[3].empty())
      return detail::malformed(file, ln, "netdev and port must not be empty");
    m.links.push_back(Link{f[0], f[1], f[2], f[3], Evidence{file, ln, std::string(l)}});
  }
  if (!header) return detail::malformed(file, 0, "empty port map (expected the header `host,netdev,switch,port`)");
  return m;
}

Result<PortMap> parse_yaml(std::string_view text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return detail::malformed(file, static_cast<std::size_t>(e.mark.line + 1), "not valid YAML: " + e.msg);
  }
  if (root.IsMap() && root["links"]) root = root["links"];
  if (!root.IsSequence())
    return detail::malformed(file, 1, "expected a list of {host, netdev, switch, port} (or `links:` holding one)");
  PortMap m;
  for (const YAML::Node& n : root) {
    const std::size_t ln = static_cast<std::size_t>(n.Mark().line + 1);
    if (!n.IsMap()) return detail::malformed(file, ln, "each link must be a map with host, netdev, switch, port");
    Link l;
    for (auto it = n.begin(); it != n.end(); ++it) {
      std::string key = it->first.as<std::string>("");
      if (!it->second.IsScalar())
        return detail::malformed(file, static_cast<std::size_t>(it->second.Mark().line + 1), "'" + key + "' must be a string");
      std::string v = it->second.as<std::string>("");
      if (key == "host") l.host = v;
      else if (key == "netdev") l.netdev = v;
      else if (key == "switch") l.switch_name = v;
      else if (key == "port") l.port = v;
      else
        return detail::malformed(file, static_cast<std::size_t>(it->first.Mark().line + 1),
                                 "unknown key '" + key + "' (allowed: host, netdev, switch, port)");
    }
    if (l.netdev.empty() || l.port.empty()) return detail::malformed(file, ln, "a link needs netdev and port");
    l.source = Evidence{file, ln, l.host + " " + l.netdev + " -> " + l.switch_name + " " + l.port};
    m.links.push_back(std::move(l));
  }
  return m;
}

// ---- LLDP ---------------------------------------------------------------------------------

struct Neighbour {
  std::string local_if;
  std::string system_name;
  std::string port_id_subtype;  ///< "ifname", "local", "mac", ...
  std::string port_id;
  std::string port_descr;
  std::size_t line = 0;
  std::string line_text;
};

/// The switch port name of a neighbour: port id when it names an interface, else description.
std::string port_name(const Neighbour& n) {
  const std::string sub = text::to_lower(n.port_id_subtype);
  if ((sub == "ifname" || sub == "ifalias") && !n.port_id.empty()) return n.port_id;
  if (sub == "local" && !n.port_id.empty() && !detail::parse_small_int(n.port_id, 0, 999999999)) return n.port_id;
  if (!n.port_descr.empty()) return n.port_descr;
  return n.port_id;
}

Result<PortMap> to_port_map(const std::vector<Neighbour>& ns, const std::string& file, const std::string& host) {
  PortMap m;
  for (const Neighbour& n : ns) {
    std::string port = port_name(n);
    if (n.local_if.empty() || port.empty()) continue;
    m.links.push_back(Link{host, n.local_if, n.system_name, port, Evidence{file, n.line, n.line_text}});
  }
  if (m.links.empty()) return unexpected(ErrorKind::malformed_input, "no LLDP neighbour with a port name", file);
  return m;
}

std::vector<Neighbour> parse_lldpctl_text(const std::vector<std::string_view>& ls) {
  std::vector<Neighbour> out;
  Neighbour* cur = nullptr;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view l = text::trim(ls[i]);
    if (std::optional<std::string_view> v = text::value_after(l, "Interface:")) {
      std::string_view name = text::trim(v->substr(0, v->find(',')));
      out.push_back(Neighbour{});
      cur = &out.back();
      cur->local_if = std::string(name);
      cur->line = i + 1;
      cur->line_text = std::string(l);
      continue;
    }
    if (!cur) continue;
    if (std::optional<std::string_view> v = text::value_after(l, "SysName:")) {
      cur->system_name = std::string(text::trim(*v));
    } else if (std::optional<std::string_view> p = text::value_after(l, "PortID:")) {
      std::string_view t = text::trim(*p);
      std::size_t sp = t.find(' ');
      cur->port_id_subtype = std::string(sp == std::string_view::npos ? "" : t.substr(0, sp));
      cur->port_id = std::string(sp == std::string_view::npos ? t : text::trim(t.substr(sp + 1)));
      cur->line = i + 1;
      cur->line_text = std::string(l);
    } else if (std::optional<std::string_view> d = text::value_after(l, "PortDescr:")) {
      cur->port_descr = std::string(text::trim(*d));
    }
  }
  return out;
}

std::vector<Neighbour> parse_lldpctl_keyvalue(const std::vector<std::string_view>& ls) {
  std::map<std::string, Neighbour> by_if;
  std::vector<std::string> order;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view l = text::trim(ls[i]);
    if (!text::starts_with(l, "lldp.")) continue;
    std::size_t eq = l.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = l.substr(5, eq - 5);
    std::string value(text::trim(l.substr(eq + 1)));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    std::size_t dot = key.find('.');
    if (dot == std::string_view::npos) continue;
    std::string ifname(key.substr(0, dot));
    std::string field(key.substr(dot + 1));
    if (!by_if.count(ifname)) order.push_back(ifname);
    Neighbour& n = by_if[ifname];
    n.local_if = ifname;
    if (!n.line) {
      n.line = i + 1;
      n.line_text = std::string(l);
    }
    if (field == "chassis.name") n.system_name = value;
    else if (field == "port.ifname") { n.port_id_subtype = "ifname"; n.port_id = value; n.line = i + 1; n.line_text = std::string(l); }
    else if (field == "port.local") { n.port_id_subtype = "local"; n.port_id = value; }
    else if (field == "port.mac") { if (n.port_id.empty()) { n.port_id_subtype = "mac"; n.port_id = value; } }
    else if (field == "port.descr") n.port_descr = value;
  }
  std::vector<Neighbour> out;
  for (const std::string& k : order) out.push_back(by_if[k]);
  return out;
}

/// lldpctl -f json: {"lldp": {"interface": {...} | [...]}}; values may be strings,
/// {"value": ...} objects or single-element arrays (json0).
std::string json_text(const nlohmann::json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_array() && !j.empty()) return json_text(j.front());
  if (j.is_object() && j.contains("value")) return json_text(j["value"]);
  return {};
}

Result<std::vector<Neighbour>> parse_lldpctl_json(std::string_view text, const std::string& file) {
  nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("lldp"))
    return unexpected(ErrorKind::malformed_input, "not lldpctl -f json output (no \"lldp\" object)", file);
  nlohmann::json lldp = j["lldp"];
  if (lldp.is_array() && !lldp.empty()) lldp = lldp.front();
  std::vector<std::pair<std::string, nlohmann::json>> ifs;
  if (lldp.is_object() && lldp.contains("interface")) {
    const nlohmann::json& itf = lldp["interface"];
    if (itf.is_object()) {
      for (auto it = itf.begin(); it != itf.end(); ++it) ifs.emplace_back(it.key(), *it);
    } else if (itf.is_array()) {
      for (const nlohmann::json& e : itf) {
        if (e.is_object() && e.contains("name")) ifs.emplace_back(json_text(e["name"]), e);
        else if (e.is_object())
          for (auto it = e.begin(); it != e.end(); ++it) ifs.emplace_back(it.key(), *it);
      }
    }
  }
  std::vector<Neighbour> out;
  for (const auto& [name, v] : ifs) {
    Neighbour n;
    n.local_if = name;
    n.line = detail::json_key_line(text, {name});
    n.line_text = "lldp interface " + name;
    nlohmann::json chassis = v.contains("chassis") ? v["chassis"] : nlohmann::json();
    if (chassis.is_array() && !chassis.empty()) chassis = chassis.front();
    if (chassis.is_object()) {
      if (chassis.contains("name")) n.system_name = json_text(chassis["name"]);
      else if (chassis.size() == 1 && chassis.begin()->is_object()) n.system_name = chassis.begin().key();  // {"sw1": {...}}
    }
    nlohmann::json port = v.contains("port") ? v["port"] : nlohmann::json();
    if (port.is_array() && !port.empty()) port = port.front();
    if (port.is_object()) {
      nlohmann::json id = port.contains("id") ? port["id"] : nlohmann::json();
      if (id.is_array() && !id.empty()) id = id.front();
      if (id.is_object()) {
        n.port_id_subtype = id.contains("type") ? json_text(id["type"]) : "";
        n.port_id = id.contains("value") ? json_text(id["value"]) : "";
      }
      if (port.contains("descr")) n.port_descr = json_text(port["descr"]);
    }
    out.push_back(n);
  }
  return out;
}

/// lldptool -t -n -i IF: TLV headings, values on the following (tab-indented) lines.
std::vector<Neighbour> parse_lldptool(const std::vector<std::string_view>& ls, std::string local_if) {
  Neighbour n;
  n.local_if = std::move(local_if);
  std::string tlv;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view l = text::trim(ls[i]);
    if (l.empty() || l.front() == '#') continue;
    if (text::ends_with(l, " TLV")) {
      tlv = std::string(l);
      continue;
    }
    if (tlv == "Port ID TLV" && n.port_id.empty()) {
      std::size_t colon = l.find(": ");
      n.port_id_subtype = colon == std::string_view::npos ? "" : text::to_lower(l.substr(0, colon));
      n.port_id = std::string(colon == std::string_view::npos ? l : l.substr(colon + 2));
      n.line = i + 1;
      n.line_text = std::string(l);
    } else if (tlv == "Port Description TLV" && n.port_descr.empty()) {
      n.port_descr = std::string(l);
      if (!n.line || (n.port_id_subtype != "ifname" && n.port_id_subtype != "local")) {
        n.line = i + 1;
        n.line_text = std::string(l);
      }
    } else if (tlv == "System Name TLV" && n.system_name.empty()) {
      n.system_name = std::string(l);
    }
  }
  return {n};
}

}  // namespace

Result<PortMap> parse_port_map(std::string_view text, const std::string& file) {
  for (std::string_view l : text::lines(text)) {
    std::string_view t = text::trim(l);
    if (t.empty() || t.front() == '#') continue;
    if ((text::starts_with(t, "host") || text::starts_with(t, "\"host\"")) && text::contains(t, ","))
      return parse_csv(text, file);
    return parse_yaml(text, file);
  }
  return detail::malformed(file, 0, "empty port map");
}

Result<PortMap> load_port_map(const std::filesystem::path& path) {
  Result<std::string> data = detail::read_small_file(path, std::uintmax_t{16} << 20);
  if (!data) return unexpected(data.error());
  return parse_port_map(*data, path.string());
}

Result<PortMap> parse_lldp(std::string_view input, const std::string& file, std::string host) {
  const std::string blanked = detail::blank_comment_header(input);
  std::string_view t = text::trim(blanked);
  const std::string_view text = !t.empty() && t.front() == '{' ? std::string_view(blanked) : input;
  std::vector<std::string_view> ls = text::lines(text);
  if (!t.empty() && t.front() == '{') {
    Result<std::vector<Neighbour>> ns = parse_lldpctl_json(text, file);
    if (!ns) return unexpected(ns.error());
    return to_port_map(*ns, file, host);
  }
  bool keyvalue = false, lldpctl = false, lldptool = false;
  std::string tool_if;
  for (std::string_view raw : ls) {
    std::string_view l = text::trim(raw);
    if (text::starts_with(l, "lldp.") && text::contains(l, "=")) keyvalue = true;
    if (text::starts_with(l, "Interface:")) lldpctl = true;
    if (l == "Chassis ID TLV" || l == "Port ID TLV") lldptool = true;
    if (std::optional<std::string_view> v = text::value_after(l, "# interface:")) tool_if = std::string(text::trim(*v));
    if (text::contains(l, "lldptool") && text::contains(l, "-i")) {
      std::vector<std::string_view> w = text::words(l.substr(l.find("lldptool")));
      for (std::size_t k = 0; k + 1 < w.size(); ++k)
        if (w[k] == "-i") tool_if = std::string(w[k + 1]);
    }
  }
  if (keyvalue) return to_port_map(parse_lldpctl_keyvalue(ls), file, host);
  if (lldpctl) return to_port_map(parse_lldpctl_text(ls), file, host);
  if (lldptool) {
    if (tool_if.empty())
      return unexpected(ErrorKind::malformed_input,
                        "lldptool output does not name the local interface: add a `# interface: IF` line "
                        "or keep the `lldptool -t -n -i IF` command line",
                        file);
    return to_port_map(parse_lldptool(ls, tool_if), file, host);
  }
  return unexpected(ErrorKind::unsupported,
                    "not an LLDP capture (lldpctl text, -f keyvalue, -f json, or lldptool -t -n -i IF)", file);
}

Result<PortMap> port_map_from_lldp(const std::filesystem::path& path, std::string host) {
  Result<std::string> data = detail::read_small_file(path, std::uintmax_t{16} << 20);
  if (!data) return unexpected(data.error());
  return parse_lldp(*data, path.string(), std::move(host));
}

}  // namespace rk::switchcfg

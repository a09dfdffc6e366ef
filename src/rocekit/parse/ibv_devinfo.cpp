#include "rocekit/parse/ibv_devinfo.hpp"

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

constexpr std::size_t k_list_item_column = 32;  // flag lists are printed 5 tabs deep

// Column of the first non-blank character, with tabs expanded to 8-column stops.
std::size_t indent_column(std::string_view line) {
  std::size_t col = 0;
  for (char c : line) {
    if (c == '\t') {
      col = (col / 8 + 1) * 8;
    } else if (c == ' ') {
      ++col;
    } else {
      break;
    }
  }
  return col;
}

// "PORT_ACTIVE (4)" -> "PORT_ACTIVE"; text without a trailing " (digits)" is returned trimmed.
std::string_view strip_code(std::string_view s) {
  s = text::trim(s);
  if (s.empty() || s.back() != ')') return s;
  std::size_t open = s.rfind('(');
  if (open == std::string_view::npos) return s;
  std::string_view inner = s.substr(open + 1, s.size() - open - 2);
  if (!text::parse_int(inner)) return s;
  return text::trim(s.substr(0, open));
}

std::string upper_no_sep(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '_' || c == ' ' || c == '-') continue;
    out.push_back(c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
  }
  return out;
}

template <class E>
nlohmann::json opt_enum(const std::optional<E>& e) {
  if (!e) return nullptr;
  return std::string(to_string(*e));
}

bool is_port_key(std::string_view key) {
  static constexpr std::array<std::string_view, 21> k_port_keys = {
      "state",       "max_mtu",        "active_mtu",      "sm_lid",         "port_lid",
      "port_lmc",    "link_layer",     "max_msg_sz",      "port_cap_flags", "port_cap_flags2",
      "max_vl_num",  "bad_pkey_cntr",  "qkey_viol_cntr",  "sm_sl",          "pkey_tbl_len",
      "gid_tbl_len", "subnet_timeout", "init_type_reply", "active_width",   "active_speed",
      "phys_state"};
  for (std::string_view k : k_port_keys) {
    if (k == key) return true;
  }
  return false;
}

// Parses at most `max_digits` decimal digits at s[pos...]; advances pos.
std::optional<std::uint64_t> take_decimal(std::string_view s, std::size_t& pos,
                                          std::size_t max_digits) {
  std::size_t start = pos;
  std::uint64_t v = 0;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    if (pos - start >= max_digits) return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(s[pos] - '0');
    ++pos;
  }
  if (pos == start) return std::nullopt;
  return v;
}

std::optional<std::uint16_t> parse_hex_group(std::string_view g) {
  if (g.empty() || g.size() > 4) return std::nullopt;
  std::uint32_t v = 0;
  for (char c : g) {
    v <<= 4;
    if (c >= '0' && c <= '9') {
      v |= static_cast<std::uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v |= static_cast<std::uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      v |= static_cast<std::uint32_t>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
  }
  return static_cast<std::uint16_t>(v);
}

// Dotted quad -> two 16-bit groups.
bool parse_dotted(std::string_view s, std::vector<std::uint16_t>& out) {
  std::vector<std::string_view> parts = text::split(s, '.');
  if (parts.size() != 4) return false;
  std::array<std::uint32_t, 4> b{};
  for (std::size_t i = 0; i < 4; ++i) {
    if (parts[i].empty() || parts[i].size() > 3) return false;
    std::optional<std::uint64_t> v = text::parse_uint(parts[i]);
    if (!v || *v > 255) return false;
    b[i] = static_cast<std::uint32_t>(*v);
  }
  out.push_back(static_cast<std::uint16_t>((b[0] << 8) | b[1]));
  out.push_back(static_cast<std::uint16_t>((b[2] << 8) | b[3]));
  return true;
}

bool parse_groups(std::string_view s, std::vector<std::uint16_t>& out, bool allow_dotted_tail) {
  if (s.empty()) return true;
  std::vector<std::string_view> parts = text::split(s, ':');
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (allow_dotted_tail && i + 1 == parts.size() && text::contains(parts[i], ".")) {
      if (!parse_dotted(parts[i], out)) return false;
      continue;
    }
    std::optional<std::uint16_t> g = parse_hex_group(parts[i]);
    if (!g) return false;
    out.push_back(*g);
  }
  return true;
}

}  // namespace

std::string_view to_string(PortState s) {
  switch (s) {
    case PortState::nop:
      return "nop";
    case PortState::down:
      return "down";
    case PortState::init:
      return "init";
    case PortState::armed:
      return "armed";
    case PortState::active:
      return "active";
    case PortState::active_defer:
      return "active_defer";
  }
  return "unknown";
}

std::optional<PortState> port_state_from_text(std::string_view s) {
  std::string u = upper_no_sep(strip_code(s));
  if (u.starts_with("PORT")) u = u.substr(4);
  if (u == "NOP") return PortState::nop;
  if (u == "DOWN") return PortState::down;
  if (u == "INIT" || u == "INITIALIZING" || u == "INITIALIZE") return PortState::init;
  if (u == "ARMED") return PortState::armed;
  if (u == "ACTIVE") return PortState::active;
  if (u == "ACTIVEDEFER" || u == "ACTDEFER") return PortState::active_defer;
  return std::nullopt;
}

std::string_view to_string(PhysState s) {
  switch (s) {
    case PhysState::sleep:
      return "sleep";
    case PhysState::polling:
      return "polling";
    case PhysState::disabled:
      return "disabled";
    case PhysState::port_configuration_training:
      return "port_configuration_training";
    case PhysState::link_up:
      return "link_up";
    case PhysState::link_error_recovery:
      return "link_error_recovery";
    case PhysState::phy_test:
      return "phy_test";
  }
  return "unknown";
}

std::optional<PhysState> phys_state_from_text(std::string_view s) {
  std::string u = upper_no_sep(strip_code(s));
  if (u == "SLEEP") return PhysState::sleep;
  if (u == "POLLING" || u == "POLL") return PhysState::polling;
  if (u == "DISABLED") return PhysState::disabled;
  if (u == "PORTCONFIGURATIONTRAINING" || u == "TRAINING") {
    return PhysState::port_configuration_training;
  }
  if (u == "LINKUP") return PhysState::link_up;
  if (u == "LINKERRORRECOVERY" || u == "LINKERRRECOVER") return PhysState::link_error_recovery;
  if (u == "PHYTEST") return PhysState::phy_test;
  return std::nullopt;
}

std::string_view to_string(LinkLayer l) {
  switch (l) {
    case LinkLayer::ethernet:
      return "ethernet";
    case LinkLayer::infiniband:
      return "infiniband";
    case LinkLayer::unspecified:
      return "unspecified";
  }
  return "unknown";
}

std::optional<LinkLayer> link_layer_from_text(std::string_view s) {
  std::string u = upper_no_sep(strip_code(s));
  if (u == "ETHERNET") return LinkLayer::ethernet;
  if (u == "INFINIBAND" || u == "IB") return LinkLayer::infiniband;
  if (u == "UNSPECIFIED" || u == "UNKNOWN") return LinkLayer::unspecified;
  return std::nullopt;
}

std::string_view to_string(GidType t) {
  switch (t) {
    case GidType::ib_roce_v1:
      return "IB/RoCE v1";
    case GidType::roce_v2:
      return "RoCE v2";
  }
  return "unknown";
}

std::optional<GidType> gid_type_from_text(std::string_view s) {
  std::string l = text::to_lower(text::trim(s));
  if (l == "ib/roce v1" || l == "roce v1" || l == "v1" || l == "ib") return GidType::ib_roce_v1;
  if (l == "roce v2" || l == "v2") return GidType::roce_v2;
  return std::nullopt;
}

std::optional<std::string> ipv4_from_gid(std::string_view gid) {
  gid = text::trim(gid);
  if (gid.size() > 64) return std::nullopt;
  std::vector<std::uint16_t> groups;
  std::size_t dc = gid.find("::");
  if (dc == std::string_view::npos) {
    if (!parse_groups(gid, groups, true) || groups.size() != 8) return std::nullopt;
  } else {
    if (gid.find("::", dc + 1) != std::string_view::npos) return std::nullopt;
    std::vector<std::uint16_t> tail;
    if (!parse_groups(gid.substr(0, dc), groups, false)) return std::nullopt;
    if (!parse_groups(gid.substr(dc + 2), tail, true)) return std::nullopt;
    if (groups.size() + tail.size() > 7) return std::nullopt;
    groups.resize(8 - tail.size(), 0);
    groups.insert(groups.end(), tail.begin(), tail.end());
  }
  for (std::size_t i = 0; i < 5; ++i) {
    if (groups[i] != 0) return std::nullopt;
  }
  if (groups[5] != 0xffff) return std::nullopt;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", groups[6] >> 8, groups[6] & 0xffu, groups[7] >> 8,
                groups[7] & 0xffu);
  return std::string(buf);
}

std::optional<std::string> bdf_from_rdma_name(std::string_view name) {
  static constexpr std::array<std::string_view, 5> k_prefixes = {"roce", "rdma", "opa", "ib", "iw"};
  std::size_t pos = 0;
  for (std::string_view p : k_prefixes) {
    if (name.starts_with(p)) {
      pos = p.size();
      break;
    }
  }
  if (pos == 0) return std::nullopt;
  std::uint64_t domain = 0;
  if (pos < name.size() && name[pos] == 'P') {
    ++pos;
    std::optional<std::uint64_t> d = take_decimal(name, pos, 10);
    if (!d || *d > 0xffffffffULL) return std::nullopt;
    domain = *d;
  }
  if (pos >= name.size() || name[pos] != 'p') return std::nullopt;
  ++pos;
  std::optional<std::uint64_t> bus = take_decimal(name, pos, 3);
  if (!bus || *bus > 255) return std::nullopt;
  if (pos >= name.size() || name[pos] != 's') return std::nullopt;
  ++pos;
  std::optional<std::uint64_t> slot = take_decimal(name, pos, 2);
  if (!slot || *slot > 31) return std::nullopt;
  std::uint64_t func = 0;
  if (pos < name.size() && name[pos] == 'f') {
    ++pos;
    std::optional<std::uint64_t> f = take_decimal(name, pos, 3);
    if (!f || *f > 255) return std::nullopt;
    func = *f;
    if (func > 7) {  // ARI: printed function = slot * 8 + function
      if (func < *slot * 8 || func - *slot * 8 > 7) return std::nullopt;
      func -= *slot * 8;
    }
  }
  if (pos != name.size()) return std::nullopt;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04llx:%02llx:%02llx.%llx",
                static_cast<unsigned long long>(domain), static_cast<unsigned long long>(*bus),
                static_cast<unsigned long long>(*slot), static_cast<unsigned long long>(func));
  return std::string(buf);
}

namespace {

struct DevinfoParser {
  IbvDevinfo out;
  std::vector<Warning> warnings;
  IbvPort* port = nullptr;  // current port block, or nullptr
  std::string section;      // nested -v header (`tso_caps`), or empty
  std::size_t section_col = 0;
  std::string list_key;  // key that flag-list lines belong to
  bool in_elision = false;

  void warn(std::size_t line, std::string code, std::string msg) {
    warnings.push_back(Warning{line, std::move(code), std::move(msg)});
  }

  IbvDevice* device() { return out.devices.empty() ? nullptr : &out.devices.back(); }

  std::optional<std::uint32_t> num(std::string_view v, std::size_t line, bool hex) {
    std::string_view first = v;
    std::vector<std::string_view> w = text::words(v);
    if (!w.empty()) first = w.front();
    std::optional<std::uint64_t> n = hex ? text::parse_hex(first) : text::parse_uint(first);
    if (!n || *n > 0xffffffffULL) {
      warn(line, "bad_number", "cannot read a number from '" + std::string(v) + "'");
      return std::nullopt;
    }
    return static_cast<std::uint32_t>(*n);
  }

  void on_gid(std::string_view t, std::size_t line) {
    std::size_t close = t.find(']');
    std::optional<std::uint64_t> idx;
    if (close != std::string_view::npos && close >= 4)
      idx = text::parse_uint(t.substr(4, close - 4));
    std::string_view rest;
    if (close != std::string_view::npos && close + 1 < t.size() && t[close + 1] == ':') {
      rest = text::trim(t.substr(close + 2));
    }
    if (!idx || *idx > 0xffffffffULL || rest.empty()) {
      warn(line, "unrecognised_line", "malformed GID line");
      return;
    }
    IbvGid g;
    g.index = static_cast<std::uint32_t>(*idx);
    std::size_t comma = rest.find(',');
    g.gid = std::string(text::trim(rest.substr(0, comma)));
    if (comma != std::string_view::npos) {
      std::string_view type_text = text::trim(rest.substr(comma + 1));
      g.type = gid_type_from_text(type_text);
      if (!g.type) warn(line, "bad_value", "unknown GID type '" + std::string(type_text) + "'");
    }
    g.ipv4 = ipv4_from_gid(g.gid);
    ensure_port(line)->gids.push_back(std::move(g));
    out.verbose = true;
  }

  IbvPort* ensure_port(std::size_t line) {
    if (port == nullptr) {
      IbvDevice* d = device();
      d->ports.emplace_back();
      port = &d->ports.back();
      warn(line, "missing_port_header", "port attributes without a 'port:' line; port unknown");
    }
    return port;
  }

  void on_port_key(std::string_view key, std::string_view val, std::size_t line) {
    IbvPort* p = ensure_port(line);
    if (key == "state") {
      p->state = port_state_from_text(val);
      if (!p->state) warn(line, "bad_value", "unknown port state '" + std::string(val) + "'");
    } else if (key == "max_mtu") {
      p->max_mtu_bytes = num(val, line, false);
    } else if (key == "active_mtu") {
      p->active_mtu_bytes = num(val, line, false);
    } else if (key == "sm_lid") {
      p->sm_lid = num(val, line, false);
    } else if (key == "port_lid") {
      p->port_lid = num(val, line, false);
    } else if (key == "port_lmc") {
      p->port_lmc = num(val, line, true);
    } else if (key == "link_layer") {
      p->link_layer = link_layer_from_text(val);
      if (!p->link_layer) warn(line, "bad_value", "unknown link layer '" + std::string(val) + "'");
    } else if (key == "gid_tbl_len") {
      p->gid_tbl_len = num(val, line, false);
      out.verbose = true;
    } else if (key == "active_width") {
      std::string_view w = strip_code(val);
      if (w.ends_with('X')) w.remove_suffix(1);
      std::optional<std::uint64_t> n = text::parse_uint(w);
      if (n && *n <= 64) {
        p->active_width_lanes = static_cast<std::uint32_t>(*n);
      } else {
        warn(line, "bad_value", "unknown active_width '" + std::string(val) + "'");
      }
      out.verbose = true;
    } else if (key == "active_speed") {
      std::vector<std::string_view> w = text::words(val);
      std::optional<double> g;
      if (w.size() >= 2 && w[1] == "Gbps") g = text::parse_double(w[0]);
      if (g) {
        p->active_speed_gbps = g;
      } else {
        warn(line, "bad_value", "unknown active_speed '" + std::string(val) + "'");
      }
      out.verbose = true;
    } else if (key == "phys_state") {
      p->phys_state = phys_state_from_text(val);
      if (!p->phys_state) warn(line, "bad_value", "unknown phys_state '" + std::string(val) + "'");
      out.verbose = true;
    } else {
      p->attributes[std::string(key)] = std::string(val);
      out.verbose = true;
    }
  }

  void on_device_key(std::string_view key, std::string_view val, std::size_t col,
                     std::size_t line) {
    IbvDevice* d = device();
    if (key == "transport") {
      d->transport = std::string(strip_code(val));
    } else if (key == "fw_ver") {
      d->fw_ver = std::string(val);
    } else if (key == "node_guid") {
      d->node_guid = std::string(val);
    } else if (key == "sys_image_guid") {
      d->sys_image_guid = std::string(val);
    } else if (key == "vendor_id") {
      d->vendor_id = num(val, line, true);
    } else if (key == "vendor_part_id") {
      d->vendor_part_id = num(val, line, false);
    } else if (key == "hw_ver") {
      d->hw_ver = num(val, line, true);
    } else if (key == "board_id") {
      d->board_id = std::string(val);
    } else if (key == "phys_port_cnt") {
      d->phys_port_cnt = num(val, line, false);
    } else {
      out.verbose = true;
      std::string full(key);
      if (!section.empty() && col > section_col) {
        full = section + "." + full;
      } else {
        section.clear();
        if (val.empty()) {
          section = std::string(key);
          section_col = col;
        }
      }
      if (val.empty()) {
        d->attribute_lists.try_emplace(full);
      } else {
        d->attributes[full] = std::string(val);
      }
      list_key = full;
      return;
    }
    section.clear();
    list_key.clear();
  }

  void on_line(std::string_view raw, std::size_t line) {
    std::string_view t = text::trim(raw);
    if (t.empty()) return;
    if (t == ".") {
      if (!in_elision) warn(line, "elided", "lines left out of the capture ('.' marks)");
      in_elision = true;
      return;
    }
    in_elision = false;
    std::size_t col = indent_column(raw);
    if (std::optional<std::string_view> id = text::value_after(t, "hca_id:")) {
      if (id->empty()) {
        warn(line, "unrecognised_line", "hca_id without a device name");
        return;
      }
      IbvDevice d;
      d.hca_id = std::string(*id);
      d.name_bdf = bdf_from_rdma_name(*id);
      out.devices.push_back(std::move(d));
      port = nullptr;
      section.clear();
      list_key.clear();
      return;
    }
    if (t == "No IB devices found") {
      out.no_devices_found = true;
      return;
    }
    if (device() == nullptr) {
      warn(line, "unrecognised_line", "text before the first hca_id line");
      return;
    }
    if (t == "Device ports:") return;
    if (t.starts_with("GID[")) {
      on_gid(t, line);
      return;
    }
    if (col >= k_list_item_column && port == nullptr) {
      if (list_key.empty()) {
        warn(line, "unrecognised_line", "flag line without a key");
      } else {
        device()->attribute_lists[list_key].push_back(std::string(t));
      }
      return;
    }
    std::size_t colon = t.find(':');
    if (colon == std::string_view::npos) {
      if (port == nullptr) {
        device()->remarks.push_back(std::string(t));
        out.verbose = true;
      } else {
        warn(line, "unrecognised_line", "unexpected line in a port block");
      }
      return;
    }
    std::string_view key = text::trim(t.substr(0, colon));
    std::string_view val = text::trim(t.substr(colon + 1));
    if (key == "port") {
      std::optional<std::uint64_t> n = text::parse_uint(val);
      if (!n || *n > 0xffffffffULL) {
        warn(line, "bad_number", "bad port number '" + std::string(val) + "'");
        return;
      }
      device()->ports.emplace_back();
      port = &device()->ports.back();
      port->port = static_cast<std::uint32_t>(*n);
      return;
    }
    if (port != nullptr || is_port_key(key)) {
      on_port_key(key, val, line);
      return;
    }
    on_device_key(key, val, col, line);
  }

  void finish(std::size_t last_line) {
    for (IbvDevice& d : out.devices) {
      // Drop empty list entries that only introduced nested keys (`tso_caps:`).
      for (auto it = d.attribute_lists.begin(); it != d.attribute_lists.end();) {
        std::string prefix = it->first + ".";
        auto a = d.attributes.lower_bound(prefix);
        auto l = d.attribute_lists.lower_bound(prefix);
        bool parent = (a != d.attributes.end() && a->first.starts_with(prefix)) ||
                      (l != d.attribute_lists.end() && l->first.starts_with(prefix));
        if (it->second.empty() && parent) {
          it = d.attribute_lists.erase(it);
        } else {
          ++it;
        }
      }
      if (d.phys_port_cnt && d.ports.size() < *d.phys_port_cnt) {
        warn(last_line, "truncated",
             "device " + d.hca_id + ": " + std::to_string(d.ports.size()) + " of " +
                 std::to_string(*d.phys_port_cnt) + " port blocks present");
      }
    }
    if (!out.devices.empty()) {
      const IbvDevice& d = out.devices.back();
      if (!d.ports.empty() && d.ports.back().port && !d.ports.back().link_layer) {
        warn(last_line, "truncated",
             "device " + d.hca_id + ": last port block ends before link_layer");
      } else if (d.ports.empty() && !d.phys_port_cnt) {
        warn(last_line, "truncated", "device " + d.hca_id + ": block ends before its ports");
      }
    }
  }
};

}  // namespace

Result<Parsed<IbvDevinfo>> parse_ibv_devinfo(std::string_view text) {
  if (text::looks_binary(text)) return unexpected(ErrorKind::malformed_input, "binary input");
  DevinfoParser p;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) p.on_line(ls[i], i + 1);
  if (p.out.devices.empty() && !p.out.no_devices_found) {
    return unexpected(ErrorKind::malformed_input, "no ibv_devinfo hca_id block found");
  }
  p.finish(ls.size());
  return Parsed<IbvDevinfo>{std::move(p.out), std::move(p.warnings)};
}

nlohmann::json to_json(const IbvDevinfo& v) {
  nlohmann::json devices = nlohmann::json::array();
  for (const IbvDevice& d : v.devices) {
    nlohmann::json ports = nlohmann::json::array();
    for (const IbvPort& p : d.ports) {
      nlohmann::json gids = nlohmann::json::array();
      for (const IbvGid& g : p.gids) {
        gids.push_back(
            {{"index", g.index}, {"gid", g.gid}, {"type", opt_enum(g.type)}, {"ipv4", g.ipv4}});
      }
      ports.push_back({{"port", p.port},
                       {"state", opt_enum(p.state)},
                       {"max_mtu_bytes", p.max_mtu_bytes},
                       {"active_mtu_bytes", p.active_mtu_bytes},
                       {"sm_lid", p.sm_lid},
                       {"port_lid", p.port_lid},
                       {"port_lmc", p.port_lmc},
                       {"link_layer", opt_enum(p.link_layer)},
                       {"gid_tbl_len", p.gid_tbl_len},
                       {"active_width_lanes", p.active_width_lanes},
                       {"active_speed_gbps", p.active_speed_gbps},
                       {"phys_state", opt_enum(p.phys_state)},
                       {"gids", gids},
                       {"attributes", p.attributes}});
    }
    devices.push_back({{"hca_id", d.hca_id},
                       {"name_bdf", d.name_bdf},
                       {"transport", d.transport},
                       {"fw_ver", d.fw_ver},
                       {"node_guid", d.node_guid},
                       {"sys_image_guid", d.sys_image_guid},
                       {"vendor_id", d.vendor_id},
                       {"vendor_part_id", d.vendor_part_id},
                       {"hw_ver", d.hw_ver},
                       {"board_id", d.board_id},
                       {"phys_port_cnt", d.phys_port_cnt},
                       {"ports", ports},
                       {"attributes", d.attributes},
                       {"attribute_lists", d.attribute_lists},
                       {"remarks", d.remarks}});
  }
  return {{"devices", devices}, {"verbose", v.verbose}, {"no_devices_found", v.no_devices_found}};
}

bool looks_like_ibv_devinfo(std::string_view text) {
  std::string_view head = text.substr(0, 8192);
  bool hca = false;
  for (std::string_view l : text::lines(head)) {
    std::string_view t = text::trim(l);
    if (t.starts_with("hca_id:")) hca = true;
    if (hca && (t.starts_with("transport:") || t.starts_with("fw_ver:") ||
                t.starts_with("node_guid:") || t.starts_with("phys_port_cnt:"))) {
      return true;
    }
  }
  return text::trim(head) == "No IB devices found";
}

}  // namespace rk::parse

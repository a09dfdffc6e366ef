#include "rocekit/parse/lspci_vv.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool all_hex(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_hex(c)) return false;
  }
  return true;
}

/// Visual indentation: a TAB advances to the next multiple of 8.
std::size_t indent_of(std::string_view raw) {
  std::size_t col = 0;
  for (char c : raw) {
    if (c == ' ') {
      ++col;
    } else if (c == '\t') {
      col = (col / 8 + 1) * 8;
    } else {
      break;
    }
  }
  return col;
}

/// Leading decimal digits of `s` (after spaces) as a number.
std::optional<std::uint32_t> leading_uint(std::string_view s) {
  s = text::trim(s);
  std::size_t n = 0;
  while (n < s.size() && n < 9 && s[n] >= '0' && s[n] <= '9') ++n;
  if (n == 0) return std::nullopt;
  std::optional<std::uint64_t> v = text::parse_uint(s.substr(0, n));
  if (!v) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

/// The number after `key` in `s` ("MaxReadReq 512 bytes" with key "MaxReadReq ").
std::optional<std::uint32_t> uint_after(std::string_view s, std::string_view key) {
  std::size_t p = s.find(key);
  if (p == std::string_view::npos) return std::nullopt;
  return leading_uint(s.substr(p + key.size()));
}

/// "8GT/s" / "2.5GT/s" at the start of `s` -> 8.0 / 2.5.
std::optional<double> leading_gts(std::string_view s) {
  s = text::trim(s);
  std::size_t n = 0;
  while (n < s.size() && n < 12 && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.')) ++n;
  if (n == 0 || s.substr(n).substr(0, 4) != "GT/s") return std::nullopt;
  return text::parse_double(s.substr(0, n));
}

PciLink parse_link(std::string_view reg) {
  PciLink link;
  link.raw = std::string(reg);
  for (std::string_view part : text::split(reg, ',')) {
    part = text::trim(part);
    if (part.starts_with("Speed ")) {
      std::string_view rest = part.substr(6);
      if (rest.starts_with("unknown")) {
        link.speed_unknown = true;
      } else {
        link.speed_gts = leading_gts(rest);
      }
      link.speed_downgraded = text::contains(rest, "(downgraded)");
    } else if (part.starts_with("Width x")) {
      link.width_lanes = leading_uint(part.substr(7));
      link.width_downgraded = text::contains(part, "(downgraded)");
    } else if (part.starts_with("Port #")) {
      link.port = leading_uint(part.substr(6));
    }
  }
  return link;
}

/// Highest speed in "2.5-8GT/s" or "2.5-32GT/s".
std::optional<double> max_speed(std::string_view speeds) {
  std::size_t gt = speeds.rfind("GT/s");
  if (gt == std::string_view::npos) return std::nullopt;
  std::size_t b = gt;
  while (b > 0 && ((speeds[b - 1] >= '0' && speeds[b - 1] <= '9') || speeds[b - 1] == '.')) --b;
  return text::parse_double(speeds.substr(b, gt - b));
}

/// Mellanox flash-recovery ("livefish") device ids.
bool is_recovery_device_id(std::string_view vendor, std::string_view device) {
  if (text::to_lower(vendor) != "15b3") return false;
  std::optional<std::uint64_t> id = text::parse_hex(device);
  if (!id) return false;
  return *id == 0x0209 || *id == 0x020b || *id == 0x020d || (*id >= 0x020f && *id <= 0x021f);
}

/// Splits a trailing "[vvvv:dddd]" off `s`.
bool take_trailing_ids(std::string_view& s, std::optional<std::string>& vendor,
                       std::optional<std::string>& device) {
  s = text::trim(s);
  if (s.size() < 11 || s.back() != ']' || s[s.size() - 11] != '[' || s[s.size() - 6] != ':') {
    return false;
  }
  std::string_view v = s.substr(s.size() - 10, 4);
  std::string_view d = s.substr(s.size() - 5, 4);
  if (!all_hex(v) || !all_hex(d)) return false;
  vendor = std::string(v);
  device = std::string(d);
  s = text::trim(s.substr(0, s.size() - 11));
  return true;
}

/// Parses the header line "BDF class[ [cccc]]: name[ [vvvv:dddd]][ (rev rr)][ (prog-if ..)]".
std::optional<LspciDevice> parse_header(std::string_view line) {
  std::size_t sp = line.find(' ');
  if (sp == std::string_view::npos) return std::nullopt;
  std::optional<std::string> bdf = normalise_bdf(line.substr(0, sp));
  if (!bdf) return std::nullopt;
  std::string_view rest = line.substr(sp + 1);
  std::size_t colon = rest.find(": ");
  if (colon == std::string_view::npos) {
    if (!rest.ends_with(":")) return std::nullopt;
    colon = rest.size() - 1;
  }
  LspciDevice d;
  d.bdf_raw = std::string(line.substr(0, sp));
  d.bdf = *bdf;
  std::string_view cls = text::trim(rest.substr(0, colon));
  if (cls.size() >= 6 && cls.back() == ']' && cls[cls.size() - 6] == '[' &&
      all_hex(cls.substr(cls.size() - 5, 4))) {
    d.class_id = std::string(cls.substr(cls.size() - 5, 4));
    cls = text::trim(cls.substr(0, cls.size() - 6));
  }
  d.class_name = std::string(cls);
  std::string_view name = colon + 2 <= rest.size() ? text::trim(rest.substr(colon + 2)) : "";
  // Strip trailing "(prog-if ..)" and "(rev ..)" groups.
  for (int guard = 0; guard < 4 && name.ends_with(")"); ++guard) {
    std::size_t open = name.rfind(" (");
    if (open == std::string_view::npos) break;
    std::string_view group = name.substr(open + 2, name.size() - open - 3);
    if (group.starts_with("rev ")) {
      d.revision = std::string(text::trim(group.substr(4)));
    } else if (!group.starts_with("prog-if ")) {
      break;
    }
    name = text::trim(name.substr(0, open));
  }
  take_trailing_ids(name, d.vendor_id, d.device_id);
  d.name = std::string(name);
  return d;
}

/// "SrcValid+ TransBlk- ..." (also with commas: "Enable+, Smallest ...") -> flags.
PciFlags parse_flags(std::string_view reg) {
  PciFlags f;
  f.raw = std::string(text::trim(reg));
  for (std::string_view w : text::words(reg)) {
    while (!w.empty() && (w.back() == ',' || w.back() == ';')) w.remove_suffix(1);
    if (w.size() < 2 || (w.back() != '+' && w.back() != '-')) continue;
    std::string_view name = w.substr(0, w.size() - 1);
    if (name.find_first_of(":=") != std::string_view::npos) continue;
    f.flags.emplace_back(std::string(name), w.back() == '+');
  }
  return f;
}

/// An unindented line of `lspci -x`: "00: b5 13 00 01 ..." or "f10: ...".
bool is_hex_dump_line(std::string_view t) {
  std::size_t colon = t.find(':');
  if (colon < 2 || colon > 3 || !all_hex(t.substr(0, colon))) return false;
  std::vector<std::string_view> w = text::words(t.substr(colon + 1));
  if (w.empty() || w.size() > 16) return false;
  for (std::string_view b : w)
    if (b.size() != 2 || !all_hex(b)) return false;
  return true;
}

enum class Cap { none, express, vpd, sriov, acs, ats, other };

struct Registers {
  std::string devcap, devctl, lnkcap, lnksta, lnkcap2, lnkctl2;
  bool has_lnksta = false;
  bool has_lnkcap = false;
};

/// The PCI Express capability registers register_slot() keeps.
bool express_register(std::string_view name) {
  return name == "DevCap" || name == "DevCtl" || name == "LnkCap" || name == "LnkSta" || name == "LnkCap2" ||
         name == "LnkCtl2";
}

std::string* register_slot(Registers& r, std::string_view name) {
  if (name == "DevCap") return &r.devcap;
  if (name == "DevCtl") return &r.devctl;
  if (name == "LnkCap") {
    r.has_lnkcap = true;
    return &r.lnkcap;
  }
  if (name == "LnkSta") {
    r.has_lnksta = true;
    return &r.lnksta;
  }
  if (name == "LnkCap2") return &r.lnkcap2;
  if (name == "LnkCtl2") return &r.lnkctl2;
  return nullptr;
}

/// "Key: v1, Key2: v2" style SR-IOV lines.
void parse_sriov_line(std::string_view line, PciSriov& s) {
  for (std::string_view part : text::split(line, ',')) {
    part = text::trim(part);
    if (std::optional<std::string_view> v = text::value_after(part, "Initial VFs:")) {
      s.initial_vfs = leading_uint(*v);
    } else if (std::optional<std::string_view> v2 = text::value_after(part, "Total VFs:")) {
      s.total_vfs = leading_uint(*v2);
    } else if (std::optional<std::string_view> v3 = text::value_after(part, "Number of VFs:")) {
      s.number_of_vfs = leading_uint(*v3);
    } else if (std::optional<std::string_view> v4 = text::value_after(part, "Device ID:")) {
      s.vf_device_id = std::string(*v4);
    }
  }
}

void parse_vpd_line(std::string_view line, PciVpd& vpd) {
  if (std::optional<std::string_view> v = text::value_after(line, "Product Name:")) {
    vpd.product_name = std::string(*v);
    return;
  }
  if (line.size() < 5 || line[0] != '[' || line[3] != ']') return;
  PciVpdField f;
  f.keyword = std::string(line.substr(1, 2));
  std::string_view rest = text::trim(line.substr(4));
  std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) {
    f.value = std::string(rest);
  } else {
    f.label = std::string(text::trim(rest.substr(0, colon)));
    f.value = std::string(text::trim(rest.substr(colon + 1)));
  }
  if (f.keyword == "PN") vpd.part_number = f.value;
  if (f.keyword == "SN") vpd.serial_number = f.value;
  if (f.keyword == "EC") vpd.engineering_changes = f.value;
  vpd.fields.push_back(std::move(f));
}

void finish_device(LspciDevice& d, const Registers& r) {
  if (!r.devcap.empty()) d.devcap_max_payload_bytes = uint_after(r.devcap, "MaxPayload ");
  if (!r.devctl.empty()) {
    d.max_payload_bytes = uint_after(r.devctl, "MaxPayload ");
    d.max_read_request_bytes = uint_after(r.devctl, "MaxReadReq ");
    PciFlags f = parse_flags(r.devctl);
    d.relaxed_ordering = f.get("RlxdOrd");
    d.no_snoop = f.get("NoSnoop");
  }
  if (r.has_lnkcap) d.link_capability = parse_link(text::trim(r.lnkcap));
  if (r.has_lnksta) d.link_status = parse_link(text::trim(r.lnksta));
  if (!r.lnkcap2.empty()) {
    std::size_t p = r.lnkcap2.find("Supported Link Speeds:");
    if (p != std::string::npos) {
      std::string_view s = std::string_view(r.lnkcap2).substr(p + 22);
      s = text::trim(s.substr(0, s.find(',')));
      d.link_cap2_speeds = std::string(s);
      d.link_cap2_max_speed_gts = max_speed(s);
    }
  }
  if (!r.lnkctl2.empty()) {
    std::size_t p = r.lnkctl2.find("Target Link Speed:");
    if (p != std::string::npos) {
      d.target_link_speed_gts = leading_gts(std::string_view(r.lnkctl2).substr(p + 18));
    }
  }
  std::string lname = text::to_lower(d.name);
  d.is_virtual_function = text::contains(lname, "virtual function");
  d.flash_recovery = text::contains(lname, "flash recovery") ||
                     (d.vendor_id && d.device_id && is_recovery_device_id(*d.vendor_id, *d.device_id));
}

/// "Bus: primary=00, secondary=01, subordinate=19, sec-latency=0" (pciutils lspci.c
/// show_htype1()).
void parse_bus_line(std::string_view v, LspciDevice& d) {
  for (std::string_view part : text::split(v, ',')) {
    part = text::trim(part);
    std::size_t eq = part.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = part.substr(0, eq);
    std::optional<std::uint64_t> n = text::parse_hex(part.substr(eq + 1));
    if (!n || *n > 0xff) continue;
    auto bus = static_cast<std::uint32_t>(*n);
    if (key == "primary") d.primary_bus = bus;
    if (key == "secondary") d.secondary_bus = bus;
    if (key == "subordinate") d.subordinate_bus = bus;
  }
}

}  // namespace

std::optional<bool> PciFlags::get(std::string_view name) const {
  for (const auto& [n, on] : flags)
    if (n == name) return on;
  return std::nullopt;
}

std::optional<std::string> normalise_bdf(std::string_view s) {
  // [domain:]bb:dd.f
  std::size_t dot = s.rfind('.');
  if (dot == std::string_view::npos || dot + 2 != s.size()) return std::nullopt;
  char fn = s[dot + 1];
  if (fn < '0' || fn > '7') return std::nullopt;
  std::vector<std::string_view> parts = text::split(s.substr(0, dot), ':');
  if (parts.size() != 2 && parts.size() != 3) return std::nullopt;
  std::string domain = "0000";
  std::size_t b = 0;
  if (parts.size() == 3) {
    if (parts[0].empty() || parts[0].size() > 8 || !all_hex(parts[0])) return std::nullopt;
    domain = std::string(parts[0]);
    if (domain.size() < 4) domain.insert(0, 4 - domain.size(), '0');
    b = 1;
  }
  if (parts[b].size() != 2 || !all_hex(parts[b]) || parts[b + 1].size() != 2 ||
      !all_hex(parts[b + 1])) {
    return std::nullopt;
  }
  return text::to_lower(domain + ":" + std::string(parts[b]) + ":" + std::string(parts[b + 1]) +
                        "." + std::string(1, fn));
}

Result<Parsed<LspciVv>> parse_lspci_vv(std::string_view text) {
  Parsed<LspciVv> out;
  std::vector<LspciDevice>& devs = out.value.devices;
  Registers regs;
  Cap cap = Cap::none;
  std::size_t cap_indent = 0;
  std::size_t reg_indent = 0;
  std::string* reg = nullptr;
  PciFlags* reg_acs = nullptr;  // the ACS register a wrapped line continues
  auto finish = [&]() {
    if (!devs.empty()) finish_device(devs.back(), regs);
    regs = Registers{};
    cap = Cap::none;
    reg = nullptr;
    reg_acs = nullptr;
  };
  std::vector<std::string_view> lines = text::lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view raw = lines[i];
    std::string_view t = text::trim(raw);
    if (t.empty()) continue;
    std::size_t indent = indent_of(raw);
    // A grep'd fragment (`lspci -vvv -s 81:00.0 | grep Lnk`): Express registers and no header.
    std::size_t colon_at = t.find(':');
    bool express_key = colon_at != std::string_view::npos && express_register(t.substr(0, colon_at));
    if ((devs.empty() || devs.back().headerless) && (express_key || (!devs.empty() && t.starts_with("MaxPayload ")))) {
      if (devs.empty()) {
        LspciDevice d;
        d.headerless = true;
        d.line = i + 1;
        devs.push_back(std::move(d));
      }
      if (express_key) {
        reg = register_slot(regs, t.substr(0, colon_at));
        reg->append(std::string(t.substr(colon_at + 1)));
      } else {  // DevCtl's second line ("MaxPayload 256 bytes, MaxReadReq 4096 bytes") on its own
        reg = register_slot(regs, "DevCtl");
        reg->append(" " + std::string(t));
      }
      continue;
    }
    if (!devs.empty() && devs.back().headerless && reg != nullptr && t.find(':') == std::string_view::npos) {
      reg->append(" " + std::string(t));  // a register's continuation line ("ClockPM- Surprise- ...")
      continue;
    }
    if (indent == 0) {
      std::optional<LspciDevice> d = parse_header(t);
      if (!d && is_hex_dump_line(t)) {
        cap = Cap::none;
        reg = nullptr;
        continue;
      }
      if (!d) {
        out.warnings.push_back({i + 1, "unrecognised_line", "not an lspci device header"});
        continue;
      }
      finish();
      d->line = i + 1;
      devs.push_back(std::move(*d));
      continue;
    }
    if (devs.empty()) {
      out.warnings.push_back({i + 1, "unrecognised_line", "detail line before any device"});
      continue;
    }
    LspciDevice& d = devs.back();
    if (t.starts_with("Capabilities:")) {
      cap_indent = indent;
      reg = nullptr;
      reg_acs = nullptr;
      reg_indent = 0;
      std::string_view c = text::trim(t.substr(13));
      if (text::contains(c, "<access denied>")) {
        d.capabilities_denied = true;
        cap = Cap::none;
        continue;
      }
      std::size_t close = c.find(']');
      if (close != std::string_view::npos) c = text::trim(c.substr(close + 1));
      if (c.starts_with("Express")) {
        cap = Cap::express;
        std::string_view et = text::trim(c.substr(7));
        if (et.starts_with("(")) {
          std::size_t p = et.find(')');
          et = p == std::string_view::npos ? std::string_view() : text::trim(et.substr(p + 1));
        }
        d.express_type = std::string(text::trim(et.substr(0, et.find(','))));
      } else if (c.starts_with("Vital Product Data")) {
        cap = Cap::vpd;
        if (!d.vpd) d.vpd.emplace();
      } else if (c.starts_with("Access Control Services")) {
        cap = Cap::acs;
        d.has_acs = true;
      } else if (c.starts_with("Address Translation Service")) {
        cap = Cap::ats;
        d.has_ats = true;
      } else if (text::contains(c, "(SR-IOV)")) {
        cap = Cap::sriov;
        if (!d.sriov) d.sriov.emplace();
      } else {
        cap = Cap::other;
      }
      continue;
    }
    if (cap != Cap::none && indent > cap_indent) {
      if (cap == Cap::express) {
        std::size_t colon = t.find(':');
        std::string_view key = colon == std::string_view::npos ? std::string_view() : t.substr(0, colon);
        bool key_form = !key.empty() && key.size() <= 12 &&
                        key.find_first_of(" \t") == std::string_view::npos;
        if (key_form && (reg_indent == 0 || indent <= reg_indent)) {
          reg_indent = indent;
          reg = register_slot(regs, key);
          if (reg != nullptr) reg->append(std::string(t.substr(colon + 1)));
        } else if (reg != nullptr) {
          reg->append(" ");
          reg->append(std::string(t));
        }
      } else if (cap == Cap::vpd && d.vpd) {
        parse_vpd_line(t, *d.vpd);
      } else if (cap == Cap::sriov && d.sriov) {
        parse_sriov_line(t, *d.sriov);
      } else if (cap == Cap::acs) {
        // pciutils ls-ecaps.c cap_acs(): "ACSCap:\tSrcValid%c TransBlk%c ..." then "ACSCtl:".
        // Pastes may wrap a register onto the next line: a line without a key continues it.
        if (std::optional<std::string_view> v = text::value_after(t, "ACSCap:")) {
          d.acs_capability = parse_flags(*v);
          reg_acs = &*d.acs_capability;
        } else if (std::optional<std::string_view> v2 = text::value_after(t, "ACSCtl:")) {
          d.acs_control = parse_flags(*v2);
          reg_acs = &*d.acs_control;
        } else if (reg_acs != nullptr && t.find(':') == std::string_view::npos) {
          PciFlags more = parse_flags(t);
          reg_acs->raw += " " + more.raw;
          reg_acs->flags.insert(reg_acs->flags.end(), more.flags.begin(), more.flags.end());
        }
      } else if (cap == Cap::ats) {
        // cap_ats(): "ATSCap:\tInvalidate Queue Depth: %02x", "ATSCtl:\tEnable%c, Smallest ...".
        if (std::optional<std::string_view> v = text::value_after(t, "ATSCtl:"))
          d.ats_enabled = parse_flags(*v).get("Enable");
      }
      continue;
    }
    // A device-level attribute line.
    cap = Cap::none;
    reg = nullptr;
    if (std::optional<std::string_view> v = text::value_after(t, "Subsystem:")) {
      std::string_view s = *v;
      take_trailing_ids(s, d.subsystem_vendor_id, d.subsystem_device_id);
      d.subsystem = std::string(s);
    } else if (std::optional<std::string_view> v2 = text::value_after(t, "Physical Slot:")) {
      d.physical_slot = std::string(*v2);
    } else if (std::optional<std::string_view> v3 = text::value_after(t, "NUMA node:")) {
      d.numa_node = text::parse_int(*v3);
    } else if (std::optional<std::string_view> v4 = text::value_after(t, "IOMMU group:")) {
      d.iommu_group = leading_uint(*v4);
    } else if (std::optional<std::string_view> v5 = text::value_after(t, "Kernel driver in use:")) {
      d.kernel_driver = std::string(*v5);
    } else if (std::optional<std::string_view> v6 = text::value_after(t, "Kernel modules:")) {
      for (std::string_view m : text::split(*v6, ',')) {
        m = text::trim(m);
        if (!m.empty()) d.kernel_modules.emplace_back(m);
      }
    } else if (t.starts_with("Control:")) {
      d.full_listing = true;
    } else if (std::optional<std::string_view> v7 = text::value_after(t, "Bus:")) {
      parse_bus_line(*v7, d);
    }
  }
  finish();
  if (devs.empty()) return unexpected(ErrorKind::malformed_input, "no lspci device header found");
  for (const LspciDevice& d : devs) {
    if (d.capabilities_denied) {
      out.warnings.push_back({d.line, "access_denied",
                              d.bdf + ": capabilities not readable (lspci not run as root)"});
    }
  }
  const LspciDevice& last = devs.back();
  if (last.full_listing && last.express_type && !last.link_status) {
    out.warnings.push_back({0, "truncated",
                            last.bdf + ": Express capability without LnkSta; link status, "
                                       "later capabilities and driver lines missing"});
  }
  return out;
}

namespace {

nlohmann::json link_json(const std::optional<PciLink>& l) {
  if (!l) return nullptr;
  return {{"raw", l->raw},
          {"speed_gts", l->speed_gts},
          {"speed_unknown", l->speed_unknown},
          {"width_lanes", l->width_lanes},
          {"speed_downgraded", l->speed_downgraded},
          {"width_downgraded", l->width_downgraded},
          {"port", l->port}};
}

nlohmann::json flags_json(const std::optional<PciFlags>& f) {
  if (!f) return nullptr;
  nlohmann::json m = nlohmann::json::object();
  for (const auto& [n, on] : f->flags) m[n] = on;
  return {{"raw", f->raw}, {"flags", m}};
}

}  // namespace

nlohmann::json to_json(const LspciVv& v) {
  nlohmann::json devs = nlohmann::json::array();
  for (const LspciDevice& d : v.devices) {
    nlohmann::json vpd = nullptr;
    if (d.vpd) {
      nlohmann::json fields = nlohmann::json::array();
      for (const PciVpdField& f : d.vpd->fields) {
        fields.push_back({{"keyword", f.keyword}, {"label", f.label}, {"value", f.value}});
      }
      vpd = {{"product_name", d.vpd->product_name},
             {"part_number", d.vpd->part_number},
             {"serial_number", d.vpd->serial_number},
             {"engineering_changes", d.vpd->engineering_changes},
             {"fields", fields}};
    }
    nlohmann::json sriov = nullptr;
    if (d.sriov) {
      sriov = {{"initial_vfs", d.sriov->initial_vfs},
               {"total_vfs", d.sriov->total_vfs},
               {"number_of_vfs", d.sriov->number_of_vfs},
               {"vf_device_id", d.sriov->vf_device_id}};
    }
    devs.push_back({{"bdf_raw", d.bdf_raw},
                    {"bdf", d.bdf},
                    {"line", d.line},
                    {"class_name", d.class_name},
                    {"class_id", d.class_id},
                    {"name", d.name},
                    {"vendor_id", d.vendor_id},
                    {"device_id", d.device_id},
                    {"revision", d.revision},
                    {"subsystem", d.subsystem},
                    {"subsystem_vendor_id", d.subsystem_vendor_id},
                    {"subsystem_device_id", d.subsystem_device_id},
                    {"physical_slot", d.physical_slot},
                    {"numa_node", d.numa_node},
                    {"iommu_group", d.iommu_group},
                    {"express_type", d.express_type},
                    {"devcap_max_payload_bytes", d.devcap_max_payload_bytes},
                    {"max_payload_bytes", d.max_payload_bytes},
                    {"max_read_request_bytes", d.max_read_request_bytes},
                    {"link_capability", link_json(d.link_capability)},
                    {"link_status", link_json(d.link_status)},
                    {"link_cap2_speeds", d.link_cap2_speeds},
                    {"link_cap2_max_speed_gts", d.link_cap2_max_speed_gts},
                    {"target_link_speed_gts", d.target_link_speed_gts},
                    {"primary_bus", d.primary_bus},
                    {"secondary_bus", d.secondary_bus},
                    {"subordinate_bus", d.subordinate_bus},
                    {"relaxed_ordering", d.relaxed_ordering},
                    {"no_snoop", d.no_snoop},
                    {"has_acs", d.has_acs},
                    {"acs_capability", flags_json(d.acs_capability)},
                    {"acs_control", flags_json(d.acs_control)},
                    {"has_ats", d.has_ats},
                    {"ats_enabled", d.ats_enabled},
                    {"sriov", sriov},
                    {"vpd", vpd},
                    {"kernel_driver", d.kernel_driver},
                    {"kernel_modules", d.kernel_modules},
                    {"is_virtual_function", d.is_virtual_function},
                    {"flash_recovery", d.flash_recovery},
                    {"capabilities_denied", d.capabilities_denied},
                    {"full_listing", d.full_listing}});
  }
  return {{"devices", devs}};
}

bool looks_like_lspci_vv(std::string_view text) {
  std::size_t n = 0;
  bool fragment = true, link_line = false;  // a headerless grep: only Express register lines
  for (std::string_view l : text::lines(text.substr(0, 8192))) {
    if (++n > 40) break;
    std::string_view t = text::trim(l);
    if (!t.empty()) {
      std::size_t colon = t.find(':');
      bool reg = colon != std::string_view::npos && express_register(t.substr(0, colon));
      link_line = link_line || (reg && t.starts_with("Lnk") && text::contains(t, "Speed "));
      fragment = fragment && (reg || l.front() == ' ' || l.front() == '\t');
    }
    if (l.empty() || l.front() == ' ' || l.front() == '\t') continue;
    std::size_t sp = l.find(' ');
    if (sp == std::string_view::npos) continue;
    if (normalise_bdf(l.substr(0, sp)) && l.find(": ", sp) != std::string_view::npos) return true;
  }
  return fragment && link_line;
}

}  // namespace rk::parse

#include "rocekit/parse/dmesg.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

bool hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/// "dddd:bb:dd.f" (the kernel's pci_name(), always with the domain).
bool is_bdf(std::string_view s) {
  if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
    if (!hex(s[i])) return false;
  return s[11] >= '0' && s[11] <= '7';
}

/// One kernel log line split into the printing device and the message.
struct KernelLine {
  std::string_view driver;
  std::string_view device;
  std::string_view message;
};

/// Drops a "[  13.409473] " / "[Sun Dec  1 14:54:40 2024] " stamp (also several, as in
/// "[    0.310650] [      T1] ") and a syslog "... kernel: " prefix.
std::string_view strip_prefix(std::string_view t) {
  t = text::trim(t);
  if (std::size_t k = t.find(" kernel: "); k != std::string_view::npos) t = t.substr(k + 9);
  while (t.starts_with('[')) {
    std::size_t e = t.find(']');
    if (e == std::string_view::npos) break;
    t = text::trim(t.substr(e + 1));
  }
  return t;
}

/// "<driver> <BDF>: <message>" or "<driver> <BDF> <netdev>: <message>".
std::optional<KernelLine> kernel_line(std::string_view raw) {
  std::string_view t = strip_prefix(raw);
  std::size_t sp = t.find(' ');
  if (sp == std::string_view::npos || sp == 0) return std::nullopt;
  std::string_view rest = t.substr(sp + 1);
  if (rest.size() < 13 || !is_bdf(rest.substr(0, 12))) return std::nullopt;
  std::size_t colon = rest.find(": ", 12);
  if (colon == std::string_view::npos) return std::nullopt;
  if (colon != 12 && rest[12] != ' ') return std::nullopt;  // "0000:41:00.0 eth2: ..."
  return KernelLine{t.substr(0, sp), rest.substr(0, 12), text::trim(rest.substr(colon + 2))};
}

/// "8.0 GT/s PCIe x8" -> {8.0, 8}; "Unknown x8" / "Unknown speed x8" -> {nullopt, 8}.
std::optional<DmesgPcieLinkEnd> link_end(std::string_view s) {
  s = text::trim(s);
  std::size_t x = s.rfind(" x");
  if (x == std::string_view::npos) return std::nullopt;
  std::optional<std::uint64_t> w = text::parse_uint(s.substr(x + 2));
  if (!w || *w > 64) return std::nullopt;
  DmesgPcieLinkEnd e;
  e.width_lanes = static_cast<int>(*w);
  std::string_view speed = s.substr(0, x);
  if (std::size_t g = speed.find(" GT/s"); g != std::string_view::npos) {
    std::optional<double> v = text::parse_double(speed.substr(0, g));
    if (!v || *v <= 0 || *v > 1000) return std::nullopt;
    e.speed_gts = *v;
  } else if (!speed.starts_with("Unknown")) {
    return std::nullopt;
  }
  return e;
}

std::optional<double> gbps(std::string_view s) {
  std::optional<double> v = text::parse_double(text::trim(s));
  if (!v || *v < 0 || *v > 1e6) return std::nullopt;
  return v;
}

/// The bandwidth message (after "<driver> <BDF>: "); nullopt when it is not one.
std::optional<DmesgPcieBandwidth> bandwidth(std::string_view m) {
  const std::string_view k_avail = " Gb/s available PCIe bandwidth";
  std::size_t a = m.find(k_avail);
  if (a == std::string_view::npos) return std::nullopt;
  DmesgPcieBandwidth b;
  std::optional<double> avail = gbps(m.substr(0, a));
  if (!avail) return std::nullopt;
  b.available_gbps = *avail;
  std::string_view rest = m.substr(a + k_avail.size());
  if (rest.starts_with(", limited by ")) {
    rest.remove_prefix(13);
    std::size_t at = rest.find(" link at ");
    std::size_t cap = rest.find(" (capable of ");
    if (at == std::string_view::npos || cap == std::string_view::npos || cap < at) return std::nullopt;
    std::optional<DmesgPcieLinkEnd> lim = link_end(rest.substr(0, at));
    if (!lim) return std::nullopt;
    b.limited = true;
    b.available = *lim;
    std::string_view who = text::trim(rest.substr(at + 9, cap - at - 9));
    if (is_bdf(who)) b.limited_at = std::string(who);
    std::string_view c = rest.substr(cap + 13);  // "126.016 Gb/s with 8.0 GT/s PCIe x16 link)..."
    std::size_t with = c.find(" Gb/s with ");
    std::size_t end = c.find(" link)");
    if (with == std::string_view::npos || end == std::string_view::npos || end < with) return std::nullopt;
    b.capable_gbps = gbps(c.substr(0, with));
    std::optional<DmesgPcieLinkEnd> ce = link_end(c.substr(with + 11, end - with - 11));
    if (!ce || !b.capable_gbps) return std::nullopt;
    b.capable = *ce;
    return b;
  }
  if (rest.starts_with(" (")) {
    std::size_t end = rest.find(" link)");
    if (end == std::string_view::npos) return std::nullopt;
    std::optional<DmesgPcieLinkEnd> e = link_end(rest.substr(2, end - 2));
    if (!e) return std::nullopt;
    b.available = *e;
    b.capable = *e;
    return b;
  }
  return std::nullopt;
}

/// "severity=Corrected, type=Physical Layer, (Receiver ID)": the value after `key` up to ", ".
std::optional<std::string> field(std::string_view m, std::string_view key) {
  std::size_t k = m.find(key);
  if (k == std::string_view::npos) return std::nullopt;
  std::string_view v = m.substr(k + key.size());
  std::size_t e = v.find(", ");
  return std::string(text::trim(e == std::string_view::npos ? v : v.substr(0, e)));
}

std::optional<DmesgAer> aer(std::string_view m) {
  if (m.starts_with("AER: ")) m.remove_prefix(5);
  DmesgAer a;
  if (m.starts_with("PCIe Bus Error: ")) {
    a.severity = field(m, "severity=");
    a.type = field(m, "type=");
    return a;
  }
  for (std::string_view k : {std::string_view("error received: "), std::string_view("error message received from ")}) {
    std::size_t p = m.find(k);
    if (p == std::string_view::npos) continue;
    std::string_view src = text::trim(m.substr(p + k.size()));
    if (src.size() >= 12 && is_bdf(src.substr(0, 12))) a.source = std::string(src.substr(0, 12));
    std::string_view sev = m.substr(0, p);
    if (sev.starts_with("Multiple ")) sev.remove_prefix(9);
    a.severity = std::string(text::trim(sev));
    return a;
  }
  return std::nullopt;
}

/// "iommu: Default domain type: Translated " / "... Passthrough (set via kernel command line)".
std::optional<DmesgIommuDomain> default_domain(std::string_view t) {
  constexpr std::string_view k = "iommu: Default domain type:";
  if (!t.starts_with(k)) return std::nullopt;
  std::string_view rest = text::trim(t.substr(k.size()));
  DmesgIommuDomain d;
  constexpr std::string_view k_cmd = "(set via kernel command line)";
  if (std::size_t p = rest.find(k_cmd); p != std::string_view::npos) {
    d.set_via_cmdline = true;
    rest = text::trim(rest.substr(0, p));
  }
  if (rest.empty() || rest.find(' ') != std::string_view::npos) return std::nullopt;
  d.type = std::string(rest);
  return d;
}

/// "Adding to iommu group 17" -> 17.
std::optional<unsigned> iommu_group(std::string_view m) {
  constexpr std::string_view k = "Adding to iommu group ";
  if (!m.starts_with(k)) return std::nullopt;
  std::optional<std::uint64_t> n = text::parse_uint(m.substr(k.size()));
  if (!n || *n > 1000000) return std::nullopt;
  return static_cast<unsigned>(*n);
}

nlohmann::json end_json(const DmesgPcieLinkEnd& e) {
  return {{"speed_gts", e.speed_gts}, {"width_lanes", e.width_lanes}};
}

}  // namespace

Result<Parsed<DmesgLog>> parse_dmesg(std::string_view text) {
  DmesgLog out;
  std::vector<Warning> warnings;
  std::vector<std::string_view> ls = text::lines(text);
  bool iommu_lines = false;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::size_t line = i + 1;
    std::optional<KernelLine> k = kernel_line(ls[i]);
    if (!k) {
      // A kernel log holds many other lines: not a warning. Two of them name the IOMMU mode.
      std::string_view t = strip_prefix(ls[i]);
      if (std::optional<DmesgIommuDomain> d = default_domain(t)) {
        d->line = line;
        out.iommu_default_domain = std::move(*d);
        iommu_lines = true;
      } else if (std::optional<std::string_view> c = text::value_after(t, "Kernel command line:")) {
        out.cmdline = DmesgCmdline{std::string(*c), iommu_from_cmdline(*c), line};
        iommu_lines = true;
      }
      continue;
    }
    ++out.kernel_lines;
    if (std::optional<unsigned> g = iommu_group(k->message)) {
      out.iommu_groups.push_back({std::string(k->device), *g, line});
    } else if (std::optional<DmesgPcieBandwidth> b = bandwidth(k->message)) {
      b->device = std::string(k->device);
      b->driver = std::string(k->driver);
      b->line = line;
      out.pcie_bandwidth.push_back(std::move(*b));
    } else if (k->message.find("available PCIe bandwidth") != std::string_view::npos) {
      warnings.push_back(Warning{line, "bad_bandwidth_line",
                                 "PCIe bandwidth line not in the kernel's format: " +
                                     std::string(k->message.substr(0, 120))});
    } else if (k->message.starts_with("firmware version: ")) {
      std::string_view v = text::trim(k->message.substr(18));
      out.firmware.push_back(DmesgFirmware{std::string(k->device), std::string(k->driver), std::string(v), line});
    } else if (std::optional<DmesgAer> a = aer(k->message)) {
      a->device = std::string(k->device);
      a->driver = std::string(k->driver);
      a->line = line;
      out.aer.push_back(std::move(*a));
    }
  }
  if (out.kernel_lines == 0 && !iommu_lines)
    return rk::unexpected(ErrorKind::malformed_input,
                          "no kernel log line of the form \"<driver> <domain:bus:dev.fn>: <message>\", "
                          "\"iommu: Default domain type: ...\" or \"Kernel command line: ...\"");
  return Parsed<DmesgLog>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const DmesgLog& v) {
  nlohmann::json fw = nlohmann::json::array(), bw = nlohmann::json::array(), ae = nlohmann::json::array();
  for (const DmesgFirmware& f : v.firmware)
    fw.push_back({{"device", f.device}, {"driver", f.driver}, {"version", f.version}, {"line", f.line}});
  for (const DmesgPcieBandwidth& b : v.pcie_bandwidth)
    bw.push_back({{"device", b.device},
                  {"driver", b.driver},
                  {"available_gbps", b.available_gbps},
                  {"available", end_json(b.available)},
                  {"limited", b.limited},
                  {"limited_at", b.limited_at},
                  {"capable_gbps", b.capable_gbps},
                  {"capable", end_json(b.capable)},
                  {"line", b.line}});
  for (const DmesgAer& a : v.aer)
    ae.push_back({{"device", a.device},
                  {"driver", a.driver},
                  {"severity", a.severity},
                  {"type", a.type},
                  {"source", a.source},
                  {"line", a.line}});
  nlohmann::json groups = nlohmann::json::array();
  for (const DmesgIommuGroup& g : v.iommu_groups)
    groups.push_back({{"device", g.device}, {"group", g.group}, {"line", g.line}});
  nlohmann::json domain = nullptr, cmdline = nullptr;
  if (v.iommu_default_domain)
    domain = {{"type", v.iommu_default_domain->type},
              {"set_via_cmdline", v.iommu_default_domain->set_via_cmdline},
              {"line", v.iommu_default_domain->line}};
  if (v.cmdline)
    cmdline = {{"cmdline", v.cmdline->cmdline},
               {"iommu_parameters", v.cmdline->iommu.parameters},
               {"iommu_mode", v.cmdline->iommu.mode},
               {"line", v.cmdline->line}};
  nlohmann::json out = {{"firmware", fw}, {"pcie_bandwidth", bw}, {"aer", ae}, {"kernel_lines", v.kernel_lines}};
  // Only when present: the goldens of logs without IOMMU lines stay as they were.
  if (!groups.empty()) out["iommu_groups"] = groups;
  if (!domain.is_null()) out["iommu_default_domain"] = domain;
  if (!cmdline.is_null()) out["cmdline"] = cmdline;
  return out;
}

bool looks_like_dmesg(std::string_view text) {
  // Two kernel-log lines, or one that is a line rocekit reads.
  std::size_t seen = 0;
  for (std::string_view l : text::lines(text)) {
    std::optional<KernelLine> k = kernel_line(l);
    if (!k) {
      if (default_domain(strip_prefix(l))) return true;
      continue;
    }
    if (k->message.find("available PCIe bandwidth") != std::string_view::npos ||
        k->message.starts_with("firmware version: ") || k->message.find("PCIe Bus Error") != std::string_view::npos)
      return true;
    if (++seen == 2) return true;
  }
  return false;
}

}  // namespace rk::parse

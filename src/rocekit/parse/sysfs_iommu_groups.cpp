#include "rocekit/parse/sysfs_iommu_groups.hpp"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/lspci_vv.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_dir = "/iommu_groups/";

/// "17/devices/0000:41:00.0" or "17/type:DMA" after "/iommu_groups/": the group number and the rest.
std::optional<std::pair<unsigned, std::string_view>> after_dir(std::string_view t) {
  std::size_t at = t.rfind(k_dir);
  // The path starts the line ("grep: /sys/kernel/iommu_groups/3/type: Permission denied" is not ours).
  if (at == std::string_view::npos || t.substr(0, at).find_first_of(" \t") != std::string_view::npos) return std::nullopt;
  std::string_view rest = t.substr(at + k_dir.size());
  std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::optional<std::uint64_t> n = text::parse_uint(rest.substr(0, slash));
  if (!n || *n > 1000000) return std::nullopt;
  return std::pair<unsigned, std::string_view>(static_cast<unsigned>(*n), rest.substr(slash + 1));
}

/// "IOMMU Group 17:" / "IOMMU Group 17" / "IOMMU Group 17 41:00.0 ...": the number and the rest.
std::optional<std::pair<unsigned, std::string_view>> group_header(std::string_view t) {
  constexpr std::string_view k = "IOMMU Group ";
  if (!t.starts_with(k)) return std::nullopt;
  std::string_view rest = t.substr(k.size());
  std::size_t end = 0;
  while (end < rest.size() && rest[end] >= '0' && rest[end] <= '9') ++end;
  if (end == 0 || end > 7) return std::nullopt;
  std::optional<std::uint64_t> n = text::parse_uint(rest.substr(0, end));
  if (!n) return std::nullopt;
  rest = rest.substr(end);
  if (rest.starts_with(':')) rest.remove_prefix(1);
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t') return std::nullopt;
  return std::pair<unsigned, std::string_view>(static_cast<unsigned>(*n), text::trim(rest));
}

/// The PCI address an lspci line starts with ("41:00.0 Ethernet controller ...").
std::optional<std::string> leading_bdf(std::string_view t) {
  std::vector<std::string_view> w = text::words(t);
  if (w.empty()) return std::nullopt;
  return normalise_bdf(w.front());
}

}  // namespace

bool known_iommu_group_type(std::string_view type) {
  for (std::string_view k : {"DMA", "DMA-FQ", "identity", "blocked", "unmanaged", "unknown"})
    if (type == k) return true;
  return false;
}

const IommuGroupListing* group_of(const SysfsIommuGroups& g, std::string_view bdf) {
  for (const IommuGroupListing& l : g.groups)
    if (std::find(l.devices.begin(), l.devices.end(), bdf) != l.devices.end()) return &l;
  return nullptr;
}

Result<Parsed<SysfsIommuGroups>> parse_sysfs_iommu_groups(std::string_view text) {
  Parsed<SysfsIommuGroups> out;
  std::map<unsigned, IommuGroupListing> groups;
  auto group = [&](unsigned n, std::size_t line) -> IommuGroupListing& {
    IommuGroupListing& g = groups[n];
    g.number = n;
    if (!g.line) g.line = line;
    return g;
  };
  auto add_device = [](IommuGroupListing& g, const std::string& bdf) {
    if (std::find(g.devices.begin(), g.devices.end(), bdf) == g.devices.end()) g.devices.push_back(bdf);
  };
  auto set_type = [&](IommuGroupListing& g, std::string_view type, std::size_t line) {
    g.type = std::string(type);
    g.type_line = line;
    if (!known_iommu_group_type(type))
      out.warnings.push_back({line, "unknown_type", "group " + std::to_string(g.number) + " type \"" + std::string(type) +
                                                        "\" is not one the kernel prints (DMA, DMA-FQ, identity, blocked, unmanaged)"});
  };
  std::optional<unsigned> open;  // the "IOMMU Group N:" block the indented lines belong to
  std::size_t recognised = 0, nonblank = 0;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const std::size_t line = i + 1;
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    ++nonblank;
    if (std::optional<std::pair<unsigned, std::string_view>> d = after_dir(t)) {
      open.reset();
      std::string_view rest = d->second;
      if (rest.starts_with("devices/")) {
        std::string_view name = text::trim(rest.substr(8));
        ++recognised;
        IommuGroupListing& g = group(d->first, line);
        // Platform devices (ACPI "AMDI0096:00") are members too; rocekit reads PCI functions.
        if (std::optional<std::string> bdf = normalise_bdf(name)) add_device(g, *bdf);
        continue;
      }
      if (rest.starts_with("type:")) {
        ++recognised;
        set_type(group(d->first, line), text::trim(rest.substr(5)), line);
        continue;
      }
    }
    if (std::optional<std::pair<unsigned, std::string_view>> h = group_header(t)) {
      ++recognised;
      IommuGroupListing& g = group(h->first, line);
      if (std::optional<std::string> bdf = leading_bdf(h->second)) {
        add_device(g, *bdf);  // the one-line form: "IOMMU Group 17 41:00.0 ..."
        open.reset();
      } else {
        open = h->first;
      }
      continue;
    }
    if (open && ls[i].size() > 0 && (ls[i][0] == ' ' || ls[i][0] == '\t')) {
      if (std::optional<std::string> bdf = leading_bdf(t)) {
        ++recognised;
        add_device(group(*open, line), *bdf);
        continue;
      }
    }
    if (known_iommu_group_type(t)) {
      ++recognised;
      if (out.value.untagged_types.empty()) out.value.untagged_first_line = line;
      out.value.untagged_types.emplace_back(t);
      continue;
    }
    out.warnings.push_back({line, "unrecognised_line", "not an IOMMU group line: " + std::string(t.substr(0, 100))});
  }
  if (nonblank > 0 && recognised == 0)
    return rk::unexpected(ErrorKind::malformed_input,
                          "no IOMMU group line (\"/sys/kernel/iommu_groups/<N>/devices/<address>\", "
                          "\"/sys/kernel/iommu_groups/<N>/type:<type>\" or \"IOMMU Group <N>:\")");
  for (auto& [n, g] : groups) out.value.groups.push_back(std::move(g));
  return out;
}

nlohmann::json to_json(const SysfsIommuGroups& v) {
  nlohmann::json groups = nlohmann::json::array();
  for (const IommuGroupListing& g : v.groups)
    groups.push_back({{"number", g.number}, {"type", g.type}, {"devices", g.devices}, {"line", g.line}, {"type_line", g.type_line}});
  return {{"groups", groups}, {"untagged_types", v.untagged_types}, {"untagged_first_line", v.untagged_first_line}};
}

bool looks_like_sysfs_iommu_groups(std::string_view text) {
  std::size_t seen = 0;
  for (std::string_view l : text::lines(text.substr(0, 8192))) {
    std::string_view t = text::trim(l);
    if (t.empty()) continue;
    std::optional<std::pair<unsigned, std::string_view>> d = after_dir(t);
    bool ours = (d && (d->second.starts_with("devices/") || d->second.starts_with("type:"))) || group_header(t);
    if (!ours) return false;  // the first non-blank line decides
    if (++seen == 1) return true;
  }
  return false;
}

}  // namespace rk::parse

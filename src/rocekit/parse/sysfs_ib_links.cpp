#include "rocekit/parse/sysfs_ib_links.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/lspci_vv.hpp"

namespace rk::parse {

namespace {

/// "0000:18:00.0" exactly (sysfs device directory names carry the domain).
bool is_full_bdf(std::string_view s) {
  return s.size() == 12 && s[4] == ':' && s[7] == ':' && s[10] == '.' && normalise_bdf(s).has_value();
}

}  // namespace

Result<Parsed<SysfsIbLinks>> parse_sysfs_ib_links(std::string_view text) {
  Parsed<SysfsIbLinks> out;
  std::vector<std::string_view> lines = text::lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = text::trim(lines[i]);
    // `ls -l DIR...` prints "DIR:" before each directory; `ls -la` adds "." and "..".
    if (t.empty() || t.starts_with("total ") || (t.ends_with(":") && t.find(' ') == std::string_view::npos))
      continue;
    if (t.starts_with("d") && (t.ends_with(" .") || t.ends_with(" .."))) continue;
    std::size_t arrow = t.find(" -> ");
    if (arrow == std::string_view::npos) {
      out.warnings.push_back({i + 1, "unrecognised_line", "not an `ls -l` symlink line"});
      continue;
    }
    std::vector<std::string_view> left = text::words(t.substr(0, arrow));
    std::string_view target = text::trim(t.substr(arrow + 4));
    if (left.empty() || target.empty()) {
      out.warnings.push_back({i + 1, "unrecognised_line", "symlink line without a name or target"});
      continue;
    }
    IbDeviceLink d;
    d.name = std::string(left.back());
    d.target = std::string(target);
    d.line = i + 1;
    std::vector<std::string> pci;
    for (std::string_view c : text::split(target, '/'))
      if (is_full_bdf(c)) pci.push_back(*normalise_bdf(c));
    if (!pci.empty()) {
      d.bdf = pci.back();
      pci.pop_back();
      d.bridges = std::move(pci);
    }
    out.value.devices.push_back(std::move(d));
  }
  if (out.value.devices.empty())
    return unexpected(ErrorKind::malformed_input, "no `ls -l` symlink line (name -> target) found");
  return out;
}

nlohmann::json to_json(const SysfsIbLinks& v) {
  nlohmann::json devs = nlohmann::json::array();
  for (const IbDeviceLink& d : v.devices)
    devs.push_back({{"name", d.name}, {"target", d.target}, {"bdf", d.bdf}, {"bridges", d.bridges}, {"line", d.line}});
  return {{"devices", devs}};
}

bool looks_like_sysfs_ib_links(std::string_view text) {
  std::size_t n = 0;
  for (std::string_view l : text::lines(text.substr(0, 8192))) {
    if (++n > 20) break;
    if (l.starts_with("l") && text::contains(l, " -> ") && text::contains(l, "/infiniband/")) return true;
  }
  return false;
}

}  // namespace rk::parse

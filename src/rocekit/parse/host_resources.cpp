#include "rocekit/parse/host_resources.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_meminfo = "/proc/meminfo:";
constexpr std::string_view k_node = "/sys/devices/system/node/node";
constexpr std::string_view k_huge = "/sys/kernel/mm/hugepages/hugepages-";

/// "MemTotal:       32505856 kB" -> {"MemTotal", 32505856}; "HugePages_Total:    3072" -> count.
std::optional<std::pair<std::string_view, std::uint64_t>> meminfo_line(std::string_view t) {
  std::size_t colon = t.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  std::string_view key = t.substr(0, colon);
  for (char c : key)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '(' || c == ')')) return std::nullopt;
  std::vector<std::string_view> w = text::words(t.substr(colon + 1));
  if (w.empty() || w.size() > 2 || (w.size() == 2 && w[1] != "kB")) return std::nullopt;
  std::optional<std::uint64_t> n = text::parse_uint(w[0]);
  if (!n) return std::nullopt;
  return std::make_pair(key, *n);
}

HugepageSysfs& pool(HostResources& v, std::uint64_t kib, std::size_t line) {
  for (HugepageSysfs& p : v.hugepage_pools)
    if (p.page_kib == kib) return p;
  v.hugepage_pools.push_back({kib, std::nullopt, std::nullopt, line});
  return v.hugepage_pools.back();
}

}  // namespace

std::optional<int> cpulist_count(std::string_view list) {
  list = text::trim(list);
  if (list.empty()) return 0;  // a memory-only node has an empty cpulist
  int n = 0;
  for (std::string_view part : text::split(list, ',')) {
    std::size_t dash = part.find('-');
    std::optional<std::uint64_t> a = text::parse_uint(part.substr(0, dash));
    std::optional<std::uint64_t> b = dash == std::string_view::npos ? a : text::parse_uint(part.substr(dash + 1));
    if (!a || !b || *b < *a || *b - *a > 65535) return std::nullopt;
    n += static_cast<int>(*b - *a + 1);
    if (n > 1 << 20) return std::nullopt;
  }
  return n;
}

Result<Parsed<HostResources>> parse_host_resources(std::string_view text) {
  Parsed<HostResources> out;
  HostResources& v = out.value;
  bool any = false;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view t = text::trim(ls[i]);
    if (t.empty()) continue;
    if (std::optional<PromptCommand> p = parse_prompt_line(t); p && p->tool == "host_resources") continue;
    // A capture of another root (rocekit-capture's sysroot mode) prints "<root>/proc/meminfo:...":
    // the path is what follows the root.
    for (std::string_view marker : {k_meminfo, k_node, k_huge}) {
      std::size_t at = t.find(marker);
      if (at != std::string_view::npos && at > 0 && t.substr(0, at).find_first_of(" \t:") == std::string_view::npos) {
        t.remove_prefix(at);
        break;
      }
    }
    auto bad = [&](std::string why) { out.warnings.push_back({i + 1, "bad_value", why + ": " + std::string(t.substr(0, 100))}); };
    if (t.starts_with(k_node)) {
      std::string_view rest = t.substr(k_node.size());  // "0/cpulist:0-15"
      std::size_t slash = rest.find('/');
      std::optional<std::uint64_t> node = text::parse_uint(rest.substr(0, slash));
      if (!node || *node > 4095 || slash == std::string_view::npos || !rest.substr(slash).starts_with("/cpulist:")) {
        bad("not a node cpulist line");
        continue;
      }
      std::optional<int> n = cpulist_count(rest.substr(slash + 9));
      if (!n) {
        bad("not a CPU list");
        continue;
      }
      v.node_cpus[static_cast<int>(*node)] = *n;
      if (!v.cpulist_line) v.cpulist_line = i + 1;
      any = true;
      continue;
    }
    if (t.starts_with(k_huge)) {
      std::string_view rest = t.substr(k_huge.size());  // "2048kB/nr_hugepages:3072"
      std::size_t kb = rest.find("kB/");
      std::size_t colon = rest.find(':');
      std::optional<std::uint64_t> size = kb == std::string_view::npos ? std::nullopt : text::parse_uint(rest.substr(0, kb));
      if (!size || *size == 0 || colon == std::string_view::npos || colon < kb) {
        bad("not a hugepage pool line");
        continue;
      }
      std::string_view file = rest.substr(kb + 3, colon - kb - 3);
      std::optional<std::uint64_t> value = text::parse_uint(text::trim(rest.substr(colon + 1)));
      if (!value) {
        bad("not a page count");
        continue;
      }
      if (file == "nr_hugepages") pool(v, *size, i + 1).total = *value;
      else if (file == "free_hugepages") pool(v, *size, i + 1).free = *value;
      else continue;  // resv_hugepages, surplus_hugepages, nr_overcommit_hugepages: not used
      any = true;
      continue;
    }
    std::string_view m = t.starts_with(k_meminfo) ? t.substr(k_meminfo.size()) : t;
    std::optional<std::pair<std::string_view, std::uint64_t>> kv = meminfo_line(m);
    if (!kv) {
      out.warnings.push_back({i + 1, "unrecognised_line", "unrecognised line: " + std::string(t.substr(0, 80))});
      continue;
    }
    any = true;
    auto [key, n] = *kv;
    if (key == "MemTotal") {
      v.mem_total_kib = n;
      v.meminfo_line = i + 1;
    } else if (key == "MemAvailable") {
      v.mem_available_kib = n;
    } else if (key == "HugePages_Total") {
      v.hugepages_total = n;
    } else if (key == "HugePages_Free") {
      v.hugepages_free = n;
    } else if (key == "Hugepagesize") {
      v.hugepage_kib = n;
    }
  }
  if (!any)
    return rk::unexpected(ErrorKind::malformed_input,
                          "no /proc/meminfo, node cpulist or hugepage line (grep -H . /proc/meminfo "
                          "/sys/devices/system/node/node*/cpulist /sys/kernel/mm/hugepages/hugepages-*/*_hugepages)");
  std::sort(v.hugepage_pools.begin(), v.hugepage_pools.end(),
            [](const HugepageSysfs& a, const HugepageSysfs& b) { return a.page_kib < b.page_kib; });
  return out;
}

nlohmann::json to_json(const HostResources& v) {
  nlohmann::json pools = nlohmann::json::array();
  for (const HugepageSysfs& p : v.hugepage_pools)
    pools.push_back({{"page_kib", p.page_kib}, {"total", p.total}, {"free", p.free}, {"line", p.line}});
  nlohmann::json nodes = nlohmann::json::object();
  for (auto [node, n] : v.node_cpus) nodes[std::to_string(node)] = n;
  return {{"mem_total_kib", v.mem_total_kib},     {"mem_available_kib", v.mem_available_kib},
          {"hugepages_total", v.hugepages_total}, {"hugepages_free", v.hugepages_free},
          {"hugepage_kib", v.hugepage_kib},       {"meminfo_line", v.meminfo_line},
          {"hugepage_pools", pools},              {"node_cpus", nodes},
          {"cpulist_line", v.cpulist_line}};
}

bool looks_like_host_resources(std::string_view text) {
  // The first lines of /proc/meminfo (MemTotal, MemFree, MemAvailable) or of the grep form.
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::string_view t = text::trim(l);
    if (t.empty()) continue;
    if (std::optional<PromptCommand> p = parse_prompt_line(t)) return p->tool == "host_resources";
    if (t.starts_with(k_meminfo)) t.remove_prefix(k_meminfo.size());
    return t.starts_with("MemTotal:") || t.starts_with(k_node) || t.starts_with(k_huge);
  }
  return false;
}

}  // namespace rk::parse

// BlueField DPUs (issue 22, "costs live"): whether the DOCA services on a BlueField's Arm side fit
// its cores, memory and hugepages, next to what `rocekit select` assumed from the catalog. The
// services run as kubelet static pods (/etc/kubelet.d, NVIDIA DOCA "Container Deployment"); the
// kubelet admits a pod only when its requests fit the node's allocatable CPU, memory and
// hugepages of each size (Kubernetes "Manage HugePages": a node reports the pre-allocated pages
// of each size as hugepages-<size>; requests must equal limits). OVS-DOCA takes its hugepages
// through doca-hugepages (Mellanox/mlnx-tools tsbin/doca-hugepages, mlnx_bf_configure: 512 x
// 2 MiB by default on BlueField-2/3), outside the kubelet's accounting.
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/model/bluefield.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {

namespace {

constexpr double k_gib = 1024.0 * 1024 * 1024;

std::string gib(double bytes) {
  std::string s = fmt::format("{:.1f}", bytes / k_gib);
  if (s.ends_with(".0")) s.resize(s.size() - 2);
  return s + " GiB";
}

std::string cores(std::uint64_t millicores) {
  if (millicores % 1000 == 0) return std::to_string(millicores / 1000);
  return fmt::format("{:.1f}", static_cast<double>(millicores) / 1000);
}

/// "hugepages-2Mi" -> 2048 (KiB); 0 when the name is not a hugepage resource.
std::uint64_t page_kib_of(const std::string& resource) {
  std::string size = resource.substr(std::string("hugepages-").size());
  std::uint64_t mult = size.ends_with("Ki") ? 1 : size.ends_with("Mi") ? 1024 : size.ends_with("Gi") ? 1024 * 1024 : 0;
  if (mult == 0 || size.size() < 3) return 0;
  std::uint64_t n = 0;
  for (char c : size.substr(0, size.size() - 2)) {
    if (c < '0' || c > '9' || n > 1'000'000) return 0;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return n * mult;
}

std::string page_text(std::uint64_t kib) {
  return kib % (1024 * 1024) == 0 ? std::to_string(kib / 1024 / 1024) + " GiB"
         : kib % 1024 == 0        ? std::to_string(kib / 1024) + " MiB"
                                  : std::to_string(kib) + " KiB";
}

/// What `rocekit select` assumed for this card: the catalog model its part number, PSID or PCI
/// device ID names, "BlueField-3 DPU: 16 Arm cores, 32 GB DRAM"; "" when none is known.
std::string catalog_assumption(const Snapshot& s) {
  const catalog::Catalog& c = catalog::Catalog::builtin();
  // Judged on the Arm side only, where the NVIDIA functions are the BlueField's own.
  for (const PciFunction& p : s.pci_functions) {
    if ((p.vendor_id && *p.vendor_id != 0x15b3) || p.is_vf.value_or(false)) continue;
    const catalog::NicModel* m = nullptr;
    std::vector<std::optional<std::string>> parts{p.vpd_part_number};
    if (p.firmware.has_value()) parts.push_back(p.firmware->part_number);
    if (p.nv_config.has_value()) parts.push_back(p.nv_config->part_number);
    for (const std::optional<std::string>& pn : parts)
      if (!m && pn)
        if (Result<catalog::PartMatch> r = c.find_by_part_number(*pn); r && r->model) m = r->model;
    if (!m && p.firmware.has_value() && p.firmware->psid)
      if (Result<catalog::PartMatch> r = c.find_by_psid(*p.firmware->psid); r && r->model) m = r->model;
    std::vector<const catalog::NicModel*> candidates;
    if (!m && p.device_id)
      if (std::optional<catalog::DeviceMatch> d = c.find_by_pci_device_id(*p.device_id)) candidates = d->candidates;
    if (!m && candidates.size() == 1) m = candidates.front();
    // One device ID for several models (0xa2dc: BlueField-3 DPU and SuperNIC): the card's own
    // description names which ("... B3140H E-series HHHL SuperNIC; ... 8 Arm cores").
    if (!m && candidates.size() > 1) {
      std::string texts = p.device_name.value_or("") + " " + p.vpd_product_name.value_or("");
      if (p.firmware.has_value()) texts += " " + p.firmware->description.value_or("");
      if (p.nv_config.has_value()) texts += " " + p.nv_config->description.value_or("");
      std::vector<const catalog::NicModel*> named;
      for (const catalog::NicModel* k : candidates) {
        std::string_view last = std::string_view(k->name).substr(k->name.rfind(' ') + 1);  // "DPU", "SuperNIC"
        if (texts.find(last) != std::string::npos) named.push_back(k);
      }
      if (named.size() == 1) m = named.front();
      else {
        std::string list;
        for (const catalog::NicModel* k : candidates)
          if (k->arm_cores)
            list += (list.empty() ? "" : " or ") +
                    fmt::format("{} ({} Arm cores{})", k->name, *k->arm_cores,
                                k->dram_gb ? fmt::format(", {:g} GB DRAM", *k->dram_gb) : "");
        if (!list.empty())
          return fmt::format("`rocekit select`'s catalog: {}; PCI device ID {:#06x} is each of them (the part "
                             "number or the card's description tells)", list, *p.device_id);
      }
    }
    if (!m || !m->arm_cores) continue;
    return fmt::format("`rocekit select` assumed {}: {} Arm cores{}", m->name, *m->arm_cores,
                       m->dram_gb ? fmt::format(", {:g} GB DRAM", *m->dram_gb) : "");
  }
  return "";
}

/// What one pod asks: per resource the larger of its biggest init container and the sum of its
/// other containers (Kubernetes "Resource sharing within containers": init containers run one at
/// a time, before the others). Requests, else limits.
struct PodAsk {
  std::string name;  ///< "doca-hbn" (file)
  std::uint64_t cpu_milli = 0, memory = 0;
  std::map<std::string, std::uint64_t> hugepages;  ///< "hugepages-2Mi" -> bytes
};

std::vector<PodAsk> pod_asks(const std::vector<PodContainer>& containers) {
  std::map<std::pair<std::string, std::string>, std::pair<PodAsk, PodAsk>> by_pod;  // (file, pod) -> (regular sum, init max)
  std::vector<std::pair<std::string, std::string>> order;
  for (const PodContainer& c : containers) {
    auto key = std::make_pair(c.file, c.pod);
    if (!by_pod.count(key)) order.push_back(key);
    auto& [sum, init] = by_pod[key];
    std::uint64_t cpu = c.cpu_request_millicores.value_or(c.cpu_limit_millicores.value_or(0));
    std::uint64_t mem = c.memory_request_bytes.value_or(c.memory_limit_bytes.value_or(0));
    if (c.init) {
      init.cpu_milli = std::max(init.cpu_milli, cpu);
      init.memory = std::max(init.memory, mem);
      for (const auto& [k, b] : c.hugepages_bytes) init.hugepages[k] = std::max(init.hugepages[k], b);
    } else {
      sum.cpu_milli += cpu;
      sum.memory += mem;
      for (const auto& [k, b] : c.hugepages_bytes) sum.hugepages[k] += b;
    }
  }
  std::vector<PodAsk> out;
  for (const auto& key : order) {
    auto& [sum, init] = by_pod[key];
    PodAsk a = sum;
    a.name = key.second.empty() ? key.first : key.second;
    a.cpu_milli = std::max(sum.cpu_milli, init.cpu_milli);
    a.memory = std::max(sum.memory, init.memory);
    for (const auto& [k, b] : init.hugepages) a.hugepages[k] = std::max(a.hugepages[k], b);
    out.push_back(std::move(a));
  }
  return out;
}

/// Whether a doca-hugepages application is one of the pods (its reservation is then the pod's,
/// not another consumer's): the names share a word ("snap" and "doca_snap").
bool reservation_of_a_pod(const std::string& app, const std::vector<PodAsk>& pods) {
  auto words = [](std::string t) {
    for (char& c : t) c = std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : ' ';
    std::vector<std::string> w;
    std::string cur;
    for (char c : t + " ")
      if (c == ' ') { if (cur.size() > 2 && cur != "doca") w.push_back(cur); cur.clear(); }
      else cur += c;
    return w;
  };
  for (const PodAsk& p : pods)
    for (const std::string& a : words(app))
      for (const std::string& b : words(p.name))
        if (a == b) return true;
  return false;
}

void eval_dpu_service_resources(const Snapshot& s, const Policy&, Emitter& e) {
  std::optional<std::string> arm = bluefield_arm_side(s);
  if (!arm) {
    e.not_applicable("host", "not the Arm side of a BlueField: the DOCA services run there (run rocekit-capture "
                             "or rocekit check on the DPU's Arm OS)");
    return;
  }
  if (!s.static_pods.has_value()) {
    e.missing("host", "the DOCA services' static pods (/etc/kubelet.d/*.yaml)", s.static_pods);
    return;
  }
  if (!s.memory.has_value()) {
    e.missing("host", "the Arm side's memory and hugepages (/proc/meminfo, /sys/kernel/mm/hugepages)", s.memory);
    return;
  }
  const MemoryState& mem = *s.memory;
  if (!mem.total_kib) {
    e.unknown("host", "the Arm side's MemTotal is not in the /proc/meminfo reading (" + s.memory.source.file + ")");
    return;
  }
  if (!s.numa_cpu_count.has_value()) {
    e.missing("host", "the Arm side's CPUs (/sys/devices/system/node/node*/cpulist)", s.numa_cpu_count);
    return;
  }
  // Asks not fully known: a manifest that was not read, a value that is not a quantity.
  std::vector<std::string> unknown = s.static_pods.notes;
  for (const PodContainer& c : *s.static_pods)
    for (const std::string& u : c.unreadable) unknown.push_back(c.pod + "/" + c.container + ": " + u + " is not a quantity");
  if (!unknown.empty()) {
    std::string list;
    for (const std::string& u : unknown) list += (list.empty() ? "" : "; ") + u;
    Finding& f = e.unknown("host", "the DOCA services' asks are not all known: " + list);
    for (const PodContainer& c : *s.static_pods)
      if (!c.unreadable.empty()) add_evidence(f, c.source);
    return;
  }
  int cpus = 0;
  for (auto [node, n] : *s.numa_cpu_count) cpus += n;
  const std::vector<PodAsk> pods = pod_asks(*s.static_pods);
  std::uint64_t cpu_milli = 0, mem_bytes = 0;
  std::map<std::uint64_t, std::uint64_t> huge_ask;  // page KiB -> bytes
  std::map<std::uint64_t, std::string> huge_who;
  std::vector<std::string> asks;
  for (const PodAsk& p : pods) {
    std::string a = p.name + ":";
    if (p.cpu_milli) a += " cpu " + cores(p.cpu_milli);
    if (p.memory) a += " memory " + gib(static_cast<double>(p.memory));
    cpu_milli += p.cpu_milli;
    mem_bytes += p.memory;
    for (const auto& [res, bytes] : p.hugepages) {
      std::uint64_t kib = page_kib_of(res);
      if (!kib) continue;
      huge_ask[kib] += bytes;
      huge_who[kib] += (huge_who[kib].empty() ? "" : ", ") + p.name + " " + gib(static_cast<double>(bytes));
      a += " " + res + " " + gib(static_cast<double>(bytes));
    }
    if (a.back() == ':') a += " no resources asked";
    asks.push_back(a);
  }
  std::uint64_t huge_reserved_bytes = 0;
  std::map<std::uint64_t, const HugepagePool*> pool_of;
  for (const HugepagePool& p : mem.hugepages) {
    pool_of[p.page_kib] = &p;
    if (p.total) huge_reserved_bytes += *p.total * p.page_kib * 1024;
  }
  std::string pools;
  for (const HugepagePool& p : mem.hugepages)
    if (p.total && *p.total)
      pools += (pools.empty() ? "" : ", ") + fmt::format("{} x {} ({}{})", *p.total, page_text(p.page_kib),
                                                         gib(static_cast<double>(*p.total * p.page_kib * 1024)),
                                                         p.free ? fmt::format(", {} free", *p.free) : "");
  // doca-hugepages' active reservations of applications that are not one of the pods (OVS-DOCA):
  // their pages come out of the same pools, outside the kubelet's accounting.
  std::string doca;
  std::map<std::uint64_t, std::uint64_t> others;  // page KiB -> bytes
  std::map<std::uint64_t, std::string> others_who;
  if (s.doca_hugepages.has_value())
    for (const HugepageReservation& r : *s.doca_hugepages) {
      doca += (doca.empty() ? "" : ", ") + fmt::format("{} {} x {} ({})", r.app, r.pages, page_text(r.page_kib), r.state);
      if (r.state == "active" && !reservation_of_a_pod(r.app, pods)) {
        others[r.page_kib] += r.pages * r.page_kib * 1024;
        others_who[r.page_kib] += (others_who[r.page_kib].empty() ? "" : ", ") + r.app + " " +
                                  gib(static_cast<double>(r.pages * r.page_kib * 1024));
      }
    }
  std::string have = fmt::format("{} Arm cores online, MemTotal {}, hugepages {}", cpus,
                                 gib(static_cast<double>(*mem.total_kib) * 1024), pools.empty() ? "none reserved" : pools);
  if (!doca.empty()) have += "; doca-hugepages: " + doca;
  // Without doca-hugepages' reservations the pages OVS-DOCA holds in the same pools are not counted.
  if (!s.doca_hugepages.has_value())
    have += "; doca-hugepages reservations not read (" +
            (s.doca_hugepages.reason.empty() ? std::string("not in the input") : s.doca_hugepages.reason) +
            "): hugepages other applications hold are not counted";
  std::string asked;
  for (const std::string& a : asks) asked += (asked.empty() ? "" : "; ") + a;
  std::string assumed = catalog_assumption(s);
  std::string context = have + ". DOCA services ask: " + (asked.empty() ? "none (no container)" : asked) +
                        (assumed.empty() ? "" : ". " + assumed);

  std::vector<std::string> problems;
  std::vector<const PodContainer*> refused;
  for (const PodContainer& c : *s.static_pods)
    for (const std::string& i : c.invalid) {
      problems.push_back(c.pod + "/" + c.container + " is refused by the Kubernetes validation the kubelet applies: " + i);
      refused.push_back(&c);
    }
  for (const auto& [kib, bytes] : huge_ask) {
    auto it = pool_of.find(kib);
    std::uint64_t total = it != pool_of.end() && it->second->total ? *it->second->total * kib * 1024 : 0;
    if (bytes > total)
      problems.push_back(fmt::format("the pods ask {} of {} hugepages ({}) but the Arm reserves {}: the kubelet does "
                                     "not admit a pod whose hugepages do not fit",
                                     gib(static_cast<double>(bytes)), page_text(kib), huge_who[kib],
                                     gib(static_cast<double>(total))));
    else if (bytes + others[kib] > total)
      problems.push_back(fmt::format("the pods ask {} of {} hugepages ({}) and doca-hugepages reserves {} of the same "
                                     "pool for {}: together {} of the {} reserved; the kubelet may admit the pod, "
                                     "whose hugepage allocations then fail",
                                     gib(static_cast<double>(bytes)), page_text(kib), huge_who[kib],
                                     gib(static_cast<double>(others[kib])), others_who[kib],
                                     gib(static_cast<double>(bytes + others[kib])), gib(static_cast<double>(total))));
  }
  if (cpu_milli > static_cast<std::uint64_t>(cpus) * 1000)
    problems.push_back(fmt::format("the pods ask {} CPUs of {} Arm cores", cores(cpu_milli), cpus));
  if (mem_bytes + huge_reserved_bytes > *mem.total_kib * 1024)
    problems.push_back(fmt::format("the pods' memory ({}) and the hugepages reserved ({}) exceed MemTotal {}",
                                   gib(static_cast<double>(mem_bytes)), gib(static_cast<double>(huge_reserved_bytes)),
                                   gib(static_cast<double>(*mem.total_kib) * 1024)));
  if (problems.empty()) {
    Finding& f = e.pass("host", "Arm side of a BlueField: the DOCA services fit: " + context);
    add_evidence(f, s.memory.source);
    add_evidence(f, s.static_pods.source);
    return;
  }
  std::string why;
  for (const std::string& p : problems) why += (why.empty() ? "" : "; ") + p;
  Finding& f = e.fail("host", "Arm side of a BlueField: " + why + ". " + context);
  add_evidence(f, s.memory.source);
  for (const PodContainer& c : *s.static_pods) add_evidence(f, c.source);
  f.remediation.notes =
      "Reserve the hugepages the services ask on the Arm side (`doca-hugepages config --app <service> --size 2048 "
      "--num <pages>`, then `doca-hugepages reload`; when the kernel command line sets hugepages=, doca-hugepages "
      "refuses and the command line is the place; with DPF, the DPUFlavor's hugepages), or "
      "lower the pods' requests in /etc/kubelet.d/<service>.yaml (a request above its limit, or a hugepage "
      "request that is not its limit, is refused by the kubelet); the kubelet restarts a static pod when its file "
      "changes. Check `crictl pods` afterwards.";
}

}  // namespace

void add_dpu_resource_rules(std::vector<RuleInfo>& out) {
  out.push_back(
      {"dpu.service-resources",
       "The DOCA services on a BlueField's Arm side fit its cores, memory and hugepages",
       Severity::error, "host",
       "A BlueField's Arm OS runs its DOCA services (HBN, SNAP, telemetry) as kubelet static pods. The kubelet "
       "does not start a pod whose CPU, memory or hugepage requests exceed what the Arm side has: the service "
       "(and the host's network or storage behind it) stays down. `rocekit select` counts the Arm cores and "
       "DRAM from the catalog; this is what the card really has and what the services take.",
       "Seed §4: DOCA services consume the DPU's Arm cores and memory. Kubernetes \"Manage HugePages\"; "
       "NVIDIA BlueField-3 SNAP \"SNAP Memory Consumption\" (doca_snap.yaml asks hugepages-2Mi 4Gi); "
       "Mellanox/mlnx-tools doca-hugepages.",
       eval_dpu_service_resources, k_any_outcome,
       "the Arm side's devlink ports or kernel (a BlueField Arm OS); /etc/kubelet.d/*.yaml (kubelet_pod); "
       "/proc/meminfo and /sys/kernel/mm/hugepages (host_resources); doca-hugepages show"});
}

}  // namespace rk::rules

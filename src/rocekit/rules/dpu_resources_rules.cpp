// BlueField DPUs (issue 22, "costs live"): whether the DOCA services on a BlueField's Arm side fit
// its cores, memory and hugepages, next to what `rocekit select` assumed from the catalog. The
// services run as kubelet static pods (/etc/kubelet.d, NVIDIA DOCA "Container Deployment"); the
// kubelet admits a pod only when its requests fit the node's allocatable CPU, memory and
// hugepages of each size (Kubernetes "Manage HugePages": a node reports the pre-allocated pages
// of each size as hugepages-<size>; requests must equal limits). OVS-DOCA takes its hugepages
// through doca-hugepages (Mellanox/mlnx-tools tsbin/doca-hugepages, mlnx_bf_configure: 512 x
// 2 MiB by default on BlueField-2/3), outside the kubelet's accounting.
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
  for (const PciFunction& p : s.pci_functions) {
    if (!is_bluefield(p)) continue;
    const catalog::NicModel* m = nullptr;
    std::vector<std::optional<std::string>> parts{p.vpd_part_number};
    if (p.firmware.has_value()) parts.push_back(p.firmware->part_number);
    if (p.nv_config.has_value()) parts.push_back(p.nv_config->part_number);
    for (const std::optional<std::string>& pn : parts)
      if (!m && pn)
        if (Result<catalog::PartMatch> r = c.find_by_part_number(*pn); r && r->model) m = r->model;
    if (!m && p.firmware.has_value() && p.firmware->psid)
      if (Result<catalog::PartMatch> r = c.find_by_psid(*p.firmware->psid); r && r->model) m = r->model;
    if (!m && p.device_id)
      if (std::optional<catalog::DeviceMatch> d = c.find_by_pci_device_id(*p.device_id)) m = d->unique();
    if (!m || !m->arm_cores) continue;
    return fmt::format("`rocekit select` assumed {}: {} Arm cores{}", m->name, *m->arm_cores,
                       m->dram_gb ? fmt::format(", {:g} GB DRAM", *m->dram_gb) : "");
  }
  return "";
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
  std::optional<int> cpus;
  if (s.numa_cpu_count.has_value()) {
    cpus = 0;
    for (auto [node, n] : *s.numa_cpu_count) *cpus += n;
  }
  // What the pods ask: the request, else the limit (Kubernetes defaults one to the other).
  std::uint64_t cpu_milli = 0, mem_bytes = 0;
  std::map<std::uint64_t, std::uint64_t> huge_ask;  // page KiB -> bytes
  std::map<std::uint64_t, std::string> huge_who;
  std::vector<std::string> asks;
  for (const PodContainer& c : *s.static_pods) {
    std::optional<std::uint64_t> cpu = c.cpu_request_millicores ? c.cpu_request_millicores : c.cpu_limit_millicores;
    std::optional<std::uint64_t> m = c.memory_request_bytes ? c.memory_request_bytes : c.memory_limit_bytes;
    std::string a = c.pod + "/" + c.container + ":";
    if (cpu) a += " cpu " + cores(*cpu), cpu_milli += *cpu;
    if (m) a += " memory " + gib(static_cast<double>(*m)), mem_bytes += *m;
    for (const auto& [res, bytes] : c.hugepages_bytes) {
      std::uint64_t kib = page_kib_of(res);
      if (!kib) continue;
      huge_ask[kib] += bytes;
      huge_who[kib] += (huge_who[kib].empty() ? "" : ", ") + c.pod + "/" + c.container + " " + gib(static_cast<double>(bytes));
      a += " " + res + " " + gib(static_cast<double>(bytes));
    }
    if (!cpu && !m && c.hugepages_bytes.empty()) a += " no resources asked";
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
  std::string doca;
  if (s.doca_hugepages.has_value())
    for (const HugepageReservation& r : *s.doca_hugepages)
      doca += (doca.empty() ? "" : ", ") + fmt::format("{} {} x {} ({})", r.app, r.pages, page_text(r.page_kib), r.state);
  std::string have = fmt::format("{} Arm cores online, MemTotal {}, hugepages {}", cpus ? std::to_string(*cpus) : "?",
                                 mem.total_kib ? gib(static_cast<double>(*mem.total_kib) * 1024) : "?",
                                 pools.empty() ? "none reserved" : pools);
  if (!doca.empty()) have += "; doca-hugepages: " + doca;
  std::string asked;
  for (const std::string& a : asks) asked += (asked.empty() ? "" : "; ") + a;
  std::string assumed = catalog_assumption(s);
  std::string context = have + ". DOCA services ask: " + (asked.empty() ? "none (no container)" : asked) +
                        (assumed.empty() ? "" : ". " + assumed);

  std::vector<std::string> problems;
  for (const auto& [kib, bytes] : huge_ask) {
    auto it = pool_of.find(kib);
    std::uint64_t total = it != pool_of.end() && it->second->total ? *it->second->total * kib * 1024 : 0;
    if (bytes > total)
      problems.push_back(fmt::format("the pods ask {} of {} hugepages ({}) but the Arm reserves {}: the kubelet does "
                                     "not admit a pod whose hugepages do not fit",
                                     gib(static_cast<double>(bytes)), page_text(kib), huge_who[kib],
                                     gib(static_cast<double>(total))));
  }
  if (cpus && cpu_milli > static_cast<std::uint64_t>(*cpus) * 1000)
    problems.push_back(fmt::format("the pods ask {} CPUs of {} Arm cores", cores(cpu_milli), *cpus));
  if (mem.total_kib && mem_bytes + huge_reserved_bytes > *mem.total_kib * 1024)
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
      "lower the pods' requests in /etc/kubelet.d/<service>.yaml; the kubelet restarts a static pod when its file "
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

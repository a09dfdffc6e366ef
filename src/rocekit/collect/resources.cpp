#include "rocekit/collect/resources.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/collect/sysfs_util.hpp"
#include "rocekit/parse/host_resources.hpp"
#include "rocekit/parse/kubelet_pod.hpp"

namespace rk::collect {
namespace {

constexpr const char* k_huge_dir = "/sys/kernel/mm/hugepages";
constexpr const char* k_kubelet_dir = "/etc/kubelet.d";
// Mellanox/mlnx-tools tsbin/doca-hugepages CONFIG_DIR: one "<app>.json" per application,
// {"<page KiB>": {"num": N, "is_active": "active"|"inactive"}} (add_app_config, save_config).
constexpr const char* k_doca_huge_dir = "/etc/mellanox/hugepages.d";

void read_memory(const HostView& host, Snapshot& s) {
  Result<std::string> mi = host.read_text("/proc/meminfo");
  if (!mi) {
    set_failed(s.memory, mi.error());
    return;
  }
  // The grep -H form of a capture: one parser for both.
  std::string text;
  for (std::string_view l : text::lines(*mi)) text += "/proc/meminfo:" + std::string(l) + "\n";
  if (Result<std::vector<std::string>> sizes = host.list_dir(k_huge_dir))
    for (const std::string& d : *sizes)
      for (const char* f : {"nr_hugepages", "free_hugepages"}) {
        std::string path = std::string(k_huge_dir) + "/" + d + "/" + f;
        if (Result<std::string> v = host.read_text(path)) text += path + ":" + std::string(text::trim(*v)) + "\n";
      }
  Result<parse::Parsed<parse::HostResources>> p = parse::parse_host_resources(text);
  if (!p || !p->value.mem_total_kib) {
    s.memory.set_missing("/proc/meminfo has no MemTotal line", ReasonKind::unreadable);
    return;
  }
  MemoryState m;
  m.total_kib = p->value.mem_total_kib;
  m.available_kib = p->value.mem_available_kib;
  for (const parse::HugepageSysfs& h : p->value.hugepage_pools)
    m.hugepages.push_back({h.page_kib, h.total, h.free,
                           ev(std::string(k_huge_dir) + "/hugepages-" + std::to_string(h.page_kib) + "kB",
                              std::to_string(h.total.value_or(0)) + " pages")});
  Evidence src = ev("/proc/meminfo", "MemTotal: " + std::to_string(*m.total_kib) + " kB");
  set_value(s.memory, std::move(m), src);
}

void read_static_pods(const HostView& host, Snapshot& s) {
  Result<std::vector<std::string>> files = host.list_dir(k_kubelet_dir);
  if (!files) {
    if (files.error().kind == ErrorKind::not_found)
      s.static_pods.set_missing("no /etc/kubelet.d: no kubelet static pods on this machine (a BlueField Arm OS "
                                "runs its DOCA services from there)",
                                ReasonKind::not_applicable);
    else
      set_failed(s.static_pods, files.error());
    return;
  }
  std::vector<PodContainer> pods;
  std::vector<std::string> notes;
  for (const std::string& f : *files) {
    if (!f.ends_with(".yaml") && !f.ends_with(".yml")) continue;  // kubelet.d also holds .pending copies
    std::string path = std::string(k_kubelet_dir) + "/" + f;
    Result<std::string> t = host.read_text(path);
    if (!t) {
      notes.push_back(why(t.error()));
      continue;
    }
    Result<parse::Parsed<parse::KubeletPod>> p = parse::parse_kubelet_pod(*t);
    if (!p) {
      notes.push_back(path + ": " + p.error().message);
      continue;
    }
    for (const parse::PodContainerAsk& a : p->value.containers)
      pods.push_back({a.pod, a.container, path, a.image, a.cpu_request_millicores, a.cpu_limit_millicores,
                      a.memory_request_bytes, a.memory_limit_bytes, a.hugepages_bytes, a.init, a.unreadable, a.invalid,
                      Evidence{path, a.line, "container " + a.container}});
  }
  set_value(s.static_pods, std::move(pods), ev(k_kubelet_dir, std::to_string(files->size()) + " file(s)"));
  s.static_pods.notes = std::move(notes);
}

void read_doca_hugepages(const HostView& host, Snapshot& s) {
  Result<std::vector<std::string>> files = host.list_dir(k_doca_huge_dir);
  if (!files) {
    if (files.error().kind == ErrorKind::not_found)
      s.doca_hugepages.set_missing("no /etc/mellanox/hugepages.d: doca-hugepages keeps no reservation here",
                                   ReasonKind::not_applicable);
    else
      set_failed(s.doca_hugepages, files.error());
    return;
  }
  std::vector<HugepageReservation> rows;
  for (const std::string& f : *files) {
    if (!f.ends_with(".json")) continue;
    std::string path = std::string(k_doca_huge_dir) + "/" + f;
    Result<std::string> t = host.read_text(path);
    if (!t) continue;
    nlohmann::json j = nlohmann::json::parse(*t, nullptr, false);
    if (!j.is_object()) {
      s.doca_hugepages.notes.push_back(path + ": not a JSON object");
      continue;
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::optional<std::uint64_t> kib = text::parse_uint(it.key());
      const nlohmann::json& v = it.value();
      if (!kib || !v.is_object() || !v.contains("num") || !v["num"].is_number_unsigned()) continue;
      std::string state = v.contains("is_active") && v["is_active"].is_string() ? v["is_active"].get<std::string>()
                                                                               : "unknown";
      rows.push_back({f.substr(0, f.size() - 5), *kib, v["num"].get<std::uint64_t>(), state,
                      ev(path, it.key() + ": " + v.dump())});
    }
  }
  set_value(s.doca_hugepages, std::move(rows), ev(k_doca_huge_dir, std::to_string(files->size()) + " file(s)"));
}

}  // namespace

void read_resources(const HostView& host, Snapshot& s) {
  read_memory(host, s);
  read_static_pods(host, s);
  read_doca_hugepages(host, s);
}

}  // namespace rk::collect

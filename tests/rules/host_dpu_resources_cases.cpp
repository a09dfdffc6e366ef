// Per-outcome cases of dpu.service-resources (rules/dpu_resources_rules.cpp): hand-built Arm-side
// snapshots. The asks are those NVIDIA documents: doca_snap.yaml requests memory 4Gi with
// hugepages-2Mi 4Gi (BlueField-3 SNAP 4.5.0 "SNAP Memory Consumption"); HBN memory 6Gi (DPF
// hbn-dpuservice.yaml); OVS-DOCA's 512 x 2 MiB (mlnx_bf_configure OVS_DEFAULT_HUGEPAGE_NUM).
#include "host_cases.hpp"

namespace rk::testcases {
namespace {

constexpr std::uint64_t k_gib = 1024ull * 1024 * 1024;

/// The Arm side of a BlueField-3 (kernel 5.15.0-1035-bluefield), 16 cores, 32 GB, `pages` x 2 MiB
/// reserved, and SNAP asking `snap_huge_gib` GiB of 2 MiB pages.
Snapshot arm(std::uint64_t pages, std::uint64_t snap_huge_gib, bool pods = true, bool memory = true) {
  Snapshot s;
  s.kernel_release.value = "5.15.0-1035-bluefield";
  s.kernel_release.source = {"uname.txt", 4, "5.15.0-1035-bluefield"};
  s.numa_cpu_count.value = std::map<int, int>{{0, 16}};
  s.doca_hugepages.value = std::vector<HugepageReservation>{};  // read: no reservation
  if (memory) {
    MemoryState m;
    m.total_kib = 32'505'856;
    m.available_kib = 20'000'000;
    m.hugepages.push_back({2048, pages, pages / 2, {"host_resources.txt", 60, "nr_hugepages"}});
    s.memory.value = m;
    s.memory.source = {"host_resources.txt", 4, "/proc/meminfo:MemTotal:       32505856 kB"};
  } else {
    s.memory.set_missing("not captured (no host_resources output in the capture)", ReasonKind::not_captured,
                         "host_resources");
  }
  if (pods) {
    PodContainer snap{"snap", "snap", "/etc/kubelet.d/doca_snap.yaml", std::nullopt, 8000, 16000, 4 * k_gib,
                      std::nullopt, {{"hugepages-2Mi", snap_huge_gib * k_gib}}, false, {}, {},
                      {"kubelet_pod@doca_snap.txt", 8, "snap"}};
    PodContainer hbn{"doca-hbn", "hbn", "/etc/kubelet.d/doca_hbn.yaml", std::nullopt, std::nullopt, std::nullopt,
                     6 * k_gib, std::nullopt, {}, false, {}, {}, {"kubelet_pod@doca_hbn.txt", 9, "hbn"}};
    s.static_pods.value = std::vector<PodContainer>{snap, hbn};
  } else {
    s.static_pods.set_missing("not captured: save each /etc/kubelet.d/<name>.yaml", ReasonKind::not_captured,
                              "kubelet_pod");
  }
  return s;
}

const Cases k_cases{
    host_case("dpu.service-resources", Outcome::pass, "host",
              "Arm side of a BlueField: the DOCA services fit: 16 Arm cores online, MemTotal 31 GiB, hugepages "
              "2560 x 2 MiB (5 GiB, 1280 free). DOCA services ask: snap: cpu 8 memory 4 GiB hugepages-2Mi 4 GiB; "
              "doca-hbn: memory 6 GiB",
              [] { return arm(2560, 4); }),
    // Without doca-hugepages' reservations the message says what is not counted.
    host_case("dpu.service-resources", Outcome::pass, "host",
              "doca-hugepages reservations not read (not captured (no doca-hugepages show output in the capture)): "
              "hugepages other applications hold are not counted",
              [] {
                Snapshot s = arm(2560, 4);
                s.doca_hugepages.set_missing("not captured (no doca-hugepages show output in the capture)",
                                             ReasonKind::not_captured, "doca_hugepages");
                return s;
              }),
    // The BFB default: only OVS-DOCA's 512 x 2 MiB reserved; SNAP's 4 GiB do not fit.
    host_case("dpu.service-resources", Outcome::fail, "host",
              "Arm side of a BlueField: the pods ask 4 GiB of 2 MiB hugepages (snap 4 GiB) but the Arm reserves "
              "1 GiB: the kubelet does not admit a pod whose hugepages do not fit",
              [] { return arm(512, 4); }),
    host_case("dpu.service-resources", Outcome::fail, "host", "the pods ask 9 CPUs of 8 Arm cores",
              [] {
                Snapshot s = arm(2560, 4);
                s.numa_cpu_count.value = std::map<int, int>{{0, 8}};
                s.static_pods.value->front().cpu_request_millicores = 9000;
                return s;
              }),
    // OVS-DOCA's 512 x 2 MiB (doca-hugepages) come out of the same 2560-page pool: 4 + 1 fits,
    // 4.5 + 1 does not, though 4.5 alone would.
    host_case("dpu.service-resources", Outcome::fail, "host",
              "the pods ask 4.5 GiB of 2 MiB hugepages (snap 4.5 GiB) and doca-hugepages reserves 1 GiB of the same "
              "pool for ovs-doca (default) 1 GiB: together 5.5 GiB of the 5 GiB reserved",
              [] {
                Snapshot s = arm(2560, 4);
                s.static_pods.value->front().hugepages_bytes["hugepages-2Mi"] = 4608ull << 20;
                s.doca_hugepages.value = std::vector<HugepageReservation>{
                    {"ovs-doca (default)", 2048, 512, "active", {"doca_hugepages.txt", 6, "ovs-doca (default)"}}};
                return s;
              }),
    // An init container runs alone before the others: a pod asks the larger of its biggest init
    // container and the sum of the others. snap: max(14, init 14) = 14, hbn 6: 20 CPUs (not 34).
    host_case("dpu.service-resources", Outcome::fail, "host", "the pods ask 20 CPUs of 16 Arm cores",
              [] {
                Snapshot s = arm(2560, 4);
                s.static_pods.value->front().cpu_request_millicores = 14000;
                s.static_pods.value->at(1).cpu_request_millicores = 6000;
                PodContainer init = s.static_pods.value->front();
                init.container = "setup";
                init.init = true;
                s.static_pods.value->push_back(init);
                return s;
              }),
    host_case("dpu.service-resources", Outcome::fail, "host",
              "snap/snap is refused by the Kubernetes validation the kubelet applies: requests.hugepages-2Mi 2Gi differs "
              "from limits.hugepages-2Mi 4Gi",
              [] {
                Snapshot s = arm(2560, 4);
                s.static_pods.value->front().invalid = {
                    "requests.hugepages-2Mi 2Gi differs from limits.hugepages-2Mi 4Gi (hugepages: the request must equal "
                    "the limit)"};
                return s;
              }),
    host_case("dpu.service-resources", Outcome::unknown, "host",
              "the DOCA services' asks are not all known: snap/snap: requests.memory 6GB is not a quantity",
              [] {
                Snapshot s = arm(2560, 4);
                s.static_pods.value->front().unreadable = {"requests.memory 6GB"};
                return s;
              }),
    host_case("dpu.service-resources", Outcome::unknown, "host",
              "the DOCA services' static pods (/etc/kubelet.d/*.yaml) not collected: not captured",
              [] { return arm(512, 4, false); }),
    host_case("dpu.service-resources", Outcome::unknown, "host",
              "the Arm side's memory and hugepages (/proc/meminfo, /sys/kernel/mm/hugepages) not collected",
              [] { return arm(512, 4, true, false); }),
    host_case("dpu.service-resources", Outcome::not_applicable, "host", "not the Arm side of a BlueField",
              [] { return Snapshot{}; }),
};

}  // namespace
}  // namespace rk::testcases

// The Arm side's resources (issue 22 "costs live"): /proc/meminfo with the hugepage pools and node
// cpulists (host_resources), `doca-hugepages show` (doca_hugepages) and a kubelet static pod
// manifest (kubelet_pod). Real outputs where a tool runs here: the build VM's own grep of
// /proc/meminfo, and mlnx-tools' doca-hugepages run against a scratch configuration directory.
#include <gtest/gtest.h>

#include "golden.hpp"
#include "rocekit/parse/doca_hugepages.hpp"
#include "rocekit/parse/host_resources.hpp"
#include "rocekit/parse/kubelet_pod.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {
namespace {

constexpr std::uint64_t k_gib = 1024ull * 1024 * 1024;

TEST(HostResources, RealGrepOfTheBuildVm) {
  std::string body = test::corpus_body("host_resources/rocekit-vm-debian12-grep-meminfo-cpulist-hugepages.txt");
  ASSERT_TRUE(looks_like_host_resources(body));
  auto r = parse_host_resources(body);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->value.mem_total_kib, 24731400u);
  EXPECT_EQ(r->value.meminfo_line, 1u);
  EXPECT_EQ(r->value.node_cpus, (std::map<int, int>{{0, 2}}));
  ASSERT_EQ(r->value.hugepage_pools.size(), 2u);  // 2 MiB and 1 GiB, sorted by size
  EXPECT_EQ(r->value.hugepage_pools[0].page_kib, 2048u);
  EXPECT_EQ(r->value.hugepage_pools[0].total, 0u);
  EXPECT_EQ(r->value.hugepage_pools[1].page_kib, 1048576u);
  EXPECT_EQ(r->value.hugepage_kib, 2048u);
  EXPECT_TRUE(r->warnings.empty()) << r->warnings.front().message;
}

// `cat /proc/meminfo` (fs/proc/meminfo.c, mm/hugetlb.c hugetlb_report_meminfo()): the default
// page size's counts stand in for the pools.
TEST(HostResources, PlainCatOfProcMeminfo) {
  auto r = parse_host_resources(
      "$ cat /proc/meminfo\n"
      "MemTotal:       32505856 kB\n"
      "MemFree:         9120480 kB\n"
      "MemAvailable:   11003392 kB\n"
      "Active(anon):      20240 kB\n"
      "HugePages_Total:    3072\n"
      "HugePages_Free:     1024\n"
      "HugePages_Rsvd:        0\n"
      "Hugepagesize:       2048 kB\n"
      "Hugetlb:         6291456 kB\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->value.mem_total_kib, 32505856u);
  EXPECT_EQ(r->value.mem_available_kib, 11003392u);
  EXPECT_EQ(r->value.hugepages_total, 3072u);
  EXPECT_EQ(r->value.hugepages_free, 1024u);
  EXPECT_EQ(r->value.hugepage_kib, 2048u);
  EXPECT_TRUE(r->value.hugepage_pools.empty());
  EXPECT_EQ(parse_prompt_line("$ cat /proc/meminfo")->tool, "host_resources");
}

// rocekit-capture with a sysroot greps <root>/proc/meminfo: the root is not part of the path.
TEST(HostResources, PathsUnderAnotherRoot) {
  auto r = parse_host_resources(
      "/tmp/root/proc/meminfo:MemTotal:       32505856 kB\n"
      "/tmp/root/sys/devices/system/node/node0/cpulist:0-15\n"
      "/tmp/root/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages:512\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->value.mem_total_kib, 32505856u);
  EXPECT_EQ(r->value.node_cpus, (std::map<int, int>{{0, 16}}));
  ASSERT_EQ(r->value.hugepage_pools.size(), 1u);
  EXPECT_EQ(r->value.hugepage_pools[0].total, 512u);
  EXPECT_TRUE(r->warnings.empty());
}

TEST(HostResources, CpuListsAndBadLines) {
  EXPECT_EQ(cpulist_count("0-15"), 16);
  EXPECT_EQ(cpulist_count("0-3,8-11"), 8);
  EXPECT_EQ(cpulist_count(""), 0);
  EXPECT_EQ(cpulist_count("3-1"), std::nullopt);
  EXPECT_EQ(cpulist_count("0-1-2"), std::nullopt);
  auto r = parse_host_resources(
      "/sys/devices/system/node/node0/cpulist:0-7\n"
      "/sys/devices/system/node/node1/cpulist:x-y\n"
      "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages:many\n"
      "something else\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value.node_cpus, (std::map<int, int>{{0, 8}}));
  ASSERT_EQ(r->warnings.size(), 3u);
  EXPECT_EQ(r->warnings[0].line, 2u);
  EXPECT_EQ(r->warnings[2].code, "unrecognised_line");
  auto e = parse_host_resources("hello\nworld\n");
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("no /proc/meminfo"), std::string::npos);
}

TEST(DocaHugepages, RealShowWithAnApplicationNameWithSpaces) {
  std::string body = test::corpus_body("doca_hugepages/mlnx-tools-doca-hugepages-show-active-ovs-doca-snap.txt");
  ASSERT_TRUE(looks_like_doca_hugepages(body));
  auto r = parse_doca_hugepages(body);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->value.rows.size(), 2u);
  EXPECT_EQ(r->value.rows[0].app, "snap");
  EXPECT_EQ(r->value.rows[0].pages, 2048u);
  EXPECT_EQ(r->value.rows[1].app, "ovs-doca (default)");
  EXPECT_EQ(r->value.rows[1].page_kib, 2048u);
  EXPECT_EQ(r->value.rows[1].pages, 512u);
  EXPECT_EQ(r->value.rows[1].state, "active");
  EXPECT_EQ(r->value.rows[1].line, 6u);
  EXPECT_TRUE(r->warnings.empty());
}

// `{app:<20}{page_kib:<20}`: a name of 20 characters or more runs into the page size.
TEST(DocaHugepages, LongApplicationNameRunsIntoThePageSize) {
  auto r = parse_doca_hugepages(
      "Application         Page Size (kB)      Number of Pages     Allocated (GB)      Is Active           \n"
      "====================================================================================================\n"
      "doca_snap_virtio_blk2048                1024                2.00                active              \n"
      "doca-telemetry-service1048576             1                   1.00                inactive            \n"
      "====================================================================================================\n");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->value.rows.size(), 2u);
  EXPECT_EQ(r->value.rows[0].app, "doca_snap_virtio_blk");
  EXPECT_EQ(r->value.rows[0].page_kib, 2048u);
  EXPECT_EQ(r->value.rows[0].pages, 1024u);
  EXPECT_EQ(r->value.rows[1].app, "doca-telemetry-service");
  EXPECT_EQ(r->value.rows[1].page_kib, 1048576u);
  EXPECT_TRUE(r->warnings.empty());
}

TEST(DocaHugepages, NoneConfiguredAndBrokenTables) {
  auto none = parse_doca_hugepages(test::corpus_body("doca_hugepages/mlnx-tools-doca-hugepages-show-none.txt"));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->value.rows.empty());
  std::string body = test::corpus_body("doca_hugepages/mlnx-tools-doca-hugepages-show-inactive-ovs-doca-snap.txt");
  auto cut = parse_doca_hugepages(body.substr(0, body.find("ovs-doca")));  // cut inside the table
  ASSERT_TRUE(cut);
  ASSERT_EQ(cut->value.rows.size(), 1u);
  EXPECT_EQ(cut->value.rows[0].state, "inactive");
  ASSERT_FALSE(cut->warnings.empty());
  EXPECT_EQ(cut->warnings.back().code, "truncated");
  EXPECT_FALSE(parse_doca_hugepages("ovs-doca 2048 512\n"));
  EXPECT_EQ(parse_prompt_line("root@bf3:~# doca-hugepages show")->tool, "doca_hugepages");
}

TEST(KubeletPod, Quantities) {
  EXPECT_EQ(k8s_quantity("6Gi"), 6.0 * k_gib);
  EXPECT_EQ(k8s_quantity("500m"), 0.5);
  EXPECT_EQ(k8s_quantity("2"), 2.0);
  EXPECT_EQ(k8s_quantity("1.5"), 1.5);
  EXPECT_EQ(k8s_quantity("3G"), 3e9);
  EXPECT_EQ(k8s_quantity("128974848"), 128974848.0);
  EXPECT_EQ(k8s_quantity("129e6"), 129e6);
  EXPECT_EQ(k8s_quantity("Gi"), std::nullopt);
  EXPECT_EQ(k8s_quantity("6GB"), std::nullopt);  // not a Kubernetes suffix
}

// A static pod with the asks NVIDIA documents for SNAP (BlueField-3 SNAP 4.5.0 "SNAP Memory
// Consumption": requests memory 4Gi, limits hugepages-2Mi 4Gi) and DPF's SNAP cpu 8 / 16.
constexpr const char* k_snap = R"(apiVersion: v1
kind: Pod
metadata:
  name: snap
spec:
  hostNetwork: true
  containers:
  - name: snap
    image: nvcr.io/nvidia/doca/doca_snap:4.5.0-doca2.9.0
    resources:
      requests:
        cpu: "8"
        memory: "4Gi"
      limits:
        cpu: "16"
        hugepages-2Mi: "4Gi"
        memory: "4Gi"
  - name: sidecar
    image: busybox
    resources:
      limits:
        cpu: 250m
)";

TEST(KubeletPod, RequestsLimitsAndHugepages) {
  ASSERT_TRUE(looks_like_kubelet_pod(k_snap));
  auto r = parse_kubelet_pod(k_snap);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->value.containers.size(), 2u);
  const PodContainerAsk& s = r->value.containers[0];
  EXPECT_EQ(s.pod, "snap");
  EXPECT_EQ(s.container, "snap");
  EXPECT_EQ(s.cpu_request_millicores, 8000u);
  EXPECT_EQ(s.cpu_limit_millicores, 16000u);
  EXPECT_EQ(s.memory_request_bytes, 4 * k_gib);
  EXPECT_EQ(s.hugepages_bytes.at("hugepages-2Mi"), 4 * k_gib);  // from the limit
  EXPECT_EQ(s.line, 8u);
  EXPECT_EQ(r->value.containers[1].cpu_limit_millicores, 250u);
  EXPECT_EQ(r->value.containers[1].cpu_request_millicores, std::nullopt);
  EXPECT_TRUE(r->warnings.empty());
}

// What the API validation the kubelet applies refuses (pkg/apis/core/validation
// ValidateResourceRequirements), init containers, and a second YAML document (the kubelet reads
// the first: pkg/kubelet/config/common.go tryDecodeSinglePod).
TEST(KubeletPod, InitContainersInvalidAsksAndASecondDocument) {
  auto r = parse_kubelet_pod(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
      "  initContainers:\n  - name: setup\n    resources: {requests: {cpu: \"2\"}}\n"
      "  containers:\n"
      "  - name: a\n    resources:\n      requests: {memory: 8Gi, hugepages-2Mi: 2Gi}\n"
      "      limits: {memory: 4Gi, hugepages-2Mi: 4Gi}\n"
      "  - name: b\n    resources: {requests: {hugepages-1Gi: 1Gi}}\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: q}\n");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->value.containers.size(), 3u);
  EXPECT_TRUE(r->value.containers[0].init);
  EXPECT_EQ(r->value.containers[0].cpu_request_millicores, 2000u);
  const PodContainerAsk& a = r->value.containers[1];
  EXPECT_FALSE(a.init);
  ASSERT_EQ(a.invalid.size(), 2u);
  EXPECT_EQ(a.invalid[0], "requests.memory 8Gi is above limits.memory 4Gi (must be less than or equal to the limit)");
  EXPECT_EQ(a.invalid[1],
            "requests.hugepages-2Mi 2Gi differs from limits.hugepages-2Mi 4Gi (hugepages: the request must equal the limit)");
  const PodContainerAsk& b = r->value.containers[2];
  ASSERT_EQ(b.invalid.size(), 2u);
  EXPECT_NE(b.invalid[0].find("requests.hugepages-1Gi without limits.hugepages-1Gi"), std::string::npos);
  EXPECT_NE(b.invalid[1].find("HugePages require cpu or memory"), std::string::npos);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, "ignored_document");
  EXPECT_EQ(r->warnings[0].line, 15u);  // the "---"
}

TEST(KubeletPod, BadInputs) {
  auto y = parse_kubelet_pod("apiVersion: v1\nkind: Pod\nspec: [unclosed\n");
  ASSERT_FALSE(y);
  EXPECT_NE(y.error().message.find("line "), std::string::npos) << y.error().message;
  auto d = parse_kubelet_pod("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().message,
            "line 1: not a Kubernetes Pod (kind: Deployment); the kubelet runs only Pods from /etc/kubelet.d");
  auto q = parse_kubelet_pod(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources:\n"
      "      requests: {cpu: lots, memory: [1]}\n");
  ASSERT_TRUE(q);
  EXPECT_EQ(q->value.containers[0].cpu_request_millicores, std::nullopt);
  EXPECT_EQ(q->value.containers[0].unreadable, (std::vector<std::string>{"requests.cpu lots", "requests.memory (not a scalar)"}));
  ASSERT_EQ(q->warnings.size(), 2u);
  EXPECT_EQ(q->warnings[0].code, "bad_quantity");
  EXPECT_EQ(q->warnings[0].line, 8u);
  // yaml-cpp 0.7's LoadAll loops forever on these (jbeder/yaml-cpp issue 1040; a fuzz timeout
  // here): the first document is read with Load, which returns.
  EXPECT_FALSE(parse_kubelet_pod(",\n"));
  EXPECT_FALSE(parse_kubelet_pod(", renamed it encap-mode none|basic). The two '[root@x ~]# devlink ...' lines\n"));
  // metadata or spec of the wrong type is no crash
  EXPECT_FALSE(parse_kubelet_pod("apiVersion: v1\nkind: Pod\nmetadata: 3\nspec: 4\n"));
  EXPECT_EQ(parse_prompt_line("$ sudo cat /etc/kubelet.d/doca_hbn.yaml")->target, "doca_hbn");
}

}  // namespace
}  // namespace rk::parse

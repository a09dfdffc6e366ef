// Parser for the machine's memory and CPUs, tool id "host_resources": what rocekit-capture saves
// as `grep -H . /proc/meminfo /sys/devices/system/node/node*/cpulist
// /sys/kernel/mm/hugepages/hugepages-*/nr_hugepages /sys/kernel/mm/hugepages/hugepages-*/free_hugepages`,
// or a plain `cat /proc/meminfo`. Line forms:
//   /proc/meminfo:MemTotal:       32505856 kB      fs/proc/meminfo.c show_val_kb(): "%-16s%8lu kB"
//   MemTotal:       32505856 kB                    the same, from `cat /proc/meminfo`
//   HugePages_Total:    3072                       mm/hugetlb.c hugetlb_report_meminfo(): counts
//   Hugepagesize:       2048 kB                    of the default hugepage size
//   /sys/devices/system/node/node0/cpulist:0-15    the CPUs of a NUMA node (cpulist format)
//   /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages:3072
//   /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages:1024
// (Documentation/admin-guide/mm/hugetlbpage.rst). Other meminfo keys are read and ignored.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"
#include "rocekit/parse/common.hpp"

namespace rk::parse {

struct HugepageSysfs {
  std::uint64_t page_kib = 0;
  std::optional<std::uint64_t> total;  ///< nr_hugepages
  std::optional<std::uint64_t> free;   ///< free_hugepages
  std::size_t line = 0;                ///< the first line naming this size
};

struct HostResources {
  std::optional<std::uint64_t> mem_total_kib;      ///< MemTotal
  std::optional<std::uint64_t> mem_available_kib;  ///< MemAvailable
  std::optional<std::uint64_t> hugepages_total;    ///< HugePages_Total (default size)
  std::optional<std::uint64_t> hugepages_free;     ///< HugePages_Free
  std::optional<std::uint64_t> hugepage_kib;       ///< Hugepagesize
  std::size_t meminfo_line = 0;                    ///< the MemTotal line
  std::vector<HugepageSysfs> hugepage_pools;       ///< from sysfs, by page size
  std::map<int, int> node_cpus;                    ///< NUMA node -> CPUs in its cpulist
  std::size_t cpulist_line = 0;                    ///< the first cpulist line
};

/// The number of CPUs in a cpulist ("0-15", "0-3,8-11", "0,2,4"); nullopt when malformed.
std::optional<int> cpulist_count(std::string_view list);

/// Errors when no line is a meminfo, cpulist or hugepage line. Lines it does not know are
/// warnings.
Result<Parsed<HostResources>> parse_host_resources(std::string_view text);
nlohmann::json to_json(const HostResources& v);
bool looks_like_host_resources(std::string_view text);

}  // namespace rk::parse

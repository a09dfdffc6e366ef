// Parsers for captured reads of sysfs files, tool ids "sysfs_ecn", "sysfs_hw_counters",
// "sysfs_counters", "sysfs_traffic_class" and "cma_roce_tos", on top of one generic reader.
//
// Accepted line forms (one capture may mix them):
//   /sys/class/net/ens6/ecn/roce_np/enable/3:1     `grep -r -H . <dir-or-files>`: path, the first
//                                                  colon, the value (the value may hold colons,
//                                                  the path never does; also relative paths)
//   -r--r--r-- 1 root root 4096 Jul  9 11:20 name  `ls -l` / `ll` listing: a name, no value
//   total 0                                        `ls -l` decoration, skipped
//   np_cnp_sent 12                                 "name value" (exactly two words)
//   name                                           plain `ls`: a name, no value
//   Global tclass=106                              bare `cat` of one file: content, no path
#pragma once

#include <array>
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

/// One file seen in the capture. `path` is as printed: absolute, relative, a bare name from a
/// listing, or empty for a bare `cat` whose file name the output does not show. `value` is the
/// file content (nullopt for listings, which show names only).
struct SysfsEntry {
  std::string path;
  std::optional<std::string> value;
  std::size_t line = 0;  ///< 1-based line in the capture body
};

struct SysfsReads {
  std::vector<SysfsEntry> entries;
};

/// Generic reader. Errors when no line has one of the forms above.
Result<Parsed<SysfsReads>> parse_sysfs_reads(std::string_view text);
nlohmann::json to_json(const SysfsReads& v);

// ---- sysfs_ecn: /sys/class/net/<netdev>/ecn/roce_{rp,np}/... (MLNX_OFED / DOCA-OFED driver)

/// ECN state of one netdev. rp = reaction point (rate reduction on CNP, per priority); np =
/// notification point (CNP generation; port-wide on mlx5 although set per priority).
struct SysfsEcnNetdev {
  std::string netdev;
  std::array<std::optional<bool>, 8> rp_enabled{};  ///< roce_rp/enable/<prio>; nullopt = not read
  std::array<std::optional<bool>, 8> np_enabled{};  ///< roce_np/enable/<prio>
  std::map<std::string, std::string> rp_params;     ///< other roce_rp files by name (path below
                                                    ///< roce_rp/, e.g. "rpg_ai_rate")
  std::map<std::string, std::string> np_params;     ///< other roce_np files, e.g. "cnp_dscp"
};

struct SysfsEcn {
  std::vector<SysfsEntry> entries;       ///< every line read
  std::vector<SysfsEcnNetdev> netdevs;   ///< in first-seen order
};

/// Errors when no line is an ecn read (a path with /ecn/roce_rp/ or /ecn/roce_np/).
Result<Parsed<SysfsEcn>> parse_sysfs_ecn(std::string_view text);
nlohmann::json to_json(const SysfsEcn& v);
bool looks_like_sysfs_ecn(std::string_view text);

// ---- sysfs_hw_counters / sysfs_counters:
//      /sys/class/infiniband/<dev>/ports/<port>/{hw_counters,counters}/<name>

/// The counters of one RDMA device port (or of an unattributed listing).
struct SysfsCounterSet {
  std::optional<std::string> rdma_device;  ///< from the path; nullopt for a bare listing
  std::optional<std::uint32_t> port;       ///< from the path
  std::optional<std::string> kind;         ///< "hw_counters" or "counters"; nullopt if unknown
  /// counter name -> value; nullopt when only the name was listed (ls) or the value is not a
  /// decimal number.
  std::map<std::string, std::optional<std::uint64_t>> counters;
};

struct SysfsCounters {
  std::vector<SysfsEntry> entries;
  std::vector<SysfsCounterSet> sets;  ///< in first-seen order
};

/// Both accept either directory; they differ only in which `kind` an unattributed listing gets
/// (none: the listing does not say which directory it is).
Result<Parsed<SysfsCounters>> parse_sysfs_hw_counters(std::string_view text);
Result<Parsed<SysfsCounters>> parse_sysfs_counters(std::string_view text);
nlohmann::json to_json(const SysfsCounters& v);
/// hw_counters paths, or a listing with mlx5 hw counter names (np_cnp_sent, rp_cnp_handled, ...).
bool looks_like_sysfs_hw_counters(std::string_view text);
/// /counters/ paths, or a listing with IB PMA names (port_rcv_data, port_xmit_data, ...).
bool looks_like_sysfs_counters(std::string_view text);

// ---- sysfs_traffic_class: /sys/class/infiniband/<dev>/tc/<port>/traffic_class (MLNX_OFED)

struct SysfsTrafficClass {
  std::optional<std::string> rdma_device;       ///< from the path, when shown
  std::optional<std::uint32_t> port;            ///< from the path, when shown
  /// "Global tclass=N": the default IP ToS byte (DSCP << 2 | ECN) for this port's RoCE traffic.
  /// nullopt when the file was read back empty (no default set).
  std::optional<std::uint32_t> traffic_class;
  std::optional<std::uint32_t> dscp;            ///< traffic_class >> 2
  std::optional<std::uint32_t> ecn_bits;        ///< traffic_class & 3
};

/// Errors on empty input or when no "tclass=" content and no traffic_class path is present.
/// A traffic_class path with an empty value gives traffic_class nullopt.
Result<Parsed<SysfsTrafficClass>> parse_sysfs_traffic_class(std::string_view text);
nlohmann::json to_json(const SysfsTrafficClass& v);
bool looks_like_sysfs_traffic_class(std::string_view text);

// ---- cma_roce_tos: /sys/kernel/config/rdma_cm/<dev>/ports/<port>/default_roce_tos (rdma_cm
//      configfs, drivers/infiniband/core/cma_configfs.c: "%u\n"), also as `cma_roce_tos -d <dev>`
//      (mlnx-tools) prints it.

/// The ToS byte (DSCP << 2 | ECN bits) rdma_cm gives new RoCE connections of one port.
struct RoceTosReading {
  std::optional<std::string> rdma_device;  ///< from the path, when shown
  std::optional<std::uint32_t> port;       ///< from the path, when shown
  std::uint32_t tos = 0;
  std::size_t line = 0;
};

struct CmaRoceTos {
  std::vector<RoceTosReading> readings;
};

/// Errors when neither a default_roce_tos path with a value nor a bare 0..255 number is present.
Result<Parsed<CmaRoceTos>> parse_cma_roce_tos(std::string_view text);
nlohmann::json to_json(const CmaRoceTos& v);
/// default_roce_tos paths in a `grep -H` read.
bool looks_like_cma_roce_tos(std::string_view text);

}  // namespace rk::parse

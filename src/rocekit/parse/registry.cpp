#include "rocekit/parse/registry.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/parse/cma_roce_mode.hpp"
#include "rocekit/parse/devlink_dev_info.hpp"
#include "rocekit/parse/ethtool_channels.hpp"
#include "rocekit/parse/ethtool_coalesce.hpp"
#include "rocekit/parse/ethtool_driver.hpp"
#include "rocekit/parse/ethtool_link.hpp"
#include "rocekit/parse/ethtool_pause.hpp"
#include "rocekit/parse/ethtool_ring.hpp"
#include "rocekit/parse/ethtool_stats.hpp"
#include "rocekit/parse/flint_query.hpp"
#include "rocekit/parse/ibdev2netdev.hpp"
#include "rocekit/parse/ibstat.hpp"
#include "rocekit/parse/ibv_devinfo.hpp"
#include "rocekit/parse/ip_link.hpp"
#include "rocekit/parse/lsmod.hpp"
#include "rocekit/parse/persistence.hpp"
#include "rocekit/parse/lspci_vv.hpp"
#include "rocekit/parse/mlnx_qos.hpp"
#include "rocekit/parse/mlxconfig_query.hpp"
#include "rocekit/parse/mlxfwmanager.hpp"
#include "rocekit/parse/mst_status.hpp"
#include "rocekit/parse/nccl_log.hpp"
#include "rocekit/parse/nvidia_smi_topo.hpp"
#include "rocekit/parse/perftest.hpp"
#include "rocekit/parse/rdma_link.hpp"
#include "rocekit/parse/rdma_statistic.hpp"
#include "rocekit/parse/show_counters.hpp"
#include "rocekit/parse/show_gids.hpp"
#include "rocekit/parse/sysfs_reads.hpp"
#include "rocekit/parse/system_checks.hpp"

namespace rk::parse {
namespace {

template <class T>
nlohmann::json wrap(const Result<Parsed<T>>& r) {
  if (!r) return nlohmann::json{{"error", r.error().message}};
  return nlohmann::json{{"value", to_json(r->value)}, {"warnings", warnings_to_json(r->warnings)}};
}



}  // namespace

const std::vector<ToolParser>& all_tools() {
  static const std::vector<ToolParser> k_tools{
      {"mlnx_qos", "mlnx_qos -i <netdev>", looks_like_mlnx_qos,
       [](std::string_view b) { return wrap(parse_mlnx_qos(b)); }},
      {"system_checks", "cuBB system checks report", looks_like_system_checks,
       [](std::string_view b) { return wrap(parse_system_checks(b)); }},
      {"nvidia_smi_topo", "nvidia-smi topo -m", looks_like_nvidia_smi_topo,
       [](std::string_view b) { return wrap(parse_nvidia_smi_topo(b)); }},
      {"ethtool_S", "ethtool -S <netdev>", looks_like_ethtool_stats,
       [](std::string_view b) { return wrap(parse_ethtool_stats(b)); }},
      {"ethtool_c", "ethtool -c <netdev>", looks_like_ethtool_coalesce,
       [](std::string_view b) { return wrap(parse_ethtool_coalesce(b)); }},
      {"ethtool_l", "ethtool -l <netdev>", looks_like_ethtool_channels,
       [](std::string_view b) { return wrap(parse_ethtool_channels(b)); }},
      {"ethtool_g", "ethtool -g <netdev>", looks_like_ethtool_ring,
       [](std::string_view b) { return wrap(parse_ethtool_ring(b)); }},
      {"ethtool_a", "ethtool -a <netdev>", looks_like_ethtool_pause,
       [](std::string_view b) { return wrap(parse_ethtool_pause(b)); }},
      {"ethtool_i", "ethtool -i <netdev>", looks_like_ethtool_driver,
       [](std::string_view b) { return wrap(parse_ethtool_driver(b)); }},
      {"ethtool", "ethtool <netdev>", looks_like_ethtool_link,
       [](std::string_view b) { return wrap(parse_ethtool_link(b)); }},
      {"ibv_devinfo", "ibv_devinfo -v", looks_like_ibv_devinfo,
       [](std::string_view b) { return wrap(parse_ibv_devinfo(b)); }},
      {"ibstat", "ibstat", looks_like_ibstat,
       [](std::string_view b) { return wrap(parse_ibstat(b)); }},
      {"show_gids", "show_gids", looks_like_show_gids,
       [](std::string_view b) { return wrap(parse_show_gids(b)); }},
      {"ibdev2netdev", "ibdev2netdev -v", looks_like_ibdev2netdev,
       [](std::string_view b) { return wrap(parse_ibdev2netdev(b)); }},
      {"rdma_statistic", "rdma statistic show", looks_like_rdma_statistic,
       [](std::string_view b) { return wrap(parse_rdma_statistic(b)); }},
      {"rdma_res", "rdma res show", looks_like_rdma_res,
       [](std::string_view b) { return wrap(parse_rdma_res(b)); }},
      {"rdma_link", "rdma link show", looks_like_rdma_link,
       [](std::string_view b) { return wrap(parse_rdma_link(b)); }},
      {"show_counters", "show_counters <rdma-device>", looks_like_show_counters,
       [](std::string_view b) { return wrap(parse_show_counters(b)); }},
      {"mlxconfig_q", "mstconfig -d <BDF> -e q", looks_like_mlxconfig_query,
       [](std::string_view b) { return wrap(parse_mlxconfig_query(b)); }},
      {"mlxfwmanager", "mlxfwmanager --query", looks_like_mlxfwmanager,
       [](std::string_view b) { return wrap(parse_mlxfwmanager(b)); }},
      {"flint_q", "mstflint -d <BDF> q", looks_like_flint_query,
       [](std::string_view b) { return wrap(parse_flint_query(b)); }},
      {"mst_status", "mst status -v", looks_like_mst_status,
       [](std::string_view b) { return wrap(parse_mst_status(b)); }},
      {"devlink_dev_info", "devlink dev info", looks_like_devlink_dev_info,
       [](std::string_view b) { return wrap(parse_devlink_dev_info(b)); }},
      {"lspci_vvv", "lspci -vvv -s <BDF>", looks_like_lspci_vv,
       [](std::string_view b) { return wrap(parse_lspci_vv(b)); }},
      {"nccl_log", "NCCL_DEBUG=INFO output", looks_like_nccl_log,
       [](std::string_view b) { return wrap(parse_nccl_log(b)); }},
      {"perftest", "ib_write_bw and other perftest tools", looks_like_perftest,
       [](std::string_view b) { return wrap(parse_perftest(b)); }},
      {"cma_roce_mode", "cat /sys/kernel/config/rdma_cm/<dev>/ports/<p>/default_roce_mode", looks_like_cma_roce_mode,
       [](std::string_view b) { return wrap(parse_cma_roce_mode(b)); }},
      {"sysfs_ecn", "grep -r -H . /sys/class/net/<netdev>/ecn", looks_like_sysfs_ecn,
       [](std::string_view b) { return wrap(parse_sysfs_ecn(b)); }},
      {"sysfs_hw_counters", "grep -r -H . /sys/class/infiniband/<dev>/ports/*/hw_counters", looks_like_sysfs_hw_counters,
       [](std::string_view b) { return wrap(parse_sysfs_hw_counters(b)); }},
      {"sysfs_counters", "grep -r -H . /sys/class/infiniband/<dev>/ports/*/counters", looks_like_sysfs_counters,
       [](std::string_view b) { return wrap(parse_sysfs_counters(b)); }},
      {"sysfs_traffic_class", "cat /sys/class/infiniband/<dev>/tc/<port>/traffic_class", looks_like_sysfs_traffic_class,
       [](std::string_view b) { return wrap(parse_sysfs_traffic_class(b)); }},
      {"ip_link", "ip -s -s link show dev <netdev>", looks_like_ip_link,
       [](std::string_view b) { return wrap(parse_ip_link(b)); }},
      {"lsmod", "lsmod", looks_like_lsmod,
       [](std::string_view b) { return wrap(parse_lsmod(b)); }},
      {"persistence", "rocekit-capture --list-persistence", looks_like_persistence,
       [](std::string_view b) { return wrap(parse_persistence(b)); }},
  };
  return k_tools;
}

const ToolParser* find_tool(std::string_view id) {
  for (const ToolParser& t : all_tools())
    if (t.id == id) return &t;
  return nullptr;
}

const ToolParser* identify(std::string_view body) {
  for (const ToolParser& t : all_tools())
    if (t.looks_like(body)) return &t;
  return nullptr;
}

}  // namespace rk::parse

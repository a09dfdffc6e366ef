#include "rocekit/capture/tools.hpp"

#include <cstdint>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "rocekit/capture/merge.hpp"
#include "rocekit/parse/app_env.hpp"
#include "rocekit/parse/cma_roce_mode.hpp"
#include "rocekit/parse/devlink_dev_eswitch.hpp"
#include "rocekit/parse/devlink_dev_info.hpp"
#include "rocekit/parse/devlink_port.hpp"
#include "rocekit/parse/dmesg.hpp"
#include "rocekit/parse/doca_hugepages.hpp"
#include "rocekit/parse/host_resources.hpp"
#include "rocekit/parse/kubelet_pod.hpp"
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
#include "rocekit/parse/mlxlink_pcie.hpp"
#include "rocekit/parse/nvidia_version.hpp"
#include "rocekit/parse/proc_cmdline.hpp"
#include "rocekit/parse/sysfs_iommu_groups.hpp"
#include "rocekit/parse/uname.hpp"
#include "rocekit/parse/ofed_info.hpp"
#include "rocekit/parse/lspci_vv.hpp"
#include "rocekit/parse/mlnx_qos.hpp"
#include "rocekit/parse/mlxconfig_query.hpp"
#include "rocekit/parse/mlxfwmanager.hpp"
#include "rocekit/parse/mst_status.hpp"
#include "rocekit/parse/nccl_log.hpp"
#include "rocekit/parse/nvidia_smi_topo.hpp"
#include "rocekit/parse/perftest.hpp"
#include "rocekit/parse/persistence.hpp"
#include "rocekit/parse/rdma_link.hpp"
#include "rocekit/parse/rdma_statistic.hpp"
#include "rocekit/parse/show_counters.hpp"
#include "rocekit/parse/show_gids.hpp"
#include "rocekit/parse/sysfs_ib_links.hpp"
#include "rocekit/parse/sysfs_peermem.hpp"
#include "rocekit/parse/sysfs_reads.hpp"
#include "rocekit/parse/system_checks.hpp"

namespace rk::capture {
namespace {

template <class T>
nlohmann::json wrap(const Result<parse::Parsed<T>>& r) {
  using parse::to_json;  // also for model types the parsers return (PersistenceState)
  if (!r) return nlohmann::json{{"error", r.error().message}};
  return nlohmann::json{{"value", to_json(r->value)}, {"warnings", parse::warnings_to_json(r->warnings)}};
}

#define RK_PARSE(fn) [](std::string_view b) { return wrap(parse::fn(b)); }

}  // namespace

const std::vector<Tool>& all_tools() {
  // Most specific sniff first. order: identity and links first (ibdev2netdev, rdma link,
  // ibv_devinfo, show_gids, ethtool -i, lspci), so later files attach to known objects.
  static const std::vector<Tool> k_tools{
      {"mlnx_qos", "mlnx_qos -i <netdev>", parse::looks_like_mlnx_qos, RK_PARSE(parse_mlnx_qos), on_mlnx_qos, 100, {{Section::netdev_qos, "mlnx_qos -i <netdev>"}}},
      {"system_checks", "cuBB system checks report", parse::looks_like_system_checks, RK_PARSE(parse_system_checks), on_system_checks, 100, {}},
      {"nvidia_smi_topo", "nvidia-smi topo -m", parse::looks_like_nvidia_smi_topo, RK_PARSE(parse_nvidia_smi_topo), on_topo, 100, {{Section::host_gpus, "nvidia-smi topo -m"}}},
      {"ethtool_S", "ethtool -S <netdev>", parse::looks_like_ethtool_stats, RK_PARSE(parse_ethtool_stats), on_ethtool_S, 100, {{Section::netdev_stats, "ethtool -S <netdev>"}}},
      {"ethtool_c", "ethtool -c <netdev>", parse::looks_like_ethtool_coalesce, RK_PARSE(parse_ethtool_coalesce), on_ethtool_c, 100, {{Section::netdev_coalesce, "ethtool -c <netdev>"}}},
      {"ethtool_l", "ethtool -l <netdev>", parse::looks_like_ethtool_channels, RK_PARSE(parse_ethtool_channels), on_ethtool_l, 100, {{Section::netdev_channels, "ethtool -l <netdev>"}}},
      {"ethtool_g", "ethtool -g <netdev>", parse::looks_like_ethtool_ring, RK_PARSE(parse_ethtool_ring), nullptr, 100, {}},
      {"ethtool_a", "ethtool -a <netdev>", parse::looks_like_ethtool_pause, RK_PARSE(parse_ethtool_pause), on_ethtool_a, 100, {{Section::netdev_pause, "ethtool -a <netdev>"}}},
      {"ethtool_i", "ethtool -i <netdev>", parse::looks_like_ethtool_driver, RK_PARSE(parse_ethtool_driver), on_ethtool_i, 4, {{Section::netdev_driver, "ethtool -i <netdev>"}}},
      {"ethtool", "ethtool <netdev>", parse::looks_like_ethtool_link, RK_PARSE(parse_ethtool_link), on_ethtool, 100, {{Section::netdev_link, "ethtool <netdev>"}}},
      {"ibv_devinfo", "ibv_devinfo -v", parse::looks_like_ibv_devinfo, RK_PARSE(parse_ibv_devinfo), on_ibv_devinfo, 2, {{Section::port_state, "not captured (no ibv_devinfo, ibdev2netdev or rdma link output)", true}}},
      {"ibstat", "ibstat", parse::looks_like_ibstat, RK_PARSE(parse_ibstat), on_ibstat, 100, {}},
      {"show_gids", "show_gids", parse::looks_like_show_gids, RK_PARSE(parse_show_gids), on_show_gids, 3, {{Section::port_gids, "show_gids or ibv_devinfo -v GID table"}}},
      {"ibdev2netdev", "ibdev2netdev -v", parse::looks_like_ibdev2netdev, RK_PARSE(parse_ibdev2netdev), on_ibdev2netdev, 0, {}},
      {"rdma_statistic", "rdma statistic show", parse::looks_like_rdma_statistic, RK_PARSE(parse_rdma_statistic), on_rdma_statistic, 100, {}},
      {"rdma_res", "rdma res show", parse::looks_like_rdma_res, RK_PARSE(parse_rdma_res), nullptr, 100, {}},
      {"rdma_link", "rdma link show", parse::looks_like_rdma_link, RK_PARSE(parse_rdma_link), on_rdma_link, 1, {}},
      {"sysfs_ib_links", "ls -l /sys/class/infiniband", parse::looks_like_sysfs_ib_links, RK_PARSE(parse_sysfs_ib_links), on_sysfs_ib_links, 1, {}},
      {"show_counters", "show_counters <rdma-device>", parse::looks_like_show_counters, RK_PARSE(parse_show_counters), on_show_counters, 100, {}},
      {"mlxconfig_q", "mstconfig -d <BDF> -e q", parse::looks_like_mlxconfig_query, RK_PARSE(parse_mlxconfig_query), on_mlxconfig, 100, {{Section::pci_nv_config, "mlxconfig/mstconfig -d <bdf> q"}}},
      {"mlxfwmanager", "mlxfwmanager --query", parse::looks_like_mlxfwmanager, RK_PARSE(parse_mlxfwmanager), on_mlxfwmanager, 100, {}},
      {"flint_q", "mstflint -d <BDF> q", parse::looks_like_flint_query, RK_PARSE(parse_flint_query), on_flint, 100, {{Section::pci_firmware, "flint/mstflint q, mlxfwmanager or devlink dev info"}}},
      {"mst_status", "mst status -v", parse::looks_like_mst_status, RK_PARSE(parse_mst_status), nullptr, 100, {}},
      {"devlink_dev_info", "devlink dev info", parse::looks_like_devlink_dev_info, RK_PARSE(parse_devlink_dev_info), on_devlink, 100, {}},
      {"devlink_dev_eswitch", "devlink dev eswitch show pci/<BDF>", parse::looks_like_devlink_dev_eswitch, RK_PARSE(parse_devlink_dev_eswitch), on_devlink_eswitch, 100, {}},
      {"devlink_port", "devlink port show", parse::looks_like_devlink_port, RK_PARSE(parse_devlink_port), on_devlink_port, 100, {}},
      {"lspci_vvv", "lspci -vvv -s <BDF>", parse::looks_like_lspci_vv, RK_PARSE(parse_lspci_vv), on_lspci, 5, {{Section::pci_link, "lspci -vv -s <bdf>"}, {Section::pci_mrrs, "lspci -vv -s <bdf>"}, {Section::pci_ats, "lspci -vvv -s <bdf> (as root)"}}},
      {"mlxlink_pcie", "mlxlink -d <BDF> --port_type PCIE (mstlink in mstflint)", parse::looks_like_mlxlink_pcie, RK_PARSE(parse_mlxlink_pcie), on_mlxlink_pcie, 50, {}},
      {"nccl_log", "NCCL_DEBUG=INFO output", parse::looks_like_nccl_log, RK_PARSE(parse_nccl_log), on_nccl_log, 100, {}},
      {"perftest", "ib_write_bw and other perftest tools", parse::looks_like_perftest, RK_PARSE(parse_perftest), nullptr, 100, {}},
      {"cma_roce_mode", "cat /sys/kernel/config/rdma_cm/<dev>/ports/<p>/default_roce_mode", parse::looks_like_cma_roce_mode, RK_PARSE(parse_cma_roce_mode), on_cma_roce_mode, 100, {{Section::port_cm_mode, "not captured: read /sys/kernel/config/rdma_cm/<rdma>/ports/<port>/default_roce_mode when it exists; without it the kernel default applies (RoCE v2 on upstream kernels)", true}}},
      {"sysfs_ecn", "grep -r -H . /sys/class/net/<netdev>/ecn", parse::looks_like_sysfs_ecn, RK_PARSE(parse_sysfs_ecn), on_sysfs_ecn, 100, {{Section::netdev_ecn, "/sys/class/net/<netdev>/ecn"}}},
      {"sysfs_hw_counters", "grep -r -H . /sys/class/infiniband/<dev>/ports/*/hw_counters", parse::looks_like_sysfs_hw_counters, RK_PARSE(parse_sysfs_hw_counters), on_sysfs_counters, 100, {{Section::port_counters, "not captured (no hw_counters, show_counters or rdma statistic)", true}}},
      {"sysfs_counters", "grep -r -H . /sys/class/infiniband/<dev>/ports/*/counters", parse::looks_like_sysfs_counters, RK_PARSE(parse_sysfs_counters), on_sysfs_counters, 100, {}},
      {"sysfs_traffic_class", "grep -H . /sys/class/infiniband/<dev>/tc/<port>/traffic_class", parse::looks_like_sysfs_traffic_class, RK_PARSE(parse_sysfs_traffic_class), on_sysfs_traffic_class, 100, {{Section::port_traffic_class, "not captured: read /sys/class/infiniband/<rdma>/tc/<port>/traffic_class (MLNX_OFED/DOCA-OFED; absent with the inbox driver)", true}}},
      {"cma_roce_tos", "grep -H . /sys/kernel/config/rdma_cm/<dev>/ports/<p>/default_roce_tos", parse::looks_like_cma_roce_tos, RK_PARSE(parse_cma_roce_tos), on_cma_roce_tos, 100, {{Section::port_cm_tos, "not captured: read /sys/kernel/config/rdma_cm/<rdma>/ports/<port>/default_roce_tos when it exists (cma_roce_tos -d <rdma> creates it)", true}}},
      {"nccl_conf", "cat /etc/nccl.conf (nccl_conf@user.txt: ~/.nccl.conf or $NCCL_CONF_FILE)", parse::looks_like_nccl_conf, RK_PARSE(parse_nccl_conf), on_nccl_conf, 100, {}},
      {"app_env", "env | grep -E '^(NCCL|UCX)_', or the job script", parse::looks_like_app_env, RK_PARSE(parse_app_env), on_app_env, 100, {{Section::host_app_settings, "not captured: save the job's environment (`env | grep -E '^(NCCL|UCX)_'` as app_env.txt, or the job script), /etc/nccl.conf as nccl_conf.txt, or an NCCL_DEBUG=INFO log", true}}},
      {"ip_link", "ip -s -s link show dev <netdev>", parse::looks_like_ip_link, RK_PARSE(parse_ip_link), on_ip_link, 100, {{Section::netdev_mtu, "ip link / sysfs mtu"}, {Section::netdev_operstate, "ip link"}}},
      {"lsmod", "lsmod", parse::looks_like_lsmod, RK_PARSE(parse_lsmod), on_lsmod, 100, {{Section::host_modules, "lsmod"}, {Section::host_gpudirect, "not captured (no lsmod, /sys/kernel/mm/memory_peers or NCCL log)", true}}},
      {"persistence", "rocekit-capture --list-persistence", parse::looks_like_persistence, RK_PARSE(parse_persistence), on_persistence, 100, {{Section::host_persistence, "rocekit-capture --list-persistence"}}},
      {"sysfs_peermem", "ls /sys/kernel/mm/memory_peers; grep -H . /sys/module/nvidia_peermem/*", parse::looks_like_sysfs_peermem, RK_PARSE(parse_sysfs_peermem), on_sysfs_peermem, 100, {}},
      {"nvidia_version", "cat /proc/driver/nvidia/version", parse::looks_like_nvidia_version, RK_PARSE(parse_nvidia_version), on_nvidia_version, 100, {{Section::host_nvidia_driver, "/proc/driver/nvidia/version"}}},
      {"host_resources", "grep -H . /proc/meminfo /sys/devices/system/node/node*/cpulist /sys/kernel/mm/hugepages/hugepages-*/*_hugepages", parse::looks_like_host_resources, RK_PARSE(parse_host_resources), on_host_resources, 100, {{Section::host_memory, "grep -H . /proc/meminfo /sys/kernel/mm/hugepages/hugepages-*/*_hugepages"}}},
      {"doca_hugepages", "doca-hugepages show", parse::looks_like_doca_hugepages, RK_PARSE(parse_doca_hugepages), on_doca_hugepages, 100, {{Section::host_doca_hugepages, "doca-hugepages show"}}},
      {"kubelet_pod", "cat /etc/kubelet.d/<name>.yaml", parse::looks_like_kubelet_pod, RK_PARSE(parse_kubelet_pod), on_kubelet_pod, 100, {{Section::host_static_pods, "not captured: save each /etc/kubelet.d/<name>.yaml (the DOCA services' static pods) as kubelet_pod@<name>.txt", true}}},
      {"uname", "uname -r", parse::looks_like_uname, RK_PARSE(parse_uname), on_uname, 100, {{Section::host_kernel_release, "uname -r"}}},
      {"ofed_info", "ofed_info -s", parse::looks_like_ofed_info, RK_PARSE(parse_ofed_info), on_ofed_info, 100, {{Section::host_driver_stack, "ofed_info -s"}}},
      {"proc_cmdline", "cat /proc/cmdline", parse::looks_like_proc_cmdline, RK_PARSE(parse_proc_cmdline), on_proc_cmdline, 100, {}},
      {"sysfs_iommu_groups", "find /sys/kernel/iommu_groups/ -type l; grep -H . /sys/kernel/iommu_groups/*/type", parse::looks_like_sysfs_iommu_groups, RK_PARSE(parse_sysfs_iommu_groups), on_sysfs_iommu_groups, 100, {{Section::pci_iommu_group, "find /sys/kernel/iommu_groups/ -type l; grep -H . /sys/kernel/iommu_groups/*/type"}}},
      {"dmesg", "dmesg | grep -E 'mlx5|PCIe bandwidth|iommu|Kernel command line'", parse::looks_like_dmesg, RK_PARSE(parse_dmesg), on_dmesg, 100, {{Section::host_iommu, "not captured: the IOMMU mode comes from dmesg's \"iommu: Default domain type:\" line (save `dmesg` as dmesg.txt, as root) or `cat /proc/cmdline` (proc_cmdline.txt)", true}}},
  };
  return k_tools;
}

const Tool* find_tool(std::string_view id) {
  for (const Tool& t : all_tools())
    if (t.id == id) return &t;
  return nullptr;
}

const Tool* identify(std::string_view body) {
  for (const Tool& t : all_tools())
    if (t.looks_like(body)) return &t;
  return nullptr;
}

namespace {
/// Adds `offset` to every line number of a parser's JSON: a positive integer under a key "line"
/// or "<what>_line".
void shift_lines(nlohmann::json& j, std::size_t offset) {
  if (j.is_array()) {
    for (nlohmann::json& x : j) shift_lines(x, offset);
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string& k = it.key();
      if ((k == "line" || k.ends_with("_line")) && it->is_number_unsigned()) {
        if (std::uint64_t n = it->get<std::uint64_t>()) *it = n + offset;
      } else {
        shift_lines(*it, offset);
      }
    }
  }
}

}  // namespace

std::string shift_line_text(const std::string& message, std::size_t offset) {
  static const std::regex k_line(R"(\bline (\d+))");
  std::string out;
  auto last = message.cbegin();
  for (std::sregex_iterator it(message.begin(), message.end(), k_line), end; it != end; ++it) {
    out.append(last, (*it)[1].first);
    out += std::to_string(std::stoull((*it)[1].str()) + offset);
    last = (*it)[1].second;
  }
  out.append(last, message.cend());
  return out;
}

nlohmann::json parse_file_to_json(const Tool& t, std::string_view body, std::size_t body_first_line) {
  nlohmann::json j = t.parse_to_json(body);
  const std::size_t offset = body_first_line > 1 ? body_first_line - 1 : 0;
  if (offset == 0) return j;
  if (j.contains("error") && j["error"].is_string()) j["error"] = shift_line_text(j["error"].get<std::string>(), offset);
  if (j.contains("warnings")) shift_lines(j["warnings"], offset);
  if (j.contains("value")) shift_lines(j["value"], offset);
  return j;
}

}  // namespace rk::capture

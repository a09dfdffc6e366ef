// Per-outcome cases of the application rules (rules/app_rules.cpp, app_rules_nccl.cpp) on
// hand-built snapshots: two RoCE ports mlx5_0/1 (eth0) and mlx5_1/1 (eth1), each with a
// link-local RoCE v1/v2 GID at 0/1 and an IPv4 RoCE v1/v2 GID at 2/3, as the mlx5 driver adds them.
#include <functional>

#include "host_cases.hpp"

namespace rk::testcases {
namespace {

std::vector<Gid> gid_table(const std::string& netdev, const std::string& ip, const std::string& hex) {
  return {Gid{0, "fe80:0000:0000:0000:0ac0:ebff:fe40:8df2", std::nullopt, GidType::roce_v1, netdev},
          Gid{1, "fe80:0000:0000:0000:0ac0:ebff:fe40:8df2", std::nullopt, GidType::roce_v2, netdev},
          Gid{2, "0000:0000:0000:0000:0000:ffff:" + hex, ip, GidType::roce_v1, netdev},
          Gid{3, "0000:0000:0000:0000:0000:ffff:" + hex, ip, GidType::roce_v2, netdev}};
}

struct Spec {
  std::vector<std::pair<std::string, std::string>> env;  ///< NAME, value (origin "environment")
  bool env_captured = true;
  std::optional<int> global_tc;      ///< on both ports
  std::optional<int> cm_tos;         ///< on both ports
  int devices = 2;
  std::string script_branch_value;   ///< NCCL_IB_TC also set to this in another branch
  std::vector<std::string> unset;    ///< `unset NAME` after the assignments
};

Snapshot host(const Spec& spec) {
  Snapshot s;
  for (int i = 0; i < spec.devices; ++i) {
    std::string nd = "eth" + std::to_string(i);
    RdmaDevice& d = s.rdma("mlx5_" + std::to_string(i));
    RdmaPort p;
    p.port = 1;
    p.state.value = PortState::active;
    p.link_layer = LinkLayer::ethernet;
    p.netdev = nd;
    p.gids.value = gid_table(nd, "192.0.2." + std::to_string(10 + i), i == 0 ? "c000:020a" : "c000:020b");
    p.gids.source = {"show_gids.txt", 2, "hand-built"};
    if (spec.global_tc) {
      p.global_traffic_class.value = *spec.global_tc;
      p.global_traffic_class.source = {"sysfs_traffic_class@" + d.name + ".txt", 1, "Global tclass=" + std::to_string(*spec.global_tc)};
    } else {
      p.global_traffic_class.set_missing("no global traffic class is set", ReasonKind::not_applicable);
    }
    if (spec.cm_tos) {
      p.default_roce_tos.value = *spec.cm_tos;
      p.default_roce_tos.source = {"cma_roce_tos.txt", static_cast<std::size_t>(i + 1), "hand-built"};
    } else {
      p.default_roce_tos.set_missing("not captured (no cma_roce_tos output in the capture)", ReasonKind::not_captured, "cma_roce_tos");
    }
    d.ports.push_back(p);
    s.netdev(nd).rdma_device = d.name;
  }
  if (spec.env_captured) {
    AppSettings a;
    std::size_t line = 1;
    for (const auto& [k, v] : spec.env)
      a.settings.push_back({k, v, "environment", !spec.script_branch_value.empty(), true, {"app_env.txt", line++, k + "=" + v}, false});
    if (!spec.script_branch_value.empty())
      a.settings.push_back({"NCCL_IB_TC", spec.script_branch_value, "environment", true, true, {"app_env.txt", line++, ""}, false});
    for (const std::string& name : spec.unset)
      a.settings.push_back({name, "", "environment", false, true, {"app_env.txt", line++, "unset " + name}, true});
    s.app_settings.value = a;
    s.app_settings.source = {"app_env.txt", 0, ""};
  } else {
    s.app_settings.set_missing("not captured: save the job's environment", ReasonKind::not_captured, "app_env");
  }
  return s;
}

Snapshot env(std::vector<std::pair<std::string, std::string>> vars, const std::function<void(Spec&)>& tweak = {});

Snapshot with_run(std::string network, std::string link_layer, int net_channels, int gdr) {
  Snapshot s = env({});
  NcclRun r;
  r.network = network;
  r.network_source = {"nccl_log.txt", 19, "NCCL INFO Using network " + network};
  r.hcas = {NcclHca{"mlx5_0", 1, link_layer}};
  r.hcas_source = {"nccl_log.txt", 17, "NET/IB : Using [0]mlx5_0:1/" + link_layer};
  r.net_channels = net_channels;
  r.gdrdma_channels = gdr;
  r.channel_source = {"nccl_log.txt", 40, "Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0"};
  s.nccl_run.value = r;
  return s;
}

/// The only NCCL settings are the echoes of a log with `net_channels` NET channel lines.
Snapshot log_echoes_only(int net_channels, bool elided) {
  Snapshot s = with_run("IB", "RoCE", net_channels, 0);
  s.nccl_run.value->elided = elided;
  if (net_channels > 0) s.nccl_run.value->connected_source = {"nccl_log.txt", 58, "NCCL INFO Connected all rings"};
  s.app_settings.value->settings.push_back(
      {"NCCL_SOCKET_IFNAME", "eth0", "nccl log", false, true, {"nccl_log.txt", 9, "NCCL_SOCKET_IFNAME set by environment to eth0"}, false});
  s.app_settings.source = {"nccl_log.txt", 0, ""};
  return s;
}

Snapshot no_rdma() {  // an InfiniBand HCA only
  Snapshot s;
  RdmaPort p;
  p.port = 1;
  p.state.value = PortState::active;
  p.link_layer = LinkLayer::infiniband;
  p.netdev = "ib0";
  s.rdma("mlx5_0").ports.push_back(p);
  return s;
}

/// The environment capture holds `env`; `tweak` changes the rest of the spec.
Snapshot env(std::vector<std::pair<std::string, std::string>> vars, const std::function<void(Spec&)>& tweak) {
  Spec spec;
  spec.env = std::move(vars);
  if (tweak) tweak(spec);
  return host(spec);
}
Snapshot no_env() {
  Spec spec;
  spec.env_captured = false;
  return host(spec);
}

Snapshot gpus_on_first_nic() {
  Snapshot s = env({{"NCCL_IB_HCA", "mlx5_0"}});
  Gpu g;
  g.index = 0;
  g.nics = {GpuNicLink{"mlx5_0", "PIX", {}}, GpuNicLink{"mlx5_1", "SYS", {}}};
  s.gpus.value = std::vector<Gpu>{g};
  return s;
}

const Cases k_cases{
    // app.roce-tos
    host_case("app.roce-tos", Outcome::pass, "nccl", "NCCL_IB_TC=106 (environment): ToS 106 (DSCP 26, ECN bits 10 ECT(0))",
              [] { return env({{"NCCL_IB_TC", "106"}}); }),
    host_case("app.roce-tos", Outcome::fail, "nccl", "NCCL_IB_TC is not set, so NCCL marks RoCE with its default: ToS 0 (DSCP 0",
              [] { return env({{"NCCL_IB_HCA", "mlx5_0"}}); }),
    host_case("app.roce-tos", Outcome::fail, "mlx5_0/1",
              "global traffic_class of mlx5_0/1 replaces the ToS of every RoCE QP (NCCL_IB_TC, UCX_IB_TRAFFIC_CLASS, "
              "rdma_cm): ToS 160 (DSCP 40, ECN bits 00 Not-ECT), not the policy's DSCP 26: RoCE lands on priority 5",
              [] { return env({{"NCCL_IB_TC", "106"}}, [](Spec& x) { x.global_tc = 160; }); }),
    host_case("app.roce-tos", Outcome::fail, "nccl", "NCCL's RoCE QPs carry the global traffic_class of mlx5_0/1, mlx5_1/1: ToS 160",
              [] { return env({{"NCCL_IB_TC", "106"}}, [](Spec& x) { x.global_tc = 160; }); }),
    host_case("app.roce-tos", Outcome::pass, "ucx", "UCX_IB_TRAFFIC_CLASS is auto: UCX marks RoCE v2 with ToS 106",
              [] { return env({{"NCCL_IB_TC", "106"}, {"UCX_NET_DEVICES", "mlx5_0:1"}}); }),
    host_case("app.roce-tos", Outcome::fail, "rdma_cm mlx5_1/1", "rdma_cm default_roce_tos 0: ToS 0 (DSCP 0",
              [] { return env({{"NCCL_IB_TC", "106"}}, [](Spec& x) { x.cm_tos = 0; }); }),
    host_case("app.roce-tos", Outcome::unknown, "nccl", "NCCL settings (NCCL_IB_TC) not collected: not captured: save the job's environment",
              no_env),
    host_case("app.roce-tos", Outcome::unknown, "nccl", "NCCL_IB_TC is set differently in different branches of the script (106 at app_env.txt:1, 160 at app_env.txt:2)",
              [] { return env({{"NCCL_IB_TC", "106"}}, [](Spec& x) { x.script_branch_value = "160"; }); }),
    host_case("app.roce-tos", Outcome::unknown, "rdma_cm", "rdma_cm default_roce_tos not collected: not captured (no cma_roce_tos output",
              [] { return env({{"NCCL_IB_TC", "106"}}); }),
    host_case("app.roce-tos", Outcome::not_applicable, "host", "no Ethernet RDMA port", no_rdma),
    // A log's echoes alone prove a parameter unset only once NCCL has set up its NET channels.
    host_case("app.roce-tos", Outcome::fail, "nccl",
              "NCCL_IB_TC is not set (the NCCL log connects its NET channels without echoing it), so NCCL marks RoCE "
              "with its default: ToS 0",
              [] { return log_echoes_only(4, false); }),
    host_case("app.roce-tos", Outcome::unknown, "nccl",
              "the NCCL log does not echo NCCL_IB_TC, but it ends before NCCL connects its NET channels",
              [] { return log_echoes_only(0, false); }),
    host_case("app.roce-tos", Outcome::unknown, "nccl",
              "the NCCL log does not echo NCCL_IB_TC, but it was cut by hand (a [...] line)",
              [] { return log_echoes_only(4, true); }),
    host_case("app.gid-index", Outcome::unknown, "mlx5_0/1",
              "the NCCL log does not echo NCCL_IB_GID_INDEX, but it ends before NCCL connects its NET channels",
              [] { return log_echoes_only(0, false); }),
    // NCCL reads integers with strtoll(value, nullptr, 0) (src/misc/param.cc ncclLoadParam).
    host_case("app.roce-tos", Outcome::pass, "nccl",
              "NCCL_IB_TC=0x68 (environment), which NCCL reads as 104: ToS 104 (DSCP 26, ECN bits 00 Not-ECT), the "
              "policy's RoCE DSCP; the ECN bits differ from the policy's ToS 106",
              [] { return env({{"NCCL_IB_TC", "0x68"}}); }),
    host_case("app.roce-tos", Outcome::fail, "nccl",
              "NCCL_IB_TC=96 (environment): ToS 96 (DSCP 24, ECN bits 00 Not-ECT), not the policy's DSCP 26: this "
              "host puts DSCP 24 on the lossless priority 3 (the default DSCP map, DSCP >> 3) too, but the switches "
              "classify RoCE by DSCP 26",
              [] { return env({{"NCCL_IB_TC", "96"}}); }),
    host_case("app.roce-tos", Outcome::fail, "nccl", "NCCL_IB_TC is not set, so NCCL marks RoCE with its default: ToS 0",
              [] { return env({{"NCCL_IB_TC", "106"}}, [](Spec& x) { x.unset = {"NCCL_IB_TC"}; }); }),
    host_case("app.roce-tos", Outcome::unknown, "nccl",
              "the NCCL log shows `Using network Socket`: NCCL sent no RoCE, so NCCL_IB_TC marked nothing",
              [] {
                Snapshot s = with_run("Socket", "RoCE", 0, 0);
                s.app_settings.value->settings.push_back({"NCCL_IB_TC", "0", "environment", false, true, {"app_env.txt", 1, ""}, false});
                return s;
              }),
    // app.gid-index
    host_case("app.gid-index", Outcome::pass, "mlx5_0/1",
              "NCCL's auto-selection (NCCL_IB_GID_INDEX unset, AF_INET, RoCE v2) uses GID index 3 (RoCE v2, 192.0.2.10), "
              "the routable RoCE v2 IPv4 GID",
              [] { return env({{"NCCL_IB_TC", "106"}}); }),
    host_case("app.gid-index", Outcome::fail, "mlx5_0/1",
              "NCCL_IB_GID_INDEX=1 (environment) uses GID index 1 (RoCE v2, fe80:0000:0000:0000:0ac0:ebff:fe40:8df2, "
              "link-local); the routable RoCE v2 GID is index 3",
              [] { return env({{"NCCL_IB_GID_INDEX", "1"}}); }),
    host_case("app.gid-index", Outcome::fail, "mlx5_0/1", "NCCL_IB_GID_INDEX=2 (environment) uses GID index 2 (RoCE v1, 192.0.2.10)",
              [] { return env({{"NCCL_IB_GID_INDEX", "2"}}); }),
    host_case("app.gid-index", Outcome::unknown, "mlx5_0/1",
              "NCCL settings (NCCL_IB_GID_INDEX) not collected: not captured: save the job's environment; with NCCL's "
              "defaults it would pick GID index 3",
              no_env),
    host_case("app.gid-index", Outcome::not_applicable, "host", "no Ethernet RDMA port", no_rdma),
    host_case("app.gid-index", Outcome::pass, "mlx5_0/1",
              "NCCL's auto-selection (NCCL_IB_GID_INDEX unset, AF_INET, RoCE v2) uses GID index 3",
              [] { return env({{"NCCL_IB_GID_INDEX", "-1"}}); }),
    host_case("app.gid-index", Outcome::pass, "mlx5_0/1", "NCCL_IB_GID_INDEX=3 (environment) uses GID index 3",
              [] {  // a branch sets 5, a later unconditional line 3: the last assignment wins
                Snapshot s = env({});
                s.app_settings.value->settings = {
                    {"NCCL_IB_GID_INDEX", "5", "environment", true, true, {"app_env.txt", 4, ""}, false},
                    {"NCCL_IB_GID_INDEX", "3", "environment", false, true, {"app_env.txt", 6, ""}, false}};
                return s;
              }),
    host_case("app.gid-index", Outcome::pass, "mlx5_0/1", "NCCL_IB_GID_INDEX=0x3 (environment) uses GID index 3",
              [] { return env({{"NCCL_IB_GID_INDEX", "0x3"}}); }),
    // app.nccl-hca
    host_case("app.nccl-hca", Outcome::pass, "host",
              "NCCL_IB_HCA==mlx5_0,mlx5_1 (environment) selects the 2 RoCE rails (mlx5_0, mlx5_1",
              [] { return env({{"NCCL_IB_HCA", "=mlx5_0,mlx5_1"}}); }),
    host_case("app.nccl-hca", Outcome::fail, "host", "NCCL_IB_HCA=mlx5_0 (environment) leaves out the rails mlx5_1",
              [] { return env({{"NCCL_IB_HCA", "mlx5_0"}}); }),
    host_case("app.nccl-hca", Outcome::fail, "host",
              "NCCL_IB_HCA is not set (NCCL uses every active RDMA port) also selects mlx5_1 (no GPU's data path uses it)",
              [] {
                Snapshot s = gpus_on_first_nic();
                s.app_settings.value->settings.clear();
                return s;
              }),
    host_case("app.nccl-hca", Outcome::fail, "host",
              "NCCL_IB_HCA=mlx5_0,mlx5_9 (environment) leaves out the rails mlx5_1; names mlx5_9, which this host "
              "does not have (a typo of a rail?)",
              [] { return env({{"NCCL_IB_HCA", "mlx5_0,mlx5_9"}}); }),
    host_case("app.nccl-hca", Outcome::pass, "host",
              "selects the 2 RoCE rails (mlx5_0, mlx5_1; rails: every Ethernet RDMA port without a management or "
              "storage role (the GPUs' NICs are not in the input)); names mlx5_9, which this host does not have (NCCL "
              "skips them)",
              [] { return env({{"NCCL_IB_HCA", "mlx5_0,mlx5_1,mlx5_9"}}); }),
    host_case("app.nccl-hca", Outcome::pass, "host", "NCCL_IB_HCA=mlx5_0 (environment) selects the 1 RoCE rails (mlx5_0; rails: "
              "the NIC closest to each of the 1 GPUs)", gpus_on_first_nic),
    host_case("app.nccl-hca", Outcome::unknown, "host", "NCCL settings (NCCL_IB_HCA) not collected",
              no_env),
    host_case("app.nccl-hca", Outcome::not_applicable, "host", "no Ethernet RDMA port", no_rdma),
    // app.nccl-transport
    host_case("app.nccl-transport", Outcome::pass, "host", "NCCL runs over RoCE (mlx5_0:1), 8 of 8 NET channels with GPUDirect RDMA",
              [] { return with_run("IB", "RoCE", 8, 8); }),
    host_case("app.nccl-transport", Outcome::fail, "host", "none of its 4 NET channels uses GPUDirect RDMA",
              [] { return with_run("IB", "RoCE", 4, 0); }),
    host_case("app.nccl-transport", Outcome::fail, "host", "NCCL ran over TCP sockets (`Using network Socket`)",
              [] { return with_run("Socket", "RoCE", 0, 0); }),
    host_case("app.nccl-transport", Outcome::unknown, "host", "NCCL run not collected",
              [] {
                Snapshot s = env({});
                s.nccl_run.set_missing("not captured: no NCCL_DEBUG=INFO log", ReasonKind::not_captured, "nccl_log");
                return s;
              }),
    host_case("app.nccl-transport", Outcome::not_applicable, "host", "NCCL uses InfiniBand HCAs (mlx5_0/IB/SHARP), not RoCE",
              [] { return with_run("IBext_v8", "IB/SHARP", 2, 0); }),
};

}  // namespace
}  // namespace rk::testcases

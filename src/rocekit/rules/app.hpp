// What the application stack sends, derived from the snapshot: the NCCL/UCX setting in force,
// NCCL's HCA filter and GID auto-selection, the ToS byte each stack marks RoCE with, and the
// RoCE rails. The app.* rules (rules/app_rules.cpp) judge these; `rocekit plan -f nccl` writes
// them (plan/nccl.cpp). Sources: NVIDIA/nccl src/misc/param.cc (precedence), src/misc/utils.cc
// (parseStringList, matchIfList), src/transport/net_ib/init.cc (NCCL_IB_HCA, active ports only),
// src/transport/net_ib/connect.cc (ncclIbGetGidIndex, NCCL_IB_TC default 0); openucx/ucx
// src/uct/ib/base/ib_iface.c (UCX_IB_TRAFFIC_CLASS auto = 106 on RoCE v2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocekit/model/snapshot.hpp"
#include "rocekit/policy/policy.hpp"

namespace rk::rules {

/// The value of a setting in force. `setting` is null when no input sets it; `ambiguous` says
/// why the value cannot be told (a job script assigns different values in different branches,
/// or the value expands a variable), with `setting` the first candidate.
struct SettingInForce {
  const AppSetting* setting = nullptr;
  std::string ambiguous;
};

/// NCCL's precedence: what the NCCL log shows it read, else the environment (capture or job
/// script), else ~/.nccl.conf ($NCCL_CONF_FILE), else /etc/nccl.conf. An environment whose last
/// word on the name is `unset NAME` leaves it to the nccl.conf files.
SettingInForce setting_in_force(const AppSettings& a, std::string_view name);

/// Why `name` being absent from the input does not prove it unset, or "" when it does. When the
/// only NCCL settings are a log's "set by environment" echoes, NCCL prints one when it first
/// reads a parameter (param.cc ncclLoadParam), and it reads NCCL_IB_TC and NCCL_IB_GID_INDEX when
/// it connects its NET channels: a log cut by hand or ending before them proves nothing.
std::string unproven_absence(const Snapshot& s, std::string_view name);
/// " (NAME is not in the job's environment; ... not captured)" when the only settings are an
/// environment capture: a nccl.conf could still set `name`. "" otherwise.
std::string conf_caveat(const Snapshot& s, std::string_view name);
/// True when every NCCL setting of the input is an NCCL log's echo (no environment or nccl.conf).
bool log_echoes_only(const Snapshot& s);

/// An integer NCCL parameter as ncclLoadParam reads it (src/misc/param.cc): strtoll(value,
/// nullptr, 0), so "0x68" is 104, "010" is 8 and "26abc" is 26, text without digits is 0; an
/// empty value or one out of range keeps NCCL's default (nullopt here).
std::optional<std::int64_t> nccl_int_param(std::string_view value);

/// NCCL_IB_HCA: "[^][=]dev[:port],..." (parseStringList); without '=' an entry matches every
/// device whose name starts with it ("mlx5_1" also selects mlx5_10).
struct HcaFilter {
  bool exclude = false;  ///< leading '^': every device but these
  bool exact = false;    ///< leading '=': whole names
  struct Entry {
    std::string prefix;
    std::optional<int> port;
  };
  std::vector<Entry> entries;
};
HcaFilter parse_hca_filter(std::string_view value);
/// matchIfList: does NCCL use port `port` of `dev` under the filter?
bool hca_selected(const HcaFilter& f, const std::string& dev, int port);

/// A GID NCCL may pick: configured (not ::, not fe80::/64 with a zero trailer) and not link-local.
bool routable_gid(const Gid& g);
/// The GID index NCCL auto-selects on a RoCE port when NCCL_IB_GID_INDEX is unset
/// (ncclIbGetGidIndex): `ipv4` for NCCL_IB_ADDR_FAMILY AF_INET (the default), `roce_version`
/// from NCCL_IB_ROCE_VERSION_NUM (default 2). nullopt when the table is empty.
std::optional<int> nccl_auto_gid_index(const std::vector<Gid>& gids, bool ipv4, int roce_version);
/// The first routable RoCE v2 GID of the family: what a RoCE v2 fabric routes.
const Gid* routable_v2_gid(const std::vector<Gid>& gids, bool ipv4);

/// The ToS byte as the policy wants RoCE marked: DSCP << 2 | ECT(0) (106 for DSCP 26).
int policy_roce_tos(const Policy& p);
/// "ToS 106 (DSCP 26, ECN bits 10 ECT(0))".
std::string tos_text(int tos);

/// One RDMA port NCCL should use for RoCE.
struct RailPort {
  const RdmaDevice* device = nullptr;
  const RdmaPort* port = nullptr;
};
/// The RoCE rails: Ethernet RDMA ports that are not management or storage by the policy's
/// `interfaces:` roles, and, when the GPUs are known, the NIC each GPU's data path uses. `how`
/// says which: "the NIC closest to each GPU (8 GPUs)", "every Ethernet RDMA port", ...
struct Rails {
  std::vector<RailPort> ports;
  std::string how;
  std::vector<std::string> excluded;  ///< "mlx5_2 (storage role)", "mlx5_10 (no GPU uses it)"
};
Rails roce_rails(const Snapshot& s, const Policy& p);

/// "mlx5_0:1" when the device has several ports, else "mlx5_0": an NCCL_IB_HCA entry.
std::string hca_entry(const RdmaDevice& d, const RdmaPort& p);

}  // namespace rk::rules

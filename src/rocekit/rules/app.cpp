#include "rocekit/rules/app.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <array>
#include <map>
#include <set>

#include "rocekit/build/pci_tree.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/policy/scope.hpp"
#include "rocekit/rules/helpers.hpp"

namespace rk::rules {
namespace {

int origin_rank(const std::string& origin) {
  if (origin == "nccl log") return 0;
  if (origin == "environment") return 1;
  if (origin == "user nccl.conf") return 2;
  return 3;  // /etc/nccl.conf
}

using GidBytes = std::array<unsigned char, 16>;

std::optional<GidBytes> gid_bytes(const std::string& text) {
  GidBytes b{};
  if (inet_pton(AF_INET6, text.c_str(), b.data()) != 1) return std::nullopt;
  return b;
}

bool ipv4_mapped(const GidBytes& b) {
  for (int i = 0; i < 10; ++i)
    if (b[static_cast<std::size_t>(i)] != 0) return false;
  return b[10] == 0xff && b[11] == 0xff;
}

bool gid_is_ipv4(const Gid& g) {
  if (g.ipv4) return true;
  std::optional<GidBytes> b = gid_bytes(g.gid);
  return b && ipv4_mapped(*b);
}

int roce_version(const Gid& g) {
  if (!g.type) return -1;
  if (*g.type == GidType::roce_v2) return 2;
  return 1;  // "IB/RoCE v1" and "RoCE v1" both read as 1 (ncclIbRoceGetVersionNum)
}

}  // namespace

SettingInForce setting_in_force(const AppSettings& a, std::string_view name) {
  SettingInForce out;
  for (int rank = 0; rank <= 3; ++rank) {
    std::vector<const AppSetting*> cands;
    for (const AppSetting& s : a.settings)
      if (s.name == name && origin_rank(s.origin) == rank) cands.push_back(&s);
    if (cands.empty()) continue;
    // A script: what an unconditional assignment replaced no longer counts.
    if (rank < 2)
      for (std::size_t k = cands.size(); k-- > 1;)
        if (!cands[k]->conditional) {
          cands.erase(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(k));
          break;
        }
    // nccl.conf: NCCL calls setenv(name, value, 0), so the first line of a file wins; a script or
    // an environment capture: the last assignment (or `unset`).
    const AppSetting* chosen = rank >= 2 ? cands.front() : cands.back();
    std::set<std::string> values;
    bool conditional = false;
    for (const AppSetting* s : cands) {
      values.insert(s->unset ? std::string("\x01unset") : s->value);
      conditional = conditional || s->conditional;
    }
    if (conditional && (values.size() > 1 || cands.size() == 1)) {
      out.setting = cands.front();
      std::string lines;
      for (const AppSetting* s : cands)
        lines += (lines.empty() ? "" : ", ") + (s->unset ? std::string("unset") : s->value) + " at " + s->source.file +
                 ":" + std::to_string(s->source.line);
      out.ambiguous = values.size() > 1
                          ? std::string(name) + " is set differently in different branches of the script (" + lines +
                                "): which branch runs is not in the input"
                          : std::string(name) + " is " + (cands.front()->unset ? "unset" : "set") +
                                " only inside a branch of the script (" + lines +
                                "): whether that branch runs is not in the input";
      return out;
    }
    // `unset NAME` last: this source leaves it unset, so a lower one (a nccl.conf) may set it.
    if (chosen->unset) continue;
    out.setting = chosen;
    if (!chosen->literal)
      out.ambiguous = std::string(name) + "=" + chosen->value + " expands a variable whose value is not in the input";
    return out;
  }
  return out;
}

std::string conf_caveat(const Snapshot& s, std::string_view name) {
  if (!s.app_settings.has_value()) return "";
  bool env = false;
  for (const AppSetting& a : s.app_settings->settings) {
    if (a.origin == "nccl log" || a.origin == "/etc/nccl.conf" || a.origin == "user nccl.conf") return "";
    env = env || a.origin == "environment";
  }
  if (!env) return "";
  return " (" + std::string(name) + " is not in the job's environment; /etc/nccl.conf and ~/.nccl.conf, which NCCL "
         "also reads, were not captured)";
}

bool log_echoes_only(const Snapshot& s) {
  if (!s.app_settings.has_value() || s.app_settings->settings.empty()) return false;
  return std::all_of(s.app_settings->settings.begin(), s.app_settings->settings.end(),
                     [](const AppSetting& a) { return a.origin == "nccl log"; });
}

std::string unproven_absence(const Snapshot& s, std::string_view name) {
  // An environment or nccl.conf capture lists what is set.
  if (!log_echoes_only(s)) return "";
  const NcclRun* r = s.nccl_run.has_value() ? &*s.nccl_run : nullptr;
  std::string n(name);
  if (r && r->elided)
    return "the NCCL log does not echo " + n + ", but it was cut by hand (a [...] line): " + n +
           " may be set in the lines left out";
  if (!r || r->connected_source.file.empty())
    return "the NCCL log does not echo " + n + ", but it ends before NCCL connects its NET channels (no "
           "`Connected all rings` line), where it reads " + n + ": capture the job's environment (app_env.txt) "
           "or a longer log";
  return "";
}

std::optional<std::int64_t> nccl_int_param(std::string_view value) {
  if (value.empty()) return std::nullopt;
  std::string v(value);
  errno = 0;
  long long n = std::strtoll(v.c_str(), nullptr, 0);
  if (errno != 0) return std::nullopt;
  return static_cast<std::int64_t>(n);
}

HcaFilter parse_hca_filter(std::string_view v) {
  HcaFilter f;
  if (!v.empty() && v[0] == '^') {
    f.exclude = true;
    v.remove_prefix(1);
  }
  if (!v.empty() && v[0] == '=') {
    f.exact = true;
    v.remove_prefix(1);
  }
  for (std::string_view e : text::split(v, ',')) {
    std::vector<std::string_view> parts = text::split(e, ':');
    if (parts.empty() || parts[0].empty()) continue;
    HcaFilter::Entry en;
    en.prefix = std::string(parts[0]);
    if (parts.size() > 1 && !parts[1].empty())
      if (std::optional<std::uint64_t> p = text::parse_uint(parts[1]); p && *p < 256) en.port = static_cast<int>(*p);
    f.entries.push_back(std::move(en));
  }
  return f;
}

bool hca_selected(const HcaFilter& f, const std::string& dev, int port) {
  if (f.entries.empty()) return true;  // no list: every device (matchIfList's exception)
  bool match = false;
  for (const HcaFilter::Entry& e : f.entries) {
    bool name = f.exact ? dev == e.prefix : dev.starts_with(e.prefix);
    if (name && (!e.port || *e.port == port)) match = true;
  }
  return match != f.exclude;
}

bool routable_gid(const Gid& g) {
  std::optional<GidBytes> b = gid_bytes(g.gid);
  if (!b) return false;
  bool zero_trailer = true;
  for (std::size_t i = 4; i < 16; ++i) zero_trailer = zero_trailer && (*b)[i] == 0;
  bool zero_head = (*b)[0] == 0 && (*b)[1] == 0 && (*b)[2] == 0 && (*b)[3] == 0;
  bool fe80_head = (*b)[0] == 0xfe && (*b)[1] == 0x80 && (*b)[2] == 0 && (*b)[3] == 0;
  if ((zero_head || fe80_head) && zero_trailer) return false;  // configuredGid()
  bool link_local = fe80_head && (*b)[4] == 0 && (*b)[5] == 0 && (*b)[6] == 0 && (*b)[7] == 0;
  return !link_local;
}

std::optional<int> nccl_auto_gid_index(const std::vector<Gid>& gids, bool ipv4, int want_version) {
  if (gids.empty()) return std::nullopt;
  std::map<int, const Gid*> by_index;
  for (const Gid& g : gids) by_index.emplace(g.index, &g);
  static const Gid k_zero{0, "::", std::nullopt, std::nullopt, std::nullopt};
  auto at = [&](int i) -> const Gid& {
    auto it = by_index.find(i);
    return it == by_index.end() ? k_zero : *it->second;
  };
  int idx = 0;
  for (const auto& [cand_index, cand] : by_index) {
    if (cand_index == 0) continue;
    const Gid& cur = at(idx);
    bool cur_v4 = gid_is_ipv4(cur), cand_v4 = gid_is_ipv4(*cand);
    if (cand_v4 != cur_v4 && cand_v4 == ipv4) {
      idx = cand_index;
      continue;
    }
    if (cand_v4 != ipv4 || !routable_gid(*cand)) continue;
    int cur_ver = roce_version(cur), cand_ver = roce_version(*cand);
    if ((cur_ver != cand_ver || !routable_gid(cur)) && cand_ver == want_version) idx = cand_index;
  }
  return idx;
}

const Gid* routable_v2_gid(const std::vector<Gid>& gids, bool ipv4) {
  const Gid* best = nullptr;
  for (const Gid& g : gids)
    if (g.type == GidType::roce_v2 && routable_gid(g) && gid_is_ipv4(g) == ipv4 && (!best || g.index < best->index))
      best = &g;
  return best;
}

int policy_roce_tos(const Policy& p) { return p.roce_dscp << 2 | 2; }

std::string tos_text(int tos) {
  static constexpr const char* k_ecn[] = {"00 Not-ECT", "01 ECT(1)", "10 ECT(0)", "11 CE"};
  return "ToS " + std::to_string(tos) + " (DSCP " + std::to_string(tos >> 2) + ", ECN bits " + k_ecn[tos & 3] + ")";
}

std::string hca_entry(const RdmaDevice& d, const RdmaPort& p) {
  return d.ports.size() > 1 ? d.name + ":" + std::to_string(p.port) : d.name;
}

Rails roce_rails(const Snapshot& s, const Policy& pol) {
  Rails out;
  std::set<std::string> gpu_nics;
  std::size_t gpus = 0;
  if (s.gpus.has_value())
    for (const Gpu& g : *s.gpus) {
      ++gpus;
      if (const GpuNicLink* l = build::gpudirect_nic(s, g)) gpu_nics.insert(l->nic);
    }
  for (const RdmaDevice& d : s.rdma_devices)
    for (const RdmaPort& p : d.ports) {
      if ((p.link_layer && *p.link_layer != LinkLayer::ethernet) || (p.netdev && is_ipoib_name(*p.netdev))) continue;
      const NetDev* n = p.netdev ? s.find_netdev(*p.netdev) : nullptr;
      if (n) {
        if (const InterfaceRoleRule* r = interface_role(pol, *n); r && r->role != InterfaceRole::compute) {
          out.excluded.push_back(hca_entry(d, p) + " (" + *p.netdev + ": " + std::string(to_string(r->role)) + " role)");
          continue;
        }
      }
      if (!gpu_nics.empty() && !gpu_nics.count(d.name)) {
        out.excluded.push_back(hca_entry(d, p) + " (no GPU's data path uses it)");
        continue;
      }
      out.ports.push_back({&d, &p});
    }
  if (!gpu_nics.empty())
    out.how = "the NIC closest to each of the " + std::to_string(gpus) + " GPUs";
  else
    out.how = "every Ethernet RDMA port without a management or storage role (the GPUs' NICs are not in the input)";
  return out;
}

}  // namespace rk::rules

#include "rocekit/policy/policy.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "rocekit/policy/fleet_settings.hpp"

namespace rk {

bool Policy::rule_enabled(const std::string& id) const {
  auto it = rules.find(id);
  return it == rules.end() || !it->second.enabled.has_value() || *it->second.enabled;
}

Severity Policy::severity_for(const std::string& id, Severity builtin) const {
  auto it = rules.find(id);
  if (it != rules.end() && it->second.severity) return *it->second.severity;
  return builtin;
}

std::string_view to_string(InterfaceRole r) {
  switch (r) {
    case InterfaceRole::compute: return "compute";
    case InterfaceRole::storage: return "storage";
    case InterfaceRole::management: return "management";
  }
  return "?";
}

Policy default_policy() { return Policy{}; }

namespace {

struct LoadError {
  std::string message;
  YAML::Mark mark;
};

std::string where(const std::string& file, const YAML::Mark& m) {
  if (m.line < 0) return file;
  return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

void check_keys(const YAML::Node& map, const std::set<std::string>& allowed,
                const std::string& section) {
  if (!map.IsMap()) throw LoadError{"'" + section + "' must be a mapping", map.Mark()};
  std::set<std::string> seen;
  for (const auto& kv : map) {
    std::string key = kv.first.as<std::string>();
    if (!seen.insert(key).second)
      throw LoadError{"duplicate key '" + key + "' in " + section, kv.first.Mark()};
    if (!allowed.count(key)) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw LoadError{"unknown key '" + key + "' in " + section + " (known: " + list + ")",
                      kv.first.Mark()};
    }
  }
}

/// YAML quotes make a scalar a string: "9000" and 'no' are strings, 9000 and no are not.
/// yaml-cpp converts both alike, so its tag tells them apart ("!" quoted, "?" plain).
bool quoted(const YAML::Node& n) {
  return n.IsScalar() && (n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str");
}

/// Refuses a quoted scalar where a number or a boolean is expected; `plain` is what to write
/// instead (the value it converts to).
void refuse_quoted(const YAML::Node& n, const std::string& what, const std::string& expected,
                   const std::string& plain) {
  if (!quoted(n)) return;
  throw LoadError{what + ": \"" + n.Scalar() + "\" is quoted, so it is a string, not " + expected +
                      ": write " + plain + " without quotes",
                  n.Mark()};
}

int get_int(const YAML::Node& n, int lo, int hi, const std::string& what) {
  int v = 0;
  try {
    v = n.as<int>();
  } catch (const YAML::Exception&) {
    throw LoadError{what + " must be an integer", n.Mark()};
  }
  refuse_quoted(n, what, "an integer", std::to_string(v));
  if (v < lo || v > hi)
    throw LoadError{what + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
                        ", got " + std::to_string(v),
                    n.Mark()};
  return v;
}

bool get_bool(const YAML::Node& n, const std::string& what) {
  bool v = false;
  try {
    v = n.as<bool>();
  } catch (const YAML::Exception&) {
    throw LoadError{what + " must be true or false", n.Mark()};
  }
  refuse_quoted(n, what, "true or false", v ? "true" : "false");
  return v;
}

std::string get_str(const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) throw LoadError{what + " must be a string", n.Mark()};
  return n.as<std::string>();
}

/// A list of priorities (0..7), sorted; a priority listed twice is an error at its second entry.
std::vector<int> get_int_list(const YAML::Node& n, int lo, int hi, const std::string& what) {
  if (!n.IsSequence()) throw LoadError{what + " must be a list", n.Mark()};
  std::vector<int> out;
  for (const auto& e : n) {
    int v = get_int(e, lo, hi, what + " entry");
    if (std::find(out.begin(), out.end(), v) != out.end())
      throw LoadError{what + ": priority " + std::to_string(v) + " is listed twice", e.Mark()};
    out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::pair<std::uint32_t, std::uint32_t> get_range(const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence() || n.size() != 2)
    throw LoadError{what + " must be a [min, max] pair", n.Mark()};
  int a = get_int(n[0], 0, 1000000, what + " min");
  int b = get_int(n[1], 0, 1000000, what + " max");
  if (a > b) throw LoadError{what + " min is above max", n.Mark()};
  return {static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b)};
}

void apply(const YAML::Node& root, Policy& p, const std::vector<std::string>& known_rules) {
  if (root.IsNull()) return;
  check_keys(root, {"profile", "roce", "cnp", "mtu", "pcie", "coalescing", "channels",
                    "gpudirect", "firmware", "interfaces", "rules", "diagnose", "fleet"},
             "the policy");
  if (root["profile"]) p.name = get_str(root["profile"], "profile");
  if (const YAML::Node r = root["roce"]) {
    check_keys(r, {"priority", "dscp", "trust", "pfc_priorities", "ecn_priorities", "cable_length_m"}, "roce");
    // mlx5 accepts a cable length below 1000 m (en_dcbnl.c MLX5E_MAX_CABLE_LENGTH).
    if (r["cable_length_m"]) {
      if (r["cable_length_m"].IsNull())
        p.cable_length_m.reset();
      else
        p.cable_length_m = get_int(r["cable_length_m"], 1, 999, "roce.cable_length_m");
    }
    if (r["priority"]) p.roce_priority = get_int(r["priority"], 0, 7, "roce.priority");
    if (r["dscp"]) p.roce_dscp = get_int(r["dscp"], 0, 63, "roce.dscp");
    if (r["trust"]) {
      p.trust = get_str(r["trust"], "roce.trust");
      if (p.trust != "dscp" && p.trust != "pcp")
        throw LoadError{"roce.trust must be dscp or pcp", r["trust"].Mark()};
    }
    // Unless listed, PFC and ECN are on the RoCE priority only (the built-in profile's rule).
    p.pfc_priorities = r["pfc_priorities"]
                           ? get_int_list(r["pfc_priorities"], 0, 7, "roce.pfc_priorities")
                           : std::vector<int>{p.roce_priority};
    p.ecn_priorities = r["ecn_priorities"]
                           ? get_int_list(r["ecn_priorities"], 0, 7, "roce.ecn_priorities")
                           : std::vector<int>{p.roce_priority};
  }
  if (const YAML::Node c = root["cnp"]) {
    check_keys(c, {"dscp", "priority"}, "cnp");
    if (c["dscp"]) p.cnp_dscp = get_int(c["dscp"], 0, 63, "cnp.dscp");
    if (c["priority"]) p.cnp_priority = get_int(c["priority"], 0, 7, "cnp.priority");
  }
  if (const YAML::Node m = root["mtu"]) {
    check_keys(m, {"netdev_min_bytes", "roce_active_bytes"}, "mtu");
    if (m["netdev_min_bytes"])
      p.netdev_mtu_min_bytes = get_int(m["netdev_min_bytes"], 68, 65535, "mtu.netdev_min_bytes");
    if (m["roce_active_bytes"]) {
      p.roce_active_mtu_bytes = get_int(m["roce_active_bytes"], 256, 4096, "mtu.roce_active_bytes");
      int v = p.roce_active_mtu_bytes;
      if (v != 256 && v != 512 && v != 1024 && v != 2048 && v != 4096)
        throw LoadError{"mtu.roce_active_bytes must be 256, 512, 1024, 2048 or 4096",
                        m["roce_active_bytes"].Mark()};
    }
  }
  if (const YAML::Node pc = root["pcie"]) {
    check_keys(pc, {"max_read_request_bytes"}, "pcie");
    if (pc["max_read_request_bytes"]) {
      int v = get_int(pc["max_read_request_bytes"], 128, 4096, "pcie.max_read_request_bytes");
      if ((v & (v - 1)) != 0)
        throw LoadError{"pcie.max_read_request_bytes must be a power of two (128..4096)",
                        pc["max_read_request_bytes"].Mark()};
      p.max_read_request_bytes = v;
    }
  }
  if (const YAML::Node c = root["coalescing"]) {
    check_keys(c, {"profile", "adaptive_rx", "rx_usecs", "tx_usecs"}, "coalescing");
    if (c["profile"]) p.coalescing.name = get_str(c["profile"], "coalescing.profile");
    if (c["adaptive_rx"]) {
      if (c["adaptive_rx"].IsNull())
        p.coalescing.adaptive_rx.reset();
      else
        p.coalescing.adaptive_rx = get_bool(c["adaptive_rx"], "coalescing.adaptive_rx");
    }
    if (c["rx_usecs"]) {
      auto [a, b] = get_range(c["rx_usecs"], "coalescing.rx_usecs");
      p.coalescing.rx_usecs_min = a;
      p.coalescing.rx_usecs_max = b;
    }
    if (c["tx_usecs"]) {
      auto [a, b] = get_range(c["tx_usecs"], "coalescing.tx_usecs");
      p.coalescing.tx_usecs_min = a;
      p.coalescing.tx_usecs_max = b;
    }
  }
  if (const YAML::Node c = root["channels"]) {
    check_keys(c, {"limit_to_numa_cores"}, "channels");
    if (c["limit_to_numa_cores"])
      p.channels_within_numa_cores =
          get_bool(c["limit_to_numa_cores"], "channels.limit_to_numa_cores");
  }
  if (const YAML::Node g = root["gpudirect"]) {
    check_keys(g, {"gpu_nic_relations"}, "gpudirect");
    if (g["gpu_nic_relations"]) {
      const YAML::Node l = g["gpu_nic_relations"];
      if (!l.IsSequence()) throw LoadError{"gpudirect.gpu_nic_relations must be a list", l.Mark()};
      p.gpu_nic_relations.clear();
      for (const auto& e : l) {
        std::string v = get_str(e, "gpudirect.gpu_nic_relations entry");
        static const std::set<std::string> k_ok{"PIX", "PXB", "PHB", "NODE", "SYS"};
        if (!k_ok.count(v))
          throw LoadError{"unknown relation '" + v + "' (PIX, PXB, PHB, NODE, SYS)", e.Mark()};
        p.gpu_nic_relations.push_back(v);
      }
    }
  }
  if (const YAML::Node l = root["interfaces"]) {
    if (!l.IsSequence()) throw LoadError{"interfaces must be a list of {role, netdev, pci, rdma_device}", l.Mark()};
    for (const auto& e : l) {
      if (!e.IsMap()) throw LoadError{"interfaces entry must be a map", e.Mark()};
      check_keys(e, {"role", "netdev", "pci", "rdma_device"}, "interfaces entry");
      InterfaceRoleRule r;
      if (!e["role"]) throw LoadError{"interfaces entry needs a role (compute, storage, management)", e.Mark()};
      std::string role = get_str(e["role"], "interfaces.role");
      if (role == "compute") r.role = InterfaceRole::compute;
      else if (role == "storage") r.role = InterfaceRole::storage;
      else if (role == "management") r.role = InterfaceRole::management;
      else throw LoadError{"unknown role '" + role + "' (compute, storage, management)", e["role"].Mark()};
      auto patterns = [&](const char* key, std::vector<std::string>& out) {
        const YAML::Node v = e[key];
        if (!v) return;
        if (v.IsScalar()) {
          out.push_back(get_str(v, std::string("interfaces.") + key));
          return;
        }
        if (!v.IsSequence()) throw LoadError{std::string("interfaces.") + key + " must be a pattern or a list", v.Mark()};
        for (const auto& x : v) out.push_back(get_str(x, std::string("interfaces.") + key + " entry"));
      };
      patterns("netdev", r.netdev);
      patterns("pci", r.pci);
      patterns("rdma_device", r.rdma_device);
      if (r.netdev.empty() && r.pci.empty() && r.rdma_device.empty())
        throw LoadError{"interfaces entry matches nothing: give netdev, pci or rdma_device", e.Mark()};
      p.interfaces.push_back(std::move(r));
    }
  }
  if (const YAML::Node f = root["firmware"]) {
    check_keys(f, {"adaptive_routing", "warn_releases_behind"}, "firmware");
    if (f["warn_releases_behind"])
      p.firmware_warn_releases_behind = get_int(f["warn_releases_behind"], 1, 99, "firmware.warn_releases_behind");
    if (f["adaptive_routing"]) {
      if (f["adaptive_routing"].IsNull())
        p.adaptive_routing.reset();
      else
        p.adaptive_routing = get_bool(f["adaptive_routing"], "firmware.adaptive_routing");
    }
  }
  if (const YAML::Node d = root["diagnose"]) {
    check_keys(d, {"storm_occupancy", "pfc_min_pause_per_s"}, "diagnose");
    auto real = [](const YAML::Node& n, double lo, double hi, const std::string& what) {
      double v = 0;
      try {
        v = n.as<double>();
      } catch (const YAML::Exception&) {
        throw LoadError{what + " must be a number", n.Mark()};
      }
      refuse_quoted(n, what, "a number", n.Scalar());
      if (!(v >= lo && v <= hi))
        throw LoadError{what + " must be in " + std::to_string(lo) + ".." + std::to_string(hi),
                        n.Mark()};
      return v;
    };
    if (d["storm_occupancy"])
      p.diagnose.storm_occupancy = real(d["storm_occupancy"], 0, 1, "diagnose.storm_occupancy");
    if (d["pfc_min_pause_per_s"])
      p.diagnose.pfc_min_pause_per_s =
          real(d["pfc_min_pause_per_s"], 0, 1e9, "diagnose.pfc_min_pause_per_s");
  }
  if (const YAML::Node f = root["fleet"]) {
    check_keys(f, {"ignore"}, "fleet");
    const YAML::Node l = f["ignore"];
    if (l && !l.IsSequence()) throw LoadError{"fleet.ignore must be a list of settings (mtu, nv.NUM_OF_VFS, ...)", l.Mark()};
    for (const auto& e : l) {
      std::string v = get_str(e, "fleet.ignore entry");
      bool nv = v.starts_with("nv.") && v.size() > 3 &&
                v.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", 3) == std::string::npos;
      bool id = std::find(fleet::setting::all.begin(), fleet::setting::all.end(), v) != fleet::setting::all.end();
      if (!nv && !id) {
        std::string list;
        for (std::string_view k : fleet::setting::all) list += std::string(list.empty() ? "" : ", ") + std::string(k);
        throw LoadError{"fleet.ignore: '" + v + "' is no fleet setting (" + list +
                            ") and no firmware parameter (nv.NAME, e.g. nv.NUM_OF_VFS)",
                        e.Mark()};
      }
      if (std::find(p.fleet_ignore.begin(), p.fleet_ignore.end(), v) != p.fleet_ignore.end())
        throw LoadError{"fleet.ignore lists '" + v + "' twice", e.Mark()};
      p.fleet_ignore.push_back(v);
    }
  }
  if (const YAML::Node r = root["rules"]) {
    if (!r.IsMap()) throw LoadError{"'rules' must be a mapping of rule id to settings", r.Mark()};
    std::set<std::string> seen_ids;
    for (const auto& kv : r) {
      std::string id = kv.first.as<std::string>();
      if (!seen_ids.insert(id).second)
        throw LoadError{"duplicate rule id '" + id + "' in rules", kv.first.Mark()};
      if (id == "fleet.input-loaded")
        throw LoadError{"rule fleet.input-loaded cannot be configured: an input that cannot be read is always reported",
                        kv.first.Mark()};
      if (std::find(known_rules.begin(), known_rules.end(), id) == known_rules.end())
        throw LoadError{"unknown rule id '" + id + "' (see `rocekit rules list`)",
                        kv.first.Mark()};
      check_keys(kv.second, {"enabled", "severity"}, "rules." + id);
      RuleOverride o;
      if (kv.second["enabled"])
        o.enabled = get_bool(kv.second["enabled"], "rules." + id + ".enabled");
      if (kv.second["severity"]) {
        std::string s = get_str(kv.second["severity"], id + ".severity");
        o.severity = severity_from_string(s);
        if (!o.severity)
          throw LoadError{"severity must be info, warning, error or critical",
                          kv.second["severity"].Mark()};
      }
      p.rules[id] = o;
    }
  }
}

std::string list_text(const std::vector<int>& v) {
  std::string out;
  for (int i : v) out += (out.empty() ? "" : ", ") + std::to_string(i);
  return "[" + out + "]";
}

bool has(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

/// The settings that contradict each other are refused at the key to change (docs/policy.md):
/// the list when the file gives it, else the scalar the file gives. A value the file leaves out
/// is the built-in one, so a contradiction always has a key in the file.
void check_coherent(const YAML::Node& root, const Policy& p) {
  const Policy d = default_policy();
  const YAML::Node roce = root.IsMap() ? root["roce"] : YAML::Node();
  const YAML::Node cnp = root.IsMap() ? root["cnp"] : YAML::Node();
  auto at = [](const YAML::Node& section, const char* key) {
    return section && section.IsMap() && section[key] ? section[key].Mark() : YAML::Mark::null_mark();
  };
  const std::string rp = std::to_string(p.roce_priority);
  const std::string cp = std::to_string(p.cnp_priority);
  if (p.cnp_priority == p.roce_priority) {
    const char* own = "CNPs need a priority of their own, without PFC (docs/policy.md)";
    if (at(cnp, "priority").line >= 0)
      throw LoadError{"cnp.priority: " + cp + " is the RoCE priority (roce.priority): " + own +
                          "; set cnp.priority to another priority (the default is " +
                          std::to_string(d.cnp_priority) + ")",
                      at(cnp, "priority")};
    throw LoadError{"roce.priority: " + rp + " is the CNP priority (cnp.priority, by default " +
                        std::to_string(d.cnp_priority) + "): " + own +
                        "; set cnp.priority to another priority",
                    at(roce, "priority")};
  }
  if (!has(p.pfc_priorities, p.roce_priority))
    throw LoadError{"roce.pfc_priorities: " + list_text(p.pfc_priorities) +
                        " leaves the RoCE priority " + rp +
                        " (roce.priority) without PFC: RoCE needs a lossless priority; add " + rp +
                        " to roce.pfc_priorities or set roce.priority to a priority listed there",
                    at(roce, "pfc_priorities")};
  if (has(p.pfc_priorities, p.cnp_priority))
    throw LoadError{"roce.pfc_priorities: " + list_text(p.pfc_priorities) +
                        " includes the CNP priority " + cp +
                        " (cnp.priority): CNPs must never wait for a PFC pause to end; remove " +
                        cp + " from roce.pfc_priorities or set cnp.priority to a priority without PFC",
                    at(roce, "pfc_priorities").line >= 0 ? at(roce, "pfc_priorities")
                                                         : at(cnp, "priority")};
  if (!has(p.ecn_priorities, p.roce_priority))
    throw LoadError{"roce.ecn_priorities: " + list_text(p.ecn_priorities) +
                        " does not include the RoCE priority " + rp +
                        " (roce.priority): DCQCN (ECN marking and CNPs) must run on the RoCE "
                        "priority; add " + rp + " to roce.ecn_priorities",
                    at(roce, "ecn_priorities")};
  if (p.cnp_dscp == p.roce_dscp) {
    const std::string why = " is the RoCE DSCP (roce.dscp): one DSCP maps to one priority, and "
                            "CNPs go to priority " + cp + ", RoCE data to " + rp;
    if (at(cnp, "dscp").line >= 0)
      throw LoadError{"cnp.dscp: " + std::to_string(p.cnp_dscp) + why +
                          "; set cnp.dscp to another DSCP (the default is " +
                          std::to_string(d.cnp_dscp) + ")",
                      at(cnp, "dscp")};
    throw LoadError{"roce.dscp: " + std::to_string(p.roce_dscp) +
                        " is the CNP DSCP (cnp.dscp, by default " + std::to_string(d.cnp_dscp) +
                        "): one DSCP maps to one priority; set roce.dscp or cnp.dscp to another DSCP",
                    at(roce, "dscp")};
  }
}

}  // namespace

Result<Policy> load_policy_text(std::string_view yaml, const std::string& file_name,
                                const std::vector<std::string>& known_rule_ids) {
  Policy p = default_policy();
  try {
    YAML::Node root = YAML::Load(std::string(yaml));
    apply(root, p, known_rule_ids);
    check_coherent(root, p);
  } catch (const LoadError& e) {
    return unexpected(ErrorKind::malformed_input, e.message, where(file_name, e.mark));
  } catch (const YAML::Exception& e) {
    return unexpected(ErrorKind::malformed_input, e.msg, where(file_name, e.mark));
  }
  return p;
}

Result<Policy> load_policy_file(const std::filesystem::path& path,
                                const std::vector<std::string>& known_rule_ids) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(ErrorKind::io, "cannot open policy file", path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return load_policy_text(ss.str(), path.string(), known_rule_ids);
}

std::string policy_to_yaml(const Policy& p) {
  YAML::Emitter e;
  auto ints = [&](const std::vector<int>& v) {
    e << YAML::Flow << YAML::BeginSeq;
    for (int i : v) e << i;
    e << YAML::EndSeq;
  };
  e << YAML::BeginMap;
  e << YAML::Key << "profile" << YAML::Value << p.name;
  e << YAML::Key << "roce" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "priority" << YAML::Value << p.roce_priority;
  e << YAML::Key << "dscp" << YAML::Value << p.roce_dscp;
  e << YAML::Key << "trust" << YAML::Value << p.trust;
  e << YAML::Key << "pfc_priorities" << YAML::Value;
  ints(p.pfc_priorities);
  e << YAML::Key << "ecn_priorities" << YAML::Value;
  ints(p.ecn_priorities);
  e << YAML::Key << "cable_length_m" << YAML::Value;
  if (p.cable_length_m)
    e << *p.cable_length_m;
  else
    e << YAML::Null;
  e << YAML::EndMap;
  e << YAML::Key << "cnp" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "dscp" << YAML::Value << p.cnp_dscp;
  e << YAML::Key << "priority" << YAML::Value << p.cnp_priority;
  e << YAML::EndMap;
  e << YAML::Key << "mtu" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "netdev_min_bytes" << YAML::Value << p.netdev_mtu_min_bytes;
  e << YAML::Key << "roce_active_bytes" << YAML::Value << p.roce_active_mtu_bytes;
  e << YAML::EndMap;
  e << YAML::Key << "pcie" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "max_read_request_bytes" << YAML::Value << p.max_read_request_bytes;
  e << YAML::EndMap;
  e << YAML::Key << "coalescing" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "profile" << YAML::Value << p.coalescing.name;
  e << YAML::Key << "adaptive_rx" << YAML::Value;
  if (p.coalescing.adaptive_rx)
    e << *p.coalescing.adaptive_rx;
  else
    e << YAML::Null;
  e << YAML::Key << "rx_usecs" << YAML::Value << YAML::Flow << YAML::BeginSeq
    << p.coalescing.rx_usecs_min << p.coalescing.rx_usecs_max << YAML::EndSeq;
  e << YAML::Key << "tx_usecs" << YAML::Value << YAML::Flow << YAML::BeginSeq
    << p.coalescing.tx_usecs_min << p.coalescing.tx_usecs_max << YAML::EndSeq;
  e << YAML::EndMap;
  e << YAML::Key << "channels" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "limit_to_numa_cores" << YAML::Value << p.channels_within_numa_cores;
  e << YAML::EndMap;
  e << YAML::Key << "gpudirect" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "gpu_nic_relations" << YAML::Value << YAML::Flow << p.gpu_nic_relations;
  e << YAML::EndMap;
  e << YAML::Key << "firmware" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "adaptive_routing" << YAML::Value;
  if (p.adaptive_routing)
    e << *p.adaptive_routing;
  else
    e << YAML::Null;
  e << YAML::Key << "warn_releases_behind" << YAML::Value << p.firmware_warn_releases_behind;
  e << YAML::EndMap;
  if (!p.interfaces.empty()) {
    e << YAML::Key << "interfaces" << YAML::Value << YAML::BeginSeq;
    for (const InterfaceRoleRule& r : p.interfaces) {
      e << YAML::BeginMap << YAML::Key << "role" << YAML::Value << std::string(to_string(r.role));
      if (!r.netdev.empty()) e << YAML::Key << "netdev" << YAML::Value << YAML::Flow << r.netdev;
      if (!r.pci.empty()) e << YAML::Key << "pci" << YAML::Value << YAML::Flow << r.pci;
      if (!r.rdma_device.empty()) e << YAML::Key << "rdma_device" << YAML::Value << YAML::Flow << r.rdma_device;
      e << YAML::EndMap;
    }
    e << YAML::EndSeq;
  }
  e.SetDoublePrecision(6);  // 0.9, not 0.90000000000000002
  e << YAML::Key << "diagnose" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "storm_occupancy" << YAML::Value << p.diagnose.storm_occupancy;
  e << YAML::Key << "pfc_min_pause_per_s" << YAML::Value << p.diagnose.pfc_min_pause_per_s;
  e << YAML::EndMap;
  if (!p.fleet_ignore.empty()) {
    e << YAML::Key << "fleet" << YAML::Value << YAML::BeginMap;
    e << YAML::Key << "ignore" << YAML::Value << YAML::Flow << p.fleet_ignore;
    e << YAML::EndMap;
  }
  if (!p.rules.empty()) {
    e << YAML::Key << "rules" << YAML::Value << YAML::BeginMap;
    for (const auto& [id, o] : p.rules) {
      e << YAML::Key << id << YAML::Value << YAML::BeginMap;
      if (o.enabled) e << YAML::Key << "enabled" << YAML::Value << *o.enabled;
      if (o.severity)
        e << YAML::Key << "severity" << YAML::Value << std::string(to_string(*o.severity));
      e << YAML::EndMap;
    }
    e << YAML::EndMap;
  }
  e << YAML::EndMap;
  return std::string(e.c_str()) + "\n";
}

}  // namespace rk

#include "rocekit/select/description.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "rocekit/select/presets_data.hpp"

namespace rk::select {

std::string_view to_string(Fabric f) { return f == Fabric::roce ? "roce" : "infiniband"; }
std::string_view to_string(Tenancy t) {
  return t == Tenancy::single ? "single" : "multi-tenant";
}
std::string_view to_string(Storage s) {
  switch (s) {
    case Storage::none: return "none";
    case Storage::nvme_of: return "nvme-of";
    case Storage::gds: return "gds";
  }
  return "none";
}
std::string_view to_string(SlotUse u) {
  switch (u) {
    case SlotUse::compute: return "compute";
    case SlotUse::frontend: return "frontend";
    case SlotUse::any: return "any";
  }
  return "any";
}

namespace {

struct LoadError {
  std::string message;
  YAML::Mark mark;
};

std::string where(const std::string& origin, const YAML::Mark& m) {
  if (m.line < 0) return origin;
  return origin + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

void check_keys(const YAML::Node& map, const std::set<std::string>& allowed,
                const std::string& section) {
  if (!map.IsMap()) throw LoadError{section + ": must be a mapping", map.Mark()};
  std::set<std::string> seen;
  for (const auto& kv : map) {
    std::string key = kv.first.as<std::string>();
    if (!seen.insert(key).second)
      throw LoadError{section + ": duplicate key '" + key + "'", kv.first.Mark()};
    if (!allowed.count(key)) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw LoadError{section + ": unknown key '" + key + "' (known: " + list + ")",
                      kv.first.Mark()};
    }
  }
}

int get_int(const YAML::Node& n, int lo, int hi, const std::string& what) {
  int v = 0;
  try {
    v = n.as<int>();
  } catch (const YAML::Exception&) {
    throw LoadError{what + ": must be an integer", n.Mark()};
  }
  if (v < lo || v > hi)
    throw LoadError{what + ": must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
                        ", got " + std::to_string(v),
                    n.Mark()};
  return v;
}

double get_double(const YAML::Node& n, double lo, double hi, const std::string& what) {
  double v = 0;
  try {
    v = n.as<double>();
  } catch (const YAML::Exception&) {
    throw LoadError{what + ": must be a number", n.Mark()};
  }
  if (!(v >= lo && v <= hi))
    throw LoadError{what + ": out of range", n.Mark()};
  return v;
}

bool get_bool(const YAML::Node& n, const std::string& what) {
  try {
    return n.as<bool>();
  } catch (const YAML::Exception&) {
    throw LoadError{what + ": must be true or false", n.Mark()};
  }
}

std::string get_str(const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) throw LoadError{what + ": must be a string", n.Mark()};
  return n.as<std::string>();
}

std::vector<std::string> get_str_list(const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence()) throw LoadError{what + ": must be a list", n.Mark()};
  std::vector<std::string> out;
  for (const auto& e : n) out.push_back(get_str(e, what + " entry"));
  return out;
}

template <class E>
E get_enum(const YAML::Node& n, const std::vector<std::pair<std::string, E>>& words,
           const std::string& what) {
  std::string v = get_str(n, what);
  std::string list;
  for (const auto& [w, e] : words) {
    if (w == v) return e;
    list += (list.empty() ? "" : ", ") + w;
  }
  throw LoadError{what + ": unknown value '" + v + "' (known: " + list + ")", n.Mark()};
}

int get_gen(const YAML::Node& n, const std::string& what) {
  int v = 0;
  try {
    v = n.as<int>();
  } catch (const YAML::Exception&) {
    throw LoadError{what + ": must be a PCIe generation 1..6", n.Mark()};
  }
  if (v < 1 || v > 6)
    throw LoadError{what + ": PCIe Gen" + std::to_string(v) +
                        " is outside the model (Gen1..Gen6, catalog.md section 3)",
                    n.Mark()};
  return v;
}

int get_lanes(const YAML::Node& n, const std::string& what) {
  int v = get_int(n, -1000, 1000, what);
  if (v != 1 && v != 2 && v != 4 && v != 8 && v != 16)
    throw LoadError{what + ": lanes must be 1, 2, 4, 8 or 16, got " + std::to_string(v), n.Mark()};
  return v;
}

void apply(const YAML::Node& root, Description& d, const std::string& origin) {
  check_keys(root,
             {"preset", "name", "sources", "notes", "gpu_model", "sockets", "numa_nodes",
              "gpu_positions", "gpus", "slots", "fabric", "tenancy", "storage", "security",
              "management_network", "frontend_nics", "nic_model"},
             "description");
  if (root["name"]) d.name = get_str(root["name"], "name");
  if (root["sources"]) d.sources = get_str_list(root["sources"], "sources");
  if (root["notes"]) d.notes = get_str_list(root["notes"], "notes");
  if (root["gpu_model"]) d.gpu_model = get_str(root["gpu_model"], "gpu_model");
  if (root["sockets"]) d.sockets = get_int(root["sockets"], 1, 8, "sockets");
  if (root["numa_nodes"]) d.numa_nodes = get_int(root["numa_nodes"], 1, 16, "numa_nodes");
  if (root["gpu_positions"])
    d.gpu_positions = get_int(root["gpu_positions"], 1, 64, "gpu_positions");
  YAML::Mark gpus_mark = root.Mark();
  if (const YAML::Node g = root["gpus"]) {
    gpus_mark = g.Mark();
    if (!g.IsSequence()) throw LoadError{"gpus: must be a list", g.Mark()};
    d.gpus.clear();
    for (std::size_t i = 0; i < g.size(); ++i) {
      std::string at = "gpus[" + std::to_string(i) + "]";
      check_keys(g[i], {"index", "numa", "switch"}, at);
      GpuPosition p;
      p.index = g[i]["index"] ? get_int(g[i]["index"], 0, 63, at + ".index")
                              : static_cast<int>(i);
      if (g[i]["numa"]) p.numa_node = get_int(g[i]["numa"], 0, 15, at + ".numa");
      if (g[i]["switch"]) p.pcie_switch = get_str(g[i]["switch"], at + ".switch");
      d.gpus.push_back(p);
    }
  }
  if (const YAML::Node s = root["slots"]) {
    if (!s.IsSequence()) throw LoadError{"slots: must be a list", s.Mark()};
    d.slots.clear();
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::string at = "slots[" + std::to_string(i) + "]";
      check_keys(s[i], {"name", "gen", "lanes", "numa", "switch", "x16_extension", "power_w", "use"},
                 at);
      Slot slot;
      slot.name = s[i]["name"] ? get_str(s[i]["name"], at + ".name") : "slot" + std::to_string(i);
      if (!s[i]["gen"]) throw LoadError{at + ".gen: missing", s[i].Mark()};
      slot.gen = get_gen(s[i]["gen"], at + ".gen");
      if (!s[i]["lanes"]) throw LoadError{at + ".lanes: missing", s[i].Mark()};
      slot.lanes = get_lanes(s[i]["lanes"], at + ".lanes");
      if (s[i]["numa"]) slot.numa_node = get_int(s[i]["numa"], 0, 15, at + ".numa");
      if (s[i]["switch"]) slot.pcie_switch = get_str(s[i]["switch"], at + ".switch");
      if (s[i]["x16_extension"])
        slot.x16_extension = get_bool(s[i]["x16_extension"], at + ".x16_extension");
      if (s[i]["power_w"]) slot.power_w = get_double(s[i]["power_w"], 1, 1000, at + ".power_w");
      if (s[i]["use"])
        slot.use = get_enum<SlotUse>(s[i]["use"],
                                     {{"compute", SlotUse::compute},
                                      {"frontend", SlotUse::frontend},
                                      {"any", SlotUse::any}},
                                     at + ".use");
      d.slots.push_back(slot);
    }
  }
  if (const YAML::Node f = root["fabric"]) {
    check_keys(f, {"type", "gpu_bandwidth_gbps", "rails"}, "fabric");
    if (f["type"])
      d.fabric = get_enum<Fabric>(f["type"], {{"roce", Fabric::roce}, {"infiniband", Fabric::infiniband}},
                                  "fabric.type");
    if (f["gpu_bandwidth_gbps"]) {
      int bw = get_int(f["gpu_bandwidth_gbps"], 1, 100000, "fabric.gpu_bandwidth_gbps");
      if (bw != 100 && bw != 200 && bw != 400 && bw != 800)
        throw LoadError{"fabric.gpu_bandwidth_gbps: must be 100, 200, 400 or 800, got " +
                            std::to_string(bw),
                        f["gpu_bandwidth_gbps"].Mark()};
      d.gpu_bandwidth_gbps = bw;
    }
    if (f["rails"]) d.rails = get_int(f["rails"], 1, 64, "fabric.rails");
  }
  if (root["tenancy"])
    d.tenancy = get_enum<Tenancy>(root["tenancy"],
                                  {{"single", Tenancy::single}, {"multi-tenant", Tenancy::multi_tenant}},
                                  "tenancy");
  if (root["storage"])
    d.storage = get_enum<Storage>(
        root["storage"],
        {{"none", Storage::none}, {"nvme-of", Storage::nvme_of}, {"gds", Storage::gds}}, "storage");
  if (const YAML::Node s = root["security"]) {
    check_keys(s, {"ipsec", "tls"}, "security");
    if (s["ipsec"]) d.ipsec = get_bool(s["ipsec"], "security.ipsec");
    if (s["tls"]) d.tls = get_bool(s["tls"], "security.tls");
  }
  if (root["management_network"])
    d.management_network = get_bool(root["management_network"], "management_network");
  if (root["frontend_nics"])
    d.frontend_nics = get_int(root["frontend_nics"], 0, 16, "frontend_nics");
  if (root["nic_model"]) d.nic_model = get_str(root["nic_model"], "nic_model");

  // Whole-description checks, pointing at the section they concern.
  if (d.gpu_positions && static_cast<int>(d.gpus.size()) > *d.gpu_positions)
    throw LoadError{"gpus: " + std::to_string(d.gpus.size()) + " GPUs but " +
                        (d.key.empty() ? std::string("the description") : "preset " + d.key) +
                        " has " + std::to_string(*d.gpu_positions) + " GPU positions",
                    gpus_mark};
  std::set<int> seen;
  for (const GpuPosition& g : d.gpus)
    if (!seen.insert(g.index).second)
      throw LoadError{"gpus: GPU index " + std::to_string(g.index) + " appears twice", gpus_mark};
  (void)origin;
}

Result<Description> load(std::string_view yaml, const std::string& origin, int depth) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return unexpected(ErrorKind::malformed_input, where(origin, e.mark) + ": " + e.msg);
  }
  Description d;
  d.origin = origin;
  try {
    if (root.IsMap() && root["preset"]) {
      const YAML::Node p = root["preset"];
      std::string name = get_str(p, "preset");
      if (depth > 0) throw LoadError{"preset: a preset cannot name another preset", p.Mark()};
      std::optional<std::string_view> text = preset_text(name);
      if (!text) {
        std::string list;
        for (const std::string& n : preset_names()) list += (list.empty() ? "" : ", ") + n;
        throw LoadError{"preset: unknown preset '" + name + "' (known: " + list + ")", p.Mark()};
      }
      Result<Description> base = load(*text, "preset " + name, depth + 1);
      if (!base) return base;
      d = *base;
      d.key = name;
      d.origin = origin;
    }
    if (!root.IsMap()) throw LoadError{"description: must be a mapping", root.Mark()};
    apply(root, d, origin);
  } catch (const LoadError& e) {
    return unexpected(ErrorKind::malformed_input, where(origin, e.mark) + ": " + e.message);
  } catch (const YAML::Exception& e) {
    return unexpected(ErrorKind::malformed_input, where(origin, e.mark) + ": " + e.msg);
  }
  if (d.gpus.empty())
    return unexpected(ErrorKind::malformed_input, origin + ": gpus: no GPUs described");
  return d;
}

}  // namespace

std::vector<std::string> preset_names() {
  std::vector<std::string> out;
  for (const detail::EmbeddedPreset& p : detail::builtin_presets()) out.emplace_back(p.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::string_view> preset_text(std::string_view name) {
  for (const detail::EmbeddedPreset& p : detail::builtin_presets())
    if (p.name == name) return p.yaml;
  return std::nullopt;
}

Result<Description> load_preset(std::string_view name) {
  std::optional<std::string_view> text = preset_text(name);
  if (!text) {
    std::string list;
    for (const std::string& n : preset_names()) list += (list.empty() ? "" : ", ") + n;
    return unexpected(ErrorKind::not_found, "unknown preset (known: " + list + ")",
                      std::string(name));
  }
  Result<Description> d = load(*text, "preset " + std::string(name), 1);
  if (d) d->key = std::string(name);
  return d;
}

Result<Description> load_description_text(std::string_view yaml, const std::string& origin) {
  Result<Description> d = load(yaml, origin, 0);
  if (d && d->key.empty()) {
    std::string stem = origin;
    if (std::size_t slash = stem.find_last_of('/'); slash != std::string::npos)
      stem = stem.substr(slash + 1);
    if (std::size_t dot = stem.find('.'); dot != std::string::npos) stem = stem.substr(0, dot);
    d->key = stem;
  }
  return d;
}

Result<Description> load_description_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(ErrorKind::io, "cannot open description", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return load_description_text(ss.str(), path);
}

}  // namespace rk::select

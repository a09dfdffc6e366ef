#include "rocekit/model/json.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/model/bluefield.hpp"
#include "rocekit/model/validate.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>
#include <vector>
#include <sstream>

namespace rk {

void throw_bad_enum(const nlohmann::json& j, std::string_view what) {
  throw nlohmann::detail::type_error::create(
      302, "expected " + std::string(what) + ", got " + j.dump(), &j);
}

namespace {
/// The value as the error shows it: its JSON, cut after 60 characters.
std::string shown(const nlohmann::json& j) {
  std::string d = j.dump();
  if (d.size() > 60) d = d.substr(0, 57) + "...";
  return d;
}
}  // namespace

void throw_bad_integer(const nlohmann::json& j, long long min, unsigned long long max) {
  if (!j.is_number_integer()) throw nlohmann::detail::type_error::create(302, "expected an integer, got " + shown(j), &j);
  throw nlohmann::detail::out_of_range::create(
      406, j.dump() + " is out of range for this field (" + std::to_string(min) + ".." + std::to_string(max) + ")", &j);
}

void throw_bad_type(const nlohmann::json& j, std::string_view want) {
  throw nlohmann::detail::type_error::create(302, "expected " + std::string(want) + ", got " + shown(j), &j);
}

nlohmann::json snapshot_to_json(const Snapshot& s) {
  nlohmann::json j;
  j["schema_version"] = s.schema_version;
  j["tool_version"] = s.tool_version;
  j["collected_at"] = s.collected_at;
  j["hostname"] = s.hostname;
  j["source"] = s.source;
  j["netdevs"] = s.netdevs;
  j["rdma_devices"] = s.rdma_devices;
  j["pci_functions"] = s.pci_functions;
  j["pci_bridges"] = s.pci_bridges;
  j["gpus"] = s.gpus;
  j["gpudirect"] = s.gpudirect;
  j["nvidia_driver"] = s.nvidia_driver;
  j["kernel_release"] = s.kernel_release;
  j["driver_stack"] = s.driver_stack;
  j["iommu"] = s.iommu;
  j["kernel_modules"] = s.kernel_modules;
  j["numa_cpu_count"] = s.numa_cpu_count;
  j["persistence"] = s.persistence;
  j["app_settings"] = s.app_settings;
  j["nccl_run"] = s.nccl_run;
  j["memory"] = s.memory;
  j["doca_hugepages"] = s.doca_hugepages;
  j["static_pods"] = s.static_pods;
  j["tool_runs"] = s.tool_runs;
  j["inputs"] = s.inputs;
  j["notes"] = s.notes;
  if (!s.unplaced_firmware.empty()) j["unplaced_firmware"] = s.unplaced_firmware;
  return j;
}

namespace {
/// Finds a floating-point value no snapshot field can hold (non-finite or beyond 1e9): such a
/// value converted to an integer field would be undefined behaviour. Returns its JSON pointer.
std::optional<std::string> bad_float(const nlohmann::json& j, const std::string& where) {
  if (j.is_number_float()) {
    double v = j.get<double>();
    if (!(v > -1e9 && v < 1e9)) return where.empty() ? "/" : where;
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (auto b = bad_float(it.value(), where + "/" + it.key())) return b;
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      if (auto b = bad_float(j[i], where + "/" + std::to_string(i))) return b;
  }
  return std::nullopt;
}
}  // namespace

Result<Snapshot> finish_snapshot_from_json(Snapshot s) {
  // Before schema 7 the mode was not written: derive it from the NV configuration read back.
  if (s.schema_version < 7)
    for (PciFunction& p : s.pci_functions) p.bluefield_mode = bluefield_mode_of(p);
  // Schema 8 added the memory and DOCA service sections: an older snapshot says why they are empty.
  if (s.schema_version < 8) {
    const std::string why = "not in this snapshot: written before schema 8 (rocekit collect or capture again)";
    if (!s.memory.has_value() && s.memory.reason.empty()) s.memory.set_missing(why, ReasonKind::not_captured);
    if (!s.doca_hugepages.has_value() && s.doca_hugepages.reason.empty())
      s.doca_hugepages.set_missing(why, ReasonKind::not_captured);
    if (!s.static_pods.has_value() && s.static_pods.reason.empty()) s.static_pods.set_missing(why, ReasonKind::not_captured);
  }
  if (std::optional<std::string> bad = validate_snapshot(s)) return unexpected(ErrorKind::malformed_input, *bad);
  return s;
}

bool skipped_without_counters_and_evidence(std::string_view key, int depth) {
  if (key == "stats" || key == "counters") return true;
  return depth > 1 && (key == "source" || key == "trust_source" || key == "dscp_source" || key == "pfc_source" ||
                       key == "mtu_source");
}

Result<Snapshot> snapshot_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("schema_version"))
    return unexpected(ErrorKind::malformed_input, "not a rocekit snapshot (no schema_version)");
  if (!j.at("schema_version").is_number_integer())
    return unexpected(ErrorKind::malformed_input, "schema_version must be an integer");
  if (auto where = bad_float(j, ""))
    return unexpected(ErrorKind::malformed_input, "number out of range at " + *where);
  int version = j.at("schema_version").get<int>();
  if (version > k_snapshot_schema_version || version < 1)
    return unexpected(ErrorKind::unsupported,
                      "snapshot schema_version " + std::to_string(version) +
                          " is not supported by this rocekit (supports 1.." +
                          std::to_string(k_snapshot_schema_version) + ")");
  try {
    Snapshot s;
    s.schema_version = version;
#define RK_READ_TOP(f) \
  if (j.contains(#f)) read_json(j.at(#f), s.f);
    RK_SNAPSHOT_TOP_FIELDS(RK_READ_TOP)
#undef RK_READ_TOP
    return finish_snapshot_from_json(std::move(s));
  } catch (const nlohmann::json::exception& e) {
    return unexpected(ErrorKind::malformed_input, "bad snapshot field: " + text::json_error_message(e.what()));
  }
}

namespace {
/// The objects and arrays open while parsing, for the JSON pointer of a repeated key: each with
/// its place in its parent ("netdevs", "0"), its keys so far (an object) or its next index.
struct OpenValue {
  std::string at;
  bool array = false;
  std::size_t next = 0;
  std::string key;  // the object's last key
  std::set<std::string> keys;
  bool dropped = false;      // inside a value the parse drops (without_counters_and_evidence)
  bool key_dropped = false;  // the value of `key` is dropped
};

std::string pointer_of(const std::vector<OpenValue>& open) {
  std::string p;
  for (std::size_t i = 1; i < open.size(); ++i) p += "/" + open[i].at;
  return p.empty() ? "/" : p;
}
}  // namespace

Result<Snapshot> snapshot_from_json_text(std::string_view text, bool without_counters_and_evidence,
                                         const std::string& file) {
  std::vector<OpenValue> open;
  std::vector<std::string> repeated;
  using Event = nlohmann::json::parse_event_t;
  // The place of a value that starts now in the innermost open object or array.
  auto place = [&open]() -> std::string {
    if (open.empty()) return {};
    OpenValue& parent = open.back();
    return parent.array ? std::to_string(parent.next++) : parent.key;
  };
  auto callback = [&](int depth, Event event, nlohmann::json& parsed) {
    // `depth` is the number of objects and arrays open (nlohmann's json_sax_dom_callback_parser
    // ref_stack), also inside a dropped value, where nlohmann calls no *_end or value callback.
    if (depth >= 0 && open.size() > static_cast<std::size_t>(depth)) open.resize(static_cast<std::size_t>(depth));
    switch (event) {
      case Event::object_start:
      case Event::array_start: {
        bool dropped = !open.empty() && (open.back().dropped || (!open.back().array && open.back().key_dropped));
        open.push_back({place(), event == Event::array_start, 0, {}, {}, dropped, false});
        return true;
      }
      case Event::object_end:
      case Event::array_end:
        return true;
      case Event::value:
        if (!open.empty() && open.back().array) ++open.back().next;
        return true;
      case Event::key:
        break;
    }
    const std::string& key = parsed.get_ref<const std::string&>();
    const bool keep = !without_counters_and_evidence || !skipped_without_counters_and_evidence(key, depth);
    if (!open.empty() && !open.back().dropped) {  // what is dropped is not read: no warning
      open.back().key = key;
      open.back().key_dropped = !keep;
      if (!open.back().keys.insert(key).second)
        repeated.push_back("key \"" + key + "\" appears twice in " + pointer_of(open) + ": the last one is used");
    }
    return keep;
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text, callback);
  } catch (const nlohmann::json::parse_error& e) {
    std::size_t at = std::min<std::size_t>(e.byte ? e.byte - 1 : 0, text.size());
    std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    std::size_t nl = text.rfind('\n', at ? at - 1 : 0);
    std::size_t column = nl == std::string_view::npos || at == 0 ? at + 1 : at - nl;
    return unexpected(ErrorKind::malformed_input,
                      "not valid JSON at line " + std::to_string(line) + ", column " + std::to_string(column));
  }
  Result<Snapshot> s = snapshot_from_json(j);
  if (s && !repeated.empty()) {
    const std::string name = file.empty() ? "snapshot" : file;
    InputFile in{name, "snapshot", "", "parsed_with_warnings", {}};
    for (const std::string& r : repeated) in.messages.push_back(name + ": " + r);
    s->inputs.push_back(std::move(in));
  }
  return s;
}

Result<Snapshot> load_snapshot_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(ErrorKind::io, "cannot open", path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  Result<Snapshot> r = snapshot_from_json_text(ss.str(), false, path.string());
  if (!r) return unexpected(r.error().kind, r.error().message, path.string());
  return r;
}

}  // namespace rk

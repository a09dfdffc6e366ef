#include "rocekit/catalog/catalog.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "rocekit/catalog/catalog_data.hpp"
#include "rocekit/core/text.hpp"

namespace rk::catalog {
namespace {

using nlohmann::json;

constexpr std::string_view k_schema = "nic-catalog/1";

// ---------------------------------------------------------------------------------------------
// JSON reading with positions. The first problem is kept; later reads become no-ops returning
// defaults, so the parse functions stay linear and exception-free.

class Reader {
 public:
  explicit Reader(std::string origin) : m_origin(std::move(origin)) {}

  bool failed() const { return m_error.has_value(); }
  Error error() const { return *m_error; }

  void fail(const std::string& pointer, const std::string& message) {
    if (m_error) return;
    m_error = Error{ErrorKind::malformed_input, "at " + (pointer.empty() ? "/" : pointer) + ": " +
                                                    message,
                    m_origin};
  }

  // nullptr when missing or null; fails when required.
  const json* member(const json& obj, const std::string& at, const char* key, bool required) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) {
      if (required) fail(at + "/" + key, "missing required value");
      return nullptr;
    }
    return &*it;
  }

  std::optional<std::string> opt_string(const json& obj, const std::string& at, const char* key,
                                        bool required = false) {
    const json* v = member(obj, at, key, required);
    if (!v) return std::nullopt;
    if (!v->is_string()) {
      fail(at + "/" + key, "expected a string");
      return std::nullopt;
    }
    return v->get<std::string>();
  }

  std::string string(const json& obj, const std::string& at, const char* key) {
    return opt_string(obj, at, key, true).value_or("");
  }

  std::optional<double> opt_number(const json& obj, const std::string& at, const char* key) {
    const json* v = member(obj, at, key, false);
    if (!v) return std::nullopt;
    if (!v->is_number()) {
      fail(at + "/" + key, "expected a number or null");
      return std::nullopt;
    }
    return v->get<double>();
  }

  std::optional<int> opt_int(const json& obj, const std::string& at, const char* key) {
    const json* v = member(obj, at, key, false);
    if (!v) return std::nullopt;
    if (!v->is_number_integer()) {
      fail(at + "/" + key, "expected an integer or null");
      return std::nullopt;
    }
    return v->get<int>();
  }

  std::optional<bool> opt_bool(const json& obj, const std::string& at, const char* key) {
    const json* v = member(obj, at, key, false);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) {
      fail(at + "/" + key, "expected true, false or null");
      return std::nullopt;
    }
    return v->get<bool>();
  }

  std::optional<std::uint16_t> hex16(const json& value, const std::string& at) {
    if (value.is_string()) {
      std::string s = value.get<std::string>();
      if (text::starts_with(s, "0x") || text::starts_with(s, "0X")) {
        auto v = text::parse_hex(s);
        if (v && *v <= 0xffff) return static_cast<std::uint16_t>(*v);
      }
    }
    fail(at, "expected a 16-bit hex string like \"0x1021\"");
    return std::nullopt;
  }

  std::optional<std::uint16_t> opt_hex16(const json& obj, const std::string& at, const char* key,
                                         bool required = false) {
    const json* v = member(obj, at, key, required);
    if (!v) return std::nullopt;
    return hex16(*v, at + "/" + key);
  }

  const json* opt_array(const json& obj, const std::string& at, const char* key,
                        bool required = false) {
    const json* v = member(obj, at, key, required);
    if (v && !v->is_array()) {
      fail(at + "/" + key, "expected an array");
      return nullptr;
    }
    return v;
  }

  std::vector<std::string> strings(const json& obj, const std::string& at, const char* key) {
    std::vector<std::string> out;
    const json* arr = opt_array(obj, at, key);
    if (!arr) return out;
    for (std::size_t i = 0; i < arr->size(); ++i) {
      if (!(*arr)[i].is_string()) {
        fail(at + "/" + key + "/" + std::to_string(i), "expected a string");
        return out;
      }
      out.push_back((*arr)[i].get<std::string>());
    }
    return out;
  }

  template <class T>
  std::vector<T> numbers(const json& obj, const std::string& at, const char* key) {
    std::vector<T> out;
    const json* arr = opt_array(obj, at, key);
    if (!arr) return out;
    for (std::size_t i = 0; i < arr->size(); ++i) {
      const json& v = (*arr)[i];
      if (!v.is_number() || (std::is_integral_v<T> && !v.is_number_integer())) {
        fail(at + "/" + key + "/" + std::to_string(i), "expected a number");
        return out;
      }
      out.push_back(v.get<T>());
    }
    return out;
  }

 private:
  std::string m_origin;
  std::optional<Error> m_error;
};

std::optional<NicKind> kind_from_string(std::string_view s) {
  if (s == "nic") return NicKind::nic;
  if (s == "dpu") return NicKind::dpu;
  if (s == "supernic") return NicKind::supernic;
  return std::nullopt;
}

PortOption read_port_option(Reader& r, const json& j, const std::string& at) {
  PortOption p;
  if (!j.is_object()) {
    r.fail(at, "expected an object");
    return p;
  }
  p.port_count = r.opt_int(j, at, "ports");
  p.speed_gbps = r.opt_number(j, at, "gbps");
  p.connector = r.opt_string(j, at, "connector").value_or("");
  p.protocols = r.strings(j, at, "protocols");
  p.sku = r.opt_string(j, at, "sku");
  p.note = r.opt_string(j, at, "note");
  return p;
}

NicModel read_model(Reader& r, const json& j, const std::string& at) {
  NicModel m;
  if (!j.is_object()) {
    r.fail(at, "expected an object");
    return m;
  }
  m.key = r.string(j, at, "key");
  m.name = r.string(j, at, "name");
  m.family = r.string(j, at, "family");
  std::string kind = r.string(j, at, "kind");
  if (!r.failed()) {
    if (auto k = kind_from_string(kind)) {
      m.kind = *k;
    } else {
      r.fail(at + "/kind", "expected \"nic\", \"dpu\" or \"supernic\", got \"" + kind + "\"");
    }
  }
  m.pci_vendor_id = r.opt_hex16(j, at, "vendor_id").value_or(0x15b3);
  m.pci_device_id = r.opt_hex16(j, at, "device_id", true).value_or(0);
  m.vf_device_id = r.opt_hex16(j, at, "vf_device_id");
  m.pcie_bridge_device_id = r.opt_hex16(j, at, "pcie_bridge_device_id");
  if (const json* rec = r.opt_array(j, at, "flash_recovery")) {
    for (std::size_t i = 0; i < rec->size(); ++i) {
      const std::string rat = at + "/flash_recovery/" + std::to_string(i);
      const json& e = (*rec)[i];
      if (!e.is_object()) {
        r.fail(rat, "expected an object {\"device_id\", \"secure\"}");
        break;
      }
      FlashRecoveryId id;
      id.device_id = r.opt_hex16(e, rat, "device_id", true).value_or(0);
      id.secure = r.opt_bool(e, rat, "secure").value_or(false);
      m.flash_recovery.push_back(id);
    }
  }
  m.mst_name = r.opt_string(j, at, "mst_name");
  m.fw_major = r.opt_int(j, at, "fw_major");
  m.max_port_gbps = r.opt_number(j, at, "max_port_gbps");
  if (const json* opts = r.opt_array(j, at, "port_options")) {
    for (std::size_t i = 0; i < opts->size(); ++i) {
      m.port_options.push_back(
          read_port_option(r, (*opts)[i], at + "/port_options/" + std::to_string(i)));
    }
  }
  m.pcie_gen = r.opt_int(j, at, "pcie_gen");
  m.pcie_gen_supported = r.numbers<int>(j, at, "pcie_gen_supported");
  m.pcie_lanes = r.opt_int(j, at, "pcie_lanes");
  m.integrated_pcie_switch = r.opt_bool(j, at, "integrated_pcie_switch");
  if (const json* o = r.member(j, at, "options", false)) {
    if (o->is_object()) {
      m.options.socket_direct = r.opt_bool(*o, at + "/options", "socket_direct");
      m.options.multi_host = r.opt_bool(*o, at + "/options", "multi_host");
      m.options.x16_extension = r.opt_bool(*o, at + "/options", "x16_extension");
    } else {
      r.fail(at + "/options", "expected an object");
    }
  }
  m.ib_gens = r.strings(j, at, "ib_gen");
  m.eth_speeds_gbps = r.numbers<double>(j, at, "eth_speeds_gbps");
  m.features = r.strings(j, at, "features");
  m.features_secondary = r.strings(j, at, "features_secondary");
  m.features_unverified = r.strings(j, at, "features_unverified");
  m.features_not_supported = r.strings(j, at, "features_not_supported");
  m.arm_cores = r.opt_int(j, at, "arm_cores");
  m.arm_core_type = r.opt_string(j, at, "arm_core_type");
  m.dram_gb = r.opt_number(j, at, "dram_gb");
  m.typical_power_w = r.opt_number(j, at, "typical_power_w");
  m.notes = r.opt_string(j, at, "notes");
  m.sources = r.strings(j, at, "sources");
  return m;
}

PartNumber read_part(Reader& r, const json& j, const std::string& at) {
  PartNumber p;
  if (!j.is_object()) {
    r.fail(at, "expected an object");
    return p;
  }
  p.opn = r.string(j, at, "opn");
  p.model_key = r.string(j, at, "model");
  p.oem = r.opt_string(j, at, "oem");
  p.port_count = r.opt_int(j, at, "ports");
  p.speed_gbps = r.opt_number(j, at, "speed_gbps");
  p.ib_speed_gbps = r.opt_number(j, at, "ib_speed_gbps");
  p.pcie_gen = r.opt_int(j, at, "pcie_gen");
  p.pcie_lanes = r.opt_int(j, at, "pcie_lanes");
  p.description = r.opt_string(j, at, "description").value_or("");
  p.psids = r.strings(j, at, "psids");
  p.aliases = r.strings(j, at, "aliases");
  p.note = r.opt_string(j, at, "note");
  p.sources = r.strings(j, at, "sources");
  return p;
}

// Line and column (1-based) of byte offset `pos` in `s`.
std::pair<std::size_t, std::size_t> line_col(std::string_view s, std::size_t pos) {
  std::size_t line = 1;
  std::size_t col = 1;
  for (std::size_t i = 0; i < pos && i < s.size(); ++i) {
    if (s[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

std::string to_upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

bool is_upper_alpha(char c) { return c >= 'A' && c <= 'Z'; }

// `a` and `b` (normalised) name the same orderable part: equal, or one is the other plus a single
// trailing bracket/packaging letter ("MCX4121A-ACA" vs "MCX4121A-ACAT"). Only for dashed OPNs.
bool same_part(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const std::string& shorter = a.size() < b.size() ? a : b;
  const std::string& longer = a.size() < b.size() ? b : a;
  return longer.size() == shorter.size() + 1 && shorter.find('-') != std::string::npos &&
         longer.starts_with(shorter) && is_upper_alpha(longer.back());
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::string_view to_string(NicKind kind) {
  switch (kind) {
    case NicKind::nic: return "nic";
    case NicKind::dpu: return "dpu";
    case NicKind::supernic: return "supernic";
  }
  return "unknown";
}

std::string_view to_string(PciFunction function) {
  switch (function) {
    case PciFunction::physical: return "physical";
    case PciFunction::virtual_function: return "virtual_function";
    case PciFunction::flash_recovery: return "flash_recovery";
    case PciFunction::bridge: return "bridge";
  }
  return "unknown";
}

double PortSpeeds::line_rate_gbps() const {
  return std::max(eth_speed_gbps.value_or(0.0), ib_speed_gbps.value_or(0.0));
}

double PortSpeeds::total_gbps() const { return port_count * line_rate_gbps(); }

std::string normalize_part_number(std::string_view part_number) {
  std::string s = to_upper(text::trim(part_number));
  // Firmware-level names end in a board revision wildcard: "_Ax", "_A1".
  if (s.size() > 3 && s[s.size() - 3] == '_' && s[s.size() - 2] == 'A') s.resize(s.size() - 3);
  return s;
}

// ---------------------------------------------------------------------------------------------

Result<Catalog> Catalog::load_text(std::string_view json_text, std::string_view origin) {
  json doc;
  try {
    doc = json::parse(json_text.begin(), json_text.end());
  } catch (const json::parse_error& e) {
    // nlohmann reports the 1-based byte offset of the last byte it read.
    auto [line, col] = line_col(json_text, e.byte == 0 ? 0 : e.byte - 1);
    return unexpected(ErrorKind::malformed_input,
                      "syntax error at line " + std::to_string(line) + ", column " +
                          std::to_string(col) + ": not valid JSON",
                      std::string(origin));
  } catch (const json::exception& e) {
    // e.g. out_of_range.406: a number too large for a double ("1e400").
    return unexpected(ErrorKind::malformed_input, "not usable JSON: " + text::json_error_message(e.what()),
                      std::string(origin));
  }
  Reader r{std::string(origin)};
  if (!doc.is_object()) {
    r.fail("", "expected a JSON object");
    return unexpected(r.error());
  }
  auto schema = r.opt_string(doc, "", "schema", true);
  if (schema && *schema != k_schema) {
    r.fail("/schema", "expected \"" + std::string(k_schema) + "\", got \"" + *schema + "\"");
  }
  Catalog c;
  if (const json* nics = r.opt_array(doc, "", "nics", true)) {
    for (std::size_t i = 0; i < nics->size() && !r.failed(); ++i) {
      c.m_models.push_back(read_model(r, (*nics)[i], "/nics/" + std::to_string(i)));
    }
  }
  if (const json* parts = r.opt_array(doc, "", "parts")) {
    for (std::size_t i = 0; i < parts->size() && !r.failed(); ++i) {
      c.m_parts.push_back(read_part(r, (*parts)[i], "/parts/" + std::to_string(i)));
    }
  }
  if (r.failed()) return unexpected(r.error());
  std::set<std::string> keys;
  for (std::size_t i = 0; i < c.m_models.size(); ++i) {
    if (!keys.insert(c.m_models[i].key).second) {
      r.fail("/nics/" + std::to_string(i) + "/key",
             "duplicate model key \"" + c.m_models[i].key + "\"");
      return unexpected(r.error());
    }
  }
  return c;
}

Result<Catalog> Catalog::load_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(ErrorKind::io, "cannot open catalog file", path.string());
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return unexpected(ErrorKind::io, "cannot read catalog file", path.string());
  return load_text(buf.str(), path.string());
}

const Catalog& Catalog::builtin() {
  static const Catalog k_builtin = [] {
    auto c = load_text(detail::builtin_catalog_json(), "data/catalog.json (embedded)");
    if (!c) throw std::logic_error("embedded catalog is invalid: " + c.error().describe());
    return std::move(c).value();
  }();
  return k_builtin;
}

Result<Catalog> Catalog::load_builtin() { return builtin(); }

void Catalog::merge(const Catalog& overlay) {
  for (const NicModel& m : overlay.m_models) {
    auto it = std::find_if(m_models.begin(), m_models.end(),
                           [&](const NicModel& x) { return x.key == m.key; });
    if (it != m_models.end()) {
      *it = m;
    } else {
      m_models.push_back(m);
    }
  }
  for (const PartNumber& p : overlay.m_parts) {
    const std::string opn = normalize_part_number(p.opn);
    auto it = std::find_if(m_parts.begin(), m_parts.end(), [&](const PartNumber& x) {
      return normalize_part_number(x.opn) == opn;
    });
    if (it != m_parts.end()) {
      *it = p;
    } else {
      m_parts.push_back(p);
    }
  }
}

const NicModel* Catalog::find_by_key(std::string_view key) const {
  for (const NicModel& m : m_models) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

std::optional<DeviceMatch> Catalog::find_by_pci_device_id(std::uint16_t device_id) const {
  // A PF ID wins over any other role; a recovery ID is never a PF ID.
  const PciFunction order[] = {PciFunction::physical, PciFunction::flash_recovery,
                               PciFunction::virtual_function, PciFunction::bridge};
  for (PciFunction role : order) {
    DeviceMatch match{role, device_id, false, {}};
    for (const NicModel& m : m_models) {
      bool hit = false;
      switch (role) {
        case PciFunction::physical: hit = m.pci_device_id == device_id; break;
        case PciFunction::virtual_function: hit = m.vf_device_id == device_id; break;
        case PciFunction::bridge: hit = m.pcie_bridge_device_id == device_id; break;
        case PciFunction::flash_recovery:
          for (const FlashRecoveryId& id : m.flash_recovery) {
            if (id.device_id == device_id) {
              hit = true;
              match.secure_recovery = id.secure;
            }
          }
          break;
      }
      if (hit) match.candidates.push_back(&m);
    }
    if (!match.candidates.empty()) return match;
  }
  return std::nullopt;
}

std::optional<DeviceMatch> Catalog::recovery(std::uint16_t device_id) const {
  auto match = find_by_pci_device_id(device_id);
  if (!match || match->function != PciFunction::flash_recovery) return std::nullopt;
  return match;
}

bool Catalog::is_flash_recovery_id(std::uint16_t device_id) const {
  return recovery(device_id).has_value();
}

namespace {

Result<PartMatch> resolve(const Catalog& c, const std::vector<const PartNumber*>& hits,
                          std::string_view query, std::string_view what) {
  if (hits.empty()) {
    return unexpected(ErrorKind::not_found,
                      std::string(what) + " \"" + std::string(query) + "\" is not in the catalog");
  }
  const NicModel* model = c.find_by_key(hits.front()->model_key);
  for (const PartNumber* p : hits) {
    if (p->model_key != hits.front()->model_key) {
      std::string names;
      for (const PartNumber* q : hits) names += (names.empty() ? "" : ", ") + q->opn;
      return unexpected(ErrorKind::malformed_input, std::string(what) + " \"" +
                                                        std::string(query) +
                                                        "\" is ambiguous: " + names);
    }
  }
  if (!model) {
    return unexpected(ErrorKind::not_found, "part " + hits.front()->opn +
                                                " refers to unknown model \"" +
                                                hits.front()->model_key + "\"");
  }
  return PartMatch{hits.size() == 1 ? hits.front() : nullptr, model};
}

}  // namespace

Result<PartMatch> Catalog::find_by_part_number(std::string_view part_number) const {
  const std::string q = normalize_part_number(part_number);
  if (q.empty()) return unexpected(ErrorKind::not_found, "empty part number");
  std::vector<const PartNumber*> hits;
  for (const PartNumber& p : m_parts) {
    bool hit = same_part(normalize_part_number(p.opn), q);
    for (const std::string& alias : p.aliases) hit = hit || same_part(normalize_part_number(alias), q);
    if (hit) hits.push_back(&p);
  }
  if (hits.size() > 1) {
    return resolve(*this, hits, part_number, "part number");  // same model, or ambiguous
  }
  if (hits.empty() && q.find('-') == std::string::npos) {
    // An OPN base ("MCX4121A"): every part "MCX4121A-..." must agree on the model.
    for (const PartNumber& p : m_parts) {
      if (normalize_part_number(p.opn).starts_with(q + "-")) hits.push_back(&p);
    }
    auto r = resolve(*this, hits, part_number, "part number");
    if (r && hits.size() == 1) return PartMatch{nullptr, r->model};  // a base, not the OPN
    return r;
  }
  return resolve(*this, hits, part_number, "part number");
}

Result<PartMatch> Catalog::find_by_psid(std::string_view psid) const {
  const std::string q = to_upper(text::trim(psid));
  std::vector<const PartNumber*> hits;
  for (const PartNumber& p : m_parts) {
    for (const std::string& s : p.psids) {
      if (to_upper(s) == q) {
        hits.push_back(&p);
        break;
      }
    }
  }
  return resolve(*this, hits, psid, "PSID");
}

// ---------------------------------------------------------------------------------------------
// Descriptions.

namespace {

std::optional<double> ib_rate_gbps(const std::string& gen) {
  // Per-port 4x rates: IBTA generations as NVIDIA names them (catalog.md 2.1 InfiniBand gens).
  if (gen == "sdr") return 10;
  if (gen == "ddr") return 20;
  if (gen == "qdr") return 40;
  if (gen == "fdr10") return 40;
  if (gen == "fdr") return 56;
  if (gen == "edr") return 100;
  if (gen == "hdr100") return 100;
  if (gen == "hdr") return 200;
  if (gen == "ndr200") return 200;
  if (gen == "ndr") return 400;
  if (gen == "xdr") return 800;
  return std::nullopt;
}

int port_word(const std::string& w) {
  if (w == "single" || w == "one" || w == "1") return 1;
  if (w == "dual" || w == "two" || w == "2") return 2;
  if (w == "quad" || w == "four" || w == "4") return 4;
  return std::stoi(w);
}

// Largest value of "10/25" or "100".
double max_of_slash_list(const std::string& s) {
  double best = 0;
  for (std::string_view part : text::split(s, '/')) {
    if (auto v = text::parse_double(part)) best = std::max(best, *v);
  }
  return best;
}

std::string join(const std::set<double>& values) {
  std::string out;
  for (double v : values) {
    std::ostringstream os;
    os << v;
    out += (out.empty() ? "" : " and ") + os.str();
  }
  return out;
}

}  // namespace

Result<PortSpeeds> port_speeds_from_text(std::string_view description) {
  const std::string s = text::to_lower(description);
  if (text::trim(s).empty()) return unexpected(ErrorKind::not_found, "empty description");

  // Boundaries are written as (^|[^a-z0-9...]) because std::regex has no look-behind.
  static const std::regex k_nxs(R"((?:^|[^a-z0-9.])([1-8])\s*x\s*(\d+)\s*g(?:b|be|bps)?(?![a-z0-9]))");
  static const std::regex k_eth(
      R"((?:^|[^a-z0-9.])(\d+(?:\.\d+)?(?:\s*/\s*\d+(?:\.\d+)?)*)\s*(?:gbe|gige|gb ethernet|gbps ethernet)(?![a-z0-9]))");
  static const std::regex k_ib(
      R"((?:^|[^a-z0-9])(sdr|ddr|qdr|fdr10|fdr|edr|hdr100|hdr|ndr200|ndr|xdr)(?![a-z0-9]))");
  static const std::regex k_port_word(
      R"((?:^|[^a-z0-9])(single|dual|quad|one|two|four|[1-8])[\s-]*ports?(?![a-z]))");
  static const std::regex k_port_p(R"((?:^|[^a-z0-9.\-])([1-8])p(?![a-z0-9]))");

  std::set<int> counts;
  std::set<double> eth;
  std::set<double> ib;
  auto each = [&s](const std::regex& re, auto&& fn) {
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator();
         ++it) {
      fn(*it);
    }
  };
  each(k_nxs, [&](const std::smatch& m) {
    counts.insert(std::stoi(m[1].str()));
    eth.insert(std::stod(m[2].str()));
  });
  each(k_eth, [&](const std::smatch& m) { eth.insert(max_of_slash_list(m[1].str())); });
  each(k_ib, [&](const std::smatch& m) { ib.insert(*ib_rate_gbps(m[1].str())); });
  each(k_port_word, [&](const std::smatch& m) { counts.insert(port_word(m[1].str())); });
  each(k_port_p, [&](const std::smatch& m) { counts.insert(std::stoi(m[1].str())); });

  const std::string quoted = "\"" + std::string(text::trim(description)) + "\"";
  if (counts.empty()) {
    return unexpected(ErrorKind::not_found, "no port count in description " + quoted);
  }
  if (counts.size() > 1) {
    return unexpected(ErrorKind::malformed_input,
                      "conflicting port counts in description " + quoted);
  }
  if (eth.empty() && ib.empty()) {
    return unexpected(ErrorKind::not_found, "no port speed in description " + quoted);
  }
  if (eth.size() > 1) {
    return unexpected(ErrorKind::malformed_input,
                      "conflicting Ethernet speeds " + join(eth) + " Gb/s in " + quoted);
  }
  if (ib.size() > 1) {
    return unexpected(ErrorKind::malformed_input,
                      "conflicting InfiniBand rates " + join(ib) + " Gb/s in " + quoted);
  }
  PortSpeeds out;
  out.port_count = *counts.begin();
  if (!eth.empty()) out.eth_speed_gbps = *eth.begin();
  if (!ib.empty()) out.ib_speed_gbps = *ib.begin();
  return out;
}

}  // namespace rk::catalog

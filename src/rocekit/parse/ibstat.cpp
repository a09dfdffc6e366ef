#include "rocekit/parse/ibstat.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

std::optional<std::uint32_t> u32(std::string_view s, bool hex = false) {
  std::optional<std::uint64_t> v = hex ? text::parse_hex(s) : text::parse_uint(s);
  if (!v || *v > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

std::optional<std::string> ca_name(std::string_view t) {
  if (!t.starts_with("CA '") || !t.ends_with('\'') || t.size() < 6) return std::nullopt;
  return std::string(t.substr(4, t.size() - 5));
}

}  // namespace

Result<Parsed<Ibstat>> parse_ibstat(std::string_view text) {
  if (text::looks_binary(text)) return unexpected(ErrorKind::malformed_input, "binary input");
  Parsed<Ibstat> out;
  IbstatPort* port = nullptr;
  std::vector<std::string_view> ls = text::lines(text);
  for (std::size_t li = 0; li < ls.size(); ++li) {
    std::size_t line = li + 1;
    std::string_view t = text::trim(ls[li]);
    if (t.empty()) continue;
    if (std::optional<std::string> name = ca_name(t)) {
      out.value.cas.push_back(IbstatCa{});
      out.value.cas.back().ca_name = *name;
      port = nullptr;
      continue;
    }
    if (out.value.cas.empty()) {
      out.warnings.push_back({line, "unrecognised_line", "text before the first CA line"});
      continue;
    }
    IbstatCa& ca = out.value.cas.back();
    std::size_t colon = t.find(':');
    if (colon == std::string_view::npos) {
      out.warnings.push_back({line, "unrecognised_line", "not a 'Key: value' line"});
      continue;
    }
    std::string key(text::trim(t.substr(0, colon)));
    std::string_view val = text::trim(t.substr(colon + 1));
    if (key.starts_with("Port ") && val.empty()) {
      std::optional<std::uint32_t> n = u32(std::string_view(key).substr(5));
      if (n) {
        ca.ports.push_back(IbstatPort{});
        port = &ca.ports.back();
        port->port = *n;
        continue;
      }
    }
    bool ok = true;
    if (port != nullptr) {
      if (key == "State") {
        port->state = port_state_from_text(val);
        ok = port->state.has_value();
      } else if (key == "Physical state") {
        port->physical_state = phys_state_from_text(val);
        ok = port->physical_state.has_value();
      } else if (key == "Rate") {
        port->rate_gbps = text::parse_double(val);
        ok = port->rate_gbps.has_value();
      } else if (key == "Base lid") {
        port->base_lid = u32(val);
        ok = port->base_lid.has_value();
      } else if (key == "LMC") {
        port->lmc = u32(val);
        ok = port->lmc.has_value();
      } else if (key == "SM lid") {
        port->sm_lid = u32(val);
        ok = port->sm_lid.has_value();
      } else if (key == "Capability mask") {
        port->capability_mask = u32(val, true);
        ok = port->capability_mask.has_value();
      } else if (key == "Port GUID") {
        port->port_guid = std::string(val);
      } else if (key == "Link layer") {
        port->link_layer = link_layer_from_text(val);
        ok = port->link_layer.has_value();
      } else {
        port->attributes[key] = std::string(val);
      }
    } else if (key == "CA type") {
      ca.ca_type = std::string(val);
    } else if (key == "Number of ports") {
      ca.number_of_ports = u32(val);
      ok = ca.number_of_ports.has_value();
    } else if (key == "Firmware version") {
      ca.firmware_version = std::string(val);
    } else if (key == "Hardware version") {
      ca.hardware_version = std::string(val);
    } else if (key == "Node GUID") {
      ca.node_guid = std::string(val);
    } else if (key == "System image GUID") {
      ca.system_image_guid = std::string(val);
    } else {
      ca.attributes[key] = std::string(val);
    }
    if (!ok) {
      out.warnings.push_back(
          {line, "bad_value", "bad value '" + std::string(val) + "' for " + key});
    }
  }
  if (out.value.cas.empty()) return unexpected(ErrorKind::malformed_input, "no CA '<name>' line");
  for (const IbstatCa& ca : out.value.cas) {
    if (ca.number_of_ports && ca.ports.size() < *ca.number_of_ports) {
      out.warnings.push_back({ls.size(), "truncated",
                              "CA " + ca.ca_name + ": " + std::to_string(ca.ports.size()) + " of " +
                                  std::to_string(*ca.number_of_ports) + " ports shown"});
    }
  }
  const IbstatCa& last = out.value.cas.back();
  if (!last.ports.empty() && !last.ports.back().link_layer) {
    out.warnings.push_back(
        {ls.size(), "truncated", "CA " + last.ca_name + ": last port ends before Link layer"});
  }
  return out;
}

nlohmann::json to_json(const Ibstat& v) {
  nlohmann::json cas = nlohmann::json::array();
  for (const IbstatCa& ca : v.cas) {
    nlohmann::json ports = nlohmann::json::array();
    for (const IbstatPort& p : ca.ports) {
      nlohmann::json st = nullptr;
      nlohmann::json ph = nullptr;
      nlohmann::json ll = nullptr;
      if (p.state) st = std::string(to_string(*p.state));
      if (p.physical_state) ph = std::string(to_string(*p.physical_state));
      if (p.link_layer) ll = std::string(to_string(*p.link_layer));
      ports.push_back({{"port", p.port},
                       {"state", st},
                       {"physical_state", ph},
                       {"rate_gbps", p.rate_gbps},
                       {"base_lid", p.base_lid},
                       {"lmc", p.lmc},
                       {"sm_lid", p.sm_lid},
                       {"capability_mask", p.capability_mask},
                       {"port_guid", p.port_guid},
                       {"link_layer", ll},
                       {"attributes", p.attributes}});
    }
    cas.push_back({{"ca_name", ca.ca_name},
                   {"ca_type", ca.ca_type},
                   {"number_of_ports", ca.number_of_ports},
                   {"firmware_version", ca.firmware_version},
                   {"hardware_version", ca.hardware_version},
                   {"node_guid", ca.node_guid},
                   {"system_image_guid", ca.system_image_guid},
                   {"ports", ports},
                   {"attributes", ca.attributes}});
  }
  return {{"cas", cas}};
}

bool looks_like_ibstat(std::string_view text) {
  bool ca = false;
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::string_view t = text::trim(l);
    if (ca_name(t)) ca = true;
    if (ca && (t.starts_with("CA type:") || t.starts_with("Number of ports:"))) return true;
  }
  return false;
}

}  // namespace rk::parse

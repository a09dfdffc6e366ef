#include "rocekit/parse/ethtool_link.hpp"

#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_header = "Settings for ";

using ModeList = std::optional<std::vector<std::string>> EthtoolLink::*;

struct ListKey {
  std::string_view key;
  ModeList field;
};

constexpr ListKey k_list_keys[] = {
    {"Supported ports", &EthtoolLink::supported_ports},
    {"Supported link modes", &EthtoolLink::supported_link_modes},
    {"Supported FEC modes", &EthtoolLink::supported_fec_modes},
    {"Advertised link modes", &EthtoolLink::advertised_link_modes},
    {"Advertised FEC modes", &EthtoolLink::advertised_fec_modes},
    {"Link partner advertised link modes", &EthtoolLink::partner_link_modes},
    {"Link partner advertised FEC modes", &EthtoolLink::partner_fec_modes},
};

// Appends the words of `value` to the list; `Not reported` and the port brackets add nothing.
void append_modes(std::vector<std::string>& list, std::string_view value) {
  if (text::trim(value) == "Not reported") return;
  for (std::string_view w : text::words(value)) {
    if (w == "[" || w == "]") continue;
    list.emplace_back(w);
  }
}

std::optional<bool> yes_no(std::string_view v) {
  if (v == "Yes" || v == "yes" || v == "on") return true;
  if (v == "No" || v == "no" || v == "off") return false;
  return std::nullopt;
}

std::optional<std::uint32_t> small_uint(std::string_view v) {
  std::optional<std::uint64_t> n = text::parse_uint(v);
  if (!n || *n > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

}  // namespace

std::string_view to_string(Duplex d) {
  switch (d) {
    case Duplex::half:
      return "half";
    case Duplex::full:
      return "full";
    case Duplex::unknown:
      return "unknown";
  }
  return "unknown";
}

Result<Parsed<EthtoolLink>> parse_ethtool_link(std::string_view text) {
  Parsed<EthtoolLink> out;
  EthtoolLink& v = out.value;
  std::vector<std::string_view> lines = text::lines(text);
  bool recognised = false;
  bool saw_header = false;
  // Continuation target: a mode list, or the value of the last `other` entry.
  std::vector<std::string>* cont_list = nullptr;
  bool cont_other = false;
  auto bad = [&out](std::size_t line_no, std::string_view key, std::string_view value) {
    out.warnings.push_back(
        {line_no, "bad_value", std::string(key) + ": unexpected value " + std::string(value)});
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = text::trim(lines[i]);
    std::size_t line_no = i + 1;
    if (t.empty()) continue;
    if (t.starts_with(k_header) && t.ends_with(":") && t.size() > k_header.size() + 1) {
      v.netdev = std::string(t.substr(k_header.size(), t.size() - k_header.size() - 1));
      recognised = true;
      saw_header = true;
      cont_list = nullptr;
      cont_other = false;
      continue;
    }
    std::size_t colon = t.find(':');
    if (colon == std::string_view::npos) {
      if (cont_list != nullptr) {
        append_modes(*cont_list, t);
      } else if (cont_other && !v.other.empty()) {
        v.other.back().second += " ";
        v.other.back().second += std::string(t);
      } else {
        out.warnings.push_back({line_no, "unrecognised_line", "not an ethtool settings line"});
      }
      continue;
    }
    cont_list = nullptr;
    cont_other = false;
    std::string_view key = t.substr(0, colon);
    std::string_view value = text::trim(t.substr(colon + 1));
    if (key.starts_with("Cannot ") || key.starts_with("netlink error") ||
        key.starts_with("No data available")) {
      out.warnings.push_back({line_no, "tool_error", std::string(t)});
      continue;
    }
    if (text::trim(key).empty()) {  // ": value" names no setting
      out.warnings.push_back({line_no, "unrecognised_line", "empty setting name"});
      continue;
    }
    recognised = true;
    bool list_done = false;
    for (const ListKey& k : k_list_keys) {
      if (key != k.key) continue;
      std::optional<std::vector<std::string>>& list = v.*k.field;
      list.emplace();
      append_modes(*list, value);
      cont_list = &*list;
      list_done = true;
      break;
    }
    if (list_done) continue;
    if (key == "Supported pause frame use") {
      v.supported_pause_frame_use = std::string(value);
    } else if (key == "Advertised pause frame use") {
      v.advertised_pause_frame_use = std::string(value);
    } else if (key == "Link partner advertised pause frame use") {
      v.partner_pause_frame_use = std::string(value);
    } else if (key == "Supports auto-negotiation" || key == "Advertised auto-negotiation" ||
               key == "Link partner advertised auto-negotiation" || key == "Auto-negotiation") {
      std::optional<bool> b = yes_no(value);
      if (!b) {
        bad(line_no, key, value);
      } else if (key == "Supports auto-negotiation") {
        v.supports_autoneg = b;
      } else if (key == "Advertised auto-negotiation") {
        v.advertised_autoneg = b;
      } else if (key == "Auto-negotiation") {
        v.autoneg = b;
      } else {
        v.partner_autoneg = b;
      }
    } else if (key == "Speed") {
      if (value.starts_with("Unknown")) continue;
      std::optional<std::uint32_t> s =
          value.ends_with("Mb/s") ? small_uint(value.substr(0, value.size() - 4)) : std::nullopt;
      if (s) {
        v.speed_mbps = s;
      } else {
        bad(line_no, key, value);
      }
    } else if (key == "Lanes") {
      v.lanes = small_uint(value);
      if (!v.lanes) bad(line_no, key, value);
    } else if (key == "PHYAD") {
      v.phyad = small_uint(value);
      if (!v.phyad) bad(line_no, key, value);
    } else if (key == "Duplex") {
      if (value == "Full") {
        v.duplex = Duplex::full;
      } else if (value == "Half") {
        v.duplex = Duplex::half;
      } else if (value.starts_with("Unknown")) {
        v.duplex = Duplex::unknown;
      } else {
        bad(line_no, key, value);
      }
    } else if (key == "Port") {
      v.port = std::string(value);
    } else if (key == "Transceiver") {
      v.transceiver = std::string(value);
    } else if (key == "Link detected") {
      std::vector<std::string_view> w = text::words(value);
      std::optional<bool> b = w.empty() ? std::nullopt : yes_no(w[0]);
      if (!b) {
        bad(line_no, key, value);
        continue;
      }
      v.link_detected = b;
      std::size_t open = value.find('(');
      if (open != std::string_view::npos && value.ends_with(")") && open + 1 < value.size()) {
        v.link_down_reason = std::string(value.substr(open + 1, value.size() - open - 2));
      }
    } else {
      v.other.emplace_back(std::string(key), std::string(value));
      cont_other = true;
    }
  }
  if (!recognised) {
    return rk::unexpected(ErrorKind::malformed_input, "no ethtool link settings found");
  }
  if (saw_header && !v.link_detected) {
    out.warnings.push_back({0, "truncated", "output ends before `Link detected:`"});
  }
  return out;
}

nlohmann::json to_json(const EthtoolLink& v) {
  nlohmann::json j = nlohmann::json::object();
  j["netdev"] = v.netdev;
  j["supported_ports"] = v.supported_ports;
  j["supported_link_modes"] = v.supported_link_modes;
  j["supported_pause_frame_use"] = v.supported_pause_frame_use;
  j["supports_autoneg"] = v.supports_autoneg;
  j["supported_fec_modes"] = v.supported_fec_modes;
  j["advertised_link_modes"] = v.advertised_link_modes;
  j["advertised_pause_frame_use"] = v.advertised_pause_frame_use;
  j["advertised_autoneg"] = v.advertised_autoneg;
  j["advertised_fec_modes"] = v.advertised_fec_modes;
  j["partner_link_modes"] = v.partner_link_modes;
  j["partner_pause_frame_use"] = v.partner_pause_frame_use;
  j["partner_autoneg"] = v.partner_autoneg;
  j["partner_fec_modes"] = v.partner_fec_modes;
  j["speed_mbps"] = v.speed_mbps;
  j["lanes"] = v.lanes;
  j["duplex"] = v.duplex ? nlohmann::json(std::string(to_string(*v.duplex))) : nlohmann::json();
  j["autoneg"] = v.autoneg;
  j["port"] = v.port;
  j["phyad"] = v.phyad;
  j["transceiver"] = v.transceiver;
  j["link_detected"] = v.link_detected;
  j["link_down_reason"] = v.link_down_reason;
  nlohmann::json other = nlohmann::json::array();
  for (const auto& [key, value] : v.other) other.push_back(nlohmann::json::array({key, value}));
  j["other"] = std::move(other);
  return j;
}

bool looks_like_ethtool_link(std::string_view text) {
  std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 512));
  return text::contains(head, k_header) && !text::contains(head, "NIC statistics:");
}

}  // namespace rk::parse

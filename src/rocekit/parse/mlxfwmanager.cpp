#include "rocekit/parse/mlxfwmanager.hpp"

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

std::string_view to_string(FwManagerStatus s) {
  switch (s) {
    case FwManagerStatus::up_to_date:
      return "up_to_date";
    case FwManagerStatus::update_required:
      return "update_required";
    case FwManagerStatus::no_matching_image:
      return "no_matching_image";
    case FwManagerStatus::other:
      return "other";
  }
  return "other";
}

namespace {

FwManagerStatus classify_status(std::string_view s) {
  std::string l = text::to_lower(s);
  if (text::contains(l, "up to date")) return FwManagerStatus::up_to_date;
  if (text::contains(l, "update required")) return FwManagerStatus::update_required;
  if (text::contains(l, "no matching image")) return FwManagerStatus::no_matching_image;
  return FwManagerStatus::other;
}

bool is_dash_rule(std::string_view line) {
  return !line.empty() && line.find_first_not_of('-') == std::string_view::npos;
}

/// "Device #12:" -> 12.
std::optional<std::uint32_t> device_header_index(std::string_view line) {
  if (!line.starts_with("Device #") || !line.ends_with(":")) return std::nullopt;
  std::string_view num = line.substr(8, line.size() - 9);
  std::optional<std::uint64_t> n = text::parse_uint(num);
  if (!n || *n > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

}  // namespace

Result<Parsed<Mlxfwmanager>> parse_mlxfwmanager(std::string_view text) {
  Parsed<Mlxfwmanager> out;
  std::vector<FwManagerDevice>& devs = out.value.devices;
  std::vector<std::string> version_columns;  // empty = not inside a Versions table
  bool in_versions = false;
  std::size_t fields = 0;
  auto current = [&devs]() -> FwManagerDevice& {
    if (devs.empty()) devs.emplace_back();
    return devs.back();
  };
  std::vector<std::string_view> lines = text::lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = text::trim(lines[i]);
    if (line.empty()) {
      in_versions = false;
      continue;
    }
    if (line.starts_with("Querying Mellanox devices firmware") || is_dash_rule(line)) continue;
    if (std::optional<std::uint32_t> idx = device_header_index(line)) {
      devs.emplace_back();
      devs.back().index = idx;
      in_versions = false;
      continue;
    }
    std::size_t colon = line.find(':');
    if (in_versions && colon == std::string_view::npos) {
      std::vector<std::string_view> w = text::words(line);
      FwManagerVersion row;
      row.component = std::string(w[0]);
      for (std::size_t c = 1; c < w.size() && c - 1 < version_columns.size(); ++c) {
        if (version_columns[c - 1] == "Current") row.current = std::string(w[c]);
        if (version_columns[c - 1] == "Available") row.available = std::string(w[c]);
      }
      if (w.size() - 1 != version_columns.size()) {
        out.warnings.push_back({i + 1, "unrecognised_line",
                                "version row has a different number of columns than the header"});
      }
      current().versions.push_back(std::move(row));
      continue;
    }
    in_versions = false;
    if (colon == std::string_view::npos || colon == 0) {
      out.warnings.push_back({i + 1, "unrecognised_line", "no 'Key: value' form"});
      continue;
    }
    std::string_view key = text::trim(line.substr(0, colon));
    std::string value(text::trim(line.substr(colon + 1)));
    ++fields;
    FwManagerDevice& d = current();
    if (key == "Device Type") {
      d.device_type = value;
    } else if (key == "Part Number") {
      d.part_number = value;
    } else if (key == "Description") {
      d.description = value;
    } else if (key == "PSID") {
      d.psid = value;
    } else if (key == "PCI Device Name") {
      d.pci_device_name = value;
    } else if (key == "Base MAC") {
      d.base_mac = value;
    } else if (key == "Base GUID") {
      d.base_guid = value;
    } else if (key == "Versions") {
      in_versions = true;
      version_columns.clear();
      for (std::string_view w : text::words(value)) version_columns.emplace_back(w);
    } else if (key == "Status") {
      d.status = classify_status(value);
      d.status_text = value;
    } else {
      d.other_fields.push_back({std::string(key), value});
    }
  }
  bool any_known = false;
  for (const FwManagerDevice& d : devs) {
    if (d.psid || d.device_type || d.part_number || !d.versions.empty()) any_known = true;
  }
  if (fields == 0 || !any_known) {
    return unexpected(ErrorKind::malformed_input, "no mlxfwmanager device field found");
  }
  for (std::size_t n = 0; n < devs.size(); ++n) {
    if (!devs[n].status) {
      out.warnings.push_back({0, "truncated",
                              "device " + std::to_string(n + 1) +
                                  " has no Status line; update status unknown"});
    }
  }
  return out;
}

nlohmann::json to_json(const Mlxfwmanager& v) {
  nlohmann::json devs = nlohmann::json::array();
  for (const FwManagerDevice& d : v.devices) {
    nlohmann::json versions = nlohmann::json::array();
    for (const FwManagerVersion& r : d.versions) {
      versions.push_back(
          {{"component", r.component}, {"current", r.current}, {"available", r.available}});
    }
    nlohmann::json other = nlohmann::json::array();
    for (const FwManagerField& f : d.other_fields) {
      other.push_back({{"name", f.name}, {"value", f.value}});
    }
    nlohmann::json status = nullptr;
    if (d.status) status = std::string(to_string(*d.status));
    devs.push_back({{"index", d.index},
                    {"device_type", d.device_type},
                    {"part_number", d.part_number},
                    {"description", d.description},
                    {"psid", d.psid},
                    {"pci_device_name", d.pci_device_name},
                    {"base_mac", d.base_mac},
                    {"base_guid", d.base_guid},
                    {"versions", versions},
                    {"status", status},
                    {"status_text", d.status_text},
                    {"other_fields", other}});
  }
  return {{"devices", devs}};
}

bool looks_like_mlxfwmanager(std::string_view text) {
  std::string_view head = text.substr(0, 8192);
  if (text::contains(head, "Querying Mellanox devices firmware")) return true;
  return text::contains(head, "Versions:") &&
         (text::contains(head, "PSID:") || text::contains(head, "Device Type:"));
}

}  // namespace rk::parse

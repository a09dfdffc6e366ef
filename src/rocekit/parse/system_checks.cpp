#include "rocekit/parse/system_checks.hpp"

#include <cstddef>
#include <utility>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {
namespace {

constexpr std::string_view k_topology = "GPUDirect topology";
constexpr std::string_view k_interfaces = "Mellanox NIC Interfaces";
constexpr std::string_view k_nics = "Mellanox NICs";

/// "-----Name-----" -> "Name"; nullopt for other lines.
std::optional<std::string_view> banner(std::string_view line) {
  if (!text::starts_with(line, "-----")) return std::nullopt;
  std::size_t b = line.find_first_not_of('-');
  if (b == std::string_view::npos) return std::nullopt;
  std::size_t e = line.find_last_not_of('-');
  return text::trim(line.substr(b, e - b + 1));
}

std::optional<SystemChecksField> key_value(std::string_view line) {
  std::size_t pos = line.find(" : ");
  std::string_view value;
  if (pos != std::string_view::npos) {
    value = text::trim(line.substr(pos + 3));
  } else {
    std::string_view t = text::trim(line);
    if (!text::ends_with(t, " :")) return std::nullopt;
    pos = line.rfind(" :");
  }
  std::string_view key = text::trim(line.substr(0, pos));
  if (key.empty()) return std::nullopt;
  return SystemChecksField{std::string(key), std::string(value)};
}

std::optional<bool> on_off(std::string_view v) {
  if (v == "on") return true;
  if (v == "off") return false;
  return std::nullopt;
}

std::optional<std::uint32_t> leading_u32(std::string_view v) {
  std::vector<std::string_view> w = text::words(v);
  if (w.empty()) return std::nullopt;
  auto n = text::parse_uint(w[0]);
  if (!n || *n > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

const std::string* find_field(const std::vector<SystemChecksField>& fs, std::string_view key) {
  for (const SystemChecksField& f : fs) {
    if (f.key == key) return &f.value;
  }
  return nullptr;
}

std::optional<std::string> field_opt(const std::vector<SystemChecksField>& fs,
                                     std::string_view key) {
  const std::string* v = find_field(fs, key);
  if (v == nullptr) return std::nullopt;
  return *v;
}

void parse_topology(const std::vector<std::pair<std::size_t, std::string_view>>& rows,
                    SystemChecks& out, std::vector<Warning>& warnings) {
  std::vector<std::string_view> columns;
  bool header_done = false;
  for (const auto& [line_no, line] : rows) {
    std::string_view t = text::trim(line);
    if (t.empty()) continue;
    if (t == "Legend:") break;
    std::vector<std::string_view> w = text::words(t);
    if (!header_done) {
      for (std::size_t i = 0; i < w.size(); ++i) {
        if ((w[i] == "CPU" || w[i] == "NUMA") && i + 1 < w.size() && w[i + 1] == "Affinity") {
          break;
        }
        columns.push_back(w[i]);
      }
      header_done = true;
      continue;
    }
    if (w.size() < 2) {
      warnings.push_back(Warning{line_no, "unrecognised_line", "short topology row"});
      continue;
    }
    if (!text::starts_with(w[0], "GPU")) continue;
    for (std::size_t c = 0; c < columns.size() && c + 1 < w.size(); ++c) {
      if (text::starts_with(columns[c], "GPU")) continue;
      out.gpu_nic_links.push_back(
          SystemChecksGpuNicLink{std::string(w[0]), std::string(columns[c]), std::string(w[c + 1])});
    }
  }
}

void derive(SystemChecks& out, std::vector<Warning>& warnings) {
  for (const SystemChecksSection& s : out.sections) {
    if (s.name == "General") {
      out.hostname = field_opt(s.fields, "Hostname");
      out.kernel_version = field_opt(s.fields, "Linux kernel version");
    } else if (s.name == "Nvidia GPUs") {
      out.gpu_driver_version = field_opt(s.fields, "GPU driver version");
      out.cuda_version = field_opt(s.fields, "CUDA version");
    } else if (s.name == "Software Packages") {
      out.mofed_version = field_opt(s.fields, "MOFED");
    } else if (s.name == "Loaded Kernel Modules") {
      for (const SystemChecksField& f : s.fields) out.loaded_modules.push_back(f.value);
    } else if (s.name == k_nics) {
      for (const SystemChecksRecord& r : s.records) {
        SystemChecksNic nic;
        nic.record = r.name;
        for (const SystemChecksField& f : r.fields) {
          if (f.key == "NIC product name") {
            nic.product_name = f.value;
          } else if (f.key == "NIC part number") {
            nic.part_number = f.value;
          } else if (f.key == "NIC PCIe bus id") {
            nic.pcie_bdf = f.value;
          } else if (f.key == "NIC FW version") {
            nic.fw_version = f.value;
          } else {
            nic.params.push_back(f);
          }
        }
        out.nics.push_back(std::move(nic));
      }
    } else if (s.name == k_interfaces) {
      for (const SystemChecksRecord& r : s.records) {
        SystemChecksInterface itf;
        itf.record = r.name;
        const std::vector<SystemChecksField>& fs = r.fields;
        itf.netdev = field_opt(fs, "Name");
        itf.rdma_device = field_opt(fs, "Network adapter");
        itf.pcie_bdf = field_opt(fs, "PCIe bus id");
        itf.mac = field_opt(fs, "Ethernet address");
        itf.operstate = field_opt(fs, "Operstate");
        itf.trust = field_opt(fs, "QoS Priority trust state");
        if (const std::string* v = find_field(fs, "MTU")) {
          itf.mtu_bytes = leading_u32(*v);
          if (!itf.mtu_bytes) warnings.push_back(Warning{0, "bad_number", "bad MTU in " + r.name});
        }
        if (const std::string* v = find_field(fs, "RX flow control")) itf.rx_flow_control = on_off(*v);
        if (const std::string* v = find_field(fs, "TX flow control")) itf.tx_flow_control = on_off(*v);
        if (const std::string* v = find_field(fs, "PCIe MRRS")) {
          itf.max_read_request_bytes = leading_u32(*v);
        }
        if (const std::string* v = find_field(fs, "PTP hardware clock")) {
          itf.ptp_hardware_clock = leading_u32(*v);
        }
        out.interfaces.push_back(std::move(itf));
      }
    }
  }
}

nlohmann::json fields_json(const std::vector<SystemChecksField>& fs) {
  nlohmann::json a = nlohmann::json::array();
  for (const SystemChecksField& f : fs) a.push_back({{"key", f.key}, {"value", f.value}});
  return a;
}

}  // namespace

Result<Parsed<SystemChecks>> parse_system_checks(std::string_view text) {
  SystemChecks out;
  std::vector<Warning> warnings;
  std::vector<std::pair<std::size_t, std::string_view>> topo_rows;
  std::vector<std::string_view> ls = text::lines(text);
  std::size_t banners = 0;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::size_t line_no = i + 1;
    std::string_view line = ls[i];
    if (auto name = banner(line)) {
      ++banners;
      out.sections.push_back(SystemChecksSection{std::string(*name), {}, {}});
      continue;
    }
    if (text::trim(line).empty()) continue;
    if (out.sections.empty()) {
      warnings.push_back(Warning{line_no, "unrecognised_line", "text before the first section"});
      continue;
    }
    SystemChecksSection& sec = out.sections.back();
    if (sec.name == k_topology) {
      topo_rows.emplace_back(line_no, line);
      continue;
    }
    bool indented = line[0] == ' ' || line[0] == '\t';
    if (auto kv = key_value(line)) {
      if (indented && !sec.records.empty()) {
        sec.records.back().fields.push_back(std::move(*kv));
      } else {
        sec.fields.push_back(std::move(*kv));
      }
      continue;
    }
    std::string_view t = text::trim(line);
    if (!indented && text::words(t).size() == 1 && !text::contains(t, ":")) {
      sec.records.push_back(SystemChecksRecord{std::string(t), {}});
      continue;
    }
    warnings.push_back(
        Warning{line_no, "unrecognised_line", "unrecognised line: " + std::string(t.substr(0, 80))});
  }
  if (banners == 0) {
    return rk::unexpected(ErrorKind::malformed_input, "no system-check section banner found");
  }
  parse_topology(topo_rows, out, warnings);
  derive(out, warnings);
  return Parsed<SystemChecks>{std::move(out), std::move(warnings)};
}

nlohmann::json to_json(const SystemChecks& v) {
  nlohmann::json j;
  j["hostname"] = v.hostname;
  j["kernel_version"] = v.kernel_version;
  j["gpu_driver_version"] = v.gpu_driver_version;
  j["cuda_version"] = v.cuda_version;
  j["mofed_version"] = v.mofed_version;
  j["loaded_modules"] = v.loaded_modules;
  nlohmann::json nics = nlohmann::json::array();
  for (const SystemChecksNic& n : v.nics) {
    nics.push_back({{"record", n.record},
                    {"product_name", n.product_name},
                    {"part_number", n.part_number},
                    {"pcie_bdf", n.pcie_bdf},
                    {"fw_version", n.fw_version},
                    {"params", fields_json(n.params)}});
  }
  j["nics"] = nics;
  nlohmann::json itfs = nlohmann::json::array();
  for (const SystemChecksInterface& i : v.interfaces) {
    itfs.push_back({{"record", i.record},
                    {"netdev", i.netdev},
                    {"rdma_device", i.rdma_device},
                    {"pcie_bdf", i.pcie_bdf},
                    {"mac", i.mac},
                    {"operstate", i.operstate},
                    {"mtu_bytes", i.mtu_bytes},
                    {"rx_flow_control", i.rx_flow_control},
                    {"tx_flow_control", i.tx_flow_control},
                    {"trust", i.trust},
                    {"max_read_request_bytes", i.max_read_request_bytes},
                    {"ptp_hardware_clock", i.ptp_hardware_clock}});
  }
  j["interfaces"] = itfs;
  nlohmann::json links = nlohmann::json::array();
  for (const SystemChecksGpuNicLink& l : v.gpu_nic_links) {
    links.push_back({{"gpu", l.gpu}, {"nic", l.nic}, {"connection", l.connection}});
  }
  j["gpu_nic_links"] = links;
  nlohmann::json secs = nlohmann::json::array();
  for (const SystemChecksSection& s : v.sections) {
    nlohmann::json recs = nlohmann::json::array();
    for (const SystemChecksRecord& r : s.records) {
      recs.push_back({{"name", r.name}, {"fields", fields_json(r.fields)}});
    }
    secs.push_back({{"name", s.name}, {"fields", fields_json(s.fields)}, {"records", recs}});
  }
  j["sections"] = secs;
  return j;
}

bool looks_like_system_checks(std::string_view text) {
  std::string_view head = text.substr(0, 8192);
  return text::contains(head, "-----General---") ||
         text::contains(head, "-----Mellanox NIC Interfaces---") ||
         text::contains(head, "-----GPUDirect topology---");
}

}  // namespace rk::parse

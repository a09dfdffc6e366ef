#include "rocekit/parse/mst_status.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"

namespace rk::parse {

namespace {

constexpr std::size_t k_max_columns = 16;

enum class Section { none, modules, mst_devices, pci_devices };

bool is_dash_rule(std::string_view line) {
  return !line.empty() && line.find_first_not_of('-') == std::string_view::npos;
}

/// "37:00.4" -> "0000:37:00.4"; lower-cased; other text returned unchanged (lower-cased).
std::string normalise_bdf(std::string_view pci) {
  std::string s = text::to_lower(pci);
  if (std::count(s.begin(), s.end(), ':') == 1) s = "0000:" + s;
  return s;
}

std::optional<std::string> cell_value(std::string_view cell) {
  cell = text::trim(cell);
  if (cell.empty() || cell == "NA" || cell == "N/A") return std::nullopt;
  return std::string(cell);
}

struct Column {
  std::string name;
  std::size_t start = 0;
};

}  // namespace

Result<Parsed<MstStatus>> parse_mst_status(std::string_view text) {
  Parsed<MstStatus> out;
  MstStatus& s = out.value;
  Section section = Section::none;
  std::vector<Column> columns;
  bool seen_section = false;
  std::vector<std::string_view> lines = text::lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view raw = lines[i];
    std::string_view line = text::trim(raw);
    if (line.empty() || is_dash_rule(line)) continue;
    if (line == "MST modules:") {
      section = Section::modules;
      seen_section = true;
      continue;
    }
    if (line == "MST devices:") {
      section = Section::mst_devices;
      seen_section = true;
      continue;
    }
    if (line == "PCI devices:") {
      section = Section::pci_devices;
      seen_section = true;
      columns.clear();
      continue;
    }
    if (line.starts_with("DEVICE_TYPE")) {
      section = Section::pci_devices;
      seen_section = true;
      columns.clear();
      std::size_t pos = 0;
      while (pos < raw.size() && columns.size() < k_max_columns) {
        std::size_t b = raw.find_first_not_of(" \t", pos);
        if (b == std::string_view::npos) break;
        std::size_t e = raw.find_first_of(" \t", b);
        if (e == std::string_view::npos) e = raw.size();
        columns.push_back({std::string(raw.substr(b, e - b)), b});
        pos = e;
      }
      continue;
    }
    switch (section) {
      case Section::modules: {
        s.modules.emplace_back(line);
        bool loaded = !text::contains(line, "not loaded");
        if (text::contains(line, "MST PCI configuration module")) {
          s.pciconf_module_loaded = loaded;
        } else if (text::contains(line, "MST PCI module")) {
          s.pci_module_loaded = loaded;
        }
        break;
      }
      case Section::mst_devices: {
        if (line.starts_with("/dev/")) {
          MstDevice d;
          std::size_t dash = line.find(" - ");
          std::string_view path = dash == std::string_view::npos ? line : line.substr(0, dash);
          d.path = std::string(text::trim(path));
          if (dash != std::string_view::npos) d.access = std::string(text::trim(line.substr(dash + 3)));
          s.mst_devices.push_back(std::move(d));
        } else if (!s.mst_devices.empty() && text::starts_with(line, "domain:bus:dev.fn=")) {
          std::string_view rest = line.substr(18);
          std::vector<std::string_view> w = text::words(rest);
          if (!w.empty()) s.mst_devices.back().bdf = std::string(w[0]);
        } else if (!s.mst_devices.empty() && text::starts_with(line, "Chip revision is:")) {
          s.mst_devices.back().chip_revision = std::string(text::trim(line.substr(17)));
        } else {
          out.warnings.push_back({i + 1, "unrecognised_line", "not an MST device line"});
        }
        break;
      }
      case Section::pci_devices: {
        if (columns.empty()) {
          out.warnings.push_back({i + 1, "unrecognised_line", "PCI device row before header"});
          break;
        }
        // Assign each token to the last column whose start is at or before the token start
        // (cells may be blank, so positions, not token counts, decide).
        MstPciDevice d;
        std::vector<std::string> cells(columns.size());
        std::size_t pos = 0;
        while (pos < raw.size()) {
          std::size_t b = raw.find_first_not_of(" \t", pos);
          if (b == std::string_view::npos) break;
          std::size_t e = raw.find_first_of(" \t", b);
          if (e == std::string_view::npos) e = raw.size();
          std::size_t col = 0;
          for (std::size_t c = 0; c < columns.size(); ++c) {
            if (columns[c].start <= b) col = c;
          }
          if (!cells[col].empty()) cells[col] += ' ';
          cells[col] += std::string(raw.substr(b, e - b));
          pos = e;
        }
        std::optional<std::string> pci;
        for (std::size_t c = 0; c < columns.size(); ++c) {
          const std::string& name = columns[c].name;
          std::optional<std::string> v = cell_value(cells[c]);
          if (name == "DEVICE_TYPE") {
            d.device_type = v;
          } else if (name == "MST") {
            d.mst = v;
          } else if (name == "PCI") {
            pci = v;
          } else if (name == "RDMA") {
            d.rdma = v;
          } else if (name == "NET") {
            d.net = v;
            if (v) d.netdev = v->starts_with("net-") ? v->substr(4) : *v;
          } else if (name == "NUMA" && v) {
            std::optional<std::int64_t> n = text::parse_int(*v);
            if (n && *n >= 0) d.numa_node = n;
          }
        }
        if (!pci) {
          out.warnings.push_back({i + 1, "unrecognised_line", "PCI device row without address"});
          break;
        }
        d.pci = *pci;
        d.bdf = normalise_bdf(*pci);
        s.pci_devices.push_back(std::move(d));
        break;
      }
      case Section::none:
        out.warnings.push_back({i + 1, "unrecognised_line", "line outside any mst section"});
        break;
    }
  }
  if (!seen_section) {
    return unexpected(ErrorKind::malformed_input, "no mst status section found");
  }
  return out;
}

nlohmann::json to_json(const MstStatus& v) {
  nlohmann::json devs = nlohmann::json::array();
  for (const MstDevice& d : v.mst_devices) {
    devs.push_back({{"path", d.path},
                    {"access", d.access},
                    {"bdf", d.bdf},
                    {"chip_revision", d.chip_revision}});
  }
  nlohmann::json pcis = nlohmann::json::array();
  for (const MstPciDevice& d : v.pci_devices) {
    pcis.push_back({{"device_type", d.device_type},
                    {"mst", d.mst},
                    {"pci", d.pci},
                    {"bdf", d.bdf},
                    {"rdma", d.rdma},
                    {"net", d.net},
                    {"netdev", d.netdev},
                    {"numa_node", d.numa_node}});
  }
  return {{"modules", v.modules},
          {"pci_module_loaded", v.pci_module_loaded},
          {"pciconf_module_loaded", v.pciconf_module_loaded},
          {"mst_devices", devs},
          {"pci_devices", pcis}};
}

bool looks_like_mst_status(std::string_view text) {
  std::string_view head = text.substr(0, 8192);
  return text::contains(head, "MST modules:") || text::contains(head, "MST devices:") ||
         (text::contains(head, "DEVICE_TYPE") && text::contains(head, "RDMA"));
}

}  // namespace rk::parse

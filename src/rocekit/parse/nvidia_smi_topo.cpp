#include "rocekit/parse/nvidia_smi_topo.hpp"

#include <algorithm>
#include <array>
#include <map>

#include <nlohmann/json.hpp>

#include "rocekit/core/json_optional.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::parse {

std::string_view to_string(TopoLink link) {
  switch (link) {
    case TopoLink::self:
      return "self";
    case TopoLink::nvlink:
      return "nvlink";
    case TopoLink::pix:
      return "pix";
    case TopoLink::pxb:
      return "pxb";
    case TopoLink::phb:
      return "phb";
    case TopoLink::node:
      return "node";
    case TopoLink::sys:
      return "sys";
    case TopoLink::unknown:
      return "unknown";
  }
  return "unknown";
}

TopoLink topo_link_from_text(std::string_view cell) {
  cell = text::trim(cell);
  if (cell == "X") return TopoLink::self;
  if (cell == "PIX") return TopoLink::pix;
  if (cell == "PXB") return TopoLink::pxb;
  if (cell == "PHB") return TopoLink::phb;
  if (cell == "NODE") return TopoLink::node;
  if (cell == "SYS" || cell == "SOC") return TopoLink::sys;
  if (cell.size() > 2 && cell.starts_with("NV") && text::parse_uint(cell.substr(2))) {
    return TopoLink::nvlink;
  }
  return TopoLink::unknown;
}

namespace {

constexpr std::array<std::string_view, 3> k_attribute_names = {"CPU Affinity", "NUMA Affinity",
                                                               "GPU NUMA ID"};

/// "GPU12" -> 12.
std::optional<std::uint32_t> gpu_index(std::string_view label) {
  if (!label.starts_with("GPU") || label.size() <= 3) return std::nullopt;
  std::optional<std::uint64_t> n = text::parse_uint(label.substr(3));
  if (!n || *n > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

struct Header {
  std::vector<std::string> devices;
  std::vector<std::string> attributes;
};

/// A header line: device labels (first one GPU<n> or NIC<n>), then optional attribute titles.
std::optional<Header> parse_header(std::string_view line) {
  std::vector<std::pair<std::size_t, std::string_view>> found;
  for (std::string_view a : k_attribute_names) {
    std::size_t p = line.find(a);
    if (p != std::string_view::npos) found.emplace_back(p, a);
  }
  std::sort(found.begin(), found.end());
  std::size_t device_end = found.empty() ? line.size() : found.front().first;
  Header h;
  for (std::string_view w : text::words(line.substr(0, device_end))) h.devices.emplace_back(w);
  if (h.devices.empty()) return std::nullopt;
  if (!gpu_index(h.devices.front()) && !h.devices.front().starts_with("NIC")) return std::nullopt;
  for (const auto& f : found) h.attributes.emplace_back(f.second);
  return h;
}

/// `nvidia-smi -L`: "GPU 0: NVIDIA GB10 (UUID: GPU-b0ec33a0-...)" -> {0, "NVIDIA GB10"}.
std::optional<std::pair<std::uint32_t, std::string>> list_line(std::string_view line) {
  if (!line.starts_with("GPU ")) return std::nullopt;
  std::size_t colon = line.find(':');
  std::size_t uuid = line.rfind(" (UUID: ");
  if (colon == std::string_view::npos || uuid == std::string_view::npos || uuid < colon) return std::nullopt;
  std::optional<std::uint64_t> n = text::parse_uint(text::trim(line.substr(4, colon - 4)));
  std::string_view name = text::trim(line.substr(colon + 1, uuid - colon - 1));
  if (!n || *n > 0xffffffffULL || name.empty()) return std::nullopt;
  return std::pair<std::uint32_t, std::string>(static_cast<std::uint32_t>(*n), std::string(name));
}

/// An echoed command line: "$ nvidia-smi topo -m", " nvidia-smi -L", "# nvidia-smi topo -m".
bool command_line(std::string_view line) {
  if (std::optional<PromptCommand> p = parse_prompt_line(line)) return p->tool == "nvidia_smi_topo";
  if (line.starts_with("$ ") || line.starts_with("# ")) line = text::trim(line.substr(2));
  if (line.starts_with("sudo ")) line = text::trim(line.substr(5));
  return line == "nvidia-smi" || line.starts_with("nvidia-smi ");
}

}  // namespace

Result<Parsed<NvidiaSmiTopo>> parse_nvidia_smi_topo(std::string_view text) {
  Parsed<NvidiaSmiTopo> out;
  NvidiaSmiTopo& t = out.value;
  enum class State { before_header, matrix, legend, nic_legend };
  State state = State::before_header;
  std::map<std::string, std::size_t, std::less<>> column_index;
  std::size_t last_line = 0;
  std::map<std::uint32_t, std::string> models;  // nvidia-smi -L
  std::vector<std::string_view> lines = text::lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view raw = lines[i];
    std::string_view line = text::trim(raw);
    if (line.empty()) {
      if (state == State::matrix) state = State::legend;
      continue;
    }
    if (line == "Legend:") {
      state = State::legend;
      continue;
    }
    if (line == "NIC Legend:") {
      state = State::nic_legend;
      continue;
    }
    switch (state) {
      case State::before_header: {
        if (auto m = list_line(line)) {
          models[m->first] = m->second;
          break;
        }
        if (command_line(line)) break;
        bool indented = raw.front() == ' ' || raw.front() == '\t';
        std::optional<Header> h;
        if (indented || text::contains(line, "CPU Affinity")) h = parse_header(line);
        if (!h) {
          out.warnings.push_back({i + 1, "unrecognised_line", "not a topology matrix header"});
          break;
        }
        t.columns = std::move(h->devices);
        t.attribute_columns = std::move(h->attributes);
        for (std::size_t c = 0; c < t.columns.size(); ++c) column_index.emplace(t.columns[c], c);
        state = State::matrix;
        break;
      }
      case State::matrix: {
        std::vector<std::string_view> w = text::words(line);
        if (column_index.find(w[0]) == column_index.end()) {
          out.warnings.push_back({i + 1, "unrecognised_line", "row label is not a column"});
          break;
        }
        TopoRow row;
        row.name = std::string(w[0]);
        row.line = i + 1;
        row.is_gpu = gpu_index(w[0]).has_value();
        std::size_t n = std::min(w.size() - 1, t.columns.size());
        for (std::size_t c = 0; c < n; ++c) {
          TopoCell cell;
          cell.peer = t.columns[c];
          cell.text = std::string(w[c + 1]);
          cell.link = topo_link_from_text(w[c + 1]);
          if (w[c + 1] == "SOC") t.legacy_soc = true;
          if (cell.link == TopoLink::nvlink) {
            std::optional<std::uint64_t> k = text::parse_uint(w[c + 1].substr(2));
            if (k && *k <= 0xffffffffULL) cell.nvlinks = static_cast<std::uint32_t>(*k);
          }
          row.cells.push_back(std::move(cell));
        }
        if (n < t.columns.size()) {
          out.warnings.push_back({i + 1, "truncated",
                                  "row " + row.name + " has " + std::to_string(n) + " of " +
                                      std::to_string(t.columns.size()) + " cells"});
        }
        for (std::size_t a = 0; a + n + 1 < w.size(); ++a) {
          if (a >= t.attribute_columns.size()) {
            out.warnings.push_back({i + 1, "unrecognised_line", "more cells than columns"});
            break;
          }
          std::string value(w[a + n + 1]);
          std::string_view title = t.attribute_columns[a];
          if (title == "CPU Affinity") {
            row.cpu_affinity = value;
          } else if (title == "NUMA Affinity") {
            row.numa_affinity = value;
          } else {
            row.gpu_numa_id = value;
          }
        }
        t.rows.push_back(std::move(row));
        last_line = i + 1;
        break;
      }
      case State::legend:
        if (line.starts_with("SOC")) t.legacy_soc = true;
        break;
      case State::nic_legend: {
        std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
          out.warnings.push_back({i + 1, "unrecognised_line", "not a NIC Legend entry"});
          break;
        }
        t.nic_legend.push_back({std::string(text::trim(line.substr(0, colon))),
                                std::string(text::trim(line.substr(colon + 1)))});
        break;
      }
    }
  }
  if (t.columns.empty()) {
    return unexpected(ErrorKind::malformed_input, "no nvidia-smi topo matrix header found");
  }
  if (t.rows.size() < t.columns.size()) {
    out.warnings.push_back({last_line, "truncated",
                            "matrix has " + std::to_string(t.rows.size()) + " of " +
                                std::to_string(t.columns.size()) + " rows"});
  }
  std::map<std::string, std::string, std::less<>> legend;
  for (const TopoNicLegend& e : t.nic_legend) legend.emplace(e.label, e.device);
  bool nic_labels = false;
  for (const std::string& c : t.columns) {
    if (c.starts_with("NIC") && text::parse_uint(std::string_view(c).substr(3))) nic_labels = true;
  }
  if (nic_labels && t.nic_legend.empty()) {
    out.warnings.push_back({0, "truncated", "NIC<n> columns but no NIC Legend section"});
  }
  for (const TopoRow& row : t.rows) {
    if (!row.is_gpu) continue;
    TopoGpu g;
    g.name = row.name;
    g.index = gpu_index(row.name);
    if (g.index)
      if (auto m = models.find(*g.index); m != models.end()) g.model = m->second;
    for (const TopoCell& cell : row.cells) {
      if (gpu_index(cell.peer)) continue;
      TopoGpuNic nic;
      nic.nic = cell.peer;
      auto it = legend.find(cell.peer);
      nic.rdma_device = it == legend.end() ? cell.peer : it->second;
      nic.link = cell.link;
      nic.text = cell.text;
      if (!g.closest_nic_link || nic.link < *g.closest_nic_link) g.closest_nic_link = nic.link;
      g.nics.push_back(std::move(nic));
    }
    t.gpus.push_back(std::move(g));
  }
  return out;
}

nlohmann::json to_json(const NvidiaSmiTopo& v) {
  nlohmann::json rows = nlohmann::json::array();
  for (const TopoRow& r : v.rows) {
    nlohmann::json cells = nlohmann::json::array();
    for (const TopoCell& c : r.cells) {
      cells.push_back({{"peer", c.peer},
                       {"text", c.text},
                       {"link", std::string(to_string(c.link))},
                       {"nvlinks", c.nvlinks}});
    }
    rows.push_back({{"name", r.name},
                    {"is_gpu", r.is_gpu},
                    {"cells", cells},
                    {"cpu_affinity", r.cpu_affinity},
                    {"numa_affinity", r.numa_affinity},
                    {"gpu_numa_id", r.gpu_numa_id}});
  }
  nlohmann::json legend = nlohmann::json::array();
  for (const TopoNicLegend& e : v.nic_legend) {
    legend.push_back({{"label", e.label}, {"device", e.device}});
  }
  nlohmann::json gpus = nlohmann::json::array();
  for (const TopoGpu& g : v.gpus) {
    nlohmann::json nics = nlohmann::json::array();
    for (const TopoGpuNic& n : g.nics) {
      nics.push_back({{"nic", n.nic},
                      {"rdma_device", n.rdma_device},
                      {"link", std::string(to_string(n.link))},
                      {"text", n.text}});
    }
    nlohmann::json closest = nullptr;
    if (g.closest_nic_link) closest = std::string(to_string(*g.closest_nic_link));
    gpus.push_back(
        {{"name", g.name}, {"index", g.index}, {"model", g.model}, {"nics", nics}, {"closest_nic_link", closest}});
  }
  return {{"columns", v.columns},
          {"attribute_columns", v.attribute_columns},
          {"rows", rows},
          {"nic_legend", legend},
          {"legacy_soc", v.legacy_soc},
          {"gpus", gpus}};
}

bool looks_like_nvidia_smi_topo(std::string_view text) {
  // The matrix header must be the first non-blank line (a report that embeds the matrix, such as
  // a system-check report, is not this tool's output).
  for (std::string_view l : text::lines(text.substr(0, 4096))) {
    std::string_view t = text::trim(l);
    if (t.empty() || command_line(t) || list_line(t)) continue;
    bool indented = l.front() == ' ' || l.front() == '\t';
    return (indented || text::contains(t, "CPU Affinity")) && parse_header(t).has_value();
  }
  return false;
}

}  // namespace rk::parse

// Capture -> Snapshot: identify each file (name, pasted prompt, else content), merge it with its
// tool's merge from the tool table (tools.cpp; the merges are merge_*.cpp), then give every
// section nothing filled its "not captured" reason, derived from the table.
#include "rocekit/capture/assemble.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "rocekit/build/builder.hpp"
#include "rocekit/capture/merge.hpp"
#include "rocekit/capture/paste.hpp"
#include "rocekit/capture/tools.hpp"
#include "rocekit/model/bluefield.hpp"
#include "rocekit/core/text.hpp"
#include "rocekit/parse/common.hpp"
#include "rocekit/parse/mst_status.hpp"
#include "rocekit/parse/prompt.hpp"

namespace rk::capture {
namespace {

void read_capture_log(Snapshot& s, const CaptureFile& f) {
  for (std::string_view line : text::lines(f.bytes)) {
    if (auto h = text::value_after(line, "hostname:")) {
      if (s.hostname.empty()) s.hostname = std::string(*h);
      continue;
    }
    if (auto t = text::value_after(line, "started:")) {
      s.collected_at = std::string(*t);
      continue;
    }
    std::vector<std::string_view> cols = text::split(line, '\t');
    if (cols.size() >= 2 && cols[0] == "note") {
      s.notes.emplace_back(cols[1]);
      continue;
    }
    if (cols.size() >= 4)
      s.tool_runs.push_back(ToolRun{std::string(cols[1]), std::string(cols[2]), std::string(cols[0]),
                                    std::string(cols[3])});
  }
}

/// "<tool> <status> on the host" when the capture log records the tool as missing or failed.
std::optional<std::string> failed_run(const Snapshot& s, std::string_view tool) {
  for (const ToolRun& r : s.tool_runs)
    if (r.tool == tool && r.status != "ok") return std::string(tool) + " " + r.status + " on the host";
  return std::nullopt;
}

/// A gap's `what` with its subject filled in.
std::string fill(std::string_view what, const std::string& netdev, const std::string& rdma,
                 const std::string& port, const std::string& bdf) {
  std::string out(what);
  for (const auto& [k, v] : {std::pair<std::string_view, const std::string&>{"<netdev>", netdev},
                             {"<rdma>", rdma},
                             {"<port>", port},
                             {"<bdf>", bdf}})
    for (std::size_t p; (p = out.find(k)) != std::string::npos;) out.replace(p, k.size(), v);
  return out;
}

/// The reason a section nothing filled is missing, from the tool table's gap for it.
/// Why a section is absent, and the kind of reason.
struct Missing {
  std::string text;
  ReasonKind kind;
  std::string tool;  ///< the tool whose output would fill it
};

Missing gap_reason(const Snapshot& s, Section section, const std::string& netdev = "",
               const std::string& rdma = "", const std::string& port = "",
               const std::string& bdf = "") {
  for (const Tool& t : all_tools())
    for (const Gap& g : t.gaps) {
      if (g.section != section) continue;
      std::string what = fill(g.what, netdev, rdma, port, bdf);
      std::string tool(t.id);
      if (g.fixed) return {what, ReasonKind::not_captured, tool};
      if (std::optional<std::string> f = failed_run(s, t.id)) return {*f, ReasonKind::tool_failed, tool};
      return {"not captured (no " + what + " output in the capture)", ReasonKind::not_captured, tool};
    }
  return {"not captured", ReasonKind::not_captured, {}};  // unreachable: tools_test holds every section owned
}

template <class T>
void default_reason(Collected<T>& c, const Missing& why) {
  if (!c.has_value() && c.reason.empty()) c.set_missing(why.text, why.kind, why.tool);
}

void fill_reasons(Snapshot& s) {
  for (NetDev& n : s.netdevs) {
    auto r = [&](Section sec) { return gap_reason(s, sec, n.name); };
    default_reason(n.mtu_bytes, r(Section::netdev_mtu));
    default_reason(n.operstate, r(Section::netdev_operstate));
    default_reason(n.driver, r(Section::netdev_driver));
    default_reason(n.qos, r(Section::netdev_qos));
    default_reason(n.pause, r(Section::netdev_pause));
    default_reason(n.coalesce, r(Section::netdev_coalesce));
    default_reason(n.channels, r(Section::netdev_channels));
    default_reason(n.ecn, r(Section::netdev_ecn));
    default_reason(n.link, r(Section::netdev_link));
    default_reason(n.stats, r(Section::netdev_stats));
  }
  for (RdmaDevice& d : s.rdma_devices)
    for (RdmaPort& p : d.ports) {
      auto r = [&](Section sec) { return gap_reason(s, sec, "", d.name, std::to_string(p.port)); };
      default_reason(p.state, r(Section::port_state));
      default_reason(p.gids, r(Section::port_gids));
      default_reason(p.default_roce_mode, r(Section::port_cm_mode));
      default_reason(p.default_roce_tos, r(Section::port_cm_tos));
      default_reason(p.global_traffic_class, r(Section::port_traffic_class));
      default_reason(p.counters, r(Section::port_counters));
    }
  for (PciFunction& p : s.pci_functions) {
    auto r = [&](Section sec) { return gap_reason(s, sec, "", "", "", p.bdf); };
    default_reason(p.link, r(Section::pci_link));
    default_reason(p.max_read_request_bytes, r(Section::pci_mrrs));
    default_reason(p.relaxed_ordering, r(Section::pci_mrrs));  // the same DevCtl line
    default_reason(p.ats_enabled, r(Section::pci_ats));
    default_reason(p.iommu_group, r(Section::pci_iommu_group));
    default_reason(p.firmware, r(Section::pci_firmware));
    default_reason(p.nv_config, r(Section::pci_nv_config));
  }
  default_reason(s.gpus, gap_reason(s, Section::host_gpus));
  if (s.gpus.value)
    for (Gpu& g : *s.gpus.value) {
      std::string bdf = g.bdf.value_or("the GPU");
      default_reason(g.ats_enabled, gap_reason(s, Section::pci_ats, "", "", "", bdf));
      default_reason(g.iommu_group, gap_reason(s, Section::pci_iommu_group, "", "", "", bdf));
    }
  default_reason(s.iommu, gap_reason(s, Section::host_iommu));
  if (!s.pci_bridges.has_value() && s.pci_bridges.reason.empty())
    s.pci_bridges.set_missing("no PCI bridge in the capture: save `lspci -vvv -D` (the whole tree, as root) "
                              "as lspci_vvv@tree.txt",
                              ReasonKind::not_captured);
  default_reason(s.gpudirect, gap_reason(s, Section::host_gpudirect));
  default_reason(s.kernel_modules, gap_reason(s, Section::host_modules));
  default_reason(s.nvidia_driver, gap_reason(s, Section::host_nvidia_driver));
  default_reason(s.kernel_release, gap_reason(s, Section::host_kernel_release));
  default_reason(s.driver_stack, gap_reason(s, Section::host_driver_stack));
  default_reason(s.persistence, gap_reason(s, Section::host_persistence));
  default_reason(s.app_settings, gap_reason(s, Section::host_app_settings));
  if (!s.nccl_run.has_value() && s.nccl_run.reason.empty())
    s.nccl_run.set_missing("not captured: no NCCL_DEBUG=INFO log of a job on this host (save it as nccl_log.txt)",
                           ReasonKind::not_captured, "nccl_log");
  default_reason(s.numa_cpu_count, Missing{"not captured: save `grep -H . /sys/devices/system/node/node*/cpulist` "
                                            "(rocekit-capture's host_resources.txt)",
                                            ReasonKind::not_captured, "host_resources"});
  default_reason(s.memory, gap_reason(s, Section::host_memory));
  default_reason(s.doca_hugepages, gap_reason(s, Section::host_doca_hugepages));
  default_reason(s.static_pods, gap_reason(s, Section::host_static_pods));
}

bool is_ignored_name(const std::string& name) {
  std::string base = name.substr(name.find_last_of('/') == std::string::npos ? 0 : name.find_last_of('/') + 1);
  return base == "EXPECTED.md" || base == "expected.json" || base == "README.md" || base.starts_with(".");
}

/// A command a prompt aims at an MST device (`flint -d /dev/mst/mt4125_pciconf0 q`, `mlxlink -d
/// mt4123_pciconf0 ...`) gets the PCI address that an `mst status` of the same capture gives that
/// device (its `domain:bus:dev.fn=` line, or the MST column of `mst status -v`). A name two
/// `mst status` outputs map to different addresses is left as it is. Returns the mapping (less
/// those names), for outputs that name MST devices in their text (mlxfwmanager, mlxup).
template <class Items>
std::map<std::string, std::string> name_mst_targets(Items& items) {
  std::map<std::string, std::string> bdf_of;
  std::set<std::string> ambiguous;
  auto add = [&](const std::string& name, const std::string& bdf) {
    for (const std::string& key : {name, name.substr(name.find_last_of('/') + 1)}) {
      auto [it, fresh] = bdf_of.try_emplace(key, bdf);
      if (!fresh && it->second != bdf) ambiguous.insert(key);
    }
  };
  for (const auto& it : items) {
    if (it.tool != "mst_status") continue;
    std::string bytes = it.file->bytes;
    Result<parse::Parsed<parse::MstStatus>> r = parse::parse_mst_status(parse::strip_capture_header(bytes).body);
    if (!r) continue;
    for (const parse::MstDevice& d : r->value.mst_devices)
      if (d.bdf)
        if (std::optional<std::string> b = normalize_bdf(*d.bdf)) add(d.path, *b);
    for (const parse::MstPciDevice& d : r->value.pci_devices)
      if (d.mst && !d.bdf.empty()) add(*d.mst, d.bdf);
  }
  for (auto& it : items) {
    if (it.target.empty() || ambiguous.count(it.target)) continue;
    if (auto m = bdf_of.find(it.target); m != bdf_of.end()) it.target = m->second;
  }
  for (const std::string& a : ambiguous) bdf_of.erase(a);
  return bdf_of;
}

}  // namespace

Snapshot snapshot_from_capture(const CaptureSet& set) {
  Snapshot s;
  s.source = SnapshotSource{set.kind, set.origin};
  struct Item {
    const CaptureFile* file;
    std::string tool;
    std::string target;
  };
  std::vector<Item> items;
  std::deque<CaptureFile> parts;  // the commands of pasted files, split at their prompt lines
  for (const CaptureFile& file : set.files) {
    // A paste quoted as a reply ("> " on every line) is read as the text it quotes, with the
    // file's own line numbers.
    const CaptureFile* fp = &file;
    if (file.problem.empty() && !text::looks_binary(file.bytes))
      if (std::optional<std::string> plain = unquote(file.bytes)) {
        parts.push_back({file.name, std::move(*plain), "", 0});
        fp = &parts.back();
      }
    const CaptureFile& f = *fp;
    std::string base = f.name.substr(f.name.find_last_of('/') == std::string::npos ? 0 : f.name.find_last_of('/') + 1);
    if (base == "rocekit-capture.log" && f.problem.empty()) {
      read_capture_log(s, f);
      s.inputs.push_back({f.name, "rocekit-capture.log", "", "parsed", {}});
      continue;
    }
    if (is_ignored_name(f.name)) continue;
    if (!f.problem.empty()) {
      s.inputs.push_back({f.name, "", "", "ignored", {f.name + ": " + f.problem}});
      continue;
    }
    std::string tool;
    std::string target;
    bool named = split_capture_name(f.name, tool, target) && find_tool(tool) != nullptr;
    if (!named) {
      target.clear();
      tool.clear();
    }
    if (f.bytes.empty()) {
      s.inputs.push_back({f.name, tool, target, "error", {f.name + ": empty file"}});
      continue;
    }
    if (text::looks_binary(f.bytes)) {
      s.inputs.push_back({f.name, tool, target, "error", {f.name + ": binary content, not a tool's text output"}});
      continue;
    }
    if (!named) {
      if (std::vector<PastePart> pp = split_paste(f.bytes); !pp.empty()) {
        // The same command for the same target twice (before/after): the first is used; a
        // different second output is an input problem, so the report is not called healthy on
        // whichever happened to come first.
        std::map<std::pair<std::string, std::string>, std::pair<std::size_t, std::string>> first;
        for (const PastePart& p : pp) {
          std::string bytes = paste_lines(f.bytes, p.first_line, p.last_line);
          std::string body(parse::strip_capture_header(bytes).body);
          std::string part_target = p.target;
          if (p.by_content && pp.size() == 1 && part_target.empty()) {
            // Keep an @target from a non-standard name, e.g. "qos@eth4.txt".
            std::string base_tool;
            if (!split_capture_name(f.name, base_tool, part_target)) part_target.clear();
          }
          // Blocks told apart by their content alone may be of different subjects: no repeat.
          auto [it, fresh] = p.by_content ? std::pair{first.end(), true}
                                          : first.try_emplace({p.tool, p.target}, p.first_line, body);
          if (!fresh) {
            bool same = it->second.second == body;
            std::string what = "`" + p.tool + (p.target.empty() ? "" : " " + p.target) + "`";
            s.inputs.push_back({f.name, p.tool, p.target, same ? "unused" : "ignored",
                                {f.name + ":" + std::to_string(p.first_line) + ": " + what + " again" +
                                 (same ? ", the same output as line " : ", with a different output than line ") +
                                 std::to_string(it->second.first) + (same ? "" : ": not used (check each paste on its own to compare them)")}});
            continue;
          }
          parts.push_back({f.name, std::move(bytes), "", p.first_line - 1});
          items.push_back({&parts.back(), p.tool, part_target});
        }
        continue;
      }
      parse::CaptureText ct = parse::strip_capture_header(f.bytes);
      std::optional<parse::PromptCommand> pc =
          ct.prompt_line.empty() ? std::nullopt : parse::parse_prompt_line(ct.prompt_line);
      if (pc && find_tool(pc->tool) != nullptr) {
        // The pasted prompt names the command: "$ sudo mlnx_qos -i eth4" is mlnx_qos@eth4.
        tool = pc->tool;
        target = pc->target;
      } else if (const Tool* t = identify(ct.body)) {
        tool = std::string(t->id);
        std::string ignored;
        // Keep an @target from a non-standard name, e.g. "qos@eth4.txt".
        std::string base_tool;
        if (split_capture_name(f.name, base_tool, ignored)) target = ignored;
      } else {
        s.inputs.push_back({f.name, "", "", "ignored",
                            {f.name + ":1: unknown tool output (name the file <tool>[@<target>].txt; "
                                      "see `rocekit parse --help`)"}});
        continue;
      }
    }
    items.push_back({&f, tool, target});
  }
  const std::map<std::string, std::string> mst_bdf = name_mst_targets(items);
  auto order_of = [](const std::string& tool) { return find_tool(tool)->order; };
  std::stable_sort(items.begin(), items.end(),
                   [&](const Item& a, const Item& b) { return order_of(a.tool) < order_of(b.tool); });
  std::vector<build::SeenGpu> seen_gpus;
  IommuSeen iommu;
  for (const Item& it : items) {
    s.inputs.push_back({it.file->name, it.tool, it.target, "parsed", {}});
    InputFile& in = s.inputs.back();
    const Tool* tool = find_tool(it.tool);
    if (tool->merge == nullptr) {
      in.status = "unused";
      in.messages.push_back(it.file->name + ": " + it.tool +
                            " output is parsed but not used by any rule yet");
      continue;
    }
    Ctx c{s, *it.file, it.tool, it.target, parse::strip_capture_header(it.file->bytes), in};
    c.text.body_first_line += it.file->line_offset;
    c.seen_gpus = &seen_gpus;
    c.iommu = &iommu;
    c.mst_bdf = &mst_bdf;
    tool->merge(c);
  }
  build::place_gpus(s, std::move(seen_gpus));  // also links the PCI tree
  apply_iommu(s, iommu);
  std::sort(s.inputs.begin(), s.inputs.end(), [](const InputFile& a, const InputFile& b) { return a.file < b.file; });
  build::finish_links(s);
  fill_bluefield_modes(s);  // after lspci names and NV queries are all merged
  std::sort(s.netdevs.begin(), s.netdevs.end(), [](const NetDev& a, const NetDev& b) { return a.name < b.name; });
  std::sort(s.rdma_devices.begin(), s.rdma_devices.end(),
            [](const RdmaDevice& a, const RdmaDevice& b) { return a.name < b.name; });
  std::sort(s.pci_functions.begin(), s.pci_functions.end(),
            [](const PciFunction& a, const PciFunction& b) { return a.bdf < b.bdf; });
  fill_reasons(s);
  if (s.rdma_devices.empty() && s.netdevs.empty() && s.pci_functions.empty())
    s.notes.push_back("no RDMA devices, netdevs or PCI functions found in the capture");
  return s;
}

}  // namespace rk::capture
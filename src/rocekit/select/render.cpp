#include "rocekit/select/render.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace rk::select {

namespace cat = rk::catalog;
using nlohmann::json;

namespace {

std::string num(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{:.0f}", v);
  return fmt::format("{:.1f}", v);
}

template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

std::string opt_text(const std::optional<int>& v) { return v ? std::to_string(*v) : "?"; }

/// Markdown table cell: pipes escaped.
std::string cell(std::string s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += "\\|";
    else if (ch == '\n') out += ' ';
    else out += ch;
  }
  return out;
}

json to_json(const rules::DataPath& p) {
  json hops = json::array();
  for (const rules::PathHop& h : p.hops)
    hops.push_back({{"bdf", h.bdf}, {"role", h.role}, {"link", opt(h.link)},
                    {"max_payload_bytes", opt(h.max_payload_bytes)}, {"gbps", opt(h.gbps)}, {"acs", opt(h.acs)}});
  json verdicts = json::array();
  for (const rules::PathVerdict& v : p.verdicts)
    verdicts.push_back({{"rule", v.rule}, {"outcome", std::string(to_string(v.outcome))},
                        {"severity", std::string(to_string(v.severity))}, {"message", v.message}});
  return {{"gpu", p.gpu}, {"gpu_bdf", opt(p.gpu_bdf)}, {"gpu_model", opt(p.gpu_model)}, {"nic", opt(p.nic)},
          {"nic_bdf", opt(p.nic_bdf)}, {"relation", opt(p.relation)}, {"c2c", opt(p.c2c)},
          {"through_root_complex", p.through_root_complex}, {"hops", hops}, {"ceiling_gbps", opt(p.ceiling_gbps)},
          {"ceiling_at", opt(p.ceiling_at)}, {"hops_unknown", p.hops_unknown}, {"verdicts", verdicts}};
}

/// "GPU 0000:1b:00.0 -> 0000:1a:00.0 Downstream Port Gen5 x16 MPS 256 ACS ReqRedir- ... -> NIC".
std::string hop_text(const rules::PathHop& h) {
  std::string o = h.role + " " + h.bdf;
  if (h.link) o += " " + *h.link;
  if (h.max_payload_bytes) o += " MPS " + std::to_string(*h.max_payload_bytes);
  if (h.acs) o += " [ACSCtl " + *h.acs + "]";
  return o;
}

std::string verdicts_text(const rules::DataPath& p, bool md) {
  std::string o;
  for (const rules::PathVerdict& v : p.verdicts)
    o += (o.empty() ? "" : md ? "<br>" : "\n") + fmt::format("{} {}", to_string(v.outcome), v.rule);
  return o.empty() ? "-" : o;
}

std::string render_data_paths(const std::vector<rules::DataPath>& paths, bool md) {
  if (paths.empty()) return "";
  std::string o = md ? "\n## GPU data path\n\n| GPU | NIC | path | hops | ceiling Gb/s | verdicts |\n|---|---|---|---|---|---|\n"
                     : "\nGPU data path (GPU -> NIC; ceiling = slowest link, payload Gb/s one direction)\n";
  for (const rules::DataPath& p : paths) {
    std::string gpu = "GPU " + std::to_string(p.gpu) + (p.gpu_bdf ? " " + *p.gpu_bdf : std::string()) +
                      (p.gpu_model ? " " + *p.gpu_model : std::string());
    std::string nic = p.nic ? *p.nic + (p.nic_bdf ? " " + *p.nic_bdf : std::string()) : "-";
    std::string path = p.relation.value_or("-") + (p.c2c ? " (NVLink-C2C: " + *p.c2c + ")" : std::string()) +
                       (p.through_root_complex ? " via the root complex" : std::string());
    std::string ceiling = p.ceiling_gbps ? num(std::round(*p.ceiling_gbps * 10) / 10) + " at " + p.ceiling_at.value_or("?")
                                         : "unknown";
    if (md) {
      std::string hops;
      for (const rules::PathHop& h : p.hops) hops += (hops.empty() ? "" : " &rarr; ") + cell(hop_text(h));
      if (hops.empty()) hops = cell(p.hops_unknown);
      o += fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(gpu), cell(nic), cell(path), hops, cell(ceiling),
                       cell(verdicts_text(p, true)));
      continue;
    }
    o += fmt::format("  {} -> {} at {}; ceiling {}\n", gpu, nic, path, ceiling);
    if (p.hops.empty()) o += "    hops: " + p.hops_unknown + "\n";
    for (const rules::PathHop& h : p.hops) o += "    " + hop_text(h) + "\n";
    for (const rules::PathVerdict& v : p.verdicts)
      o += fmt::format("    {:<8} {}: {}\n", to_string(v.outcome), v.rule, v.message);
  }
  return o;
}

}  // namespace

json to_json(const Selection& s) {
  json j;
  j["schema"] = "rocekit-select/1";
  j["platform"] = {{"key", s.platform_key}, {"name", s.platform_name}, {"origin", s.origin},
                   {"sources", s.sources}, {"notes", s.notes}};
  j["requirements"] = {{"fabric", s.fabric},
                       {"gpu_count", s.gpu_count},
                       {"gpu_bandwidth_gbps", s.gpu_bandwidth_gbps},
                       {"rails", s.rails},
                       {"gpus_per_nic", s.gpus_per_nic},
                       {"need_per_nic_gbps", s.need_per_nic_gbps}};
  json bill = json::array();
  for (const BillLine& b : s.bill)
    bill.push_back({{"role", b.role}, {"model", b.model_key}, {"name", b.model_name}, {"kind", b.kind},
                    {"count", b.count}, {"ports", b.ports}, {"port_gbps", b.port_gbps},
                    {"connector", b.connector}, {"slots", b.slots}});
  j["bill"] = bill;
  json place = json::array();
  for (const GpuPlacement& p : s.placement)
    place.push_back({{"gpu", p.gpu}, {"gpu_numa", opt(p.gpu_numa)}, {"rail", p.rail}, {"slot", p.slot},
                     {"pcie_switch", opt(p.pcie_switch)}, {"nic_numa", opt(p.nic_numa)}, {"path", p.path}});
  j["placement"] = place;
  j["decision"] = {{"choice", s.decision.choice}, {"applies_to", s.decision.applies_to},
                   {"reasons", s.decision.reasons}, {"costs", s.decision.costs}};
  json pcie = json::array();
  for (const PcieRow& r : s.pcie)
    pcie.push_back({{"slot", r.slot}, {"role", r.role}, {"model", r.model_key}, {"ports", r.ports},
                    {"port_gbps", r.port_gbps}, {"line_rate_gbps", r.line_rate_gbps}, {"link_gen", r.link_gen},
                    {"link_lanes", r.link_lanes}, {"links", r.links}, {"max_payload_bytes", r.max_payload_bytes},
                    {"effective_gbps", r.effective_gbps}, {"ratio", r.ratio},
                    {"verdict", std::string(cat::to_string(r.verdict))}, {"headroom_pct", r.headroom_pct}});
  j["pcie"] = pcie;
  json warn = json::array();
  for (const Warning& w : s.warnings)
    warn.push_back({{"id", w.id}, {"severity", w.severity}, {"message", w.message}, {"fix", w.fix}});
  j["warnings"] = warn;
  json alts = json::array();
  for (const Alternative& a : s.alternatives)
    alts.push_back({{"rank", a.rank}, {"model", a.model_key}, {"name", a.model_name}, {"ports", a.ports},
                    {"port_gbps", a.port_gbps}, {"pcie_ratio", opt(a.ratio)}, {"why_lost", a.why_lost}});
  j["alternatives"] = alts;
  return j;
}

json to_json(const HostJudgement& h) {
  json j;
  j["schema"] = "rocekit-select-host/1";
  j["hostname"] = h.hostname;
  j["source"] = h.source;
  json nics = json::array();
  for (const HostNic& n : h.nics)
    nics.push_back({{"bdf", n.bdf}, {"rdma_device", opt(n.rdma_device)}, {"model", n.model},
                    {"part_number", opt(n.part_number)}, {"numa_node", opt(n.numa_node)}, {"ports", opt(n.ports)},
                    {"port_gbps", opt(n.port_gbps)}, {"link_capability", opt(n.link_capability)},
                    {"link_status", opt(n.link_status)}, {"max_payload_bytes", opt(n.max_payload_bytes)},
                    {"effective_gbps", opt(n.effective_gbps)},
                    {"effective_at_capability_gbps", opt(n.effective_at_capability_gbps)},
                    {"ratio", opt(n.ratio)}, {"verdict", opt(n.verdict)}, {"gpus", n.gpus}});
  j["nics"] = nics;
  json gpus = json::array();
  for (const HostGpu& g : h.gpus)
    gpus.push_back({{"index", g.index}, {"numa_node", opt(g.numa_node)}, {"cpu_affinity", opt(g.cpu_affinity)},
                    {"nic", opt(g.nic)}, {"relation", opt(g.relation)}});
  j["gpus"] = gpus;
  json paths = json::array();
  for (const rules::DataPath& p : h.data_paths) paths.push_back(to_json(p));
  j["data_paths"] = paths;
  json adv = json::array();
  for (const HostAdvice& a : h.advice)
    adv.push_back({{"id", a.id}, {"severity", a.severity}, {"subject", a.subject}, {"message", a.message},
                   {"action", a.action},
                   {"evidence", {{"file", a.evidence.file}, {"line", a.evidence.line}, {"text", a.evidence.text}}}});
  j["advice"] = adv;
  return j;
}

std::string render(const Selection& s, Format f) {
  if (f == Format::json) return to_json(s).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::string o;
  const bool md = f == Format::markdown;
  auto h = [&](const std::string& t) { o += md ? "\n## " + t + "\n\n" : "\n" + t + "\n"; };
  o += md ? "# NIC selection: " + s.platform_name + "\n\n" : "NIC selection: " + s.platform_name + "\n";
  o += fmt::format("{}{} GPUs, {} per GPU over {}, {} rails: {} GPU(s) per NIC, {} Gb/s per NIC\n",
                   md ? "" : "  ", s.gpu_count, num(s.gpu_bandwidth_gbps) + "G", s.fabric, s.rails,
                   s.gpus_per_nic, num(s.need_per_nic_gbps));
  h("Bill of NICs (per server)");
  if (md) o += "| role | count | model | kind | ports | connector | slots |\n|---|---|---|---|---|---|---|\n";
  for (const BillLine& b : s.bill) {
    std::string ports = fmt::format("{} x {}G", b.ports, num(b.port_gbps));
    std::string slots = fmt::format("{}", fmt::join(b.slots, ", "));
    if (md)
      o += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", b.role, b.count, b.model_name, b.kind, ports,
                       cell(b.connector), cell(slots));
    else
      o += fmt::format("  {:<9} {} x {} ({}), {} {}; slots: {}\n", b.role, b.count, b.model_name, b.kind, ports,
                       b.connector, slots);
  }
  h("Placement and rails");
  if (md) o += "| GPU | GPU NUMA | rail | slot | switch | NIC NUMA | path |\n|---|---|---|---|---|---|---|\n";
  for (const GpuPlacement& p : s.placement) {
    if (md)
      o += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", p.gpu, opt_text(p.gpu_numa), p.rail, p.slot,
                       p.pcie_switch.value_or("-"), opt_text(p.nic_numa), p.path);
    else
      o += fmt::format("  GPU {} (NUMA {}) -> rail {} NIC in {} (switch {}, NUMA {}): {}\n", p.gpu,
                       opt_text(p.gpu_numa), p.rail, p.slot, p.pcie_switch.value_or("-"), opt_text(p.nic_numa),
                       p.path);
  }
  h(fmt::format("NIC or DPU ({}): {}", s.decision.applies_to, s.decision.choice == "dpu" ? "DPU" : "NIC"));
  for (const std::string& r : s.decision.reasons) o += (md ? "- " : "  - ") + r + "\n";
  for (const std::string& c : s.decision.costs) o += (md ? "- cost: " : "  - cost: ") + c + "\n";
  h("PCIe feasibility (effective = modelled DMA payload rate, MPS 256)");
  if (md)
    o += "| slot | role | NIC | line rate Gb/s | link | effective Gb/s | ratio | headroom | verdict |\n"
         "|---|---|---|---|---|---|---|---|---|\n";
  for (const PcieRow& r : s.pcie) {
    if (md)
      o += fmt::format("| {} | {} | {} | {} | Gen{} x{}{} | {} | {:.2f} | {:+.1f}% | {} |\n", r.slot, r.role,
                       r.model_key, num(r.line_rate_gbps), r.link_gen, r.link_lanes, r.links > 1 ? " (2 links)" : "",
                       num(r.effective_gbps), r.ratio,
                       r.headroom_pct, cat::to_string(r.verdict));
    else
      o += fmt::format("  {:<20} {:<8} {:<22} {:>5} Gb/s on Gen{} x{:<2}{} = {:>6} Gb/s  ratio {:.2f} ({:+.1f}%) {}\n",
                       r.slot, r.role, r.model_key, num(r.line_rate_gbps), r.link_gen, r.link_lanes,
                       r.links > 1 ? " x2" : "",
                       num(r.effective_gbps), r.ratio, r.headroom_pct, cat::to_string(r.verdict));
  }
  h("Warnings");
  if (s.warnings.empty()) o += md ? "None.\n" : "  none\n";
  for (const Warning& w : s.warnings)
    o += md ? fmt::format("- **{}** [{}] {}\n  fix: {}\n", w.severity, w.id, w.message, w.fix)
            : fmt::format("  {} [{}] {}\n      fix: {}\n", w.severity, w.id, w.message, w.fix);
  h("Alternatives (best first)");
  if (md) o += "| rank | NIC | ports | PCIe ratio | why it lost |\n|---|---|---|---|---|\n";
  for (const Alternative& a : s.alternatives) {
    std::string ratio = a.ratio ? fmt::format("{:.2f}", *a.ratio) : "-";
    if (md)
      o += fmt::format("| {} | {} | {} x {}G | {} | {} |\n", a.rank, a.model_name, a.ports, num(a.port_gbps), ratio,
                       cell(a.why_lost));
    else
      o += fmt::format("  {}. {} {} x {}G (ratio {}): {}\n", a.rank, a.model_name, a.ports, num(a.port_gbps), ratio,
                       a.why_lost);
  }
  if (!s.sources.empty()) {
    h("Sources");
    for (const std::string& src : s.sources) o += (md ? "- " : "  ") + src + "\n";
  }
  for (const std::string& n : s.notes) o += (md ? "\n> " : "  note: ") + n + "\n";
  return o;
}

std::string render(const HostJudgement& hj, Format f) {
  if (f == Format::json) return to_json(hj).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const bool md = f == Format::markdown;
  std::string o = md ? "# Installed NICs: " + (hj.hostname.empty() ? hj.source : hj.hostname) + "\n\n"
                     : "Installed NICs: " + (hj.hostname.empty() ? hj.source : hj.hostname) + "\n";
  if (md)
    o += "| NIC | model | NUMA | ports | link (cap -> status) | effective Gb/s | ratio | GPUs |\n"
         "|---|---|---|---|---|---|---|---|\n";
  for (const HostNic& n : hj.nics) {
    std::string name = n.rdma_device ? *n.rdma_device + " " + n.bdf : n.bdf;
    std::string ports = n.ports ? fmt::format("{} x {}G", *n.ports, num(n.port_gbps.value_or(0))) : "unknown";
    std::string link = n.link_status ? n.link_capability.value_or("?") + " -> " + *n.link_status : "unknown";
    std::string eff = n.effective_gbps ? num(*n.effective_gbps) : "unknown";
    std::string ratio = n.ratio ? fmt::format("{:.2f} {}", *n.ratio, n.verdict.value_or("")) : "unknown";
    std::string gpus = n.gpus.empty() ? "-" : fmt::format("{}", fmt::join(n.gpus, ","));
    if (md)
      o += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", name, cell(n.model), opt_text(n.numa_node),
                       ports, link, eff, ratio, gpus);
    else
      o += fmt::format("  {} {} NUMA {}: {}; link {}; {} Gb/s effective, ratio {}; GPUs {}\n", name, n.model,
                       opt_text(n.numa_node), ports, link, eff, ratio, gpus);
  }
  o += render_data_paths(hj.data_paths, md);
  o += md ? "\n## What to move or replace\n\n" : "\nWhat to move or replace\n";
  if (hj.advice.empty()) o += md ? "Nothing.\n" : "  nothing\n";
  for (const HostAdvice& a : hj.advice) {
    std::string where = a.evidence.file.empty() ? "" : " (" + a.evidence.file +
                                                           (a.evidence.line ? ":" + std::to_string(a.evidence.line) : "") + ")";
    o += md ? fmt::format("- **{}** [{}] {}: {}{}\n  action: {}\n", a.severity, a.id, a.subject, a.message, where, a.action)
            : fmt::format("  {} [{}] {}: {}{}\n      action: {}\n", a.severity, a.id, a.subject, a.message, where, a.action);
  }
  return o;
}

std::string render_catalog_list(const cat::Catalog& c, Format f) {
  if (f == Format::json) {
    json arr = json::array();
    for (const cat::NicModel& m : c.models())
      arr.push_back({{"key", m.key}, {"name", m.name}, {"kind", std::string(cat::to_string(m.kind))},
                     {"max_port_gbps", opt(m.max_port_gbps)}, {"pcie_gen", opt(m.pcie_gen)},
                     {"pcie_lanes", opt(m.pcie_lanes)}, {"arm_cores", opt(m.arm_cores)}});
    return arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  const bool md = f == Format::markdown;
  std::string o = md ? "| key | name | kind | max port Gb/s | PCIe | Arm cores |\n|---|---|---|---|---|---|\n"
                     : fmt::format("{:<22} {:<24} {:<9} {:>8}  {:<9} {}\n", "KEY", "NAME", "KIND", "MAX GB/S",
                                   "PCIE", "ARM");
  for (const cat::NicModel& m : c.models()) {
    std::string pcie = m.pcie_gen ? fmt::format("Gen{} x{}", *m.pcie_gen, opt_text(m.pcie_lanes)) : "unknown";
    std::string mx = m.max_port_gbps ? num(*m.max_port_gbps) : "unknown";
    std::string arm = m.arm_cores ? std::to_string(*m.arm_cores) : "-";
    if (md)
      o += fmt::format("| {} | {} | {} | {} | {} | {} |\n", m.key, m.name, cat::to_string(m.kind), mx, pcie, arm);
    else
      o += fmt::format("{:<22} {:<24} {:<9} {:>8}  {:<9} {}\n", m.key, m.name, cat::to_string(m.kind), mx, pcie, arm);
  }
  return o;
}

std::string render_catalog_model(const cat::NicModel& m, Format f) {
  json j;
  j["key"] = m.key;
  j["name"] = m.name;
  j["family"] = m.family;
  j["kind"] = std::string(cat::to_string(m.kind));
  j["pci_device_id"] = fmt::format("0x{:04x}", m.pci_device_id);
  j["fw_major"] = opt(m.fw_major);
  j["max_port_gbps"] = opt(m.max_port_gbps);
  json po = json::array();
  for (const cat::PortOption& p : m.port_options)
    po.push_back({{"ports", opt(p.port_count)}, {"gbps", opt(p.speed_gbps)}, {"connector", p.connector},
                  {"protocols", p.protocols}, {"sku", opt(p.sku)}, {"note", opt(p.note)}});
  j["port_options"] = po;
  j["pcie_gen"] = opt(m.pcie_gen);
  j["pcie_lanes"] = opt(m.pcie_lanes);
  j["options"] = {{"socket_direct", opt(m.options.socket_direct)}, {"multi_host", opt(m.options.multi_host)},
                  {"x16_extension", opt(m.options.x16_extension)}};
  j["features"] = m.features;
  j["features_secondary"] = m.features_secondary;
  j["features_unverified"] = m.features_unverified;
  j["arm_cores"] = opt(m.arm_cores);
  j["arm_core_type"] = opt(m.arm_core_type);
  j["dram_gb"] = opt(m.dram_gb);
  j["typical_power_w"] = opt(m.typical_power_w);
  j["notes"] = opt(m.notes);
  j["sources"] = m.sources;
  if (f == Format::json) return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const bool md = f == Format::markdown;
  std::string o = md ? "# " + m.name + " (`" + m.key + "`)\n\n" : m.name + " (" + m.key + ")\n";
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "key" || it.key() == "name") continue;
    std::string v;
    if (it->is_null()) v = "unknown";
    else if (it->is_string()) v = it->get<std::string>();
    else if (it.key() == "port_options") {
      for (const cat::PortOption& p : m.port_options)
        v += fmt::format("{}{} x {}G {} {}{}", v.empty() ? "" : "; ", opt_text(p.port_count),
                         p.speed_gbps ? num(*p.speed_gbps) : "?", p.connector, fmt::join(p.protocols, "/"),
                         p.sku ? " (" + *p.sku + ")" : "");
    } else if (it->is_array()) {
      for (const json& e : *it) v += (v.empty() ? "" : ", ") + (e.is_string() ? e.get<std::string>() : e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      if (v.empty()) v = "-";
    } else v = it->dump();
    o += md ? "- **" + it.key() + "**: " + v + "\n" : fmt::format("  {:<20} {}\n", it.key(), v);
  }
  return o;
}

}  // namespace rk::select

// Host-wide outputs: the system-check report, NCCL log, lsmod, persistence listing,
// nvidia-smi topo -m, the GPUDirect peer-memory read.
#include <algorithm>
#include <map>

#include "rocekit/build/builder.hpp"
#include "rocekit/capture/merge.hpp"
#include "rocekit/parse/lsmod.hpp"
#include "rocekit/parse/nvidia_version.hpp"
#include "rocekit/parse/doca_hugepages.hpp"
#include "rocekit/parse/host_resources.hpp"
#include "rocekit/parse/kubelet_pod.hpp"
#include "rocekit/parse/proc_cmdline.hpp"
#include "rocekit/parse/sysfs_iommu_groups.hpp"
#include "rocekit/parse/uname.hpp"
#include "rocekit/parse/ofed_info.hpp"
#include "rocekit/parse/app_env.hpp"
#include "rocekit/parse/nccl_log.hpp"
#include "rocekit/parse/nvidia_smi_topo.hpp"
#include "rocekit/parse/persistence.hpp"
#include "rocekit/parse/system_checks.hpp"
#include "rocekit/parse/sysfs_peermem.hpp"

namespace rk::capture {

void on_system_checks(Ctx& c) {
  auto v = c.take(parse::parse_system_checks(c.text.body));
  if (!v) return;
  if (v->hostname && c.snap.hostname.empty()) c.snap.hostname = *v->hostname;
  for (const parse::SystemChecksInterface& i : v->interfaces) {
    if (!i.netdev) continue;
    NetDev& n = c.snap.netdev(*i.netdev);
    // The interface's own "Name   : <netdev>" line: its fields are looked up from there, not
    // from the first interface's.
    std::size_t body_from = std::max<std::size_t>(1, c.field_line("Name", *i.netdev));
    if (i.pcie_bdf) n.bdf = normalize_bdf(*i.pcie_bdf);
    if (i.rdma_device) {
      n.rdma_device = i.rdma_device;
      n.rdma_port = 1;
    }
    if (i.mtu_bytes) take_mtu(c, n, *i.mtu_bytes, c.find("MTU", body_from));
    if (i.operstate) {
      n.operstate.value = *i.operstate;
      n.operstate.source = c.find("Operstate", body_from);
    }
    if (i.rx_flow_control || i.tx_flow_control) {
      n.pause.value = PauseState{std::nullopt, i.rx_flow_control, i.tx_flow_control};
      n.pause.source = c.find("RX flow control", body_from);
    }
    if (i.trust) {
      QosState q;
      q.trust = trust_from_string(*i.trust);
      q.trust_source = c.find("trust state", body_from);
      std::vector<std::string> notes{"system-check report: trust state only (no DSCP map or PFC)"};
      if (!q.trust) notes.push_back("trust state \"" + *i.trust + "\" is neither pcp nor dscp");
      Evidence src = q.trust_source;
      set_qos(c, n, std::move(q), src, std::move(notes));
    }
    if (i.pcie_bdf && i.max_read_request_bytes) {
      if (auto b = normalize_bdf(*i.pcie_bdf)) {
        build::max_read_request(c.snap.pci(*b), *i.max_read_request_bytes, c.find("MRRS", body_from));
      }
    }
  }
  // "Mellanox NICs" records: the running firmware per PCI function (fw.uniform-version).
  for (const parse::SystemChecksNic& nic : v->nics) {
    if (!nic.pcie_bdf || !nic.fw_version) continue;
    std::size_t from = c.find(nic.record).line;
    std::size_t body_from = from >= c.text.body_first_line ? from - c.text.body_first_line + 1 : 1;
    Evidence fw_line = c.find("NIC FW version", body_from);
    std::optional<std::string> bdf = normalize_bdf(*nic.pcie_bdf);
    // A record naming the NIC by its MST device: the PCI address `mst status -v` gives it.
    if (!bdf && is_mst_name(*nic.pcie_bdf)) {
      bdf = c.bdf_of_mst(*nic.pcie_bdf);
      if (!bdf) {
        unplaced_firmware(c, *nic.pcie_bdf, nic.fw_version, fw_line);
        continue;
      }
    }
    if (!bdf) continue;
    PciFunction& p = c.snap.pci(*bdf);
    if (may_take_firmware(c, p, nic.fw_version, fw_line)) build::running_firmware(p, nic.fw_version, std::nullopt, fw_line);
  }
  if (!v->loaded_modules.empty()) {
    c.snap.kernel_modules.value = v->loaded_modules;
    c.snap.kernel_modules.source = c.find("modules");
    bool peermem = std::find(v->loaded_modules.begin(), v->loaded_modules.end(), "nvidia_peermem") !=
                   v->loaded_modules.end();
    if (!c.snap.gpudirect.has_value() && peermem) {
      GpuDirectState g;
      g.peermem_loaded = true;
      c.snap.gpudirect.value = g;
      c.snap.gpudirect.source = c.find("nvidia_peermem");
    }
  }
  if (!v->gpu_nic_links.empty() && !c.snap.gpus.has_value()) {
    std::map<std::string, Gpu> gpus;
    for (const parse::SystemChecksGpuNicLink& l : v->gpu_nic_links) {
      Gpu& g = gpus[l.gpu];
      if (g.source.file.empty()) {
        g.index = static_cast<int>(text::parse_int(l.gpu.substr(3)).value_or(0));
        g.source = c.find(l.gpu + " ");
      }
      std::string rel = l.connection == "SOC" ? "SYS" : l.connection;
      if (rel == "X" || rel.starts_with("NV")) continue;
      g.nics.push_back({l.nic, rel, g.source});
    }
    std::vector<Gpu> out;
    for (auto& [k, g] : gpus) out.push_back(g);
    c.snap.gpus.value = out;
    c.snap.gpus.source = c.find("GPU0");
  }
}

namespace {
std::string join_words(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& x : v) out += (out.empty() ? "" : ", ") + x;
  return out;
}
}  // namespace

void on_nccl_log(Ctx& c) {
  auto v = c.take(parse::parse_nccl_log(c.text.body));
  if (!v) return;
  // An mpirun/srun log of several nodes: this capture is one host, so only one node's lines
  // are its facts (the capture's hostname when the log has it, else the first node).
  if (v->hosts.size() > 1) {
    bool named = std::find(v->hosts.begin(), v->hosts.end(), c.snap.hostname) != v->hosts.end();
    std::string keep = named ? c.snap.hostname : v->hosts.front();
    std::string all = join_words(v->hosts);
    if (auto one = parse::parse_nccl_log(parse::nccl_log_of_host(c.text.body, keep))) v = std::move(one->value);
    if (c.input.status == "parsed") c.input.status = "parsed_with_warnings";
    c.input.messages.push_back(c.file.name + ": several_hosts: the log holds the lines of " + all + ": only " + keep +
                               "'s are read" +
                               (named ? " (the capture's hostname)" : " (the first; the capture names none of them)"));
  }
  GpuDirectState g = c.snap.gpudirect.value.value_or(GpuDirectState{});
  Evidence ev;
  for (const parse::NcclChannel& ch : v->channels)
    if (ch.gdrdma) {
      g.gdrdma_in_use = true;
      ev = c.at(ch.line);
      break;
    }
  if (!g.gdrdma_in_use) {
    for (const parse::NcclGdrStatus& s : v->gdr_status)
      if (s.enabled) g.gdrdma_in_use = true;
    ev = c.find("GPU Direct RDMA");
  }
  if (!g.gdrdma_in_use && !v->channels.empty()) {
    bool net = std::any_of(v->channels.begin(), v->channels.end(),
                           [](const parse::NcclChannel& ch) { return ch.transport.starts_with("NET/IB"); });
    if (net) {
      g.gdrdma_in_use = false;
      ev = c.find("via NET/IB");
    }
  }
  if (!v->dmabuf_gpus.empty()) {
    g.dmabuf_available = true;
    if (!g.gdrdma_in_use.value_or(false)) ev = c.at(v->dmabuf_line);
  }
  merge_nccl_run(c, *v);
  if (!g.gdrdma_in_use.has_value() && !g.dmabuf_available) return;
  c.snap.gpudirect.value = g;
  c.snap.gpudirect.reason.clear();
  c.snap.gpudirect.source = ev;
}

namespace {

/// Settings of one file into the snapshot's app_settings, in file order.
void add_settings(Ctx& c, const parse::AppEnv& v, const std::string& origin) {
  AppSettings a = c.snap.app_settings.value.value_or(AppSettings{});
  for (const parse::AppAssignment& s : v.assignments) {
    if (!s.effective) continue;  // nccl.conf lines NCCL reads as another name (warned)
    a.settings.push_back({s.name, s.value, origin, s.conditional, s.literal, c.at(s.line), s.unset});
  }
  c.snap.app_settings.value = std::move(a);
  c.snap.app_settings.reason.clear();
  if (c.snap.app_settings.source.file.empty()) c.snap.app_settings.source = c.whole();
}

}  // namespace

void merge_nccl_run(Ctx& c, const parse::NcclLog& v) {
  NcclRun r = c.snap.nccl_run.value.value_or(NcclRun{});
  if (!r.version) r.version = v.version;
  r.elided = r.elided || v.elided;
  if (!r.network && v.network) {
    r.network = v.network;
    r.network_source = c.at(v.network_line);
  }
  if (r.hcas.empty() && !v.ib_devices.empty()) {
    for (const parse::NcclIbDevice& d : v.ib_devices)
      r.hcas.push_back({d.rdma_device, d.port ? std::optional<int>(static_cast<int>(*d.port)) : std::nullopt, d.link_layer});
    r.hcas_source = c.find(" Using [");
  }
  std::size_t first_net = 0;
  for (const parse::NcclChannel& ch : v.channels) {
    if (!ch.transport.starts_with("NET/")) continue;
    if (r.channel_source.file.empty()) r.channel_source = c.at(ch.line);
    if (!first_net) first_net = ch.line;
    ++r.net_channels;
    if (ch.gdrdma) ++r.gdrdma_channels;
  }
  if (r.connected_source.file.empty()) {
    if (v.connected_line) r.connected_source = c.at(v.connected_line);
    for (const parse::NcclEnvEcho& e : v.env)  // read when the NET connection is made
      if (first_net && e.line > first_net && e.name == "NCCL_IB_GID_INDEX" &&
          (!v.connected_line || e.line < v.connected_line))
        r.connected_source = c.at(e.line);
  }
  c.snap.nccl_run.value = std::move(r);
  c.snap.nccl_run.reason.clear();
  if (c.snap.nccl_run.source.file.empty()) c.snap.nccl_run.source = c.whole();
  if (!v.env.empty()) {
    parse::AppEnv echoes;
    for (const parse::NcclEnvEcho& e : v.env) echoes.assignments.push_back({e.name, e.value, e.line, false, true, true, false});
    add_settings(c, echoes, "nccl log");
  }
}

void on_app_env(Ctx& c) {
  auto v = c.take(parse::parse_app_env(c.text.body));
  if (v) add_settings(c, *v, "environment");
}

void on_nccl_conf(Ctx& c) {
  auto v = c.take(parse::parse_nccl_conf(c.text.body));
  // nccl_conf@user.txt: ~/.nccl.conf or $NCCL_CONF_FILE; otherwise /etc/nccl.conf.
  if (v) add_settings(c, *v, c.target == "user" ? "user nccl.conf" : "/etc/nccl.conf");
}

void on_persistence(Ctx& c) {
  auto v = c.take(parse::parse_persistence(c.text.body));
  if (!v) return;
  c.snap.persistence.value = *v;
  c.snap.persistence.source = c.whole();
}

void on_lsmod(Ctx& c) {
  auto v = c.take(parse::parse_lsmod(c.text.body));
  if (!v) return;
  std::vector<std::string> names;
  for (const parse::LsmodModule& m : v->modules) names.push_back(m.name);
  c.snap.kernel_modules.value = names;
  c.snap.kernel_modules.source = c.whole();
  // A filtered lsmod (grep) proves presence, not absence.
  bool peermem = parse::has_module(*v, "nvidia_peermem") || parse::has_module(*v, "nv_peer_mem");
  if (peermem) {
    GpuDirectState g = c.snap.gpudirect.value.value_or(GpuDirectState{});
    g.peermem_loaded = true;
    c.snap.gpudirect.value = g;
    if (c.snap.gpudirect.source.file.empty()) c.snap.gpudirect.source = c.find("peermem");
  } else if (v->header_shown && v->modules.size() > 20) {
    GpuDirectState g = c.snap.gpudirect.value.value_or(GpuDirectState{});
    if (!g.peermem_loaded) g.peermem_loaded = false;
    c.snap.gpudirect.value = g;
    if (c.snap.gpudirect.source.file.empty()) c.snap.gpudirect.source = c.whole();
  } else if (!c.snap.gpudirect.has_value()) {
    c.snap.gpudirect.set_missing(
        c.file.name + " lists " + std::to_string(v->modules.size()) + " modules" +
            (v->header_shown ? "" : " without lsmod's \"Module Size Used by\" header") +
            ", none of them nvidia_peermem: a filtered listing proves a module present, not absent (save the "
            "whole `lsmod`, or `ls /sys/kernel/mm/memory_peers`)",
        ReasonKind::not_captured, "lsmod");
  }
}

void on_topo(Ctx& c) {
  auto v = c.take(parse::parse_nvidia_smi_topo(c.text.body));
  if (!v) return;
  std::vector<Gpu> gpus;
  for (const parse::TopoGpu& tg : v->gpus) {
    Gpu g;
    g.index = static_cast<int>(tg.index.value_or(static_cast<std::uint32_t>(gpus.size())));
    g.source = c.find(tg.name);
    g.model = tg.model;
    for (const parse::TopoRow& row : v->rows)
      if (row.name == tg.name) {
        g.source = c.at(row.line);
        g.cpu_affinity = row.cpu_affinity;
        // "0", or on Grace "0,3-9,11-17": the CPU node first, then the GPU memory nodes.
        if (row.numa_affinity) {
          std::string_view first = *row.numa_affinity;
          first = first.substr(0, first.find_first_of(",-"));
          if (auto n = text::parse_int(first)) g.numa_node = static_cast<int>(*n);
        }
        if (row.gpu_numa_id)
          if (auto n = text::parse_int(*row.gpu_numa_id); n && *n >= 0) g.memory_numa_node = static_cast<int>(*n);
      }
    for (const parse::TopoGpuNic& n : tg.nics) {
      std::string rel = n.text == "SOC" ? "SYS" : n.text;
      g.nics.push_back({n.rdma_device, rel, g.source});
    }
    gpus.push_back(std::move(g));
  }
  c.snap.gpus.value = gpus;
  c.snap.gpus.source = c.find("GPU0");
}

void on_sysfs_peermem(Ctx& c) {
  auto v = c.take(parse::parse_sysfs_peermem(c.text.body));
  if (!v) return;
  GpuDirectState g = c.snap.gpudirect.value.value_or(GpuDirectState{});
  if (v->module) g.peermem_loaded = true;
  g.peer_memory_registered = !v->memory_peers.empty();
  c.snap.gpudirect.value = g;
  c.snap.gpudirect.reason.clear();
  c.snap.gpudirect.source = v->peer_line ? c.at(v->peer_line) : v->module_line ? c.at(v->module_line) : c.whole();
}

void on_nvidia_version(Ctx& c) {
  auto v = c.take(parse::parse_nvidia_version(c.text.body));
  if (!v) return;
  NvidiaDriver d;
  d.version = v->version;
  d.open_module = v->open_module;
  c.snap.nvidia_driver.value = d;
  c.snap.nvidia_driver.reason.clear();
  c.snap.nvidia_driver.source = c.at(v->line);
}

void on_host_resources(Ctx& c) {
  auto v = c.take(parse::parse_host_resources(c.text.body));
  if (!v) return;
  if (!v->node_cpus.empty() && !c.snap.numa_cpu_count.has_value()) {
    c.snap.numa_cpu_count.value = v->node_cpus;
    c.snap.numa_cpu_count.reason.clear();
    c.snap.numa_cpu_count.reason_kind = ReasonKind::none;
    c.snap.numa_cpu_count.source = c.at(v->cpulist_line);
  }
  if (!v->mem_total_kib && v->hugepage_pools.empty() && !v->hugepages_total) return;
  MemoryState m;
  m.total_kib = v->mem_total_kib;
  m.available_kib = v->mem_available_kib;
  for (const parse::HugepageSysfs& p : v->hugepage_pools)
    m.hugepages.push_back({p.page_kib, p.total, p.free, c.at(p.line)});
  // Without sysfs, /proc/meminfo's counts are those of the default page size.
  if (m.hugepages.empty() && v->hugepage_kib && v->hugepages_total)
    m.hugepages.push_back({*v->hugepage_kib, v->hugepages_total, v->hugepages_free, c.find("HugePages_Total")});
  c.snap.memory.value = std::move(m);
  c.snap.memory.reason.clear();
  c.snap.memory.reason_kind = ReasonKind::none;
  c.snap.memory.source = v->meminfo_line ? c.at(v->meminfo_line) : c.whole();
}

void on_doca_hugepages(Ctx& c) {
  auto v = c.take(parse::parse_doca_hugepages(c.text.body));
  if (!v) return;
  std::vector<HugepageReservation> rows;
  for (const parse::DocaHugepageRow& r : v->rows) rows.push_back({r.app, r.page_kib, r.pages, r.state, c.at(r.line)});
  c.snap.doca_hugepages.value = std::move(rows);
  c.snap.doca_hugepages.reason.clear();
  c.snap.doca_hugepages.reason_kind = ReasonKind::none;
  c.snap.doca_hugepages.source = c.whole();
}

void on_kubelet_pod(Ctx& c) {
  auto v = c.take(parse::parse_kubelet_pod(c.text.body));
  if (!v) {
    // Captured but not read: the services' asks are not known (never "not captured").
    std::string why = c.input.messages.empty() ? c.file.name + ": not read" : c.input.messages.back();
    c.snap.static_pods.notes.push_back("not read: " + why);  // kept when another manifest is read
    if (!c.snap.static_pods.has_value())
      c.snap.static_pods.set_missing("a static pod manifest could not be read: " + why, ReasonKind::unreadable,
                                     "kubelet_pod");
    return;
  }
  if (!c.snap.static_pods.has_value()) c.snap.static_pods.value.emplace();
  const std::string file = "/etc/kubelet.d/" + (c.target.empty() ? std::string("?") : c.target) + ".yaml";
  for (const parse::PodContainerAsk& a : v->containers)
    c.snap.static_pods.value->push_back({a.pod, a.container, file, a.image, a.cpu_request_millicores,
                                         a.cpu_limit_millicores, a.memory_request_bytes, a.memory_limit_bytes,
                                         a.hugepages_bytes, a.init, a.unreadable, a.invalid, c.at(a.line)});
  c.snap.static_pods.reason.clear();
  c.snap.static_pods.reason_kind = ReasonKind::none;
  c.snap.static_pods.source = c.whole();
}

void on_uname(Ctx& c) {
  auto v = c.take(parse::parse_uname(c.text.body));
  if (!v) return;
  c.snap.kernel_release.value = v->release;
  c.snap.kernel_release.reason.clear();
  c.snap.kernel_release.source = c.at(v->line);
}

void on_ofed_info(Ctx& c) {
  auto v = c.take(parse::parse_ofed_info(c.text.body));
  if (!v) return;
  DriverStack d;
  d.stack = v->prefix == "MLNX_OFED_LINUX" ? "MLNX_OFED" : v->prefix == "OFED-internal" ? "DOCA-OFED" : v->prefix;
  d.release = v->release;
  d.version = v->version;
  c.snap.driver_stack.value = d;
  c.snap.driver_stack.reason.clear();
  c.snap.driver_stack.source = c.at(v->line);
}

void on_proc_cmdline(Ctx& c) {
  auto v = c.take(parse::parse_proc_cmdline(c.text.body));
  if (!v || !c.iommu) return;
  c.iommu->host.cmdline = v->iommu;
  c.iommu->host.cmdline_source = c.at(v->line);
}

void on_sysfs_iommu_groups(Ctx& c) {
  auto v = c.take(parse::parse_sysfs_iommu_groups(c.text.body));
  if (!v || !c.iommu) return;
  IommuSeen& seen = *c.iommu;
  bool members = false;
  for (const parse::IommuGroupListing& g : v->groups) {
    if (g.type) seen.type_of[static_cast<int>(g.number)] = {*g.type, c.at(g.type_line)};
    for (const std::string& bdf : g.devices) {
      members = true;
      std::size_t line = 0;
      for (std::size_t i = g.line; i <= c.body_lines.size() && !line; ++i)
        if (c.body_lines[i - 1].find(bdf.substr(5)) != std::string_view::npos) line = i;
      seen.by_bdf[bdf] = IommuSeen::Group{IommuGroup{static_cast<int>(g.number), std::nullopt}, c.at(line ? line : g.line)};
    }
  }
  if (!v->untagged_types.empty() &&
      std::all_of(v->untagged_types.begin(), v->untagged_types.end(), [&](const std::string& t) { return t == v->untagged_types.front(); }))
    seen.untagged_type = {v->untagged_types.front(), c.at(v->untagged_first_line)};
  // A listing of members (find's lines) is the whole set: a function not in it is in no group.
  // Type lines alone do not say which devices the groups hold.
  if (members || v->groups.empty()) seen.listing = true;
  seen.host.group_count = v->groups.size() + (v->groups.empty() ? v->untagged_types.size() : 0);
  seen.host.groups_source = v->groups.empty() && v->untagged_types.empty()
                                ? Evidence{c.file.name, 0, "no IOMMU group under /sys/kernel/iommu_groups"}
                                : c.at(v->groups.empty() ? v->untagged_first_line : v->groups.front().line);
}

namespace {

/// One device's group from what the files said; `kind` names the device for the reason.
Collected<IommuGroup> group_for(const IommuSeen& seen, const std::string& bdf) {
  Collected<IommuGroup> out;
  auto it = seen.by_bdf.find(bdf);
  if (it == seen.by_bdf.end()) {
    if (seen.listing)
      out.set_missing("in no IOMMU group of the sysfs_iommu_groups listing: no IOMMU translates its DMA",
                      ReasonKind::not_applicable);
    return out;  // the tool table's gap fills the reason
  }
  IommuGroup g = it->second.group;
  out.source = it->second.source;
  if (auto t = seen.type_of.find(g.number); t != seen.type_of.end()) {
    g.type = t->second.first;
    out.source = t->second.second;
  } else if (seen.untagged_type) {
    g.type = seen.untagged_type->first;
    out.notes.push_back("type from `cat /sys/kernel/iommu_groups/*/type`: every group is " + seen.untagged_type->first);
  }
  out.value = g;
  return out;
}

}  // namespace

void apply_iommu(Snapshot& s, const IommuSeen& seen) {
  for (PciFunction& p : s.pci_functions) p.iommu_group = group_for(seen, p.bdf);
  if (s.gpus.value)
    for (Gpu& g : *s.gpus.value)
      if (g.bdf) g.iommu_group = group_for(seen, *g.bdf);
  const build::IommuEvidence& h = seen.host;
  if (h.cmdline || h.default_domain || h.group_count) s.iommu = build::iommu_state(h);
}

}  // namespace rk::capture

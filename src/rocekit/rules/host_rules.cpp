// Host rules: interrupt coalescing, channels vs NUMA cores, GPUDirect RDMA.
#include <string>

#include "rocekit/build/pci_tree.hpp"
#include "rocekit/core/shell.hpp"
#include "rocekit/fix/fix.hpp"
#include "rocekit/parse/uname.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

void eval_coalescing(const Snapshot& s, const Policy& pol, Emitter& e) {
  const CoalescingProfile& cp = pol.coalescing;
  for (const NetDev& n : s.netdevs) {
    if (NetdevScope sc = roce_netdev_scope(s, n, pol); !sc.roce) {
      e.not_applicable(n.name, sc.why);
      continue;
    }
    if (!n.coalesce.has_value()) {
      e.missing(n.name, "coalescing", n.coalesce);
      continue;
    }
    const CoalesceState& c = *n.coalesce;
    std::vector<std::string> bad;
    if (cp.adaptive_rx) {
      if (!c.adaptive_rx)
        bad.push_back("adaptive-rx not shown");
      else if (*c.adaptive_rx != *cp.adaptive_rx)
        bad.push_back(std::string("adaptive-rx ") + (*c.adaptive_rx ? "on" : "off"));
    }
    auto range = [&](const char* name, const std::optional<std::uint32_t>& v, std::uint32_t lo,
                     std::uint32_t hi) {
      if (!v)
        bad.push_back(std::string(name) + " not shown");
      else if (*v < lo || *v > hi)
        bad.push_back(std::string(name) + " " + std::to_string(*v) + " outside " +
                      std::to_string(lo) + ".." + std::to_string(hi));
    };
    range("rx-usecs", c.rx_usecs, cp.rx_usecs_min, cp.rx_usecs_max);
    range("tx-usecs", c.tx_usecs, cp.tx_usecs_min, cp.tx_usecs_max);
    std::string note = " (profile " + cp.name + "; affects netdev/TCP traffic only, not RDMA)";
    if (bad.empty()) {
      Finding& f = e.pass(n.name, "coalescing matches" + note);
      add_evidence(f, n.coalesce.source);
      continue;
    }
    Finding& f = e.fail(n.name, join(bad, ", ") + note);
    add_evidence(f, n.coalesce.source);
    f.remediation.scope = FixScope::runtime;
    std::vector<std::pair<std::string, std::string>> set;
    if (cp.adaptive_rx) set.emplace_back("adaptive-rx", *cp.adaptive_rx ? "on" : "off");
    set.emplace_back("rx-usecs", std::to_string(cp.rx_usecs_min));
    set.emplace_back("tx-usecs", std::to_string(cp.tx_usecs_min));
    fix::set_fix(f.remediation, "coalesce", join(bad, ", "), "profile " + cp.name,
                 {fix::ethtool_coalesce(n.name, set)});
    f.remediation.notes =
        "Fixed rx-usecs only applies with adaptive-rx off. Interrupt moderation acts on the "
        "netdev's kernel queues (TCP, storage, bootstrap); RDMA completions use per-CQ "
        "moderation chosen by the application, so NCCL data is unaffected. The 8-16 us some guides "
        "recommend has no NVIDIA source: treat the profile as a workload choice. Lost at "
        "reboot.";
  }
}

void eval_channels(const Snapshot& s, const Policy& pol, Emitter& e) {
  for (const NetDev& n : s.netdevs) {
    if (NetdevScope sc = roce_netdev_scope(s, n, pol); !sc.roce) {
      e.not_applicable(n.name, sc.why);
      continue;
    }
    if (!pol.channels_within_numa_cores) {
      e.not_applicable(n.name, "policy channels.limit_to_numa_cores is off");
      continue;
    }
    if (!n.channels.has_value() || !n.channels->combined) {
      if (!n.channels.has_value()) e.missing(n.name, "combined channels", n.channels);
      else e.unknown(n.name, "combined channels not collected: not shown");
      continue;
    }
    if (!n.numa_node) {
      e.unknown(n.name, "the NIC's NUMA node is not known (lspci NUMA node or sysfs numa_node)").needs = {"lspci_vvv"};
      continue;
    }
    if (!s.numa_cpu_count.has_value()) {
      e.missing(n.name, "CPU count per NUMA node", s.numa_cpu_count);
      continue;
    }
    auto it = s.numa_cpu_count->find(*n.numa_node);
    if (it == s.numa_cpu_count->end()) {
      e.unknown(n.name, "no CPU count for NUMA node " + std::to_string(*n.numa_node));
      continue;
    }
    std::uint32_t combined = *n.channels->combined;
    std::string msg = "combined " + std::to_string(combined) + ", NUMA node " +
                      std::to_string(*n.numa_node) + " has " + std::to_string(it->second) +
                      " CPUs";
    if (combined <= static_cast<std::uint32_t>(it->second)) {
      Finding& f = e.pass(n.name, msg);
      add_evidence(f, n.channels.source);
      continue;
    }
    Finding& f = e.fail(n.name, msg + ": queues spill onto the remote node's CPUs");
    add_evidence(f, n.channels.source);
    f.remediation.scope = FixScope::runtime;
    f.remediation.commands = {"ethtool -L " + text::shell_quote(n.name) + " combined " +
                              std::to_string(it->second)};
    f.remediation.notes = "Affects netdev queues and IRQs only, not RDMA QPs. "
                          "Lost at reboot.";
  }
}

/// Whether DMA-BUF GPUDirect RDMA can work on this host: the NVIDIA open GPU kernel module
/// (the proprietary module does not export GPU memory as DMA-BUF; NVIDIA GPU Operator docs,
/// "GPUDirect RDMA and GPUDirect Storage") and a kernel whose RDMA core imports DMA-BUF (Linux
/// 5.12, "RDMA/umem: Support importing dma-buf as user memory region"). true/false with the
/// reason in `why`; nullopt, with the missing input in `why`, when the driver or kernel is not
/// in the input.
std::optional<bool> dmabuf_capable(const Snapshot& s, std::string& why) {
  if (!s.nvidia_driver.has_value() || !s.nvidia_driver->open_module) {
    why = "the NVIDIA driver (`cat /proc/driver/nvidia/version` as nvidia_version.txt) is not in the input";
    return std::nullopt;
  }
  const NvidiaDriver& d = *s.nvidia_driver;
  std::string ver = d.version ? " " + *d.version : std::string();
  if (!*d.open_module) {
    why = "the NVIDIA driver" + ver + " is the proprietary kernel module, which cannot export GPU memory as DMA-BUF";
    return false;
  }
  if (!s.kernel_release.has_value()) {
    why = "the kernel release (`uname -r` as uname.txt) is not in the input";
    return std::nullopt;
  }
  std::optional<std::pair<int, int>> k = parse::kernel_major_minor(*s.kernel_release);
  if (!k) {
    why = "the kernel release \"" + *s.kernel_release + "\" has no major.minor version";
    return std::nullopt;
  }
  if (*k < std::pair<int, int>(5, 12)) {
    why = "kernel " + *s.kernel_release + " predates RDMA DMA-BUF import (Linux 5.12)";
    return false;
  }
  why = "the NVIDIA open GPU kernel module" + ver + " and kernel " + *s.kernel_release +
        " (RDMA DMA-BUF import since Linux 5.12)";
  return true;
}

void eval_peer_memory(const Snapshot& s, const Policy&, Emitter& e) {
  std::string dmabuf_why;
  std::optional<bool> dmabuf = dmabuf_capable(s, dmabuf_why);
  bool proven = s.gpudirect.has_value() && (s.gpudirect->gdrdma_in_use.value_or(false) ||
                                            s.gpudirect->peer_memory_registered.value_or(false) ||
                                            s.gpudirect->dmabuf_available.value_or(false));
  if (!proven && dmabuf.value_or(false)) {
    Finding& f = e.pass("host", "DMA-BUF can register GPU memory with the NIC: " + dmabuf_why +
                                    "; NCCL uses it when available (NCCL_DMABUF_ENABLE, default 1), nvidia-peermem "
                                    "is not needed");
    add_evidence(f, s.nvidia_driver.source);
    add_evidence(f, s.kernel_release.source);
    return;
  }
  if (!s.gpudirect.has_value()) {
    e.missing("host", "GPUDirect RDMA evidence", s.gpudirect);
    return;
  }
  const GpuDirectState& g = *s.gpudirect;
  if (g.gdrdma_in_use.value_or(false)) {
    Finding& f = e.pass("host", "NCCL uses GPUDirect RDMA (GDRDMA transport lines)");
    add_evidence(f, s.gpudirect.source);
    return;
  }
  if (g.peer_memory_registered.value_or(false)) {
    Finding& f = e.pass("host", "a peer-memory client is registered (/sys/kernel/mm/memory_peers)");
    add_evidence(f, s.gpudirect.source);
    return;
  }
  if (g.dmabuf_available.value_or(false)) {
    Finding& f = e.pass("host", "NCCL reports DMA-BUF available: GPU memory is registered with the NIC through "
                                "DMA-BUF, nvidia-peermem is not needed");
    add_evidence(f, s.gpudirect.source);
    return;
  }
  auto fix = [](Finding& f) {
    f.remediation.scope = FixScope::persistent;
    // NVIDIA recommends DMA-BUF over the legacy peer-memory module (GPU Operator "GPUDirect
    // RDMA and GPUDirect Storage"); the module is the fallback, and what the commands load.
    f.remediation.commands = {"modprobe nvidia-peermem",
                              "echo nvidia-peermem > /etc/modules-load.d/nvidia-peermem.conf"};
    f.remediation.checks = {"ls /sys/kernel/mm/memory_peers/ /sys/module/nvidia_peermem/"};
    f.remediation.notes =
        "Prefer DMA-BUF, which NVIDIA recommends over nvidia-peermem (GPU Operator docs, \"GPUDirect RDMA and "
        "GPUDirect Storage\"): it needs the NVIDIA open GPU kernel modules, a kernel with DMA-BUF support and a CUDA "
        "driver >= 11.7; NCCL then logs \"DMA-BUF is available on GPU device N\" (NCCL_DEBUG=INFO). The commands "
        "above load the legacy module instead. "
        "`ibv_devinfo | grep peer`, as some guides write it, shows nothing: ibv_devinfo has no "
        "peer-memory field (rdma-core libibverbs/examples/devinfo.c). NCCL enables GDR when /sys/kernel/mm/memory_peers/nv_mem*/"
        "version or /sys/module/nvidia_peermem/version exists, or via DMA-BUF. Confirm with "
        "`ib_write_bw --use_cuda=0` and NCCL_DEBUG=INFO `GDRDMA` lines.";
  };
  // Without peermem, DMA-BUF may still carry GPUDirect RDMA: fail only when it cannot.
  auto without_peermem = [&](const std::string& what) {
    if (dmabuf != false) {
      Finding& f = e.unknown("host", what + "; whether DMA-BUF can replace it is not known: " + dmabuf_why);
      f.reason_kind = ReasonKind::not_captured;
      // The capture tools whose output decides it (the NOT JUDGED list names their commands).
      if (!s.nvidia_driver.has_value() || !s.nvidia_driver->open_module) f.needs.push_back("nvidia_version");
      else if (!s.kernel_release.has_value()) f.needs.push_back("uname");
      add_evidence(f, s.gpudirect.source);
      return;
    }
    Finding& f = e.fail("host", what + ", and DMA-BUF cannot work: " + dmabuf_why +
                                    ": GPUDirect RDMA falls back to host bounce buffers");
    add_evidence(f, s.gpudirect.source);
    add_evidence(f, s.nvidia_driver->open_module == false ? s.nvidia_driver.source : s.kernel_release.source);
    fix(f);
  };
  if (g.peermem_loaded && !*g.peermem_loaded) {
    without_peermem("nvidia_peermem is not loaded and no peer-memory client is registered");
    return;
  }
  if (g.peer_memory_registered && !*g.peer_memory_registered) {
    without_peermem(std::string("peer memory not registered (no /sys/kernel/mm/memory_peers entry)") +
                    (g.peermem_loaded.value_or(false) ? " although nvidia_peermem is loaded" : ""));
    return;
  }
  e.unknown("host", std::string(g.peermem_loaded.value_or(false)
                                    ? "nvidia_peermem is loaded, but registration "
                                      "(/sys/kernel/mm/memory_peers) or a GDRDMA transfer is not "
                                      "captured"
                                    : "no proof of GPUDirect RDMA either way"));
}

/// A GPU coupled to a Grace CPU over NVLink-C2C has no PCIe switch to share with a NIC, by
/// design: nvidia-smi reports NODE or SYS for every NIC. NCCL uses GDRDMA on NICs attached to
/// the GPU's own CPU (NVIDIA/nccl src/graph/paths.cc: NCCL_NET_GDR_C2C, default 1, path P2C),
/// so the question is whether a NIC hangs off that CPU, not whether it shares a switch.
void judge_c2c(const Snapshot& s, const Gpu& g, const std::string& c2c, const std::string& closest,
               const std::string& subject, Emitter& e) {
  std::string why = c2c + ": the GPU is coupled to a Grace CPU over NVLink-C2C, which has no PCIe switch between GPU "
                    "and NIC by design; NCCL runs GPUDirect RDMA through the CPU on such platforms (NCCL_NET_GDR_C2C, "
                    "default 1, NVIDIA/nccl src/graph/paths.cc)";
  std::vector<std::string> local, remote;
  const GpuNicLink* local_link = nullptr;
  for (const GpuNicLink& l : g.nics) {
    const PciFunction* fn = build::rdma_function(s, l.nic);
    if (!fn || !fn->numa_node || !g.numa_node) continue;
    if (*fn->numa_node == *g.numa_node) {
      local.push_back(l.nic);
      if (!local_link) local_link = &l;
    } else {
      remote.push_back(l.nic + " (NUMA node " + std::to_string(*fn->numa_node) + ")");
    }
  }
  if (!local.empty()) {
    Finding& f = e.pass(subject, join(local) + " on the GPU's CPU (NUMA node " + std::to_string(*g.numa_node) +
                                     "); " + why);
    add_evidence(f, local_link->source.file.empty() ? g.source : local_link->source);
    add_evidence(f, g.source);
    return;
  }
  if (!remote.empty()) {
    Finding& f = e.fail(subject, "no NIC on the GPU's CPU (NUMA node " + std::to_string(*g.numa_node) +
                                     "), only " + join(remote) + ": GPUDirect RDMA crosses the CPU-to-CPU link; " +
                                     why);
    add_evidence(f, g.source);
    f.remediation.scope = FixScope::hardware;
    f.remediation.notes =
        "Give each Grace CPU its own NIC (GB200/GB300 compute trays carry one per GPU) and pin each rank to the "
        "NIC on its CPU (NCCL_IB_HCA).";
    return;
  }
  if (const GpuNicLink* best = build::closest_nic(g); best && (best->relation == "PHB" || best->relation == "NODE")) {
    // nvidia-smi topo legend: PHB = through a PCIe host bridge (the CPU), NODE = between the host
    // bridges of one NUMA node. Either way the NIC hangs off the GPU's own CPU.
    Finding& f = e.pass(subject, best->nic + " at " + best->relation + ", on the GPU's own CPU (nvidia-smi " +
                                     best->relation + ": within one NUMA node); " + why);
    add_evidence(f, best->source.file.empty() ? g.source : best->source);
    add_evidence(f, g.source);
    return;
  }
  Finding& f = e.unknown(subject, "closest NIC at " + closest + ", through the Grace CPU, which is no fault (" + why +
                                      "); whether a NIC hangs off the GPU's own CPU is not known: the " +
                                      (g.numa_node ? std::string("NICs' NUMA nodes are") : std::string("GPU's NUMA node is")) +
                                      " not in the input (add `lspci -vvv -D` or `mst status -v`)");
  f.reason_kind = ReasonKind::not_captured;
  add_evidence(f, g.source);
}

void eval_affinity(const Snapshot& s, const Policy& pol, Emitter& e) {
  const std::vector<Gpu>* gpus = judged_gpus(s, e);
  if (!gpus) return;
  for (const Gpu& g : *gpus) {
    std::string subject = "gpu" + std::to_string(g.index);
    if (g.nics.empty()) {
      e.unknown(subject, "the topology lists no NIC");
      continue;
    }
    const GpuNicLink* best = build::closest_nic(g);
    std::string msg = "closest NIC " + best->nic + " at " + best->relation;
    bool ok = false;
    for (const std::string& r : pol.gpu_nic_relations) ok = ok || r == best->relation;
    if (ok) {
      Finding& f = e.pass(subject, msg);
      add_evidence(f, best->source.file.empty() ? g.source : best->source);
      continue;
    }
    if (std::optional<std::string> c2c = build::c2c_coupling(g)) {
      judge_c2c(s, g, *c2c, best->relation, subject, e);
      continue;
    }
    Finding& f = e.fail(subject, msg + ": GPUDirect RDMA traffic crosses the " +
                                     (best->relation == "SYS" ? std::string("inter-socket link")
                                                              : std::string("CPU root complex")) +
                                     " (policy: " + join(pol.gpu_nic_relations) + ")");
    add_evidence(f, g.source);
    f.remediation.scope = FixScope::hardware;
    f.remediation.notes =
        "Place one NIC under the same PCIe switch as each GPU (PIX/PXB), as HGX/DGX designs do; "
        "until then pin each rank to its nearest NIC (NCCL_IB_HCA) and expect lower GDR "
        "bandwidth. `rocekit select --host` proposes a placement.";
  }
}

}  // namespace

void add_host_rules(std::vector<RuleInfo>& out) {
  out.push_back({"irq.coalescing", "Interrupt coalescing matches the profile", Severity::warning,
                 "netdev",
                 "Adaptive moderation adds latency jitter to netdev traffic (bootstrap, storage, "
                 "TCP); the profile fixes it. RDMA is not affected.",
                 "§4.2 `ethtool -C <if> rx-usecs 8 tx-usecs 8` (8-16 us): needs adaptive-rx off; "
                 "unsourced values, netdev traffic only (host-facts §K.6).", eval_coalescing,
                 k_any_outcome,
                 "interrupt coalescing per netdev (ethtool -c)"});
  out.push_back({"irq.channels-numa", "Combined channels fit the NIC's NUMA node",
                 Severity::warning, "netdev",
                 "More queues than local cores put IRQs on the remote socket.",
                 "§4.2 `ethtool -L <if> combined 16`: derive from local cores (host-facts §K.7).",
                 eval_channels,
                 k_any_outcome,
                 "netdev channels (ethtool -l), the NIC NUMA node and CPU list (sysfs)"});
  out.push_back({"gpudirect.peer-memory", "GPUDirect RDMA can register GPU memory (DMA-BUF or peer memory)",
                 Severity::error, "host",
                 "Without peer memory (or DMA-BUF) the NIC cannot DMA GPU memory and NCCL stages "
                 "through host memory.",
                 "§4.2 GPUDirect: `ibv_devinfo | grep peer` shows nothing; check nvidia_peermem "
                 "and memory_peers (host-facts §G, §K.8).", eval_peer_memory,
                 k_pass_fail_unknown,
                 "nvidia_peermem / nv_peer_mem module (lsmod), /sys/kernel/mm/memory_peers, NCCL GDRDMA transport "
                 "lines and NCCL's \"DMA-BUF is available\" line, the NVIDIA driver (/proc/driver/nvidia/version: "
                 "open or proprietary module) and the kernel release (uname -r)"});
  out.push_back({"gpudirect.gpu-nic-affinity", "Each GPU has a NIC under its PCIe switch (on Grace: on its CPU)",
                 Severity::error, "gpu",
                 "GPUDirect RDMA through the CPU root complex or across sockets loses bandwidth "
                 "and adds latency. GPUs coupled to a Grace CPU over NVLink-C2C (GH200, GB200, GB300, GB10) "
                 "reach their NICs through the CPU by design; there the NIC must hang off the GPU's own CPU.",
                 "§4.1: one NIC per GPU on the same PCIe switch (nvidia-smi topo -m PIX/PXB).",
                 eval_affinity,
                 k_any_outcome,
                 "GPU <-> NIC PCIe topology and GPU NUMA ID (nvidia-smi topo -m), NIC NUMA nodes (lspci -vvv, sysfs)"});
}

}  // namespace rk::rules

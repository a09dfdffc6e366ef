#include "rocekit/select/select.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace rk::select {

namespace cat = rk::catalog;

namespace {

constexpr int k_assumed_mps_bytes = 256;  // catalog.md 3.2: "Use MPS 256 as the default".

/// A catalog model in one port configuration.
struct Offer {
  const cat::NicModel* model = nullptr;
  int ports = 0;
  double port_gbps = 0;
  std::string connector;
  std::vector<std::string> protocols;
  double total() const { return ports * port_gbps; }
};

int kind_cost(cat::NicKind k) {
  switch (k) {
    case cat::NicKind::nic: return 0;
    case cat::NicKind::supernic: return 1;
    case cat::NicKind::dpu: return 2;
  }
  return 0;
}

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool has_feature(const cat::NicModel& m, std::string_view f) {
  return has(m.features, f) || has(m.features_secondary, f);
}

std::string gbps(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{:.0f}", v);
  return fmt::format("{:.1f}", v);
}

std::vector<Offer> offers(const cat::Catalog& c) {
  std::vector<Offer> out;
  std::set<std::tuple<std::string, int, double>> seen;
  for (const cat::NicModel& m : c.models()) {
    for (const cat::PortOption& po : m.port_options) {
      if (!po.port_count || !po.speed_gbps) continue;  // unverified option: never guessed
      auto key = std::make_tuple(m.key, *po.port_count, *po.speed_gbps);
      if (!seen.insert(key).second) {
        for (Offer& o : out)
          if (o.model == &m && o.ports == *po.port_count && o.port_gbps == *po.speed_gbps) {
            if (o.connector.find(po.connector) == std::string::npos)
              o.connector += "/" + po.connector;
            for (const std::string& p : po.protocols)
              if (!has(o.protocols, p)) o.protocols.push_back(p);
          }
        continue;
      }
      out.push_back(Offer{&m, *po.port_count, *po.speed_gbps, po.connector, po.protocols});
    }
  }
  return out;
}

/// What a role needs beyond bandwidth.
struct Needs {
  std::string protocol;  ///< "ETH" or "IB"
  bool dpu = false;
  bool ipsec = false;
  bool tls = false;
  bool nvme_of = false;
};

struct Scored {
  Offer offer;
  int passed = 0;  ///< criteria passed in order: 0..4 (4 = feasible)
  std::string failure;
  std::optional<double> ratio;
};

Scored score(const Offer& o, double need, const Needs& needs, const std::vector<const Slot*>& slots) {
  Scored s{o, 0, {}, std::nullopt};
  // Ratio in the worst assigned slot (evaluated for every candidate, for the table of losers).
  if (!slots.empty()) {
    for (const Slot* slot : slots) {
      std::optional<NegotiatedLink> link = negotiated_link(*o.model, *slot);
      if (!link) continue;
      Result<double> eff = link->effective_gbps();
      if (!eff) continue;
      double r = *eff / o.total();
      if (!s.ratio || r < *s.ratio) s.ratio = r;
    }
  }
  if (o.total() + 1e-9 < need) {
    s.failure = fmt::format("{} x {}G = {} Gb/s is below the {} Gb/s each NIC must carry", o.ports,
                            gbps(o.port_gbps), gbps(o.total()), gbps(need));
    return s;
  }
  s.passed = 1;
  if (!has(o.protocols, needs.protocol)) {
    s.failure = fmt::format("this port option has no {} ({})", needs.protocol == "IB" ? "InfiniBand" : "Ethernet",
                            fmt::join(o.protocols, "/"));
    return s;
  }
  s.passed = 2;
  std::vector<std::string> missing;
  if (needs.dpu && o.model->kind != cat::NicKind::dpu) missing.push_back("a DPU (Arm cores for tenant isolation)");
  if (needs.nvme_of && !has_feature(*o.model, "nvmeof_offload") && !has_feature(*o.model, "nvme_snap"))
    missing.push_back("NVMe-oF offload / NVMe SNAP");
  if (needs.ipsec && !has_feature(*o.model, "ipsec_inline")) missing.push_back("inline IPsec");
  if (needs.tls && !has_feature(*o.model, "tls_inline")) missing.push_back("inline TLS");
  if (!missing.empty()) {
    s.failure = "lacks " + fmt::format("{}", fmt::join(missing, ", "));
    return s;
  }
  s.passed = 3;
  if (!s.ratio) {
    s.failure = "PCIe generation or width of the card not in the catalog: feed ratio unknown";
    return s;
  }
  if (*s.ratio < 1.0) {
    std::optional<NegotiatedLink> link = negotiated_link(*o.model, *slots.front());
    s.failure = fmt::format("oversubscribed: Gen{} x{}{} moves {} Gb/s for {} Gb/s of ports (ratio {:.2f})",
                            link ? link->link.gen : 0, link ? link->link.width_lanes : 0,
                            link && link->links > 1 ? " (x2)" : "",
                            gbps(std::round(*s.ratio * o.total() * 10) / 10), gbps(o.total()), *s.ratio);
    return s;
  }
  s.passed = 4;
  return s;
}

/// Ordering: more criteria passed first; among feasible offers the least over-provisioned, fewest
/// ports, cheapest kind, slowest family that suffices, then catalog key; among failed ones the
/// higher PCIe ratio.
bool better(const Scored& a, const Scored& b, double need) {
  if (a.passed != b.passed) return a.passed > b.passed;
  if (a.passed == 0 && std::fabs(a.offer.total() - b.offer.total()) > 1e-9)
    return a.offer.total() > b.offer.total();  // below the need: the closest first
  if (a.passed < 4) {
    double ra = a.ratio.value_or(0), rb = b.ratio.value_or(0);
    if (std::fabs(ra - rb) > 1e-9) return ra > rb;
  }
  double oa = a.offer.total() / need, ob = b.offer.total() / need;
  if (std::fabs(oa - ob) > 1e-9) return oa < ob;
  if (a.offer.ports != b.offer.ports) return a.offer.ports < b.offer.ports;
  int ka = kind_cost(a.offer.model->kind), kb = kind_cost(b.offer.model->kind);
  if (ka != kb) return ka < kb;
  double ma = a.offer.model->max_port_gbps.value_or(1e9), mb = b.offer.model->max_port_gbps.value_or(1e9);
  if (ma != mb) return ma < mb;
  return a.offer.model->key < b.offer.model->key;
}

std::string why_lost(const Scored& s, const Scored& w, double need) {
  if (s.passed < 4) return s.failure;
  if (s.offer.total() > w.offer.total())
    return fmt::format("{} Gb/s of ports for a {} Gb/s need: over-provisioned, the extra port "
                       "capacity needs switch ports and cables that carry nothing",
                       gbps(s.offer.total()), gbps(need));
  if (s.offer.ports > w.offer.ports)
    return fmt::format("{} ports where {} suffices: more cables and switch ports per rail",
                       s.offer.ports, w.offer.ports);
  int ks = kind_cost(s.offer.model->kind), kw = kind_cost(w.offer.model->kind);
  if (ks > kw)
    return fmt::format("a {} where a {} meets every stated need: {}", cat::to_string(s.offer.model->kind),
                       cat::to_string(w.offer.model->kind),
                       s.offer.model->kind == cat::NicKind::dpu
                           ? "Arm cores, DRAM, a second OS and DOCA-only drivers for nothing used"
                           : "SuperNIC positioning (DPA, programmable congestion control) not required here");
  if (s.offer.model->max_port_gbps.value_or(0) > w.offer.model->max_port_gbps.value_or(0))
    return fmt::format("a faster family (up to {}G per port) than this need uses",
                       gbps(s.offer.model->max_port_gbps.value_or(0)));
  return "ties on every criterion with the winner; ordered by catalog key";
}

std::string path_class(const GpuPosition& g, const Slot& s) {
  if (g.pcie_switch && s.pcie_switch && *g.pcie_switch == *s.pcie_switch) return "PIX";
  if (!g.numa_node || !s.numa_node) return "unknown";
  return *g.numa_node == *s.numa_node ? "NODE" : "SYS";
}

PcieRow pcie_row(const Offer& o, const Slot& slot, const std::string& role) {
  PcieRow r;
  r.slot = slot.name;
  r.role = role;
  r.model_key = o.model->key;
  r.ports = o.ports;
  r.port_gbps = o.port_gbps;
  r.line_rate_gbps = o.total();
  std::optional<NegotiatedLink> link = negotiated_link(*o.model, slot);
  if (link) {
    r.link_gen = link->link.gen;
    r.link_lanes = link->link.width_lanes;
    r.links = link->links;
    r.max_payload_bytes = link->link.max_payload_bytes;
    Result<double> eff = link->effective_gbps();
    if (eff) {
      r.effective_gbps = std::round(*eff * 10) / 10;
      r.ratio = std::round(*eff / o.total() * 100) / 100;
      r.verdict = cat::classify_feed_ratio(*eff / o.total());
      r.headroom_pct = std::round((*eff / o.total() - 1.0) * 1000) / 10;
    }
  }
  return r;
}

std::string kind_name(cat::NicKind k) { return std::string(cat::to_string(k)); }

void dpu_costs(const cat::NicModel& m, std::vector<std::string>& costs) {
  costs.push_back(m.arm_cores ? fmt::format("{} Arm cores{} to run and patch", *m.arm_cores,
                                            m.arm_core_type ? " (" + *m.arm_core_type + ")" : "")
                              : "Arm cores: unknown (not in the catalog)");
  costs.push_back(m.dram_gb ? fmt::format("{} GB on-card DRAM", gbps(*m.dram_gb))
                            : "on-card DRAM: unknown (not in the catalog)");
  costs.push_back(m.typical_power_w
                      ? fmt::format("typical power {} W", gbps(*m.typical_power_w))
                      : "typical power: unknown (the catalog has no sourced figure; catalog.md 2.2 "
                        "gives up to 150 W for the BF-3 controller SKU [BF3-CTRL])");
  costs.push_back("complexity: a second OS on the card (BFB image, DOCA) to install, update and "
                  "monitor; DOCA-OFED or inbox drivers only (MLNX_OFED stops at BlueField-2 / "
                  "ConnectX-7 [D-GS])");
}

}  // namespace

Result<double> NegotiatedLink::effective_gbps() const {
  Result<double> one = cat::effective_gbps(link);
  if (!one) return one;
  return *one * links;
}

std::optional<NegotiatedLink> negotiated_link(const cat::NicModel& model, const Slot& slot) {
  if (!model.pcie_gen || !model.pcie_lanes) return std::nullopt;  // unknown stays unknown
  NegotiatedLink n;
  n.link.gen = std::min(*model.pcie_gen, slot.gen);
  int card_lanes = *model.pcie_lanes;
  n.link.width_lanes = std::min(card_lanes, slot.lanes);
  n.link.max_payload_bytes = k_assumed_mps_bytes;
  bool can_extend = model.options.x16_extension.value_or(false) || model.options.socket_direct.value_or(false);
  if (slot.x16_extension && can_extend && card_lanes == 16 && slot.lanes == 16) n.links = 2;
  return n;
}

Result<Selection> select_nics(const Description& d, const cat::Catalog& c) {
  Selection out;
  out.platform_key = d.key;
  out.platform_name = d.name.empty() ? d.key : d.name;
  out.origin = d.origin;
  out.sources = d.sources;
  out.notes = d.notes;
  out.fabric = std::string(to_string(d.fabric));
  out.gpu_bandwidth_gbps = d.gpu_bandwidth_gbps;
  out.gpu_count = static_cast<int>(d.gpus.size());
  out.rails = d.rails > 0 ? d.rails : out.gpu_count;
  out.gpus_per_nic = (out.gpu_count + out.rails - 1) / out.rails;
  out.need_per_nic_gbps = d.gpu_bandwidth_gbps * out.gpus_per_nic;
  const double need = out.need_per_nic_gbps;

  if (d.nic_model && !c.find_by_key(*d.nic_model)) {
    std::string list;
    for (const cat::NicModel& m : c.models()) list += (list.empty() ? "" : ", ") + m.key;
    return unexpected(ErrorKind::malformed_input,
                      "nic_model: unknown model '" + *d.nic_model + "' (known: " + list + ")", d.origin);
  }

  // ---- placement: NIC k serves GPUs [k*g, (k+1)*g), in the best free compute slot.
  std::vector<GpuPosition> gpus = d.gpus;
  std::sort(gpus.begin(), gpus.end(), [](const GpuPosition& a, const GpuPosition& b) { return a.index < b.index; });
  std::vector<const Slot*> compute_slots, frontend_slots;
  for (const Slot& s : d.slots) (s.use == SlotUse::frontend ? frontend_slots : compute_slots).push_back(&s);
  if (compute_slots.empty())
    return unexpected(ErrorKind::malformed_input, "slots: no slot for the compute NICs (use: compute or any)",
                      d.origin);
  std::vector<const Slot*> rail_slot(static_cast<std::size_t>(out.rails), nullptr);
  std::set<const Slot*> used;
  for (int k = 0; k < out.rails; ++k) {
    int best = -1;
    const Slot* pick = nullptr;
    for (const Slot* s : compute_slots) {
      if (used.count(s)) continue;
      int sc = 0;
      for (int i = k * out.gpus_per_nic; i < std::min(out.gpu_count, (k + 1) * out.gpus_per_nic); ++i) {
        std::string p = path_class(gpus[static_cast<std::size_t>(i)], *s);
        sc += p == "PIX" ? 4 : p == "NODE" ? 2 : p == "unknown" ? 1 : 0;
      }
      if (sc > best) {
        best = sc;
        pick = s;
      }
    }
    if (!pick) break;
    used.insert(pick);
    rail_slot[static_cast<std::size_t>(k)] = pick;
  }
  std::vector<const Slot*> placed;
  for (const Slot* s : rail_slot)
    if (s) placed.push_back(s);
  if (static_cast<int>(placed.size()) < out.rails)
    out.warnings.push_back(Warning{
        "select.too-few-slots", "error",
        fmt::format("{} rails need {} compute NICs but only {} compute slots are described", out.rails,
                    out.rails, placed.size()),
        "describe more slots, or fewer rails (fabric.rails)"});
  for (int i = 0; i < out.gpu_count; ++i) {
    int k = i / out.gpus_per_nic;
    GpuPlacement p;
    p.gpu = gpus[static_cast<std::size_t>(i)].index;
    p.gpu_numa = gpus[static_cast<std::size_t>(i)].numa_node;
    p.rail = k;
    const Slot* s = k < out.rails ? rail_slot[static_cast<std::size_t>(k)] : nullptr;
    if (s) {
      p.slot = s->name;
      p.pcie_switch = s->pcie_switch;
      p.nic_numa = s->numa_node;
      p.path = path_class(gpus[static_cast<std::size_t>(i)], *s);
    } else {
      p.path = "unknown";
      p.slot = "(none)";
    }
    out.placement.push_back(p);
  }

  // ---- what the DPU-or-NIC decision applies to.
  const bool decide_frontend = d.frontend_nics > 0;
  Needs role_needs;
  role_needs.dpu = d.tenancy == Tenancy::multi_tenant;
  role_needs.nvme_of = d.storage == Storage::nvme_of;
  role_needs.ipsec = d.ipsec;
  role_needs.tls = d.tls;
  out.decision.applies_to = decide_frontend ? "frontend" : "compute";
  out.decision.choice = (role_needs.dpu || role_needs.nvme_of) ? "dpu" : "nic";
  if (d.tenancy == Tenancy::multi_tenant)
    out.decision.reasons.push_back(
        "multi-tenant: isolation, OVS/ASAP2 switching and the tenant's virtual network run on the "
        "DPU's Arm cores, outside the host the tenant controls");
  if (d.storage == Storage::nvme_of)
    out.decision.reasons.push_back(
        "NVMe-oF: the DPU presents remote storage as local NVMe (NVMe SNAP / NVMe-oF offload) "
        "without host CPU cycles");
  if (d.ipsec || d.tls)
    out.decision.reasons.push_back(
        std::string(d.ipsec && d.tls ? "IPsec and TLS" : d.ipsec ? "IPsec" : "TLS") +
        " at line rate: inline crypto exists on ConnectX crypto OPNs as well as on BlueField; "
        "alone it does not require a DPU (order a crypto-enabled OPN)");
  if (out.decision.choice == "nic") {
    out.decision.reasons.push_back(
        std::string(d.tenancy == Tenancy::single ? "single tenant" : "") +
        (d.storage == Storage::nvme_of ? "" : d.storage == Storage::gds ? "; GPUDirect Storage is RDMA from "
                                                                           "the GPU through any RDMA NIC"
                                                                         : "; no NVMe-oF target to offload") +
        ": nothing for a DPU's Arm side to do, so a ConnectX NIC (or BlueField in NIC mode) suffices");
    const cat::NicModel* bf3 = c.find_by_key("bluefield-3-dpu");
    if (bf3) {
      std::vector<std::string> avoided;
      dpu_costs(*bf3, avoided);
      for (const std::string& a : avoided) out.decision.costs.push_back("avoided: " + a);
    }
  }

  // ---- compute NICs.
  Needs compute_needs;
  compute_needs.protocol = d.fabric == Fabric::roce ? "ETH" : "IB";
  if (!decide_frontend) {
    compute_needs.dpu = role_needs.dpu;
    compute_needs.nvme_of = role_needs.nvme_of;
    compute_needs.ipsec = role_needs.ipsec;
    compute_needs.tls = role_needs.tls;
  }
  std::vector<Scored> ranked;
  for (const Offer& o : offers(c)) {
    if (d.nic_model && o.model->key != *d.nic_model) continue;
    ranked.push_back(score(o, need, compute_needs, placed));
  }
  if (ranked.empty())
    return unexpected(ErrorKind::malformed_input, "nic_model: '" + d.nic_model.value_or("") +
                                                      "' has no port option with a known speed", d.origin);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](const Scored& a, const Scored& b) { return better(a, b, need); });
  const Scored& win = ranked.front();
  if (win.passed < 4)
    out.warnings.push_back(Warning{"select.no-feasible-nic", "error",
                                   "no catalog NIC meets every need; the closest: " + win.failure,
                                   "faster slots (Gen5 x16 for 400G, Gen6 x16 or Gen5 x32 for 800G), "
                                   "more rails, or a lower per-GPU bandwidth"});
  BillLine compute;
  compute.role = "compute";
  compute.model_key = win.offer.model->key;
  compute.model_name = win.offer.model->name;
  compute.kind = kind_name(win.offer.model->kind);
  compute.count = static_cast<int>(placed.size());
  compute.ports = win.offer.ports;
  compute.port_gbps = win.offer.port_gbps;
  compute.connector = win.offer.connector;
  for (const Slot* s : placed) compute.slots.push_back(s->name);
  out.bill.push_back(compute);
  for (const Slot* s : placed) out.pcie.push_back(pcie_row(win.offer, *s, "compute"));

  int rank = 2;
  std::map<int, int> listed_per_tier;
  for (std::size_t i = 1; i < ranked.size(); ++i) {
    const Scored& s = ranked[i];
    // Up to 7 that meet every need, then the 3 best losers of each criterion (bandwidth,
    // fabric, features, PCIe), so every reason a class of NIC loses is shown.
    if (listed_per_tier[s.passed]++ >= (s.passed == 4 ? 7 : 3)) continue;
    Alternative a;
    a.rank = rank++;
    a.model_key = s.offer.model->key;
    a.model_name = s.offer.model->name;
    a.ports = s.offer.ports;
    a.port_gbps = s.offer.port_gbps;
    if (s.ratio) a.ratio = std::round(*s.ratio * 100) / 100;
    a.why_lost = why_lost(s, win, need);
    out.alternatives.push_back(a);
  }

  // ---- frontend NICs / DPUs: the highest port rate the frontend slot feeds at ratio >= 1.
  if (decide_frontend) {
    const Slot* fs = frontend_slots.empty() ? nullptr : frontend_slots.front();
    if (!fs) {
      out.warnings.push_back(Warning{"select.no-frontend-slot", "warning",
                                     fmt::format("frontend_nics is {} but no slot has use: frontend", d.frontend_nics),
                                     "describe the frontend slots"});
    } else {
      std::optional<Scored> best;
      Needs fneeds = role_needs;
      fneeds.protocol = "ETH";
      for (const Offer& o : offers(c)) {
        bool is_dpu = o.model->kind == cat::NicKind::dpu;
        if (is_dpu != (out.decision.choice == "dpu")) continue;
        if (o.model->kind == cat::NicKind::supernic) continue;
        Scored s = score(o, 0, fneeds, {fs});
        if (s.passed < 4) continue;
        // Highest port rate the slot feeds; at equal rate two ports (one per frontend switch,
        // as the DGX storage/in-band NICs are cabled [BASEPOD]), then the usual order.
        bool take = !best || o.total() > best->offer.total() + 1e-9;
        if (!take && std::fabs(o.total() - best->offer.total()) < 1e-9) {
          bool dual = o.ports >= 2, best_dual = best->offer.ports >= 2;
          take = dual != best_dual ? dual : better(s, *best, o.total());
        }
        if (take) best = s;
      }
      if (best) {
        BillLine f;
        f.role = "frontend";
        f.model_key = best->offer.model->key;
        f.model_name = best->offer.model->name;
        f.kind = kind_name(best->offer.model->kind);
        f.ports = best->offer.ports;
        f.port_gbps = best->offer.port_gbps;
        f.connector = best->offer.connector;
        for (const Slot* s : frontend_slots)
          if (static_cast<int>(f.slots.size()) < d.frontend_nics) f.slots.push_back(s->name);
        f.count = static_cast<int>(f.slots.size());
        out.bill.push_back(f);
        for (const Slot* s : frontend_slots)
          if (std::find(f.slots.begin(), f.slots.end(), s->name) != f.slots.end())
            out.pcie.push_back(pcie_row(best->offer, *s, "frontend"));
        if (out.decision.choice == "dpu") {
          dpu_costs(*best->offer.model, out.decision.costs);
          for (const Slot* s : frontend_slots)
            if (s->power_w && *s->power_w <= 75)
              out.warnings.push_back(Warning{
                  "select.dpu-slot-power", "warning",
                  fmt::format("slot {} delivers {} W; the DPU's power is not in the catalog (BF-2 P-series "
                              "needs 75 W more via a 6-pin aux [BF2-PWR])", s->name, gbps(*s->power_w)),
                  "check the DPU SKU's power budget and the slot's auxiliary power"});
        }
        if (static_cast<int>(frontend_slots.size()) < d.frontend_nics)
          out.warnings.push_back(Warning{"select.no-frontend-slot", "warning",
                                         fmt::format("frontend_nics is {} but only {} frontend slots",
                                                     d.frontend_nics, frontend_slots.size()),
                                         "describe the frontend slots"});
      } else {
        out.warnings.push_back(Warning{"select.no-frontend-nic", "warning",
                                       "no catalog " + out.decision.choice + " fits the frontend slot " + fs->name,
                                       "a wider or newer frontend slot"});
      }
    }
  } else if (out.decision.choice == "dpu") {
    dpu_costs(*win.offer.model, out.decision.costs);
  }

  if (out.decision.choice == "dpu" && !d.management_network)
    out.warnings.push_back(Warning{
        "select.dpu-without-management-network", "warning",
        "a DPU is chosen but management_network is false: its Arm OS is installed, updated and "
        "monitored over the out-of-band 1GbE port (oob_1gbe in the catalog) or the host rshim",
        "provide a management network for the DPUs' OOB ports, or plan rshim-only management"});

  // ---- warnings the seed names.
  std::set<std::string> warned;
  for (const Slot* s : placed) {
    if (need >= 400 && s->gen <= 4 && !warned.count("gen4:" + s->name)) {
      warned.insert("gen4:" + s->name);
      cat::PcieLink l{s->gen, std::min(16, s->lanes), k_assumed_mps_bytes, std::nullopt};
      Result<double> eff = cat::effective_gbps(l);
      out.warnings.push_back(Warning{
          "select.gen4-slot-400g", "error",
          fmt::format("slot {} is PCIe Gen{} x{}: {} Gb/s effective for {} Gb/s of NIC ports "
                      "(ratio {:.2f}); a 400G NIC there runs at about half line rate",
                      s->name, s->gen, s->lanes, eff ? gbps(std::round(*eff * 10) / 10) : "?", gbps(need),
                      eff ? *eff / need : 0.0),
          "put 400G NICs in Gen5 x16 slots (catalog.md 3.3 rule 1), or buy 200G per Gen4 x16 slot"});
    }
    if (need >= 800 && s->gen == 5 && s->lanes == 16 && !s->x16_extension) {
      out.warnings.push_back(Warning{
          "select.gen5-x16-800g", "error",
          fmt::format("slot {} is PCIe Gen5 x16 without an x16 extension: 415.8 Gb/s effective for "
                      "{} Gb/s (ratio {:.2f}); expect about 400G",
                      s->name, gbps(need), 415.8 / need),
          "800G needs Gen6 x16 or Gen5 x32 (x16 extension / Socket Direct aux cable) (catalog.md 3.3 rule 3)"});
    }
  }
  std::set<int> gpu_numas, nic_numas;
  for (const GpuPosition& g : gpus)
    if (g.numa_node) gpu_numas.insert(*g.numa_node);
  for (const Slot* s : placed)
    if (s->numa_node) nic_numas.insert(*s->numa_node);
  if (out.gpus_per_nic > 2)
    out.warnings.push_back(Warning{
        "select.nic-shared-by-gpus", "warning",
        fmt::format("one NIC for {} GPUs: each GPU gets 1/{} of the NIC and the rail design's "
                    "1 NIC : 1 GPU pairing is lost", out.gpus_per_nic, out.gpus_per_nic),
        "one NIC per GPU (fabric.rails = number of GPUs), each under the GPU's PCIe switch"});
  if (gpu_numas.size() > 1 && nic_numas.size() == 1)
    out.warnings.push_back(Warning{
        "select.nics-one-numa-node", "warning",
        fmt::format("every compute NIC is on NUMA node {} while the GPUs span {} NUMA nodes: the "
                    "other socket's GPUs cross the socket interconnect for every RDMA transfer",
                    *nic_numas.begin(), gpu_numas.size()),
        "spread the NICs so each NUMA node with GPUs has its own"});
  std::vector<int> sys_gpus, unknown_gpus;
  for (const GpuPlacement& p : out.placement) {
    if (p.path == "SYS") sys_gpus.push_back(p.gpu);
    if (p.path == "unknown") unknown_gpus.push_back(p.gpu);
  }
  if (!sys_gpus.empty())
    out.warnings.push_back(Warning{
        "select.cross-socket-path", "warning",
        fmt::format("GPU {} reach their NIC across sockets (SYS): GPUDirect RDMA through the socket link",
                    fmt::join(sys_gpus, ", ")),
        "place NIC k on the NUMA node (ideally the PCIe switch) of GPU k"});
  if (!unknown_gpus.empty())
    out.warnings.push_back(Warning{
        "select.path-unknown", "warning",
        fmt::format("GPU {}: NUMA node or PCIe switch of the GPU or its slot not described; the GPU-NIC "
                    "path is unknown", fmt::join(unknown_gpus, ", ")),
        "give gpus[].numa/switch and slots[].numa/switch"});
  for (const PcieRow& r : out.pcie)
    if (r.ratio >= 1.0 && r.ratio < 1.10) {
      out.warnings.push_back(Warning{
          "select.thin-margin", "warning",
          fmt::format("{} NIC in {}: Gen{} x{} feeds its {} Gb/s at ratio {:.2f} ({:+.1f}% headroom); "
                      "MPS 128, IOMMU/ATS misses or a degraded link push it below line rate",
                      r.role, r.slot, r.link_gen, r.link_lanes, gbps(r.line_rate_gbps), r.ratio, r.headroom_pct),
          "keep MaxPayload at 256 or more and check LnkSta after install (rocekit select --host)"});
      break;
    }
  return out;
}

}  // namespace rk::select

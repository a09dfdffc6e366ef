// Firmware rules: uniform version, pending NV config, image state, link type, adaptive routing.
#include <map>
#include <set>
#include <string>

#include "rocekit/catalog/catalog.hpp"
#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/helpers.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::rules {
namespace {

struct FwSeen {
  std::string version;
  std::string who;
  Evidence source;
};

void eval_uniform(const Snapshot& s, const Policy&, Emitter& e) {
  // Two captures that disagree on a function's firmware, or a version tied to no function:
  // the comparison would be decided by which file was read, or leave a NIC out.
  for (const PciFunction& p : s.pci_functions)
    if (p.firmware.reason_kind == ReasonKind::conflicting) {
      e.unknown("host", p.firmware.reason).needs = {"flint_q"};
      return;
    }
  for (const NetDev& n : s.netdevs)
    if (n.driver.reason_kind == ReasonKind::conflicting) {
      e.unknown("host", n.driver.reason).needs = {"ethtool_i"};
      return;
    }
  if (!s.unplaced_firmware.empty()) {
    std::vector<std::string> devs;
    for (const UnplacedFirmware& u : s.unplaced_firmware) devs.push_back(u.mst_device + " (" + u.version + ")");
    Finding& f = e.unknown("host", "firmware of " + join(devs) +
                                       " is named by MST device only, and no `mst status -v` in the input maps it to a "
                                       "PCI address: save `mst status -v` with the capture");
    f.needs = {"mst_status"};
    for (const UnplacedFirmware& u : s.unplaced_firmware) add_evidence(f, u.source);
    return;
  }
  std::map<std::string, std::vector<FwSeen>> by_model;  // model key -> versions
  std::set<std::string> covered;                         // BDFs already counted
  for (const RdmaDevice& d : s.rdma_devices) {
    if (!d.fw_ver) continue;
    std::string key = d.board_id ? "board " + *d.board_id
                      : d.vendor_part_id ? "vendor_part_id " + std::to_string(*d.vendor_part_id)
                                         : "unknown model";
    by_model[key].push_back({*d.fw_ver, d.name, d.source});
    if (d.bdf) covered.insert(*d.bdf);
  }
  for (const NetDev& n : s.netdevs) {
    if (!n.driver.has_value() || !n.driver->firmware_version) continue;
    std::string bdf = n.pci_address();
    if (!bdf.empty() && covered.count(bdf)) continue;
    std::string key = n.driver->psid ? "board " + *n.driver->psid : "driver " +
                                                                        n.driver->driver.value_or("?");
    by_model[key].push_back({*n.driver->firmware_version, n.name, n.driver.source});
    if (!bdf.empty()) covered.insert(bdf);
  }
  for (const PciFunction& p : s.pci_functions) {
    if (!p.firmware.has_value() || !p.firmware->version || covered.count(p.bdf)) continue;
    std::string key = p.firmware->psid ? "board " + *p.firmware->psid : "pci " + p.bdf;
    by_model[key].push_back({*p.firmware->version, p.bdf, p.firmware.source});
  }
  if (by_model.empty()) {
    e.unknown("host", "no firmware version in the input (ibv_devinfo, ethtool -i, flint, "
                      "mlxfwmanager or devlink)").needs = {"ethtool_i"};
    return;
  }
  std::vector<std::string> mixed;
  std::vector<Evidence> ev;
  std::size_t nics = 0;
  for (const auto& [key, seen] : by_model) {
    std::map<std::string, std::vector<std::string>> versions;
    for (const FwSeen& f : seen) versions[f.version].push_back(f.who);
    nics += seen.size();
    if (versions.size() > 1) {
      std::vector<std::string> parts;
      for (const auto& [v, who] : versions) parts.push_back(v + " (" + join(who) + ")");
      mixed.push_back(key + ": " + join(parts, " vs "));
      for (const FwSeen& f : seen) ev.push_back(f.source);
    }
  }
  if (mixed.empty()) {
    std::vector<std::string> parts;
    for (const auto& [key, seen] : by_model) parts.push_back(key + " " + seen.front().version);
    Finding& f = e.pass("host", std::to_string(nics) + " function(s), one version per model: " +
                                    join(parts, "; "));
    for (const auto& [key, seen] : by_model) add_evidence(f, seen.front().source);
    return;
  }
  Finding& f = e.fail("host", "firmware differs within one model: " + join(mixed, "; "));
  for (const Evidence& x : ev) add_evidence(f, x);
  f.remediation.scope = FixScope::firmware_reboot;
  f.remediation.checks = {"mlxfwmanager --query"};
  f.remediation.notes =
      "Burn the same image (same PSID) on every card of a model (`mstflint -d BDF -i IMAGE.bin "
      "burn`, with the image for the card's PSID from NVIDIA or the OEM), confirm with `mstflint "
      "-d BDF q`, then reset (`mstfwreset -d BDF -y reset`) or reboot. Mixed firmware gives "
      "different congestion-control, PFC and counter behaviour across ports.";
}

void eval_pending(const Snapshot& s, const Policy&, Emitter& e) {
  for (const PciFunction& p : s.pci_functions) {
    if (!p.nv_config.has_value()) {
      e.missing(p.bdf, "firmware NV configuration", p.nv_config);
      continue;
    }
    const NvConfig& c = *p.nv_config;
    std::vector<std::string> pending;
    for (const NvParam& prm : c.params) {
      if (c.is_set_transcript && prm.new_value) {
        std::string before = prm.next_boot_value.value_or(prm.current_value.value_or("?"));
        if (before != *prm.new_value) pending.push_back(prm.name + " " + before + " -> " + *prm.new_value);
      } else if (prm.current_value && prm.next_boot_value &&
                 *prm.current_value != *prm.next_boot_value) {
        pending.push_back(prm.name + " current " + *prm.current_value + ", next boot " +
                          *prm.next_boot_value);
      }
    }
    // A reset loads the stored image: with an invalid one (fw.image-state) it must wait for a re-burn.
    bool stored_invalid = p.firmware.has_value() && p.firmware->stored_version &&
                          *p.firmware->stored_version == "255.255.65535";
    const char* burn_first = "Do not reset or reboot yet: the stored firmware image is invalid "
                             "(255.255.65535); burn a valid image first (see fw.image-state).";
    if (c.is_set_transcript && c.set_applied && (c.reboot_requested || !pending.empty())) {
      Finding& f = e.fail(p.bdf, "NV change applied and waiting for a reboot/firmware reset: " +
                                     (pending.empty() ? std::string("(see transcript)") : join(pending)));
      add_evidence(f, p.nv_config.source);
      f.remediation.scope = FixScope::firmware_reboot;
      if (!stored_invalid) f.remediation.commands = {"mstfwreset -d " + p.bdf + " -y reset"};
      f.remediation.checks = {"mstconfig -d " + p.bdf + " -e q"};
      f.remediation.notes = stored_invalid ? burn_first
                                           : "Until the reset the running firmware uses the old values. Some "
                                             "platforms need a cold reboot instead of mstfwreset.";
      continue;
    }
    if (!c.has_current_column && !c.is_set_transcript) {
      e.unknown(p.bdf, "plain `q` shows only the Next Boot column; `mstconfig -d " + p.bdf +
                           " -e q` shows Current too");
      continue;
    }
    if (pending.empty()) {
      Finding& f = e.pass(p.bdf, "Current equals Next Boot for every parameter");
      add_evidence(f, p.nv_config.source);
      continue;
    }
    Finding& f = e.fail(p.bdf, "Next Boot differs from Current: " + join(pending));
    add_evidence(f, p.nv_config.source);
    f.remediation.scope = FixScope::firmware_reboot;
    if (!stored_invalid) f.remediation.commands = {"mstfwreset -d " + p.bdf + " -y reset"};
    f.remediation.checks = {"mstconfig -d " + p.bdf + " -e q"};
    f.remediation.notes = stored_invalid ? burn_first
                                         : "Or reboot the host; some platforms need a cold reboot instead of mstfwreset.";
  }
}

void eval_image(const Snapshot& s, const Policy&, Emitter& e) {
  for (const PciFunction& p : s.pci_functions) {
    if (p.flash_recovery) {
      Finding& f = e.fail(p.bdf, "device enumerates in flash recovery: no usable firmware, no "
                                 "netdev or RDMA device" +
                                     (p.device_name ? " (" + *p.device_name + ")" : std::string()));
      add_evidence(f, p.source);
      f.remediation.scope = FixScope::firmware_reboot;
      f.remediation.checks = {"mstflint -d " + p.bdf + " q"};
      f.remediation.notes = "Burn the firmware image for the card's PSID (from NVIDIA or the OEM): "
                            "`mstflint -d " + p.bdf + " -i IMAGE.bin -ocr burn`, then power-cycle. "
                            "If burning fails, the card needs an RMA.";
      continue;
    }
    if (p.is_vf.value_or(false)) {
      e.not_applicable(p.bdf, "SR-IOV VF: firmware belongs to the PF");
      continue;
    }
    if (!p.firmware.has_value()) {
      e.unknown(p.bdf, "flash image not queried: " + p.firmware.reason);
      continue;
    }
    const FirmwareImage& fw = *p.firmware;
    std::vector<std::string> bad;
    if (fw.stored_version && *fw.stored_version == "255.255.65535")
      bad.push_back("stored image version 255.255.65535 (invalid image)");
    if (fw.version && *fw.version == "255.255.65535")
      bad.push_back("image version 255.255.65535 (invalid image)");
    if (fw.update_status && fw.update_status->find("Update required") != std::string::npos)
      bad.push_back("mlxfwmanager: " + *fw.update_status);
    if (!bad.empty()) {
      Finding& f = e.fail(p.bdf, join(bad, "; "));
      add_evidence(f, p.firmware.source);
      f.remediation.scope = FixScope::firmware_reboot;
      std::string psid = fw.psid ? " for PSID " + *fw.psid : std::string();
      // Only a newer image available: the card works (a warning, not the rule's severity).
      bool only_update = bad.size() == 1 && bad.front().starts_with("mlxfwmanager: ");
      if (only_update && f.severity > Severity::warning) f.severity = Severity::warning;
      f.remediation.checks = {"mstflint -d " + p.bdf + " q"};
      f.remediation.notes =
          "Burn the image" + psid + " (from NVIDIA or the OEM): `mstflint -d " + p.bdf +
          " -i IMAGE.bin burn` (or `mlxfwmanager -u -d " + p.bdf + " -i IMAGE.bin`). "
          "Burn a valid image first and confirm `mstflint q` shows a real version; only then "
          "reset (`mstfwreset -d " + p.bdf + " -y reset`) or reboot. A reset or reboot before "
          "that loads the invalid stored image and can leave the card in flash recovery.";
      continue;
    }
    if (!p.device_name && !p.device_id) {
      e.unknown(p.bdf, "PCI identity not captured (lspci), so recovery mode cannot be excluded").needs = {"lspci_vvv"};
      continue;
    }
    if (!fw.version) {
      e.unknown(p.bdf, "flash query shows no firmware version");
      continue;
    }
    Finding& f = e.pass(p.bdf, "normal PCI identity, firmware " + *fw.version +
                                   (fw.update_status ? ", status: " + *fw.update_status : ""));
    add_evidence(f, p.source);
    add_evidence(f, p.firmware.source);
  }
}

void eval_link_type(const Snapshot& s, const Policy&, Emitter& e) {
  for (const PciFunction& p : s.pci_functions) {
    if (!p.nv_config.has_value()) {
      e.missing(p.bdf, "firmware NV configuration", p.nv_config);
      continue;
    }
    std::vector<std::string> ib;
    std::vector<std::string> eth;
    for (int port = 1; port <= 4; ++port) {
      std::string name = "LINK_TYPE_P" + std::to_string(port);
      const NvParam* prm = p.nv_config->find(name);
      if (!prm) continue;
      auto v = nv_number(nv_value(*prm));
      if (v && *v == 2)
        eth.push_back(name);
      else
        ib.push_back(name + "=" + nv_value(*prm).value_or("?"));
    }
    if (ib.empty() && eth.empty()) {
      e.not_applicable(p.bdf, "no LINK_TYPE_P<n> parameter: an Ethernet-only (non-VPI) card");
      continue;
    }
    if (ib.empty()) {
      Finding& f = e.pass(p.bdf, join(eth) + " = ETH(2)");
      add_evidence(f, p.nv_config.source);
      continue;
    }
    Finding& f = e.fail(p.bdf, "VPI port not in Ethernet mode: " + join(ib));
    add_evidence(f, p.nv_config.source);
    f.remediation.scope = FixScope::firmware_reboot;
    std::vector<std::pair<std::string, std::string>> args;
    for (int port = 1; port <= 4; ++port)
      if (p.nv_config->find("LINK_TYPE_P" + std::to_string(port)))
        args.emplace_back("LINK_TYPE_P" + std::to_string(port), "2");
    FixStep set = fix::nv_set("mstconfig", p.bdf, args);
    f.remediation.commands = {fix::command_line(set), "mstfwreset -d " + p.bdf + " -y reset"};
    set.argv = set.check_argv;
    f.remediation.checks = {fix::command_line(set)};
  }
}

void eval_adaptive_routing(const Snapshot& s, const Policy& pol, Emitter& e) {
  for (const PciFunction& p : s.pci_functions) {
    if (!p.nv_config.has_value()) continue;
    const NvParam* prm = p.nv_config->find("ROCE_ADAPTIVE_ROUTING_EN");
    if (!prm) {
      e.not_applicable(p.bdf, "ROCE_ADAPTIVE_ROUTING_EN is not in the firmware query (not "
                              "supported by this NIC/firmware, or filtered)");
      continue;
    }
    auto v = nv_number(nv_value(*prm));
    std::string state = v ? (*v ? "enabled" : "disabled") : nv_value(*prm).value_or("?");
    if (!pol.adaptive_routing || !v || (*v != 0) == *pol.adaptive_routing) {
      Finding& f = e.pass(p.bdf, "ROCE_ADAPTIVE_ROUTING_EN " + state +
                                     (pol.adaptive_routing ? "" : " (report only)"));
      add_evidence(f, p.nv_config.source);
      continue;
    }
    Finding& f = e.fail(p.bdf, "ROCE_ADAPTIVE_ROUTING_EN " + state + ", policy " +
                                   (*pol.adaptive_routing ? "enabled" : "disabled"));
    add_evidence(f, p.nv_config.source);
    f.remediation.scope = FixScope::firmware_reboot;
    f.remediation.commands = {fix::command_line(fix::nv_set(
        "mstconfig", p.bdf, {{"ROCE_ADAPTIVE_ROUTING_EN", *pol.adaptive_routing ? "1" : "0"}}))};
    f.remediation.notes =
        "ROCE_ADAPTIVE_ROUTING, as some guides write it, does not exist; the parameter is "
        "ROCE_ADAPTIVE_ROUTING_EN (mstflint's mlxconfig database), and it only enables support: "
        "AR also needs a Spectrum-X fabric and runtime enablement.";
  }
}

}  // namespace

void add_fw_rules(std::vector<RuleInfo>& out) {
  out.push_back({"fw.uniform-version", "One firmware version per NIC model", Severity::warning,
                 "host",
                 "Mixed firmware on one model gives ports different congestion-control and PFC "
                 "behaviour and complicates support.",
                 "§4.2 firmware and driver consistency across the cluster.", eval_uniform,
                 k_pass_fail_unknown,
                 "firmware version per NIC (ethtool -i, flint -d <bdf> q, mlxfwmanager, devlink dev info)"});
  out.push_back({"fw.pending-config", "No firmware NV change is waiting for a reboot",
                 Severity::warning, "pci function",
                 "An NV change that waits for a reset means the running NIC does not match its "
                 "configuration; the next reboot changes behaviour silently.",
                 "§4.2 mlxconfig settings take effect after a reboot or firmware reset.",
                 eval_pending,
                 k_pass_fail_unknown,
                 "firmware NV configuration, current and next boot (mlxconfig / mstconfig -d <bdf> q)"});
  out.push_back({"fw.image-state", "Firmware image is valid (not in flash recovery)",
                 Severity::critical, "pci function",
                 "A NIC in flash recovery or with an invalid stored image has no working netdev "
                 "or RDMA device.",
                 "§4.2 firmware consistency.", eval_image,
                 k_any_outcome,
                 "firmware image state (flint -d <bdf> q, mlxfwmanager, devlink dev info)"});
  out.push_back({"fw.link-type-eth", "VPI ports run Ethernet", Severity::error, "pci function",
                 "A VPI card left in InfiniBand mode cannot carry RoCE.",
                 "§4.2 `mlxconfig set LINK_TYPE_P1=2`.", eval_link_type,
                 k_any_outcome,
                 "firmware LINK_TYPE_P<n> (mlxconfig / mstconfig -d <bdf> q)"});
  out.push_back({"fw.adaptive-routing", "RoCE adaptive routing support as the policy says",
                 Severity::info, "pci function",
                 "Adaptive routing needs NIC support plus a Spectrum-X fabric; report-only by "
                 "default.",
                 "§4.2 `ROCE_ADAPTIVE_ROUTING`: the real name is ROCE_ADAPTIVE_ROUTING_EN "
                 "(host-facts §K.5).", eval_adaptive_routing,
                 OutcomeSet{Outcome::pass, Outcome::fail, Outcome::not_applicable},
                 "firmware ROCE_ADAPTIVE_ROUTING_EN (mlxconfig -d <bdf> q) and the policy firmware.adaptive_routing"});
}

}  // namespace rk::rules

// Firmware burn steps (fw.driver-compat): the target version is the release notes' firmware for
// the family (rules::firmware_targets, data/compat/compat.json); the image is a local file
// given with `--firmware-image PSID=FILE`, never a download. The argv forms and the read-back
// regexes are rk::fix::flint_image_check / flint_burn (mstflint flint/subcommands.cpp, cited
// there).
#include "rocekit/plan/firmware_burn.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <vector>

#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/fw_compat.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::plan {

Result<std::pair<std::string, std::string>> parse_firmware_image_option(std::string_view value) {
  const std::size_t eq = value.find('=');
  if (eq == std::string_view::npos)
    return unexpected(
        ErrorKind::malformed_input,
        "--firmware-image wants PSID=FILE (e.g. MT_0000000838=/srv/fw/fw-ConnectX7.bin)",
        std::string(value));
  std::string psid(value.substr(0, eq)), file(value.substr(eq + 1));
  // flint prints PSIDs in capitals (MT_0000000838, DEL0000000010): mt_0000000838 names the same board.
  for (char& c : psid) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (!fix::valid_psid(psid))
    return unexpected(ErrorKind::malformed_input,
                      "--firmware-image: PSID \"" + psid +
                          "\" is not 1..16 letters, digits or '_' (as `flint query` prints it)",
                      std::string(value));
  if (file.empty() || file.front() != '/' || file.find_first_of("\n\r") != std::string::npos)
    return unexpected(ErrorKind::malformed_input,
                      "--firmware-image: the image must be an absolute path on the host the plan "
                      "runs on, not \"" +
                          file + "\"",
                      std::string(value));
  return std::pair{psid, file};
}

std::vector<std::string> missing_firmware_images(const Plan& plan) {
  std::vector<std::string> out;
  for (const Action& a : plan.actions)
    if (a.kind == ActionKind::firmware_image_check &&
        std::any_of(a.argv.begin(), a.argv.end(),
                    [](const std::string& w) { return fix::is_firmware_image_placeholder(w); }))
      out.push_back("refusing to run: the firmware step for " + a.subject + " (" + a.desired +
                    ") has no image; make the plan again with --firmware-image PSID=FILE (a local "
                    "image of that firmware)");
  return out;
}

namespace {

/// "28.43.3608" as numbers, for telling a downgrade; nullopt when not NN.NN.NNNN.
std::optional<std::vector<long>> fw_numbers(const std::string& v) {
  std::vector<long> out;
  std::size_t at = 0;
  while (at <= v.size()) {
    std::size_t dot = v.find('.', at);
    std::string part = v.substr(at, dot == std::string::npos ? std::string::npos : dot - at);
    if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    out.push_back(std::stol(part));
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  if (out.size() != 3) return std::nullopt;
  return out;
}

/// The firmware rules that would still fail device `dev` ("dddd:bb:dd") once it runs `target`:
/// the rules run on a copy of the snapshot with that firmware (one place for what they judge).
std::vector<std::string> still_failing(const Snapshot& s, const Policy& policy, const std::string& dev,
                                       const std::string& target) {
  Snapshot after = s;
  auto on_dev = [&](const std::optional<std::string>& bdf) { return bdf && bdf->starts_with(dev); };
  for (PciFunction& f : after.pci_functions)
    if (f.bdf.starts_with(dev) && f.firmware.has_value()) f.firmware.value->version = target;
  for (NetDev& n : after.netdevs)
    if (on_dev(n.bdf) && n.driver.has_value()) n.driver.value->firmware_version = target;
  for (RdmaDevice& r : after.rdma_devices)
    if (on_dev(r.bdf)) r.fw_ver = target;
  std::vector<std::string> out;
  for (const Finding& f : rules::evaluate(after, policy, {"fw.releases-behind", "fw.dpu-minimum"}).findings)
    if (f.outcome == Outcome::fail && after.subject_bdf(f.subject).starts_with(dev))
      out.push_back(f.rule + ": " + f.message);
  return out;
}

}  // namespace

namespace detail {

void plan_firmware_burn(const Snapshot& s, const Policy& policy,
                        const std::set<std::pair<std::string, std::string>>& failing,
                        const std::set<std::string>& held, const PlanOptions& opts, Plan& plan) {
  const std::string rule = "fw.driver-compat";
  const std::string tool = plan.nv_backend == NvBackend::mlxconfig ? "flint" : "mstflint";
  std::set<std::string> devices;  // one burn per physical device: its ports share the flash
  std::set<std::string> psids;    // of the NICs a burn step was planned for
  for (const rules::FirmwareTarget& t : rules::firmware_targets(s)) {
    if (!failing.count({rule, t.subject})) continue;
    auto unplanned = [&](const std::string& why) {
      plan.unplanned.push_back({rule, t.subject, why});
    };
    if (t.bdf.empty() || normalize_bdf(t.bdf) != t.bdf) {
      unplanned("firmware " + t.current + " -> " + t.target +
                " not planned: the NIC's PCI address was not read, so "
                "`" +
                tool + " -d BDF` cannot name it");
      continue;
    }
    const std::string dev = t.bdf.substr(0, 10);
    if (held.count(dev)) {
      unplanned(
          "not changed: the NIC carries a protected netdev (default route or ssh session); name "
          "that "
          "netdev with --netdev to plan firmware steps");
      continue;
    }
    if (!t.psid || !fix::valid_psid(*t.psid)) {
      unplanned("firmware " + t.current + " -> " + t.target +
                " not planned: the board's PSID was not read (`" + tool + " -d " + t.bdf +
                " query`), so no image can be matched to the board");
      continue;
    }
    if (!devices.insert(dev).second) continue;
    psids.insert(*t.psid);
    auto img = opts.firmware_images.find(*t.psid);
    const bool have = img != opts.firmware_images.end();
    const std::string image = have ? img->second : fix::firmware_image_placeholder(*t.psid);
    const std::string why =
        t.family + " with " + t.release + ": " + t.target + " (" + t.source + ")";

    Action check;
    check.kind = ActionKind::firmware_image_check;
    check.rule = rule;
    check.subject = t.bdf;
    check.current = "image " + image;
    check.desired = "PSID " + *t.psid + ", FW Version " + t.target;
    check.scope = FixScope::firmware_reboot;
    FixStep cs = fix::flint_image_check(tool, image, *t.psid, t.target);
    check.argv = cs.argv;
    check.check_argv = cs.check_argv;
    check.check_regex = cs.check_regex;
    check.note = have ? "read-only: the image must be firmware " + t.target + " for PSID " +
                            *t.psid + " before anything is burned; " + why
                      : "no image given for PSID " + *t.psid +
                            ": rerun `rocekit plan --firmware-image " + *t.psid +
                            "=FILE` with a local image of firmware " + t.target +
                            "; apply and the script refuse this plan";

    Action burn;
    burn.kind = ActionKind::firmware_burn;
    burn.rule = rule;
    burn.subject = t.bdf;
    burn.current = t.current;
    burn.desired = t.target;
    burn.scope = FixScope::firmware_reboot;
    FixStep bs = fix::flint_burn(tool, t.bdf, image, t.target);
    burn.argv = bs.argv;
    burn.check_argv = bs.check_argv;
    burn.check_regex = bs.check_regex;
    burn.note = "the release notes' firmware for " + why +
                "; burns the flash of every port of the NIC, runs after a "
                "reboot or `mstfwreset -d " +
                t.bdf +
                " reset`; not restorable by rollback (keep the old image "
                "to burn it back)";
    plan.actions.push_back(std::move(check));
    plan.actions.push_back(std::move(burn));
    if (std::find(plan.identity.bdfs.begin(), plan.identity.bdfs.end(), t.bdf) ==
        plan.identity.bdfs.end())
      plan.identity.bdfs.push_back(t.bdf);
    plan.warnings.push_back("firmware of " + dev +
                            " is burned once for the physical device: every port and every "
                            "host sharing the NIC (multi-host) runs " +
                            t.target + " after the reset");
    std::optional<std::vector<long>> from = fw_numbers(t.current), to = fw_numbers(t.target);
    if (from && to && *to < *from)
      plan.warnings.push_back("firmware of " + dev + " goes DOWN from " + t.current + " to " + t.target + ": " +
                              t.target + " is what the release notes of " + t.release +
                              " give; a driver release whose notes list " + t.current +
                              " keeps the newer firmware instead (flint asks before burning an older "
                              "version; the script answers yes)");
    // The release notes' firmware can itself be old for the family, or below a DPU-mode minimum:
    // the burn is disruptive and has no undo, so say when it would not make the NIC pass.
    for (const std::string& still : still_failing(s, policy, dev, t.target))
      plan.warnings.push_back("after the burn " + dev + " still fails " + still +
                              "; a newer driver release, whose notes give newer firmware, fixes both");
    // A BlueField's operation mode can change with a firmware reset (issue 22): say how to read
    // it back; in DPU mode the new firmware runs only after a power cycle.
    const PciFunction* fn = s.find_pci(t.bdf);
    if (fn && fn->bluefield_mode) {
      const std::string& mode = fn->bluefield_mode->mode;
      plan.warnings.push_back(
          "BlueField " + t.bdf + " is in " + mode +
          " mode: its operation mode can change when the new firmware boots (Mellanox/nic-configuration-operator "
          "PR 86); after the reset read it back with `" + tool + " -d " + t.bdf +
          " q INTERNAL_CPU_MODEL INTERNAL_CPU_OFFLOAD_ENGINE` and expect the values the plan's query shows" +
          (mode == "dpu" ? "; in DPU mode the new firmware runs only after a power cycle of the host" : ""));
    }
  }
  // An image for a board that gets no burn step is never used: say so rather than ignore it.
  for (const auto& [psid, file] : opts.firmware_images)
    if (!psids.count(psid))
      plan.warnings.push_back("--firmware-image " + psid + "=" + file +
                              " is not used: no NIC of this host with PSID " + psid +
                              " has a firmware step (its firmware is in the release notes of the installed "
                              "driver, or the board is not in the snapshot)");
}

}  // namespace detail
}  // namespace rk::plan

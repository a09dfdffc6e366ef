// Firmware burn steps (fw.driver-compat): the target version is the release notes' firmware for
// the family (rules::firmware_targets, data/compat/compat.json); the image is a local file
// given with `--firmware-image PSID=FILE`, never a download. The argv forms and the read-back
// regexes are rk::fix::flint_image_check / flint_burn (mstflint flint/subcommands.cpp, cited
// there).
#include "rocekit/plan/firmware_burn.hpp"

#include <algorithm>
#include <map>

#include "rocekit/fix/fix.hpp"
#include "rocekit/rules/fw_compat.hpp"

namespace rk::plan {

Result<std::pair<std::string, std::string>> parse_firmware_image_option(std::string_view value) {
  const std::size_t eq = value.find('=');
  if (eq == std::string_view::npos)
    return unexpected(
        ErrorKind::malformed_input,
        "--firmware-image wants PSID=FILE (e.g. MT_0000000838=/srv/fw/fw-ConnectX7.bin)",
        std::string(value));
  std::string psid(value.substr(0, eq)), file(value.substr(eq + 1));
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

namespace detail {

std::string subject_bdf(const Snapshot& s, const std::string& subject) {
  if (s.find_pci(subject)) return subject;
  if (const NetDev* n = s.find_netdev(subject)) {
    if (n->driver.has_value() && n->driver->bus_info) return *n->driver->bus_info;
    return n->bdf.value_or("");
  }
  for (const RdmaDevice& d : s.rdma_devices)
    if (d.name == subject) return d.bdf.value_or("");
  return normalize_bdf(subject) == subject ? subject : std::string();
}

void plan_firmware_burn(const Snapshot& s,
                        const std::set<std::pair<std::string, std::string>>& failing,
                        const std::set<std::string>& held, const PlanOptions& opts, Plan& plan) {
  const std::string rule = "fw.driver-compat";
  const std::string tool = plan.nv_backend == NvBackend::mlxconfig ? "flint" : "mstflint";
  std::set<std::string> devices;  // one burn per physical device: its ports share the flash
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
  }
}

}  // namespace detail
}  // namespace rk::plan

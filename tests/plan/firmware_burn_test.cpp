// The firmware burn steps of plan (fw.driver-compat): the flint argv and read-backs against a
// real `flint query` output, the image check before the burn, the placeholder that apply
// refuses, --firmware-image parsing, and the "not planned" lines.
#include <gtest/gtest.h>

#include <regex.h>

#include <algorithm>

#include "golden.hpp"
#include "rocekit/fix/fix.hpp"
#include "rocekit/plan/apply.hpp"
#include "rocekit/plan/plan.hpp"
#include "rocekit/rules/rule.hpp"

namespace rk::plan {
namespace {

const std::string k_bdf = "0000:3b:00.0";

/// True when the POSIX ERE matches some line of `text` (as apply's read-back does).
bool matches_a_line(const std::string& re, const std::string& text) {
  regex_t r;
  if (regcomp(&r, re.c_str(), REG_EXTENDED | REG_NEWLINE | REG_NOSUB) != 0) return false;
  bool ok = regexec(&r, text.c_str(), 0, nullptr, 0) == 0;
  regfree(&r);
  return ok;
}

/// A ConnectX-7 PF (0x1021) with `fw` and PSID `psid` from a flint query, on MLNX_OFED
/// 23.10-1.1.9.0, whose release notes give 28.39.2048 (data/compat).
Snapshot cx7(const std::string& fw, const std::string& psid = "MT_0000000838",
             const std::string& bdf = k_bdf) {
  Snapshot s;
  s.hostname = "gpu-node-07";
  PciFunction& p = s.pci(bdf);
  p.device_id = 0x1021;
  p.vendor_id = 0x15b3;
  FirmwareImage f;
  f.version = fw;
  if (!psid.empty()) f.psid = psid;
  p.firmware.value = f;
  p.firmware.source = {"flint_q@" + bdf + ".txt", 2, "FW Version:            " + fw};
  DriverStack d;
  d.release = "MLNX_OFED_LINUX-23.10-1.1.9.0";
  d.stack = "MLNX_OFED";
  d.version = "23.10-1.1.9.0";
  s.driver_stack.value = d;
  return s;
}

const Action* find(const Plan& p, ActionKind k) {
  auto it = std::find_if(p.actions.begin(), p.actions.end(),
                         [&](const Action& a) { return a.kind == k; });
  return it == p.actions.end() ? nullptr : &*it;
}

// mstflint flint/subcommands.cpp QuerySubCommand::printInfo on a real ConnectX-7
// (testdata/corpus/flint/ocp-nno-cx7-flint-q-28.43.txt): "FW Version:            28.43.1014",
// "PSID:                  MT_0000001244".
TEST(FirmwareBurn, ReadBacksMatchARealFlintQuery) {
  const std::string q = rk::test::corpus_body("flint/ocp-nno-cx7-flint-q-28.43.txt");
  FixStep check = fix::flint_image_check("mstflint", "/srv/fw.bin", "MT_0000001244", "28.43.1014");
  EXPECT_EQ(check.argv, (std::vector<std::string>{"mstflint", "-i", "/srv/fw.bin", "query"}));
  ASSERT_EQ(check.check_regex.size(), 2u);
  for (const std::string& re : check.check_regex) EXPECT_TRUE(matches_a_line(re, q)) << re;
  // Another board's PSID, or another version (28.43.1014 is not 28.43.10145 nor 28x43.1014): no
  // match.
  EXPECT_FALSE(matches_a_line(
      fix::flint_image_check("mstflint", "/x", "MT_0000000838", "28.43.1014").check_regex[0], q));
  EXPECT_FALSE(matches_a_line(
      fix::flint_image_check("mstflint", "/x", "MT_000000124", "28.43.1014").check_regex[0], q));
  EXPECT_FALSE(matches_a_line(
      fix::flint_image_check("mstflint", "/x", "MT_0000001244", "28.43.101").check_regex[1], q));
  FixStep burn = fix::flint_burn("flint", k_bdf, "/srv/fw.bin", "28.43.1014");
  EXPECT_EQ(burn.argv,
            (std::vector<std::string>{"flint", "-d", k_bdf, "-i", "/srv/fw.bin", "-y", "burn"}));
  EXPECT_EQ(burn.check_argv, (std::vector<std::string>{"flint", "-d", k_bdf, "query"}));
  EXPECT_TRUE(matches_a_line(burn.check_regex.at(0), q));
  EXPECT_FALSE(
      matches_a_line(fix::flint_burn("flint", k_bdf, "/x", "28.43.3608").check_regex.at(0), q));
}

TEST(FirmwareBurn, PlanChecksTheImageThenBurnsTheReleaseNotesFirmware) {
  PlanOptions o;
  o.firmware_images = {{"MT_0000000838", "/srv/firmware/fw-ConnectX7-28_39_2048.bin"}};
  Plan p = make_plan(cx7("28.35.1012"), default_policy(), o);
  ASSERT_EQ(p.actions.size(), 2u);
  const Action& check = p.actions[0];
  const Action& burn = p.actions[1];
  EXPECT_EQ(check.kind, ActionKind::firmware_image_check);
  EXPECT_EQ(check.argv,
            (std::vector<std::string>{"mstflint", "-i", "/srv/firmware/fw-ConnectX7-28_39_2048.bin",
                                      "query"}));
  EXPECT_EQ(check.check_regex,
            (std::vector<std::string>{"^PSID:[[:space:]]+MT_0000000838[[:space:]]*$",
                                      "^FW Version:[[:space:]]+28\\.39\\.2048[[:space:]]*$"}));
  EXPECT_EQ(check.desired, "PSID MT_0000000838, FW Version 28.39.2048");
  EXPECT_EQ(check.disruption, Disruption::none);
  EXPECT_EQ(burn.kind, ActionKind::firmware_burn);
  EXPECT_EQ(burn.rule, "fw.driver-compat");
  EXPECT_EQ(burn.subject, k_bdf);
  EXPECT_EQ(burn.current, "28.35.1012");
  EXPECT_EQ(burn.desired, "28.39.2048");
  EXPECT_EQ(burn.scope, FixScope::firmware_reboot);
  EXPECT_EQ(burn.disruption, Disruption::reboot_or_fw_reset);
  EXPECT_EQ(burn.argv,
            (std::vector<std::string>{"mstflint", "-d", k_bdf, "-i",
                                      "/srv/firmware/fw-ConnectX7-28_39_2048.bin", "-y", "burn"}));
  EXPECT_TRUE(burn.undo_argv.empty());                                    // no rollback of a burn
  EXPECT_NE(burn.note.find("https://"), std::string::npos) << burn.note;  // the release notes' page
  EXPECT_TRUE(missing_firmware_images(p).empty());
  EXPECT_EQ(p.identity.bdfs, std::vector<std::string>{k_bdf});
  for (const Unplanned& u : p.unplanned) EXPECT_NE(u.rule, "fw.driver-compat") << u.reason;
  EXPECT_NE(
      render_sh(p).find(
          "run mstflint -d 0000:3b:00.0 -i /srv/firmware/fw-ConnectX7-28_39_2048.bin -y burn"),
      std::string::npos);
}

// The release notes' firmware older than the running one: still planned (the rule fails the
// pair), with a warning that it is a downgrade and that a newer driver would keep it.
TEST(FirmwareBurn, ADowngradeIsSaid) {
  PlanOptions o;
  o.firmware_images = {{"MT_0000000838", "/srv/firmware/fw-ConnectX7-28_39_2048.bin"}};
  Plan p = make_plan(cx7("28.44.1036"), default_policy(), o);
  ASSERT_EQ(p.actions.size(), 2u);
  EXPECT_EQ(p.actions[1].desired, "28.39.2048");
  auto down = std::find_if(p.warnings.begin(), p.warnings.end(),
                           [](const std::string& w) { return w.find("goes DOWN") != std::string::npos; });
  ASSERT_NE(down, p.warnings.end());
  EXPECT_TRUE(down->starts_with("firmware of 0000:3b:00 goes DOWN from 28.44.1036 to 28.39.2048: 28.39.2048 is what "
                                "the release notes of MLNX_OFED 23.10-1.1.9.0 give"))
      << *down;
  // An upgrade says nothing of the kind.
  Plan up = make_plan(cx7("28.35.1012"), default_policy(), o);
  for (const std::string& w : up.warnings) EXPECT_EQ(w.find("goes DOWN"), std::string::npos) << w;
  // 28.39.2048 is itself 8 trains behind the newest ConnectX-7 firmware the table knows: the
  // burn would leave fw.releases-behind failing, and the plan says so.
  auto still = std::find_if(p.warnings.begin(), p.warnings.end(),
                            [](const std::string& w) { return w.starts_with("after the burn 0000:3b:00 still fails fw.releases-behind: "); });
  ASSERT_NE(still, p.warnings.end());
  EXPECT_NE(still->find("28.39.2048"), std::string::npos) << *still;
  EXPECT_NE(still->find("a newer driver release"), std::string::npos) << *still;
  // Under a policy that warns only 20 trains behind, no such warning.
  Policy lax = default_policy();
  lax.firmware_warn_releases_behind = 20;
  for (const std::string& w : make_plan(cx7("28.44.1036"), lax, o).warnings)
    EXPECT_FALSE(w.starts_with("after the burn")) << w;
}

// An image for a PSID no burn step needs is named as unused, not silently dropped.
TEST(FirmwareBurn, AnImageForNoPlannedBoardIsSaidToBeUnused) {
  PlanOptions o;
  o.firmware_images = {{"MT_0000000838", "/srv/fw/cx7.bin"}, {"MT_0000000359", "/srv/fw/cx6dx.bin"}};
  Plan p = make_plan(cx7("28.35.1012"), default_policy(), o);
  std::vector<std::string> unused;
  for (const std::string& w : p.warnings)
    if (w.find("is not used") != std::string::npos) unused.push_back(w);
  ASSERT_EQ(unused.size(), 1u);
  EXPECT_TRUE(unused[0].starts_with("--firmware-image MT_0000000359=/srv/fw/cx6dx.bin is not used: no NIC of this host "
                                    "with PSID MT_0000000359 has a firmware step"))
      << unused[0];
}

TEST(FirmwareBurn, WithoutAnImageThePlanNamesAPlaceholderAndApplyRefuses) {
  Plan p = make_plan(cx7("28.35.1012"), default_policy());
  const Action* check = find(p, ActionKind::firmware_image_check);
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->argv.at(2), "<no-firmware-image-for-PSID-MT_0000000838>");
  EXPECT_TRUE(fix::is_firmware_image_placeholder(check->argv.at(2)));
  std::vector<std::string> missing = missing_firmware_images(p);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0],
            "refusing to run: the firmware step for 0000:3b:00.0 (PSID MT_0000000838, FW Version "
            "28.39.2048) has no image; make the plan again with --firmware-image PSID=FILE (a "
            "local image "
            "of that firmware)");
  EXPECT_NE(render_sh(p).find(
                "if [[ $execute -eq 1 ]]; then\n  printf 'rocekit: %s\\n' 'refusing to run"),
            std::string::npos);
  EXPECT_NE(render_ansible(p).find("ansible.builtin.fail"), std::string::npos);

  struct NoRun : StepRunner {
    int calls = 0;
    Result<std::string> run(const std::vector<std::string>&) override {
      ++calls;
      return std::string();
    }
    Result<bool> write_file(const std::string&, const std::string&) override {
      ++calls;
      return true;
    }
    Result<std::string> read_file(const std::string&) override {
      ++calls;
      return std::string();
    }
  } runner;
  ApplyOptions ao;
  ao.firmware = true;
  ao.state_file = "/nonexistent/rocekit-test/state.json";
  Result<ApplyReport> r = apply_plan(p, ao, runner);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("has no image"), std::string::npos);
  EXPECT_NE(r.error().message.find("nothing was changed"), std::string::npos);
  EXPECT_EQ(runner.calls, 0);
  // Without --firmware the firmware steps are skipped, so nothing is refused.
  ao.firmware = false;
  ao.dry_run = true;
  Result<ApplyReport> dry = apply_plan(p, ao, runner);
  ASSERT_TRUE(dry.has_value());
  EXPECT_EQ(runner.calls, 0);
}

TEST(FirmwareBurn, NotPlannedWithoutPsidAndOncePerDevice) {
  Plan no_psid = make_plan(cx7("28.35.1012", ""), default_policy());
  EXPECT_EQ(find(no_psid, ActionKind::firmware_burn), nullptr);
  auto u = std::find_if(no_psid.unplanned.begin(), no_psid.unplanned.end(),
                        [](const Unplanned& x) { return x.rule == "fw.driver-compat"; });
  ASSERT_NE(u, no_psid.unplanned.end());
  EXPECT_NE(u->reason.find("the board's PSID was not read (`mstflint -d 0000:3b:00.0 query`)"),
            std::string::npos)
      << u->reason;

  // Two ports of one NIC (functions .0 and .1) share the flash: one check and one burn.
  Snapshot s = cx7("28.35.1012");
  Snapshot second = cx7("28.35.1012", "MT_0000000838", "0000:3b:00.1");
  s.pci_functions.push_back(second.pci_functions.front());
  Plan two = make_plan(s, default_policy());
  EXPECT_EQ(std::count_if(two.actions.begin(), two.actions.end(),
                          [](const Action& a) { return a.kind == ActionKind::firmware_burn; }),
            1);
  for (const Unplanned& x : two.unplanned)
    EXPECT_NE(x.rule, "fw.driver-compat") << x.subject << ": " << x.reason;

  // Recommended firmware already: no step.
  Plan ok = make_plan(cx7("28.39.2048"), default_policy());
  EXPECT_EQ(find(ok, ActionKind::firmware_burn), nullptr);
}

TEST(FirmwareBurn, CheckAdvisesTheSameSteps) {
  rules::Report r = rules::evaluate(cx7("28.35.1012"), default_policy(), {"fw.driver-compat"});
  ASSERT_EQ(r.findings.size(), 1u);
  const Finding& f = r.findings[0];
  EXPECT_EQ(f.outcome, Outcome::fail);
  EXPECT_EQ(f.remediation.scope, FixScope::firmware_reboot);
  EXPECT_EQ(f.remediation.action, "firmware");
  EXPECT_EQ(f.remediation.desired, "28.39.2048");
  EXPECT_EQ(
      f.remediation.commands,
      (std::vector<std::string>{
          "mstflint -i '<no-firmware-image-for-PSID-MT_0000000838>' query",
          "mstflint -d 0000:3b:00.0 -i '<no-firmware-image-for-PSID-MT_0000000838>' -y burn"}));
}

TEST(FirmwareBurn, ImageOptionIsPsidEqualsAbsolutePath) {
  auto ok = parse_firmware_image_option("MT_0000000834=/srv/fw/fw-ConnectX7.bin");
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->first, "MT_0000000834");
  EXPECT_EQ(ok->second, "/srv/fw/fw-ConnectX7.bin");
  EXPECT_NE(parse_firmware_image_option("/srv/fw.bin").error().message.find("wants PSID=FILE"),
            std::string::npos);
  EXPECT_NE(parse_firmware_image_option("MT 1=/srv/fw.bin").error().message.find("PSID \"MT 1\""),
            std::string::npos);
  EXPECT_NE(
      parse_firmware_image_option("MT_0000000834=fw.bin").error().message.find("absolute path"),
      std::string::npos);
  EXPECT_FALSE(fix::valid_psid("MT_00000008341234567"));  // 19 characters: over flint's PSID_LEN 16
}

}  // namespace
}  // namespace rk::plan

// Per-backend fix builders (fix.hpp). Every argv and read-back regex below follows the tool's
// source; the tests run the real binaries where they run here (tests/plan/real_tools_test.sh).
#include "rocekit/fix/fix.hpp"

#include "rocekit/core/shell.hpp"

namespace rk::fix {

namespace {

std::string on_off(bool b) { return b ? "on" : "off"; }

std::string mask_text(const std::vector<bool>& m, std::string_view sep, bool words) {
  std::string out;
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (i) out += sep;
    if (words)
      out += std::to_string(i) + (m[i] ? ":on" : ":off");
    else
      out += m[i] ? "1" : "0";
  }
  return out;
}

// iproute2 dcb read-backs are numeric. dcb/dcb_app.c (v6.1.0) dcb_app_print_dscp_prio: without
// -N the DSCP is printed by its rt_dsfield name (dcb_app_print_key_dscp ->
// rtnl_dsfield_get_name: 26 -> "AF31", 48 -> "CS6"); with -N (dcb->numeric, dcb/dcb.c option
// 'N', in v5.12.0 like the `app` object itself) dcb_app_print_filtered prints "dscp-prio " and
// per entry "%d:" "%d ": "dscp-prio 26:3 48:6 ". -j prints {"dscp_prio":[[26,3],[48,6]]}, and
// `{}` when no DSCP entry exists (open_json_object in dcb_cmd_app_show, "\n" from
// jsonw_destroy). dcb/dcb_pfc.c dcb_pfc_print_prio_pfc -> dcb_print_named_array("prio_pfc",
// "prio-pfc") + dcb_print_array_on_off ("%zd:" "%s "): "prio-pfc 0:off 1:off 2:off 3:on ...".
const std::string k_dcb_needs = "iproute2 >= 5.12 (dcb app, dcb -N)";

std::vector<std::string> dcb_app_read(const std::string& dev) {
  return {"dcb", "-N", "app", "show", "dev", dev, "dscp-prio"};
}

}  // namespace

FixStep ip_mtu(const std::string& dev, int bytes) {
  // ip/ipaddress.c print_linkinfo: "%d: %s: <FLAGS> mtu %u qdisc ..." (`-o`: one line).
  FixStep s;
  s.tool = "ip";
  s.argv = {"ip", "link", "set", "dev", dev, "mtu", std::to_string(bytes)};
  s.check_argv = {"ip", "-o", "link", "show", "dev", dev};
  s.check_regex = {" mtu " + std::to_string(bytes) + " "};
  return s;
}

FixStep ethtool_pause(const std::string& dev, std::optional<bool> autoneg, bool rx, bool tx) {
  // ethtool netlink/pause.c pause_reply_cb: show_bool("rx", "RX:\t\t%s\n"), "TX:\t\t%s\n".
  FixStep s;
  s.tool = "ethtool";
  s.argv = {"ethtool", "-A", dev};
  if (autoneg) s.argv.insert(s.argv.end(), {"autoneg", on_off(*autoneg)});
  s.argv.insert(s.argv.end(), {"rx", on_off(rx), "tx", on_off(tx)});
  s.check_argv = {"ethtool", "-a", dev};
  s.check_regex = {"^RX:[[:space:]]+" + on_off(rx) + "$", "^TX:[[:space:]]+" + on_off(tx) + "$"};
  return s;
}

FixStep ethtool_coalesce(const std::string& dev,
                         const std::vector<std::pair<std::string, std::string>>& settings) {
  // ethtool netlink/coalesce.c coalesce_reply_cb: show_bool("rx", "Adaptive RX: %s  ") and
  // show_u32("rx-usecs", "rx-usecs: ") -> "rx-usecs: 8".
  FixStep s;
  s.tool = "ethtool";
  s.argv = {"ethtool", "-C", dev};
  s.check_argv = {"ethtool", "-c", dev};
  for (const auto& [k, v] : settings) {
    s.argv.insert(s.argv.end(), {k, v});
    if (k == "adaptive-rx")
      s.check_regex.push_back("^Adaptive RX:[[:space:]]+" + v + "([[:space:]]|$)");
    else
      s.check_regex.push_back("^" + k + ":[[:space:]]+" + v + "$");
  }
  return s;
}

FixStep mlnx_qos_trust(const std::string& dev, const std::string& trust) {
  // mlnx-tools python/mlnx_qos pretty_print: "Priority trust state: " + trust.
  FixStep s;
  s.tool = "mlnx_qos";
  s.argv = {"mlnx_qos", "-i", dev, "--trust", trust};
  s.check_argv = {"mlnx_qos", "-i", dev};
  s.check_regex = {"^Priority trust state:[[:space:]]+" + trust + "$"};
  return s;
}

FixStep dcb_trust(const std::string& dev, const std::string& trust, const std::map<int, int>* keep) {
  // mlx5 implements no dcbnl_setapptrust (drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c
  // mlx5e_dcbnl_ops) and iproute2 < 6.2 has no `dcb apptrust`: on mlx5 trust dscp is "the APP
  // table holds DSCP entries" (mlx5e_dcbnl_ieee_setapp sets DSCP trust on the first one,
  // mlx5e_dcbnl_ieee_delapp PCP on the last). Trust dscp installs the whole map (default
  // priority = DSCP >> 3, as `mlnx_qos --trust dscp` does); trust pcp flushes the DSCP entries.
  // `replace` (dcb_cmd_app_replace) adds the new entries and removes the replaced ones.
  FixStep s;
  s.tool = "dcb";
  s.needs = k_dcb_needs;
  if (trust == "dscp") {
    s.argv = {"dcb", "app", "replace", "dev", dev, "dscp-prio"};
    for (int d = 0; d < 64; ++d) {
      int p = d >> 3;
      if (keep)
        if (auto k = keep->find(d); k != keep->end()) p = k->second;
      s.argv.push_back(std::to_string(d) + ":" + std::to_string(p));
    }
    s.check_regex = {"\"dscp_prio\":\\[\\["};
  } else {
    s.argv = {"dcb", "app", "flush", "dev", dev, "dscp-prio"};
    s.check_regex = {"^\\{\\}$"};
  }
  s.check_argv = {"dcb", "-j", "app", "show", "dev", dev, "dscp-prio"};
  return s;
}

FixStep mlnx_qos_dscp(const std::string& dev, int dscp, int prio) {
  // mlnx_qos printAppSelector: "\tprio:%d dscp:" then "%02d," per DSCP, 8 per line.
  FixStep s;
  s.tool = "mlnx_qos";
  std::string d = std::to_string(dscp), p = std::to_string(prio);
  s.argv = {"mlnx_qos", "-i", dev, "--dscp2prio", "set," + d + "," + p};
  s.check_argv = {"mlnx_qos", "-i", dev};
  s.check_regex = {"prio:" + p + " dscp:([0-9]+,)*" + (dscp < 10 ? "0" + d : d) + ","};
  return s;
}

FixStep dcb_dscp(const std::string& dev, int dscp, int prio) {
  FixStep s;
  s.tool = "dcb";
  s.needs = k_dcb_needs;
  std::string e = std::to_string(dscp) + ":" + std::to_string(prio);
  s.argv = {"dcb", "app", "replace", "dev", dev, "dscp-prio", e};
  s.check_argv = dcb_app_read(dev);
  s.check_regex = {"(^|[[:space:]])" + e + "([[:space:]]|$)"};
  return s;
}

FixStep mlnx_qos_pfc(const std::string& dev, const std::vector<bool>& on) {
  // mlnx_qos -f/--pfc: 8 comma-separated 0/1, priority 0 first; pretty_print "\tenabled     "
  // then "%1d   " per priority.
  FixStep s;
  s.tool = "mlnx_qos";
  s.argv = {"mlnx_qos", "-i", dev, "--pfc", pfc_list(on)};
  s.check_argv = {"mlnx_qos", "-i", dev};
  s.check_regex = {"^[[:space:]]*enabled[[:space:]]+" + mask_text(on, "[[:space:]]+", false) +
                   "[[:space:]]*$"};
  return s;
}

FixStep dcb_pfc(const std::string& dev, const std::vector<bool>& on) {
  // dcb_pfc.c dcb_cmd_pfc_set: prio-pfc PFC-MAP, PRIO:{on|off} (dcb_pfc_parse_mapping_prio_pfc).
  FixStep s;
  s.tool = "dcb";
  s.needs = k_dcb_needs;
  s.argv = {"dcb", "pfc", "set", "dev", dev, "prio-pfc"};
  for (std::size_t i = 0; i < on.size(); ++i) s.argv.push_back(std::to_string(i) + ":" + on_off(on[i]));
  s.check_argv = {"dcb", "-N", "pfc", "show", "dev", dev, "prio-pfc"};
  s.check_regex = {"prio-pfc " + mask_text(on, " ", true) + "( |$)"};
  return s;
}

namespace {
std::string comma_list(const std::vector<std::string>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + v[i];
  return out;
}
std::vector<std::string> ints_text(const std::vector<int>& v) {
  std::vector<std::string> out;
  for (int x : v) out.push_back(std::to_string(x));
  return out;
}
std::string tsa_shown(const std::string& tsa, int bw) {
  return tsa == "ets" ? "ets, bw: " + std::to_string(bw) + "%" : tsa;
}
}  // namespace

FixStep mlnx_qos_ets(const std::string& dev, const std::vector<std::string>& tsa,
                     const std::vector<int>& bw, int check_tc) {
  // mlnx_qos -s/--tsa and -t/--tcbw: 8 comma-separated items each; pretty_print prints
  // "tc: %d ratelimit: %s, tsa: " then "ets, bw: %s%%" | "strict" | "vendor".
  FixStep s;
  s.tool = "mlnx_qos";
  s.argv = {"mlnx_qos", "-i", dev, "--tsa", comma_list(tsa), "--tcbw", comma_list(ints_text(bw))};
  s.check_argv = {"mlnx_qos", "-i", dev};
  const auto i = static_cast<std::size_t>(check_tc);
  if (i < tsa.size() && i < bw.size())
    s.check_regex = {"^tc: " + std::to_string(check_tc) + " ratelimit: [^,]*, tsa: " + tsa_shown(tsa[i], bw[i]) + "$"};
  return s;
}

FixStep dcb_ets(const std::string& dev, const std::vector<std::string>& tsa, const std::vector<int>& bw,
                int check_tc) {
  // dcb_ets.c: tc-tsa TSA-MAP (TC:{strict|cbs|ets|vendor}), tc-bw BW-MAP (TC:INTEGER); show
  // prints dcb_print_named_array("tc_tsa", "tc-tsa") "%zd:%s " and "tc-bw" "%zd:%d ".
  FixStep s;
  s.tool = "dcb";
  s.needs = k_dcb_needs;
  s.argv = {"dcb", "ets", "set", "dev", dev, "tc-tsa"};
  for (std::size_t i = 0; i < tsa.size(); ++i) s.argv.push_back(std::to_string(i) + ":" + tsa[i]);
  s.argv.push_back("tc-bw");
  for (std::size_t i = 0; i < bw.size(); ++i) s.argv.push_back(std::to_string(i) + ":" + std::to_string(bw[i]));
  s.check_argv = {"dcb", "ets", "show", "dev", dev, "tc-tsa", "tc-bw"};
  const auto i = static_cast<std::size_t>(check_tc);
  if (i < tsa.size() && i < bw.size())
    s.check_regex = {"tc-tsa( [0-9]+:[a-z]+)* " + std::to_string(check_tc) + ":" + tsa[i] + "( |$)",
                     "tc-bw( [0-9]+:[0-9]+)* " + std::to_string(check_tc) + ":" + std::to_string(bw[i]) + "( |$)"};
  return s;
}

FixStep mlnx_qos_cable_len(const std::string& dev, int metres) {
  // mlnx_qos --cable_len: set_ieee_pfc(_delay=N); pretty_print "Cable len: %d" % pfc_delay.
  FixStep s;
  s.tool = "mlnx_qos";
  s.argv = {"mlnx_qos", "-i", dev, "--cable_len", std::to_string(metres)};
  s.check_argv = {"mlnx_qos", "-i", dev};
  s.check_regex = {"^Cable len: " + std::to_string(metres) + "$"};
  return s;
}

FixStep dcb_cable_len(const std::string& dev, int metres) {
  // dcb_pfc.c: `delay INTEGER` (ieee_pfc.delay), shown as "delay %d"; mlx5e_dcbnl_ieee_setpfc
  // stores it as dcbx.cable_len (below MLX5E_MAX_CABLE_LENGTH, 1000).
  FixStep s;
  s.tool = "dcb";
  s.needs = k_dcb_needs;
  s.argv = {"dcb", "pfc", "set", "dev", dev, "delay", std::to_string(metres)};
  s.check_argv = {"dcb", "pfc", "show", "dev", dev, "delay"};
  s.check_regex = {"delay " + std::to_string(metres) + "( |$)"};
  return s;
}

std::optional<FixStep> setpci_mrrs(const std::string& bdf, int bytes) {
  int idx = -1;
  for (int i = 0; i <= 5; ++i)
    if ((128 << i) == bytes) idx = i;
  if (idx < 0) return std::nullopt;
  // pciutils setpci.c: NAME.w=VALUE:MASK writes (old & ~MASK) | (VALUE & MASK). MaxReadReq is
  // DevCtl (PCIe capability + 08h) bits 14:12 (PCIe Base Spec; 0 = 128 ... 5 = 4096 bytes), so
  // the mask is 7000: no other bit is written. A read prints the word as "%04x"; bit 15 may be
  // set, hence [5d] for 4096.
  const char* hex = "0123456789abcdef";
  FixStep s;
  s.tool = "setpci";
  s.argv = {"setpci", "-s", bdf, std::string("CAP_EXP+08.w=") + hex[idx] + "000:7000"};
  s.check_argv = {"setpci", "-s", bdf, "CAP_EXP+08.w"};
  s.check_regex = {std::string("^[") + hex[idx] + hex[idx + 8] + "][0-9a-f]{3}$"};
  return s;
}

FixStep setpci_acs_redirect_off(const std::string& bdf) {
  // pciutils setpci: ECAP_ACS is the ACS extended capability (ID 000d, `setpci --dumpregs`);
  // +6 is its Control register (PCIe Base Spec: bit 2 P2P Request Redirect, bit 3 P2P Completion
  // Redirect). VALUE:MASK 0000:000c clears those two bits only. A read prints "%04x".
  FixStep s;
  s.tool = "setpci";
  s.argv = {"setpci", "-s", bdf, "ECAP_ACS+0x6.w=0000:000c"};
  s.check_argv = {"setpci", "-s", bdf, "ECAP_ACS+0x6.w"};
  s.check_regex = {"^[0-9a-f]{3}[0-3]$"};
  return s;
}

FixStep sysfs_ecn(const std::string& dev, const std::string& point, int prio, bool on) {
  // NVIDIA driver (MLNX_OFED en_sysfs.c mlx5e_fill_attributes): ecn/<roce_rp|roce_np>/enable/<0..7>.
  FixStep s;
  s.tool = "sysfs";
  s.write_path = "/sys/class/net/" + dev + "/ecn/" + point + "/enable/" + std::to_string(prio);
  s.write_value = on ? "1" : "0";
  s.check_regex = {"^" + s.write_value + "$"};
  return s;
}

FixStep nv_set(const std::string& tool, const std::string& bdf,
               const std::vector<std::pair<std::string, std::string>>& params) {
  // mstflint mlxconfig: `-y -d BDF set K=V...`; `query K...` prints "        K    V" with
  // enums and booleans as "ALIAS(n)" in the Next Boot column.
  FixStep s;
  s.tool = tool;
  s.argv = {tool, "-y", "-d", bdf, "set"};
  s.check_argv = {tool, "-d", bdf, "query"};
  for (const auto& [k, v] : params) {
    s.argv.push_back(k + "=" + v);
    s.check_argv.push_back(k);
    s.check_regex.push_back("^[[:space:]]*" + k + "[[:space:]]+([A-Za-z_]+\\()?" + v + "\\)?([[:space:]]|$)");
  }
  return s;
}

void nv_expect(FixStep& step, const std::string& name, const std::string& value) {
  // The same query and line form as nv_set's read-back.
  step.check_argv.push_back(name);
  step.check_regex.push_back("^[[:space:]]*" + name + "[[:space:]]+([A-Za-z_]+\\()?" + value + "\\)?([[:space:]]|$)");
}

FixStep nv_ats_enabled(const std::string& bdf) {
  // mstflint mlxconfig/mlxconfig_dbs/mlxconfig_host.db: ATS_ENABLED (TLV nv_pci_conf, BOOL).
  return nv_set("mstconfig", bdf, {{"ATS_ENABLED", "1"}});
}

bool valid_psid(std::string_view psid) {
  // flint prints the image's PSID field, at most 16 characters (PSID_LEN in mstflint's
  // mlxfwops/lib/mlxfwops_com.h); NVIDIA's are MT_ and ten digits, OEMs' letters and digits.
  if (psid.empty() || psid.size() > 16) return false;
  return psid.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
         std::string_view::npos;
}

std::string firmware_image_placeholder(const std::string& psid) {
  return "<no-firmware-image-for-PSID-" + psid + ">";
}

bool is_firmware_image_placeholder(std::string_view word) {
  return word.starts_with("<no-firmware-image-for-PSID-") && word.ends_with(">");
}

namespace {
/// "28.39.2048" as an ERE, each dot escaped; the caller checked the NN.NN.NNNN form.
std::string version_re(const std::string& version) {
  std::string out;
  for (char c : version) {
    if (c == '.') out += '\\';
    out += c;
  }
  return out;
}
}  // namespace

// mstflint flint/subcommands.cpp QuerySubCommand::printInfo(): `flint [-d DEV | -i IMAGE] query`
// prints "FW Version:            %s" (the flash or image version, VERSION_FORMAT "%d.%d.%04d"),
// "FW Version(Running):   %s" only when the running firmware differs, and
// "PSID:                  %s". Options come before the command (flint/cmd_line_parser.cpp:
// Flag("d", "device"), Flag("i", "image"), Flag("y", "yes"): non-interactive, answers yes).
// Without a readable image it exits 1 with "-E- Cannot open Image: FILE. ..." (mstflint 4.21.0).
FixStep flint_image_check(const std::string& tool, const std::string& image, const std::string& psid,
                          const std::string& version) {
  FixStep s;
  s.tool = tool;
  s.argv = {tool, "-i", image, "query"};
  s.check_argv = s.argv;
  s.check_regex = {"^PSID:[[:space:]]+" + psid + "[[:space:]]*$",
                   "^FW Version:[[:space:]]+" + version_re(version) + "[[:space:]]*$"};
  return s;
}

// BurnSubCommand::burnFs3() (flint/subcommands.cpp) burns the image failsafe and itself refuses an
// image whose PSID is not the device's unless --allow_psid_change (checkPSID(); newer releases
// accept a "minor PSID change"), which rocekit never passes; flint_image_check requires equality.
FixStep flint_burn(const std::string& tool, const std::string& bdf, const std::string& image,
                   const std::string& version) {
  FixStep s;
  s.tool = tool;
  s.argv = {tool, "-d", bdf, "-i", image, "-y", "burn"};
  s.check_argv = {tool, "-d", bdf, "query"};
  s.check_regex = {"^FW Version:[[:space:]]+" + version_re(version) + "[[:space:]]*$"};
  return s;
}

std::string pfc_list(const std::vector<bool>& on) { return mask_text(on, ",", false); }

std::vector<bool> pfc_mask(const std::vector<int>& priorities) {
  std::vector<bool> m(8, false);
  for (int p : priorities)
    if (p >= 0 && p < 8) m[static_cast<std::size_t>(p)] = true;
  return m;
}

std::string command_line(const FixStep& step) {
  if (step.write_path)
    return "echo " + text::shell_quote(step.write_value) + " > " + text::shell_quote(*step.write_path);
  std::string out;
  for (const std::string& w : step.argv) out += (out.empty() ? "" : " ") + text::shell_quote(w);
  return out;
}

void set_fix(Remediation& r, std::string action, std::string current, std::string desired,
             std::vector<FixStep> steps) {
  r.action = std::move(action);
  r.current = std::move(current);
  r.desired = std::move(desired);
  for (const FixStep& s : steps) r.commands.push_back(command_line(s));
  r.steps.insert(r.steps.end(), std::make_move_iterator(steps.begin()), std::make_move_iterator(steps.end()));
}

void set_fix_either(Remediation& r, std::string action, std::string current, std::string desired,
                    std::pair<FixStep, FixStep> backends, bool prefer_second) {
  const FixStep& primary = prefer_second ? backends.second : backends.first;
  const FixStep& other = prefer_second ? backends.first : backends.second;
  r.action = std::move(action);
  r.current = std::move(current);
  r.desired = std::move(desired);
  r.commands.push_back(command_line(primary));
  r.alternative_tool = other.tool;
  r.alternative.push_back(command_line(other));
  r.steps.push_back(std::move(backends.first));
  r.steps.push_back(std::move(backends.second));
}

}  // namespace rk::fix

// rk::fix: the per-backend fix builders. The one place that knows how each tool is invoked to
// set a value, and what its read-back prints afterwards; rules put the steps into a Finding's
// Remediation (check prints them), plan turns the same steps into actions (and their undo, the
// same builder with the old value). Pure: nothing runs here. Sources per tool in fix.cpp.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocekit/model/finding.hpp"

namespace rk::fix {

/// `ip link set dev DEV mtu BYTES`; read-back `ip -o link show dev DEV`.
FixStep ip_mtu(const std::string& dev, int bytes);

/// `ethtool -A DEV [autoneg A] rx R tx T`; read-back `ethtool -a DEV`.
FixStep ethtool_pause(const std::string& dev, std::optional<bool> autoneg, bool rx, bool tx);

/// `ethtool -C DEV KEY VALUE...` for adaptive-rx (on/off) and rx-usecs / tx-usecs; read-back
/// `ethtool -c DEV`. `settings` in the order given.
FixStep ethtool_coalesce(const std::string& dev,
                         const std::vector<std::pair<std::string, std::string>>& settings);

/// Trust state: mlnx_qos `--trust`, or for iproute2 dcb the presence (dscp) or absence (pcp) of
/// DSCP APP entries; `keep` is the DSCP map to (re)install for dscp (nullptr = DSCP >> 3).
FixStep mlnx_qos_trust(const std::string& dev, const std::string& trust);
FixStep dcb_trust(const std::string& dev, const std::string& trust,
                  const std::map<int, int>* keep = nullptr);

/// One DSCP -> priority entry.
FixStep mlnx_qos_dscp(const std::string& dev, int dscp, int prio);
FixStep dcb_dscp(const std::string& dev, int dscp, int prio);

/// PFC enable per priority (8 entries, priority 0 first).
FixStep mlnx_qos_pfc(const std::string& dev, const std::vector<bool>& on);
FixStep dcb_pfc(const std::string& dev, const std::vector<bool>& on);

/// ETS of all 8 traffic classes: mlnx_qos `--tsa` + `--tcbw` (8 items each; mlnx-tools
/// python/mlnx_qos requires bw 0 for a strict/vendor class), or `dcb ets set ... tc-tsa ...
/// tc-bw ...`. `tsa` holds "strict", "ets" or "vendor"; the read-back checks traffic class
/// `check_tc`.
FixStep mlnx_qos_ets(const std::string& dev, const std::vector<std::string>& tsa,
                     const std::vector<int>& bw, int check_tc);
FixStep dcb_ets(const std::string& dev, const std::vector<std::string>& tsa, const std::vector<int>& bw,
                int check_tc);

/// The cable length mlx5 sizes PFC headroom for: mlnx_qos `--cable_len N` (it sets the dcbnl
/// IEEE_PFC delay, which mlx5 reads as metres), or `dcb pfc set dev DEV delay N`.
FixStep mlnx_qos_cable_len(const std::string& dev, int metres);
FixStep dcb_cable_len(const std::string& dev, int metres);

/// ACS P2P request and completion redirect off at a bridge by setpci (masked write of ACS
/// Control bits 2 and 3); the other ACS bits are kept.
FixStep setpci_acs_redirect_off(const std::string& bdf);

/// PCIe MaxReadReq by setpci (masked write of DevCtl bits 14:12); nullopt unless bytes is a
/// power of two in 128..4096.
std::optional<FixStep> setpci_mrrs(const std::string& bdf, int bytes);

/// `echo V > /sys/class/net/DEV/ecn/<roce_rp|roce_np>/enable/PRIO` (NVIDIA driver sysfs).
FixStep sysfs_ecn(const std::string& dev, const std::string& point, int prio, bool on);

/// `TOOL -y -d BDF set K=V...` (mstconfig or mlxconfig); read-back `TOOL -d BDF query K...`.
FixStep nv_set(const std::string& tool, const std::string& bdf,
               const std::vector<std::pair<std::string, std::string>>& params);

/// Adds parameter `name` to an nv_set step's read-back, expected at `value` (decimal): a value
/// the set must leave as it is, such as a BlueField's INTERNAL_CPU_MODEL (issue 22).
void nv_expect(FixStep& step, const std::string& name, const std::string& value);
/// `mstconfig -y -d BDF set ATS_ENABLED=1` (nv_set): the NIC offers Address Translation Services
/// after a reboot or mstfwreset (mstflint mlxconfig database: nv_pci_conf.ats_enabled, BOOL, "When
/// set to TRUE, the device will support ATS", available when nv_pci_cap.ats_supported).
FixStep nv_ats_enabled(const std::string& bdf);

/// Firmware burn from a LOCAL image (mstflint `flint`; never an online download), two steps:
/// `TOOL -i IMAGE query`, whose read-back (the same query) must show the board's PSID and the
/// target FW Version, so that a wrong image stops the plan before anything is written; then
/// `TOOL -d BDF -i IMAGE -y burn`, read back with `TOOL -d BDF query` (FW Version of the flash).
/// TOOL is "mstflint" (Debian) or "flint" (NVIDIA MFT). `psid` must be 1..16 of [A-Za-z0-9_]
/// (valid_psid) and `version` NN.NN.NNNN: both go into the read-back regexes unescaped.
FixStep flint_image_check(const std::string& tool, const std::string& image, const std::string& psid,
                          const std::string& version);
FixStep flint_burn(const std::string& tool, const std::string& bdf, const std::string& image,
                   const std::string& version);
/// A PSID as flint prints it: 1..16 of [A-Za-z0-9_] ("MT_0000000838").
bool valid_psid(std::string_view psid);
/// The image path of a firmware step made without an image for the board's PSID:
/// "<no-firmware-image-for-PSID-MT_0000000838>". is_firmware_image_placeholder() names it.
std::string firmware_image_placeholder(const std::string& psid);
bool is_firmware_image_placeholder(std::string_view word);

/// PFC enable per priority as mlnx_qos `--pfc` writes it: "0,0,0,1,0,0,0,0".
std::string pfc_list(const std::vector<bool>& on);

/// PFC mask of a policy's priority list.
std::vector<bool> pfc_mask(const std::vector<int>& priorities);

/// The step as one shell line (rk::text::shell_quote on every word; `echo V > PATH` for sysfs).
std::string command_line(const FixStep& step);

/// Fills the structured part of `r` and appends each step's command line to r.commands.
void set_fix(Remediation& r, std::string action, std::string current, std::string desired,
             std::vector<FixStep> steps);
/// One change with two backends (mlnx_qos, then iproute2 dcb): the preferred one's command is
/// the fix, the other's the alternative; both steps stay in r.steps in the order given (`plan`
/// picks the one installed).
void set_fix_either(Remediation& r, std::string action, std::string current, std::string desired,
                    std::pair<FixStep, FixStep> backends, bool prefer_second);

}  // namespace rk::fix

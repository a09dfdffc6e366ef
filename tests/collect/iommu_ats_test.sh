#!/bin/sh
# pcie.iommu-ats end to end on the DGX fixture tree (testdata/sysroots/make_sysroots.py): the
# tree boots with intel_iommu=on (/proc/cmdline), every IOMMU group's type is DMA, and every NIC
# and GPU has an ATS capability with Enable+ except mlx5_3 (GPU1's NIC, ATSCtl Enable-).
# - `rocekit check --root` fails exactly gpu1 <-> mlx5_3, with the group's type file and
#   mlx5_3's config space as evidence and the mstconfig ATS_ENABLED fix; the 7 other PIX pairs
#   pass; `collect` records the facts (ats_enabled, iommu_group, iommu);
# - the same from a capture: rocekit-capture under ROCEKIT_SYSROOT=<the fixture> runs the real
#   `lspci -vvv -D` (pciutils decodes the fixture's ATS capability), `cat` of its /proc/cmdline
#   and `find`/`grep` of its /sys/kernel/iommu_groups; `rocekit check` on that capture fails the
#   same pair with the type line and lspci's ATSCtl line as evidence;
# - without the IOMMU facts (lspci alone) the pairs are unknown and name the files to save.
# Usage: iommu_ats_test.sh ROCEKIT SOURCE_DIR
set -u
rk=$1
src=$2
root=$src/testdata/sysroots/dgx-h100-8gpu-8nic
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# A warning: exit 0 by default, 1 with --fail-on warning.
"$rk" check --root "$root" --rule pcie.iommu-ats >/dev/null
[ $? -eq 0 ] || fail "check exit code is not 0 (a warning fails)"
"$rk" check --root "$root" --rule pcie.iommu-ats --fail-on warning --format json >"$tmp/r.json"
[ $? -eq 1 ] || fail "check --fail-on warning exit code is not 1"
python3 - "$tmp/r.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
got = sorted((f["subject"], f["outcome"]) for f in r["findings"])
assert [s for s, o in got if o == "fail"] == ["gpu1 <-> mlx5_3"], got
assert len([s for s, o in got if o == "pass"]) == 7, got
f = [f for f in r["findings"] if f["outcome"] == "fail"][0]
assert f["severity"] == "warning", f
assert "the IOMMU translates mlx5_3 (0000:40:00.0)'s DMA (IOMMU group 7 has type DMA (translated))" in f["message"], f["message"]
assert "ATS is off on mlx5_3 (0000:40:00.0) (ATSCtl Enable-)" in f["message"], f["message"]
ev = [(e["file"], e["text"]) for e in f["evidence"]]
assert ev == [("/sys/kernel/iommu_groups/7/type", "DMA"),
              ("/sys/bus/pci/devices/0000:40:00.0/config", "ATSCtl: Enable-")], ev
assert f["remediation"]["commands"][0] == "mstconfig -y -d 0000:40:00.0 set ATS_ENABLED=1", f["remediation"]
assert "iommu=pt" in f["remediation"]["notes"] and "iommu.passthrough=1" in f["remediation"]["notes"]
p = [f for f in r["findings"] if f["subject"] == "gpu0 <-> mlx5_0"][0]
assert "ATS is enabled on mlx5_0 (0000:18:00.0) and gpu0 (0000:1b:00.0)" in p["message"], p["message"]
PY
echo "ok: check --root fails gpu1 <-> mlx5_3 only (group 7 type DMA, ATSCtl Enable-), 7 pairs pass"
"$rk" collect --root "$root" -o "$tmp/s.json" 2>/dev/null
python3 - "$tmp/s.json" <<'PY' || exit 1
import json, sys
s = json.load(open(sys.argv[1]))
assert s["schema_version"] == 8, s["schema_version"]
assert s["iommu"]["value"] == {"mode": "translated", "decided_by": "kernel command line", "parameters": ["intel_iommu=on"]}, s["iommu"]
f = {p["bdf"]: p for p in s["pci_functions"]}
assert f["0000:40:00.0"]["ats_enabled"]["value"] is False
assert f["0000:18:00.0"]["ats_enabled"]["value"] is True
assert f["0000:40:00.0"]["iommu_group"]["value"] == {"number": 7, "type": "DMA"}, f["0000:40:00.0"]["iommu_group"]
g = {x["bdf"]: x for x in s["gpus"]["value"]}
assert g["0000:43:00.0"]["ats_enabled"]["value"] is True and g["0000:43:00.0"]["iommu_group"]["value"]["number"] == 7
PY
echo "ok: collect records iommu (translated, intel_iommu=on), ats_enabled and iommu_group"
command -v lspci >/dev/null 2>&1 || { echo "SKIP: the capture half needs lspci (apt install pciutils)"; exit 0; }
ROCEKIT_SYSROOT=$root sh "$src/scripts/rocekit-capture" -o "$tmp/cap" >"$tmp/cap.log" 2>&1 ||
  { cat "$tmp/cap.log"; fail "rocekit-capture failed"; }
# dmesg.txt is this machine's kernel log (dmesg reads no sysroot): its IOMMU line is not the fixture's.
rm -f "$tmp/cap/dmesg.txt"
for f in lspci_vvv@tree.txt sysfs_ib_links.txt proc_cmdline.txt sysfs_iommu_groups.txt; do
  [ -s "$tmp/cap/$f" ] || fail "no $f in the capture"
done
grep -q "ATSCtl:	Enable-, Smallest Translation Unit: 00" "$tmp/cap/lspci_vvv@tree.txt" || fail "lspci did not decode the fixture's ATS capability"
"$rk" check "$tmp/cap" --rule pcie.iommu-ats --fail-on warning --format json >"$tmp/c.json"
[ $? -eq 1 ] || fail "check on the capture: exit code is not 1"
python3 - "$tmp/c.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
got = sorted((f["subject"], f["outcome"]) for f in r["findings"])
assert [s for s, o in got if o == "fail"] == ["gpu1 <-> mlx5_3"], got
assert len([s for s, o in got if o == "pass"]) == 7, got
f = [f for f in r["findings"] if f["outcome"] == "fail"][0]
ev = [(e["file"], e["text"]) for e in f["evidence"]]
assert ev[0][0] == "sysfs_iommu_groups.txt" and ev[0][1].endswith("/sys/kernel/iommu_groups/7/type:DMA"), ev
assert ev[1] == ("lspci_vvv@tree.txt", "ATSCtl:\tEnable-, Smallest Translation Unit: 00"), ev
assert all(e["line"] > 0 for e in f["evidence"]), f["evidence"]
PY
echo "ok: from a capture (real lspci, cat, find and grep on the fixture) the same pair fails, evidence the type line and ATSCtl"
# Only the tree and the RDMA links: the IOMMU mode is not known, and the message says what to save.
mkdir "$tmp/tree"
cp "$tmp/cap/lspci_vvv@tree.txt" "$tmp/cap/sysfs_ib_links.txt" "$tmp/tree/"
"$rk" check "$tmp/tree" --rule pcie.iommu-ats -f json >"$tmp/t.json" 2>/dev/null
python3 - "$tmp/t.json" <<'PY' || fail "no IOMMU facts: not unknown"
import json, sys
r = json.load(open(sys.argv[1]))
pairs = [f for f in r["findings"] if "<->" in f["subject"]]
assert len(pairs) == 8 and all(f["outcome"] == "unknown" for f in pairs), pairs
assert all("proc_cmdline.txt" in f["message"] and "dmesg" in f["message"] for f in pairs), pairs[0]["message"]
PY
# With the command line alone (intel_iommu=on) the host mode decides: the same pair fails.
cp "$tmp/cap/proc_cmdline.txt" "$tmp/tree/"
"$rk" check "$tmp/tree" --rule pcie.iommu-ats -f json >"$tmp/t2.json"
python3 - "$tmp/t2.json" <<'PY' || fail "cmdline alone: not the same verdict"
import json, sys
r = json.load(open(sys.argv[1]))
got = sorted((f["subject"], f["outcome"]) for f in r["findings"])
assert [s for s, o in got if o == "fail"] == ["gpu1 <-> mlx5_3"], got
f = [f for f in r["findings"] if f["outcome"] == "fail"][0]
assert "the host's IOMMU is in translated mode (kernel command line)" in f["message"], f["message"]
assert f["evidence"][0]["file"] == "proc_cmdline.txt", f["evidence"]
PY
echo "ok: without IOMMU facts unknown (names proc_cmdline.txt and dmesg); with proc_cmdline.txt alone the pair fails"

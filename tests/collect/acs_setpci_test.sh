#!/bin/sh
# pcie.acs-redirect end to end on the DGX fixture tree, and its fix through the real setpci:
# - `rocekit check --root` fails exactly gpu2 <-> mlx5_4, the pair behind the switch whose
#   downstream ports have ACS redirect on, with both ports' config as evidence; the 7 other
#   GPU <-> NIC pairs pass;
# - every setpci argv of the fix (write and read-back) parses in pciutils' setpci (-D: demo,
#   nothing written), run on a real PCI function of this machine: it either runs or stops at
#   the missing ACS capability ("Extended capability 000d not found"), never at the syntax; a
#   misspelt register is refused differently, so the check can fail;
# - the read-back regex accepts the control word with bits 2-3 clear (0x001d -> 0x0011, what
#   the mask 0000:000c leaves) and rejects it before.
# - the same from a capture: rocekit-capture under ROCEKIT_SYSROOT=<the fixture> runs the real
#   `lspci -vvv -D` (pciutils' linux-sysfs access reads the fixture's config space) and the real
#   `ls -l /sys/class/infiniband`; `rocekit check` on that capture fails the same pair with the
#   ACSCtl lines of lspci_vvv@tree.txt as evidence.
# Usage: acs_setpci_test.sh ROCEKIT SOURCE_DIR
set -u
rk=$1
src=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$rk" check --root "$src/testdata/sysroots/dgx-h100-8gpu-8nic" --rule pcie.acs-redirect --format json >"$tmp/r.json"
[ $? -eq 1 ] || fail "check exit code is not 1"
python3 - "$tmp/r.json" >"$tmp/steps" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
got = sorted((f["subject"], f["outcome"]) for f in r["findings"])
fails = [s for s, o in got if o == "fail"]
passes = [s for s, o in got if o == "pass"]
assert fails == ["gpu2 <-> mlx5_4"], got
assert len(passes) == 7, got
f = [f for f in r["findings"] if f["outcome"] == "fail"][0]
ev = sorted(e["file"] for e in f["evidence"])
assert ev == ["/sys/bus/pci/devices/0000:4e:00.0/config", "/sys/bus/pci/devices/0000:4e:03.0/config"], ev
assert all("ReqRedir+ CmpltRedir+" in e["text"] for e in f["evidence"]), f["evidence"]
assert "pci=disable_acs_redir=0000:4e:03.0;0000:4e:00.0" in f["remediation"]["notes"]
for s in f["remediation"]["steps"]:
    print(" ".join(s["argv"][3:]), "|", " ".join(s["check_argv"][3:]), "|", s["check_regex"][0])
PY
echo "ok: check fails gpu2 <-> mlx5_4 only, evidence 0000:4e:00.0 and 0000:4e:03.0"
if command -v lspci >/dev/null 2>&1; then
  ROCEKIT_SYSROOT="$src/testdata/sysroots/dgx-h100-8gpu-8nic" sh "$src/scripts/rocekit-capture" -o "$tmp/cap" >"$tmp/cap.log" 2>&1 ||
    { cat "$tmp/cap.log"; fail "rocekit-capture failed"; }
  [ -s "$tmp/cap/lspci_vvv@tree.txt" ] || fail "no lspci_vvv@tree.txt in the capture"
  [ -s "$tmp/cap/sysfs_ib_links.txt" ] || fail "no sysfs_ib_links.txt in the capture"
  "$rk" check "$tmp/cap" --rule pcie.acs-redirect --format json >"$tmp/c.json"
  [ $? -eq 1 ] || fail "check on the capture: exit code is not 1"
  python3 - "$tmp/c.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
got = sorted((f["subject"], f["outcome"]) for f in r["findings"])
assert [s for s, o in got if o == "fail"] == ["gpu2 <-> mlx5_4"], got
assert len([s for s, o in got if o == "pass"]) == 7, got
f = [f for f in r["findings"] if f["outcome"] == "fail"][0]
assert all(e["file"] == "lspci_vvv@tree.txt" and e["line"] > 0 and e["text"].startswith("ACSCtl:") for e in f["evidence"]), f["evidence"]
assert len(f["evidence"]) == 2, f["evidence"]
PY
  echo "ok: from a capture (real lspci and ls on the fixture) the same pair fails, evidence lspci_vvv@tree.txt ACSCtl lines"
  # Only lspci and the RDMA links: a UTF-8 byte-order mark changes nothing.
  mkdir "$tmp/bom"
  printf '\357\273\277' >"$tmp/bom/lspci_vvv@tree.txt"
  cat "$tmp/cap/lspci_vvv@tree.txt" >>"$tmp/bom/lspci_vvv@tree.txt"
  cp "$tmp/cap/sysfs_ib_links.txt" "$tmp/bom/"
  "$rk" check "$tmp/bom" --rule pcie.acs-redirect -f json >"$tmp/bom.json"
  [ $? -eq 1 ] || fail "BOM capture: exit code is not 1"
  # ACSCtl lines that do not show the redirect bits (cut, garbled) or are missing: unknown
  # with the line, never "redirect off".
  for how in cut garbage drop; do
    mkdir "$tmp/$how"
    cp "$tmp/cap/sysfs_ib_links.txt" "$tmp/$how/"
    case $how in
      cut) sed 's/^\(\t*ACSCtl:\tSrcValid+ TransBlk- Req\).*/\1/' ;;
      garbage) sed 's/^\(\t*ACSCtl:\).*/\1\t<garbage>/' ;;
      drop) sed '/ACSCtl:/d' ;;
    esac <"$tmp/cap/lspci_vvv@tree.txt" >"$tmp/$how/lspci_vvv@tree.txt"
    "$rk" check "$tmp/$how" --rule pcie.acs-redirect -f json >"$tmp/$how.json"
    python3 - "$tmp/$how.json" "$how" <<'PY' || fail "ACSCtl $how: not unknown"
import json, sys
r = json.load(open(sys.argv[1]))
f = {x["subject"]: x for x in r["findings"]}
u = f["gpu2 <-> mlx5_4"]
assert u["outcome"] == "unknown", u
want = "has an Access Control Services capability but no ACSCtl line" if sys.argv[2] == "drop" else "the ACSCtl line does not show"
assert "lspci_vvv@tree.txt:" in u["message"] and want in u["message"], u["message"]
# cut: only the redirecting ports' lines are cut, the others still pass; else every line is gone.
passes = [x["subject"] for x in r["findings"] if x["outcome"] == "pass"]
assert len(passes) == (7 if sys.argv[2] == "cut" else 0), passes
PY
  done
  # The tree without the RDMA devices: the GPUs cannot be paired, unknown (not "not applicable").
  mkdir "$tmp/tree"
  cp "$tmp/cap/lspci_vvv@tree.txt" "$tmp/tree/"
  "$rk" check "$tmp/tree" --rule pcie.acs-redirect -f json >"$tmp/tree.json"
  python3 - "$tmp/tree.json" <<'PY' || fail "tree only: GPUs not unknown"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["findings"]) == 8 and all(f["outcome"] == "unknown" and "no NIC in the input" in f["message"] for f in r["findings"]), r["findings"]
PY
  echo "ok: BOM, cut/garbled/missing ACSCtl lines (unknown with file:line) and a tree without RDMA devices (unknown)"
else
  echo "SKIP: the capture half needs lspci (apt install pciutils)"
fi
# A snapshot whose ACS control register is missing is refused, not read as "redirect off".
"$rk" collect --root "$src/testdata/sysroots/dgx-h100-8gpu-8nic" -o "$tmp/s.json" 2>/dev/null
python3 - "$tmp/s.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for b in s["pci_bridges"]["value"]:
    if b["bdf"] == "0000:4e:00.0":
        del b["acs"]["value"]["control"]
json.dump(s, open(sys.argv[1], "w"))
PY
"$rk" check "$tmp/s.json" >"$tmp/s.out" 2>&1
[ $? -eq 2 ] && grep -q "control" "$tmp/s.out" || { cat "$tmp/s.out"; fail "a snapshot without acs.control was not refused"; }
echo "ok: a snapshot bridge without acs.control is refused (exit 2)"
command -v setpci >/dev/null 2>&1 || { echo "SKIP: setpci not installed (apt install pciutils)"; exit 0; }
bdf=$(lspci -D -n 2>/dev/null | awk 'NR == 1 { print $1 }')
[ -n "$bdf" ] || { echo "SKIP: no PCI function on this machine"; exit 0; }
parses() {  # setpci -D ARGS: ran, or stopped only at the missing ACS capability
  out=$(setpci -D -s "$bdf" "$@" 2>&1)
  rc=$?
  [ $rc -eq 0 ] || echo "$out" | grep -q "Extended capability 000d not found"
}
n=0
while IFS='|' read -r write read regex; do
  # shellcheck disable=SC2086 # one word each
  parses $write || fail "setpci refused the fix: $write"
  parses $read || fail "setpci refused the read-back: $read"
  n=$((n + 1))
  regex=$(echo "$regex" | tr -d ' ')
  echo 0011 | grep -Eq "$regex" || fail "read-back regex $regex rejects 0011 (redirect off)"
  echo 001d | grep -Eq "$regex" && fail "read-back regex $regex accepts 001d (redirect on)"
done <"$tmp/steps"
[ $n -eq 2 ] || fail "expected 2 setpci steps, got $n"
parses ECAP_ACSX+0x6.w=0000:000c && fail "a misspelt register passed the check"
echo "ok: $n setpci writes and read-backs parse in $(setpci --version) on $bdf"

#!/bin/sh
# rocekit select / catalog from the command line: exit codes 0/1/2, formats, error messages.
# Usage: select_cli_test.sh ROCEKIT REPO_ROOT
set -u
rk=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

expect() {  # expect NAME WANT_RC GREP_PATTERN -- command...
  name=$1 want=$2 pattern=$3
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL $name: exit $rc, want $want"; cat "$tmp/err"; fails=$((fails + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/out" "$tmp/err"; then
    echo "FAIL $name: no '$pattern' in output"; head -40 "$tmp/out" "$tmp/err"; fails=$((fails + 1)); return
  fi
  echo "ok   $name"
}

expect list-presets 0 'dgx-h100' -- "$rk" select --list-presets
expect preset-text 0 'compute   8 x ConnectX-7 (nic), 1 x 400G' -- "$rk" select --preset dgx-h100
expect preset-json 0 '"schema": "rocekit-select/1"' -- "$rk" select --preset hgx-b300 -f json
expect preset-markdown 0 '| compute | 4 | ConnectX-8 SuperNIC | supernic | 1 x 800G |' -- "$rk" select --preset gb300-tray -f markdown
expect unknown-preset 2 'rocekit: error: dgx-a100: unknown preset' -- "$rk" select --preset dgx-a100
expect no-input 2 'give exactly one of' -- "$rk" select
expect two-inputs 2 'give exactly one of' -- "$rk" select --preset dgx-h100 --input x.yaml

cat >"$tmp/gen4.yaml" <<'Y'
gpus: [{index: 0, numa: 0}]
slots: [{name: s0, gen: 4, lanes: 16, numa: 0}]
fabric: {type: roce, gpu_bandwidth_gbps: 400}
Y
expect gen4-400g-exit1 1 'select.gen4-slot-400g' -- "$rk" select --input "$tmp/gen4.yaml"
cat >"$tmp/gen7.yaml" <<'Y'
gpus: [{index: 0}]
slots:
  - {name: s0, gen: 7, lanes: 16}
Y
expect gen7 2 'gen7.yaml:3:21: slots\[0\].gen: PCIe Gen7 is outside the model' -- "$rk" select --input "$tmp/gen7.yaml"
printf 'preset: dgx-h100\nflavour: x\n' >"$tmp/key.yaml"
expect unknown-key 2 "key.yaml:2:1: description: unknown key 'flavour'" -- "$rk" select --input "$tmp/key.yaml"
expect missing-file 2 'cannot open description' -- "$rk" select --input "$tmp/nope.yaml"

expect host-downgraded 1 'host.pcie-downgraded' -- "$rk" select --host "$root/testdata/hosts/homelab-host02-cx4-100g-pcie-x8"
"$rk" check "$root/testdata/hosts/homelab-host02-cx4-100g-pcie-x8" --save-snapshot "$tmp/h02.json" >/dev/null 2>&1
expect host-from-snapshot 1 '"ratio": 0.26' -- "$rk" select --host "$tmp/h02.json" -f json
expect host-cross-socket 1 'host.gpu-nic-cross-socket' -- "$rk" select --host "$root/testdata/hosts/tf-gdr-k40-cx3-cross-socket" -f markdown
expect host-json 1 '"schema": "rocekit-select-host/1"' -- "$rk" select --host "$root/testdata/hosts/tf-gdr-k40-cx3-cross-socket" -f json
# A Grace topology alone (GB200: every verdict unknown, no NIC link): not judged, exit 3, never 0.
mkdir -p "$tmp/gb200"
cp "$root/testdata/corpus/nvidia_smi_topo/gb200-4gpu-8nic-all-sys-gpu-numa-id-topo-m.txt" "$tmp/gb200/nvidia_smi_topo.txt"
expect host-grace-not-judged 3 'rocekit: not judged: no NIC' -- "$rk" select --host "$tmp/gb200"

expect catalog-list 0 'connectx-7' -- "$rk" catalog list
expect catalog-list-json 0 '"key": "bluefield-3-dpu"' -- "$rk" catalog list -f json
expect catalog-show 0 'arm_cores            16' -- "$rk" catalog show bluefield-3-dpu
expect catalog-show-name 0 'ConnectX-7 (connectx-7)' -- "$rk" catalog show ConnectX-7
expect catalog-unknown 2 'rocekit: error: connectx-9: unknown model' -- "$rk" catalog show connectx-9
expect catalog-bad-file 2 'rocekit: error' -- "$rk" catalog --catalog "$tmp/gen4.yaml" list

printf 'preset: gb200-tray\ntenancy: multi-tenant\n' >"$tmp/mt.yaml"
expect catalog-overlay 0 'typical power 120 W' -- "$rk" select --input "$tmp/mt.yaml" --catalog "$root/testdata/select/site-catalog.json"

# The GPU data path of the DGX fixture (one PCIe switch per GPU/NIC pair): each GPU's hops to
# its NIC with links, the Gen5 x16 MPS 256 ceiling (catalog.md 3.2 model: 415.8 Gb/s), and the
# path rules' verdicts (gpu1's NIC mlx5_3 without ATS under the translating IOMMU: pcie.iommu-ats);
# ACS redirect (an error) behind gpu2's switch makes the exit code 1.
if "$rk" collect --root "$root/testdata/sysroots/dgx-h100-8gpu-8nic" -o "$tmp/dgx.json" 2>/dev/null; then
  expect dgx-data-path-text 1 'GPU 2 0000:52:00.0 -> mlx5_4 0000:4f:00.0 at PIX; ceiling 415.8 at 0000:4e:03.0 (Downstream Port)' -- \
    "$rk" select --host "$tmp/dgx.json"
  expect dgx-data-path-markdown 1 '| GPU | NIC | path | hops | ceiling Gb/s | verdicts |' -- "$rk" select --host "$tmp/dgx.json" -f markdown
  "$rk" select --host "$tmp/dgx.json" -f json >"$tmp/dgx-sel.json"
  if python3 - "$tmp/dgx-sel.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
paths = doc["data_paths"]
# One row per card: the storage NICs' second functions (29:00.1, aa:00.1) are their card's row.
cards = [n["bdf"] for n in doc["nics"]]
assert len(cards) == 10 and "0000:29:00.1" not in cards and "0000:aa:00.1" not in cards, cards
assert [p["nic"] for p in paths] == ["mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"], paths
bad = {p["gpu"]: sorted(v["rule"] for v in p["verdicts"] if v["outcome"] == "fail") for p in paths}
assert bad == {0: [], 1: ["pcie.iommu-ats"], 2: ["pcie.acs-redirect"], 3: [], 4: ["pcie.relaxed-ordering"], 5: ["pcie.path-link"],
               6: [], 7: ["pcie.path-link"]}, bad
g2 = paths[2]
assert [h["bdf"] for h in g2["hops"]] == ["0000:52:00.0", "0000:4e:03.0", "0000:4e:00.0", "0000:4f:00.0"], g2["hops"]
assert [h["role"] for h in g2["hops"]] == ["GPU", "Downstream Port", "Downstream Port", "NIC"], g2["hops"]
assert "ReqRedir+ CmpltRedir+" in g2["hops"][1]["acs"], g2["hops"][1]
assert abs(g2["ceiling_gbps"] - 415.8) < 0.05 and not g2["through_root_complex"], g2
PY
  then echo "ok   dgx-data-path-json"; else echo "FAIL dgx-data-path-json"; fails=$((fails + 1)); fi
else
  echo "FAIL dgx-collect"; fails=$((fails + 1))
fi

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }

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

expect catalog-list 0 'connectx-7' -- "$rk" catalog list
expect catalog-list-json 0 '"key": "bluefield-3-dpu"' -- "$rk" catalog list -f json
expect catalog-show 0 'arm_cores            16' -- "$rk" catalog show bluefield-3-dpu
expect catalog-show-name 0 'ConnectX-7 (connectx-7)' -- "$rk" catalog show ConnectX-7
expect catalog-unknown 2 'rocekit: error: connectx-9: unknown model' -- "$rk" catalog show connectx-9
expect catalog-bad-file 2 'rocekit: error' -- "$rk" catalog --catalog "$tmp/gen4.yaml" list

printf 'preset: gb200-tray\ntenancy: multi-tenant\n' >"$tmp/mt.yaml"
expect catalog-overlay 0 'typical power 120 W' -- "$rk" select --input "$tmp/mt.yaml" --catalog "$root/testdata/select/site-catalog.json"

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }

#!/bin/sh
# Writes the JSON report of `rocekit check` (and the JSON plan of `rocekit plan`) for every
# bundled host (testdata/hosts/*) and fixture tree (testdata/sysroots/*) into OUTDIR, one file
# each, with volatile fields (collected_at, tool version) removed, so that two trees can be
# compared with `diff -r`:
#   sh scripts/dev/report-diff.sh build/dev/rocekit /tmp/before     # on the old tree
#   sh scripts/dev/report-diff.sh build/dev/rocekit /tmp/after      # on the new tree
#   diff -r /tmp/before /tmp/after
set -eu
bin=${1:?usage: report-diff.sh ROCEKIT OUTDIR}
out=${2:?usage: report-diff.sh ROCEKIT OUTDIR}
cd "$(dirname "$0")/../.."
mkdir -p "$out"
norm() { python3 -c '
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in ("collected_at", "tool_version", "rocekit_version", "generated_at")}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
try:
    d = json.load(sys.stdin)
except Exception as e:
    print("not json:", e); sys.exit(0)
print(json.dumps(strip(d), indent=1, sort_keys=True))'; }
for d in testdata/hosts/*/; do
  n=$(basename "$d")
  { "$bin" check "$d" -f json 2>/dev/null || true; } | norm > "$out/check-host-$n.json"
  { "$bin" plan "$d" -f json 2>/dev/null || true; } | norm > "$out/plan-host-$n.json"
done
for d in testdata/sysroots/*/; do
  n=$(basename "$d")
  { "$bin" check --root "$d" -f json 2>/dev/null || true; } | norm > "$out/check-sysroot-$n.json"
  { "$bin" plan live --root "$d" -f json 2>/dev/null || true; } | norm > "$out/plan-sysroot-$n.json"
done
echo "wrote $(ls "$out" | wc -l) reports to $out"

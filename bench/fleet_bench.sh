#!/bin/sh
# `rocekit fleet` on a generated fleet vs the floor (read + JSON-parse the same files).
# Usage: bench/fleet_bench.sh [BUILD_DIR] [HOSTS] [NICS] [WORK_DIR]
#   (default build/ci, 10000 hosts, 8 NICs, a temporary directory; build first with
#    cmake --preset ci && cmake --build --preset ci --target rocekit rk_fleet_gen rk_fleet_floor)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/ci}
hosts=${2:-10000}
nics=${3:-8}
work=${4:-$(mktemp -d)}
for b in "$build/rocekit" "$build/bench/rk_fleet_gen" "$build/bench/rk_fleet_floor"; do
  [ -x "$b" ] || { echo "bench/fleet_bench.sh: $b not built" >&2; exit 2; }
done
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$work/fleet"
if [ ! -e "$work/fleet/node00000.json" ]; then
  "$build/bench/rk_fleet_gen" "$here/testdata/fleet/multihost/host-a" "$work/fleet" "$hosts" "$nics" >"$work/injected.txt"
fi
echo "fleet: $(ls "$work/fleet" | wc -l) files, $(du -sm "$work/fleet" | cut -f1) MiB; injected outliers:"
sed 's/^/  /' "$work/injected.txt"
# Warm the page cache once so both runs read from memory.
cat "$work/fleet"/*.json >/dev/null 2>&1 || find "$work/fleet" -name '*.json' -exec cat {} + >/dev/null
"$build/bench/rk_fleet_floor" "$work/fleet"
/usr/bin/time -v "$build/rocekit" fleet "$work/fleet" -f json -o "$work/report.json" 2>"$work/time.txt" || true
grep -E "Elapsed \(wall|Maximum resident" "$work/time.txt" | sed 's/^\s*/rocekit fleet: /'
grep -o '"fail": [0-9]*' "$work/report.json" | head -1 | sed 's/^/cross-host checks /'
echo "report: $work/report.json"

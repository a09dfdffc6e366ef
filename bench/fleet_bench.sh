#!/bin/sh
# `rocekit fleet` on a generated fleet against the floors, side by side in one run
# (docs/benchmarks.md "rocekit fleet"):
#   read     `cat` of every snapshot on THREADS parallel processes (the issue's floor), and
#            rk_fleet_floor's read, nlohmann-parse and simdjson-parse passes on THREADS threads;
#   fleet    `rocekit fleet -j THREADS -f json` (the simdjson reader), wall time and peak RSS;
#   before   the same with ROCEKIT_SNAPSHOT_READER=nlohmann (the reader before the simdjson one);
#            skipped with NO_BEFORE=1.
# Usage: bench/fleet_bench.sh [BUILD_DIR] [HOSTS] [NICS] [WORK_DIR] [BASE]
#   default build/ci, 10000 hosts, 8 NICs, a temporary directory, and as BASE the capture
#   testdata/fleet/multihost/host-a (8 synthetic ConnectX-7 ports, injected outliers); a
#   snapshot .json as BASE (`rocekit collect --root testdata/sysroots/dgx-h100-8gpu-8nic -o F`)
#   is copied HOSTS times with unique hostnames, serials and GUIDs. THREADS: nproc.
#   Build first: cmake --preset ci && cmake --build --preset ci --target rocekit rk_fleet_gen rk_fleet_floor
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/ci}
hosts=${2:-10000}
nics=${3:-8}
work=${4:-$(mktemp -d)}
base=${5:-$here/testdata/fleet/multihost/host-a}
threads=${THREADS:-$(nproc)}
for b in "$build/rocekit" "$build/bench/rk_fleet_gen" "$build/bench/rk_fleet_floor"; do
  [ -x "$b" ] || { echo "bench/fleet_bench.sh: $b not built" >&2; exit 2; }
done
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$work/fleet"
if [ ! -e "$work/fleet/node00000.json" ]; then
  "$build/bench/rk_fleet_gen" "$base" "$work/fleet" "$hosts" "$nics" >"$work/injected.txt"
fi
echo "fleet: $(find "$work/fleet" -name '*.json' | wc -l) files, $(du -sm "$work/fleet" | cut -f1) MiB, base $base; injected outliers:"
sed 's/^/  /' "$work/injected.txt" 2>/dev/null || echo "  (none: a copied snapshot)"
# Warm the page cache so every pass reads from memory.
find "$work/fleet" -name '*.json' -print0 | xargs -0 cat >/dev/null
t0=$(date +%s.%N)
find "$work/fleet" -name '*.json' -print0 | xargs -0 -P "$threads" -n 1000 cat >/dev/null
t1=$(date +%s.%N)
read_s=$(echo "$t1 - $t0" | bc)
echo "floor cat:           $read_s s ($threads processes)"
"$build/bench/rk_fleet_floor" "$work/fleet" "$threads"
run_fleet() {  # LABEL [ENV=VALUE]: wall seconds and peak RSS of one fleet run
  label=$1
  shift
  env "$@" /usr/bin/time -f "%e %M" -o "$work/time.txt" "$build/rocekit" fleet -j "$threads" "$work/fleet" \
    -f json -o "$work/report-$label.json" 2>/dev/null || true
  read -r wall rss <<EOF2
$(tail -1 "$work/time.txt")
EOF2
  echo "rocekit fleet ($label): $wall s, peak RSS $((rss / 1024)) MiB, $(echo "scale=2; $wall / $read_s" | bc)x the cat floor"
}
run_fleet simdjson
[ "${NO_BEFORE:-0}" = 1 ] || run_fleet nlohmann ROCEKIT_SNAPSHOT_READER=nlohmann
grep -o '"fail": [0-9]*' "$work/report-simdjson.json" | head -1 | sed 's/^/cross-host checks /'
echo "report: $work/report-simdjson.json"

#!/bin/sh
# Collection speed against the open+read floor (and the floor with directory listings and
# links), for every fixture tree and this host's "/".
# Usage: bench/run.sh [BUILD_DIR] [RUNS_PER_ROUND] [ROUNDS]   (default build/release, 50 x 20;
#   build first with cmake --preset release && cmake --build --preset release --target rk_collect_bench;
#   the ci preset builds the same optimisation level)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/release}
runs=${2:-50}
rounds=${3:-20}
bin=$build/bench/rk_collect_bench
[ -x "$bin" ] || { echo "bench/run.sh: $bin not built" >&2; exit 2; }
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
for tree in dgx-h100-8gpu-8nic v100-2gpu-4nic-2numa cx4lx-4port oci-h100-cx7-flash-recovery; do
  "$bin" "$here/testdata/sysroots/$tree" "$runs" "$rounds"
done
"$bin" / "$runs" "$rounds"

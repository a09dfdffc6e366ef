#!/bin/sh
# Collection speed against the open+read floor, for every fixture tree and this host's "/".
# Usage: bench/run.sh [BUILD_DIR] [RUNS]   (default build/release, 500 runs; build first with
#   cmake --preset release && cmake --build --preset release --target rk_collect_bench)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/release}
runs=${2:-500}
bin=$build/bench/rk_collect_bench
[ -x "$bin" ] || { echo "bench/run.sh: $bin not built" >&2; exit 2; }
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)"
for tree in v100-2gpu-4nic-2numa cx4lx-4port oci-h100-cx7-flash-recovery; do
  "$bin" "$here/testdata/sysroots/$tree" "$runs"
done
"$bin" / "$runs"

#!/bin/sh
# Runs every fuzz_<tool> binary in DIR for SECONDS each, seeded with the real captures, JOBS
# (default: the number of cores) at a time. The seeds are copied once to a scratch directory
# that each target reads after its own (empty, writable) corpus directory, so libFuzzer never
# writes into testdata/. Every target runs; the failures are printed at the end.
set -eu
dir=$1
secs=${2:-4}
jobs=${RK_FUZZ_JOBS:-$(nproc)}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/seeds/all" "$work/seeds/switch"
find "$root/testdata/corpus" "$root/testdata/hosts" -name '*.txt' -exec cp -t "$work/seeds/all" {} + 2>/dev/null || true
find "$root/testdata/switch" -type f -exec cp -t "$work/seeds/switch" {} + 2>/dev/null || true

for bin in "$dir"/fuzz_*; do
  if [ -x "$bin" ]; then echo "$bin"; fi
done >"$work/targets"
n=$(wc -l <"$work/targets")
[ "$n" -gt 0 ] || { echo "fuzz: no fuzz_* binaries in $dir"; exit 1; }

export work secs root
# One target: its log, and on failure a report (the log's tail and the reproducer) in NAME.fail.
# shellcheck disable=SC2016 # the script expands its own variables
xargs -P "$jobs" -n 1 sh -c '
  bin=$1
  name=$(basename "$bin")
  mkdir -p "$work/$name"
  extra=
  case $name in
    fuzz_switch_*) extra=$work/seeds/switch ;;
    fuzz_snapshot_json) extra=$root/fuzz/seeds/snapshot ;;
  esac
  echo "fuzz: $name (${secs}s)"
  "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=0 -artifact_prefix="$work/$name-" "$work/$name" "$work/seeds/all" $extra \
    >"$work/$name.log" 2>&1 && exit 0
  {
    tail -40 "$work/$name.log"
    for c in "$work/$name"-crash-* "$work/$name"-timeout-* "$work/$name"-oom-*; do
      [ -f "$c" ] && { echo "reproducer ($c), base64:"; base64 "$c" | head -20; }
    done
    echo "fuzz: $name FAILED"
  } >"$work/$name.fail"
  exit 1
' sh <"$work/targets" || true

failed=0
for f in "$work"/*.fail; do
  [ -f "$f" ] || continue
  cat "$f"
  failed=$((failed + 1))
done
[ "$failed" = 0 ] || { echo "fuzz: $failed of $n targets FAILED"; exit 1; }
echo "fuzz: $n targets ran clean"

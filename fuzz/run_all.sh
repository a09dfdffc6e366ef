#!/bin/sh
# Runs every fuzz_<tool> binary in DIR for SECONDS each, seeded with the real captures.
# The seeds are copied to a scratch directory so libFuzzer never writes into testdata/.
set -eu
dir=$1
secs=${2:-4}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
for bin in "$dir"/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  mkdir -p "$work/$name"
  find "$root/testdata/corpus" "$root/testdata/hosts" -name '*.txt' -exec cp {} "$work/$name/" \; 2>/dev/null || true
  case $name in fuzz_switch_*) find "$root/testdata/switch" -type f -exec cp {} "$work/$name/" \; 2>/dev/null || true ;; esac
  echo "fuzz: $name (${secs}s)"
  "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=0 -artifact_prefix="$work/$name-" "$work/$name" >"$work/$name.log" 2>&1 || {
    tail -40 "$work/$name.log"
    for c in "$work/$name"-crash-* "$work/$name"-timeout-* "$work/$name"-oom-*; do
      [ -f "$c" ] && { echo "reproducer ($c), base64:"; base64 "$c" | head -20; }
    done
    echo "fuzz: $name FAILED"
    exit 1
  }
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "fuzz: no fuzz_* binaries in $dir"; exit 1; }
echo "fuzz: $n targets ran clean"

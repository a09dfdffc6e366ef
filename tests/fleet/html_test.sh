#!/bin/sh
# `rocekit fleet -f html` on the bench generator's fleet (issue 21 item 4; default 10,000 hosts
# x 8 NICs, as bench/fleet_bench.sh): the page is opened by Debian's headless Chromium; the screenshot must show the
# matrix (its failing cells' red), and the DOM after the page's script ran must hold exactly the
# injected outlier hosts as the matrix's outlier rows and as the settings' outliers, and the
# detail panel of one of them (report.html#host=NAME).
# Usage: html_test.sh ROCEKIT RK_FLEET_GEN SOURCE_DIR [HOSTS]. Exit 77 (skipped) without chromium.
# ctest runs it on 300 hosts (3 injected outliers; the sanitizer build needs minutes for 10,000); docs/fleet.md
# gives the 10,000-host run.
set -eu
rocekit=$1
gen=$2
src=$3
hosts=${4:-10000}
if ! command -v chromium >/dev/null; then
  echo "SKIP: chromium not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
py=/usr/bin/python3  # Debian's, where python3-pil is
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gen" "$src/testdata/fleet/multihost/host-a" "$work/fleet" "$hosts" 8 >"$work/injected.txt"
echo "generated $hosts hosts; injected outliers:"
sed 's/^/  /' "$work/injected.txt"
rc=0
"$rocekit" fleet "$work/fleet" -f html -o "$work/report.html" --progress never || rc=$?
[ "$rc" = 1 ] || { echo "FAIL: rocekit fleet exit $rc, want 1 (outliers)"; exit 1; }
echo "report.html: $(wc -c <"$work/report.html") bytes"
# Chromium as root needs --no-sandbox; its profile goes to the scratch directory.
chrome() {
  HOME=$work timeout 180 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$work/profile" --window-size=1400,1000 "$@" 2>>"$work/chromium.log"
}
chrome --screenshot="$work/shot.png" "file://$work/report.html" >/dev/null
chrome --dump-dom "file://$work/report.html" >"$work/dom.html"
# The last injected host's panel: its name and its injected value (the last field).
first=$(tail -n 1 "$work/injected.txt" | cut -d' ' -f2)
value=$(tail -n 1 "$work/injected.txt" | awk '{print $NF}')
chrome --dump-dom "file://$work/report.html#host=$first" >"$work/dom-host.html"
"$py" "$src/tests/fleet/html_check.py" "$work/injected.txt" "$work/dom.html" "$work/dom-host.html" "$work/shot.png" "$first" "$value"
if [ -n "${RK_KEEP_SCREENSHOT:-}" ]; then cp "$work/shot.png" "$RK_KEEP_SCREENSHOT"; fi

#!/bin/sh
# Installs what rocekit needs, builds it, and checks a bundled real host capture.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target rocekit
bundle=${1:-testdata/hosts/roce-server-8dev-trust-pcp-pfc-off}
echo "+ build/release/rocekit check $bundle"
rc=0
build/release/rocekit check "$bundle" || rc=$?
echo "(exit code $rc: 0 = judged, no failure at or above --fail-on; 1 = failures found; 2 = usage/input error; 3 = not judged)"

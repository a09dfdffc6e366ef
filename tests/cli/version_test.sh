#!/bin/sh
# One version everywhere, from the build (cmake/Version.cmake), not a literal: rocekit --version,
# rocekit-exporter --version, rocekit exporter --version and a collected snapshot's tool_version
# agree; the version starts with project(VERSION) of CMakeLists.txt; in a git checkout it names
# a commit of this history (+<n>.g<sha>, .dirty when the tree had changes).
# Usage: version_test.sh ROCEKIT SOURCE_DIR
set -u
rk=$1
src=$2
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
export ASAN_OPTIONS=detect_leaks=0
v=$("$rk" --version)
[ "$("$(dirname "$rk")/rocekit-exporter" --version)" = "$v" ] || bad "rocekit-exporter --version differs from '$v'"
[ "$("$rk" exporter --version)" = "$v" ] || bad "rocekit exporter --version differs from '$v'"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$rk" collect --root "$src/testdata/sysroots/cx4lx-4port" -o "$tmp/s.json" || bad "collect failed"
python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["tool_version"] != sys.argv[2])' "$tmp/s.json" "$v" || bad "snapshot tool_version is not '$v'"
base=$(sed -n 's/^project(rocekit VERSION \([0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
case $v in "$base"|"$base+"*) ;; *) bad "version '$v' does not start with project(VERSION) $base" ;; esac
if [ -d "$src/.git" ] && command -v git >/dev/null 2>&1; then
  sha=$(printf '%s' "$v" | sed -n 's/.*\.g\([0-9a-f]\{7,\}\).*/\1/p')
  if [ -n "$sha" ]; then
    git -C "$src" merge-base --is-ancestor "$sha" HEAD 2>/dev/null || bad "version '$v' names $sha, not a commit of this history"
  elif ! git -C "$src" describe --tags --exact-match --match 'v[0-9]*' >/dev/null 2>&1; then
    bad "version '$v' names no commit although the source is a git checkout"
  fi
fi
[ "$fails" = 0 ] || exit 1
echo "version_test: $v"

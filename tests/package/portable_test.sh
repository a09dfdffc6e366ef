#!/bin/sh
# shellcheck disable=SC2015
# A portable tarball (scripts/build-portable.sh): its layout, fully static executables (no ELF
# interpreter, no NEEDED library, no versioned glibc symbol), debug info split off, and the
# bundled example checked inside an EMPTY root (chroot: no libc, no /proc, no /etc): same exit
# code and report text as a dynamic build. arm64 runs under qemu-user (qemu-aarch64-static,
# copied into the root). Run by hand before a release, not by scripts/test.sh.
# Usage: portable_test.sh amd64|arm64 TARBALL [SOURCE_DIR]
#   The reference build compared with: $RK_REFERENCE_ROCEKIT, else the first of
#   SOURCE_DIR/build/{dev,ci,release}/rocekit present (none: that comparison is skipped, said so).
#   Not root: the chroot steps run the executables in the host's root instead, and say so.
set -u
arch=${1:-}
tarball=${2:-}
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
case $arch in amd64 | arm64) ;; *) echo "usage: $0 amd64|arm64 TARBALL [SOURCE_DIR]" >&2; exit 2 ;; esac
[ -f "$tarball" ] || { echo "portable_test: no tarball $tarball" >&2; exit 2; }
bundle_src=$src/testdata/hosts/roce-server-8dev-trust-pcp-pfc-off
sysroot_src=$src/testdata/sysroots/cx4lx-4port
tmp=$(mktemp -d)
exporter_pid=""
cleanup() {
  [ -n "$exporter_pid" ] && kill "$exporter_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
note() { echo "note: $*"; }
expect_rc() { # expected_rc description command...
  want=$1; what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
  if [ "$got" = "$want" ]; then ok; else bad "$what: exit $got, want $want"; sed 's/^/  | /' "$tmp/err" | head -n 5; fi
}
has() { grep -qF -- "$1" "$tmp/out" && ok || bad "$2"; }

# 1. Layout: one directory rocekit-<version>-linux-<arch>/.
mkdir "$tmp/x"
tar -xzf "$tarball" -C "$tmp/x" || { echo "portable_test: cannot unpack $tarball" >&2; exit 1; }
top=$(ls "$tmp/x")
case $top in
  rocekit-*-linux-"$arch") ok ;;
  *) bad "tarball's top directory is '$top', want rocekit-<version>-linux-$arch"; exit 1 ;;
esac
version=${top#rocekit-}
version=${version%-linux-"$arch"}
pkg=$tmp/x/$top
for f in bin/rocekit bin/rocekit-exporter bin/rocekit-capture; do
  [ -f "$pkg/$f" ] && [ -x "$pkg/$f" ] && ok || bad "no executable $f"
done
[ -s "$pkg/README" ] && ok || bad "no README"
head -n 1 "$pkg/bin/rocekit-capture" | grep -q '^#!/bin/sh' && ok || bad "bin/rocekit-capture is not the sh script"
# The installed capture script is scripts/rocekit-capture with the build's version stamped in.
sed "s/^VERSION=.*/VERSION=$version/" "$src/scripts/rocekit-capture" | cmp -s - "$pkg/bin/rocekit-capture" && ok ||
  bad "bin/rocekit-capture is not scripts/rocekit-capture with VERSION=$version"
# Man pages (gzip, of this version) and bash completion, as the install rules install them.
man=$pkg/share/man/man1
for m in rocekit rocekit-check rocekit-plan rocekit-exporter rocekit-capture; do
  gzip -t "$man/$m.1.gz" 2>/dev/null && ok || bad "no man page share/man/man1/$m.1.gz"
done
gzip -dc "$man/rocekit-check.1.gz" 2>/dev/null | grep -q '^\.TH ' && ok || bad "rocekit-check.1.gz is not a man page"
gzip -dc "$man/rocekit.1.gz" 2>/dev/null | grep -qF "$version" && ok || bad "rocekit.1.gz does not name version $version"
for c in rocekit rocekit-exporter; do
  f=$pkg/share/bash-completion/completions/$c
  [ -s "$f" ] && bash -n "$f" && ok || bad "no valid bash completion for $c"
done
[ -f "$pkg/share/doc/rocekit/install.md" ] && ok || bad "no share/doc/rocekit/install.md"
# Nothing of the build machine: every file is under the top directory's bin/, share/, lib/, etc/.
others=$(cd "$pkg" && find . -mindepth 1 -maxdepth 1 ! -name bin ! -name share ! -name lib ! -name etc ! -name README)
[ -z "$others" ] && ok || bad "unexpected entries in the tarball: $others"

# 2. Fully static, for the right machine, stripped, with a debug link.
case $arch in amd64) machine="Advanced Micro Devices X86-64" ;; arm64) machine="AArch64" ;; esac
for exe in rocekit rocekit-exporter; do
  f=$pkg/bin/$exe
  readelf -hW "$f" | grep -q "Machine: *$machine\$" && ok || bad "$exe: not an $arch ELF ($machine)"
  readelf -lW "$f" | grep -q 'INTERP' && bad "$exe: has an ELF interpreter (dynamically linked)" || ok
  readelf -dW "$f" | grep -q '(NEEDED)' &&
    bad "$exe: needs shared libraries: $(readelf -dW "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')" || ok
  # No versioned symbol requirement at all (a dynamic build would list GLIBC_2.x here).
  readelf -VW "$f" | grep -q 'GLIBC_' && bad "$exe: requires glibc symbol versions" || ok
  readelf -SW "$f" | grep -q ' \.debug_info' && bad "$exe: not stripped" || ok
  readelf -SW "$f" | grep -q ' \.gnu_debuglink' && ok || bad "$exe: no .gnu_debuglink"
done
if command -v file >/dev/null; then
  file -b "$pkg/bin/rocekit" | grep -Eq 'static-pie linked|statically linked' && ok || bad "file(1): $(file -b "$pkg/bin/rocekit")"
fi

# 3. The debug tarball beside it: the .debug files of these very executables (same build id).
debug_tarball=${tarball%.tar.gz}-debug.tar.gz
if [ -f "$debug_tarball" ]; then
  mkdir "$tmp/d"
  tar -xzf "$debug_tarball" -C "$tmp/d" && ok || bad "cannot unpack $debug_tarball"
  for exe in rocekit rocekit-exporter; do
    d=$tmp/d/$top/bin/.debug/$exe.debug
    [ -f "$d" ] && readelf -SW "$d" | grep -q ' \.debug_info' && ok || bad "no debug info in bin/.debug/$exe.debug"
    id_exe=$(readelf -nW "$pkg/bin/$exe" | sed -n 's/.*Build ID: //p')
    id_dbg=$(readelf -nW "$d" 2>/dev/null | sed -n 's/.*Build ID: //p')
    [ -n "$id_exe" ] && [ "$id_exe" = "$id_dbg" ] && ok || bad "$exe: build id '$id_exe', its .debug has '$id_dbg'"
    readelf -p .gnu_debuglink "$pkg/bin/$exe" | grep -q "$exe.debug" && ok || bad "$exe: debuglink does not name $exe.debug"
  done
else
  bad "no debug tarball $debug_tarball"
fi

# How to run an executable of this architecture: natively, or under qemu-user.
host=$(uname -m)
qemu=""
if [ "$arch" = arm64 ] && [ "$host" != aarch64 ]; then
  qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
  [ -n "$qemu" ] || { bad "arm64 on $host needs qemu-aarch64-static (or qemu-aarch64)"; echo "portable_test: $passed passed, $failed failed"; exit 1; }
elif [ "$arch" = amd64 ] && [ "$host" != x86_64 ]; then
  note "amd64 tarball on $host: not run"
  echo "portable_test: $passed passed, $failed failed"
  [ "$failed" = 0 ]
  exit
fi

# 4. The empty root: the executables, the bundle, a fixture sysroot, mstflint's parameter DB and
# (arm64) the emulator, nothing else. `in_root CMD ARGS` runs /CMD there, from /.
root=$tmp/root
mkdir "$root"
cp "$pkg/bin/rocekit" "$pkg/bin/rocekit-exporter" "$root/"
cp -R "$bundle_src" "$root/bundle"
cp -R "$sysroot_src" "$root/sysroot"
# plan: tests/plan/plan_sandbox_test.sh's firmware case, same relative paths, so that its output is
# the committed golden; mstflint's parameter DB at its usual path (read with SQLite).
nvdb=/usr/share/mstflint/mlxconfig_dbs/mlxconfig_host.db
plan_case=homelab-host01-cx4lx-fw14.32
mkdir -p "$root/testdata/hosts" "$root/testdata/plans"
cp -R "$src/testdata/hosts/$plan_case" "$root/testdata/hosts/"
cp "$src/testdata/plans/policy-cnp-dscp-4.yaml" "$root/testdata/plans/"
if [ -f "$nvdb" ]; then
  mkdir -p "$root${nvdb%/*}"
  cp "$nvdb" "$root$nvdb"
fi
if [ -n "$qemu" ]; then
  case $qemu in
    *-static) cp "$qemu" "$root/qemu" ;;
    *) note "$qemu is not qemu-aarch64-static: it cannot run in an empty root" ;;
  esac
fi
for ext in gz xz zst; do
  case $ext in gz) z=-z ;; xz) z=-J ;; zst) z=--zstd ;; esac
  (cd "$root/bundle" && tar "$z" -cf "../bundle.tar.$ext" -- *) 2>/dev/null || note "cannot make a .tar.$ext here"
done
if [ "$(id -u)" = 0 ] && command -v chroot >/dev/null; then
  in_root() {
    prog=$1; shift
    if [ -n "$qemu" ] && [ -f "$root/qemu" ]; then chroot "$root" /qemu "/$prog" "$@"
    elif [ -n "$qemu" ]; then (cd "$root" && "$qemu" "./$prog" "$@")
    else chroot "$root" "/$prog" "$@"; fi
  }
  chrooted=1
  note "running in an empty root: $(cd "$root" && find . -maxdepth 1 ! -name . | sort | tr '\n' ' ')"
else
  note "not root: no chroot; the executables run in the host's root (from $root)"
  in_root() { prog=$1; shift; (cd "$root" && $qemu "./$prog" "$@"); }
  chrooted=0
fi
# Nothing to load: no shared object, no dynamic loader, no /lib, /etc or /proc (a dynamic
# executable fails right here, exit 127).
if [ "$chrooted" = 1 ]; then
  present=$(cd "$root" && find . -name '*.so*' -o -name 'ld-linux*' -o -path ./lib -o -path ./lib64 -o -path ./usr/lib -o -path ./etc -o -path ./proc)
  [ -z "$present" ] && ok || bad "the root is not empty: $present"
fi

expect_rc 0 "rocekit --version" in_root rocekit --version
[ "$(cat "$tmp/out")" = "$version" ] && ok || bad "rocekit --version: '$(cat "$tmp/out")', want '$version'"
expect_rc 0 "rocekit-exporter --version" in_root rocekit-exporter --version
[ "$(cat "$tmp/out")" = "$version" ] && ok || bad "rocekit-exporter --version: '$(cat "$tmp/out")', want '$version'"
if [ -z "$qemu" ]; then
  # `rocekit exporter` execs rocekit-exporter from its own directory (no /proc: from argv[0]).
  expect_rc 0 "rocekit exporter --version (exec)" in_root rocekit exporter --version
  [ "$(cat "$tmp/out")" = "$version" ] && ok || bad "rocekit exporter --version: '$(cat "$tmp/out")', want '$version'"
else
  note "rocekit exporter (exec of rocekit-exporter) not tested under qemu-user: an exec leaves the emulator"
fi

# 5. check on the bundled example: exit 1 (failures), the failing rules with evidence and fixes.
expect_rc 1 "check bundle" in_root rocekit check bundle --color never --detail
cp "$tmp/out" "$tmp/check.txt"
has "rocekit check: host (bundle)" "report header"
has "FAIL: 3 rules fail on 6 subjects (1 critical, 5 error)" "report summary"
has "FAIL     qos.trust-dscp" "report lacks the qos.trust-dscp failure"
has "FAIL     qos.pfc-roce-priority" "report lacks the qos.pfc-roce-priority failure"
grep -q "mlnx_qos@ens6.txt:[0-9]*: Priority trust state: pcp" "$tmp/out" && ok || bad "no file:line evidence"
has 'fix: $ mlnx_qos -i ens6 --trust dscp' "no mlnx_qos fix"
[ -s "$tmp/err" ] && bad "check wrote to stderr: $(head -n 3 "$tmp/err")" || ok
expect_rc 1 "check bundle -f json" in_root rocekit check bundle -f json
cp "$tmp/out" "$tmp/check.json"
# Every outcome the bundle's expected.json lists (as tests/capture/bundles_test.cpp checks).
python3 - "$tmp/out" "$bundle_src/expected.json" >"$tmp/py" 2>&1 <<'PY' && ok || bad "check -f json: $(cat "$tmp/py")"
import json, sys
report = json.load(open(sys.argv[1]))
got = {(f["rule"], f["subject"]): f["outcome"] for f in report["findings"]}
want = json.load(open(sys.argv[2]))["findings"]
wrong = [f"{w['rule']} on {w['subject']}: {got.get((w['rule'], w['subject']))}, want {w['outcome']}"
         for w in want if got.get((w["rule"], w["subject"])) != w["outcome"]]
assert want and not wrong, "; ".join(wrong[:5])
assert report["verdict"] == "FAIL" and report["summary"]["fail"] == 6, (report["verdict"], report["summary"])
PY
# Capture archives: libarchive.a with zlib, xz and zstd linked in.
for ext in gz xz zst; do
  [ -f "$root/bundle.tar.$ext" ] || continue
  expect_rc 1 "check bundle.tar.$ext" in_root rocekit check "bundle.tar.$ext" --color never --detail
  sed 1d "$tmp/out" >"$tmp/a"; sed 1d "$tmp/check.txt" >"$tmp/b"
  cmp -s "$tmp/a" "$tmp/b" && ok || { bad "check bundle.tar.$ext: report differs from the directory's"; diff "$tmp/b" "$tmp/a" | head -n 10; }
done
# plan: the firmware step validated against the DB; the script is the committed golden.
if [ -f "$root$nvdb" ]; then
  expect_rc 1 "plan (actions planned)" in_root rocekit plan "testdata/hosts/$plan_case" \
    -p testdata/plans/policy-cnp-dscp-4.yaml --mlxconfig-db "$nvdb" -f sh
  cp "$tmp/out" "$tmp/plan.sh"
  has "# firmware parameters: validated against $nvdb" "plan: firmware parameters not validated against the DB"
  has "CNP_DSCP_P1=4 CNP_DSCP_P2=4" "plan lacks the CNP_DSCP firmware step"
  gold=$src/testdata/plans/$plan_case-cnp-dscp-4.sh
  cmp -s "$gold" "$tmp/plan.sh" && ok || { bad "plan differs from $gold"; diff "$gold" "$tmp/plan.sh" | head -n 10; }
else
  note "no $nvdb (mstflint): plan with the parameter DB not tested"
fi

# 6. Same report as the dynamic build (same arguments, from the same directory).
ref=${RK_REFERENCE_ROCEKIT:-}
if [ -z "$ref" ]; then
  for b in dev ci release; do [ -x "$src/build/$b/rocekit" ] && { ref=$src/build/$b/rocekit; break; }; done
fi
if [ -n "$ref" ]; then
  (cd "$root" && ASAN_OPTIONS=detect_leaks=0 "$ref" check bundle --color never --detail >"$tmp/ref.txt" 2>/dev/null); rc=$?
  [ "$rc" = 1 ] && ok || bad "reference $ref: exit $rc, want 1"
  cmp -s "$tmp/ref.txt" "$tmp/check.txt" && ok || { bad "report differs from $ref's"; diff "$tmp/ref.txt" "$tmp/check.txt" | head -n 20; }
  # The JSON report names the tool's version: equal when the reference was built from the same
  # commit; compared without it (the version has its own check above).
  (cd "$root" && ASAN_OPTIONS=detect_leaks=0 "$ref" check bundle -f json >"$tmp/ref.json" 2>/dev/null)
  grep -v '"tool_version": ' "$tmp/ref.json" >"$tmp/ref-nov.json"
  grep -v '"tool_version": ' "$tmp/check.json" >"$tmp/check-nov.json"
  cmp -s "$tmp/ref-nov.json" "$tmp/check-nov.json" && ok || { bad "JSON report differs from $ref's"; diff "$tmp/ref-nov.json" "$tmp/check-nov.json" | head -n 10; }
  grep -q "\"tool_version\": \"$version\"" "$tmp/check.json" && ok || bad "JSON report's tool_version is not $version"
  ref_version=$(ASAN_OPTIONS=detect_leaks=0 "$ref" --version 2>/dev/null)
  [ "$ref_version" = "$version" ] || note "the reference is version $ref_version, the tarball $version"
  note "compared with $ref"
else
  note "no reference build (build/dev/rocekit; or set RK_REFERENCE_ROCEKIT): report not compared"
fi

# 7. The exporter serves the fixture tree: on a numeric address, and (chroot) on a name that
# /etc/hosts resolves (glibc's files and dns NSS modules are linked in); a name that only an NSS
# plug-in module resolves cannot be (the static executable cannot load the host's module).
# serve ADDR:PORT: exporter in the background, one scrape of /metrics into $tmp/out.
serve() {
  in_root rocekit-exporter --root sysroot --listen "$1" >"$tmp/exp.out" 2>"$tmp/exp.err" &
  exporter_pid=$!
  : >"$tmp/out"
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:${1##*:}/metrics" >"$tmp/out" 2>/dev/null && break
    kill -0 "$exporter_pid" 2>/dev/null || break
    sleep 0.2
  done
  kill "$exporter_pid" 2>/dev/null
  wait "$exporter_pid" 2>/dev/null
  exporter_pid=""
  has "rocekit_build_info{version=\"$version\"} 1" "exporter on $1: no build_info ($(head -n 2 "$tmp/exp.err"))"
  has 'rocekit_port_info{device="mlx5_0",port="1",netdev="eth01"' "exporter on $1: no mlx5_0 port_info"
  [ "$(grep -c '^rocekit_port_info{' "$tmp/out")" = 4 ] && ok || bad "exporter on $1: not 4 ports"
  grep -q '^rocekit_rule_status{rule="link.port-active",subject="mlx5_0/1"' "$tmp/out" && ok || bad "exporter on $1: no rule status"
}
if command -v curl >/dev/null; then
  port=$((20000 + $$ % 20000))
  serve "127.0.0.1:$port"
  if [ "$chrooted" = 1 ]; then
    mkdir "$root/etc"
    echo "127.0.0.1 localhost" >"$root/etc/hosts"
    echo "hosts: files" >"$root/etc/nsswitch.conf"
    serve "localhost:$((port + 1))"
    echo "hosts: myhostname" >"$root/etc/nsswitch.conf"
    expect_rc 2 "exporter --listen localhost, hosts: myhostname" in_root rocekit-exporter --root sysroot --listen "localhost:$((port + 2))"
    grep -q "cannot listen" "$tmp/err" && ok || bad "exporter --listen localhost (myhostname): $(head -n 2 "$tmp/err")"
    rm -r "${root:?}/etc"
  fi
else
  note "no curl: the exporter's HTTP endpoint not tested"
fi

echo "portable_test $arch: $passed passed, $failed failed"
[ "$failed" = 0 ]

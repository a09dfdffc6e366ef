#!/bin/sh
# shellcheck disable=SC2015
# `rocekit collect` end to end: fixture sysroot -> snapshot -> check gives the bundle's findings;
# live collection on this machine as root and as an unprivileged user (skipped, with the reason,
# when not permitted). Usage: collect_cli_test.sh ROCEKIT_BINARY SOURCE_DIR
set -u
rk=$1
src=$2
roots=$src/testdata/sysroots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
expect_rc() { # expected_rc description command...
  want=$1; what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
  if [ "$got" = "$want" ]; then ok; else bad "$what: exit $got, want $want"; sed 's/^/  | /' "$tmp/err" | head -5; fi
}

# 1. collect --root <fixture> -o s.json, then check s.json: the cx4lx bundle's findings.
expect_rc 0 "collect fixture" "$rk" collect --root "$roots/cx4lx-4port" -o "$tmp/s.json"
# Compact JSON by default (one line), indented with --pretty; the same snapshot either way.
[ "$(wc -l <"$tmp/s.json")" = 1 ] && grep -q '"kind":"live"' "$tmp/s.json" && ok || bad "collect -o is not compact, or its kind is not live"
expect_rc 0 "collect fixture --pretty" "$rk" collect --root "$roots/cx4lx-4port" -o "$tmp/sp.json" --pretty
grep -q '^    "kind": "live"' "$tmp/sp.json" && ok || bad "collect --pretty is not indented"
python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); [x.pop("collected_at",None) for x in (a,b)]; sys.exit(a!=b)' "$tmp/s.json" "$tmp/sp.json" && ok || bad "compact and --pretty snapshots differ"
expect_rc 1 "check collected snapshot" "$rk" check "$tmp/s.json" -f json -o "$tmp/r.json"
python3 - "$tmp/r.json" "$src/testdata/hosts/cx4lx-4port-fw-mismatch/expected.json" <<'PY' && ok || bad "findings differ from the bundle"
import json, sys
got = {(f["rule"], f["subject"]): f["outcome"] for f in json.load(open(sys.argv[1]))["findings"]}
for row in json.load(open(sys.argv[2]))["findings"]:
    key = (row["rule"], row["subject"])
    assert got.get(key) == row["outcome"], (key, got.get(key), row["outcome"])
PY
# The 8-GPU/8-NIC DGX H100 tree: collect, then check the snapshot; the findings written down in
# testdata/sysroots/dgx-h100-8gpu-8nic.expected.json (the tree has no capture directory).
expect_rc 0 "collect dgx fixture" "$rk" collect --root "$roots/dgx-h100-8gpu-8nic" -o "$tmp/dgx.json"
expect_rc 1 "check dgx snapshot" "$rk" check "$tmp/dgx.json" -f json -o "$tmp/dgx-r.json"
python3 - "$tmp/dgx-r.json" "$roots/dgx-h100-8gpu-8nic.expected.json" <<'PY' && ok || bad "dgx findings differ from the expected file"
import json, sys
got = {(f["rule"], f["subject"]): f["outcome"] for f in json.load(open(sys.argv[1]))["findings"]}
want = {(r["rule"], r["subject"]): r["outcome"] for r in json.load(open(sys.argv[2]))["findings"]}
assert got == want, sorted(set(got.items()) ^ set(want.items()))
PY
# No process is spawned without --nv-config: the only execve strace sees is rocekit's own.
if command -v strace >/dev/null 2>&1 && strace -f -qq -e trace=execve -o "$tmp/st" true 2>/dev/null; then
  strace -f -qq -e trace=execve -o "$tmp/st" "$rk" collect --root "$roots/dgx-h100-8gpu-8nic" -o "$tmp/dgx2.json" 2>/dev/null
  [ "$(grep -c 'execve(' "$tmp/st")" = 1 ] && ok || { bad "collect spawned a process"; cat "$tmp/st"; }
else
  echo "SKIP: strace not installed or ptrace not permitted: no process-spawn check"
fi
# The same in one step, and the text report cites the sysfs file.
expect_rc 1 "check --root fixture" "$rk" check --root "$roots/cx4lx-4port" --color never --detail
grep -q "/sys/class/infiniband/mlx5_1/ports/1/state" "$tmp/out" && ok || bad "no sysfs evidence in report"
# A PCIe downgrade read from config space.
expect_rc 1 "check --root pcie fixture" "$rk" check --root "$roots/cx4-100g-pcie-x8" --color never
grep -q "FAIL .*pcie.link-at-capability" "$tmp/out" && ok || bad "no PCIe downgrade finding"
# Errors: a root that does not exist is exit 2 with the path.
expect_rc 2 "missing root" "$rk" collect --root "$tmp/none"
grep -q "rocekit: error: .*none" "$tmp/err" && ok || bad "missing root error lacks the path"
# A capture directory given as --root: refused, pointing at `rocekit check DIR` (was an empty snapshot).
expect_rc 2 "capture directory as root" "$rk" collect --root "$src/testdata/hosts/netarbiter-eth4-qos-healthy"
grep -q "no sys/ under this root.*rocekit check DIR" "$tmp/err" && ok || bad "capture dir as root: $(cat "$tmp/err")"

# 2. This machine, live.
expect_rc 0 "live collect" "$rk" collect -o "$tmp/live.json"
if [ ! -d /sys/class/infiniband ]; then
  grep -q "no RDMA devices found" "$tmp/err" && ok || bad "live collect does not say no RDMA devices"
  grep -q "no RDMA devices found" "$tmp/live.json" && ok || bad "snapshot notes lack no RDMA devices"
fi
"$rk" check --color never >"$tmp/out" 2>"$tmp/err"; rc=$?
# A host without RDMA is "not judged" (3), never healthy (0).
if [ ! -d /sys/class/infiniband ]; then
  [ "$rc" = 3 ] && grep -q "not judged: no RDMA device" "$tmp/err" && ok || bad "live check without RDMA: exit $rc, want 3"
else
  [ "$rc" = 0 ] || [ "$rc" = 1 ] || [ "$rc" = 3 ] && ok || bad "live check exit $rc"
fi

# 3. Unprivileged (nobody): still runs and says what it could not read.
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
  echo "SKIP: unprivileged live check needs root and setpriv to drop privileges"
else
  cp "$rk" "$tmp/rocekit" && chmod 755 "$tmp" "$tmp/rocekit"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/rocekit" check --color never \
    >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 1 ] || [ "$rc" = 3 ] && ok || { bad "unprivileged live check exit $rc"; head -5 "$tmp/err"; }
  # The VPD file is root-only on a real host (mode 0600): an unprivileged run names it.
  cp -a "$roots/cx4-100g-pcie-x8" "$tmp/vpdroot" && chmod -R a+rX "$tmp/vpdroot"
  chmod 600 "$tmp/vpdroot/sys/devices/pci0000:00/0000:00:01.0/0000:81:00.0/vpd"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/rocekit" collect --root "$tmp/vpdroot" \
    >"$tmp/nobody-vpd.json" 2>"$tmp/err"
  grep -q "not readable without root.*/sys/bus/pci/devices/0000:81:00.0/vpd" "$tmp/err" && ok ||
    { bad "unprivileged run does not name the root-only vpd file"; head -5 "$tmp/err"; }
  setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/rocekit" collect >"$tmp/nobody.json" 2>"$tmp/err"
  if ls /sys/bus/pci/devices/*/config >/dev/null 2>&1; then
    grep -q "not readable without root" "$tmp/err" && ok || bad "unprivileged run does not say what needs root"
  fi
fi

echo "collect cli: $passed passed, $failed failed"
[ "$failed" = 0 ]

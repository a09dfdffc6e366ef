#!/bin/sh
# shellcheck disable=SC2015
# deploy/ansible/rocekit-fleet.yml: --syntax-check, then a run against three inventory hosts
# that are all this machine (ansible_connection=local), each collecting a fixture sysroot with
# `rocekit collect --root`; asserts the fetched snapshots and the fleet report. Then the playbook
# of `rocekit plan -f ansible` made from two hosts' captures, run against both hosts.
# Usage: ansible_test.sh ROCEKIT_BINARY SOURCE_DIR. Prints SKIP (exit 0) without ansible-playbook.
set -u
rk=$1
src=$2
if ! command -v ansible-playbook >/dev/null 2>&1; then
  echo "SKIP: ansible-playbook not installed (scripts/install-deps.sh installs ansible-core)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
export ANSIBLE_LOCAL_TEMP="$tmp/.a/tmp" ANSIBLE_REMOTE_TEMP="$tmp/.a/remote" ANSIBLE_HOME="$tmp/.a" \
  ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_HOST_KEY_CHECKING=0 \
  ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0
pb=$src/deploy/ansible/rocekit-fleet.yml
roots=$src/testdata/sysroots
cat >"$tmp/inventory.ini" <<INV
[rdma]
node-a rocekit_collect_args='["--root", "$roots/cx4lx-4port"]'
node-b rocekit_collect_args='["--root", "$roots/cx4lx-4port"]'
node-c rocekit_collect_args='["--root", "$roots/cx7-rocep-2domain"]'

[rdma:vars]
ansible_connection=local
ansible_python_interpreter=$(command -v python3)
INV

ansible-playbook --syntax-check -i "$tmp/inventory.ini" "$pb" >"$tmp/syntax.out" 2>&1 && ok ||
  bad "syntax-check: $(tail -5 "$tmp/syntax.out")"

ansible-playbook -i "$tmp/inventory.ini" "$pb" -e "rocekit_bin=$rk" -e "rocekit_fleet_dir=$tmp/out" \
  >"$tmp/run.out" 2>&1 && ok || bad "playbook run: $(tail -15 "$tmp/run.out")"
# changed=1: the fetch (the scratch file on the host is created and removed).
grep -Eq 'node-a +: ok=4 +changed=1 .*failed=0' "$tmp/run.out" && ok || bad "node-a recap: $(grep node-a "$tmp/run.out" | tail -1)"
grep -Eq 'localhost +: ok=3 +changed=0 .*failed=0' "$tmp/run.out" && ok || bad "localhost recap: $(grep localhost "$tmp/run.out" | tail -1)"
for n in node-a node-b node-c; do
  [ -s "$tmp/out/snapshots/$n.json" ] && ok || bad "snapshot of $n not fetched"
done
[ -s "$tmp/out/fleet.json" ] && ok || bad "no fleet.json"
grep -q '"hosts": 3,' "$tmp/out/fleet.json" && ok || bad "fleet.json host count: $(grep -m1 '"hosts"' "$tmp/out/fleet.json")"
grep -q '"hosts_loaded": 3,' "$tmp/out/fleet.json" && ok || bad "fleet.json hosts_loaded"
grep -q '^rocekit fleet: 3 hosts (3 loaded, 0 input problems)' "$tmp/out/fleet.txt" && ok || bad "fleet.txt summary: $(head -1 "$tmp/out/fleet.txt")"
# The two fixture trees differ in firmware model and NIC count: the report names node-c's NICs.
grep -q '"host": "node-c' "$tmp/out/fleet.json" && ok || bad "node-c not in the report"

# rocekit plan -f ansible with two hosts' captures: one play per host. Two inventory hosts, both
# this machine (local connection), each with its own fixture root (rk_sysroot: hostname and
# netdevs) and its own recording stand-in state (rk_environment). Each must apply only its own
# plan, and node-b's MTU, raised to 9000 since its capture, must not be lowered to 4200.
"$rk" snapshot "$src/testdata/hosts/aerial-21-4-a100-cx6dx" -o "$tmp/aerial.json" >/dev/null
python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
for host, names in (("node-a", ("ens6f0", "ens6f1")), ("node-b", ("enp1s0f0", "enp1s0f1"))):
    s = json.load(open(f"{tmp}/aerial.json"))
    s["hostname"] = host
    for n, new in zip(s["netdevs"], names):
        n["name"] = new
    json.dump(s, open(f"{tmp}/{host}.json", "w"))
    os.makedirs(f"{tmp}/{host}/root/proc/sys/kernel")
    open(f"{tmp}/{host}/root/proc/sys/kernel/hostname", "w").write(host + "\n")
    for n in names:
        os.makedirs(f"{tmp}/{host}/root/sys/class/net/{n}")
    os.makedirs(f"{tmp}/{host}/state")
PY
printf '%s' 9000 >"$tmp/node-b/state/enp1s0f0.mtu"
mkdir -p "$tmp/bin"
cp "$src/tests/plan/standin" "$tmp/bin/ip"
rc=0
"$rk" plan "$tmp/node-a.json" "$tmp/node-b.json" -f ansible -o "$tmp/plan.yml" || rc=$?
[ "$rc" = 1 ] && ok || bad "plan -f ansible of two hosts: exit $rc, want 1"
env_of() { printf '{"RK_STATE": "%s/%s/state", "RK_LOG": "%s/%s/log", "PATH": "%s/bin:/usr/bin:/bin"}' "$tmp" "$1" "$tmp" "$1" "$tmp"; }
cat >"$tmp/plan-inventory.ini" <<INV
[gpu]
node-a rk_sysroot=$tmp/node-a/root rk_environment='$(env_of node-a)'
node-b rk_sysroot=$tmp/node-b/root rk_environment='$(env_of node-b)'

[gpu:vars]
ansible_connection=local
ansible_become=false
ansible_python_interpreter=$(command -v python3)
INV
ansible-playbook -i "$tmp/plan-inventory.ini" "$tmp/plan.yml" >"$tmp/plan-run.out" 2>&1 && ok ||
  bad "plan playbook run: $(tail -15 "$tmp/plan-run.out")"
[ "$(cat "$tmp/node-a/state/ens6f0.mtu" 2>/dev/null)" = 4200 ] && ok || bad "node-a ens6f0 MTU not 4200"
[ "$(cat "$tmp/node-a/state/ens6f1.mtu" 2>/dev/null)" = 4200 ] && ok || bad "node-a ens6f1 MTU not 4200"
[ "$(cat "$tmp/node-b/state/enp1s0f0.mtu")" = 9000 ] && ok || bad "node-b enp1s0f0: 9000 MTU lowered to $(cat "$tmp/node-b/state/enp1s0f0.mtu")"
[ "$(cat "$tmp/node-b/state/enp1s0f1.mtu" 2>/dev/null)" = 4200 ] && ok || bad "node-b enp1s0f1 MTU not 4200"
# Each host ran only its own plan's commands; node-b never ran `ip link set` on enp1s0f0.
! grep -q enp1s0 "$tmp/node-a/log" && ok || bad "node-a ran node-b's plan: $(cat "$tmp/node-a/log")"
! grep -q ens6f "$tmp/node-b/log" && ok || bad "node-b ran node-a's plan: $(cat "$tmp/node-b/log")"
! grep -q 'ip link set dev enp1s0f0' "$tmp/node-b/log" && ok || bad "node-b set the MTU of enp1s0f0"
# A host whose name is in no plan fails instead of passing silently.
printf 'node-c\n' >"$tmp/node-b/root/proc/sys/kernel/hostname"
rc=0
ansible-playbook -i "$tmp/plan-inventory.ini" "$tmp/plan.yml" --limit node-b >"$tmp/plan-run2.out" 2>&1 || rc=$?
[ "$rc" != 0 ] && grep -q 'no rocekit plan in this playbook is for this host' "$tmp/plan-run2.out" && ok ||
  bad "a host without a plan did not fail: rc $rc: $(tail -8 "$tmp/plan-run2.out")"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

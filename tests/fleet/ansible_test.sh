#!/bin/sh
# shellcheck disable=SC2015
# deploy/ansible/rocekit-fleet.yml: --syntax-check, then a run against three inventory hosts
# that are all this machine (ansible_connection=local), each collecting a fixture sysroot with
# `rocekit collect --root`; asserts the fetched snapshots and the fleet report.
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

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

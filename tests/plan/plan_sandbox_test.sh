#!/usr/bin/env bash
# rocekit plan end to end: goldens (sh, json) for four corpus bundles, shellcheck on the
# generated scripts, a dry run that runs nothing, an --execute run against recording stand-ins
# (PATH) and a fixture sysfs (RK_SYSROOT) that must run exactly the planned commands in order,
# and a re-plan from the stand-ins' read-back output that must be empty.
# Usage: plan_sandbox_test.sh ROCEKIT SOURCE_DIR. RK_UPDATE_GOLDEN=1 rewrites testdata/plans/.
set -euo pipefail
rk=$1 src=$2
gold=$src/testdata/plans
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }

# Stand-ins: one recording script under every tool name the plans use.
mkdir -p "$tmp/bin"
for t in mlnx_qos dcb setpci mstconfig mlxconfig mstflint ethtool ip; do
  cp "$src/tests/plan/standin" "$tmp/bin/$t"
done
sandbox_path="$tmp/bin:/usr/bin:/bin"

compare() {  # compare GOLDEN ACTUAL
  if [[ ${RK_UPDATE_GOLDEN:-} == 1 ]]; then cp "$2" "$1"; return; fi
  diff -u "$1" "$2" >&2 || bad "$2 differs from $1"
}

# host_identity PLAN_JSON SYSROOT: make SYSROOT look like the plan's host (hostname, netdevs,
# PCI functions, node GUIDs), so that the script's identity guard lets --execute run.
host_identity() {
  python3 - "$1" "$2" <<'PY'
import json, os, sys
plan, root = json.load(open(sys.argv[1])), sys.argv[2]
os.makedirs(f"{root}/proc/sys/kernel", exist_ok=True)
open(f"{root}/proc/sys/kernel/hostname", "w").write(plan["hostname"] + "\n")
for n in plan["identity"]["netdevs"]:
    os.makedirs(f"{root}/sys/class/net/{n}", exist_ok=True)
for b in plan["identity"]["pci_functions"]:
    os.makedirs(f"{root}/sys/bus/pci/devices/{b}", exist_ok=True)
for dev, guid in plan["identity"]["node_guids"].items():
    os.makedirs(f"{root}/sys/class/infiniband/{dev}", exist_ok=True)
    open(f"{root}/sys/class/infiniband/{dev}/node_guid", "w").write(guid + "\n")
PY
}

# run_case NAME INPUT [PLAN ARGS...]: plan, goldens, shellcheck, dry run, execute.
run_case() {
  local name=$1 input=$2 d=$tmp/$1 rc=0
  shift 2
  mkdir -p "$d/state" "$d/sys"
  "$rk" plan "$input" "$@" -f sh -o "$d/plan.sh" || rc=$?
  [[ $rc -eq 1 ]] || bad "$name: plan exit $rc, want 1 (actions planned)"
  "$rk" plan "$input" "$@" -f json -o "$d/plan.json" || true
  compare "$gold/$name.sh" "$d/plan.sh"
  compare "$gold/$name.json" "$d/plan.json"
  "$rk" plan "$input" "$@" -f ansible -o "$d/plan.yml" || true
  compare "$gold/$name.yml" "$d/plan.yml"
  if command -v ansible-playbook >/dev/null; then
    (cd "$d" && ANSIBLE_LOCAL_TEMP=$d/.ansible ANSIBLE_HOME=$d/.ansible \
      ansible-playbook --syntax-check -i localhost, plan.yml >"$d/ansible.out" 2>&1) ||
      bad "$name: ansible-playbook --syntax-check: $(cat "$d/ansible.out")"
  else
    printf 'SKIP: %s: ansible-playbook not installed (scripts/install-deps.sh installs ansible-core)\n' "$name"
  fi
  shellcheck -s bash "$d/plan.sh" || bad "$name: shellcheck"
  host_identity "$d/plan.json" "$d/sys"
  : >"$d/dry.log"
  (cd "$d" && PATH=$sandbox_path RK_LOG=$d/dry.log RK_STATE=$d/state RK_SYSROOT=$d/sys \
    bash "$d/plan.sh" >"$d/dry.out") || bad "$name: dry run failed"
  [[ ! -s $d/dry.log ]] || bad "$name: dry run ran commands: $(cat "$d/dry.log")"
  grep -q '^DRY RUN' "$d/dry.out" || bad "$name: dry run does not say so"
  # The dry run prints each command as the script runs it (shell_quote's words: 0,0,0,1 and not
  # printf %q's 0\,0\,0\,1), so that a user can copy it.
  diff <(sed -n 's/^run //p' "$d/plan.sh") <(sed -n 's/^    \$ //p' "$d/dry.out") >"$d/shown.diff" ||
    bad "$name: dry run prints other commands than the script runs: $(cat "$d/shown.diff")"
  # (check_file's read-backs are the files under RK_SYSROOT.)
  diff <(sed -n 's/^check .* -- //p' "$d/plan.sh") <(sed -n 's/^    check: //p' "$d/dry.out" | grep -v "^'\\?$d/sys/") >"$d/shown.diff" ||
    bad "$name: dry run prints other read-backs than the script runs: $(cat "$d/shown.diff")"
  ! grep -q '\\,' "$d/dry.out" || bad "$name: dry run escapes commas: $(grep '\\,' "$d/dry.out")"
  : >"$d/exec.log"
  (cd "$d" && PATH=$sandbox_path RK_LOG=$d/exec.log RK_STATE=$d/state RK_SYSROOT=$d/sys \
    bash "$d/plan.sh" --execute >"$d/exec.out" 2>"$d/exec.err") ||
    bad "$name: --execute failed: $(cat "$d/exec.err")"
  compare "$gold/$name.log" "$d/exec.log"
}

run_case roce-server-8dev-trust-pcp-pfc-off "$src/testdata/hosts/roce-server-8dev-trust-pcp-pfc-off"
run_case homelab-host01-cx4lx-dell-fw14.14 "$src/testdata/hosts/homelab-host01-cx4lx-dell-fw14.14"
run_case homelab-host01-cx4lx-fw14.32 "$src/testdata/hosts/homelab-host01-cx4lx-fw14.32"
run_case aerial-21-4-a100-cx6dx "$src/testdata/hosts/aerial-21-4-a100-cx6dx"

# Firmware NV steps validated against mstflint's parameter DB: the fw14.32 bundle (CNP_DSCP_P1/P2
# 48) under a policy with NCO's CNP DSCP 4; the stand-in mstconfig keeps the values it is given.
db=/usr/share/mstflint/mlxconfig_dbs/mlxconfig_host.db
if [[ -f $db ]]; then
  # From the source tree with a relative -p: the policy name in the golden is that path.
  pushd "$src" >/dev/null
  run_case homelab-host01-cx4lx-fw14.32-cnp-dscp-4 testdata/hosts/homelab-host01-cx4lx-fw14.32 \
    -p testdata/plans/policy-cnp-dscp-4.yaml --mlxconfig-db "$db"
  popd >/dev/null
  f=$tmp/homelab-host01-cx4lx-fw14.32-cnp-dscp-4
  [[ $(cat "$f/state/0000:01:00.0.nv.CNP_DSCP_P1") == 4 && $(cat "$f/state/0000:01:00.0.nv.CNP_DSCP_P2") == 4 ]] ||
    bad "firmware: CNP_DSCP_P1/P2 not set to 4"
  grep -q "^# firmware parameters: validated against $db" "$f/plan.sh" || bad "firmware: validation not stated"
else
  printf 'SKIP: firmware golden: %s not installed (apt install mstflint)\n' "$db"
fi
# Firmware burn (fw.driver-compat): a real ConnectX-7 (mlxfwmanager: PSID MT_0000000834, FW
# 28.44.1036) on MLNX_OFED_LINUX-24.10-3.2.5.0, whose user's table gives 28.43.3608. The image
# lies under the sandbox root (the stand-in mstflint reads ${RK_SYSROOT}IMAGE): its query must
# show the board's PSID and the target version before the burn runs.
fwcap=$tmp/cx7-capture
mkdir -p "$fwcap"
cp "$src/testdata/corpus/ofed_info/cn-note-cx7-mlnx-ofed-24.10-3.2.5.0-prompt.txt" "$fwcap/ofed_info.txt"
cp "$src/testdata/corpus/flint/cn-note-cx7-mlxfwmanager-28.44-mst-name.txt" "$fwcap/mlxfwmanager@0000:3b:00.0.txt"
fwimg=/srv/firmware/fw-ConnectX7-rel-28_43_3608-MCX755106AS-HEA_Ax.bin
fwname=cx7-mlnx-ofed-24.10-3.2.5.0-firmware-burn
mkdir -p "$tmp/$fwname/sys/srv/firmware"
printf 'psid=MT_0000000834\nversion=28.43.3608\n' >"$tmp/$fwname/sys$fwimg"
run_case "$fwname" "$fwcap" --compat "$src/testdata/compat/user-table-mlnx-ofed-24.10-3.2.5.0.json" \
  --firmware-image "MT_0000000834=$fwimg"
[[ $(cat "$tmp/$fwname/state/0000:3b:00.0.fw.version") == 28.43.3608 ]] || bad "firmware burn: 28.43.3608 not burned"
# An image for another board: the check stops the script before the burn.
printf 'psid=MT_0000000838\nversion=28.43.3608\n' >"$tmp/$fwname/sys$fwimg"
rm -f "$tmp/$fwname/state/0000:3b:00.0.fw.version"
: >"$tmp/wrong.log"
(cd "$tmp/$fwname" && PATH=$sandbox_path RK_LOG=$tmp/wrong.log RK_STATE=$tmp/$fwname/state RK_SYSROOT=$tmp/$fwname/sys \
  bash plan.sh --execute >"$tmp/wrong.out" 2>&1) && bad "firmware burn: an image of another PSID was burned"
grep -q 'read-back does not match \^PSID:\[\[:space:\]\]+MT_0000000834' "$tmp/wrong.out" && ! grep -q '==> step 2/2' "$tmp/wrong.out" ||
  bad "firmware burn: wrong PSID did not stop at step 1: $(cat "$tmp/wrong.out")"
! grep -q ' burn$' "$tmp/wrong.log" || bad "firmware burn: burn ran after a failed image check"
# The real mstflint (Debian's package) on an image path that is not there: it exits 1 with its
# own error, so the script stops at step 1 and nothing is burned.
if command -v mstflint >/dev/null; then
  mkdir -p "$tmp/realbin"
  ln -sf "$(command -v mstflint)" "$tmp/realbin/mstflint"
  (cd "$tmp/$fwname" && PATH=$tmp/realbin:$sandbox_path RK_LOG=/dev/null RK_STATE=$tmp/$fwname/state \
    RK_SYSROOT=$tmp/$fwname/sys bash plan.sh --execute >"$tmp/real.out" 2>&1) && bad "firmware burn: real mstflint passed a missing image"
  grep -q "^-E- Cannot open Image: $fwimg" "$tmp/real.out" || bad "firmware burn: real mstflint error not seen: $(cat "$tmp/real.out")"
  grep -q '==> step 1/2' "$tmp/real.out" && ! grep -q '==> step 2/2' "$tmp/real.out" ||
    bad "firmware burn: real mstflint error did not stop step 1: $(cat "$tmp/real.out")"
else
  printf 'SKIP: real mstflint: not installed (apt install mstflint)\n'
fi
# Without --firmware-image: the step names a placeholder, the script prints it and refuses --execute.
"$rk" plan "$fwcap" --compat "$src/testdata/compat/user-table-mlnx-ofed-24.10-3.2.5.0.json" -o "$tmp/noimg.sh" || true
grep -q "mstflint -i '<no-firmware-image-for-PSID-MT_0000000834>' query" "$tmp/noimg.sh" || bad "no image: no placeholder step"
: >"$tmp/noimg.log"
(PATH=$sandbox_path RK_LOG=$tmp/noimg.log RK_STATE=$tmp/$fwname/state RK_SYSROOT=$tmp/$fwname/sys \
  bash "$tmp/noimg.sh" --execute >"$tmp/noimg.out" 2>&1) && bad "no image: the script ran"
grep -q 'has no image; make the plan again with --firmware-image PSID=FILE' "$tmp/noimg.out" || bad "no image: refusal not said"
[[ ! -s $tmp/noimg.log ]] || bad "no image: commands ran: $(cat "$tmp/noimg.log")"

rc=0
"$rk" plan "$src/testdata/hosts/homelab-host01-cx4lx-fw14.32" -p "$src/testdata/plans/policy-cnp-dscp-4.yaml" \
  --mlxconfig-db "$tmp/none.db" -f sh -o "$tmp/nodb.sh" || rc=$?
[[ $rc -eq 1 ]] || bad "no DB: plan exit $rc, want 1"
grep -q "^# firmware parameters: not validated: $tmp/none.db not found" "$tmp/nodb.sh" ||
  bad "no DB: the plan does not say 'not validated'"

# Upstream iproute2 dcb backend: the roce-server snapshot with its QoS attributed to dcbnl (no
# mlnx_qos seen); the stand-in dcb returns what was set, so every read-back is real.
"$rk" snapshot "$src/testdata/hosts/roce-server-8dev-trust-pcp-pfc-off" -o "$tmp/dcb.json"
python3 - "$tmp/dcb.json" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
s["tool_runs"] = [t for t in s["tool_runs"] if t["tool"] != "mlnx_qos"]
for n in s["netdevs"]:
    q = n["qos"]
    if q.get("value") is not None:
        q["source"] = {"file": "dcbnl IEEE_GET", "line": 0, "text": ""}
        for k in ("trust_source", "dscp_source", "pfc_source"):
            q["value"][k] = {"file": "dcbnl IEEE_GET", "line": 0, "text": ""}
json.dump(s, open(p, "w"), indent=1)
PY
run_case upstream-dcb-trust-pcp-pfc-off "$tmp/dcb.json"
grep -q '^dcb -N pfc show dev ens6 prio-pfc$' "$tmp/upstream-dcb-trust-pcp-pfc-off/exec.log" ||
  bad "dcb: PFC not read back numerically"
! grep -q apptrust "$tmp/upstream-dcb-trust-pcp-pfc-off/exec.log" "$gold"/*.sh "$gold"/*.json "$gold"/*.yml ||
  bad "a plan uses dcb apptrust (mlx5 has no dcbnl_setapptrust; iproute2 < 6.2 has no such object)"
# Every dcb show read-back in every golden plan is numeric (-N or -j), and there are some.
python3 - "$gold" <<'PY' || bad "a dcb show read-back without -N or -j, or none at all"
import glob, json, sys
shows = bad = 0
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    for a in json.load(open(f))["actions"]:
        v = a.get("check_argv") or []
        if v[:1] == ["dcb"] and "show" in v:
            shows += 1
            if v[1] not in ("-N", "-j"):
                print("not numeric:", f, v)
                bad = 1
sys.exit(bad or shows == 0)
PY

# The setpci write (mask 7000) kept every DevCtl bit outside 14:12: 0x2937 -> 0x5937.
[[ $(cat "$tmp/homelab-host01-cx4lx-dell-fw14.14/state/0000:01:00.0.devctl") == 5937 ]] ||
  bad "setpci mask: DevCtl is $(cat "$tmp/homelab-host01-cx4lx-dell-fw14.14/state/0000:01:00.0.devctl")"

# Idempotent: re-capture through the stand-ins and plan again -> nothing to do (exit 0).
replan() {  # replan NAME CAPTURE_DIR
  local rc=0
  "$rk" plan "$2" -f sh -o "$tmp/$1.replan.sh" 2>"$tmp/$1.replan.err" || rc=$?
  # No action left: 0, or 3 when the capture leaves items not planned (netdevs it does not show).
  [[ $rc -eq 0 || ( $rc -eq 3 && -n $(grep -E "items? not planned" "$tmp/$1.replan.err") ) ]] || bad "$1: re-plan exit $rc, want 0 or 3"
  grep -q 'nothing to do' "$tmp/$1.replan.sh" || bad "$1: re-plan not empty"
}
c=$tmp/roce-server.after
mkdir -p "$c"
cp "$src/testdata/hosts/roce-server-8dev-trust-pcp-pfc-off/ibdev2netdev.txt" "$c/"
PATH=$sandbox_path RK_LOG=/dev/null RK_STATE=$tmp/roce-server-8dev-trust-pcp-pfc-off/state \
  mlnx_qos -i ens6 >"$c/mlnx_qos@ens6.txt"
replan roce-server "$c"
# The boot-time script from the host as it is now (after the plan ran) still re-applies every
# runtime setting: trust, both DSCP maps, PFC. Run at "boot" it changes nothing and reads back.
rc=0
"$rk" plan "$c" -f systemd -o "$tmp/boot" >/dev/null 2>"$tmp/boot.err" || rc=$?
[[ $rc -eq 0 || ( $rc -eq 3 && -n $(grep -E "items? not planned" "$tmp/boot.err") ) ]] || bad "boot plan after apply: exit $rc, want 0 or 3 (nothing differs)"
compare "$gold/roce-server-8dev-trust-pcp-pfc-off.boot.sh" "$tmp/boot/rocekit-roce-runtime.sh"
grep -qx 'total_steps=4' "$tmp/boot/rocekit-roce-runtime.sh" || bad "boot script does not re-apply all 4 settings"
: >"$tmp/boot.log"
# The boot script names every netdev it re-applies (the host is already in place, so the plan
# of the re-capture is empty): the identity of the first plan of this host is the same host.
host_identity "$tmp/roce-server-8dev-trust-pcp-pfc-off/plan.json" "$tmp/boot-root"
PATH=$sandbox_path RK_LOG=$tmp/boot.log RK_STATE=$tmp/roce-server-8dev-trust-pcp-pfc-off/state \
  RK_SYSROOT=$tmp/boot-root bash "$tmp/boot/rocekit-roce-runtime.sh" --execute >"$tmp/boot.out" 2>&1 || bad "boot script: $(cat "$tmp/boot.out")"
[[ $(grep -c -- '--' "$tmp/boot.log") -eq 4 ]] || bad "boot script: not 4 set commands: $(cat "$tmp/boot.log")"
c=$tmp/fw14.32.after
cp -r "$src/testdata/hosts/homelab-host01-cx4lx-fw14.32" "$c"
PATH=$sandbox_path RK_LOG=/dev/null RK_STATE=$tmp/homelab-host01-cx4lx-fw14.32/state \
  ethtool -c enp1s0f0np0 >"$c/ethtool_c@enp1s0f0np0.txt"
replan fw14.32 "$c"

# Hostile netdev name and a sysfs ECN write under the fixture tree: the snapshot of the
# roce-server bundle with ens6 renamed to e$(>x) and DCQCN RP off on priority 3.
"$rk" snapshot "$src/testdata/hosts/roce-server-8dev-trust-pcp-pfc-off" -o "$tmp/snap.json"
python3 - "$tmp/snap.json" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
for n in s["netdevs"]:
    if n["name"] == "ens6":
        n["name"] = "e$(>x)"
        n["ecn"] = {"value": {"rp_enabled": [[3, False]], "np_enabled": [[3, True]]}}
json.dump(s, open(p, "w"), indent=1)
PY
ecn_dir="$tmp/hostile-name-ecn/sys/sys/class/net/e\$(>x)/ecn/roce_rp/enable"
mkdir -p "$ecn_dir"
echo 0 >"$ecn_dir/3"
run_case hostile-name-ecn "$tmp/snap.json"
[[ ! -e $tmp/hostile-name-ecn/x ]] || bad "hostile name: \$(>x) was executed"
[[ $(cat "$ecn_dir/3") == 1 ]] ||
  bad "hostile name: ECN sysfs value not written under RK_SYSROOT"

# The Ansible playbook, run twice on localhost against the stand-ins: the first run changes
# trust and PFC (dscp2prio already matches once trust is dscp: skipped), the second nothing.
if command -v ansible-playbook >/dev/null; then
  a=$tmp/ansible
  mkdir -p "$a/state"
  host_identity "$tmp/roce-server-8dev-trust-pcp-pfc-off/plan.json" "$a/root"
  for i in 1 2; do
    (cd "$a" && PATH=$sandbox_path RK_LOG=$a/log$i RK_STATE=$a/state ANSIBLE_HOME=$a/.a \
      ANSIBLE_LOCAL_TEMP=$a/.a/tmp ANSIBLE_NOCOLOR=1 ansible-playbook -i localhost, -c local \
      -e ansible_become=false -e rk_sysroot="$a/root" \
      "$gold/roce-server-8dev-trust-pcp-pfc-off.yml" >"$a/out$i" 2>&1) ||
      bad "ansible run $i: $(tail -5 "$a/out$i")"
  done
  # The identity checks and the per-host play add read-only tasks: count changes and failures.
  grep -Eq 'localhost +: ok=[0-9]+ +changed=2 .*failed=0 ' "$a/out1" || bad "ansible run 1: $(tail -2 "$a/out1")"
  grep -Eq 'localhost +: ok=[0-9]+ +changed=0 .*failed=0 ' "$a/out2" || bad "ansible run 2: $(tail -2 "$a/out2")"
  grep -q -- '--trust dscp' "$a/log1" || bad "ansible run 1 did not set trust"
  ! grep -q -- '--' "$a/log2" || bad "ansible run 2 changed something: $(cat "$a/log2")"
fi

# rocekit apply on the aerial bundle with the stand-ins as tools and a fixture root: dry run
# changes nothing, --yes applies and saves state, a held lock refuses, --rollback restores.
ap=$tmp/apply
mkdir -p "$ap/state" "$ap/root"
printf '%s' 1536 >"$ap/state/ens6f0.mtu"
printf '%s' 1514 >"$ap/state/ens6f1.mtu"
aerial=$src/testdata/hosts/aerial-21-4-a100-cx6dx
apply() {
  RK_LOG=$ap/log RK_STATE=$ap/state "$rk" apply "$aerial" --tool-dir "$tmp/bin" --root "$ap/root" \
    --lock "$ap/lock" --state "$ap/state.json" "$@"
}
# Another host (no identity under the root yet): refused, exit 2, nothing run or written.
rc=0
apply --yes --allow-disruption >"$ap/other.out" 2>&1 || rc=$?
[[ $rc -eq 2 && ! -e $ap/log && ! -e $ap/state.json ]] || bad "apply on another host: rc $rc or wrote: $(cat "$ap/other.out")"
grep -q 'not this host: ' "$ap/other.out" || bad "apply on another host: no reason: $(cat "$ap/other.out")"
"$rk" plan "$aerial" -f json -o "$ap/plan.json" || true
host_identity "$ap/plan.json" "$ap/root"
# The MTU steps restart the ports' queues: --yes alone refuses and names the ports.
rc=0
apply --yes >"$ap/nodisrupt.out" 2>&1 || rc=$?
[[ $rc -eq 2 && ! -e $ap/log && ! -e $ap/state.json ]] || bad "apply --yes without --allow-disruption: rc $rc or wrote"
grep -q 'refusing to disrupt traffic without --allow-disruption: ens6f0 (mtu: channel_restart); ens6f1 (mtu: channel_restart)' \
  "$ap/nodisrupt.out" || bad "apply --yes: refusal does not name the ports: $(cat "$ap/nodisrupt.out")"
rc=0
apply --dry-run >"$ap/dry.out" || rc=$?
[[ $rc -eq 0 && ! -e $ap/log && ! -e $ap/state.json ]] || bad "apply --dry-run: rc $rc or wrote"
rc=0
RK_LOG=$ap/log RK_STATE=$ap/state flock "$ap/lock" "$rk" apply "$aerial" --tool-dir "$tmp/bin" \
  --root "$ap/root" --lock "$ap/lock" --state "$ap/state.json" --yes --allow-disruption >"$ap/locked.out" 2>&1 || rc=$?
if [[ $rc -ne 2 ]] || ! grep -q 'another rocekit apply holds' "$ap/locked.out"; then
  bad "apply under a held lock: rc $rc: $(cat "$ap/locked.out")"
fi
rc=0
apply --yes --allow-disruption >"$ap/apply.out" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || bad "apply --yes: rc $rc: $(cat "$ap/apply.out")"
[[ $(cat "$ap/state/ens6f0.mtu") == 4200 && $(cat "$ap/state/ens6f1.mtu") == 4200 ]] || bad "apply: MTU not set"
grep -q '"1536"' "$ap/state.json" || bad "apply: previous MTU not saved"
rc=0
RK_LOG=$ap/log RK_STATE=$ap/state "$rk" apply --rollback "$ap/state.json" --tool-dir "$tmp/bin" \
  --lock "$ap/lock" >"$ap/rollback.out" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || bad "rollback: rc $rc: $(cat "$ap/rollback.out")"
[[ $(cat "$ap/state/ens6f0.mtu") == 1536 && $(cat "$ap/state/ens6f1.mtu") == 1514 ]] ||
  bad "rollback: MTU not restored"
[[ $(grep -c '^  read-back ok$' "$ap/rollback.out") -eq 2 ]] || bad "rollback: restored MTUs not read back: $(cat "$ap/rollback.out")"
grep -q '^ip -o link show dev ens6f1$' "$ap/log" || bad "rollback: no read-back command ran"

# Persistence: --format systemd writes the runtime script, a oneshot unit and a udev rule.
rc=0
"$rk" plan "$src/testdata/hosts/roce-server-8dev-trust-pcp-pfc-off" -f systemd -o "$tmp/sd" \
  >"$tmp/sd.out" || rc=$?
[[ $rc -eq 1 ]] || bad "systemd: exit $rc, want 1"
grep -q '^dry run: nothing installed' "$tmp/sd.out" || bad "systemd: no dry-run listing"
grep -qx 'Type=oneshot' "$tmp/sd/rocekit-roce.service" || bad "systemd: not oneshot"
grep -qx 'After=network-pre.target' "$tmp/sd/rocekit-roce.service" || bad "systemd: After="
grep -q 'DRIVERS=="mlx5_core"' "$tmp/sd/90-rocekit-roce.rules" || bad "udev rule"
shellcheck -s bash "$tmp/sd/rocekit-roce-runtime.sh" || bad "systemd: runtime script shellcheck"
# Before the plan ran, the boot script holds the same 4 steps as the sh plan (no firmware here).
[[ $(grep -c '^step ' "$tmp/sd/rocekit-roce-runtime.sh") -eq 4 ]] || bad "systemd: not 4 boot steps"
"$rk" plan "$src/testdata/hosts/roce-server-8dev-trust-pcp-pfc-off" -f systemd >/dev/null 2>&1 &&
  bad "systemd without -o accepted"

exit "$fail"

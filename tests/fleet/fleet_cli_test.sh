#!/bin/sh
# shellcheck disable=SC2015
# `rocekit fleet` end to end: exit codes 0/1/2, text/JSON/Markdown, atomic -o, progress on
# stderr only, unloadable inputs, actions per outlier host. Usage: fleet_cli_test.sh
# ROCEKIT_BINARY SOURCE_DIR [RK_FLEET_GEN]
set -u
rk=$1
src=$2
gen=${3:-}
mh=$src/testdata/fleet/multihost
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

# 1. The Multi-Host fixture: host-c's PF has PFC off -> exit 1, outlier named in the text.
expect_rc 1 "multi-host fixture" "$rk" fleet "$mh"
grep -q "FAIL     fleet.multi-host-qos-identical" "$tmp/out" && ok || bad "no multi-host failure line"
grep -q "host-c eth4: none" "$tmp/out" && ok || bad "outlier host-c eth4 not named"
grep -q "^rocekit fleet: 4 hosts (4 loaded, 0 input problems), 4 NICs, 1 Multi-Host NICs" "$tmp/out" && ok || bad "summary line"
[ ! -s "$tmp/err" ] && ok || bad "stderr not empty without a TTY (progress must be off)"

# --rule keeps the selected rules; -q leaves passing cross-host checks out; a typo is an error.
expect_rc 1 "--rule fleet.pfc-consistent" "$rk" fleet "$mh" --rule fleet.pfc-consistent
grep -q "FAIL     fleet.pfc-consistent" "$tmp/out" && ok || bad "--rule dropped the selected rule"
grep -q "fleet.multi-host-qos-identical\|fleet.ecn-consistent" "$tmp/out" && bad "--rule kept other rules" || ok
expect_rc 3 "--rule of a rule nothing judged" "$rk" fleet "$mh" --rule fleet.ecn-consistent
grep -q "^rocekit: not judged: " "$tmp/err" && ok || bad "not-judged reason missing: $(cat "$tmp/err")"
expect_rc 2 "--rule typo" "$rk" fleet "$mh" --rule fleet.pfc-consistant
grep -q "did you mean 'fleet.pfc-consistent'" "$tmp/err" && ok || bad "no suggestion: $(cat "$tmp/err")"
expect_rc 1 "-q" "$rk" fleet "$mh" -q
grep -q "^  pass " "$tmp/out" && bad "-q kept passing checks" || ok
grep -q "FAIL     fleet.pfc-consistent" "$tmp/out" && ok || bad "-q dropped a failure"

# 2. Two hosts that agree (snapshots of host-a and host-b) exit 0.
"$rk" snapshot "$mh/host-a" -o "$tmp/a.json" && "$rk" snapshot "$mh/host-b" -o "$tmp/b.json" && ok || bad "snapshot"
expect_rc 0 "two agreeing hosts" "$rk" fleet "$tmp/a.json" "$tmp/b.json"
grep -q "pass     fleet.pfc-consistent" "$tmp/out" && ok || bad "pfc-consistent pass line"

# A capture tarball and a capture directory mix with snapshots; the tarball host is named by its file.
tar -C "$mh" -czf "$tmp/host-c.tar.gz" host-c && ok || bad "tar"
expect_rc 1 "tarball + directory + snapshot" "$rk" fleet "$tmp/host-c.tar.gz" "$mh/host-d" "$tmp/a.json"
grep -q "^rocekit fleet: 3 hosts (3 loaded, 0 input problems), 3 NICs" "$tmp/out" && ok || bad "mixed inputs: $(head -1 "$tmp/out")"
grep -q "host-c eth4: none" "$tmp/out" && ok || bad "tarball host not named host-c"

# 3. JSON to a file (atomically), Markdown.
expect_rc 1 "json output" "$rk" fleet "$mh" -f json -o "$tmp/fleet.json"
grep -q '"fleet_report_version": 1' "$tmp/fleet.json" && ok || bad "json report"
grep -q '"hosts_loaded": 4' "$tmp/fleet.json" && ok || bad "json hosts_loaded"
ls "$tmp" | grep -q '\.tmp\.' && bad "temporary file left behind" || ok
expect_rc 1 "markdown" "$rk" fleet "$mh" -f markdown
grep -q "^| host-c | \`eth4\` | \`none\` |" "$tmp/out" && ok || bad "markdown outlier row"

# 4. Progress bar only when asked (or on a TTY), on stderr; stdout stays the report.
expect_rc 1 "progress always" "$rk" fleet "$mh" --progress always -j 2
[ "$(grep -c "4/4 hosts" "$tmp/err")" = 1 ] && ok || bad "progress on stderr: want one final 4/4 line: $(cat "$tmp/err")"
grep -q "hosts" "$tmp/out" && ! grep -q "#####" "$tmp/out" && ok || bad "progress leaked into stdout"

# 5. An unloadable input is reported (file + reason); the rest still runs; exit 1.
printf '{"hello": 1}' >"$tmp/bad.json"
expect_rc 1 "one bad input" "$rk" fleet "$tmp/a.json" "$tmp/bad.json"
grep -q "bad.json: not a rocekit snapshot (no schema_version)" "$tmp/out" && ok || bad "bad input not reported"

printf '{\n  "schema_version": 2,\n  oops\n}\n' >"$tmp/syntax.json"
expect_rc 1 "invalid JSON input" "$rk" fleet "$tmp/a.json" "$tmp/syntax.json"
grep -q "syntax.json: not valid JSON at line 3, column 3" "$tmp/out" && ok || bad "JSON error without line: $(grep syntax "$tmp/out")"

# 5b. A host `rocekit check` does not call healthy (no RDMA device: NOT JUDGED, exit 3) keeps
# fleet from exit 0 too, alone or beside judged hosts; the reason names the host.
mkdir -p "$tmp/nonic"
cp "$src/testdata/hosts/h100-nccl-gdrdma-in-use/"*.txt "$tmp/nonic/"
expect_rc 3 "check: one host without a NIC" "$rk" check "$tmp/nonic"
expect_rc 3 "fleet: one host without a NIC" "$rk" fleet "$tmp/nonic"
grep -qx "rocekit: not judged: nonic: no RDMA device and no RoCE netdev in the input: no RoCE port was judged" "$tmp/err" \
  && ok || bad "fleet exit 3 without the host's reason: $(cat "$tmp/err")"
expect_rc 3 "fleet: a judged host and one without a NIC" "$rk" fleet "$tmp/a.json" "$tmp/nonic"
expect_rc 0 "fleet: the judged host alone" "$rk" fleet "$tmp/a.json"

# 6. Usage / no usable input: exit 2 with the reason on stderr.
expect_rc 2 "no input" "$rk" fleet
expect_rc 2 "missing path" "$rk" fleet "$tmp/nope"
grep -q "nope: no such file or directory" "$tmp/err" && ok || bad "missing path not named"
expect_rc 2 "only bad inputs" "$rk" fleet "$tmp/bad.json"
grep -q "no host input could be loaded" "$tmp/err" && ok || bad "no-usable-input message"
mkdir "$tmp/empty"
expect_rc 2 "empty directory" "$rk" fleet "$tmp/empty"
expect_rc 2 "bad format" "$rk" fleet "$mh" -f yaml

# 7. --list-rules is the Fleet rules section of docs/rules.md.
expect_rc 0 "list rules" "$rk" fleet --list-rules
grep -q '`fleet.multi-host-qos-identical`' "$tmp/out" && ok || bad "list-rules"

# 8. Switch alignment (--switch, with --port-map or --lldp): every host against the switch.
sonic=$src/testdata/switch/sonic/qos-mellanox4600c-c64-remap-disabled.json
printf 'host,netdev,switch,port\n*,eth4,,Ethernet0\n' >"$tmp/map.csv"
expect_rc 1 "fleet --switch sonic default" "$rk" fleet "$mh" --switch "$sonic" --port-map "$tmp/map.csv"
[ "$(grep -c "FAIL     switch.roce-lossless               Ethernet0 <-> eth4 \[critical\] switch maps DSCP 26 to TC 1" "$tmp/out")" = 4 ] && ok || bad "DSCP 26 mismatch not reported for all 4 hosts"
grep -q "^  switch.roce-lossless         critical  4 / 0 / 0" "$tmp/out" && ok || bad "switch rule tally"
expect_rc 1 "fleet --switch cumulus roce defaults" "$rk" fleet "$mh" --switch "$src/testdata/switch/cumulus/nv-show-qos-roce.txt"
grep -q "^  switch.roce-lossless         critical  1 / 0 / 3" "$tmp/out" && ok || bad "aligned switch: only host-c (PFC off) should fail"
expect_rc 2 "multi-port switch without a map" "$rk" fleet "$mh" --switch "$sonic"
expect_rc 2 "--port-map without --switch" "$rk" fleet "$mh" --port-map "$tmp/map.csv"
mkdir "$tmp/lldp"
expect_rc 1 "fleet --lldp without captures" "$rk" fleet "$mh" --switch "$sonic" --lldp "$tmp/lldp" -f json -o "$tmp/lldp.json"
python3 - "$tmp/lldp.json" <<'PY' && ok || bad "missing LLDP captures not reported as unknown for every host"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rules"] if r["rule"] == "switch.roce-lossless"]
assert rows and rows[0]["hosts_unknown"] == 4 and rows[0]["hosts_fail"] == 0, rows
# The tally's severity is the rule's (critical), not a default, when no host fails it.
assert rows[0]["severity"] == "critical", rows
PY
# The fixture hosts have no hostname: their captures are looked up by input name (host-a.txt).
mkdir "$tmp/lldp2"
for h in host-a host-b; do
  printf 'lldp.eth4.via=LLDP\nlldp.eth4.chassis.name=leaf1\nlldp.eth4.port.ifname=Ethernet0\n' >"$tmp/lldp2/$h.txt"
done
expect_rc 1 "fleet --lldp by input name" "$rk" fleet "$mh" --switch "$sonic" --lldp "$tmp/lldp2" -f json -o "$tmp/lldp2.json"
python3 - "$tmp/lldp2.json" "$tmp/lldp2" <<'PY' && ok || bad "LLDP captures not looked up by input name"
import json, sys
j = json.load(open(sys.argv[1]))
rows = [r for r in j["rules"] if r["rule"] == "switch.roce-lossless"]
assert rows and rows[0]["hosts_fail"] == 2 and rows[0]["hosts_unknown"] == 2, rows
assert rows[0]["severity"] == "critical", rows
hosts = {h["host"]: h for h in j["hosts"]}
for h in ("host-a", "host-b"):
    assert any(f["rule"] == "switch.roce-lossless" and "Ethernet0 <-> eth4" in f["subject"]
               for f in hosts[h]["failures"]), hosts[h]
PY

# 9. Placeholder serials join nothing: a ConnectX-7 and a ConnectX-4 that both show the
# unprogrammed-VPD serial MT0000X00000 are two NICs, not one Multi-Host NIC. One NIC of two
# reports PFC: unknown, not pass.
mkdir "$tmp/ph"
cp -r "$mh/host-a" "$tmp/ph/cx7-host" && cp -r "$src/testdata/hosts/homelab-host02-cx4-100g-pcie-x8" "$tmp/ph/cx4-host" && ok || bad "copy"
sed 's/board.serial_number MT0000XZ00AA/board.serial_number MT0000X00000/' "$mh/host-a/devlink_dev_info.txt" >"$tmp/ph/cx7-host/devlink_dev_info.txt"
expect_rc 1 "placeholder serials" "$rk" fleet "$tmp/ph"
grep -q "^rocekit fleet: 2 hosts (2 loaded, 0 input problems), 2 NICs, 0 Multi-Host NICs" "$tmp/out" && ok || bad "placeholder serial joined NICs: $(head -1 "$tmp/out")"
grep -q "fleet.multi-host-qos-identical" "$tmp/out" && bad "multi-host check on a placeholder serial" || ok
grep -q "^  UNKNOWN  fleet.pfc-consistent               pfc (all NICs): only 1 NIC of 2 reports pfc (3): consistency needs at least two (1 NIC unknown: no netdev for this NIC in the input)$" "$tmp/out" && ok || bad "one reporting NIC not unknown: $(grep fleet.pfc-consistent "$tmp/out")"

# 10. A tie (host-a PFC 3, host-c PFC off): the policy value is the reference, host-c the outlier.
expect_rc 1 "tie settled by the policy" "$rk" fleet "$mh/host-a" "$mh/host-c" -f json -o "$tmp/tie.json"
python3 - "$tmp/tie.json" <<'PY' && ok || bad "tie not reported as a tie settled by the policy"
import json, sys
checks = [c for c in json.load(open(sys.argv[1]))["consistency"] if c["setting"] == "pfc"]
assert len(checks) == 2, checks  # fleet.pfc-consistent and fleet.multi-host-qos-identical
for c in checks:
    assert c["tie"] is True and c["reference"] == "policy" and c["baseline"] == "3", c
    assert [(o["host"], o["value"]) for o in c["outliers"]] == [("host-c", "none")], c
    assert c["message"].startswith("tie: 1 "), c
PY

# 11. A driver rollout half done (fleet.driver-firmware-compat): three hosts made from the real
# ConnectX-7 capture (mlxfwmanager, PSID MT_0000000834) with the ofed_info -s release and the FW
# line changed. cx7-old runs MLNX_OFED 23.10-1.1.9.0 with 28.39.2048 and cx7-new 24.01-0.3.3.1
# with 28.40.1000 (each the built-in table's ConnectX-7 firmware for its release); cx7-half got
# the new driver but kept 28.39.2048, which 24.01-0.3.3.1's notes do not give.
cx7_host() { # name release firmware
  mkdir -p "$tmp/rollout/$1"
  sed "s/MLNX_OFED_LINUX-24.10-3.2.5.0:/$2:/" "$src/testdata/corpus/ofed_info/cn-note-cx7-mlnx-ofed-24.10-3.2.5.0-prompt.txt" \
    >"$tmp/rollout/$1/ofed_info.txt"
  sed "s/FW             28.44.1036/FW             $3/" "$src/testdata/corpus/flint/cn-note-cx7-mlxfwmanager-28.44-mst-name.txt" \
    >"$tmp/rollout/$1/mlxfwmanager@0000:3b:00.0.txt"
}
cx7_host cx7-old MLNX_OFED_LINUX-23.10-1.1.9.0 28.39.2048
cx7_host cx7-new MLNX_OFED_LINUX-24.01-0.3.3.1 28.40.1000
cx7_host cx7-half MLNX_OFED_LINUX-24.01-0.3.3.1 28.39.2048
expect_rc 1 "half-finished rollout" "$rk" fleet "$tmp/rollout" --rule fleet.driver-firmware-compat
grep -q "FAIL     fleet.driver-firmware-compat" "$tmp/out" && ok || bad "rollout: no failure line: $(cat "$tmp/out")"
grep -q "MLNX_OFED_LINUX-24.01-0.3.3.1 + 28.39.2048 on 1 host (cx7-half): INCOMPATIBLE: firmware 28.39.2048 (ConnectX-7, by its firmware major) with MLNX_OFED 24.01-0.3.3.1: not in the release notes for this driver, which give 28.40.1000" "$tmp/out" && ok ||
  bad "rollout: the incompatible group is not named: $(cat "$tmp/out")"
grep -q "MLNX_OFED_LINUX-23.10-1.1.9.0 + 28.39.2048 on 1 host (cx7-old): in the release notes" "$tmp/out" && ok || bad "rollout: old group not reported"
grep -q "cx7-half 0000:3b:00.0: MLNX_OFED_LINUX-24.01-0.3.3.1 + 28.39.2048" "$tmp/out" && ok || bad "rollout: host detail does not name cx7-half"
expect_rc 1 "half-finished rollout (JSON)" "$rk" fleet "$tmp/rollout" --rule fleet.driver-firmware-compat -f json -o "$tmp/rollout.json"
python3 - "$tmp/rollout.json" <<'PY' && ok || bad "rollout: JSON groups"
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["consistency"] if c["rule"] == "fleet.driver-firmware-compat"]
assert len(c) == 1 and c[0]["group"] == "PSID MT_0000000834" and c[0]["outcome"] == "fail", c
assert sorted((d["value"], d["count"]) for d in c[0]["distribution"]) == [
    ("MLNX_OFED_LINUX-23.10-1.1.9.0 + 28.39.2048", 1), ("MLNX_OFED_LINUX-24.01-0.3.3.1 + 28.39.2048", 1),
    ("MLNX_OFED_LINUX-24.01-0.3.3.1 + 28.40.1000", 1)], c
assert [(o["host"], o["value"]) for o in c[0]["outliers"]] == [("cx7-half", "MLNX_OFED_LINUX-24.01-0.3.3.1 + 28.39.2048")], c
assert c[0]["reference"] == "release notes", c
PY
# Once cx7-half has 28.40.1000 the fleet is in two groups, both in their notes: pass. The
# hosts' captures have no RDMA device, so, as `rocekit check` on each, the exit code is 3.
cx7_host cx7-half MLNX_OFED_LINUX-24.01-0.3.3.1 28.40.1000
expect_rc 3 "rollout: firmware done" "$rk" fleet "$tmp/rollout" --rule fleet.driver-firmware-compat
grep -q "pass     fleet.driver-firmware-compat" "$tmp/out" && ok || bad "rollout done: not a pass: $(cat "$tmp/out")"
grep -qx "rocekit: not judged: cx7-half: no RDMA device and no RoCE netdev in the input: no RoCE port was judged" "$tmp/err" &&
  ok || bad "rollout done: the host check would not judge is not named: $(cat "$tmp/err")"
expect_rc 3 "check on a rollout host" "$rk" check "$tmp/rollout/cx7-half" --rule fw.driver-compat
# --compat: a user's table that lacks both releases leaves every group not judged.
expect_rc 3 "rollout: --compat without the releases" "$rk" fleet "$tmp/rollout" --rule fleet.driver-firmware-compat \
  --compat "$src/testdata/compat/user-table-mlnx-ofed-24.10-3.2.5.0.json"
grep -q "UNKNOWN  fleet.driver-firmware-compat" "$tmp/out" && grep -q "not judged: MLNX_OFED_LINUX-24.01-0.3.3.1 is not in the compatibility table" "$tmp/out" && ok ||
  bad "rollout --compat: not unknown: $(cat "$tmp/out")"
expect_rc 2 "fleet --compat missing file" "$rk" fleet "$tmp/rollout" --compat "$tmp/none.json"

# --baseline (issue 23): host-a as the reference gives the same outliers as the majority on the
# Multi-Host fixture; a baseline that is no host, and a policy ignoring an unknown setting, are
# usage errors naming the cause.
expect_rc 1 "multihost majority (json)" "$rk" fleet "$mh" -f json -o "$tmp/maj.json"
expect_rc 1 "multihost --baseline host-a" "$rk" fleet "$mh" -f json -o "$tmp/base.json" --baseline host-a
python3 - "$tmp/maj.json" "$tmp/base.json" <<'PY' && ok || bad "--baseline host-a: other outliers than the majority"
import json, sys
def outliers(f):
    r = json.load(open(f))
    return sorted((c["rule"], c["setting"], o["host"], o["subject"], o["value"])
                  for c in r["consistency"] for o in c.get("outliers", []))
maj, base = outliers(sys.argv[1]), outliers(sys.argv[2])
assert maj and maj == base, (maj, base)
b = json.load(open(sys.argv[2]))
assert b["baseline"] == "host-a", b["baseline"]
assert any(c.get("reference") == "baseline" for c in b["consistency"])
PY
expect_rc 1 "multihost --baseline PATH" "$rk" fleet "$mh" --baseline "$mh/host-a"
grep -q "reference: the baseline host host-a (not the majority)" "$tmp/out" && ok || bad "--baseline PATH: summary does not name host-a"
expect_rc 2 "--baseline no such host" "$rk" fleet "$mh" --baseline host-z
grep -q "no host named host-z among the 4 loaded hosts" "$tmp/err" && ok || bad "--baseline host-z: $(cat "$tmp/err")"
# A golden copy of a fleet host, from outside the fleet: the reference, but no second PF of the
# host's NIC (no Multi-Host NIC made of a host and its own copy).
mkdir -p "$tmp/golden"
cp -r "$mh/host-a" "$tmp/golden/golden-a"
expect_rc 1 "multihost --baseline golden copy" "$rk" fleet "$mh" -f json -o "$tmp/golden.json" --baseline "$tmp/golden/golden-a"
python3 - "$tmp/base.json" "$tmp/golden.json" <<'PY' && ok || bad "--baseline golden copy: Multi-Host NICs or outliers differ from --baseline host-a"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
pfs = lambda r: sorted((p["host"], p["subject"]) for m in r["multi_host_nics"] for p in m["pfs"])
assert pfs(a) == pfs(b), (pfs(a), pfs(b))
assert b["summary"]["hosts_loaded"] == 5, b["summary"]
PY
printf 'fleet:\n  ignore: [mtu, mtux]\n' >"$tmp/ignore-bad.yml"
expect_rc 2 "fleet.ignore unknown setting" "$rk" fleet "$mh" -p "$tmp/ignore-bad.yml"
grep -q "ignore-bad.yml:2:.*fleet.ignore: 'mtux' is no fleet setting (trust, dscp_map, pfc" "$tmp/err" && ok || bad "fleet.ignore mtux: $(cat "$tmp/err")"
expect_rc 2 "policy validate: fleet.ignore unknown setting" "$rk" policy validate "$tmp/ignore-bad.yml"
printf 'fleet:\n  ignore: [pfc]\n' >"$tmp/ignore-pfc.yml"
# host-c's PF differs from the other PFs of its Multi-Host NIC in PFC only: ignoring pfc leaves
# nothing failing (the Multi-Host NIC check leaves it out too).
expect_rc 0 "fleet.ignore pfc" "$rk" fleet "$mh" -p "$tmp/ignore-pfc.yml" --rule fleet.pfc-consistent --rule fleet.multi-host-qos-identical
grep -q "not compared (policy fleet.ignore): pfc" "$tmp/out" && ! grep -q "fleet.pfc-consistent" "$tmp/out" &&
  ! grep -q "host-c eth4: none" "$tmp/out" && ok || bad "fleet.ignore pfc: $(cat "$tmp/out")"

# Actions per outlier host (issue 23 item 3): host-c's eth4 gets exactly the PFC step that
# `rocekit plan` makes for host-c, with the majority and with --baseline host-a; no other host
# gets any; a setting the policy ignores gets none.
"$rk" plan "$mh/host-c" -f json -o "$tmp/plan-c.json" >/dev/null 2>&1
expect_rc 1 "fleet actions (text)" "$rk" fleet "$mh"
sed -n '/^actions per outlier host/,$p' "$tmp/out" >"$tmp/actions"
grep -q "^  host-c (1 action):" "$tmp/actions" &&
  grep -qxF '    eth4 pfc: 0,0,0,0,0,0,0,0 -> 0,0,0,1,0,0,0,0 [link_flap]: $ mlnx_qos -i eth4 --pfc 0,0,0,1,0,0,0,0' "$tmp/actions" &&
  [ "$(wc -l <"$tmp/actions")" = 3 ] && ok || bad "text actions (host-c's PFC only): $(cat "$tmp/actions")"
for base in "" host-a; do
  expect_rc 1 "fleet actions (json, baseline '$base')" "$rk" fleet "$mh" -f json -o "$tmp/act.json" ${base:+--baseline "$base"}
  python3 - "$tmp/act.json" "$tmp/plan-c.json" <<'PY' && ok || bad "json actions (baseline '$base')"
import json, sys
r, own = (json.load(open(f)) for f in sys.argv[1:])
with_actions = {h["host"]: h for h in r["hosts"] if "actions" in h}
assert list(with_actions) == ["host-c"], list(with_actions)
acts = with_actions["host-c"]["actions"]
pfc = [a for a in own["actions"] if a["kind"] == "pfc" and a["subject"] == "eth4"]
assert len(pfc) == 1, own["actions"]
assert acts == pfc, (acts, pfc)  # the plan's own JSON form, the same step
assert acts[0]["argv"][0] == "mlnx_qos" and acts[0]["desired"] == "0,0,0,1,0,0,0,0", acts
assert with_actions["host-c"]["unplanned"] == [], with_actions["host-c"]["unplanned"]
PY
done
expect_rc 1 "fleet actions (markdown)" "$rk" fleet "$mh" -f markdown
grep -F "| host-c | eth4 pfc: " "$tmp/out" | grep -qF "mlnx_qos -i eth4 --pfc 0,0,0,1,0,0,0,0 |" && ok ||
  bad "markdown actions: $(grep -A3 'Actions per outlier' "$tmp/out")"
expect_rc 1 "fleet actions (html)" "$rk" fleet "$mh" -f html -o "$tmp/act.html"
grep -q '<section id="actions">' "$tmp/act.html" && grep -q 'data-host="host-c"' "$tmp/act.html" &&
  grep -qF '<code>eth4 pfc: 0,0,0,0,0,0,0,0 -&gt; 0,0,0,1,0,0,0,0 [link_flap]: $ mlnx_qos -i eth4 --pfc 0,0,0,1,0,0,0,0</code>' "$tmp/act.html" &&
  ok || bad "html actions section"
expect_rc 0 "fleet.ignore pfc: no action" "$rk" fleet "$mh" -p "$tmp/ignore-pfc.yml" -f json -o "$tmp/ign.json" \
  --rule fleet.pfc-consistent --rule fleet.multi-host-qos-identical
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert not [h for h in r["hosts"] if "actions" in h]' \
  "$tmp/ign.json" && ok || bad "an ignored setting got actions"
# -f sh: one script per outlier host, shellcheck-clean, with the plan's host guard.
expect_rc 2 "fleet -f sh without -o" "$rk" fleet "$mh" -f sh
grep -q "give -o DIRECTORY" "$tmp/err" && ok || bad "-f sh without -o: $(cat "$tmp/err")"
expect_rc 1 "fleet -f sh" "$rk" fleet "$mh" -f sh -o "$tmp/plans"
[ "$(ls "$tmp/plans")" = "host-c.sh" ] && ok || bad "scripts: $(ls "$tmp/plans")"
grep -q "^run mlnx_qos -i eth4 --pfc 0,0,0,1,0,0,0,0$" "$tmp/plans/host-c.sh" && grep -q "^not_this_host()" "$tmp/plans/host-c.sh" &&
  grep -q "^total_steps=1$" "$tmp/plans/host-c.sh" && ok || bad "host-c.sh: $(cat "$tmp/plans/host-c.sh")"
if command -v shellcheck >/dev/null 2>&1; then
  shellcheck -s bash "$tmp/plans/host-c.sh" && ok || bad "shellcheck host-c.sh"
else
  echo "note: shellcheck not installed, host-c.sh not linted"
fi
# On another host (a tree whose hostname and netdevs are not the plan's) --execute refuses.
mkdir -p "$tmp/other/proc/sys/kernel" && echo host-b >"$tmp/other/proc/sys/kernel/hostname"
RK_SYSROOT=$tmp/other bash "$tmp/plans/host-c.sh" --execute >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] && grep -q "^rocekit: refusing: " "$tmp/err" && ok || bad "host-c.sh on host-b: exit $rc: $(cat "$tmp/err")"
bash "$tmp/plans/host-c.sh" >"$tmp/out" 2>&1 && grep -q "^DRY RUN" "$tmp/out" && ok || bad "host-c.sh dry run: $(cat "$tmp/out")"
expect_rc 1 "fleet -f ansible" "$rk" fleet "$mh" -f ansible --baseline host-a
# host-c's capture has no hostname: its play is named after its input, as the report names it.
grep -c '^- name: !unsafe "rocekit plan for ' "$tmp/out" | grep -qx 1 &&
  grep -qx -- '- name: !unsafe "rocekit plan for host-c (no hostname in the input)"' "$tmp/out" && grep -q 'mlnx_qos", !unsafe "-i", !unsafe "eth4"' "$tmp/out" &&
  grep -q "meta: end_host" "$tmp/out" && ok || bad "ansible playbook: $(head -40 "$tmp/out")"

# The bench generator's fleet (300 hosts x 8 NICs, outliers injected at known hosts and NICs):
# each injected host gets exactly one action, of its injected setting on its injected NIC, to
# the majority's value; no other host gets any.
if [ -n "$gen" ]; then
  "$gen" "$mh/host-a" "$tmp/gen" 300 8 >"$tmp/injected" && ok || bad "rk_fleet_gen"
  expect_rc 1 "generated fleet actions" "$rk" fleet "$tmp/gen" -f json -o "$tmp/gen.json" -j 2
  python3 - "$tmp/gen.json" "$tmp/injected" <<'PY' && ok || bad "generated fleet: actions are not exactly the injected outliers"
import json, sys
r = json.load(open(sys.argv[1]))
injected = {}
for line in open(sys.argv[2]):
    kind, host, nic, value = line.split()
    injected[host] = (kind, nic)
want = {"pfc": ("pfc", "0,0,0,1,0,0,0,0"), "trust": ("trust", "dscp"), "mtu": ("mtu", "9000")}
got = {h["host"]: h for h in r["hosts"] if "actions" in h}
assert set(got) == set(injected), (sorted(got), sorted(injected))
for host, (kind, nic) in injected.items():
    acts = [(a["kind"], a["subject"], a["desired"]) for a in got[host]["actions"]]
    assert acts == [(want[kind][0], nic, want[kind][1])], (host, acts)
    assert got[host]["unplanned"] == [], (host, got[host]["unplanned"])
print(len(injected), "injected hosts, each with its one action")
PY
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# shellcheck disable=SC2015
# `rocekit switch show|check`: exit codes, formats, port selection, bad input, no partial writes.
# Usage: switch_cli_test.sh ROCEKIT_BINARY SOURCE_DIR
set -u
rk=$1
src=$2
sw=$src/testdata/switch
hosts=$src/testdata/hosts
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
sonic=$sw/sonic/qos-mellanox4600c-c64-remap-disabled.json
host=$hosts/netarbiter-eth4-qos-healthy

# 1. show: text and JSON with sources.
expect_rc 0 "show sonic" "$rk" switch show "$sonic"
grep -q "DSCP->TC:       8->0 0-2,6-7,9-45,47,49-63->1 5->2 3->3 4->4 46->5 48->6" "$tmp/out" && ok || bad "show text lacks the DSCP map"
grep -q "PFC priorities: 3,4    \[.*qos-mellanox4600c-c64-remap-disabled.json:125 /PORT_QOS_MAP/Ethernet0/pfc_enable" "$tmp/out" && ok || bad "show text lacks pfc_enable with file:line"
expect_rc 0 "show json" "$rk" switch show -f json "$sw/cumulus/nv-show-qos-roce.txt"
python3 - "$tmp/out" <<'PY' && ok || bad "show json shape"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["dialect"] == "nvue_show_roce"
p = j["ports"][0]
assert p["dscp_to_tc"]["value"]["26"] == 3
assert p["pfc_enabled"]["value"] == [3]
assert "unknown" in p["mtu_bytes"]
PY

# 2. check: default SONiC vs NVIDIA-default host fails (exit 1) with the rule id.
expect_rc 1 "check sonic default" "$rk" switch check --switch "$sonic" --port Ethernet0 "$host" --color never
grep -q "FAIL.*switch.roce-lossless" "$tmp/out" && ok || bad "no switch.roce-lossless failure"
expect_rc 1 "check sonic json" "$rk" switch check -f json --switch "$sonic" --port Ethernet0 "$host"
python3 - "$tmp/out" <<'PY' && ok || bad "check json shape"
import json, sys
j = json.load(open(sys.argv[1]))
f = [x for x in j["hosts"][0]["findings"] if x["rule"] == "switch.roce-lossless"][0]
assert f["outcome"] == "fail" and f["severity"] == "critical", f
assert any(e["line"] == 66 for e in f["evidence"]), f["evidence"]
PY
expect_rc 1 "check markdown" "$rk" switch check -f markdown --switch "$sonic" --port Ethernet0 "$host"
grep -q 'switch.roce-lossless' "$tmp/out" && ok || bad "markdown lacks the rule"

# 3. The aligned pair passes (exit 0): Cumulus `nv set qos roce` defaults.
expect_rc 0 "check cumulus aligned" "$rk" switch check --switch "$sw/cumulus/nv-show-qos-roce.txt" "$host"
expect_rc 0 "check nvue json aligned" "$rk" switch check --switch "$sw/cumulus/nv-config-show-json-roce-lossless.json" --port swp1 "$host"

# 3b. A host with trust pcp and PFC off everywhere (DGX fixture) against a switch lossless on 3:
# roce-lossless fails on the host side, ECN is unknown (host RoCE priority unknown), and
# extra-lossless does not blame the switch for the RoCE priority.
expect_rc 0 "collect dgx fixture" "$rk" collect --root "$src/testdata/sysroots/dgx-h100-8gpu-8nic" -o "$tmp/dgx.json"
expect_rc 1 "check dgx vs cumulus roce" "$rk" switch check --switch "$sw/cumulus/nv-show-qos-roce.txt" "$tmp/dgx.json" -f json -o "$tmp/dgx-check.json"
python3 - "$tmp/dgx-check.json" <<'PY' && ok || bad "trust-pcp/PFC-off host against cumulus roce"
import json, sys
found = {}
def walk(x):
    if isinstance(x, dict):
        if "rule" in x and "enp94s0np0" in str(x.get("subject", "")):
            found[x["rule"]] = x
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
walk(json.load(open(sys.argv[1])))
ll, ecn, extra = found["switch.roce-lossless"], found["switch.roce-ecn"], found["switch.extra-lossless"]
assert ll["outcome"] == "fail", ll
assert "host PFC is off on every priority the switch makes lossless (host PFC none, switch PFC 3)" in ll["message"], ll
assert ecn["outcome"] == "unknown", ecn
assert "host ECN unknown: host trust pcp" in ecn["message"] and "?" not in ecn["message"], ecn
assert extra["outcome"] == "pass", extra
assert "also lossless" not in extra["message"], extra
PY

# 4. Port selection: a mapping file, and errors for a multi-port config without one.
printf 'host,netdev,switch,port\n,eth4,,Ethernet4\n' >"$tmp/map.csv"
expect_rc 1 "check port map" "$rk" switch check --switch "$sonic" --port-map "$tmp/map.csv" "$host"
expect_rc 2 "multi-port config without a port" "$rk" switch check --switch "$sonic" "$host"
grep -q "28 ports" "$tmp/err" && ok || bad "no port count in the error"
expect_rc 2 "unknown port" "$rk" switch check --switch "$sonic" --port Ethernet999 "$host"
expect_rc 2 "two selectors" "$rk" switch check --switch "$sonic" --port Ethernet0 --port-map "$tmp/map.csv" "$host"
# --rule: only the selected switch rules; a host rule or a typo is an error naming the right command.
expect_rc 1 "check --rule switch.roce-lossless" "$rk" switch check --switch "$sonic" --port Ethernet0 "$host" --rule switch.roce-lossless --color never
grep -v "switch.roce-lossless" "$tmp/out" | grep -q "^  *\(FAIL\|pass\|UNKNOWN\) *switch\." && bad "--rule switch.roce-lossless kept other rules" || ok
expect_rc 2 "check --rule host rule" "$rk" switch check --switch "$sonic" --port Ethernet0 "$host" --rule qos.trust-dscp
grep -q "judged by .rocekit check., not .rocekit switch check." "$tmp/err" && ok || bad "host rule in switch --rule: $(cat "$tmp/err")"

# LLDP from another machine: its netdevs (eth0, eth1) are not in this host: unknown, so nothing
# was judged: exit 3 (never 0 = aligned).
expect_rc 3 "check lldp foreign netdevs" "$rk" switch check --switch "$sonic" --lldp "$sw/lldp/lldpctl-keyvalue-juniper-qfx-local-portid.txt" "$host" --color never
grep -q "UNKNOWN  switch.roce-lossless.*names host netdev eth0, which the host input does not contain" "$tmp/out" && ok || bad "lldp netdev mismatch not reported"
expect_rc 2 "lldp with two hosts" "$rk" switch check --switch "$sonic" --lldp "$sw/lldp/lldpctl-keyvalue-juniper-qfx-local-portid.txt" "$host" "$host"

# 5. Bad input: file:line, exit 2, no output file written.
printf '{\n  "PORT_QOS_MAP": {\n    "Ethernet0": {"pfc_enable": "3,9"}\n  }\n}\n' >"$tmp/bad.json"
expect_rc 2 "bad pfc_enable" "$rk" switch show "$tmp/bad.json" -o "$tmp/never.txt"
grep -q "bad.json:3" "$tmp/err" && ok || bad "error lacks file:line"
[ ! -e "$tmp/never.txt" ] && ok || bad "partial output written"
expect_rc 2 "missing config" "$rk" switch show "$tmp/nope.json"
expect_rc 2 "not a switch config" "$rk" switch show "$hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt"

# 5b. Every dialect checks the same way; an unknown NOS is refused by name (exit 2), never read
# as the closest dialect.
expect_rc 0 "check nxos dscp aligned" "$rk" switch check --switch "$sw/cisco/nxos-roce-dcqcn-n9364e.cfg" --port Ethernet1/1/2 "$host"
expect_rc 0 "check junos aligned" "$rk" switch check --switch "$sw/juniper/junos-dcqcn-qfx5240.conf" --port et-0/0/0 "$host"
expect_rc 1 "check nxos cos-based" "$rk" switch check --switch "$sw/cisco/nxos-azure-local-qos.cfg" "$host" -f json -o "$tmp/az.json"
python3 - "$tmp/az.json" <<'PY' && ok || bad "nxos cos-based: roce-lossless fail with the switch line as evidence"
import json, sys
found = []
def walk(x):
    if isinstance(x, dict):
        if x.get("rule") == "switch.roce-lossless" and "outcome" in x: found.append(x)
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
walk(json.load(open(sys.argv[1])))
f = found[0]
assert f["outcome"] == "fail", f
assert any(e.get("line") == 49 and "nxos-azure-local-qos.cfg" in e.get("file", "") for e in f["evidence"]), f
# The commands are the dialect's own (NX-OS class-map), never EOS's; the rule's general notes
# still list the SONiC/NVUE/EOS forms as references.
assert "qos map dscp" not in json.dumps(f["remediation"]["commands"]), f
assert any("class-map type qos" in c for c in f["remediation"]["commands"]), f
PY
expect_rc 0 "show dell sonic" "$rk" switch show "$sw/dell-sonic/sonic-cli-roce-z9664f.cfg"
grep -q "dialect dell_sonic_cli" "$tmp/out" && ok || bad "dell sonic not read as dell_sonic_cli"
expect_rc 0 "show nvue commands" "$rk" switch show -f json "$sw/cumulus/nv-commands-roce-lossless-sp2.txt"
grep -q '"nvue_commands"' "$tmp/out" && ok || bad "nvue commands not read as nvue_commands"
expect_rc 0 "show onyx show roce" "$rk" switch show "$sw/onyx/onyx-3.10-sn2700-show-roce.txt"
grep -q "dialect onyx_show_roce" "$tmp/out" && ok || bad "onyx show roce not read as onyx_show_roce"
# Against a host: trust and PFC agree; the DSCP map is not in `show roce`, so the queue rules are
# unknown and say which command shows it, never a pass.
expect_rc 0 "check onyx" "$rk" switch check --switch "$sw/onyx/onyx-3.10-sn2700-show-roce.txt" -f json "$src/testdata/hosts/netarbiter-eth4-qos-healthy"
python3 - "$tmp/out" <<'PY' && ok || bad "onyx check outcomes"
import json, sys
r = json.load(open(sys.argv[1]))
got = {f["rule"]: f for h in r["hosts"] for f in h["findings"]}
assert got["switch.trust-dscp"]["outcome"] == "pass", got["switch.trust-dscp"]
assert got["switch.extra-lossless"]["outcome"] == "pass", got["switch.extra-lossless"]
assert got["switch.roce-lossless"]["outcome"] == "unknown", got["switch.roce-lossless"]
assert "show qos interface ethernet" in got["switch.roce-lossless"]["message"], got["switch.roce-lossless"]
PY
expect_rc 2 "onyx running-config refused" "$rk" switch show "$sw/onyx/onyx-running-config-ufm-switch16.txt"
grep -q "NVIDIA Onyx running-config" "$tmp/err" && grep -q "rocekit reads:" "$tmp/err" && ok || bad "onyx running-config refusal does not name the NOS and the known dialects"

# 5c. Full public configs (issue 19): the Junos wildcard et-* binds the concrete ports; a lossy
# (ECN-only) port fails against a lossless host with its config line; pasted Dell inputs.
aiml=$sw/juniper/jvd-aiml-mtb-leaf1-qfx5240-full.conf
lossy=$sw/juniper/jvd-5stage-compute-leaf1-qfx5120-lossy-ecn-full.conf
expect_rc 0 "check junos wildcard port" "$rk" switch check --switch "$aiml" --port et-0/0/12:0 "$host" --color never
grep -q "pass *switch.roce-lossless" "$tmp/out" && ok || bad "et-0/0/12:0 not lossless through et-*"
expect_rc 0 "show junos full leaf" "$rk" switch show "$aiml"
grep -q "^port et-\*" "$tmp/out" && bad "a port named et-* is listed" || ok
grep -q "^port irb" "$tmp/out" && bad "irb is listed as a port" || ok
expect_rc 1 "check junos lossy port" "$rk" switch check --switch "$lossy" --port et-0/0/50 "$host" -f json
python3 - "$tmp/out" <<'PY' && ok || bad "lossy port: roce-lossless fail with the binding line"
import json, sys
r = json.load(open(sys.argv[1]))
f = [f for h in r["hosts"] for f in h["findings"] if f["rule"] == "switch.roce-lossless"][0]
assert f["outcome"] == "fail", f
assert "ECN-only RoCE is a legitimate design" in f["message"], f
assert any(e.get("line") == 1892 and "lossy-ecn-full.conf" in e.get("file", "") for e in f["evidence"]), f
PY
printf 'set class-of-service forwarding-classes class NL queue-num 3 no-loss pfc-priority 3\nset interfaces et-0/0/1 mtu 9216\n' >"$tmp/bare.conf"
expect_rc 3 "check port without qos" "$rk" switch check --switch "$tmp/bare.conf" --port et-0/0/1 "$host"
grep -q "switch port et-0/0/1 has no QoS binding" "$tmp/err" && ok || bad "not-judged message does not name the port: $(cat "$tmp/err")"
grep -q "no RDMA device and no RoCE netdev" "$tmp/err" "$tmp/out" && bad "not-judged blames the host" || ok
expect_rc 1 "check dell klish session" "$rk" switch check --switch "$sw/dell-sonic/sonic-mgmt-rocev2-hld-klish-session-dot1p-pfc3-queue1.cfg" "$host" --color never
grep -q "FAIL *switch.trust-dscp" "$tmp/out" && ok || bad "klish session: dot1p switch vs dscp host not a trust failure"
expect_rc 1 "check dell interface slice" "$rk" switch check --switch "$sw/dell-sonic/dellemc-ansible-qos-interfaces-doc-eth1-5-pfc0-1-maps-undefined.cfg" "$host" --color never
grep -q "FAIL *switch.roce-lossless" "$tmp/out" && ok || bad "interface slice: PFC 0,1 vs host 3 not a failure"
expect_rc 0 "show dell interface slice" "$rk" switch show "$sw/dell-sonic/dellemc-ansible-qos-interfaces-doc-eth1-5-pfc0-1-maps-undefined.cfg"
grep -q "qos map dscp-tc dscp_map1 is not defined in this config: line 15" "$tmp/out" && ok || bad "undefined map not shown per value"

# 6. rules list / explain include switch.* rules.
expect_rc 0 "rules explain" "$rk" rules explain switch.roce-lossless
grep -q "fix (switch):" "$tmp/out" && ok || bad "explain lacks the switch fix"
expect_rc 0 "rules list json" "$rk" rules list -f json
python3 -c "import json,sys; ids=[r['id'] for r in json.load(open(sys.argv[1]))]; assert 'switch.cnp-queue' in ids and 'qos.trust-dscp' in ids" "$tmp/out" && ok || bad "rules list json lacks switch rules"

echo "switch cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

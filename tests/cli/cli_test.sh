#!/bin/sh
# shellcheck disable=SC2015,SC2016
# CLI behaviour of `rocekit`: exit codes, output formats, bad input, no partial writes.
# Usage: cli_test.sh ROCEKIT_BINARY SOURCE_DIR
set -u
rk=$1
src=$2
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

# 1. A bundle with failures exits 1; the text report names the failing rule and its evidence.
expect_rc 1 "check with failures" "$rk" check "$hosts/roce-server-8dev-trust-pcp-pfc-off" --color never --detail
grep -q "FAIL     qos.trust-dscp" "$tmp/out" && ok || bad "text report lacks qos.trust-dscp failure"
grep -q "mlnx_qos@ens6.txt:[0-9]*: Priority trust state: pcp" "$tmp/out" && ok || bad "no file:line evidence"
grep -q "fix: \$ mlnx_qos -i ens6 --trust dscp" "$tmp/out" && ok || bad "no mlnx_qos fix"

# 2. A healthy bundle exits 0; --fail-on warning still passes it (no failures at all).
expect_rc 0 "healthy bundle" "$rk" check "$hosts/netarbiter-eth4-qos-healthy"
expect_rc 0 "healthy bundle, fail-on warning" "$rk" check --fail-on warning "$hosts/netarbiter-eth4-qos-healthy"
# A bundle whose only failure is a warning passes at the default threshold, fails at warning.
expect_rc 0 "warning-only failure, default threshold" "$rk" check "$hosts/homelab-host01-cx4lx-fw14.32"
expect_rc 1 "warning-only failure, --fail-on warning" "$rk" check --fail-on warning "$hosts/homelab-host01-cx4lx-fw14.32"

# 2b. --rule: a typo, a rule of another family or an unknown area selects nothing and is an
# error (never "0 fail" with exit 0); an id or an area selects its rules.
expect_rc 2 "check --rule typo" "$rk" check "$hosts/roce-server-8dev-trust-pcp-pfc-off" --rule qos.trust-dcsp
grep -q "unknown rule id or area 'qos.trust-dcsp': did you mean 'qos.trust-dscp'?" "$tmp/err" && ok || bad "--rule typo: no did-you-mean"
expect_rc 2 "check --rule upper case" "$rk" check "$hosts/roce-server-8dev-trust-pcp-pfc-off" --rule QOS.TRUST-DSCP
grep -q "did you mean 'qos.trust-dscp'?" "$tmp/err" && ok || bad "--rule upper case: no did-you-mean"
expect_rc 2 "check --rule fleet id" "$rk" check "$hosts/roce-server-8dev-trust-pcp-pfc-off" --rule fleet.pfc-consistent
grep -q "'fleet.pfc-consistent' is a fleet rule: it is judged by \`rocekit fleet\`" "$tmp/err" && ok || bad "--rule fleet id: no family hint"
expect_rc 1 "check --rule id" "$rk" check "$hosts/roce-server-8dev-trust-pcp-pfc-off" --rule qos.trust-dscp --color never --detail
grep -q "FAIL     qos.trust-dscp" "$tmp/out" && ok || bad "--rule id: qos.trust-dscp not judged"
expect_rc 1 "check --rule area" "$rk" check "$hosts/roce-server-8dev-trust-pcp-pfc-off" --rule qos --color never --detail
grep -q "FAIL     qos.pfc-roce-priority" "$tmp/out" && ok || bad "--rule area: qos rules not judged"

# 2d. The first screen: verdict, each failing rule once with a loop-form fix, the exact commands
# that would judge the unknowns; the 8-port capture's report fits in 40 lines.
expect_rc 1 "summary" "$rk" check "$hosts/roce-server-8dev-trust-pcp-pfc-off" --color never
[ "$(wc -l <"$tmp/out")" -le 40 ] && ok || bad "summary longer than 40 lines"
grep -qx "FAIL: 3 rules fail on 6 subjects (1 critical, 5 error)" "$tmp/out" && ok || bad "summary: no verdict line"
grep -qx "FAIL  link.port-active \[error\] on mlx5_0/1, mlx5_1/1, mlx5_4/1, mlx5_6/1" "$tmp/out" && ok || bad "summary: link.port-active not once with its subjects"
grep -qF 'fix:   $ for n in ens4f0 ens4f1 ens14f1 ens6f1; do ip link set dev "$n" up; done' "$tmp/out" && ok || bad "summary: no loop-form fix"
grep -qF '$ for n in ens14f0 ens14f1 ens4f0 ens4f1 ens6f1 ens6f2; do mlnx_qos -i "$n" > "mlnx_qos@$n.txt"; done  # qos.trust-dscp' "$tmp/out" && ok || bad "summary: no capture command for the missing mlnx_qos outputs"
grep -q "FAIL     qos.trust-dscp" "$tmp/out" && bad "summary shows the per-subject detail" || ok
grep -q "dcb app replace" "$tmp/out" && bad "summary prints the second backend" || ok
expect_rc 1 "detail" "$rk" check "$hosts/roce-server-8dev-trust-pcp-pfc-off" --color never --detail
grep -qF "or, with dcb instead: \$ dcb app replace dev ens6 dscp-prio 0:0" "$tmp/out" && ok || bad "detail: no dcb alternative"
grep -qF "check: \$ ethtool ens4f0" "$tmp/out" && ok || bad "detail: read-only command not labelled check"
grep -qF "fix: \$ ethtool ens4f0" "$tmp/out" && bad "detail: read-only command labelled fix" || ok
expect_rc 1 "detail by rule, hide pass" "$rk" check "$hosts/roce-server-8dev-trust-pcp-pfc-off" --color never --detail --group-by rule --hide pass,na,unknown
grep -q "^link.port-active$" "$tmp/out" && ok || bad "--group-by rule: no rule heading"
grep -q "^  pass \|^  UNKNOWN" "$tmp/out" && bad "--hide pass,unknown: still shown" || ok
"$rk" check -f json "$hosts/roce-server-8dev-trust-pcp-pfc-off" >"$tmp/s.json" 2>/dev/null
python3 - "$tmp/s.json" <<'PY' && ok || bad "JSON summary, actual/expected"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verdict"] == "FAIL", r["verdict"]
pa = [x for x in r["failing_rules"] if x["rule"] == "link.port-active"][0]
assert pa["subjects"] == ["mlx5_0/1", "mlx5_1/1", "mlx5_4/1", "mlx5_6/1"], pa
t = [f for f in r["findings"] if f["rule"] == "qos.trust-dscp" and f["subject"] == "ens6"][0]
assert (t["actual"], t["expected"]) == ("pcp", "dscp"), t
assert t["remediation"]["alternative"]["tool"] == "dcb", t
q = [m for m in r["missing_outputs"] if m["tool"] == "mlnx_qos"][0]
assert "qos.trust-dscp" in q["rules"] and q["findings"] >= 6, q
u = [f for f in r["findings"] if f["rule"] == "net.mtu" and f["subject"] == "ens6"][0]
assert u["outcome"] == "unknown" and u["reason_kind"] == "not_captured" and u["needs"] == ["ip_link"], u
PY

# 2e. Exit codes for gates: no misleading case is "0 = healthy".
mkdir -p "$tmp/gate/nccl" "$tmp/gate/qosbad"
cp "$hosts/h100-nccl-gdrdma-in-use/"*.txt "$tmp/gate/nccl/"
cp "$hosts/netarbiter-eth4-qos-healthy/"*.txt "$tmp/gate/qosbad/"
printf '\000\001binary\n' >"$tmp/gate/qosbad/mlnx_qos@eth5.txt"
while IFS='|' read -r want what args; do
  # shellcheck disable=SC2086
  expect_rc "$want" "$what" "$rk" check $args
done <<TABLE
0|healthy capture|$hosts/netarbiter-eth4-qos-healthy
3|capture whose QoS file could not be used, --fail-on info|--fail-on info $tmp/gate/qosbad
3|NCCL log only: no RDMA device|$tmp/gate/nccl
3|VF capture: nothing judged|$hosts/cx7-vf-lspci-not-applicable
3|--fail-on unknown with unknowns|--fail-on unknown $hosts/netarbiter-eth4-qos-healthy
3|--require a rule the capture cannot judge|$hosts/netarbiter-eth4-qos-healthy --require gpudirect.peer-memory
3|--rule a rule the capture cannot judge|$hosts/netarbiter-eth4-qos-healthy --rule irq.coalescing
2|--require typo|$hosts/netarbiter-eth4-qos-healthy --require qos.trust-dcsp
2|--root with an input|--root /tmp $hosts/netarbiter-eth4-qos-healthy
2|a directory of several host captures|$hosts
1|failures win over not judged|--fail-on unknown $hosts/roce-server-8dev-trust-pcp-pfc-off
TABLE
expect_rc 3 "stderr names the reason" "$rk" check "$tmp/gate/nccl"
grep -qx "rocekit: not judged: no RDMA device and no RoCE netdev in the input: no RoCE port was judged" "$tmp/err" && ok || bad "exit 3 without its reason"
expect_rc 2 "fleet directory" "$rk" check "$hosts"
grep -q "host captures (.*): check one (rocekit check .*) or compare them with rocekit fleet" "$tmp/err" && ok || bad "directory of hosts does not point to fleet"
expect_rc 3 "plan of a capture that judges nothing" "$rk" plan "$hosts/cx7-vf-lspci-not-applicable"
grep -q "not judged: .*no rule could pass or fail" "$tmp/err" && ok || bad "plan exit 3 without its reason"

# 2f. roce.v2-gid on the real 4-port capture: eth04 is up with only link-local GIDs and no
# traffic counters: a warning (it may be unused); with a compute role in the policy, an error.
"$rk" check -f json "$hosts/cx4lx-4port-fw-mismatch" >"$tmp/gid.json" 2>/dev/null
printf 'interfaces:\n  - role: compute\n    netdev: ["eth04"]\n' >"$tmp/gid-policy.yaml"
"$rk" check -f json -p "$tmp/gid-policy.yaml" "$hosts/cx4lx-4port-fw-mismatch" >"$tmp/gid2.json" 2>/dev/null
python3 - "$tmp/gid.json" "$tmp/gid2.json" <<'PY' && ok || bad "roce.v2-gid severity of a possibly unused port"
import json, sys
def f(p):
    r = json.load(open(p))
    return [x for x in r["findings"] if x["rule"] == "roce.v2-gid" and x["subject"] == "mlx5_3/1"][0]
a, b = f(sys.argv[1]), f(sys.argv[2])
assert (a["outcome"], a["severity"]) == ("fail", "warning"), a
assert "the port may be unused" in a["message"], a
assert (b["outcome"], b["severity"]) == ("fail", "error"), b
assert "may be unused" not in b["message"], b
PY

# 2c. Evidence is the subject's own line, not the first match of another subject's.
"$rk" check -f json "$hosts/aerial-21-4-a100-cx6dx" >"$tmp/aerial.json" 2>/dev/null
"$rk" check -f json "$hosts/cx4lx-4port-fw-mismatch" >"$tmp/cx4lx.json" 2>/dev/null
"$rk" check -f json "$hosts/tf-gdr-k40-cx3-cross-socket" >"$tmp/k40.json" 2>/dev/null
python3 - "$tmp" <<'PY' && ok || bad "evidence cites another subject's line"
import json, sys
d = sys.argv[1]
def ev(f, rule, subject):
    r = json.load(open(f"{d}/{f}"))
    return [x for x in r["findings"] if x["rule"] == rule and x["subject"] == subject][0]["evidence"][0]
e = ev("aerial.json", "net.mtu", "ens6f1")  # second interface of the system-check report
assert e["line"] == 95 and e["text"].endswith(": 1514"), e
e = ev("cx4lx.json", "roce.v2-gid", "mlx5_0/1")  # the v2 row, not the v1 row of the same GID
assert e["line"] == 9 and e["text"].split("\t")[2] == "3" and "v2" in e["text"], e
e = ev("k40.json", "link.port-active", "mlx4_0/2")  # port 2's state line, not port 1's
assert e["line"] == 25, e
PY

# 3. JSON output carries rule/outcome/severity/subject/evidence/remediation per finding.
expect_rc 1 "json" "$rk" check -f json "$hosts/homelab-host02-cx4-100g-pcie-x8"
python3 - "$tmp/out" <<'PY' && ok || bad "json report shape"
import json, sys
r = json.load(open(sys.argv[1]))
f = [x for x in r["findings"] if x["rule"] == "pcie.link-at-capability" and x["subject"] == "0000:81:00.0"][0]
assert f["outcome"] == "fail" and f["severity"] == "error", f
assert f["evidence"][0]["file"] == "lspci_vvv@0000:81:00.0.txt" and f["evidence"][0]["line"] > 3, f
for k in ("rule", "outcome", "severity", "subject", "evidence", "remediation"):
    assert k in f
assert r["summary"]["fail"] >= 2
PY

# 4. Markdown output.
expect_rc 1 "markdown" "$rk" check -f markdown "$hosts/tf-gdr-k40-cx3-cross-socket"
grep -q '^| FAIL | error | `gpudirect.gpu-nic-affinity` | `gpu0` |' "$tmp/out" && ok || bad "markdown table row"

# 5. Snapshot save and reload give the same report.
expect_rc 1 "save snapshot" "$rk" check --save-snapshot "$tmp/snap.json" -f json -o "$tmp/a.json" "$hosts/cx4lx-4port-fw-mismatch"
expect_rc 1 "check snapshot" "$rk" check -f json -o "$tmp/b.json" "$tmp/snap.json"
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' && ok || bad "snapshot reload changes findings"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda r: [(f["rule"], f["subject"], f["outcome"]) for f in r["findings"]]
assert key(a) == key(b)
PY

# 6. Tarball input, including hostile entries (../ path, symlink): they are skipped and named.
mkdir -p "$tmp/t/cap"
cp "$hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt" "$tmp/t/cap/"
ln -s /etc/shadow "$tmp/t/cap/evil.txt"
(cd "$tmp/t" && tar czf "$tmp/cap.tar.gz" cap && tar czf "$tmp/evil.tar.gz" --absolute-names cap /etc/hostname "../$(basename "$tmp")/t/cap/mlnx_qos@eth4.txt" 2>/dev/null)
# A file that could not be used is never "healthy": exit 3, each one named on stderr.
expect_rc 3 "tarball" "$rk" check "$tmp/cap.tar.gz"
grep -q "evil.txt.*link entry: not followed" "$tmp/out" && ok || bad "symlink in tarball not reported"
grep -qx "rocekit: not judged: cap/evil.txt was not used (ignored)" "$tmp/err" && ok || bad "tarball: exit 3 reason not on stderr"
expect_rc 3 "tarball with unsafe paths" "$rk" check "$tmp/evil.tar.gz"
grep -q "unsafe path" "$tmp/out" && ok || bad "unsafe tar path not reported"
[ ! -e "$tmp/etc" ] && ok || bad "something was extracted"

# 6b. The same output as one file, from stdin, and in the other archive formats: the same
# findings as the directory (rule, subject, outcome).
q="$hosts/netarbiter-eth4-qos-healthy"
"$rk" check -f json -o "$tmp/dir.json" "$q" >/dev/null 2>&1; want_rc=$?
verdicts_match() { python3 - "$tmp/dir.json" "$1" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda r: sorted((f["rule"], f["subject"], f["outcome"]) for f in r["findings"])
assert key(a) == key(b) and len(key(a)) > 5, (key(a), key(b))
PY
}
expect_rc "$want_rc" "single named file" "$rk" check -f json -o "$tmp/one.json" "$q/mlnx_qos@eth4.txt"
verdicts_match "$tmp/one.json" && ok || bad "single file: findings differ from the directory"
{ echo '$ sudo mlnx_qos -i eth4'; sed '1,/^# ---$/d' "$q/mlnx_qos@eth4.txt"; } >"$tmp/paste.txt"
expect_rc "$want_rc" "stdin paste with a prompt" sh -c '"$1" check -f json -o "$2" - <"$3"' sh "$rk" "$tmp/stdin.json" "$tmp/paste.txt"
verdicts_match "$tmp/stdin.json" && ok || bad "stdin: findings differ from the directory"
"$rk" check --save-snapshot "$tmp/stdin-snap.json" - <"$tmp/paste.txt" >/dev/null 2>&1
grep -q '"kind": "capture_file"' "$tmp/stdin-snap.json" && ok || bad "stdin: source kind is not capture_file"
mkdir -p "$tmp/x/cap" && cp "$q/mlnx_qos@eth4.txt" "$tmp/x/cap/"
(cd "$tmp/x" && tar cJf "$tmp/cap.tar.xz" cap && tar cjf "$tmp/cap.tar.bz2" cap)
python3 - "$tmp/x/cap/mlnx_qos@eth4.txt" "$tmp/cap.zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[1], "cap/mlnx_qos@eth4.txt")
PY
for a in cap.tar.xz cap.tar.bz2 cap.zip; do
  expect_rc "$want_rc" "archive $a" "$rk" check -f json -o "$tmp/$a.json" "$tmp/$a"
  verdicts_match "$tmp/$a.json" && ok || bad "$a: findings differ from the directory"
done
head -c 4096 "$rk" >"$tmp/binary.txt"
expect_rc 3 "a binary file is reported under input problems, not a crash" "$rk" check "$tmp/binary.txt"
grep -q "binary.txt: binary content" "$tmp/out" && ok || bad "binary single file not reported"

# 7. Usage and input errors exit 2 with a message naming the input.
expect_rc 2 "missing input" "$rk" check /nonexistent/capture
grep -q "rocekit: error: /nonexistent/capture: no such file or directory" "$tmp/err" && ok || bad "error message"
expect_rc 2 "unknown option" "$rk" check --bogus "$hosts/netarbiter-eth4-qos-healthy"
printf 'roce:\n  prio: 3\n' >"$tmp/bad.yaml"
expect_rc 2 "bad policy" "$rk" check -p "$tmp/bad.yaml" "$hosts/netarbiter-eth4-qos-healthy"
grep -q "bad.yaml:2:3: unknown key 'prio'" "$tmp/err" && ok || bad "policy error lacks file:line:column"
printf '{"schema_version": 99}' >"$tmp/future.json"
expect_rc 2 "future snapshot" "$rk" check "$tmp/future.json"
printf 'not json' >"$tmp/garbage.json"
expect_rc 2 "garbage snapshot" "$rk" check "$tmp/garbage.json"
expect_rc 2 "live check, missing --root" "$rk" check --root "$tmp/no-such-root"

# 8. -o writes atomically: a failed run leaves no partial file.
expect_rc 2 "output to missing dir" "$rk" check -o "$tmp/nodir/report.txt" "$hosts/netarbiter-eth4-qos-healthy"
[ ! -e "$tmp/nodir" ] && ok || bad "partial output created"

# 9. rules, policy, parse.
expect_rc 0 "rules list" "$rk" rules list
[ "$(grep -c . "$tmp/out")" -eq 79 ] && ok || bad "rules list: not 79 rules"  # 42 host + 8 switch + 14 fleet + 15 diagnose
for fam in host switch fleet diagnose; do
  grep -q "^[a-z.0-9-]* *$fam " "$tmp/out" && ok || bad "rules list lacks the $fam family"
done
for id in fleet.pfc-consistent switch.roce-ecn diag.pause-storm; do
  expect_rc 0 "rules explain $id" "$rk" rules explain "$id"
  head -n 1 "$tmp/out" | grep -q "^$id: " && ok || bad "rules explain $id"
done
expect_rc 0 "rules explain" "$rk" rules explain pcie.max-read-request
grep -q "PCIE_MAX_READ_REQ" "$tmp/out" && ok || bad "explain lacks the seed correction"
expect_rc 2 "rules explain unknown" "$rk" rules explain no.such-rule
expect_rc 0 "policy show" "$rk" policy show
grep -q "dscp: 26" "$tmp/out" && ok || bad "policy show"
expect_rc 0 "parse auto" "$rk" parse auto "$hosts/netarbiter-eth4-qos-healthy/mlnx_qos@eth4.txt"
grep -q '"tool": "mlnx_qos"' "$tmp/out" && ok || bad "parse auto did not identify mlnx_qos"

# 10. docs/rules.md is current.
"$rk" rules list -f markdown >"$tmp/rules.md"
cmp -s "$tmp/rules.md" "$src/docs/rules.md" && ok || bad "docs/rules.md is stale: run rocekit rules list -f markdown > docs/rules.md"

# 11. Break-test regressions: duplicate tar entries, useless captures, colliding outputs,
#     out-of-range snapshot numbers, policy label, duplicate policy keys.
python3 - "$tmp/dup.tar.gz" "$hosts/roce-server-8dev-trust-pcp-pfc-off/mlnx_qos@ens6.txt" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    t.add(sys.argv[2], arcname="cap/mlnx_qos@ens6.txt")
    data = b"Priority trust state: dscp\n"
    info = tarfile.TarInfo("cap/mlnx_qos@ens6.txt"); info.size = len(data)
    t.addfile(info, io.BytesIO(data))
PY
# A capture with no usable file still gets its report (every rule unknown, the file under input
# problems) and exit 3: not judged, never healthy.
expect_rc 3 "tar with duplicate entries only" "$rk" check "$tmp/dup.tar.gz"
grep -q "entries with this name: none is used" "$tmp/out" && ok || bad "duplicate tar entry not reported"
mkdir -p "$tmp/useless" && : >"$tmp/useless/mlnx_qos@eth0.txt"
expect_rc 3 "capture with no usable file" "$rk" check "$tmp/useless"
grep -q "mlnx_qos@eth0.txt: empty file" "$tmp/out" && ok || bad "unusable file not under input problems"
grep -q "rocekit: not judged: mlnx_qos@eth0.txt was not used (error)" "$tmp/err" && ok || bad "no not-judged reason on stderr"
printf '```\n$ sudo mlnx_qos -i eth4\nPriority trust state: dscp\n```\n' >"$tmp/fenced.txt"
"$rk" check "$tmp/fenced.txt" --format json >"$tmp/out" 2>"$tmp/err"
grep -q '"subject": "eth4"' "$tmp/out" && ok || bad "a fenced one-command paste is not read"
expect_rc 2 "same file for -o and --save-snapshot" "$rk" check -o "$tmp/x.json" --save-snapshot "$tmp/x.json" "$hosts/netarbiter-eth4-qos-healthy"
"$rk" check --save-snapshot "$tmp/s.json" "$hosts/aerial-21-4-a100-cx6dx" >/dev/null
python3 - "$tmp/s.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["netdevs"][0]["mtu_bytes"]["value"] = 1e300
json.dump(s, open(sys.argv[1], "w"))
PY
expect_rc 2 "snapshot number out of range" "$rk" check "$tmp/s.json"
grep -q "number out of range at /netdevs/0/mtu_bytes/value" "$tmp/err" && ok || bad "out-of-range snapshot number"
printf 'roce: {priority: 3}\nroce: {priority: 4}\n' >"$tmp/dupkey.yaml"
expect_rc 2 "duplicate policy key" "$rk" policy show -p "$tmp/dupkey.yaml"
# policy validate: ok per file, the same file:line error as policy show on a bad one.
"$rk" policy show >"$tmp/good-policy.yaml" 2>/dev/null
expect_rc 0 "policy validate" "$rk" policy validate "$tmp/good-policy.yaml"
grep -q "^ok: $tmp/good-policy.yaml (policy " "$tmp/out" && ok || bad "policy validate ok line: $(cat "$tmp/out")"
expect_rc 2 "policy validate bad" "$rk" policy validate "$tmp/good-policy.yaml" "$tmp/dupkey.yaml"
grep -q "dupkey.yaml:[0-9]" "$tmp/err" && ok || bad "policy validate: no file:line: $(cat "$tmp/err")"
# parse --list: every tool id with its command.
expect_rc 0 "parse --list" "$rk" parse --list
grep -q "^mlnx_qos	" "$tmp/out" && ok || bad "parse --list lacks mlnx_qos"
expect_rc 2 "parse without args" "$rk" parse
printf 'roce: {priority: 4, pfc_priorities: [4], ecn_priorities: [4]}\n' >"$tmp/p4.yaml"
expect_rc 1 "policy label" "$rk" check -p "$tmp/p4.yaml" "$hosts/roce-server-8dev-trust-pcp-pfc-off"
grep -q "policy $tmp/p4.yaml:" "$tmp/out" && ok || bad "report does not name the policy file"
expect_rc 2 "parse a directory" "$rk" parse mlnx_qos "$tmp"
# parse: line numbers are lines of the file, capture header included (3 lines here).
printf '# source: typed by hand\n# notes: a second line\n# ---\nBOOT_IMAGE=/boot/vmlinuz root=/dev/sda1\nquiet\n' >"$tmp/cmdline.txt"
expect_rc 2 "parse: an error after a capture header" "$rk" parse proc_cmdline "$tmp/cmdline.txt"
grep -q '"error": "line 5: a second line' "$tmp/out" && ok || bad "parse error line not the file's: $(cat "$tmp/out")"
printf '# source: typed by hand\n# ---\n$ cat /etc/nccl.conf\nNCCL_IB_HCA=mlx5_0\nbogus\n' >"$tmp/nccl.conf.txt"
expect_rc 0 "parse: warnings after a header and a prompt line" "$rk" parse nccl_conf "$tmp/nccl.conf.txt"
python3 - "$tmp/out" <<'PY' && ok || bad "parse warning/value lines not the file's: $(cat "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert [w["line"] for w in j["warnings"]] == [5], j["warnings"]
assert [a["line"] for a in j["value"]["assignments"]] == [4], j["value"]
PY

# 11b. Strict policy and snapshot: a priority listed twice, an MTU no netdev has (exit 2, the
#      error names file:line:column or the JSON pointer).
printf 'roce:\n  pfc_priorities: [3, 3]\n' >"$tmp/twice.yaml"
expect_rc 2 "policy priority listed twice" "$rk" check -p "$tmp/twice.yaml" "$hosts/netarbiter-eth4-qos-healthy"
grep -qxF "rocekit: error: $tmp/twice.yaml:2:23: roce.pfc_priorities: priority 3 is listed twice" "$tmp/err" && ok || bad "policy: duplicate priority error text"
"$rk" snapshot "$hosts/netarbiter-eth4-qos-healthy" -o "$tmp/neg.json" >/dev/null 2>&1
python3 - "$tmp/neg.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["netdevs"][0]["mtu_bytes"]["value"] = -1
json.dump(s, open(sys.argv[1], "w"))
PY
expect_rc 2 "snapshot with a negative MTU" "$rk" check "$tmp/neg.json"
grep -qxF "rocekit: error: $tmp/neg.json: /netdevs/0/mtu_bytes/value: -1 is not an MTU (68..65535)" "$tmp/err" && ok || bad "snapshot: negative MTU error text"

# 12. Invalid UTF-8 inside a capture must not crash JSON output (fuzz regression).
mkdir -p "$tmp/utf"
printf 'Priority trust state: dscp\377\376\nPFC configuration:\n' >"$tmp/utf/mlnx_qos@eth9.txt"
expect_rc 3 "json with invalid UTF-8 input (nothing judged)" "$rk" check -f json "$tmp/utf"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" && ok || bad "invalid JSON output"
printf 'RoCE v2\377\n' >"$tmp/utf/cma.txt"
"$rk" parse cma_roce_mode "$tmp/utf/cma.txt" >/dev/null 2>&1; rc=$?
[ "$rc" -le 2 ] && ok || bad "parse crashed on invalid UTF-8 (exit $rc)"

# 13. ip_link captures feed net.mtu (per-netdev file; host-wide listings only update known netdevs).
mkdir -p "$tmp/ipl"
cp "$hosts/roce-server-8dev-trust-pcp-pfc-off/mlnx_qos@ens6.txt" "$tmp/ipl/"
printf '4: ens6: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode DEFAULT\n    link/ether 02:00:00:00:00:11 brd ff:ff:ff:ff:ff:ff\n1: lo: <LOOPBACK,UP> mtu 65536 qdisc noqueue state UNKNOWN\n' >"$tmp/ipl/ip_link.txt"
expect_rc 1 "ip_link mtu" "$rk" check --rule net --color never --detail "$tmp/ipl"
grep -q "FAIL     net.mtu .*MTU 1500 is below 4200" "$tmp/out" && ok || bad "net.mtu from ip_link"
grep -q "ip_link.txt:1: 4: ens6:" "$tmp/out" && ok || bad "ip_link evidence line"
grep -q "^lo" "$tmp/out" && bad "lo was judged" || ok
# An MTU no netdev has (here from a broken listing) is not written: the snapshot reads back.
sed 's/mtu 1500/mtu 70000/' "$tmp/ipl/ip_link.txt" >"$tmp/ipl/ip_link.txt.new" && mv "$tmp/ipl/ip_link.txt.new" "$tmp/ipl/ip_link.txt"
"$rk" snapshot "$tmp/ipl" -o "$tmp/ipl.json" >/dev/null 2>&1
expect_rc 3 "snapshot with an MTU out of range reads back (net.mtu then not judged)" "$rk" check "$tmp/ipl.json" --rule net
python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["netdevs"][0]["mtu_bytes"]; assert m["value"] is None and m["reason"] == "MTU 70000 as read is not an MTU (68..65535)", m' "$tmp/ipl.json" && ok || bad "out-of-range MTU written to the snapshot"

# 14. -o never replaces a device, FIFO or symlink; write errors are errors.
echo old >"$tmp/real.txt"; ln -s "$tmp/real.txt" "$tmp/link.txt"
expect_rc 0 "-o through a symlink" "$rk" check -o "$tmp/link.txt" "$hosts/netarbiter-eth4-qos-healthy"
[ -L "$tmp/link.txt" ] && grep -q "policy default" "$tmp/real.txt" && ok || bad "-o replaced the symlink"
expect_rc 0 "-o /dev/null" "$rk" check -o /dev/null "$hosts/netarbiter-eth4-qos-healthy"
[ -c /dev/null ] && ok || bad "/dev/null is no longer a device"
if [ -w /dev/full ]; then
  "$rk" rules list >/dev/full 2>"$tmp/err"; rc=$?
  [ "$rc" = 2 ] && grep -q "cannot write to standard output" "$tmp/err" && ok || bad "stdout write error ignored (exit $rc)"
fi

# 15. A hostile hostname (newline, ESC) cannot inject terminal escapes or report lines.
"$rk" snapshot "$hosts/netarbiter-eth4-qos-healthy" -o "$tmp/h.json" && ok || bad "snapshot for hostile name"
python3 - "$tmp/h.json" <<'PY' && ok || bad "could not edit the hostname"
import json, sys
j = json.load(open(sys.argv[1]))
j["hostname"] = "gpu01\n## injected\x1b[31m"
json.dump(j, open(sys.argv[1], "w"))
PY
for f in text markdown; do
  "$rk" check "$tmp/h.json" -f "$f" >"$tmp/out" 2>&1
  if grep -q "$(printf '\033')" "$tmp/out" || grep -q "^## injected" "$tmp/out"; then bad "check -f $f let the escape through"; else ok; fi
done
"$rk" fleet "$tmp/h.json" >"$tmp/out" 2>&1
if grep -q "$(printf '\033')" "$tmp/out" || grep -q "^## injected" "$tmp/out"; then bad "fleet let the escape through"; else ok; fi
"$rk" check "$tmp/h.json" >"$tmp/out" 2>&1; grep -qF 'rocekit check: gpu01\x0a## injected\x1b[31m' "$tmp/out" && ok || bad "check does not show the escaped hostname"

# The real uname (coreutils) of this machine: `uname -r` and `uname -a` both parse to its release.
if command -v uname >/dev/null 2>&1; then
  rel=$(uname -r)
  uname -r >"$tmp/uname_r.txt"
  uname -a >"$tmp/uname_a.txt"
  for f in uname_r uname_a; do
    expect_rc 0 "parse uname ($f)" "$rk" parse uname "$tmp/$f.txt"
    grep -qF "\"release\": \"$rel\"" "$tmp/out" && grep -q '"warnings": \[\]' "$tmp/out" && ok ||
      bad "the real $f output did not parse to release $rel"
  done
fi

# fw.driver-compat with a user's table (--compat): a real ConnectX-7 (mlxfwmanager, fw 28.44.1036)
# on MLNX_OFED 24.10-3.2.5.0, which the built-in table lacks (unknown), and the firmware its
# user's table gives (28.43.3608): a failure naming both versions. The mlxfwmanager output names
# the NIC by its MST path only, so the capture names the file by a PCI address.
mkdir -p "$tmp/cx7"
cp "$src/testdata/corpus/ofed_info/cn-note-cx7-mlnx-ofed-24.10-3.2.5.0-prompt.txt" "$tmp/cx7/ofed_info.txt"
cp "$src/testdata/corpus/flint/cn-note-cx7-mlxfwmanager-28.44-mst-name.txt" "$tmp/cx7/mlxfwmanager@0000:3b:00.0.txt"
expect_rc 3 "compat built-in" "$rk" check "$tmp/cx7" --rule fw.driver-compat -f json
grep -q 'MLNX_OFED_LINUX-24.10-3.2.5.0 is not in the compatibility table' "$tmp/out" && ok || bad "a release the table lacks is not unknown"
expect_rc 3 "compat user table (warning; no RDMA device in the capture)" "$rk" check "$tmp/cx7" --rule fw.driver-compat --compat "$src/testdata/compat/user-table-mlnx-ofed-24.10-3.2.5.0.json" -f json
grep -q 'firmware 28.44.1036 (ConnectX-7, by its firmware major) with MLNX_OFED 24.10-3.2.5.0: not in the release notes for this driver, which give 28.43.3608' "$tmp/out" && ok || bad "the user's table does not fail 28.44.1036"
expect_rc 1 "compat user table --fail-on warning" "$rk" check "$tmp/cx7" --rule fw.driver-compat --fail-on warning --compat "$src/testdata/compat/user-table-mlnx-ofed-24.10-3.2.5.0.json"
printf '{"schema": "fw-driver-compat/1",\n "rows": [ {"release": 1,} ]}\n' >"$tmp/bad-compat.json"
expect_rc 2 "compat syntax error" "$rk" check "$tmp/cx7" --compat "$tmp/bad-compat.json"
grep -q "bad-compat.json:2:" "$tmp/err" && ok || bad "a broken --compat file does not name its line"
printf '{"schema": "fw-driver-compat/1", "families": [{"family": "X", "fw_major": 1e999999}]}\n' >"$tmp/bad-compat3.json"
expect_rc 2 "compat number overflow" "$rk" check "$tmp/cx7" --compat "$tmp/bad-compat3.json"
grep -q "number out of range" "$tmp/err" && ok || bad "an overflowing number in --compat is not reported"
expect_rc 2 "compat directory" "$rk" check "$tmp/cx7" --compat "$tmp/cx7"
grep -q "is a directory" "$tmp/err" && ok || bad "--compat DIR is not refused as a directory"
printf '{"schema": "other/1"}\n' >"$tmp/bad-compat2.json"
expect_rc 2 "compat wrong schema" "$rk" check "$tmp/cx7" --compat "$tmp/bad-compat2.json"
grep -q 'not "fw-driver-compat/1"' "$tmp/err" && ok || bad "a wrong schema is not named"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

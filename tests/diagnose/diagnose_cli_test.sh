#!/bin/sh
# shellcheck disable=SC2015
# `rocekit diagnose` end to end: two captures of one host built from real corpus counter sets,
# formats, exit codes 0/1/2, and live sampling of this machine's sysfs counters.
# Usage: diagnose_cli_test.sh ROCEKIT_BINARY SOURCE_DIR
set -u
rk=$1
src=$2
corpus=$src/testdata/corpus
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

# Two captures 60 s apart: the real congested show_counters (ECN marks, CNPs) and the real
# ConnectX-4 Lx ethtool -S; AFTER adds 3,000,000 CE marks with np_cnp_sent flat and 6000
# out_of_sequence (PFC off: no rx_prio3_pause key).
for c in before after; do
  mkdir -p "$tmp/$c"
  printf 'mlx5_0 port 1 ==> eth0 (Up)\n' >"$tmp/$c/ibdev2netdev.txt"
  cp "$corpus/ethtool_S/ethq-fixture-mlx5-cx4lx-k4.15.txt" "$tmp/$c/ethtool_S@eth0.txt"
  cp "$corpus/sysfs/cn-notes-show_counters-mlx5_bond_0-congested.txt" "$tmp/$c/show_counters@mlx5_0.txt"
done
printf 'hostname: gpu-node-17\nstarted: 2026-11-30T04:00:00Z\nversion: 0.1.0\n' >"$tmp/before/rocekit-capture.log"
printf 'hostname: gpu-node-17\nstarted: 2026-11-30T04:01:00Z\nversion: 0.1.0\n' >"$tmp/after/rocekit-capture.log"
sed -i -e 's/^np_ecn_marked_roce_packets: 21278189006$/np_ecn_marked_roce_packets: 21281189006/' \
       -e 's/^out_of_sequence: 1811101$/out_of_sequence: 1817101/' "$tmp/after/show_counters@mlx5_0.txt"

expect_rc 1 "diagnose two captures with faults" "$rk" diagnose "$tmp/before" "$tmp/after"
grep -q "window 60 s (collected_at, 2 samples)" "$tmp/out" && ok || bad "no window line"
grep -q "diag.ecn-marks-no-cnp on eth0 (mlx5_0/1)" "$tmp/out" && ok || bad "no ecn-marks-no-cnp cause"
grep -q "diag.lossy-retransmission on eth0 (mlx5_0/1)" "$tmp/out" && ok || bad "no lossy-retransmission cause"
grep -q "rdma:out_of_sequence +6000 (100/s)" "$tmp/out" && ok || bad "no out_of_sequence evidence"
grep -q "rdma np_ecn_marked_roce_packets .* 3000000 *50000" "$tmp/out" && ok || bad "no rate table row"

expect_rc 1 "json" "$rk" diagnose -f json "$tmp/before" "$tmp/after"
python3 - "$tmp/out" <<'PY' && ok || bad "json shape"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["interval_s"] == 60 and r["has_fault"], r
ids = [c["id"] for c in r["causes"]]
assert "diag.ecn-marks-no-cnp" in ids and "diag.lossy-retransmission" in ids, ids
m = r["links"][0]["rdma"]["moved"]["out_of_sequence"]
assert m["delta"] == 6000 and m["rate_per_s"] == 100, m
PY
expect_rc 1 "markdown" "$rk" diagnose -f markdown "$tmp/before" "$tmp/after"
grep -q "^## Causes" "$tmp/out" && ok || bad "markdown heading"

# RoCE on priority 0 in both directions (issue #18): the real ConnectX-4 Lx ethtool -S twice, 60 s
# apart; AFTER adds 30 GB received and 24 GB transmitted on priority 0 (4000-byte frames) and the
# vport RDMA counters move with them. The same priority deltas with the vport RDMA counters flat
# are plain TCP: no cause.
for c in p0-before p0-after tcp-after; do
  mkdir -p "$tmp/$c"
  cp "$corpus/ethtool_S/ethq-fixture-mlx5-cx4lx-k4.15.txt" "$tmp/$c/ethtool_S@eth0.txt"
done
printf 'hostname: gpu-node-17\nstarted: 2026-11-30T04:00:00Z\nversion: 0.1.0\n' >"$tmp/p0-before/rocekit-capture.log"
for c in p0-after tcp-after; do
  printf 'hostname: gpu-node-17\nstarted: 2026-11-30T04:01:00Z\nversion: 0.1.0\n' >"$tmp/$c/rocekit-capture.log"
  sed -i -e 's/^rx_prio0_bytes: 2202570777997$/rx_prio0_bytes: 2232570777997/' \
         -e 's/^rx_prio0_packets: 845715962$/rx_prio0_packets: 853215962/' \
         -e 's/^tx_prio0_bytes: 2662454044895$/tx_prio0_bytes: 2686454044895/' \
         -e 's/^tx_prio0_packets: 896117891$/tx_prio0_packets: 902117891/' "$tmp/$c/ethtool_S@eth0.txt"
done
sed -i -e 's/^rx_vport_rdma_unicast_bytes: 0$/rx_vport_rdma_unicast_bytes: 29400000000/' \
       -e 's/^tx_vport_rdma_unicast_bytes: 0$/tx_vport_rdma_unicast_bytes: 23520000000/' "$tmp/p0-after/ethtool_S@eth0.txt"
expect_rc 1 "RoCE on priority 0" "$rk" diagnose "$tmp/p0-before" "$tmp/p0-after"
grep -q "\[warning/high\] diag.roce-in-priority-0 on eth0$" "$tmp/out" && ok || bad "no roce-in-priority-0 cause: $(grep 'diag\.' "$tmp/out")"
grep -q "transmitted and received RoCE ride priority 0, none on priority 3, with RDMA traffic flowing" "$tmp/out" && ok || bad "no direction text"
grep -q "eth:tx_prio0_bytes +24000000000 (400000000/s)" "$tmp/out" && ok || bad "no tx_prio0_bytes evidence"
grep -q "eth:rx_vport_rdma_unicast_bytes +29400000000 (490000000/s)" "$tmp/out" && ok || bad "no vport evidence"
grep -q "^    0         rx       30000000000      500000000          7500000         125000$" "$tmp/out" && ok || bad "no priority 0 rx row: $(grep -A4 'Traffic per priority' "$tmp/out")"
grep -q "^    RoCE priority 3: nothing moved$" "$tmp/out" && ok || bad "RoCE priority not said"
expect_rc 1 "RoCE on priority 0, JSON" "$rk" diagnose -f json "$tmp/p0-before" "$tmp/p0-after"
python3 - "$tmp/out" <<'PY' && ok || bad "priority json shape"
import json, sys
r = json.load(open(sys.argv[1]))
c = [c for c in r["causes"] if c["id"] == "diag.roce-in-priority-0"]
assert len(c) == 1 and c[0]["confidence"] == "high", r["causes"]
ev = {e["counter"]: e["delta"] for e in c[0]["evidence"]}
assert ev["rx_prio0_bytes"] == 30000000000 and ev["tx_prio3_bytes"] == 0, ev
p = r["links"][0]["priorities"]
assert [x["priority"] for x in p] == [0] and not p[0]["is_roce_priority"], p
assert p[0]["tx_packets"] == {"delta": 6000000, "rate_per_s": 100000.0}, p
PY
expect_rc 0 "plain TCP on priority 0" "$rk" diagnose "$tmp/p0-before" "$tmp/tcp-after"
grep -q "no cause found" "$tmp/out" && ok || bad "plain TCP on priority 0 is blamed: $(grep 'diag\.' "$tmp/out")"

# Same capture twice with an explicit interval: nothing moved, exit 0.
expect_rc 0 "no change" "$rk" diagnose "$tmp/before" "$tmp/before" --interval 10s
grep -q "no cause found" "$tmp/out" && ok || bad "quiet counters should give no cause"

# Usage and input errors exit 2.
expect_rc 2 "one input" "$rk" diagnose "$tmp/before"
expect_rc 2 "missing input" "$rk" diagnose "$tmp/before" "$tmp/nope"
rm "$tmp/before/rocekit-capture.log" "$tmp/after/rocekit-capture.log"
expect_rc 2 "no time and no interval" "$rk" diagnose "$tmp/before" "$tmp/after"
grep -q -- "--interval DURATION" "$tmp/err" && ok || bad "error should name --interval"
expect_rc 2 "bad interval" "$rk" diagnose --interval 0s
expect_rc 2 "count with inputs" "$rk" diagnose "$tmp/before" "$tmp/after" --count 3
expect_rc 2 "root with inputs" "$rk" diagnose "$tmp/before" "$tmp/after" --root /
# The old names of --interval and --root are gone: one name per concept.
expect_rc 2 "--interval-seconds is not an option" "$rk" diagnose "$tmp/before" "$tmp/after" --interval-seconds 10
grep -q "^rocekit: error: The following argument was not expected: --interval-seconds" "$tmp/err" && ok || bad "CLI11 error without rocekit prefix: $(cat "$tmp/err")"
expect_rc 2 "--sysroot is not an option" "$rk" diagnose --interval 1s --sysroot /

# A sample with no counters at all (only ibdev2netdev) is an input error naming that sample.
mkdir -p "$tmp/nocounters"
printf 'mlx5_0 port 1 ==> eth0 (Up)\n' >"$tmp/nocounters/ibdev2netdev.txt"
expect_rc 2 "a sample without counters" "$rk" diagnose "$tmp/before" "$tmp/nocounters" --interval 10s
grep -q "nocounters: no counters in this sample" "$tmp/err" && ok || bad "no-counter error should name the sample: $(cat "$tmp/err")"

# The 4-port ConnectX-4 Lx bundle (ibdev2netdev mlx5_0 port 1 ==> eth01, rdma statistic) plus the
# real ConnectX-4 Lx ethtool -S as eth01: the ethtool counters pair with mlx5_0/1 through
# ibdev2netdev, so a physical-discard cause names both. AFTER: rx_discards_phy +5000.
for c in b4 af; do
  cp -r "$src/testdata/hosts/cx4lx-4port-fw-mismatch" "$tmp/$c"
  cp "$corpus/ethtool_S/ethq-fixture-mlx5-cx4lx-k4.15.txt" "$tmp/$c/ethtool_S@eth01.txt"
done
sed -i 's/^rx_discards_phy: 0$/rx_discards_phy: 5000/' "$tmp/af/ethtool_S@eth01.txt"
expect_rc 1 "4-port bundle, discards on eth01" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval 10s
grep -q "diag.nic-rx-discards on eth01 (mlx5_0/1)" "$tmp/out" && ok || bad "eth01 not paired with mlx5_0/1: $(grep -n 'diag\.' "$tmp/out" | head -3)"

# --interval between two inputs: a duration from 1ms to one year (a bare number is seconds), else
# a clear exit 2 from the option parser.
for v in 0 inf nan 1e308 1e-300 -5 10x 2d 0x10 . 1.2.3s; do
  expect_rc 2 "--interval $v" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval "$v"
  grep -q -- "^rocekit: error: --interval: '$v' is" "$tmp/err" && ok || bad "--interval $v: $(cat "$tmp/err")"
done
for v in 0.001 1ms 31536000 10 10s 2m 1h; do
  expect_rc 1 "--interval $v" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval "$v"
done
expect_rc 1 "--interval 1h, JSON" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval 1h -f json
grep -q '"interval_s": 3600' "$tmp/out" && ok || bad "--interval 1h is not 3600 s: $(grep interval_s "$tmp/out")"

# --rule keeps the selected causes; an unknown id is an error with a suggestion; -q drops the table.
expect_rc 1 "--rule diag.nic-rx-discards" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval 10s --rule diag.nic-rx-discards
grep -c "^  [0-9]*\. \[" "$tmp/out" | grep -qx 1 && ok || bad "--rule should keep one cause: $(grep '^  [0-9]' "$tmp/out")"
expect_rc 2 "--rule typo" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval 10s --rule diag.nic-rx-discard
grep -q "did you mean 'diag.nic-rx-discards'" "$tmp/err" && ok || bad "no suggestion: $(cat "$tmp/err")"
expect_rc 2 "--rule of another command" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval 10s --rule qos.trust-dscp
grep -q "judged by .rocekit check., not .rocekit diagnose." "$tmp/err" && ok || bad "host rule to diagnose: $(cat "$tmp/err")"
expect_rc 1 "-q" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval 10s -q
grep -q "Counters that moved" "$tmp/out" && bad "-q should leave the counter table out" || ok
expect_rc 1 "--color always" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval 10s --color always
grep -q "$(printf '\033')\[1;31m  1\. \[" "$tmp/out" && ok || bad "--color always should paint the first cause"
expect_rc 0 "--fail-on critical" "$rk" diagnose "$tmp/b4" "$tmp/af" --interval 10s --fail-on critical

# Two collects of the DGX tree (no ethtool -S under --root): every RDMA port is paired with its
# netdev, and the PFC state comes from sysfs qos/pfc. AFTER: mlx5_0/1 out_of_sequence +6000.
"$rk" collect --root "$src/testdata/sysroots/dgx-h100-8gpu-8nic" -o "$tmp/dgx-a.json" >/dev/null 2>&1 || bad "collect dgx"
"$rk" collect --root "$src/testdata/sysroots/cx4lx-4port" -o "$tmp/cx4.json" >/dev/null 2>&1 || bad "collect cx4lx"
python3 - "$tmp/dgx-a.json" "$tmp/dgx-b.json" <<'PY' && ok || bad "edit dgx snapshot"
import json, sys
s = json.load(open(sys.argv[1]))
for d in s["rdma_devices"]:
    if d["name"] == "mlx5_0":
        d["ports"][0]["counters"]["value"]["out_of_sequence"] += 6000
json.dump(s, open(sys.argv[2], "w"))
PY
expect_rc 1 "dgx collects" "$rk" diagnose "$tmp/dgx-a.json" "$tmp/dgx-b.json" --interval 1m
grep -q "no netdev is linked" "$tmp/out" && bad "dgx: a port without its netdev" || ok
grep -q "diag.retransmission-despite-pfc on enp24s0np0 (mlx5_0/1)" "$tmp/out" && ok || bad "dgx: $(grep 'diag\.' "$tmp/out" | head -3)"
grep -q "PFC state from /sys/class/net/enp24s0np0/qos/pfc" "$tmp/out" && ok || bad "dgx: PFC source not named"

# Different hosts: by hostname when both have one, else by hardware identity (node_guid).
expect_rc 2 "different hosts (no hostname)" "$rk" diagnose "$tmp/cx4.json" "$tmp/dgx-a.json" --interval 1m
grep -q "different hosts: RDMA device mlx5_0 has node_guid" "$tmp/err" && ok || bad "different hosts evidence: $(cat "$tmp/err")"
python3 - "$tmp/dgx-b.json" "$tmp/dgx-c.json" <<'PY' && ok || bad "edit hostname"
import json, sys
s = json.load(open(sys.argv[1]))
s["hostname"] = "some-other-host"
json.dump(s, open(sys.argv[2], "w"))
PY
expect_rc 2 "different hostnames" "$rk" diagnose "$tmp/dgx-a.json" "$tmp/dgx-c.json" --interval 1m
grep -q "different hosts (.*, some-other-host)" "$tmp/err" && ok || bad "different hostnames: $(cat "$tmp/err")"

# Live: this machine's netdev counters; the RDMA part says there are none (when there are none).
if [ -d /sys/class/net ]; then
  expect_rc 0 "live" "$rk" diagnose --interval 1s --count 2
  grep -q "measured, 3 samples" "$tmp/out" && ok || bad "live window line"
  grep -q "^  lo" "$tmp/out" && ok || bad "live table lacks lo"
  if [ ! -d /sys/class/infiniband ]; then
    grep -q "no RDMA devices" "$tmp/out" && ok || bad "live should say no RDMA devices"
  fi
fi

echo "diagnose cli: $passed passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# Proof with real parts: Debian's prometheus scrapes `rocekit exporter --root <fixture>` on
# loopback with deploy/prometheus/rocekit-rules.yml loaded, and its HTTP API returns a RoCE
# counter (mlx5_0 out_of_buffer 135 in testdata/sysroots/cx4lx-4port), a per-priority counter
# (a corpus ethtool -S given with --ethtool-stats-dir) and the RoceConfigDrift
# alert firing for net.mtu on eth01 (MTU 1500 < 4200). `promtool check metrics` accepts the
# exposition. SIGTERM stops the exporter with exit 0. Prints "SKIP: <reason>" when prometheus,
# promtool or curl is missing. Every wait is bounded; children are always killed (trap).
# Usage: prometheus_test.sh ROCEKIT SOURCE_DIR
set -u
ROCEKIT=$1
SRC=$2
for tool in prometheus promtool curl python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not installed (apt-get install prometheus curl)"; exit 0; }
done
TMP=$(mktemp -d)
EXP_PID=
PROM_PID=
cleanup() {
  [ -n "$EXP_PID" ] && kill "$EXP_PID" 2>/dev/null
  [ -n "$PROM_PID" ] && kill "$PROM_PID" 2>/dev/null
  [ -n "$PROM_PID" ] && { i=0; while kill -0 "$PROM_PID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; kill -9 "$PROM_PID" 2>/dev/null; }
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; [ -f "$TMP/prom.log" ] && tail -20 "$TMP/prom.log"; [ -f "$TMP/exp.log" ] && tail -5 "$TMP/exp.log"; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
EP=$(free_port)
PP=$(free_port)
[ "$EP" != "$PP" ] || PP=$(free_port)

# eth01's ethtool -S: the real mlx5 capture of the corpus (rx_prio0_discards 58591314012).
mkdir "$TMP/ethtool"
cp "$SRC/testdata/corpus/ethtool_S/lore-xdp-regression-mlx5-k5.15.txt" "$TMP/ethtool/ethtool_S@eth01.txt"
"$ROCEKIT" exporter --listen "127.0.0.1:$EP" --root "$SRC/testdata/sysroots/cx4lx-4port" \
  --ethtool-stats-dir "$TMP/ethtool" --state-interval 1 >"$TMP/exp.log" 2>&1 &
EXP_PID=$!
i=0
until curl -fsS -m 2 "http://127.0.0.1:$EP/metrics" -o "$TMP/metrics.txt" 2>/dev/null; do
  i=$((i+1)); [ $i -lt 100 ] || fail "exporter did not answer on 127.0.0.1:$EP"; sleep 0.1
done
promtool check metrics <"$TMP/metrics.txt" >"$TMP/lint.txt" 2>&1 || { cat "$TMP/lint.txt"; fail "promtool check metrics rejected the exposition"; }
[ -s "$TMP/lint.txt" ] && { cat "$TMP/lint.txt"; fail "promtool check metrics reported problems"; }
echo "ok: promtool check metrics accepts $(grep -vc '^#' "$TMP/metrics.txt") samples"
code=$(curl -s -o /dev/null -w '%{http_code}' -m 2 "http://127.0.0.1:$EP/nope")
[ "$code" = 404 ] || fail "GET /nope returned $code, expected 404"

cat >"$TMP/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $SRC/deploy/prometheus/rocekit-rules.yml
scrape_configs:
  - job_name: rocekit
    static_configs:
      - targets: ['127.0.0.1:$EP']
YML
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/data" \
  --web.listen-address="127.0.0.1:$PP" >"$TMP/prom.log" 2>&1 &
PROM_PID=$!

query() {  # query PROMQL -> first sample value or ""
  curl -fsS -m 2 -G "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$1" 2>/dev/null |
    python3 -c 'import json,sys
try:
  r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")
except Exception: print("")'
}
i=0
while :; do
  v=$(query 'rocekit_out_of_buffer_drops_total{job="rocekit",device="mlx5_0",port="1",netdev="eth01"}')
  [ "$v" = 135 ] && break
  i=$((i+1)); [ $i -lt 120 ] || fail "prometheus never returned rocekit_out_of_buffer_drops_total 135 (last: '$v')"; sleep 0.5
done
echo "ok: /api/v1/query rocekit_out_of_buffer_drops_total{device=mlx5_0} = $v"
v=$(query 'rocekit_priority_discards_total{job="rocekit",netdev="eth01",direction="rx",priority="0"}')
[ "$v" = 58591314012 ] || fail "rocekit_priority_discards_total{priority=0} is '$v', expected 58591314012"
echo "ok: /api/v1/query rocekit_priority_discards_total{netdev=eth01,priority=0} = $v"

i=0
while :; do
  state=$(curl -fsS -m 2 "http://127.0.0.1:$PP/api/v1/alerts" 2>/dev/null | python3 -c 'import json,sys
try:
  a=json.load(sys.stdin)["data"]["alerts"]
  print(" ".join(x["state"] for x in a if x["labels"].get("alertname")=="RoceConfigDrift" and x["labels"].get("rule")=="net.mtu" and x["labels"].get("subject")=="eth01"))
except Exception: print("")')
  [ "$state" = firing ] && break
  i=$((i+1)); [ $i -lt 120 ] || fail "RoceConfigDrift for net.mtu/eth01 not firing (state: '$state')"; sleep 0.5
done
echo "ok: /api/v1/alerts RoceConfigDrift{rule=net.mtu,subject=eth01} firing"
# A healthy rule does not fire: no RoceConfigDrift for a passing rule.
v=$(query 'count(ALERTS{alertname="RoceConfigDrift"}) - count(rocekit_rule_status == 1)')
[ "$v" = 0 ] || fail "RoceConfigDrift alerts do not match the failing rules (difference '$v')"
echo "ok: one RoceConfigDrift alert per failing rule"

kill -TERM "$EXP_PID"
i=0
while kill -0 "$EXP_PID" 2>/dev/null; do
  i=$((i+1)); [ $i -lt 100 ] || fail "exporter ignored SIGTERM for 10 s"; sleep 0.1
done
wait "$EXP_PID"; rc=$?
EXP_PID=
[ "$rc" = 0 ] || fail "exporter exited $rc on SIGTERM, expected 0"
echo "ok: SIGTERM -> exit 0"
echo PASS

#!/bin/sh
# deploy/npd and deploy/nhc with the real rocekit on bundles of each exit code. NPD and NHC are
# not Debian packages, so: the NPD plugin's exit code and message against NPD's protocol (0 OK,
# 1 NonOK, else Unknown; pkg/custompluginmonitor/plugin/plugin.go) and its monitor config
# against the checks NPD's config.go makes (plugin "custom", rule timeout <= global timeout,
# the permanent rule's condition has a default, the plugin path's file name); check_rocekit
# sourced in bash with NHC's die/log/dbg stubbed as NHC defines them (mej/nhc, nhc).
# Usage: npd_nhc_test.sh ROCEKIT SOURCE_DIR
set -u
RK=$1
SRC=$2
H=$SRC/testdata/hosts
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# NPD plugin: bundle, rocekit's exit, the plugin's exit, the message's start.
npd() {
  out=$(ROCEKIT="$RK" sh "$SRC/deploy/npd/rocekit-check.sh" "$1")
  rc=$?
  [ "$rc" = "$2" ] || fail "npd plugin on $1 exited $rc, wanted $2 ($out)"
  case "$out" in "$3"*) ;; *) fail "npd plugin on $1 printed '$out', wanted '$3...'" ;; esac
  [ "$(printf '%s' "$out" | wc -c)" -le 200 ] || fail "npd message over 200 bytes: $out"
  echo "npd $rc: $out"
}
npd "$H/roce-server-8dev-trust-pcp-pfc-off" 1 "FAIL: "
npd "$H/netarbiter-eth4-qos-healthy" 0 "OK: "
npd "$H/cx7-vf-lspci-not-applicable" 2 "UNKNOWN: "
npd "$H/no-such-capture" 2 "UNKNOWN: rocekit check exited 2: rocekit: error: "

if command -v python3 >/dev/null 2>&1; then
  python3 - "$SRC/deploy/npd/rocekit-plugin-monitor.json" <<'EOF' || fails=$((fails + 1))
import json, re, sys
c = json.load(open(sys.argv[1]))
def secs(d):
    m = re.fullmatch(r"(\d+)(s|m|h)", d)
    assert m, f"duration {d!r} is not a Go duration this test reads"
    return int(m[1]) * {"s": 1, "m": 60, "h": 3600}[m[2]]
assert c["plugin"] == "custom", c["plugin"]
g = c["pluginConfig"]
assert g["max_output_length"] >= 200, g
defaults = {x["type"] for x in c["conditions"]}
for r in c["rules"]:
    assert r["type"] in ("temporary", "permanent"), r
    assert secs(r["timeout"]) <= secs(g["timeout"]), "rule timeout above the global timeout"
    assert r["type"] != "permanent" or r["condition"] in defaults, "permanent rule without a default condition"
    assert r["path"].endswith("/rocekit-check.sh"), r["path"]
print("npd config: plugin custom, timeouts", g["timeout"], "interval", g["invoke_interval"])
EOF
fi

# NHC: check_rocekit with die/log/dbg as NHC has them (die logs, marks offline, exits).
nhc() {
  out=$(ROCEKIT="$RK" bash -c '
    die() { echo "DIE $1: $2"; exit 1; }
    log() { echo "LOG: $*"; }
    dbg() { echo "DBG: $*"; }
    . "$1"; shift
    check_rocekit "$@" && echo "RC 0"' nhc "$SRC/deploy/nhc/rocekit.nhc" "$@" 2>&1)
  echo "nhc: $out"
}
case "$(nhc "$H/roce-server-8dev-trust-pcp-pfc-off")" in
  "nhc: DIE 1: check_rocekit: FAIL: qos."*) ;; *) fail "nhc on a failing capture: $(nhc "$H/roce-server-8dev-trust-pcp-pfc-off")" ;;
esac
case "$(nhc "$H/netarbiter-eth4-qos-healthy")" in
  *"DBG: check_rocekit: OK: "*"RC 0") ;; *) fail "nhc on a passing capture: $(nhc "$H/netarbiter-eth4-qos-healthy")" ;;
esac
case "$(nhc "$H/cx7-vf-lspci-not-applicable")" in
  *"LOG: check_rocekit: UNKNOWN: "*"RC 0") ;; *) fail "nhc on a not-judged capture: $(nhc "$H/cx7-vf-lspci-not-applicable")" ;;
esac
case "$(ROCEKIT_NHC_UNKNOWN=die nhc "$H/cx7-vf-lspci-not-applicable")" in
  "nhc: DIE 1: check_rocekit: UNKNOWN: "*) ;; *) fail "nhc ROCEKIT_NHC_UNKNOWN=die did not die" ;;
esac
case "$(nhc "$H/no-such-capture")" in
  "nhc: DIE 1: check_rocekit: "*" check exited 2") ;; *) fail "nhc on a usage error: $(nhc "$H/no-such-capture")" ;;
esac
nhc "$H/roce-server-8dev-trust-pcp-pfc-off" --fail-on critical

if command -v shellcheck >/dev/null 2>&1; then
  shellcheck "$SRC/deploy/npd/rocekit-check.sh" "$SRC/deploy/slurm/rocekit-healthcheck.sh" || fail "shellcheck"
  shellcheck -s bash "$SRC/deploy/nhc/rocekit.nhc" || fail "shellcheck nhc"
fi
[ $fails = 0 ] || exit 1
echo "PASS: npd plugin and nhc check"

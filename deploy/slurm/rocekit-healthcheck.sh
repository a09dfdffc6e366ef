#!/bin/sh
# Slurm HealthCheckProgram: drain this node when `rocekit check` fails, resume it when a node
# that rocekit drained passes again. Nodes drained for any other reason are never touched.
#
# slurm.conf (docs/gates.md):
#   HealthCheckProgram=/usr/local/sbin/rocekit-healthcheck.sh
#   HealthCheckInterval=300
#   HealthCheckNodeState=ANY
#
# slurmd runs it as root with no arguments. Settings, from the environment (or
# the file $ROCEKIT_DEFAULTS, default /etc/default/rocekit-healthcheck, read first when it exists):
#   ROCEKIT            rocekit binary (default: rocekit on PATH)
#   ROCEKIT_INPUT      a capture or snapshot to judge instead of this host live (tests, or a
#                      capture written by a cron job); also the first argument
#   ROCEKIT_ARGS       more `rocekit check` arguments, e.g. "-p /etc/rocekit/site.yaml"
#   ROCEKIT_NODE       the Slurm node name (default: $SLURMD_NODENAME, else hostname -s)
#   ROCEKIT_ON_UNKNOWN "drain" to drain when rocekit cannot judge the host (exit 3); default
#                      "log": only log it
#   SLURM_CONF         for scontrol, when slurm.conf is not at its default path: slurmd runs
#                      the program with SLURMD_NODENAME but does not pass SLURM_CONF on
#
# Exit codes (rocekit check's, docs/check.md): 0 pass -> resume if rocekit drained the node;
# 1 fail -> drain with reason "rocekit: <verdict>"; 3 not judged -> log (or drain); 2 usage or
# input error -> log, node untouched. The script exits with rocekit's code.
#
# scontrol update nodename=N state=drain reason=...  and  state=resume: scontrol(1).

defaults=${ROCEKIT_DEFAULTS:-/etc/default/rocekit-healthcheck}
# shellcheck source=/dev/null
[ -r "$defaults" ] && . "$defaults"

ROCEKIT=${ROCEKIT:-rocekit}
INPUT=${1:-${ROCEKIT_INPUT:-}}
NODE=${ROCEKIT_NODE:-${SLURMD_NODENAME:-$(hostname -s)}}
ON_UNKNOWN=${ROCEKIT_ON_UNKNOWN:-log}
PREFIX="rocekit:"

log() {
  logger -t rocekit-healthcheck -- "$*" 2>/dev/null || true
  echo "rocekit-healthcheck: $*" >&2
}

# The node's state flags (IDLE+DRAIN) and its reason without the " [user@time]" Slurm appends.
node_state() { scontrol show node "$NODE" 2>/dev/null | sed -n 's/^ *State=\([^ ]*\).*/\1/p' | head -n 1; }
node_reason() {
  scontrol show node "$NODE" 2>/dev/null | sed -n 's/^ *Reason=//p' | head -n 1 | sed 's/ \[[^]]*\]$//'
}

drained_by_us() {
  case "$(node_reason)" in "$PREFIX"*) return 0 ;; *) return 1 ;; esac
}

drain() {
  state=$(node_state)
  case "$state" in
    *DRAIN*)
      # Drained for another reason: leave it (and its reason) to whoever drained it.
      if ! drained_by_us; then
        log "$NODE already drained ($(node_reason)); not changing it: $1"
        return 0
      fi ;;
  esac
  scontrol update nodename="$NODE" state=drain reason="$PREFIX $1" || log "scontrol drain of $NODE failed"
}

resume() {
  case "$(node_state)" in
    *DRAIN*)
      if drained_by_us; then
        scontrol update nodename="$NODE" state=resume || log "scontrol resume of $NODE failed"
      fi ;;
  esac
}

errfile=$(mktemp "${TMPDIR:-/tmp}/rocekit-healthcheck.XXXXXX") || exit 2
# No INPUT: this host, live. ROCEKIT_ARGS is a list of words.
# shellcheck disable=SC2086
verdict=$("$ROCEKIT" check ${INPUT:+"$INPUT"} --format verdict $ROCEKIT_ARGS 2>"$errfile")
rc=$?
err=$(head -n 1 "$errfile")
rm -f "$errfile"

case $rc in
  0) resume ;;
  1) drain "$verdict" ;;
  3)
    if [ "$ON_UNKNOWN" = drain ]; then drain "$verdict"; else log "$NODE not judged: $verdict"; fi ;;
  *) log "rocekit check exited $rc on $NODE: ${err:-no message}" ;;
esac
exit $rc

#!/bin/sh
# node-problem-detector custom plugin (rocekit-plugin-monitor.json): `rocekit check` of this host
# as NPD's plugin protocol wants it. NPD reads the first max_output_length bytes of standard
# output as the condition's message and the exit code as the status
# (pkg/custompluginmonitor/types/types.go: OK 0, NonOK 1, Unknown 2).
#
#   rocekit check exit          ->  plugin exit
#   0 no failure                ->  0 OK
#   1 failure at --fail-on      ->  1 NonOK (the condition becomes True)
#   3 not judged                ->  2 Unknown
#   2 usage or input error      ->  2 Unknown (rocekit's error line is the message)
#   anything else (a crash)     ->  2 Unknown
#
# Settings from the environment: ROCEKIT (binary, default rocekit on PATH), ROCEKIT_INPUT (a
# capture or snapshot instead of this host live; also the first argument), ROCEKIT_ARGS (more
# `rocekit check` arguments, e.g. "-p /etc/rocekit/site.yaml --root /host").

ROCEKIT=${ROCEKIT:-rocekit}
INPUT=${1:-${ROCEKIT_INPUT:-}}

errfile=$(mktemp "${TMPDIR:-/tmp}/rocekit-npd.XXXXXX") || { echo "UNKNOWN: mktemp failed"; exit 2; }
# No INPUT: this host, live. ROCEKIT_ARGS is a list of words.
# shellcheck disable=SC2086
verdict=$("$ROCEKIT" check ${INPUT:+"$INPUT"} --format verdict $ROCEKIT_ARGS 2>"$errfile")
rc=$?
err=$(head -n 1 "$errfile")
rm -f "$errfile"

case $rc in
  0) echo "$verdict"; exit 0 ;;
  1) echo "$verdict"; exit 1 ;;
  3) echo "$verdict"; exit 2 ;;
  *) echo "UNKNOWN: rocekit check exited $rc: ${err:-no message}" | cut -c 1-200; exit 2 ;;
esac

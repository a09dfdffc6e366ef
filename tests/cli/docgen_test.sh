#!/bin/sh
# The generated man pages and bash completion (rocekit-docgen, src/rocekit/cli/docgen.cpp) against
# the executables' own --help: a page per command, every option of a command's --help on its
# page, no groff warnings, the exit codes, and the completion as bash runs it.
# Usage: docgen_test.sh ROCEKIT BUILD_DIR
set -u
rk=$1
man1=$2/man/man1
comp=$2/completions
fails=0
ok() { :; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
export ASAN_OPTIONS=detect_leaks=0 LC_ALL=C.UTF-8

# Every command of `rocekit --help`, and each of their subcommands, has its page.
subs=$("$rk" --help | awk '/^Subcommands:/ {on=1; next} on && /^  [a-z]/ {print $1}')
[ -n "$subs" ] || bad "no subcommands in rocekit --help"
for s in $subs; do
  [ -f "$man1/rocekit-$s.1" ] || { bad "no page rocekit-$s.1"; continue; }
  if [ "$s" = exporter ]; then help=$("$(dirname "$rk")/rocekit-exporter" --help); else help=$("$rk" "$s" --help); fi
  for o in $(printf '%s\n' "$help" | grep -o -- ' --[a-z][a-z0-9-]*' | sort -u); do
    pat=$(printf '%s' "$o" | sed 's/^ //; s/-/\\\\-/g')
    grep -q -- "$pat" "$man1/rocekit-$s.1" || bad "rocekit-$s.1 lacks $o"
  done
  for n in $(printf '%s\n' "$help" | awk '/^Subcommands:/ {on=1; next} on && /^  [a-z]/ {print $1}'); do
    [ -f "$man1/rocekit-$s-$n.1" ] || bad "no page rocekit-$s-$n.1"
  done
done
[ "$(ls "$man1" | wc -l)" -ge 20 ] || bad "only $(ls "$man1" | wc -l) pages"

# groff reads every page without a warning; the rendered check page has its exit codes.
for f in "$man1"/*.1; do
  w=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
  [ -z "$w" ] || bad "$(basename "$f"): $w"
done
page=$(MANWIDTH=120 man -l "$man1/rocekit-check.1" 2>/dev/null)
printf '%s\n' "$page" | grep -q '^EXIT STATUS' || bad "rocekit-check.1 has no EXIT STATUS"
printf '%s\n' "$page" | grep -Eq '^ +3 +not +judged:' || bad "rocekit-check.1 lacks exit code 3"
choices=$("$rk" check --help | sed -n 's/.*--format TEXT:{\([^}]*\)}.*/\1/p' | tr , '|')
[ -n "$choices" ] || bad "no --format choices in rocekit check --help"
printf '%s\n' "$page" | grep -qF -- "-f, --format $choices" || bad "rocekit-check.1 lacks --format's choices ($choices)"
printf '%s\n' "$page" | grep -q 'rocekit check \[OPTIONS\] \[input\]' || bad "rocekit-check.1 synopsis"
"$rk" check --help | grep -q '^  3  not judged' || bad "rocekit check --help lacks exit code 3"
MANWIDTH=120 man -l "$man1/rocekit-exporter.1" 2>/dev/null | grep -q '^       rocekit-exporter \[OPTIONS\]' \
  || bad "rocekit-exporter.1 lacks the rocekit-exporter synopsis"
MANWIDTH=120 man -l "$man1/rocekit.1" 2>/dev/null | grep -q 'rocekit-switch(1)' || bad "rocekit.1 does not point at rocekit-switch(1)"
grep -qF '.TH ROCEKIT\-CHECK 1 "" "rocekit '"$("$rk" --version)"'"' "$man1/rocekit-check.1" || bad "rocekit-check.1 lacks the version"

# The completion: valid bash, and what it offers.
for f in "$comp/rocekit" "$comp/rocekit-exporter"; do bash -n "$f" || bad "bash -n $f"; done
complete_words() {  # PROGRAM WORDS... -> COMPREPLY
  prog=$1
  shift
  bash -c '. "$1"; shift; fn=$1; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "$fn"; echo "${COMPREPLY[*]}"' \
    sh "$comp/$prog" "_$(echo "$prog" | tr - _)" "$prog" "$@"
}
want() { got=$(complete_words "$@"); [ "$got" = "$exp" ] || bad "completion of '$*': '$got', want '$exp'"; }
exp="check"; want rocekit ch
exp="--format --fail-on"; want rocekit check --f
exp="text json markdown junit verdict"; want rocekit check -f ""
exp="warning"; want rocekit check --fail-on w
exp="list explain -h --help"; want rocekit rules ""
exp="show check -h --help"; want rocekit switch ""
exp="--listen"; want rocekit-exporter --li
exp="--textfile"; want rocekit exporter --textf
cd "$(dirname "$0")/../.." || exit 1
exp="testdata/hosts/roce-server-8dev-trust-pcp-pfc-off"; want rocekit check testdata/hosts/roce-server-8dev-trust
[ "$fails" = 0 ] || { echo "docgen_test: $fails failure(s)"; exit 1; }
echo "docgen_test: ok"

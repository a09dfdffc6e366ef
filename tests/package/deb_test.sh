#!/bin/sh
# The Debian packages as a user meets them (issue "Install it where GPU nodes run"):
#   1. their contents and control fields (no root needed): binaries, man pages, completion,
#      copyright, the unit and its conffile, Depends from dpkg-shlibdeps;
#   2. `apt-get install ./rocekit_*.deb ./rocekit-exporter_*.deb` into a fresh Debian 12 root
#      made by mmdebstrap, and there: --version, `rocekit check` on a bundled capture (exit 1 and
#      the bundle's expected findings), `man -w`, the completion under `bash -n` and in use,
#      `rocekit exporter --version` (rocekit execs its sibling), then purge leaves no file.
# Step 2 needs root and mmdebstrap (and Debian's mirror); without them it says SKIP.
# Usage: deb_test.sh [DEB_DIR] (default build/package/deb, made by scripts/package-deb.sh).
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
DEBS=$(cd "${1:-$SRC/build/package/deb}" && pwd)
BUNDLE=$SRC/testdata/hosts/roce-server-8dev-trust-pcp-pfc-off
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
cli=$(ls "$DEBS"/rocekit_*.deb)
exp=$(ls "$DEBS"/rocekit-exporter_*.deb)
version=$(dpkg-deb -f "$cli" Version)
upstream=${version%-*}

# 1. Contents and control fields.
contents() { dpkg-deb -c "$1" | awk '{print $6}' | sed 's|^\./|/|'; }
contents "$cli" >"${TMPDIR:-/tmp}/rk-cli.list"
contents "$exp" >"${TMPDIR:-/tmp}/rk-exp.list"
for f in /usr/bin/rocekit /usr/bin/rocekit-capture /usr/share/man/man1/rocekit.1.gz /usr/share/man/man1/rocekit-capture.1.gz \
         /usr/share/man/man1/rocekit-check.1.gz /usr/share/man/man1/rocekit-switch-check.1.gz \
         /usr/share/bash-completion/completions/rocekit /usr/share/doc/rocekit/copyright \
         /usr/share/doc/rocekit/changelog.Debian.gz /usr/share/doc/rocekit/check.md; do
  grep -qx "$f" "${TMPDIR:-/tmp}/rk-cli.list" && ok "rocekit ships $f" || bad "rocekit lacks $f"
done
for f in /usr/bin/rocekit-exporter /usr/share/man/man1/rocekit-exporter.1.gz \
         /usr/share/bash-completion/completions/rocekit-exporter /lib/systemd/system/rocekit-exporter.service \
         /etc/default/rocekit-exporter /usr/share/rocekit-exporter/prometheus/rocekit-rules.yml \
         /usr/share/rocekit-exporter/grafana/rocekit-host.json /usr/share/doc/rocekit-exporter/copyright \
         /usr/share/doc/rocekit-exporter/policy.example.yaml; do
  grep -qx "$f" "${TMPDIR:-/tmp}/rk-exp.list" && ok "rocekit-exporter ships $f" || bad "rocekit-exporter lacks $f"
done
grep -q '/usr/bin/rocekit-exporter$' "${TMPDIR:-/tmp}/rk-cli.list" && bad "rocekit also ships rocekit-exporter" || ok "one package per file"
for deb in "$cli" "$exp"; do
  deps=$(dpkg-deb -f "$deb" Depends)
  case "$deps" in *"libc6 (>="*"libstdc++6 (>="*) ok "$(basename "$deb") Depends from shlibs: $deps" ;;
                  *) bad "$(basename "$deb") Depends lacks shlibs versions: $deps" ;; esac
done
case $(dpkg-deb -f "$cli" Depends) in *libarchive13*) ok "rocekit depends on libarchive13" ;; *) bad "rocekit lacks libarchive13" ;; esac
case $(dpkg-deb -f "$exp" Depends) in *libevent*) ok "rocekit-exporter depends on libevent" ;; *) bad "rocekit-exporter lacks libevent" ;; esac
case $(dpkg-deb -f "$exp" Depends) in *libarchive*) bad "rocekit-exporter depends on libarchive (it links no capture reader)" ;; *) ok "rocekit-exporter does not need libarchive" ;; esac
case $(dpkg-deb -f "$cli" Depends) in *libsimdjson*) ok "rocekit depends on libsimdjson (the fleet's snapshot reader)" ;; *) bad "rocekit lacks libsimdjson" ;; esac
case $(dpkg-deb -f "$exp" Depends) in *libsimdjson*) bad "rocekit-exporter depends on libsimdjson (it reads no snapshots in bulk)" ;; *) ok "rocekit-exporter does not need libsimdjson" ;; esac
case $(dpkg-deb -f "$cli" Depends) in *libjemalloc2*) ok "rocekit depends on libjemalloc2 (its allocator)" ;; *) bad "rocekit lacks libjemalloc2" ;; esac
dpkg-deb -I "$exp" conffiles | grep -qx /etc/default/rocekit-exporter && ok "conffile marked" || bad "/etc/default/rocekit-exporter is not a conffile"
grep -q '^ExecStart=/usr/bin/rocekit-exporter \$ARGS$' "$(dpkg-deb --fsys-tarfile "$exp" | tar -xO ./lib/systemd/system/rocekit-exporter.service >"${TMPDIR:-/tmp}/rk.service"; echo "${TMPDIR:-/tmp}/rk.service")" \
  && ok "unit runs /usr/bin/rocekit-exporter" || bad "unit ExecStart: $(grep ExecStart "${TMPDIR:-/tmp}/rk.service")"

# 2. Installed with apt-get into a fresh bookworm root.
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: not root: no chroot install test"
elif ! command -v mmdebstrap >/dev/null 2>&1; then
  echo "SKIP: mmdebstrap not installed: no chroot install test"
else
  root=$(mktemp -d /tmp/rk-deb-root.XXXXXX)
  trap 'rm -rf "$root"' EXIT
  if ! mmdebstrap --quiet --variant=apt --include=man-db,bash-completion bookworm "$root" \
        --customize-hook="copy-in $cli $exp /tmp" \
        --customize-hook='chroot "$1" sh -c "cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./rocekit_*.deb ./rocekit-exporter_*.deb"' \
        >"$root.log" 2>&1; then
    tail -20 "$root.log"
    bad "mmdebstrap with apt-get install ./rocekit_*.deb failed"
  else
    ok "apt-get install ./rocekit_*.deb ./rocekit-exporter_*.deb in a fresh bookworm root"
    cp -a "$BUNDLE" "$root/root/"  # after mmdebstrap, whose cleanup empties /tmp
    in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
    v=$(in_root rocekit --version)
    [ "$v" = "$upstream" ] && ok "rocekit --version: $v" || bad "rocekit --version: '$v', package $upstream"
    v=$(in_root rocekit-exporter --version)
    [ "$v" = "$upstream" ] && ok "rocekit-exporter --version: $v" || bad "rocekit-exporter --version: '$v'"
    v=$(in_root rocekit exporter --version)
    [ "$v" = "$upstream" ] && ok "rocekit exporter --version runs the sibling" || bad "rocekit exporter --version: '$v'"
    rc=0
    in_root rocekit check /root/roce-server-8dev-trust-pcp-pfc-off -f json >"$root.report.json" || rc=$?
    [ "$rc" = 1 ] && ok "rocekit check: exit 1" || bad "rocekit check: exit $rc, want 1"
    python3 - "$root.report.json" "$BUNDLE/expected.json" <<'PY' && ok "rocekit check: the bundle's expected findings" || bad "findings differ from expected.json"
import json, sys
got = {(f["rule"], f["subject"]): f["outcome"] for f in json.load(open(sys.argv[1]))["findings"]}
rows = json.load(open(sys.argv[2]))["findings"]
for row in rows:
    key = (row["rule"], row["subject"])
    assert got.get(key) == row["outcome"], (key, got.get(key), row["outcome"])
assert any(r["outcome"] == "fail" for r in rows)
PY
    rc=0
    in_root rocekit check /root/roce-server-8dev-trust-pcp-pfc-off >"$root.report.txt" || rc=$?
    grep -q 'qos.trust-dscp' "$root.report.txt" && ok "text report names qos.trust-dscp" || bad "text report lacks qos.trust-dscp"
    w=$(in_root man -w rocekit-check)
    [ "$w" = /usr/share/man/man1/rocekit-check.1.gz ] && ok "man -w rocekit-check: $w" || bad "man -w rocekit-check: '$w'"
    in_root sh -c 'MANPAGER=cat MANWIDTH=100 man rocekit-check 2>&1' | grep -q -- '--fail-on' \
      && ok "man rocekit-check documents --fail-on" || bad "man rocekit-check lacks --fail-on"
    in_root sh -c 'MANPAGER=cat MANWIDTH=100 man rocekit-exporter 2>&1' | grep -q -- '--listen' \
      && ok "man rocekit-exporter documents --listen" || bad "man rocekit-exporter lacks --listen"
    in_root bash -n /usr/share/bash-completion/completions/rocekit && ok "bash -n completion (rocekit)" || bad "bash -n completion (rocekit)"
    in_root bash -n /usr/share/bash-completion/completions/rocekit-exporter && ok "bash -n completion (rocekit-exporter)" || bad "bash -n completion (rocekit-exporter)"
    got=$(in_root bash -c '. /usr/share/bash-completion/completions/rocekit
      COMP_WORDS=(rocekit check --fail-on w); COMP_CWORD=3; _rocekit; echo "${COMPREPLY[*]}"')
    [ "$got" = warning ] && ok "completion: rocekit check --fail-on w -> warning" || bad "completion gave '$got'"
    in_root apt-get purge -y -qq rocekit rocekit-exporter >/dev/null 2>&1
    left=$(cd "$root" && ls usr/bin/rocekit usr/bin/rocekit-exporter etc/default/rocekit-exporter \
             usr/share/doc/rocekit 2>/dev/null || true)
    [ -z "$left" ] && ok "apt-get purge removes every file" || bad "left after purge: $left"
  fi
  rm -f "$root.log" "$root.report.json" "$root.report.txt"
fi
[ "$fails" = 0 ] || { echo "deb_test: $fails failure(s)"; exit 1; }
echo "deb_test: all passed"

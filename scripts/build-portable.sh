#!/bin/sh
# Portable release tarballs (docs/install.md "Portable binaries"): fully static rocekit and
# rocekit-exporter (presets portable, portable-arm64; cmake/Portable.cmake), debug info split off,
# per architecture
#   build/portable-dist/rocekit-<version>-linux-<arch>.tar.gz         what `cmake --install` installs, README
#   build/portable-dist/rocekit-<version>-linux-<arch>-debug.tar.gz   bin/.debug/*.debug
# and build/portable-dist/SHA256SUMS. arm64 is cross-built with Debian's cross toolchain and
# smoke-tested under qemu-user. Run by hand before a release, then tests/package/portable_test.sh;
# scripts/test.sh runs neither (CI's time budget).
#
# Usage: scripts/build-portable.sh [amd64|arm64|all]     (default: all)
# Root is needed once, for apt: the static archives scripts/install-deps.sh does not install and,
# for arm64, the arm64 architecture, crossbuild-essential-arm64, qemu-user-static and Debian's
# arm64 -dev packages, which are downloaded and unpacked into build/deps-arm64/root, not
# installed (libyaml-cpp-dev and libevent-dev are not Multi-Arch: same: their :arm64 packages would
# remove the amd64 ones). RK_JOBS sets the build's parallelism (default: nproc).
set -eu
cd "$(dirname "$0")/.."
case ${1:-all} in
  all) arches="amd64 arm64" ;;
  amd64 | arm64) arches=$1 ;;
  *) echo "usage: $0 [amd64|arm64|all]" >&2; exit 2 ;;
esac
jobs=${RK_JOBS:-$(nproc)}
dist=build/portable-dist
# glibc functions that a static link warns about ("Using 'X' in statically linked applications
# requires at runtime the shared libraries from the glibc version used for linking"), each
# reviewed in docs/install.md. Another one fails the build until it is reviewed and listed.
expected_static_warnings="dlopen getaddrinfo getprotobyname getprotobynumber getservbyname"
# Debian packages with the static archives for amd64 (scripts/install-deps.sh has the rest).
amd64_pkgs="liblz4-dev libzstd-dev liblzma-dev libbz2-dev zlib1g-dev nettle-dev binutils file"
# arm64: the toolchain and emulator (installed), the libraries' -dev packages (unpacked).
arm64_pkgs="crossbuild-essential-arm64 qemu-user-static binutils file"
arm64_devs="libyaml-cpp-dev libarchive-dev libsqlite3-dev libevent-dev libnl-3-dev libnl-genl-3-dev
  libfmt-dev zlib1g-dev libbz2-dev liblzma-dev libzstd-dev liblz4-dev nettle-dev"

say() { echo "build-portable: $*"; }
die() { echo "build-portable: error: $*" >&2; exit 1; }

need_root() {
  [ "$(id -u)" = 0 ] || { echo "build-portable: $1 (run this script as root once)" >&2; exit 2; }
}

# Installs the Debian packages named that are not installed yet.
need_pkgs() {
  missing=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  need_root "missing packages:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
}

# Debian's arm64 -dev packages unpacked into build/deps-arm64/root (the toolchain file's
# RK_ARM64_ROOT), again only when the candidate versions change.
arm64_deps() {
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    need_root "the arm64 architecture is not enabled"
    dpkg --add-architecture arm64
    apt-get update -qq
  fi
  # shellcheck disable=SC2086
  need_pkgs $arm64_pkgs
  want=""
  for p in $arm64_devs; do
    v=$(apt-cache show --no-all-versions "$p:arm64" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
    [ -n "$v" ] || die "no arm64 package $p (apt-get update?)"
    want="$want $p:arm64=$v"
  done
  if [ "$(cat build/deps-arm64/stamp 2>/dev/null)" != "$want" ]; then
    say "unpacking arm64 packages:$want"
    rm -rf build/deps-arm64
    mkdir -p build/deps-arm64/debs
    # shellcheck disable=SC2086
    (cd build/deps-arm64/debs && apt-get download -qq $want)
    for deb in build/deps-arm64/debs/*.deb; do dpkg-deb -x "$deb" build/deps-arm64/root; done
    echo "$want" >build/deps-arm64/stamp
  fi
}

# Size in bytes.
size() { wc -c <"$1" | tr -d ' '; }

build_arch() {
  arch=$1
  preset=portable
  run=""
  if [ "$arch" = arm64 ]; then
    preset=portable-arm64
    run=$(command -v qemu-aarch64-static || command -v qemu-aarch64) || die "no qemu-aarch64"
  fi
  bdir=build/$preset
  say "== $arch: configure ($preset)"
  cmake --preset "$preset" >"build/$preset.configure.log" 2>&1 || { cat "build/$preset.configure.log"; die "configure failed"; }
  # Relinked every time: the linker's warnings are checked below.
  rm -f "$bdir/rocekit" "$bdir/rocekit-exporter"
  say "== $arch: build"
  t0=$(date +%s)
  log=$bdir/portable-build.log
  cmake --build --preset "$preset" -j "$jobs" >"$log" 2>&1 || { tail -n 60 "$log"; die "$arch build failed"; }
  build_s=$(($(date +%s) - t0))

  # Warning-free, except the reviewed static-glibc warnings.
  found=$(sed -n "s/.*warning: Using '\([A-Za-z0-9_]*\)' in statically linked applications requires.*/\1/p" "$log" | sort -u | tr '\n' ' ')
  others=$(grep 'warning:' "$log" | grep -v 'in statically linked applications requires' || true)
  [ -z "$others" ] || { echo "$others" >&2; die "$arch build has warnings"; }
  for f in $found; do
    case " $expected_static_warnings " in
      *" $f "*) ;;
      *) grep "'$f'" "$log" >&2; die "new static-link warning for '$f': review it (docs/install.md) and add it to expected_static_warnings" ;;
    esac
  done
  say "static-glibc link warnings (reviewed, docs/install.md): ${found:-none}"

  # shellcheck disable=SC1090,SC1091
  . "./$bdir/rk-portable.env"
  [ "$RK_PORTABLE_ARCH" = "$arch" ] || die "$bdir is configured for $RK_PORTABLE_ARCH, not $arch"
  if [ "$arch" = arm64 ]; then
    # The man pages, completion and example policy are made by running rocekit-docgen and
    # rocekit at build time, which the cross build cannot (its commands run the arm64 executables
    # natively). They are architecture-independent: take them from the amd64 tree of the same
    # source (the amd64 build, already done when building both).
    say "== arm64: man pages, completion, example policy from the amd64 build"
    cmake --preset portable >build/portable.configure.log 2>&1 || { cat build/portable.configure.log; die "amd64 configure failed"; }
    cmake --build --preset portable -j "$jobs" >build/portable/portable-gen.log 2>&1 ||
      { tail -n 60 build/portable/portable-gen.log; die "amd64 build (for the generated docs) failed"; }
    grep -qx "RK_PORTABLE_VERSION='$RK_PORTABLE_VERSION'" build/portable/rk-portable.env ||
      die "build/portable is not version $RK_PORTABLE_VERSION"
    for f in install-gen/man1 install-gen/policy.example.yaml completions; do
      rm -rf "${bdir:?}/$f"
      cp -R "build/portable/$f" "$bdir/$f"
    done
  fi

  # Staging install: what the project's install() rules install (executables, capture script, man
  # pages, completion, guides, the exporter's unit and files), under DESTDIR.
  name=rocekit-$RK_PORTABLE_VERSION-linux-$arch
  stage=$PWD/$bdir/stage
  rm -rf "$stage" "$bdir/pkg"
  DESTDIR=$stage cmake --install "$bdir" >"$bdir/portable-install.log" 2>&1 ||
    { cat "$bdir/portable-install.log"; die "cmake --install failed (an install rule needs a target the portable build preset does not build?)"; }
  outside=$(cd "$stage" && find . ! -type d ! -path ".$RK_PORTABLE_PREFIX/*")
  [ -z "$outside" ] || { echo "$outside" >&2; die "installed outside the prefix $RK_PORTABLE_PREFIX: not in the tarball"; }
  pkg=$bdir/pkg/$name
  dbg=$bdir/pkg/debug/$name
  mkdir -p "$pkg" "$dbg/bin/.debug"
  cp -R "$stage$RK_PORTABLE_PREFIX/." "$pkg/"
  for f in bin/rocekit bin/rocekit-exporter bin/rocekit-capture share/man/man1/rocekit.1.gz \
    share/bash-completion/completions/rocekit; do
    [ -f "$pkg/$f" ] || die "cmake --install did not install $f"
  done

  # Debug info split off: bin/.debug/X.debug (found by gdb through .gnu_debuglink when the debug
  # tarball is unpacked over the same directory), the executables stripped.
  unstripped=""
  for exe in rocekit rocekit-exporter; do
    unstripped="$unstripped $exe=$(size "$pkg/bin/$exe")"
    "$RK_PORTABLE_OBJCOPY" --only-keep-debug --compress-debug-sections=zlib "$pkg/bin/$exe" "$dbg/bin/.debug/$exe.debug"
    "$RK_PORTABLE_STRIP" --strip-all "$pkg/bin/$exe"
    "$RK_PORTABLE_OBJCOPY" --add-gnu-debuglink="$dbg/bin/.debug/$exe.debug" "$pkg/bin/$exe"
  done
  # The oldest kernel glibc's static startup accepts (the ELF ABI tag).
  kernel=$("$RK_PORTABLE_READELF" -n "$pkg/bin/rocekit" | sed -n 's/.*OS: Linux, ABI: *//p')
  cat >"$pkg/README" <<EOF
rocekit $RK_PORTABLE_VERSION, portable build for Linux $arch

bin/rocekit, bin/rocekit-exporter  fully static executables: no shared library, no glibc needed
                                   (any distribution, glibc or none), Linux $kernel or later
bin/rocekit-capture                the capture script (POSIX sh) for hosts without rocekit
share/man/man1/                    a manual page per command: man -l share/man/man1/rocekit-check.1.gz
share/bash-completion/completions/ bash completion for rocekit and rocekit-exporter
share/doc/rocekit*/                the guides (docs/*.md), copyright, the example policy
lib/systemd/system/, etc/default/  the exporter's unit (ExecStart=$RK_PORTABLE_PREFIX/bin/rocekit-exporter) and options
share/rocekit-exporter/            Prometheus rules and Grafana dashboards

This is a $RK_PORTABLE_PREFIX tree: unpack it anywhere and put bin/ on PATH (rocekit runs
rocekit-exporter from its own directory), or copy its contents into $RK_PORTABLE_PREFIX.
Debug info: unpack $name-debug.tar.gz over this directory (bin/.debug/).
rocekit exporter --listen: give a numeric address, or a name /etc/hosts or DNS resolves (the
static build cannot load NSS plug-in modules such as myhostname, resolve or sss).
Limits of the static build and how it was made and tested: share/doc/rocekit/install.md,
"Portable binaries".
EOF

  # Smoke test (the full one: tests/package/portable_test.sh).
  # shellcheck disable=SC2086
  got=$($run "$pkg/bin/rocekit" --version) || die "$arch rocekit --version failed"
  say "$arch smoke: rocekit --version: $got"

  mkdir -p "$dist"
  rm -f "$dist"/rocekit-*-linux-"$arch".tar.gz "$dist"/rocekit-*-linux-"$arch"-debug.tar.gz
  epoch=$(git log -1 --format=%ct 2>/dev/null || date +%s)
  for t in "$name:$bdir/pkg" "$name-debug:$bdir/pkg/debug"; do
    file=${t%%:*}; from=${t#*:}
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" --mode=u+rwX,go+rX,go-w \
      -C "$from" -cf - "$name" | gzip -9n >"$dist/$file.tar.gz"
  done
  say "$arch: built in ${build_s} s; unstripped:$unstripped bytes; stripped: rocekit=$(size "$pkg/bin/rocekit")" \
    "rocekit-exporter=$(size "$pkg/bin/rocekit-exporter"); .debug: rocekit=$(size "$dbg/bin/.debug/rocekit.debug")" \
    "rocekit-exporter=$(size "$dbg/bin/.debug/rocekit-exporter.debug")"
  say "$arch: $dist/$name.tar.gz ($(size "$dist/$name.tar.gz") bytes)," \
    "$dist/$name-debug.tar.gz ($(size "$dist/$name-debug.tar.gz") bytes)"
}

sh scripts/install-deps.sh
for arch in $arches; do
  # shellcheck disable=SC2086
  if [ "$arch" = arm64 ]; then arm64_deps; else need_pkgs $amd64_pkgs; fi
done
for arch in $arches; do build_arch "$arch"; done
(cd "$dist" && sha256sum rocekit-*.tar.gz >SHA256SUMS)
say "done: $dist (test: sh tests/package/portable_test.sh ARCH $dist/rocekit-VERSION-linux-ARCH.tar.gz)"

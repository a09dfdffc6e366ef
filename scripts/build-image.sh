#!/bin/sh
# Builds the rocekit-exporter OCI image from Debian packages only, offline but for Debian's
# mirror: mmdebstrap extracts rocekit-exporter_*.deb and its dependencies (libc6, libstdc++6,
# libevent, libnl; from dpkg-shlibdeps) plus base-files into a root with no shell, no dpkg and no
# package manager; umoci writes it as an OCI image layout whose config runs
# /usr/bin/rocekit-exporter as user 65534 (nobody); skopeo writes the same image as a
# docker-archive tarball for `docker load` / `ctr images import`.
#
#   sh scripts/build-image.sh [DEB_DIR [OUT_DIR]]
#     DEB_DIR  holds rocekit-exporter_*.deb (default build/package/deb: scripts/package-deb.sh)
#     OUT_DIR  default build/image: oci/ (the layout, tag <version> with + as -) and
#              rocekit-exporter-<version>-<arch>.docker.tar
# Needs root (mmdebstrap's root mode, the image's file owners) and mmdebstrap, umoci, skopeo
# (apt-get install mmdebstrap umoci skopeo).
set -eu
# Relative arguments are relative to the caller's directory; the defaults to the repository's.
repo=$(cd "$(dirname "$0")/.." && pwd)
DEBS=$(cd "${1:-$repo/build/package/deb}" && pwd)
OUT=${2:-$repo/build/image}
deb=$(ls "$DEBS"/rocekit-exporter_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { echo "rocekit: no rocekit-exporter_*.deb in $DEBS (run scripts/package-deb.sh)" >&2; exit 2; }
for t in mmdebstrap umoci skopeo; do
  command -v "$t" >/dev/null 2>&1 || { echo "rocekit: $t is not installed (apt-get install mmdebstrap umoci skopeo)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "rocekit: run as root (the image's files are owned by root)" >&2; exit 2; }
version=$(dpkg-deb -f "$deb" Version)
version=${version%-*}
arch=$(dpkg-deb -f "$deb" Architecture)
# Docker tags allow [A-Za-z0-9_.-] only: 0.1.0+295.g8b17e7c is tagged 0.1.0-295.g8b17e7c.
tag=$(printf '%s' "$version" | tr '+' '-')
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rk-image.XXXXXX")
trap 'rm -rf "$work"' EXIT

# 1. The root: the exporter's dependencies as dpkg-shlibdeps wrote them into its Depends, and
#    base-files, extracted and never configured (no maintainer script runs, so none needs a
#    shell); then the .deb itself, unpacked with dpkg-deb. The host's ldconfig writes the
#    loader's cache; passwd and group name root and nobody only.
deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep . | paste -sd, -)
mmdebstrap --quiet --variant=extract --architectures="$arch" --include="base-files,$deps" bookworm "$work/root"
# (The extract variant runs no customize hook: the rest is done here.)
r=$work/root
dpkg-deb -x "$deb" "$r"
ldconfig -r "$r"
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$r/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$r/etc/group"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$r/etc/hosts"  # --listen localhost:PORT (Kubernetes mounts its own)
rm -rf "$r/dev"/* "$r/var/lib/apt" "$r/var/lib/dpkg" "$r/var/cache/apt" "$r/var/cache/ldconfig" "$r/etc/apt" "$r/usr/share/doc" \
  "$r/usr/share/man" "$r/usr/share/info" "$r/usr/share/lintian" "$r/var/log"/*
# Every file dated by the package's changelog entry (the commit it was built from), or
# SOURCE_DATE_EPOCH: the same .deb gives the same image, digest for digest. /dev is left empty
# (the runtime mounts its own).
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  stamp=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/rocekit-exporter/changelog.Debian.gz | gzip -dc | sed -n 's/^ -- .*>  //p' | head -n 1)
  SOURCE_DATE_EPOCH=$(date -u -d "$stamp" +%s)
fi
epoch=$SOURCE_DATE_EPOCH
find "$r" -exec touch -h -d "@$epoch" {} +
[ ! -e "$work/root/bin/sh" ] && [ ! -e "$work/root/usr/bin/sh" ] || { echo "rocekit: the image root has a shell" >&2; exit 1; }

# 2. OCI layout: an empty image, unpacked, filled with the root, repacked as one layer.
rm -rf "$OUT/oci"
umoci init --layout "$OUT/oci"
umoci new --image "$OUT/oci:$tag"
umoci unpack --image "$OUT/oci:$tag" "$work/bundle" >/dev/null
rm -rf "$work/bundle/rootfs"
mv "$work/root" "$work/bundle/rootfs"
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
umoci repack --image "$OUT/oci:$tag" --history.created "$created" --history.created_by "scripts/build-image.sh: mmdebstrap --variant=extract $(basename "$deb")" "$work/bundle"
umoci config --image "$OUT/oci:$tag" --no-history --created "$created" --author "rocekit developers" \
  --os linux --architecture "$arch" \
  --config.user 65534:65534 --config.workingdir / \
  --config.entrypoint /usr/bin/rocekit-exporter \
  --config.cmd --listen=0.0.0.0:9857 --config.cmd --state-interval=1m \
  --config.exposedports 9857/tcp \
  --config.label org.opencontainers.image.title=rocekit-exporter \
  --config.label org.opencontainers.image.version="$version" \
  --config.label org.opencontainers.image.description="RoCE counters, QoS/PCIe state and rocekit rule outcomes for Prometheus"
umoci gc --layout "$OUT/oci"

# 3. The same image for docker load / ctr images import.
rm -f "$OUT/rocekit-exporter-$version-$arch.docker.tar"
skopeo --insecure-policy copy --quiet "oci:$OUT/oci:$tag" \
  "docker-archive:$OUT/rocekit-exporter-$version-$arch.docker.tar:rocekit-exporter:$tag"
echo "$OUT/oci:$tag"
echo "$OUT/rocekit-exporter-$version-$arch.docker.tar"

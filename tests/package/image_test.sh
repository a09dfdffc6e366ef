#!/bin/sh
# The exporter image (scripts/build-image.sh) as Kubernetes would run it: build it from the
# .deb, unpack the OCI layout with umoci, check its config (user 65534, entrypoint
# rocekit-exporter, the version label) and that its root has no shell, then run the root's
# rocekit-exporter as user 65534 in a chroot against a fixture tree and read /metrics; and the
# docker-archive tarball's config says the same.
# Usage: image_test.sh [DEB_DIR]. Needs root, mmdebstrap, umoci, skopeo, curl; else SKIP.
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
DEBS=$(cd "${1:-$SRC/build/package/deb}" && pwd)
[ "$(id -u)" = 0 ] || { echo "SKIP: not root: no image test"; exit 0; }
for t in mmdebstrap umoci skopeo curl; do
  command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t not installed: no image test"; exit 0; }
done
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
work=$(mktemp -d /tmp/rk-image-test.XXXXXX)
pid=""
cleanup() { [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
version=$(dpkg-deb -f "$DEBS"/rocekit-exporter_*.deb Version)
version=${version%-*}
tag=$(printf '%s' "$version" | tr '+' '-')

sh "$SRC/scripts/build-image.sh" "$DEBS" "$work/out" >"$work/build.log" 2>&1 || { cat "$work/build.log"; bad "build-image.sh failed"; exit 1; }
ok "build-image.sh wrote $(tail -n 1 "$work/build.log" | xargs basename)"
# Reproducible: the same .deb, built again from another directory with a relative DEB_DIR, gives
# the same manifest digest and the same docker-archive bytes.
(cd "$DEBS" && sh "$SRC/scripts/build-image.sh" . "$work/out2") >"$work/build2.log" 2>&1 || { cat "$work/build2.log"; bad "second build-image.sh failed"; }
d1=$(sed -n 's/.*"digest":"\(sha256:[0-9a-f]*\)".*/\1/p' "$work/out/oci/index.json")
d2=$(sed -n 's/.*"digest":"\(sha256:[0-9a-f]*\)".*/\1/p' "$work/out2/oci/index.json")
[ -n "$d1" ] && [ "$d1" = "$d2" ] && ok "reproducible: manifest $d1 twice" || bad "manifest digests differ: $d1 $d2"
cmp -s "$work/out"/*.docker.tar "$work/out2"/*.docker.tar && ok "reproducible: docker-archive byte for byte" || bad "docker-archives differ"
umoci unpack --image "$work/out/oci:$tag" "$work/bundle" >/dev/null
python3 - "$work/bundle/config.json" "$version" <<'PY' && ok "config: user 65534, entrypoint rocekit-exporter, listens on 9857" || bad "image config"
import json, sys
c = json.load(open(sys.argv[1]))
p = c["process"]
assert p["user"]["uid"] == 65534 and p["user"]["gid"] == 65534, p["user"]
assert p["args"][0] == "/usr/bin/rocekit-exporter", p["args"]
assert "--listen=0.0.0.0:9857" in p["args"], p["args"]
assert c["annotations"]["org.opencontainers.image.version"] == sys.argv[2], c["annotations"]
PY
root=$work/bundle/rootfs
[ -x "$root/usr/bin/rocekit-exporter" ] && ok "root has /usr/bin/rocekit-exporter" || bad "no rocekit-exporter in the root"
for f in bin/sh usr/bin/sh bin/bash usr/bin/dpkg usr/bin/apt-get usr/bin/rocekit; do
  [ ! -e "$root/$f" ] || bad "the image root has /$f"
done
[ -z "$(ls -A "$root/dev")" ] && ok "no device nodes in the layer" || bad "device nodes in the layer: $(ls "$root/dev")"
ok "no shell, dpkg, apt or rocekit CLI in the root"
skopeo --insecure-policy inspect --config "docker-archive:$work/out/rocekit-exporter-$version-$(dpkg --print-architecture).docker.tar" >"$work/docker.json"
python3 - "$work/docker.json" <<'PY' && ok "docker-archive config: User 65534:65534, Entrypoint rocekit-exporter" || bad "docker-archive config"
import json, sys
c = json.load(open(sys.argv[1]))["config"]
assert c["User"] == "65534:65534" and c["Entrypoint"] == ["/usr/bin/rocekit-exporter"], c
PY

# Run it as the image would: the root's own loader and libraries, user nobody.
cp -a "$SRC/testdata/sysroots/cx4lx-4port" "$root/fixture"
v=$(chroot --userspec=65534:65534 "$root" /usr/bin/rocekit-exporter --version)
[ "$v" = "$version" ] && ok "rocekit-exporter --version in the image: $v" || bad "version in the image: '$v'"
port=$((20000 + $$ % 20000))
chroot --userspec=65534:65534 "$root" /usr/bin/rocekit-exporter --root /fixture --listen "127.0.0.1:$port" >"$work/exporter.log" 2>&1 &
pid=$!
i=0
until curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics" 2>/dev/null; do
  i=$((i + 1))
  [ "$i" -lt 50 ] || break
  sleep 0.2
done
grep -q "^rocekit_build_info{version=\"$version\"} 1$" "$work/metrics" && ok "/metrics: rocekit_build_info $version" || { cat "$work/exporter.log"; bad "no build_info in /metrics"; }
grep -q '^rocekit_netdev_mtu_bytes{device="mlx5_0",port="1",netdev="eth01"} 1500$' "$work/metrics" \
  && ok "/metrics: the fixture's mlx5_0 MTU 1500" || bad "no fixture metrics in /metrics"
[ "$(grep -c '^rocekit_port_up{' "$work/metrics")" = 4 ] && ok "/metrics: 4 ports" || bad "want 4 rocekit_port_up series"
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
pid=""
[ "$fails" = 0 ] || { echo "image_test: $fails failure(s)"; exit 1; }
echo "image_test: all passed"

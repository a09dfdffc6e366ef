#!/bin/sh
# Installs rocekit's build and test dependencies (Debian 12 packages only). Run as root.
# Skips apt when every package is already installed, so repeated runs are fast and offline-safe.
set -eu
PKGS="build-essential cmake ninja-build pkg-config git ca-certificates
  libcli11-dev nlohmann-json3-dev libsimdjson-dev libjemalloc-dev libfmt-dev libyaml-cpp-dev libarchive-dev
  libgtest-dev libgmock-dev shellcheck clang libclang-rt-14-dev python3 ansible-core
  libevent-dev libsqlite3-dev prometheus prometheus-node-exporter mstflint curl python3-yaml
  libnl-genl-3-dev iproute2 ethtool pciutils
  man-db groff-base help2man lintian mmdebstrap umoci skopeo
  slurmctld slurmd slurm-client munge python3-junitparser
  chromium fonts-dejavu-core python3-pil"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "rocekit: missing packages:$missing (run this script as root)" >&2
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
fi

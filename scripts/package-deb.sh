#!/bin/sh
# Builds the Debian packages rocekit_<version>_<arch>.deb and rocekit-exporter_<version>_<arch>.deb
# into build/package/deb/ (CPack's DEB generator, cmake/Package.cmake), with the compiler and
# linker flags Debian builds its own packages with (dpkg-buildflags, hardening=+all), then runs
# lintian on them when it is installed (RK_LINTIAN=0 skips it). Run as root on Debian 12 for
# the dependencies; prints the .deb paths.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
# CPack strips the packaged binaries (CPACK_STRIP_FILES, cmake/Package.cmake), so debug info
# would be built only to be thrown away: -g is left out (a fifth of the -O2 compile time).
export DEB_CXXFLAGS_MAINT_STRIP=-g
CXXFLAGS="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS)"
LDFLAGS="$(dpkg-buildflags --get LDFLAGS)"
export CXXFLAGS LDFLAGS
# A new flag set needs a new cache (CMake reads CXXFLAGS only when it first configures).
if [ -f build/package/CMakeCache.txt ] && ! grep -qF -- "CMAKE_CXX_FLAGS:STRING=$CXXFLAGS" build/package/CMakeCache.txt; then
  rm -f build/package/CMakeCache.txt
fi
cmake --preset package >/dev/null
cmake --build --preset package -j "$(nproc)"
rm -rf build/package/deb
cpack --config build/package/CPackConfig.cmake -B build/package/deb >/dev/null
set -- build/package/deb/*.deb
[ -f "$1" ] || { echo "rocekit: no .deb was written" >&2; exit 1; }
if [ "${RK_LINTIAN:-1}" != 0 ] && command -v lintian >/dev/null 2>&1; then
  # Errors fail the build; the warnings that stay are listed in docs/install.md.
  lintian --fail-on error --tag-display-limit 0 "$@" >&2
fi
ls -1 "$@"

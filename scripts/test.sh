#!/bin/sh
# The whole test suite: installs dependencies, then
#   1. Debug build with ASan+UBSan and -Werror, all tests (ctest);
#   2. each parser's libFuzzer target for a few seconds (clang);
#   3. the Debian packages (scripts/package-deb.sh: -O2 -Werror with Debian's hardening flags,
#      lintian --fail-on error), installed with apt-get into a fresh bookworm root, and the
#      exporter image built from them and run (tests/package/; root-only steps say SKIP);
#   4. only with RK_OPTIMISED=1: the -O2 -Werror build (ci preset) and all tests again.
# Stage 4 is opt-in so that the suite fits CI's time budget on a 2-core machine; run it before
# a release (it catches warnings GCC only gives with optimisation).
# Set RK_SKIP_SANITIZE=1, RK_SKIP_FUZZ=1 or RK_SKIP_PACKAGE=1 to skip stages locally.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
jobs=$(nproc)
start=$(date +%s)
stamp() { echo "   ($(($(date +%s) - start)) s since start)"; }

if [ "${RK_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== stage 1: ASan+UBSan build (-Werror) + tests"
  # Line tables only (-g1): sanitizer reports keep file:line, the build is faster and its
  # binaries a fraction of the size; `cmake --preset dev` alone keeps full -g for a debugger.
  cmake --preset dev -DCMAKE_CXX_FLAGS_DEBUG=-g1 >/dev/null
  cmake --build --preset dev -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset dev -j "$jobs"
  stamp
fi

if [ "${RK_SKIP_FUZZ:-0}" != 1 ]; then
  echo "== stage 2: libFuzzer smoke run per parser"
  cmake --preset fuzz -DCMAKE_CXX_FLAGS_DEBUG=-g1 >/dev/null
  cmake --build --preset fuzz -j "$jobs" --target rk_fuzz_all
  sh fuzz/run_all.sh build/fuzz/fuzz "${RK_FUZZ_SECONDS:-3}"
  stamp
fi

if [ "${RK_SKIP_PACKAGE:-0}" != 1 ]; then
  echo "== stage 3: Debian packages, installed in a fresh root; the exporter image"
  sh scripts/package-deb.sh
  sh tests/package/deb_test.sh build/package/deb
  sh tests/package/image_test.sh build/package/deb
  stamp
fi

if [ "${RK_OPTIMISED:-0}" = 1 ]; then
  echo "== stage 4: -O2 -Werror build (ci preset) + tests"
  cmake --preset ci >/dev/null
  cmake --build --preset ci -j "$jobs"
  ctest --preset ci -j "$jobs"
  stamp
fi
echo "== all stages passed"

#!/bin/sh
# The whole test suite: installs dependencies, then
#   1. optimised build with -Werror, all tests (ctest);
#   2. Debug build with ASan+UBSan, all tests;
#   3. each parser's libFuzzer target for a few seconds (clang).
# Set RK_SKIP_SANITIZE=1 or RK_SKIP_FUZZ=1 to skip stages locally.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
jobs=$(nproc)

echo "== stage 1: ci build + tests"
cmake --preset ci >/dev/null
cmake --build --preset ci -j "$jobs"
ctest --preset ci -j "$jobs"

if [ "${RK_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== stage 2: ASan+UBSan build + tests"
  cmake --preset dev >/dev/null
  cmake --build --preset dev -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset dev -j "$jobs"
fi

if [ "${RK_SKIP_FUZZ:-0}" != 1 ]; then
  echo "== stage 3: libFuzzer smoke run per parser"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz -j "$jobs" --target rk_fuzz_all
  sh fuzz/run_all.sh build/fuzz/fuzz "${RK_FUZZ_SECONDS:-4}"
fi
echo "== all stages passed"

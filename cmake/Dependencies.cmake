# Every external dependency, in one place. All are Debian 12 packages (see README.md).
# RK_PORTABLE=ON (cmake/Portable.cmake) links them statically; it must come before the finds.
include(${CMAKE_CURRENT_LIST_DIR}/Portable.cmake)
find_package(nlohmann_json 3.11 REQUIRED)   # nlohmann-json3-dev
find_package(fmt REQUIRED)                  # libfmt-dev
find_package(yaml-cpp REQUIRED)             # libyaml-cpp-dev (target: yaml-cpp)
find_package(CLI11 REQUIRED)                # libcli11-dev
find_package(LibArchive REQUIRED)           # libarchive-dev (capture tarballs)
if(RK_PORTABLE)
  rk_portable_libarchive_deps()             # libarchive.a's compression libraries
endif()
# libsimdjson-dev: the snapshot reader of `rocekit fleet` (src/rocekit/model/json_fast.hpp).
# Debian ships no libsimdjson.a, so the static portable build reads snapshots with nlohmann-json.
if(NOT RK_PORTABLE)
  find_package(simdjson 3 REQUIRED)
endif()
# libjemalloc-dev: the allocator of the `rocekit` command. `fleet` allocates and frees the
# strings and maps of every host's snapshot and findings while it keeps the reduced hosts: with
# glibc's malloc that costs 30-40% of its CPU on 10,000 hosts and grows faster than the fleet
# (docs/benchmarks.md). Left out where a sanitizer or libFuzzer owns malloc, and of the static
# portable build.
if(NOT RK_PORTABLE AND NOT RK_SANITIZE AND NOT RK_FUZZ)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
endif()
if(RK_BUILD_TESTS)
  find_package(GTest REQUIRED)              # libgtest-dev, libgmock-dev
endif()

# Cross-build for arm64 (aarch64) Linux with Debian's cross toolchain (crossbuild-essential-arm64:
# aarch64-linux-gnu-gcc/g++, binutils, libc6-dev-arm64-cross). Used by the portable-arm64 preset.
#
# The arm64 libraries come from Debian's arm64 packages, one of two ways:
#  - RK_ARM64_ROOT (default build/deps-arm64/root): Debian's arm64 -dev packages unpacked, not
#    installed (scripts/build-portable.sh arm64 does this with apt-get download + dpkg-deb -x).
#    Needed on Debian 12 because libyaml-cpp-dev and libevent-dev are not Multi-Arch: same, so
#    their :arm64 packages would remove the amd64 ones that the native builds use;
#  - if that directory does not exist: installed multiarch packages (apt-get install
#    libarchive-dev:arm64 ...) in /usr/lib/aarch64-linux-gnu.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

if(NOT DEFINED RK_ARM64_ROOT)
  if(DEFINED ENV{RK_ARM64_ROOT})
    set(RK_ARM64_ROOT $ENV{RK_ARM64_ROOT})
  else()
    get_filename_component(RK_ARM64_ROOT ${CMAKE_CURRENT_LIST_DIR}/../../build/deps-arm64/root ABSOLUTE)
  endif()
endif()

# Libraries only from the arm64 root (re-rooted) or /usr/lib/aarch64-linux-gnu, never the host's;
# headers and CMake package files also from the host (arch-independent: nlohmann-json, CLI11).
set(CMAKE_FIND_ROOT_PATH /)
if(IS_DIRECTORY ${RK_ARM64_ROOT})
  list(PREPEND CMAKE_FIND_ROOT_PATH ${RK_ARM64_ROOT})
  # Its headers before /usr/include (the host's amd64 copies): libevent's event2/event-config.h
  # is architecture-specific.
  set(CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES ${RK_ARM64_ROOT}/usr/include)
  set(ENV{PKG_CONFIG_SYSROOT_DIR} ${RK_ARM64_ROOT})
  set(ENV{PKG_CONFIG_LIBDIR}
      "${RK_ARM64_ROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${RK_ARM64_ROOT}/usr/share/pkgconfig")
else()
  set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# Lets try_run and `ctest` run arm64 executables (qemu-user-static, or qemu-user).
find_program(RK_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(RK_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${RK_QEMU_AARCH64})
endif()

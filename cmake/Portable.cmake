# Portable release binaries (RK_PORTABLE=ON: presets portable and portable-arm64, run by
# scripts/build-portable.sh; docs/install.md "Portable binaries").
#
# Fully static executables (-static-pie: no ELF interpreter, no NEEDED entry, so no glibc
# requirement at all) that run on any Linux kernel of their architecture. Static rather than
# dynamic against an old glibc: Debian 12's toolchain links __libc_start_main@GLIBC_2.34 and
# friends, and no older toolchain builds C++20. Third-party libraries are linked from Debian's
# static archives (.a). Included by cmake/Dependencies.cmake before any find_package(); with
# RK_PORTABLE=OFF (every other preset) this file only declares the option.
option(RK_PORTABLE "Fully static executables for the portable release tarballs" OFF)
if(NOT RK_PORTABLE)
  return()
endif()
if(RK_SANITIZE OR RK_FUZZ)
  message(FATAL_ERROR "RK_PORTABLE=ON cannot be combined with RK_SANITIZE or RK_FUZZ")
endif()

# Every find_library() from here on (FindLibArchive, FindSQLite3, pkg_check_modules' libraries,
# in this directory and the subdirectories) finds the static archive only.
set(CMAKE_FIND_LIBRARY_SUFFIXES .a)

# Static and position independent: the kernel still randomises where the executable is loaded.
add_compile_options(-fPIE)
add_link_options(-static-pie)

# fmt: Debian's libfmt-dev has no libfmt.a, so fmt::fmt is fmt's header-only form here (what
# fmt's own fmt::fmt-header-only target is). fmt-config.cmake keeps a fmt::fmt that exists.
find_path(RK_FMT_INCLUDE_DIR fmt/format.h REQUIRED)
add_library(fmt::fmt INTERFACE IMPORTED)
set_target_properties(fmt::fmt PROPERTIES
  INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1
  INTERFACE_INCLUDE_DIRECTORIES ${RK_FMT_INCLUDE_DIR})

# yaml-cpp: its exported target names libyaml-cpp.so; define it on libyaml-cpp.a instead
# (yaml-cpp-targets.cmake does not redefine a target that exists).
find_library(RK_YAML_CPP_ARCHIVE NAMES yaml-cpp REQUIRED)
find_path(RK_YAML_CPP_INCLUDE_DIR yaml-cpp/yaml.h REQUIRED)
add_library(yaml-cpp STATIC IMPORTED)
set_target_properties(yaml-cpp PROPERTIES
  IMPORTED_LOCATION ${RK_YAML_CPP_ARCHIVE}
  INTERFACE_INCLUDE_DIRECTORIES ${RK_YAML_CPP_INCLUDE_DIR})

# After find_package(LibArchive): what libarchive.a needs for the filters and formats that
# capture/reader.cpp enables (gzip bzip2 xz lzma zstd lz4 compress; tar gnutar zip 7zip cpio).
# Not all of `pkg-config --static --libs libarchive`: libxml2 (xar) and libacl (reading or
# writing disk ACLs) are never reached from those, so the linker does not ask for them.
# nettle: the zip reader's decryption (archive_cryptor, archive_hmac).
function(rk_portable_libarchive_deps)
  set(deps "")
  foreach(name IN ITEMS nettle lzma zstd lz4 bz2 z)
    find_library(RK_STATIC_${name} NAMES ${name} REQUIRED)
    list(APPEND deps ${RK_STATIC_${name}})
  endforeach()
  set_property(TARGET LibArchive::LibArchive APPEND PROPERTY INTERFACE_LINK_LIBRARIES ${deps})
  set_property(TARGET LibArchive::LibArchive APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS LIBARCHIVE_STATIC)
endfunction()

# For scripts/build-portable.sh: what to name the tarball and which binutils to split with, written
# once the whole tree is configured (RK_VERSION, the full version string, once it is defined;
# else project(VERSION)).
function(rk_portable_write_env)
  if(DEFINED RK_VERSION AND NOT RK_VERSION STREQUAL "")
    set(version ${RK_VERSION})
  else()
    set(version ${PROJECT_VERSION})
  endif()
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(arch amd64)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(arch arm64)
  else()
    set(arch ${CMAKE_SYSTEM_PROCESSOR})
  endif()
  file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/rk-portable.env CONTENT [[
# Written by cmake/Portable.cmake; read by scripts/build-portable.sh.
RK_PORTABLE_VERSION='@version@'
RK_PORTABLE_ARCH='@arch@'
RK_PORTABLE_PREFIX='@CMAKE_INSTALL_PREFIX@'
RK_PORTABLE_OBJCOPY='@CMAKE_OBJCOPY@'
RK_PORTABLE_STRIP='@CMAKE_STRIP@'
RK_PORTABLE_READELF='@CMAKE_READELF@'
]] @ONLY)
endfunction()
cmake_language(DEFER CALL rk_portable_write_env)   # at the end of the top-level CMakeLists.txt

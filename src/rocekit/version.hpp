// The build's version (cmake/Version.cmake generates its definition from project(VERSION) and
// `git describe`): `rocekit --version`, `rocekit-exporter --version`, the snapshot's producer
// and the exporter's rocekit_build_info metric all print this one string.
#pragma once

#include <string_view>

namespace rk {

/// "0.1.0", or "0.1.0+295.g8b17e7c[.dirty]" when built from a git checkout.
std::string_view version();

}  // namespace rk

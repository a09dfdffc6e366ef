# rk_warnings: linked PRIVATE by our own targets only (ccache's StandardWarnings).
add_library(rk_warnings INTERFACE)
target_compile_options(rk_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wimplicit-fallthrough)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12 at -O2 reports std::optional<T> payloads as "may be used uninitialized" after
  # has_value() checks (GCC bug 80635); it is a false positive that -O0 builds do not show.
  target_compile_options(rk_warnings INTERFACE -Wno-maybe-uninitialized)
endif()
if(RK_WERROR)
  target_compile_options(rk_warnings INTERFACE -Werror)
endif()

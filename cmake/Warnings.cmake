# rk_warnings: linked PRIVATE by our own targets only (ccache's StandardWarnings).
add_library(rk_warnings INTERFACE)
target_compile_options(rk_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wimplicit-fallthrough)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12 at -O2 reports false positives inside libstdc++ and nlohmann-json: std::optional
  # payloads "may be used uninitialized" (GCC bug 80635), std::map nodes "partly outside array
  # bounds" (bug 107852), stringop-overflow/restrict in std::string. -O0 builds (the dev
  # preset, also -Werror) do not show them, so our own code is still checked warning-free.
  target_compile_options(rk_warnings INTERFACE -Wno-maybe-uninitialized -Wno-array-bounds
                         -Wno-stringop-overflow -Wno-restrict)
endif()
if(RK_WERROR)
  target_compile_options(rk_warnings INTERFACE -Werror)
endif()

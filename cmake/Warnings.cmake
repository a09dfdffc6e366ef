# rk_warnings: linked PRIVATE by our own targets only (ccache's StandardWarnings).
add_library(rk_warnings INTERFACE)
target_compile_options(rk_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wimplicit-fallthrough)
if(RK_WERROR)
  target_compile_options(rk_warnings INTERFACE -Werror)
endif()

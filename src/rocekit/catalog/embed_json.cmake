# Build-time script: writes OUTPUT, a C++ file whose rk::catalog::detail::FUNCTION() (default
# builtin_catalog_json) returns the bytes of INPUT. Run by the custom command in CMakeLists.txt, so editing INPUT
# regenerates the file. The text is split into raw string literals of at most k_chunk bytes so no
# single literal exceeds what -Wpedantic (-Woverlength-strings, 65536) allows.
#   cmake -DINPUT=data/catalog.json -DOUTPUT=catalog_data.cpp -P embed_json.cmake
if(NOT INPUT OR NOT OUTPUT)
  message(FATAL_ERROR "embed_json.cmake needs -DINPUT=<file> -DOUTPUT=<file>")
endif()
if(NOT FUNCTION)
  set(FUNCTION builtin_catalog_json)
endif()
file(READ "${INPUT}" content)
set(delimiter "rkjson")
string(FIND "${content}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )${delimiter}\"")
endif()
set(k_chunk 16000)
string(LENGTH "${content}" total)
set(body "")
set(offset 0)
while(offset LESS total)
  string(SUBSTRING "${content}" ${offset} ${k_chunk} chunk)
  string(APPEND body "      R\"${delimiter}(${chunk})${delimiter}\",\n")
  math(EXPR offset "${offset} + ${k_chunk}")
endwhile()
set(generated "// Generated from ${INPUT} by embed_json.cmake. Do not edit.
#include \"rocekit/catalog/catalog_data.hpp\"

namespace rk::catalog::detail {

std::string ${FUNCTION}() {
  static constexpr std::string_view k_chunks[] = {
${body}  };
  std::string out;
  out.reserve(${total});
  for (std::string_view chunk : k_chunks) out.append(chunk);
  return out;
}

}  // namespace rk::catalog::detail
")
# Only touch OUTPUT when it changes, so an unchanged catalog does not recompile.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous STREQUAL generated)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${generated}")

# Build-time script: writes OUTPUT, a C++ file whose rk::select::detail::builtin_presets() returns
# {name, YAML text} for each file in INPUTS (a ;-list of data/platforms/*.yaml). Run by the custom
# command in CMakeLists.txt, so editing a preset regenerates the file.
if(NOT INPUTS OR NOT OUTPUT)
  message(FATAL_ERROR "embed_presets.cmake needs -DINPUTS=<files> -DOUTPUT=<file>")
endif()
set(delimiter "rkyaml")
set(body "")
foreach(input IN LISTS INPUTS)
  file(READ "${input}" content)
  string(FIND "${content}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${input} contains the raw-string delimiter )${delimiter}\"")
  endif()
  get_filename_component(stem "${input}" NAME_WE)
  string(APPEND body "      {\"${stem}\", R\"${delimiter}(${content})${delimiter}\"},\n")
endforeach()
set(generated "// Generated from data/platforms/*.yaml by embed_presets.cmake. Do not edit.
#include \"rocekit/select/presets_data.hpp\"

namespace rk::select::detail {

const std::vector<EmbeddedPreset>& builtin_presets() {
  static const std::vector<EmbeddedPreset> k_presets = {
${body}  };
  return k_presets;
}

}  // namespace rk::select::detail
")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous STREQUAL generated)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${generated}")

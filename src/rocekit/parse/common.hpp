// Shared shapes for the tool-output parsers in rk::parse.
//
// Every parser is a pure function `std::string_view -> Result<Parsed<T>>`: no I/O, no globals.
// The input is the command output alone (the capture header already removed, see
// strip_capture_header). A parser returns an error only when the text is not that tool's output
// at all (empty, or nothing it recognises); otherwise it returns what it could read, and a
// Warning for each thing it had to skip or found cut off.
#pragma once

#include <cstddef>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rocekit/core/result.hpp"

namespace rk::parse {

/// A problem in otherwise usable input. `line` is 1-based within the text given to the parser
/// (0 when it concerns the whole text). `code` is stable and machine-readable, e.g. "truncated",
/// "unrecognised_line", "bad_number".
struct Warning {
  std::size_t line = 0;
  std::string code;
  std::string message;
};

template <class T>
struct Parsed {
  T value;
  std::vector<Warning> warnings;
};

/// A capture file split into its provenance header and the command output.
struct CaptureText {
  std::string_view header;     ///< the leading "# " lines up to and including "# ---", or empty
  std::string_view body;       ///< the command output, byte for byte
  std::size_t body_first_line; ///< 1-based line number of body's first line in the file
  /// A shell prompt line with the command that made the output ("$ sudo mlnx_qos -i eth4"),
  /// when the body started with one (see parse_prompt_line); it is not part of `body`.
  std::string_view prompt_line;
};

/// Splits off a leading header: consecutive lines starting with "# " (or exactly "#") that end
/// with a line "# ---". Without such a closing line the whole text is the body. A first body
/// line that is a shell prompt running one of rocekit's tools is moved to `prompt_line`.
CaptureText strip_capture_header(std::string_view file_text);

/// JSON form of warnings, for golden files and `rocekit parse`.
nlohmann::json warnings_to_json(const std::vector<Warning>& warnings);

/// The error text of a devlink error line ("kernel answers: Operation not supported", or
/// "devlink answers: ..." from older iproute2; devlink/devlink.c), nullopt for any other line.
std::optional<std::string_view> devlink_answer(std::string_view line);

}  // namespace rk::parse

// Small text helpers shared by the parsers. Pure functions, no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rk::text {

/// Strips ASCII whitespace (space, tab, CR, LF, VT, FF) from both ends.
std::string_view trim(std::string_view s);

/// Splits into lines on '\n'; a trailing '\r' is removed from each line. A final empty line
/// after the last '\n' is not returned.
std::vector<std::string_view> lines(std::string_view s);

/// Splits on runs of ASCII whitespace; no empty fields.
std::vector<std::string_view> words(std::string_view s);

/// Splits on `sep` exactly; empty fields are kept.
std::vector<std::string_view> split(std::string_view s, char sep);

bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);
bool contains(std::string_view s, std::string_view needle);

/// Lower-cases ASCII letters.
std::string to_lower(std::string_view s);
/// Levenshtein distance (insertions, deletions, substitutions), for "did you mean" hints.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// Whole-string decimal integer parse (leading/trailing whitespace allowed); nullopt on anything
/// else, including overflow.
std::optional<std::int64_t> parse_int(std::string_view s);
std::optional<std::uint64_t> parse_uint(std::string_view s);
/// Hex with or without 0x prefix.
std::optional<std::uint64_t> parse_hex(std::string_view s);
/// Decimal floating point, whole string.
std::optional<double> parse_double(std::string_view s);

/// The text after `key` up to end of line, trimmed, if `line` (trimmed) starts with `key`.
std::optional<std::string_view> value_after(std::string_view line, std::string_view key);

/// True when the text looks binary (a NUL byte or many non-text bytes in the first 4 KiB).
bool looks_binary(std::string_view s);

/// `s` safe to print on a terminal: each control character (bytes 0x00-0x1f and 0x7f: ESC,
/// CR, backspace, ...) becomes a visible `\xNN` escape, except '\n' when `keep_newlines`
/// and '\t'. Used by the text and Markdown renderers on values that come from inputs
/// (hostnames, interface and port names, capture lines), so a hostile name cannot inject
/// terminal escape sequences or forge report lines. Other bytes (UTF-8) pass unchanged.
std::string escape_control(std::string_view s, bool keep_newlines = false);

/// The message of a nlohmann::json exception without its "[json.exception.type_error.302] "
/// prefix, for user-facing errors: "(/netdevs) type must be array, but is string".
std::string json_error_message(std::string_view what);

}  // namespace rk::text

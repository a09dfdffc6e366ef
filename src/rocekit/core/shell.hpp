// The one shell-quoting function of rocekit.
#pragma once

#include <string>
#include <string_view>

namespace rk::text {

/// The one shell-quoting function of rocekit (check's fix lines, plan scripts, apply logs): a
/// word made only of [A-Za-z0-9_./:@%+=,-] is left as it is, anything else (empty, spaces, $,
/// quotes, globs, newlines) is single-quoted for POSIX sh: `it's` -> `'it'\''s'`. It does not
/// make option-like words (`-rf`) safe as operands: callers refuse such names first.
std::string shell_quote(std::string_view word);

}  // namespace rk::text

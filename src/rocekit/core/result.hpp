// rk::Result<T>: a value or an rk::Error. Its API is a strict subset of std::expected so that
// the switch to C++23 is one alias (see ../shared/STYLE.md §4).
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace rk {

/// What kind of failure happened; callers branch on this, never on the message text.
enum class ErrorKind { not_found, permission_denied, unsupported, malformed_input, tool_failed, io };

std::string_view to_string(ErrorKind kind);

/// A failure from the field. `message` is lower-case, no trailing period, and says why.
/// `context` names the file (and line) or device the failure is about, when known.
struct Error {
  ErrorKind kind = ErrorKind::malformed_input;
  std::string message;
  std::string context;

  /// "context: message", or just the message when there is no context.
  std::string describe() const;
};

template <class E>
struct Unexpected {
  E error;
};

inline Unexpected<Error> unexpected(Error e) { return Unexpected<Error>{std::move(e)}; }
inline Unexpected<Error> unexpected(ErrorKind kind, std::string message, std::string context = {}) {
  return Unexpected<Error>{Error{kind, std::move(message), std::move(context)}};
}

template <class T>
class Result {
 public:
  Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}  // NOLINT implicit
  Result(Unexpected<Error> e) : m_v(std::in_place_index<1>, std::move(e.error)) {}  // NOLINT

  bool has_value() const { return m_v.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & {
    assert(has_value());
    return std::get<0>(m_v);
  }
  const T& value() const& {
    assert(has_value());
    return std::get<0>(m_v);
  }
  T&& value() && {
    assert(has_value());
    return std::get<0>(std::move(m_v));
  }
  const Error& error() const {
    assert(!has_value());
    return std::get<1>(m_v);
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> m_v;
};

}  // namespace rk

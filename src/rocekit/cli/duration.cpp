#include "rocekit/cli/duration.hpp"

#include <cmath>
#include <charconv>
#include <system_error>
#include <sstream>

namespace rk::cli {

std::optional<double> parse_duration_s(std::string_view text) {
  // A plain decimal number (no sign, exponent or hex: "1e3" and "0x10" are not durations), then a unit.
  std::size_t n = text.find_first_not_of("0123456789.");
  std::string_view number = text.substr(0, n), unit = n == std::string_view::npos ? "" : text.substr(n);
  double v = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v, std::chars_format::fixed);
  if (number.empty() || ec != std::errc() || end != number.data() + number.size()) return std::nullopt;
  double scale = 0;
  if (unit.empty() || unit == "s") scale = 1;
  else if (unit == "ms") scale = 0.001;
  else if (unit == "m") scale = 60;
  else if (unit == "h") scale = 3600;
  else return std::nullopt;
  if (!std::isfinite(v * scale)) return std::nullopt;
  return v * scale;
}

namespace {

/// 0.5 -> "500ms", 90 -> "90s", 120 -> "2m", 3600 -> "1h", 31536000 -> "1 year".
std::string seconds_text(double s) {
  std::ostringstream o;
  if (s == 31536000) o << "1 year";
  else if (s > 0 && s < 1) o << s * 1000 << "ms";
  else if (s >= 3600 && std::fmod(s, 3600) == 0) o << s / 3600 << "h";
  else if (s >= 60 && std::fmod(s, 60) == 0) o << s / 60 << "m";
  else o << s << "s";
  return o.str();
}

}  // namespace

CLI::Option* add_duration_option(CLI::App& cmd, const std::string& name, std::optional<double>& seconds,
                                 const std::string& description, double min_s, double max_s) {
  std::string range = seconds_text(min_s) + " to " + seconds_text(max_s);
  return cmd
      .add_option_function<std::string>(
          name,
          [&seconds, name, range, min_s, max_s](const std::string& text) {
            std::optional<double> v = parse_duration_s(text);
            if (!v)
              throw CLI::ValidationError(name, "'" + text + "' is not a duration (e.g. 500ms, 10s, 2m, 1h; a bare number is seconds)");
            if (*v < min_s || *v > max_s)
              throw CLI::ValidationError(name, "'" + text + "' is outside " + range);
            seconds = *v;
          },
          description + " (a duration: 500ms, 10s, 2m, 1h; a bare number is seconds; " + range + ")")
      ->type_name("DURATION");
}

}  // namespace rk::cli

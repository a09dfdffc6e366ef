// Durations on the command line: one syntax for every option that takes a time
// (diagnose --interval, exporter --interval/--state-interval, apply --step-timeout).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace rk::cli {

/// "500ms", "10s", "2m", "1h" or a bare number of seconds ("10", "0.2") -> seconds.
/// nullopt for anything else: a sign, an exponent, hex, another unit, an infinite value.
std::optional<double> parse_duration_s(std::string_view text);

/// Adds option `name` taking a duration (parse_duration_s) into `seconds` (nullopt: not given),
/// refused by CLI11 with
/// "rocekit: error: NAME: ..." when malformed or outside [min_s, max_s].
CLI::Option* add_duration_option(CLI::App& cmd, const std::string& name, std::optional<double>& seconds,
                                 const std::string& description, double min_s, double max_s);

}  // namespace rk::cli

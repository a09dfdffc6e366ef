// Prometheus text exposition (format 0.0.4) for rocekit exporter: the declared metric table and a
// writer that groups samples by family, escapes label values and formats numbers. No I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rk::exporter {

enum class MetricType { counter, gauge };

/// One exported metric family. Names never change once shipped: alerts depend on them.
struct MetricSpec {
  std::string_view name;  ///< "rocekit_..." base units, `_total` for counters
  MetricType type;
  std::string_view help;
};

/// Every metric the exporter can emit, in output order (the registry; metrics.cpp).
const std::vector<MetricSpec>& all_metrics();
/// The spec of `name`, or nullptr.
const MetricSpec* find_metric(std::string_view name);
/// Index of `name` in all_metrics(). Errors: std::logic_error for an undeclared name (a
/// programmer error).
std::size_t metric_index(std::string_view name);

using Labels = std::vector<std::pair<std::string, std::string>>;

/// Escapes a label value as the text format requires: backslash, double quote, newline.
std::string escape_label_value(std::string_view v);

/// The series part of a sample line: `name{k="v",...}` with escaped values (`name` alone when
/// `labels` is empty). Rendered once and reused for series sampled every scrape.
std::string sample_series(std::string_view name, const Labels& labels);

/// Collects samples and writes them grouped per family (HELP and TYPE once each, families in
/// table order, samples in insertion order). A family without samples is omitted.
class Exposition {
 public:
  /// Adds a sample. `name` must be in all_metrics() (a programmer error otherwise:
  /// std::logic_error). Integer values are written exactly (no 2^53 rounding).
  void add(std::string_view name, const Labels& labels, std::uint64_t value);
  void add(std::string_view name, const Labels& labels, double value);
  /// Adds a sample whose series was rendered by sample_series(); `family` is the metric's
  /// metric_index(). The hot path for counters read every scrape.
  void add_series(std::size_t family, std::string_view series, std::uint64_t value);
  void add_series(std::size_t family, std::string_view series, double value);
  /// Appends every sample of `other` after this one's own, family by family.
  void append(const Exposition& other);
  /// Number of samples added.
  std::size_t size() const { return m_count; }
  /// The exposition text; ends with a newline.
  std::string str() const;

 private:
  void add_line(std::size_t family, std::string_view series, std::string_view value);
  std::vector<std::string> m_lines = std::vector<std::string>(all_metrics().size());  ///< per family
  std::size_t m_count = 0;
};

/// Formats a double as the text format expects ("+Inf", "NaN", shortest round-trip otherwise).
std::string format_double(double v);

}  // namespace rk::exporter

// Prometheus text exposition (format 0.0.4) for rocekit exporter: the declared metric table and a
// writer that groups samples by family, escapes label values and formats numbers. No I/O.
#pragma once

#include <cstdint>
#include <map>
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

using Labels = std::vector<std::pair<std::string, std::string>>;

/// Escapes a label value as the text format requires: backslash, double quote, newline.
std::string escape_label_value(std::string_view v);

/// Collects samples and writes them grouped per family (HELP and TYPE once each, families in
/// table order, samples in insertion order). A family without samples is omitted.
class Exposition {
 public:
  /// Adds a sample. `name` must be in all_metrics() (a programmer error otherwise:
  /// std::logic_error). Integer values are written exactly (no 2^53 rounding).
  void add(std::string_view name, const Labels& labels, std::uint64_t value);
  void add(std::string_view name, const Labels& labels, double value);
  /// Number of samples added.
  std::size_t size() const { return m_count; }
  /// The exposition text; ends with a newline.
  std::string str() const;

 private:
  void add_line(std::string_view name, const Labels& labels, const std::string& value);
  std::map<std::string, std::string, std::less<>> m_lines;  ///< family -> sample lines
  std::size_t m_count = 0;
};

/// Formats a double as the text format expects ("+Inf", "NaN", shortest round-trip otherwise).
std::string format_double(double v);

}  // namespace rk::exporter

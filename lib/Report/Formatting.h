//===-- Formatting.h - numbers and tables as printed ------------*- C++ -*-===//
//
// The number forms every report format shares (percentages, speedups,
// thresholds, deltas, "n/a" for what a run cannot state), HTML escaping,
// and the rows of the metric tables, so text, markdown and HTML agree.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_REPORT_FORMATTING_H
#define KEVIN_LIB_REPORT_FORMATTING_H

#include "kevin/Report/Compare.h"
#include "kevin/Report/Format.h"
#include "kevin/Report/Metrics.h"
#include "kevin/Report/RunInfo.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kevin::report {

/// V with Digits decimals, rounded from its 15-digit form so that a mean of
/// 0.775 computed as 0.7749999999999999 still shows as 0.78.
std::string fixed(double V, int Digits);
std::string percent(double V); ///< 0.5 -> "50.0%"
std::string times(double V);   ///< 1.5 -> "1.50x"
/// The shortest text of a threshold or k (0.5, 1, 1.5).
std::string label(double V);
/// percent or times of a value, "n/a" without one.
std::string valueOrNA(const std::optional<double> &V, bool Percent);
/// A signed difference: "+12.5 pp" for shares, "-0.25x" for speedups,
/// "n/a" without one.
std::string delta(const std::optional<double> &V, bool Percent);
/// Text for a markdown table cell: `|` escaped, newlines as spaces.
std::string markdownCell(const std::string &Text);

/// One row of the overall table: a metric's best@k and avg@k as text
/// (avg@k empty for pass@k).
struct MetricRow {
  std::string Name, Best, Avg;
};

/// The rows of the overall (or a level's) table: correct, speedup, fast_p
/// and the pass@k a task set has. Timed false shows speedup and fast_p as
/// n/a (a run that was never timed).
std::vector<MetricRow> metricRows(const TaskMetrics &T, bool Timed,
                                  const ReportOptions &Opts);

/// Speedup as text, "n/a" when the run was never timed.
std::string speedupText(double V, bool Timed);

/// The level rows worth a table: none when every task is at level "(none)".
bool hasLevels(const RunReport &Report);

/// A table of text cells that each format renders its own way.
struct Table {
  std::vector<std::string> Header;
  std::vector<std::vector<std::string>> Rows;
  /// How many leading columns hold text (left-aligned); the rest are
  /// numbers (right-aligned).
  size_t TextColumns = 1;
  /// Fixed-width columns, indented by two spaces.
  std::string text() const;
  std::string markdown() const;
  std::string html() const; ///< cells escaped
};

/// The rows of the report's sections shared by the formats.
Table levelTable(const RunReport &Report);
Table costTable(const RunReport &Report);
Table flaggedTable(const RunReport &Report);
Table settingsTable(const RunInfo &Info);
/// correct, speedup, fast_p (best@k, avg@k) and pass@k over all tasks.
Table overallTable(const RunReport &Report, const ReportOptions &Opts);
Table taskTable(const RunReport &Report);
/// Kernels by a name (a failure stage, a rule).
Table countTable(const char *Column,
                 const std::map<std::string, size_t> &Counts);
/// S, R and A: mean, min, max.
Table signalTable(const RunReport &Report);
/// The metrics of two runs with their deltas (B - A).
Table comparisonTable(const std::vector<MetricPair> &Pairs);
/// Per task (or level), a row for each of its metrics: A, B and delta.
Table comparisonByTask(const std::vector<TaskComparison> &Tasks,
                       const char *FirstColumn);

} // namespace kevin::report

#endif // KEVIN_LIB_REPORT_FORMATTING_H

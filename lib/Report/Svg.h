//===-- Svg.h - inline SVG charts of the HTML page --------------*- C++ -*-===//
//
// Bar charts, histograms and per-turn line charts as inline SVG, styled by
// the page's CSS classes, with a <title> tooltip on every bar and point.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_REPORT_SVG_H
#define KEVIN_LIB_REPORT_SVG_H

#include <string>
#include <vector>

namespace kevin::report {

/// A bar chart of Counts labelled by Labels, XLabel under the axis.
std::string barChart(const std::string &Title,
                     const std::vector<std::string> &Labels,
                     const std::vector<size_t> &Counts,
                     const std::string &XLabel);

/// A histogram of Values in Bins equal bins from their min to their max
/// (one bar when they are all equal).
std::string histogram(const std::string &Title,
                      const std::vector<double> &Values,
                      const std::string &XLabel, size_t Bins = 10);

struct Series {
  std::string Name;
  std::vector<double> Values;
  std::string Class; ///< the CSS class of its line (s1, s2)
};

/// A line chart over turns 1..n; values are clipped at YMax and labelled
/// times YScale with YUnit.
std::string lineChart(const std::string &Title, const std::vector<Series> &All,
                      double YMax, const std::string &YUnit, double YScale);

} // namespace kevin::report

#endif // KEVIN_LIB_REPORT_SVG_H

//===-- kevin/Report/Format.h - text, JSON, markdown and HTML ---*- C++ -*-===//
//
// The forms of `kevin report`: a terminal table, JSON for scripts, a
// markdown summary to paste into an issue or a paper, and a self-contained
// HTML page (inline CSS and SVG plots, collapsible drill-down, no script,
// nothing fetched from the network) that opens in any browser. Each form
// has a variant for the comparison of two runs.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_REPORT_FORMAT_H
#define KEVIN_REPORT_FORMAT_H

#include "kevin/Report/Compare.h"
#include "kevin/Report/Metrics.h"
#include "kevin/Report/RunInfo.h"
#include "kevin/Support/Record.h"

#include <string>

namespace kevin {

std::string formatReportText(const RunReport &Report,
                             const ReportOptions &Opts);
Json reportToJson(const RunReport &Report, const ReportOptions &Opts);
std::string formatReportMarkdown(const RunReport &Report,
                                 const ReportOptions &Opts,
                                 const RunInfo &Info);
/// Samples give the drill-down (the kernels whose Details were kept).
std::string formatReportHtml(const RunReport &Report,
                             const std::vector<KernelSample> &Samples,
                             const ReportOptions &Opts, const RunInfo &Info);

/// The comparison of run A with run B.
std::string formatComparisonText(const RunComparison &C, const RunInfo &A,
                                 const RunInfo &B);
Json comparisonToJson(const RunComparison &C, const RunInfo &A,
                      const RunInfo &B);
std::string formatComparisonMarkdown(const RunComparison &C, const RunInfo &A,
                                     const RunInfo &B);
std::string formatComparisonHtml(const RunComparison &C, const RunInfo &A,
                                 const RunInfo &B);

/// The run's configuration as JSON: {"name", "settings": {label: value}}.
Json runInfoToJson(const RunInfo &Info);

/// Text with &, <, > and " escaped for HTML.
std::string escapeHtml(const std::string &Text);

} // namespace kevin

#endif // KEVIN_REPORT_FORMAT_H

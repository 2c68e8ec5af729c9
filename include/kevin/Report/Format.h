//===-- kevin/Report/Format.h - text, JSON and HTML reports -----*- C++ -*-===//
//
// The three forms of `kevin report`: a terminal table, JSON for scripts, and
// a self-contained HTML page (inline CSS and SVG plots, no script, nothing
// fetched from the network) that opens in any browser.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_REPORT_FORMAT_H
#define KEVIN_REPORT_FORMAT_H

#include "kevin/Report/Metrics.h"
#include "kevin/Support/Record.h"

#include <string>

namespace kevin {

std::string formatReportText(const RunReport &Report,
                             const ReportOptions &Opts);
Json reportToJson(const RunReport &Report, const ReportOptions &Opts);
/// Title names the run (e.g. the input files).
std::string formatReportHtml(const RunReport &Report, const ReportOptions &Opts,
                             const std::string &Title);

} // namespace kevin

#endif // KEVIN_REPORT_FORMAT_H

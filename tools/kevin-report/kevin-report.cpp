//===-- kevin-report.cpp - metrics, tables and an HTML report over a run --===//
//
// `kevin report RUN`: Kevin's evaluation metrics (best@k, avg@k, fast_p,
// pass@k), per-turn curves, failures, the RL signal, cost and
// training-stability signals over a run's records, as a terminal table,
// JSON, markdown or a self-contained HTML page; `kevin report A B` compares
// two runs; kevin search runs (any number) give best speedup and pass rate
// against the kernels spent, per strategy. A thin main over lib/Report and
// kevin/Rollout/SearchCurves.h; docs/CommandGuide/kevin-report.md.
//
//===----------------------------------------------------------------------===//
#include "kevin/Report/Format.h"
#include "kevin/Report/Metrics.h"
#include "kevin/Report/RunInfo.h"
#include "kevin/Rollout/SearchCurves.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/ToolIO.h"
#include "kevin/Support/ToolMain.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

using namespace kevin;

namespace {

enum class ReportFormat { Text, Json, Markdown, Html };

/// One run read and measured.
struct MeasuredRun {
  RunInfo Info;
  std::vector<KernelSample> Samples;
  RunReport Report;
};

Expected<MeasuredRun> measureRun(const std::string &Input,
                                 const ReportOptions &Opts, ToolContext &Ctx) {
  MeasuredRun Run;
  auto Info = locateRun(Input);
  if (!Info)
    return Info.error();
  Run.Info = std::move(*Info);
  std::vector<Error> Warnings;
  auto Samples = readRunSamples({Run.Info.RecordPath}, Opts, Warnings);
  for (const Error &W : Warnings)
    Ctx.warning(W);
  if (!Samples)
    return Samples.error();
  Run.Samples = std::move(*Samples);
  describeRun(Run.Info, Run.Samples);
  Run.Report = computeReport(Run.Samples, Opts);
  return Run;
}

std::string formatRun(const MeasuredRun &Run, ReportFormat Format,
                      const ReportOptions &Opts) {
  switch (Format) {
  case ReportFormat::Text:
    return formatReportText(Run.Report, Opts);
  case ReportFormat::Json: {
    Json J = reportToJson(Run.Report, Opts);
    J["run"] = runInfoToJson(Run.Info);
    return J.dump(2) + "\n";
  }
  case ReportFormat::Markdown:
    return formatReportMarkdown(Run.Report, Opts, Run.Info);
  case ReportFormat::Html:
    return formatReportHtml(Run.Report, Run.Samples, Opts, Run.Info);
  }
  return "";
}

std::string formatComparison(const MeasuredRun &A, const MeasuredRun &B,
                             ReportFormat Format, const ReportOptions &Opts) {
  RunComparison C = compareRuns(A.Report, B.Report, Opts);
  switch (Format) {
  case ReportFormat::Text:
    return formatComparisonText(C, A.Info, B.Info);
  case ReportFormat::Json:
    return comparisonToJson(C, A.Info, B.Info).dump(2) + "\n";
  case ReportFormat::Markdown:
    return formatComparisonMarkdown(C, A.Info, B.Info);
  case ReportFormat::Html:
    return formatComparisonHtml(C, A.Info, B.Info);
  }
  return "";
}

/// Writes Text to OutputPath; the tool's exit status.
int writeReport(const std::string &Text, const std::string &OutputPath,
                ToolContext &Ctx) {
  Expected<ToolOutput> Output = ToolOutput::open(OutputPath);
  if (!Output) {
    Ctx.error(Output.error());
    return ExitError;
  }
  if (Error Err = Output->write(Text)) {
    // A failed write to stdout shows in the exit status alone.
    if (OutputPath != "-")
      Ctx.error(Err);
    return ExitError;
  }
  return ExitClean;
}

/// Whether Input is a kevin search log: a run directory holding
/// search.jsonl, or a file of that name.
bool isSearchLog(const std::string &Input) {
  namespace sfs = std::filesystem;
  std::error_code Ignored;
  if (sfs::is_directory(Input, Ignored))
    return sfs::exists(sfs::path(Input) / "search.jsonl", Ignored);
  return sfs::path(Input).filename() == "search.jsonl";
}

/// The budget curves of kevin search runs and the table of the Kevin
/// paper's Table 2 shape, in Format.
std::string formatSearchRuns(const std::vector<SearchCurve> &Curves,
                             ReportFormat Format) {
  std::string Table = formatBudgetTable(Curves, TableOptions());
  switch (Format) {
  case ReportFormat::Text:
    return formatCurvesText(Curves) + "\n" + Table;
  case ReportFormat::Markdown:
    return "## Budget\n\n" + Table;
  case ReportFormat::Json: {
    Json Out = Json::array();
    for (const SearchCurve &C : Curves) {
      Json Points = Json::array();
      for (const CurvePoint &P : C.Points)
        Points.push_back({{"kernels", P.Kernels},
                          {"best_speedup", P.BestSpeedup},
                          {"pass_rate", P.PassRate}});
      Out.push_back({{"label", C.Label},
                     {"budget", C.Budget},
                     {"samples", C.FinalBest.size()},
                     {"points", Points}});
    }
    return Json{{"search_curves", Out}}.dump(2) + "\n";
  }
  case ReportFormat::Html:
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
           "<title>kevin report: budget curves</title></head><body>\n"
           "<h1>Budget curves</h1>\n" +
           formatCurvesSvg(Curves) + "\n<h2>Table</h2>\n<pre>" +
           escapeHtml(Table) + "</pre>\n</body></html>\n";
  }
  return "";
}

} // namespace

int main(int Argc, char **Argv) {
  std::ios::sync_with_stdio(false);
  CLI::App App("kevin-report: best@k, avg@k, fast_p, pass@k, per-turn curves, "
               "failures, RL signal, cost and stability over a run's records, "
               "or the deltas between two runs",
               "kevin-report");
  ReportOptions Opts;
  std::vector<std::string> Inputs;
  std::string OutputPath = "-";
  ReportFormat Format = ReportFormat::Text;
  size_t DrillDown = 200;
  App.add_option("inputs", Inputs,
                 "a run (a record file, '-' for stdin, or a kevin rollout run "
                 "directory); two runs are compared");
  App.add_option("-o,--output", OutputPath, "where to write ('-' is stdout)");
  addChoiceOption<ReportFormat>(App, "--format", Format,
                                {{"text", ReportFormat::Text},
                                 {"json", ReportFormat::Json},
                                 {"markdown", ReportFormat::Markdown},
                                 {"html", ReportFormat::Html}},
                                "a terminal table, JSON, a markdown summary, "
                                "or an HTML page");
  App.add_option("--drill-down", DrillDown,
                 "trajectories the HTML page shows turn by turn (0: none)")
      ->capture_default_str();
  App.add_option("--fast-p", Opts.FastP, "the speedup thresholds of fast_p")
      ->delimiter(',')
      ->default_str("0,0.5,0.8,1,1.5,2");
  App.add_option("--pass-k", Opts.PassK, "the k of pass@k")
      ->delimiter(',')
      ->check(CLI::PositiveNumber)
      ->default_str("1,2,4,8,16");
  App.add_option("--okay-prefix", Opts.OkayPrefix,
                 "the expected start of a response (Kevin's Not Okay Ratio)")
      ->capture_default_str();
  App.add_option("--correct-weight", Opts.Score.CorrectWeight,
                 "as kevin-reward, for records without a reward section")
      ->capture_default_str();
  std::string ConfigPath;
  addConfigOption(App, ConfigPath, "report");
  if (auto Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;
  ToolContext Ctx(App.get_name());
  if (Error Err = applyConfigFile(App, ConfigPath, "report")) {
    Ctx.error(Err);
    return ExitError;
  }
  if (Inputs.empty())
    Inputs.push_back("-");
  if (std::all_of(Inputs.begin(), Inputs.end(), isSearchLog)) {
    std::vector<Error> Warnings;
    auto Kernels = readSearchKernels(Inputs, Warnings);
    for (const Error &W : Warnings)
      Ctx.warning(W);
    if (!Kernels) {
      Ctx.error(Kernels.error());
      return ExitError;
    }
    return writeReport(
        formatSearchRuns(computeSearchCurves(*Kernels), Format), OutputPath,
        Ctx);
  }
  if (Inputs.size() > 2) {
    Ctx.usageError("give one run, or two runs to compare (got " +
                   std::to_string(Inputs.size()) +
                   " inputs; join the record "
                   "files of one run with cat)");
    return ExitError;
  }
  if (Format == ReportFormat::Html)
    Opts.DetailTrajectories = DrillDown;

  std::vector<MeasuredRun> Runs;
  for (const std::string &Input : Inputs) {
    auto Run = measureRun(Input, Opts, Ctx);
    if (!Run) {
      Ctx.error(Run.error());
      return ExitError;
    }
    Runs.push_back(std::move(*Run));
  }
  std::string Text = Runs.size() == 2
                         ? formatComparison(Runs[0], Runs[1], Format, Opts)
                         : formatRun(Runs[0], Format, Opts);
  return writeReport(Text, OutputPath, Ctx);
}

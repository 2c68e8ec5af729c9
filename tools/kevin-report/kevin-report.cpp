//===-- kevin-report.cpp - metrics, tables and an HTML report over a run --===//
//
// `kevin report RUN/turns.jsonl`: Kevin's evaluation metrics (best@k, avg@k,
// fast_p, pass@k), per-turn curves, failures and training-stability signals
// over a run's records, as a terminal table, JSON or a self-contained HTML
// page. A thin main over lib/Report; docs/CommandGuide/kevin-report.md.
//
//===----------------------------------------------------------------------===//
#include "kevin/Report/Format.h"
#include "kevin/Report/Metrics.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/ToolIO.h"
#include "kevin/Support/ToolMain.h"

#include <iostream>

using namespace kevin;

namespace {

enum class ReportFormat { Text, Json, Html };

std::string joinPaths(const std::vector<std::string> &Paths) {
  std::string Out;
  for (const std::string &P : Paths)
    Out += (Out.empty() ? "" : ", ") + (P == "-" ? std::string("<stdin>") : P);
  return Out;
}

} // namespace

int main(int Argc, char **Argv) {
  std::ios::sync_with_stdio(false);
  CLI::App App("kevin-report: best@k, avg@k, fast_p, pass@k, per-turn curves, "
               "failures and stability signals over a run's records",
               "kevin-report");
  ReportOptions Opts;
  std::vector<std::string> Inputs;
  std::string OutputPath = "-";
  ReportFormat Format = ReportFormat::Text;
  App.add_option("inputs", Inputs, "record files of the run ('-' is stdin)");
  App.add_option("-o,--output", OutputPath, "where to write ('-' is stdout)");
  addChoiceOption<ReportFormat>(App, "--format", Format,
                                {{"text", ReportFormat::Text},
                                 {"json", ReportFormat::Json},
                                 {"html", ReportFormat::Html}},
                                "a terminal table, JSON, or an HTML page");
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

  std::vector<Error> Warnings;
  auto Samples = readRunSamples(Inputs, Opts, Warnings);
  for (const Error &W : Warnings)
    Ctx.warning(W);
  if (!Samples) {
    Ctx.error(Samples.error());
    return ExitError;
  }
  RunReport Report = computeReport(*Samples, Opts);
  std::string Text;
  switch (Format) {
  case ReportFormat::Text:
    Text = formatReportText(Report, Opts);
    break;
  case ReportFormat::Json:
    Text = reportToJson(Report, Opts).dump(2) + "\n";
    break;
  case ReportFormat::Html:
    Text = formatReportHtml(Report, Opts, joinPaths(Inputs));
    break;
  }
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

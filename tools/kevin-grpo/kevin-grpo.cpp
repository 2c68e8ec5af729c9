//===-- kevin-grpo.cpp - group advantages and training rows ---------------===//
//
// Reads records scored by kevin-reward (a file, or stdin), groups them,
// computes GRPO advantages and writes the records with a `grpo` section or,
// with --emit=rows, training rows. A thin main over lib/GRPO;
// docs/CommandGuide/kevin-grpo.md.
//
//===----------------------------------------------------------------------===//
#include "kevin/GRPO/GRPO.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/ToolIO.h"
#include "kevin/Support/ToolMain.h"

#include <cmath>
#include <iostream>

using namespace kevin;

int main(int Argc, char **Argv) {
  std::ios::sync_with_stdio(false);
  CLI::App App("kevin-grpo: group-normalised advantages and training rows",
               "kevin-grpo");
  GrpoOptions Opts;
  std::string InputPath = "-", OutputPath = "-";
  App.add_option("input", InputPath,
                 "records scored by kevin-reward ('-' is stdin)");
  App.add_option("-o,--output", OutputPath,
                 "where to write the output ('-' is stdout)");
  addChoiceOption<GroupBy>(
      App, "--group-by", Opts.By,
      {{"task", GroupBy::Task}, {"task-turn", GroupBy::TaskTurn}},
      "the samples normalised together");
  addChoiceOption<StdMode>(App, "--std", Opts.Advantage.Std,
                           {{"population", StdMode::Population},
                            {"sample", StdMode::Sample},
                            {"none", StdMode::None}},
                           "divide by the population or sample std, or not at "
                           "all (none: Dr. GRPO)");
  addChoiceOption<Baseline>(
      App, "--baseline", Opts.Advantage.Base,
      {{"mean", Baseline::Mean}, {"leave-one-out", Baseline::LeaveOneOut}},
      "subtract the group mean or the mean of the other samples "
      "(leave-one-out: RLOO)");
  App.add_option("--eps", Opts.Advantage.Eps,
                 "added to the std before dividing")
      ->capture_default_str();
  addChoiceOption<EmitKind>(
      App, "--emit", Opts.Emit,
      {{"records", EmitKind::Records}, {"rows", EmitKind::Rows}},
      "write the records with a grpo section, or training rows");
  std::string ConfigPath;
  addConfigOption(App, ConfigPath, "grpo");
  if (auto Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;
  ToolContext Ctx(App.get_name());
  if (Error Err = applyConfigFile(App, ConfigPath, "grpo")) {
    Ctx.error(Err);
    return ExitError;
  }
  if (!(Opts.Advantage.Eps >= 0) || !std::isfinite(Opts.Advantage.Eps)) {
    Ctx.usageError("--eps must be a finite number >= 0");
    return ExitError;
  }

  GrpoSummary Summary;
  if (Error Err = runRecordFilter(
          InputPath, OutputPath,
          [&](std::istream &In, const std::string &Source, LineWriter &Out) {
            return grpoRecords(In, Source, Out, Opts, Summary);
          })) {
    Ctx.error(Err);
    return ExitError;
  }
  auto Of = [&](size_t N) {
    return std::to_string(N) + " of " + std::to_string(Summary.Groups) +
           (Summary.Groups == 1 ? " group" : " groups");
  };
  if (Summary.ZeroVarianceGroups)
    Ctx.warning(Error::make(
        Of(Summary.ZeroVarianceGroups) +
        " have zero variance (all returns equal): their advantages are 0"));
  if (Summary.SingleSampleGroups)
    Ctx.warning(
        Error::make(Of(Summary.SingleSampleGroups) + " have a single sample"));
  return ExitClean;
}

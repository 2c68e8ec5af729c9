//===-- kevin-reward.cpp - scores and discounted per-turn returns ---------===//
//
// Reads kevin records (a file, or stdin) and writes each with a `reward`
// section: the kernel score S and, for multi-turn trajectories, the return
// R_t. A thin main over lib/Reward; docs/CommandGuide/kevin-reward.md.
//
//===----------------------------------------------------------------------===//
#include "kevin/Reward/Reward.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/ToolIO.h"
#include "kevin/Support/ToolMain.h"

#include <iostream>

using namespace kevin;

int main(int Argc, char **Argv) {
  std::ios::sync_with_stdio(false);
  CLI::App App("kevin-reward: kernel scores S = w_c*1{correct} + "
               "speedup*1{correct} and discounted per-turn returns",
               "kevin-reward");
  RewardOptions Opts;
  std::string InputPath = "-", OutputPath = "-";
  double Cap = 0;
  App.add_option("input", InputPath,
                 "records to score (JSON Lines; '-' is stdin)");
  App.add_option("-o,--output", OutputPath,
                 "where to write the records ('-' is stdout)");
  App.add_option("--correct-weight", Opts.Score.CorrectWeight,
                 "w_c, the score of a correct kernel before its speedup")
      ->capture_default_str();
  auto *CapOpt = App.add_option("--speedup-cap", Cap,
                                "count speedups above this value as the value");
  App.add_flag("--log-speedup", Opts.Score.LogSpeedup,
               "use log(1 + speedup) instead of the speedup");
  App.add_option(
         "--flag-penalty", Opts.Score.FlagPenalty,
         "subtract this per entry of bench.flags (the score stays >= 0)")
      ->capture_default_str();
  App.add_flag("--zero-on-findings", Opts.Score.ZeroOnFindings,
               "score 0 for any check finding, warnings included");
  addChoiceOption<ReturnMode>(
      App, "--return", Opts.Mode,
      {{"sum", ReturnMode::Sum}, {"max", ReturnMode::Max}},
      "per-turn return: discounted sum or discounted max");
  App.add_option("--gamma", Opts.Gamma, "the discount of later turns")
      ->capture_default_str();
  std::string ConfigPath;
  addConfigOption(App, ConfigPath, "reward");
  if (auto Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;
  ToolContext Ctx(App.get_name());
  if (Error Err = applyConfigFile(App, ConfigPath, "reward")) {
    Ctx.error(Err);
    return ExitError;
  }
  if (CapOpt->count())
    Opts.Score.SpeedupCap = Cap;
  if (Error Err = validateRewardOptions(Opts)) {
    Ctx.usageError(Err.message());
    return ExitError;
  }

  std::vector<Error> Warnings;
  Error Err = runRecordFilter(
      InputPath, OutputPath,
      [&](std::istream &In, const std::string &Source, LineWriter &Out) {
        return rewardRecords(In, Source, Out, Opts, &Warnings);
      });
  for (const Error &Warning : Warnings)
    Ctx.warning(Warning);
  if (Err) {
    Ctx.error(Err);
    return ExitError;
  }
  return ExitClean;
}

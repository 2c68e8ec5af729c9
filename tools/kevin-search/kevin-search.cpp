//===-- kevin-search.cpp - spending a budget of kernels -------------------===//
//
// `kevin search --tasks DIR --policy SPEC --budget B --strategy
// parallel|serial|beam -o RUN` generates and evaluates B kernels per task
// the way the strategy says, logging each to RUN/search.jsonl (a rerun
// resumes), and prints best@budget and correctness as the budget is spent.
// `kevin search --curves RUN...` turns search logs into curves or the budget
// table. See docs/CommandGuide/kevin-search.md.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/Search.h"
#include "kevin/Rollout/SearchCurves.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/ToolMain.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

using namespace kevin;

namespace {

enum class CurveFormat { Text, Csv, Svg, Table };

struct CommandLine {
  SearchOptions Search;
  std::string TasksDir, PolicySpec, PromptFile = defaultPromptFile();
  std::vector<std::string> OnlyTasks;
  std::string Stages = "check,run,bench";
  std::string CheckPreset, Server, ServerToken;
  double StageTimeout = 1800;
  OpenAIOptions Http;
  std::vector<std::string> CurveRuns;
  CurveFormat Format = CurveFormat::Text;
  TableOptions Table;
};

void addSearchOptions(CLI::App &App, CommandLine &C) {
  RolloutOptions &R = C.Search.Run;
  App.add_option("--tasks", C.TasksDir, "Directory of KernelBench-format tasks");
  App.add_option("--task", C.OnlyTasks,
                 "Only this task id (path under --tasks without .py); "
                 "repeatable");
  App.add_option("--policy", C.PolicySpec, "openai:URL or replay:FILE");
  App.add_option("--model", R.Model, "Model name sent to the server");
  App.add_option("-o,--output", R.RunDir,
                 "Run directory (search.json, search.jsonl, candidates/)");
  App.add_option("--budget", C.Search.Budget, "Kernels per task (B)")
      ->check(CLI::PositiveNumber);
  addChoiceOption<SearchStrategy>(App, "--strategy", C.Search.Strategy,
                                  {{"parallel", SearchStrategy::Parallel},
                                   {"serial", SearchStrategy::Serial},
                                   {"beam", SearchStrategy::Beam}},
                                  "How the budget is spent");
  App.add_option("-n,--turns", R.Turns, "serial: turns per trajectory (n)")
      ->check(CLI::PositiveNumber);
  App.add_option("-k,--beam-width", C.Search.BeamWidth,
                 "beam: kernels kept per round (k)")
      ->check(CLI::PositiveNumber);
  App.add_option("-b,--branching", C.Search.Branching,
                 "beam: refinements of each kept kernel (b)")
      ->check(CLI::PositiveNumber);
  App.add_flag("--evaluate-duplicates", C.Search.EvaluateDuplicates,
               "Evaluate a kernel whose code repeats an earlier one of its "
               "task again instead of taking its verdict");
  App.add_option("--device", R.Device, "cpu, cuda or cuda:N");
  App.add_option("--prompts", C.PromptFile, "Prompt templates (TOML)");
  App.add_option("--temperature", R.Temperature, "Sampling temperature");
  App.add_option("--top-p", R.TopP, "Nucleus sampling");
  App.add_option("--max-tokens", R.MaxTokens, "Completion token limit");
  App.add_flag("--logprobs", R.Logprobs,
               "Ask the server for token ids and logprobs");
  App.add_option("--context-budget", R.ContextBudgetTokens,
                 "Prompt budget in tokens (characters / 4); oldest attempts "
                 "are dropped first; 0 = no limit");
  App.add_option("-j,--jobs", R.Jobs, "Tasks searched at once")
      ->check(CLI::PositiveNumber);
  App.add_option("--max-in-flight", R.MaxInFlight, "Policy requests at once")
      ->check(CLI::PositiveNumber);
  App.add_option("--eval-jobs", R.EvalJobs, "Evaluations at once")
      ->check(CLI::PositiveNumber);
}

void addEvaluationOptions(CLI::App &App, CommandLine &C) {
  App.add_option("--stages", C.Stages,
                 "Evaluation stages, comma-separated (check,run,bench)");
  App.add_option("--stage-timeout", C.StageTimeout,
                 "Seconds one stage may take on one kernel");
  App.add_option("--check-preset", C.CheckPreset,
                 "kevin-check preset (default: cpu for --device cpu, else "
                 "strict)");
  App.add_option("--server", C.Server,
                 "Evaluate the kernels on a kevin serve (http://HOST:PORT) "
                 "instead of running the stage tools here");
  App.add_option("--server-token", C.ServerToken, "The server's bearer token");
  App.add_option("--api-key", C.Http.ApiKey,
                 "API key (default: $OPENAI_API_KEY)");
  App.add_option("--request-timeout", C.Http.TimeoutSeconds,
                 "Seconds one policy request may take");
  App.add_option("--retries", C.Http.MaxRetries,
                 "Retries on 429, 5xx and connection errors");
  App.add_option("--backoff", C.Http.BackoffSeconds,
                 "First retry delay in seconds (doubles each retry)");
  App.add_option("--curves", C.CurveRuns,
                 "Instead of searching: curves or the table of these runs "
                 "(run directories or search.jsonl files)");
  addChoiceOption<CurveFormat>(App, "--format", C.Format,
                               {{"text", CurveFormat::Text},
                                {"csv", CurveFormat::Csv},
                                {"svg", CurveFormat::Svg},
                                {"table", CurveFormat::Table}},
                               "--curves output");
  App.add_option("--resamples", C.Table.Resamples,
                 "--format table: bootstrap resamples over tasks");
  App.add_option("--seed", C.Table.Seed, "--format table: bootstrap seed");
}

int printCurves(ToolContext &Tool, const CommandLine &C) {
  std::vector<Error> Warnings;
  auto Kernels = readSearchKernels(C.CurveRuns, Warnings);
  for (const Error &Warning : Warnings)
    Tool.warning(Warning);
  if (!Kernels) {
    Tool.error(Kernels.error());
    return ExitError;
  }
  std::vector<SearchCurve> Curves = computeSearchCurves(*Kernels);
  switch (C.Format) {
  case CurveFormat::Text:
    std::cout << formatCurvesText(Curves);
    break;
  case CurveFormat::Csv:
    std::cout << formatCurvesCsv(Curves);
    break;
  case CurveFormat::Svg:
    std::cout << formatCurvesSvg(Curves);
    break;
  case CurveFormat::Table:
    std::cout << formatBudgetTable(Curves, C.Table);
    break;
  }
  return ExitClean;
}

/// The search's stages, set up as kevin rollout sets up its own.
void addStages(CommandLine &C) {
  RolloutOptions &R = C.Search.Run;
  if (C.CheckPreset.empty())
    C.CheckPreset = R.Device == "cpu" ? "cpu" : "strict";
  for (const std::string &Stage : splitCommaList(C.Stages))
    R.Stages.push_back(Stage == "check"
                           ? makeStage(Stage, {"--preset", C.CheckPreset})
                           : makeStage(Stage, {"--device", R.Device}));
}

void printRound(const SearchProgress &P, int Budget) {
  char Best[32];
  std::snprintf(Best, sizeof Best, "%.2fx", P.BestSpeedup);
  std::cout << "kevin-search: " << P.TaskId << ": round " << P.Round << ", "
            << P.Spent << "/" << Budget << " kernels, best " << Best << ", "
            << P.Correct << " correct" << std::endl;
}

void printSummary(const SearchOptions &O, const SearchSummary &S) {
  char Best[32];
  std::snprintf(Best, sizeof Best, "%.2fx", S.MeanBestSpeedup);
  int Total = S.KernelsRun + S.KernelsResumed;
  std::cout << "kevin-search: " << searchLabel(O) << ", budget " << O.Budget
            << ": " << S.KernelsRun << " kernels run (" << S.KernelsReused
            << " repeats took an earlier verdict), " << S.KernelsResumed
            << " resumed; best@" << O.Budget << " " << Best << ", pass@"
            << O.Budget << " " << S.TasksSolved << "/" << S.Tasks
            << " tasks, " << S.KernelsCorrect << "/" << Total
            << " kernels correct; log: " << O.Run.RunDir << "/search.jsonl\n";
}

int search(ToolContext &Tool, CommandLine &C) {
  RolloutOptions &R = C.Search.Run;
  if (C.TasksDir.empty() || C.PolicySpec.empty() || R.RunDir.empty()) {
    Tool.usageError("--tasks, --policy and -o are required (or --curves)");
    return ExitError;
  }
  if (auto Valid = Device::parse(R.Device); !Valid) {
    Tool.usageError("--device: " + Valid.error().message());
    return ExitError;
  }
  if (Error E = validateSearch(C.Search)) {
    Tool.usageError(E.message());
    return ExitError;
  }
  if (C.Http.ApiKey.empty())
    if (const char *Key = std::getenv("OPENAI_API_KEY"))
      C.Http.ApiKey = Key;
  auto Tasks = findTasks(C.TasksDir, C.OnlyTasks);
  if (Tasks && Tasks->empty())
    Tasks = Error::inFile(C.TasksDir, "no tasks (*.py) found");
  if (!Tasks) {
    Tool.error(Tasks.error());
    return ExitError;
  }
  R.Tasks = std::move(*Tasks);
  auto Templates = loadPromptTemplates(C.PromptFile, R.Device);
  if (!Templates) {
    Tool.error(Templates.error());
    return ExitError;
  }
  auto ThePolicy = makePolicy(C.PolicySpec, C.Http);
  if (!ThePolicy) {
    Tool.error(ThePolicy.error());
    return ExitError;
  }
  addStages(C);
  StagePipeline Pipeline(fs::selfExecutableDirectory(), C.StageTimeout);
  RemoteStages Remote(C.Server, C.ServerToken, C.Stages, C.StageTimeout);
  if (!C.Server.empty())
    R.Server = &Remote;
  else if (Error E = Pipeline.verify(R.Stages)) {
    Tool.error(E);
    return ExitError;
  }
  auto Summary = runSearch(C.Search, *Templates, **ThePolicy, Pipeline,
                           [&](const SearchProgress &P) {
                             printRound(P, C.Search.Budget);
                           });
  if (!Summary) {
    Tool.error(Summary.error());
    return ExitError;
  }
  for (const Error &Warning : Summary->Warnings)
    Tool.warning(Warning);
  printSummary(C.Search, *Summary);
  return ExitClean;
}

} // namespace

int main(int Argc, char **Argv) {
  ToolContext Tool("kevin-search");
  CLI::App App("Spend a budget of kernels per task: parallel samples, serial "
               "refinement or beam search",
               "kevin-search");
  CommandLine C;
  addSearchOptions(App, C);
  addEvaluationOptions(App, C);
  if (auto Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;
  if (!C.CurveRuns.empty())
    return printCurves(Tool, C);
  return search(Tool, C);
}

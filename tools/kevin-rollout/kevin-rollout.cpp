//===-- kevin-rollout.cpp - Kevin's multi-turn rollouts -------------------===//
//
// `kevin rollout --tasks DIR --policy openai:URL|replay:FILE -m M -n N -o RUN`
// runs m trajectories of n refinement turns per task against a policy,
// evaluates every turn through kevin-check, kevin-run and kevin-bench, and
// appends each turn to RUN/turns.jsonl. The same command resumes a run that
// was interrupted. See docs/CommandGuide/kevin-rollout.md.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/Rollout.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Subprocess.h"
#include "kevin/Support/ToolMain.h"
#include "kevin/Support/Version.h"

#include <cstdlib>
#include <iostream>
#include <unistd.h>

using namespace kevin;

/// After the loop: rewards and returns (RUN/scored.jsonl), GRPO training rows
/// (RUN/train.jsonl), the HTML report (RUN/report.html), and the report's
/// table on stdout, each by the tool a user would run by hand.
static Error postProcess(const std::string &RunDir) {
  std::string Dir = fs::selfExecutableDirectory();
  std::string Turns = RunDir + "/turns.jsonl",
              Scored = RunDir + "/scored.jsonl";
  std::vector<std::vector<std::string>> Steps = {
      {Dir + "/kevin-reward", Turns, "-o", Scored},
      {Dir + "/kevin-grpo", Scored, "--emit", "rows", "-o",
       RunDir + "/train.jsonl"},
      {Dir + "/kevin-report", Scored, "--format", "html", "-o",
       RunDir + "/report.html"},
      {Dir + "/kevin-report", Scored}};
  for (const std::vector<std::string> &Step : Steps) {
    SubprocessOptions Run;
    Run.Argv = Step;
    auto Result = runSubprocess(Run);
    if (!Result)
      return Result.error();
    if (!Result->succeeded())
      return Error::inFile(Step.front(),
                           Result->describe() + ": " + Result->Stderr);
    std::cout << Result->Stdout;
  }
  std::cout << "training rows: " << RunDir << "/train.jsonl\n"
            << "report: " << RunDir << "/report.html\n";
  return Error::success();
}

int main(int Argc, char **Argv) {
  ToolContext Tool("kevin-rollout");
  CLI::App App("Kevin-style multi-turn rollouts against a policy",
               "kevin-rollout");
  RolloutOptions Options;
  std::string TasksDir, PolicySpec, PromptFile = defaultPromptFile();
  std::vector<std::string> OnlyTasks;
  std::string Stages = "check,run,bench";
  OpenAIOptions Http;
  double StageTimeout = 1800;
  bool NoPost = false;
  std::string Server, ServerToken;
  std::string CheckPreset;
  App.add_option("--tasks", TasksDir, "Directory of KernelBench-format tasks")
      ->required();
  App.add_option(
      "--task", OnlyTasks,
      "Only this task id (path under --tasks without .py); repeatable");
  App.add_option("--policy", PolicySpec, "openai:URL or replay:FILE")
      ->required();
  App.add_option("--model", Options.Model, "Model name sent to the server");
  App.add_option("-m,--trajectories", Options.Trajectories,
                 "Parallel trajectories per task (m)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  App.add_option("-n,--turns", Options.Turns,
                 "Refinement turns per trajectory (n)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  App.add_option("-o,--output", Options.RunDir,
                 "Run directory (turns.jsonl, train.jsonl, report.html)")
      ->required();
  App.add_option("--device", Options.Device, "cpu, cuda or cuda:N")
      ->capture_default_str();
  App.add_option("--prompts", PromptFile, "Prompt templates (TOML)")
      ->capture_default_str();
  App.add_option("--temperature", Options.Temperature, "Sampling temperature")
      ->capture_default_str();
  App.add_option("--top-p", Options.TopP, "Nucleus sampling")
      ->capture_default_str();
  App.add_option("--max-tokens", Options.MaxTokens, "Completion token limit")
      ->capture_default_str();
  App.add_flag("--logprobs", Options.Logprobs,
               "Ask the server for token ids and logprobs");
  App.add_option("--context-budget", Options.ContextBudgetTokens,
                 "Prompt budget in tokens (characters / 4); oldest attempts "
                 "are dropped first; 0 = no limit")
      ->capture_default_str();
  App.add_option("-j,--jobs", Options.Jobs, "Trajectories advanced at once")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  App.add_option("--max-in-flight", Options.MaxInFlight,
                 "Policy requests at once")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  App.add_option("--eval-jobs", Options.EvalJobs, "Evaluations at once")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  App.add_option("--stages", Stages,
                 "Evaluation stages, comma-separated (check,run,bench)")
      ->capture_default_str();
  App.add_option("--stage-timeout", StageTimeout,
                 "Seconds one stage may take on one turn")
      ->capture_default_str();
  App.add_option("--check-preset", CheckPreset,
                 "kevin-check preset (default: cpu for --device cpu, else strict)");
  App.add_option("--server", Server,
                 "Evaluate the turns on a kevin serve (http://HOST:PORT) "
                 "instead of running the stage tools here");
  App.add_option("--server-token", ServerToken, "The server's bearer token");
  App.add_flag("--no-post", NoPost,
               "Skip rewards, training rows and the report after the run");
  bool Quiet = false;
  App.add_flag("--quiet", Quiet,
               "No progress on stderr (by default a bar on a terminal, else "
               "a line per turn and a heartbeat while none finishes)");
  App.add_option("--api-key", Http.ApiKey,
                 "API key (default: $OPENAI_API_KEY)");
  App.add_option("--request-timeout", Http.TimeoutSeconds,
                 "Seconds one policy request may take")
      ->capture_default_str();
  App.add_option("--retries", Http.MaxRetries,
                 "Retries on 429, 5xx and connection errors")
      ->capture_default_str();
  App.add_option("--backoff", Http.BackoffSeconds,
                 "First retry delay in seconds (doubles each retry)")
      ->capture_default_str();
  if (auto Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;
  Options.ShowProgress = !Quiet;
  if (auto Valid = Device::parse(Options.Device); !Valid) {
    Tool.usageError("--device: " + Valid.error().message());
    return ExitError;
  }

  if (Http.ApiKey.empty())
    if (const char *Key = std::getenv("OPENAI_API_KEY"))
      Http.ApiKey = Key;
  auto Tasks = findTasks(TasksDir, OnlyTasks);
  if (!Tasks) {
    Tool.error(Tasks.error());
    return ExitError;
  }
  if (Tasks->empty()) {
    Tool.error(Error::inFile(TasksDir, "no tasks (*.py) found"));
    return ExitError;
  }
  Options.Tasks = std::move(*Tasks);
  auto Templates = loadPromptTemplates(PromptFile, Options.Device);
  if (!Templates) {
    Tool.error(Templates.error());
    return ExitError;
  }
  auto ThePolicy = makePolicy(PolicySpec, Http);
  if (!ThePolicy) {
    Tool.error(ThePolicy.error());
    return ExitError;
  }
  if (CheckPreset.empty())
    CheckPreset = Options.Device == "cpu" ? "cpu" : "strict";
  for (const std::string &Stage : splitCommaList(Stages))
    Options.Stages.push_back(
        Stage == "check" ? makeStage(Stage, {"--preset", CheckPreset})
                         : makeStage(Stage, {"--device", Options.Device}));
  StagePipeline Pipeline(fs::selfExecutableDirectory(), StageTimeout);
  // The server's own preset checks; its stages are the ones named here.
  RemoteStages Remote(Server, ServerToken, Stages, StageTimeout);
  if (!Server.empty())
    Options.Server = &Remote;
  else if (Error E = Pipeline.verify(Options.Stages)) {
    Tool.error(E);
    return ExitError;
  }

  auto Summary = runRollout(Options, *Templates, **ThePolicy, Pipeline);
  if (!Summary) {
    Tool.error(Summary.error());
    return ExitError;
  }
  for (const Error &Warning : Summary->Warnings)
    Tool.warning(Warning);
  std::cout << "kevin-rollout: " << Summary->TurnsRun << " turns run, "
            << Summary->TurnsResumed << " resumed, " << Summary->TurnsCorrect
            << "/" << Summary->TurnsTotal << " correct; log: " << Options.RunDir
            << "/turns.jsonl\n";
  if (!NoPost) {
    std::cout.flush();
    if (Error E = postProcess(Options.RunDir)) {
      Tool.error(E);
      return ExitError;
    }
  }
  return ExitClean;
}

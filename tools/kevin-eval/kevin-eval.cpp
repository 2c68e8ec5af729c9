//===-- kevin-eval.cpp - evaluate a directory of candidates ---------------===//
//
// `kevin eval --tasks DIR --solutions DIR|FILE.jsonl -o results.jsonl`
// evaluates every candidate through check -> build -> run -> bench -> reward
// on kevin serve's warm engine in this process (builds on a CPU pool ahead
// of the device workers, workers forked from a zygote, each task's
// reference run and timed once per draw of secrets), appends each
// finished record to the results file, skips records already there on a
// rerun, and ends with kevin report's summary table.
// See docs/CommandGuide/kevin-eval.md.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Rollout/EvalBatch.h"
#include "kevin/Rollout/RemoteStages.h"
#include "kevin/Serve/WarmEngine.h"
#include "kevin/Support/CacheDir.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Subprocess.h"
#include "kevin/Support/ToolMain.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace kevin;

namespace {

/// The stage settings of the command line.
struct StageFlags {
  std::string Devices = "cpu", CheckPreset;
  double StageTimeout = 1800;
  bool NoBench = false, NoCheck = false;
  std::optional<double> KernelCoverage;
  bool HeldOutBatch = false, NoGhostReplay = false, NoNamespaces = false;
};

/// kevin serve's warm engine, in this process.
Expected<std::unique_ptr<StageRunner>> warmStages(const StageFlags &F) {
  WarmEngineOptions Engine;
  Engine.ToolsDir = fs::selfExecutableDirectory();
  Engine.StageTimeoutSeconds = F.StageTimeout;
  Engine.CheckPreset = F.NoCheck ? "" : F.CheckPreset;
  Engine.Bench = !F.NoBench;
  Engine.Devices = splitCommaList(F.Devices);
  Engine.Judge.CacheDir = Engine.Timing.CacheDir = defaultCacheDir();
  Engine.Judge.UseNamespaces = Engine.Timing.UseNamespaces = !F.NoNamespaces;
  if (F.KernelCoverage)
    Engine.Judge.KernelCoverage = *F.KernelCoverage;
  Engine.Judge.GhostReplay = !F.NoGhostReplay;
  Engine.Judge.HeldOutBatch = F.HeldOutBatch;
  auto Started = WarmEngine::start(Engine);
  if (!Started)
    return Started.error();
  return std::unique_ptr<StageRunner>(std::move(*Started));
}

/// A kevin serve's engine, over HTTP.
Expected<std::unique_ptr<StageRunner>> remoteStages(const StageFlags &F,
                                                    const std::string &Url,
                                                    const std::string &Token) {
  std::string Stages = F.NoCheck ? "run" : "check,run";
  if (!F.NoBench)
    Stages += ",bench";
  return std::unique_ptr<StageRunner>(
      std::make_unique<RemoteStages>(Url, Token, Stages, F.StageTimeout));
}

/// Every stage its tool, a process of its own, as a user runs them by hand.
Expected<std::unique_ptr<StageRunner>>
toolStages(const StageFlags &F, const StagePipeline &Pipeline) {
  std::vector<StageSpec> Build, Device, Final = {makeStage("reward")};
  if (!F.NoCheck)
    Build.push_back(makeStage("check", {"--preset", F.CheckPreset}));
  std::vector<std::string> Sandbox;
  if (F.NoNamespaces)
    Sandbox.push_back("--no-namespaces");
  auto withSandbox = [&](std::vector<std::string> Args) {
    Args.insert(Args.end(), Sandbox.begin(), Sandbox.end());
    return Args;
  };
  Build.push_back(makeStage("run", withSandbox({"--build-only"})));
  // The builds ahead yield the cores to the device stages' workers.
  for (StageSpec &S : Build)
    S.Niceness = 10;
  std::vector<std::string> RunArgs = {"--device", "{device}"};
  if (F.KernelCoverage) {
    std::ostringstream Share;
    Share << *F.KernelCoverage;
    RunArgs.insert(RunArgs.end(), {"--kernel-coverage", Share.str()});
  }
  if (F.NoGhostReplay)
    RunArgs.push_back("--no-ghost-replay");
  if (F.HeldOutBatch)
    RunArgs.push_back("--held-out-batch");
  Device = {makeStage("run", withSandbox(RunArgs))};
  if (!F.NoBench)
    Device.push_back(makeStage("bench", withSandbox({"--device", "{device}"})));
  for (const auto *Stages : {&Build, &Device, &Final})
    if (Error E = Pipeline.verify(*Stages))
      return E;
  return std::unique_ptr<StageRunner>(
      std::make_unique<ToolStages>(Pipeline, Build, Device, Final));
}

} // namespace

int main(int Argc, char **Argv) {
  ToolContext Tool("kevin-eval");
  CLI::App App("Evaluate many candidates through the whole pipeline",
               "kevin-eval");
  std::string TasksDir, Solutions;
  StageFlags Flags;
  bool ToolStagesWanted = false;
  std::string Server, Token;
  std::vector<std::string> OnlyTasks;
  EvalOptions Options;
  bool NoReport = false;
  App.add_option("--tasks", TasksDir, "Directory of KernelBench-format tasks")
      ->required();
  App.add_option("--task", OnlyTasks, "Only this task id; repeatable");
  App.add_option("--solutions", Solutions,
                 "Directory of candidate .py files, or a JSON Lines file of "
                 "records with task_id and code or candidate_path")
      ->required();
  App.add_option("-o,--output", Options.ResultsPath, "Results (JSON Lines)")
      ->required();
  App.add_option("--device", Flags.Devices,
                 "Devices, comma-separated (cpu, cuda:0,cuda:1, ...): one "
                 "worker each")
      ->capture_default_str();
  App.add_option("-j,--jobs", Options.Scheduling.BuildJobs,
                 "Check and build jobs on the CPU pool (default: half the "
                 "cores, at least 2; a build runs two compiles at once)")
      ->check(CLI::PositiveNumber);
  App.add_option("--device-jobs", Options.Scheduling.DeviceJobs,
                 "Candidates in flight per device: correctness runs share "
                 "the device, timing loops take turns holding it alone "
                 "(default: one per core, 4 to 16, on a CUDA device; 1 on "
                 "the CPU)")
      ->check(CLI::PositiveNumber);
  App.add_option("--stage-timeout", Flags.StageTimeout,
                 "Seconds one stage tool may take on one candidate")
      ->capture_default_str();
  App.add_option("--check-preset", Flags.CheckPreset,
                 "kevin-check preset (default: cpu when every device is the "
                 "CPU, else strict)");
  App.add_flag("--no-bench", Flags.NoBench, "Skip timing (speedup stays unknown)");
  App.add_flag("--no-check", Flags.NoCheck,
               "Skip kevin-check (it ran elsewhere, e.g. a GPU machine "
               "without Clang; records keep any check section they carry)");
  App.add_flag("--no-report", NoReport, "Do not print the summary table");
  bool Quiet = false;
  App.add_flag("--quiet", Quiet,
               "No progress on stderr (by default a bar on a terminal, else "
               "a line per candidate and a heartbeat while none finishes)");
  App.add_option("--server", Server,
                 "A kevin serve (http://HOST:PORT) that evaluates every "
                 "candidate; -j requests at once");
  App.add_option("--token", Token, "The server's bearer token");
  App.add_flag("--tool-stages", ToolStagesWanted,
               "Run every stage as its tool (kevin-check, kevin-run, "
               "kevin-bench, kevin-reward), a process per candidate, instead "
               "of kevin serve's warm engine in this process");
  App.add_option("--kernel-coverage", Flags.KernelCoverage,
                 "kevin-run's KEVIN-RT-009 share on CUDA devices, from 0 to "
                 "1 (default 0.9; 0: no profiled forward)");
  App.add_flag("--held-out-batch", Flags.HeldOutBatch,
               "kevin-run's KEVIN-RT-022 held-out batch size on one trial");
  App.add_flag("--no-ghost-replay", Flags.NoGhostReplay,
               "kevin-run's KEVIN-RT-010 off (on CUDA devices, one more "
               "forward without the candidate's kernels)");
  App.add_flag("--no-namespaces", Flags.NoNamespaces,
               "Candidates get no namespaces of their own (kevin-run's "
               "option, for machines where they misbehave)");
  if (auto Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;
  Options.ShowProgress = !Quiet;
  if (Flags.KernelCoverage && !(*Flags.KernelCoverage >= 0 && *Flags.KernelCoverage <= 1)) {
    Tool.usageError("--kernel-coverage must be a number from 0 to 1");
    return ExitError;
  }
  if (auto Valid = parseDeviceList(Flags.Devices); !Valid) {
    Tool.usageError("--device: " + Valid.error().message());
    return ExitError;
  }

  // Candidates are matched against every task; --task then selects.
  auto Tasks = findTasks(TasksDir, {});
  auto Selected = findTasks(TasksDir, OnlyTasks);
  if (!Tasks || !Selected) {
    Tool.error(!Tasks ? Tasks.error() : Selected.error());
    return ExitError;
  }
  auto Candidates = findCandidates(*Tasks, Solutions);
  if (!Candidates) {
    Tool.error(Candidates.error());
    return ExitError;
  }
  if (!OnlyTasks.empty()) {
    std::set<std::string> Keep;
    for (const TaskFile &T : *Selected)
      Keep.insert(T.Id);
    Candidates->erase(
        std::remove_if(Candidates->begin(), Candidates->end(),
                       [&](const Json &C) {
                         // A candidate that answers no task stays, to be
                         // reported.
                         auto Task = C.find("task_id");
                         return Task != C.end() &&
                                !Keep.count(Task->get<std::string>());
                       }),
        Candidates->end());
  }
  Options.Scheduling.Devices = splitCommaList(Flags.Devices);
  if (Options.Scheduling.Devices.empty()) {
    Tool.usageError("--device names no device");
    return ExitError;
  }
  if (Flags.CheckPreset.empty())
    Flags.CheckPreset =
        onlyCpuDevices(Options.Scheduling.Devices) ? "cpu" : "strict";
  // Candidates are judged here: a killed kevin's work directories go first.
  if (Server.empty())
    if (std::string Swept = sweptMessage(TempDir::sweepAbandoned());
        !Swept.empty())
      std::cerr << "kevin-eval: " << Swept << "\n";
  StagePipeline Pipeline(fs::selfExecutableDirectory(), Flags.StageTimeout);
  auto Started = !Server.empty()    ? remoteStages(Flags, Server, Token)
                 : ToolStagesWanted ? toolStages(Flags, Pipeline)
                                    : warmStages(Flags);
  if (!Started) {
    Tool.error(Started.error());
    return ExitError;
  }
  auto Summary = runEval(*Candidates, Options, **Started);
  if (!Summary) {
    Tool.error(Summary.error());
    return ExitError;
  }
  std::cout << "kevin-eval: " << Summary->Evaluated << " evaluated, "
            << Summary->Skipped << " already in " << Options.ResultsPath
            << "\n";
  if (!Summary->Outcomes.empty()) {
    std::cout << "kevin-eval: by outcome:";
    const char *Separator = " ";
    for (const auto &[Outcome, Count] : Summary->Outcomes) {
      std::cout << Separator << Outcome << " " << Count;
      Separator = ", ";
    }
    std::cout << "\n";
  }
  std::string Report = fs::selfExecutableDirectory() + "/kevin-report";
  if (!NoReport && ::access(Report.c_str(), X_OK) == 0) {
    std::cout.flush();
    SubprocessOptions Run;
    Run.Argv = {Report, Options.ResultsPath};
    auto Result = runSubprocess(Run);
    if (!Result || !Result->succeeded()) {
      Tool.error(Result ? Error::inFile(Report, Result->describe() + ": " +
                                                    Result->Stderr)
                        : Result.error());
      return ExitError;
    }
    std::cout << Result->Stdout;
  }
  return ExitClean;
}

//===-- CandidateRun.cpp - the candidate's worker -------------------------===//
//
// Starts the candidate's worker with its arguments (the cover that hides
// every other directory from it), keeps its two time limits, hands it its
// task, and turns how it ended into a verdict and the record's `build`
// section (CandidateRun.h).
//
//===----------------------------------------------------------------------===//
#include "CandidateRun.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/CudaArch.h"
#include "kevin/Support/FileSystem.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>
#include <sys/stat.h>

namespace kevin {

/// A candidate worker's two time limits: the build phase (import and
/// compiles, from its nonce being sent, or from its task being sent when it
/// imports only after that) ends when the worker reports "load ready"; the
/// run phase (ModelNew and the trials) starts at the later of that and its
/// task being sent on stdin.
class CandidatePhases {
public:
  DeferredInput Nonce, Task;
  bool expired(const std::string &Dir, double BuildLimit, double RunLimit) {
    if (Task.abandoned())
      return true;
    std::lock_guard<std::mutex> Lock(Guard);
    // A hard cap over both phases and the wait for the reference (whose own
    // limit is twice the run limit), with a minute to spare.
    std::optional<SteadyClock::time_point> Started = Nonce.sentAt();
    if (Started && secondsSince(*Started) > BuildLimit + 3 * RunLimit + 60)
      return true;
    if (!ReadyAt) {
      std::string Progress =
          fs::readFileOrEmpty(Dir + "/" + protocol::Progress);
      // Whether the worker imports only after its task is decided once,
      // from what its trusted set-up wrote before "load" (candidate code
      // runs only after that, and could rewrite the file; the hard cap
      // above bounds what a forged line could win).
      size_t After = Progress.find(
                 "\n" + std::string(protocol::ImportAfterTask) + "\n"),
             Load = Progress.find("\nload\n");
      if (!ImportsAfterTask &&
          (After != std::string::npos || Load != std::string::npos))
        ImportsAfterTask = After < Load;
      if (Progress.find("\nload ready\n") == std::string::npos) {
        // A worker that imports after its task builds from the task on.
        std::optional<SteadyClock::time_point> BuildStart =
            ImportsAfterTask.value_or(false) ? Task.sentAt() : Started;
        return BuildStart && secondsSince(*BuildStart) > BuildLimit;
      }
      ReadyAt = SteadyClock::now();
    }
    std::optional<SteadyClock::time_point> Run = runStart();
    return Run && secondsSince(*Run) > RunLimit;
  }
  bool inRunPhase() {
    std::lock_guard<std::mutex> Lock(Guard);
    return runStart().has_value();
  }
  double secondsInPhase() {
    std::lock_guard<std::mutex> Lock(Guard);
    std::optional<SteadyClock::time_point> Start = runStart();
    if (!Start)
      Start = Nonce.sentAt();
    return Start ? secondsSince(*Start) : 0.0;
  }

private:
  std::optional<SteadyClock::time_point> runStart() {
    std::optional<SteadyClock::time_point> Sent = Task.sentAt();
    if (!ReadyAt || !Sent)
      return std::nullopt;
    return std::max(*ReadyAt, *Sent);
  }
  std::mutex Guard;
  std::optional<SteadyClock::time_point> ReadyAt;
  std::optional<bool> ImportsAfterTask;
};

namespace {

std::vector<std::string> candidateArgv(const JudgeOptions &Options,
                                       const std::string &CandidatePath,
                                       const std::string &DisplayName,
                                       const std::string &Dir,
                                       const std::string &CacheDir) {
  std::vector<std::string> Argv = {
      Options.WorkerPath,
      "candidate",
      "--candidate",
      CandidatePath,
      "--display-name",
      DisplayName,
      "--dir",
      Dir,
      "--device",
      Options.Device,
      "--trials",
      std::to_string(Options.Trials),
      "--build-jobs",
      std::to_string(Options.BuildJobs),
      "--build-timeout",
      std::to_string(Options.BuildTimeoutSeconds),
      "--memory-limit",
      std::to_string(Options.MemoryLimitMiB)};
  // A worker that knows its nvcc target makes no CUDA context to ask it.
  if (std::string Arch = cudaArchOr(Options.CudaArch); !Arch.empty())
    Argv.insert(Argv.end(), {"--cuda-arch", Arch});
  if (Options.BuildOnly)
    Argv.push_back("--build-only");
  if (!Options.IsolateNetwork)
    Argv.push_back("--no-isolate-network");
  if (!Options.UseNamespaces)
    Argv.push_back("--no-namespaces");
  if (profilesKernels(Options))
    Argv.push_back("--profile-kernels");
  // The candidate sees nothing of the reference's directory, nor of other
  // evaluations'.
  std::vector<std::string> Cover = coverArguments(Dir, CandidatePath, CacheDir);
  Argv.insert(Argv.end(), Cover.begin(), Cover.end());
  return Argv;
}

} // namespace

CandidateRun::CandidateRun() : Phases(std::make_shared<CandidatePhases>()) {}

void CandidateRun::start(const JudgeOptions &Options,
                         const std::string &CandidatePath,
                         const std::string &DisplayName,
                         const std::string &WorkDir,
                         const std::string &CacheDir,
                         const std::string &WorkerNonce) {
  Dir = WorkDir;
  Nonce = WorkerNonce;
  Trials = Options.Trials;
  MaxMessageBytes = Options.MaxMessageBytes;
  // The candidate's limits: the build phase (import, compiles) from its
  // nonce until it reports "load ready", the run phase (ModelNew, trials)
  // from the later of that and its task being sent.
  BuildLimit = Options.BuildTimeoutSeconds + 60;
  RunLimit = Options.RunTimeoutSeconds;
  NonceLine = Json{{"nonce", Nonce}}.dump() + "\n";
  SubprocessOptions Run;
  Run.Argv = candidateArgv(Options, CandidatePath, DisplayName, Dir, CacheDir);
  Run.Environment = workerEnvironment(Dir, CacheDir);
  Run.WorkingDirectory = Dir;
  Run.MaxCaptureBytes = 64 * 1024;
  Run.Launcher = Options.Launcher;
  Run.Niceness = Options.Niceness;
  if (Options.BuildOnly) {
    Run.Stdin = NonceLine;
    Run.TimeoutSeconds = BuildLimit;
  } else {
    std::shared_ptr<CandidatePhases> Shared = Phases;
    Run.StdinLater = {[Shared] { return Shared->Nonce.poll(); },
                      [Shared] { return Shared->Task.poll(); }};
    Run.StopWhen = [Shared, WorkDir, BuildLimit = BuildLimit,
                    RunLimit = RunLimit] {
      return Shared->expired(WorkDir, BuildLimit, RunLimit);
    };
  }
  Process =
      std::async(std::launch::async, [Run] { return runSubprocess(Run); });
}

void CandidateRun::sendNonce() { Phases->Nonce.send(NonceLine); }

Error CandidateRun::handOff(const std::string &RefDir,
                            const std::string &InputsName,
                            const Json &Reference, const TrialPlan &Plan,
                            bool CopyInputs) {
  std::string InputsDir = Dir + "/" + InputsName;
  // The candidate's code has been running in its directory: a directory it
  // made unwritable is its own failure, never a tool error. A full disk is
  // the machine's (copyFile says which).
  if (::mkdir(InputsDir.c_str(), 0700) != 0)
    return Error::inFile(InputsDir, std::string("cannot create directory: ") +
                                        std::strerror(errno));
  for (unsigned T = 0; T < Plan.Draws; ++T) {
    std::string From = protocol::trialFile(RefDir, T, "inputs");
    std::string To = protocol::trialFile(InputsDir, T, "inputs");
    if (Error E = CopyInputs ? copyFile(From, To) : linkOrCopy(From, To))
      return E;
  }
  Json Task;
  Task["init_args"] = Reference.value("init_args", Json());
  Task["inputs_dir"] = InputsName;
  Task["trials"] = Json::array();
  for (unsigned T = 0; T < Trials; ++T)
    Task["trials"].push_back(
        Json{{"inputs", Reference.at("trials").at(T).at("inputs")}});
  // The plan's secret positions of the ghost replay and the profiled call.
  if (Plan.GhostBeforeTrial)
    Task["ghost"] = {{"inputs", Reference.at("trials").at(Trials).at("inputs")},
                     {"before_trial", *Plan.GhostBeforeTrial}};
  if (Plan.ProfiledTrial)
    Task["profiled_trial"] = *Plan.ProfiledTrial;
  Phases->Task.send(Task.dump());
  return Error::success();
}

void CandidateRun::giveUp() {
  Phases->Nonce.abandon();
  Phases->Task.abandon();
  Process.wait();
}

Expected<SubprocessResult> CandidateRun::wait() { return Process.get(); }

WorkerVerdict CandidateRun::classify(SubprocessResult Ended) const {
  double Limit = Phases->inRunPhase() ? RunLimit : BuildLimit;
  if (Ended.TimedOut)
    Ended.WallSeconds = Phases->secondsInPhase();
  return classifyWorker(Ended, Dir, Nonce, Limit, MaxMessageBytes);
}

Json buildSection(const WorkerVerdict &Ran, size_t MaxMessageBytes) {
  Json Extensions = Json::array();
  bool AllHits = true;
  double BuildSeconds = 0;
  if (Ran.HaveResult && Ran.Result.contains("builds"))
    Extensions = Ran.Result["builds"];
  for (const Json &E : Extensions) {
    AllHits &= E.value("cache_hit", false);
    BuildSeconds += E.value("seconds", 0.0);
  }
  bool BuildFailed =
      Ran.StageReached == Stage::Build || (Ran.StageReached == Stage::Format &&
                                           Ran.Result_ == Outcome::FormatError);
  Json Build;
  Build["ok"] = !BuildFailed || Ran.Result_ == Outcome::Ok;
  Build["outcome"] = BuildFailed ? outcomeName(Ran.Result_) : "ok";
  Build["message"] = BuildFailed ? truncated(Ran.Message, MaxMessageBytes) : "";
  Build["cache_hit"] = !Extensions.empty() && AllHits;
  Build["seconds"] = BuildSeconds;
  Build["extensions"] = Extensions;
  return Build;
}

} // namespace kevin

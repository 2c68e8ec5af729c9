//===-- Evaluator.cpp - judge one candidate -------------------------------===//
//
// Process model: the reference worker and the candidate worker start
// together; the candidate worker imports the candidate (building its
// extensions) and waits; the reference outputs are loaded into this process
// (their files deleted), the inputs linked into a fresh directory and the
// task sent on the candidate's stdin; it runs the trials; comparison here.
// A worker that dies, hangs, exits early or writes an unattested result is
// classified from how it ended and the last stage it reported in its
// progress file; a missing result is never a pass.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/Evaluator.h"
#include "FreshMemoryPoison.h"
#include "kevin/Exec/CandidateInput.h"
#include "kevin/Exec/KernelCoverage.h"
#include "kevin/Exec/Outcome.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/TensorFile.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/DeviceLock.h"
#include "kevin/Support/Hash.h"
#include "kevin/Support/Subprocess.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace kevin {

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

std::string describeStructure(const Json &Outputs) {
  std::string Kind = Outputs.value("kind", "tensor");
  size_t Count = Outputs.contains("tensors") ? Outputs["tensors"].size() : 0;
  if (Kind == "tensor")
    return "a tensor";
  return "a " + Kind + " of " + std::to_string(Count) + " tensors";
}

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
    std::optional<Clock::time_point> Started = Nonce.sentAt();
    if (Started && secondsSince(*Started) > BuildLimit + 3 * RunLimit + 60)
      return true;
    if (!ReadyAt) {
      std::string Progress = readWholeFile(Dir + "/" + protocol::Progress);
      // Whether the worker imports only after its task is decided once,
      // from what its trusted set-up wrote before "load" (candidate code
      // runs only after that, and could rewrite the file; the hard cap
      // above bounds what a forged line could win).
      size_t After = Progress.find("\n" +
                                   std::string(protocol::ImportAfterTask) +
                                   "\n"),
             Load = Progress.find("\nload\n");
      if (!ImportsAfterTask && (After != std::string::npos ||
                                Load != std::string::npos))
        ImportsAfterTask = After < Load;
      if (Progress.find("\nload ready\n") == std::string::npos) {
        // A worker that imports after its task builds from the task on.
        std::optional<Clock::time_point> BuildStart =
            ImportsAfterTask.value_or(false) ? Task.sentAt() : Started;
        return BuildStart && secondsSince(*BuildStart) > BuildLimit;
      }
      ReadyAt = Clock::now();
    }
    std::optional<Clock::time_point> Run = runStart();
    return Run && secondsSince(*Run) > RunLimit;
  }
  bool inRunPhase() {
    std::lock_guard<std::mutex> Lock(Guard);
    return runStart().has_value();
  }
  double secondsInPhase() {
    std::lock_guard<std::mutex> Lock(Guard);
    std::optional<Clock::time_point> Start = runStart();
    if (!Start)
      Start = Nonce.sentAt();
    return Start ? secondsSince(*Start) : 0.0;
  }

private:
  std::optional<Clock::time_point> runStart() {
    std::optional<Clock::time_point> Sent = Task.sentAt();
    if (!ReadyAt || !Sent)
      return std::nullopt;
    return std::max(*ReadyAt, *Sent);
  }
  std::mutex Guard;
  std::optional<Clock::time_point> ReadyAt;
  std::optional<bool> ImportsAfterTask;
};

/// Whether the candidate's worker profiles a forward (KEVIN-RT-009).
bool profilesKernels(const EvaluatorOptions &Options) {
  return Options.KernelCoverage > 0 && !Options.BuildOnly &&
         Options.Device.rfind("cuda", 0) == 0;
}

/// Whether the candidate's worker replays a forward without its kernels
/// (KEVIN-RT-010) on one more input draw, the last of the reference's.
bool replaysGhost(const EvaluatorOptions &Options) {
  return Options.GhostReplay && Options.Trials > 0 && !Options.BuildOnly &&
         Options.Device.rfind("cuda", 0) == 0;
}

/// A kernel's name as messages show it (ATen's run to kilobytes).
std::string shortKernelName(const std::string &Name) {
  return Name.size() <= 120 ? Name : Name.substr(0, 117) + "...";
}

/// The record's `kernels` section: GPU time by kind, the kernels with the
/// most time first.
Json kernelCoverageJson(const KernelCoverage &KC, double Required) {
  Json Kernels = Json::array();
  for (size_t I = 0; I < KC.Kernels.size() && I < 8; ++I)
    Kernels.push_back({{"name", shortKernelName(KC.Kernels[I].first)},
                       {"kind", kernelKindName(KC.Kernels[I].second.first)},
                       {"us", KC.Kernels[I].second.second}});
  return {{"available", true},
          {"required", Required},
          {"coverage", KC.coverage()},
          {"candidate_launches", KC.CandidateLaunches},
          {"candidate_us", KC.CandidateMicros},
          {"glue_us", KC.GlueMicros},
          {"other_us", KC.OtherMicros},
          {"kernels", Kernels}};
}

/// Why a profiled forward fails KEVIN-RT-009, or nothing.
std::optional<std::pair<Outcome, std::string>>
kernelCoverageFailure(const KernelCoverage &KC, double Required) {
  auto percent = [](double Share) {
    return std::to_string(static_cast<int>(std::lround(Share * 100))) + "%";
  };
  // The kernel with the most time of those not the candidate's (of the
  // others' alone when the share is what failed: glue counts for neither).
  bool OthersOnly = KC.CandidateLaunches > 0;
  std::string Top;
  for (const auto &[Name, KindMicros] : KC.Kernels)
    if (OthersOnly ? KindMicros.first == KernelKind::Other
                   : KindMicros.first != KernelKind::Candidate) {
      double All = KC.CandidateMicros + KC.GlueMicros + KC.OtherMicros;
      Top = shortKernelName(Name) + " (" + kernelKindName(KindMicros.first) +
            ", " + percent(All > 0 ? KindMicros.second / All : 0) +
            " of the GPU time)";
      break;
    }
  if (KC.CandidateLaunches == 0)
    return std::make_pair(
        Outcome::NoCandidateKernel,
        "the profiled forward ran none of the candidate's own kernels (the "
        "__global__ functions in its source)" +
            (Top.empty() ? std::string()
                         : "; the most GPU time went to " + Top) +
            " [KEVIN-RT-009]");
  if (KC.coverage() < Required)
    return std::make_pair(
        Outcome::LowKernelCoverage,
        "the candidate's kernels did " + percent(KC.coverage()) +
            " of the profiled forward's GPU time, torch's fills and copies "
            "aside (at least " +
            percent(Required) + " is required); the most went to " + Top +
            " [KEVIN-RT-009]");
  return std::nullopt;
}

} // namespace

uint64_t trialSeed(uint64_t Secret, unsigned Trial) {
  ContentHasher H;
  H.add("kevin-trial-seed")
      .add(std::to_string(Secret))
      .add(std::to_string(Trial));
  std::string Hex = H.finish().substr(0, 16);
  return std::stoull(Hex, nullptr, 16) & 0x7fffffffffffffffULL;
}

namespace {

Expected<Verdict> evaluate(const Candidate &C,
                           const EvaluatorOptions &Options) {
  auto Start = Clock::now();
  Verdict V;
  guardFromCandidates();
  if (::access(Options.WorkerPath.c_str(), X_OK) != 0)
    return Error::inFile(Options.WorkerPath,
                         "cannot find the kevin-worker executable");
  Expected<TempDir> Root = TempDir::create();
  if (!Root)
    return Root.error();
  Root->Keep = Options.KeepTemporaries;
  std::string RefDir = Root->path() + "/reference";
  std::string CandDir = Root->path() + "/candidate";
  for (const std::string &D : {RefDir, CandDir})
    if (::mkdir(D.c_str(), 0700) != 0)
      return Error::inFile(D, std::string("cannot create directory: ") +
                                  std::strerror(errno));

  Expected<std::string> File = candidateFile(C, Root->path());
  if (!File)
    return File.error();
  std::string CandidatePath = *File;
  std::string Display = C.DisplayName.empty() ? CandidatePath : C.DisplayName;
  std::string CacheDir = Options.CacheDir;
  // It must exist before the worker keeps it through its cover.
  std::error_code Ignored;
  std::filesystem::create_directories(CacheDir, Ignored);

  // The device is shared with other correctness runs, never with a timing
  // loop (kevin-bench holds it alone). It is held from the moment the
  // reference gets its seeds (its process start, torch's import and the
  // task's run before, off the device) until both workers have ended.
  std::optional<DeviceLock> DeviceHold;
  if (!Options.BuildOnly) {
    Expected<DeviceLock> Lock = DeviceLock::open(Options.Device, Options.LockDir);
    if (!Lock)
      return Lock.error();
    DeviceHold.emplace(std::move(*Lock));
  }

  auto candidateArgv = [&](const std::string &Dir, bool BuildOnly) {
    std::vector<std::string> Argv = {
        Options.WorkerPath,
        "candidate",
        "--candidate",
        CandidatePath,
        "--display-name",
        Display,
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
    if (!Options.CudaArch.empty())
      Argv.insert(Argv.end(), {"--cuda-arch", Options.CudaArch});
    if (BuildOnly)
      Argv.push_back("--build-only");
    if (!Options.IsolateNetwork)
      Argv.push_back("--no-isolate-network");
    if (!Options.UseNamespaces)
      Argv.push_back("--no-namespaces");
    if (profilesKernels(Options))
      Argv.push_back("--profile-kernels");
    // The candidate sees nothing of the reference's directory, nor of other
    // evaluations'.
    std::vector<std::string> Cover =
        coverArguments(Dir, CandidatePath, CacheDir);
    Argv.insert(Argv.end(), Cover.begin(), Cover.end());
    return Argv;
  };

  auto failRun = [&](Stage S, Outcome O, const std::string &Message) {
    V.Run["correct"] = false;
    V.Run["stage"] = stageName(S);
    V.Run["outcome"] = outcomeName(O);
    V.Run["message"] = truncated(Message, Options.MaxMessageBytes);
    V.Run["device"] = Options.Device;
    V.Run["trials"] = Json::array();
    V.Run["seconds"] = {{"total", secondsSince(Start)}};
  };

  // The build section of a candidate that was never judged.
  auto notJudged = [&](const char *OutcomeName, const std::string &Why) {
    V.Build = Json{{"ok", false},
                   {"outcome", OutcomeName},
                   {"message", "not judged: " + Why},
                   {"cache_hit", false},
                   {"seconds", 0},
                   {"extensions", Json::array()}};
  };

  //--- The reference (trusted, never sees the candidate) and the candidate's
  // worker start together and set up (Python, torch, the task) while this
  // process waits for the device. Once it is held the reference gets its
  // seeds and makes the inputs and outputs, and the candidate's worker its
  // nonce: it imports the candidate, building its extensions, and waits for
  // its task on stdin. One candidate process per evaluation. -------------
  uint64_t Secret;
  if (Options.Seed) {
    Secret = *Options.Seed;
  } else {
    Expected<std::string> Hex = randomHex(8);
    if (!Hex)
      return Hex.error();
    Secret = std::stoull(*Hex, nullptr, 16);
  }
  // The reference draws one more input set for the ghost replay, after the
  // trials' (its index is Options.Trials).
  unsigned Draws = Options.Trials + (replaysGhost(Options) ? 1 : 0);
  Json Seeds = Json::array();
  for (unsigned T = 0; T < Draws; ++T)
    Seeds.push_back(trialSeed(Secret, T));
  // Which trials draw heavy-tailed inputs: secret positions, one trial at
  // least on the task's own distribution.
  // (Fisher-Yates on mt19937_64, whose numbers every library agrees on, so
  // --seed picks the same trials everywhere.)
  std::vector<unsigned> Order(Options.Trials);
  std::iota(Order.begin(), Order.end(), 0u);
  std::mt19937_64 Shuffle(trialSeed(Secret, 9000001u));
  for (unsigned K = Options.Trials; K > 1; --K)
    std::swap(Order[K - 1], Order[Shuffle() % K]);
  std::vector<bool> HeavyTailed(Draws, false);
  for (unsigned K = 0; K < Options.HeavyTailedTrials && K + 1 < Options.Trials;
       ++K)
    HeavyTailed[Order[K]] = true;
  // The held-out batch's trial: after the first (the task's own shapes, the
  // reference's to compare with) and before the last two (the last rewrites
  // the buffers of the one before, which needs their shapes).
  int64_t HeldOutTrial = -1;
  if (Options.HeldOutBatch && Options.Trials >= 4)
    HeldOutTrial = 1 + trialSeed(Secret, 9000004u) % (Options.Trials - 3);
  // Drawn before any worker starts: nothing below returns early while one
  // waits for its secrets.
  Expected<std::string> NonceOrError = randomHex(16);
  if (!NonceOrError)
    return NonceOrError.error();
  std::string Nonce = *NonceOrError;
  SubprocessOptions RefRun;
  RefRun.Argv = {Options.WorkerPath,   "reference",    "--task",
                 C.TaskPath,           "--dir",        RefDir,
                 "--device",           Options.Device, "--trials",
                 std::to_string(Draws)};
  RefRun.Environment = workerEnvironment(RefDir, CacheDir);
  RefRun.WorkingDirectory = RefDir;
  // Its limit, twice the run limit, counts from its seeds: the wait for the
  // device is bounded on its own.
  auto Seeded = std::make_shared<DeferredInput>();
  RefRun.StdinLater = {[Seeded] { return Seeded->poll(); }};
  RefRun.StopWhen = [Seeded, Limit = Options.RunTimeoutSeconds * 2] {
    return Seeded->overdue(Limit);
  };
  RefRun.MaxCaptureBytes = 64 * 1024;
  std::future<Expected<SubprocessResult>> RefFuture;
  if (!Options.BuildOnly)
    RefFuture = std::async(std::launch::async,
                           [RefRun] { return runSubprocess(RefRun); });

  // The candidate's limits: the build phase (import, compiles) from its
  // nonce until it reports "load ready", the run phase (ModelNew, trials)
  // from the later of that and its task being sent.
  const std::string &WorkDir = CandDir;
  double BuildLimit = Options.BuildTimeoutSeconds + 60;
  auto Phases = std::make_shared<CandidatePhases>();
  std::string NonceLine = Json{{"nonce", Nonce}}.dump() + "\n";
  SubprocessOptions CandRun;
  CandRun.Argv = candidateArgv(WorkDir, Options.BuildOnly);
  CandRun.Environment = workerEnvironment(WorkDir, CacheDir);
  CandRun.WorkingDirectory = WorkDir;
  CandRun.MaxCaptureBytes = 64 * 1024;
  if (Options.BuildOnly) {
    CandRun.Stdin = NonceLine;
    CandRun.TimeoutSeconds = BuildLimit;
  } else {
    CandRun.StdinLater = {[Phases] { return Phases->Nonce.poll(); },
                          [Phases] { return Phases->Task.poll(); }};
    CandRun.StopWhen = [Phases, WorkDir, BuildLimit,
                        RunLimit = Options.RunTimeoutSeconds] {
      return Phases->expired(WorkDir, BuildLimit, RunLimit);
    };
  }
  auto CandFuture = std::async(std::launch::async,
                               [CandRun] { return runSubprocess(CandRun); });
  // The reference or the hand-off failed: stop the candidate's worker.
  auto giveUp = [&] {
    Phases->Nonce.abandon();
    Phases->Task.abandon();
    CandFuture.wait();
  };

  // Both workers set up (Python, torch) while this waits for the device;
  // they get their secrets once it is held.
  double DeviceWait = 0;
  if (!Options.BuildOnly) {
    if (Error Held = DeviceHold->lockShared()) {
      Seeded->abandon();
      RefFuture.wait();
      giveUp();
      return Held;
    }
    DeviceWait = DeviceHold->waitedSeconds();
    Seeded->send(Json{{"seeds", Seeds},
                      {"heavy_tailed", HeavyTailed},
                      {"held_out_batch", HeldOutTrial},
                      {"float64", Options.Precision.Factor > 0}}
                     .dump());
    Phases->Nonce.send(NonceLine);
  }

  //--- Reference results, then the candidate's task. -----------------------
  double ReferenceSeconds = 0;
  std::vector<std::vector<at::Tensor>> RefOutputs;
  // Read while the candidate runs: the names are gone before it gets its
  // task, the open files stay with this process.
  std::future<Error> RefOutputsRead;
  Json Reference;
  if (!Options.BuildOnly) {
    Expected<SubprocessResult> RefProc = RefFuture.get();
    if (!RefProc) {
      giveUp();
      return RefProc.error();
    }
    Reference = Json::parse(
        readWholeFile(RefDir + "/" + protocol::ReferenceJson), nullptr, false);
    // It names the heavy-tailed trials and holds the float64 norms (a
    // scalar output's answer): gone before the candidate gets its task,
    // for runs without namespaces, where it could read the directory.
    ::unlink((RefDir + "/" + protocol::ReferenceJson).c_str());
    // Its own time: the wait for its seeds (the device) is not.
    ReferenceSeconds = RefProc->WallSeconds;
    if (const Json *Wait = Reference.is_discarded()
                               ? nullptr
                               : findField(Reference, "seconds.seeds_wait"))
      if (Wait->is_number())
        ReferenceSeconds -= Wait->get<double>();
    if (!RefProc->succeeded() || Reference.is_discarded() ||
        !Reference.value("ok", false)) {
      giveUp();
      std::string Why =
          !Reference.is_discarded() && Reference.contains("message")
              ? Reference["message"].get<std::string>()
              : "the reference worker " + RefProc->describe() + "\n" +
                    stderrTail(RefProc->Stderr, 800);
      V.ReferenceFailed = true;
      notJudged("reference-error", "the reference failed");
      failRun(Stage::Run, Outcome::ReferenceError,
              "'" + C.TaskPath + "': " + Why);
      return V;
    }
    // A fresh directory the candidate could not have prepared.
    Expected<std::string> Hex = randomHex(8);
    if (!Hex) {
      giveUp();
      return Hex.error();
    }
    std::string InputsName = "inputs-" + *Hex;
    std::string InputsDir = CandDir + "/" + InputsName;
    std::vector<OpenTensorFile> RefFiles;
    for (unsigned T = 0; T < Draws; ++T) {
      std::string RefFile = protocol::trialFile(RefDir, T, "reference");
      Expected<OpenTensorFile> Opened = OpenTensorFile::open(RefFile);
      // The outputs now live only in this process.
      ::unlink(RefFile.c_str());
      if (!Opened) {
        for (unsigned Rest = T + 1; Rest < Draws; ++Rest)
          ::unlink(protocol::trialFile(RefDir, Rest, "reference").c_str());
        giveUp();
        return Opened.error();
      }
      RefFiles.push_back(std::move(*Opened));
    }
    RefOutputsRead =
        std::async(std::launch::async,
                   [&RefOutputs, Files = std::move(RefFiles)]() -> Error {
                     for (const OpenTensorFile &File : Files) {
                       Expected<std::vector<at::Tensor>> Out = File.read();
                       if (!Out)
                         return Out.error();
                       RefOutputs.push_back(*Out);
                     }
                     return Error::success();
                   });
    // The candidate's code has been running in CandDir: a directory it made
    // unwritable is its own failure, never a tool error.
    std::string Handoff;
    if (::mkdir(InputsDir.c_str(), 0700) != 0)
      Handoff =
          InputsDir + ": cannot create directory: " + std::strerror(errno);
    for (unsigned T = 0; Handoff.empty() && T < Draws; ++T)
      if (Error E = linkOrCopy(protocol::trialFile(RefDir, T, "inputs"),
                               protocol::trialFile(InputsDir, T, "inputs")))
        Handoff = E.message();
    if (!Handoff.empty()) {
      giveUp();
      failRun(Stage::Load, Outcome::InvalidResult,
              "could not hand the inputs to the candidate's worker (its "
              "directory was changed): " +
                  Handoff);
      notJudged("invalid-result", "its directory was changed");
      return V;
    }
    Json Task;
    Task["init_args"] = Reference["init_args"];
    Task["inputs_dir"] = InputsName;
    Task["trials"] = Json::array();
    for (unsigned T = 0; T < Options.Trials; ++T)
      Task["trials"].push_back(
          Json{{"inputs", Reference["trials"][T]["inputs"]}});
    // The replay comes before a secret trial after the first, or after the
    // last: a candidate that counts its calls cannot tell which it is.
    if (Draws > Options.Trials)
      Task["ghost"] = {
          {"inputs", Reference["trials"][Options.Trials]["inputs"]},
          {"before_trial", 1 + trialSeed(Secret, 9000003u) % Options.Trials}};
    // KEVIN-RT-009 profiles one of the checked calls, at a secret trial
    // after the first: a forward that ends the process (exit() from C++)
    // under an active profiler crashes in CUPTI's teardown instead of
    // exiting, and the first call is where such candidates end it.
    if (profilesKernels(Options) && Options.Trials > 0)
      Task["profiled_trial"] =
          Options.Trials == 1
              ? 0
              : 1 + trialSeed(Secret, 9000002u) % (Options.Trials - 1);
    Phases->Task.send(Task.dump());
  }

  //--- The candidate's verdict: build, then run. ----------------------------
  Expected<SubprocessResult> CandProc = CandFuture.get();
  if (RefOutputsRead.valid())
    if (Error Failed = RefOutputsRead.get())
      return Failed;
  if (!CandProc)
    return CandProc.error();
  // Both workers have ended; the comparison needs no device.
  DeviceHold.reset();
  // A timeout is reported against the phase it happened in.
  double Limit = Phases->inRunPhase() ? Options.RunTimeoutSeconds : BuildLimit;
  SubprocessResult Ended = *CandProc;
  if (Ended.TimedOut)
    Ended.WallSeconds = Phases->secondsInPhase();
  WorkerVerdict Ran =
      classifyWorker(Ended, WorkDir, Nonce, Limit, Options.MaxMessageBytes);
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
  V.Build["ok"] = !BuildFailed || Ran.Result_ == Outcome::Ok;
  V.Build["outcome"] = BuildFailed ? outcomeName(Ran.Result_) : "ok";
  V.Build["message"] =
      BuildFailed ? truncated(Ran.Message, Options.MaxMessageBytes) : "";
  V.Build["cache_hit"] = !Extensions.empty() && AllHits;
  V.Build["seconds"] = BuildSeconds;
  V.Build["extensions"] = Extensions;
  V.BuildOk = V.Build["ok"].get<bool>();
  if (Options.BuildOnly) {
    if (Ran.Result_ == Outcome::Ok)
      V.BuildOk = true;
    return V;
  }
  if (Ran.Result_ != Outcome::Ok) {
    failRun(Ran.StageReached, Ran.Result_, Ran.Message);
    V.Run["seconds"]["reference"] = ReferenceSeconds;
    return V;
  }

  //--- Compare, in this process. --------------------------------------------
  // The result came from the candidate's process: a field of the wrong type
  // makes the result invalid, never the tool fail.
  try {
    auto CompareStart = Clock::now();
    const Json &Got = Ran.Result["trials"];
    Outcome Verdict_ = Outcome::Ok;
    std::string Message;
    auto fail = [&](Outcome O, const std::string &M) {
      if (Verdict_ == Outcome::Ok) {
        Verdict_ = O;
        Message = M;
      }
    };
    const Json &RefTrials = Reference["trials"];
    auto heavyTailed = [&](unsigned T) {
      return RefTrials[T].value("inputs_distribution", "task") ==
             "heavy-tailed";
    };
    // How messages name a trial: its inputs' distribution when not the
    // task's own.
    auto trialLabel = [&](unsigned T) {
      std::string Label = "trial " + std::to_string(T);
      if (RefTrials[T].contains("held_out_batch"))
        Label += " (held-out batch size " +
                 RefTrials[T]["held_out_batch"].dump() + ")";
      return Label + (heavyTailed(T) ? " (heavy-tailed inputs)" : "");
    };
    std::vector<std::vector<at::Tensor>> CandOutputs;
    // Per trial, the outputs of forward called again on the same inputs
    // when they differed from the first call's (empty otherwise).
    std::vector<std::vector<at::Tensor>> RepeatOutputs;
    if (!Got.is_array() || Got.size() != Options.Trials)
      fail(Outcome::InvalidResult,
           "the worker reported " +
               std::to_string(Got.is_array() ? Got.size() : 0) +
               " trials, expected " + std::to_string(Options.Trials));
    for (unsigned T = 0; Verdict_ == Outcome::Ok && T < Options.Trials; ++T) {
      std::string Trial = trialLabel(T) + ": ";
      const Json &Want = RefTrials[T]["outputs"];
      const Json &Have = Got[T]["outputs"];
      if (Want["kind"] != Have["kind"] ||
          Want["tensors"].size() != Have["tensors"].size()) {
        fail(Outcome::TypeMismatch,
             Trial + "forward returned " + describeStructure(Have) +
                 ", expected " + describeStructure(Want));
        break;
      }
      for (size_t I = 0; I < Want["tensors"].size(); ++I) {
        const Json &W = Want["tensors"][I], &H = Have["tensors"][I];
        std::string Which = Want["tensors"].size() > 1
                                ? "output " + std::to_string(I) + " "
                                : "output ";
        if (W["device"] != H["device"])
          fail(Outcome::DeviceMismatch,
               Trial + Which + "is on " + H["device"].get<std::string>() +
                   ", expected " + W["device"].get<std::string>());
        if (H.value("aliases_input", false))
          fail(Outcome::OutputAliasesInput,
               Trial + Which +
                   "shares storage with an input: "
                   "return a new tensor, not an input or a view of one");
        if (H.value("aliases_parameter", false))
          fail(Outcome::OutputAliasesInput,
               Trial + Which +
                   "shares storage with a parameter or buffer of ModelNew");
      }
      Expected<std::vector<at::Tensor>> Outs =
          readTensorFile(protocol::trialFile(CandDir, T, "outputs"),
                         outputReadLimit(RefOutputs[T]));
      const Json &Changed = Got[T]["inputs_changed"];
      if (!Outs || !Changed.is_boolean() ||
          Outs->size() != RefOutputs[T].size()) {
        fail(Outcome::InvalidResult,
             Trial + "missing or malformed output files" +
                 (Outs ? "" : " (" + Outs.error().message() + ")"));
        break;
      }
      if (Changed.get<bool>())
        fail(Outcome::InputMutated,
             Trial + "forward modified its input tensors; inputs must be left "
                     "unchanged");
      CandOutputs.push_back(*Outs);
      RepeatOutputs.emplace_back();
      if (Got[T].value("repeat_differs", false)) {
        Expected<std::vector<at::Tensor>> Again =
            readTensorFile(protocol::trialFile(CandDir, T, "repeat"),
                           outputReadLimit(RefOutputs[T]));
        if (!Again || Again->size() != RefOutputs[T].size()) {
          fail(Outcome::InvalidResult,
               Trial + "missing or malformed repeat output file" +
                   (Again ? "" : " (" + Again.error().message() + ")"));
          break;
        }
        RepeatOutputs.back() = std::move(*Again);
      }
    }
    // Shapes and dtypes before the rest, so their messages are the ones given.
    for (unsigned T = 0; Verdict_ == Outcome::Ok && T < CandOutputs.size(); ++T)
      for (size_t I = 0; I < RefOutputs[T].size(); ++I) {
        const at::Tensor &R = RefOutputs[T][I], &Cd = CandOutputs[T][I];
        if (R.scalar_type() != Cd.scalar_type() ||
            !R.sizes().equals(Cd.sizes())) {
          TrialComparison TC =
              compareTrial({R}, {Cd}, Options.Tolerances, false);
          fail(TC.Result, trialLabel(T) + ": " + TC.Message);
        }
      }
    // Judged on the trials' draws at the task's own shapes (not the ghost
    // replay's, nor a held-out batch's, whose output has another shape).
    bool ReferenceConstant = Options.Trials > 1;
    for (unsigned T = 1; T < Options.Trials; ++T)
      if (!RefTrials[T].contains("held_out_batch"))
        ReferenceConstant &= sameBits(RefOutputs[T], RefOutputs[0]);
    // Judged on the task's own draws: heavy-tailed ones (a spiky softmax)
    // would hide a task where zeros pass.
    std::vector<std::vector<at::Tensor>> TaskDraws;
    for (unsigned T = 0; T < Options.Trials; ++T)
      if (!heavyTailed(T))
        TaskDraws.push_back(RefOutputs[T]);
    bool Degenerate = trivialOutputWouldPass(TaskDraws, Options.Tolerances);
    if (Verdict_ == Outcome::Ok && ReferenceConstant)
      fail(Outcome::DegenerateTask,
           "the reference output is the same for every input draw: a constant "
           "output cannot be told apart from a real kernel on this task");
    // Outputs left unwritten repeat the poison pattern: that is told as nan
    // by the comparison below, not as a cache.
    for (unsigned T = 1; Verdict_ == Outcome::Ok && T < CandOutputs.size(); ++T)
      if (sameBits(CandOutputs[T], CandOutputs[T - 1]) &&
          !sameBits(RefOutputs[T], RefOutputs[T - 1]) &&
          compareTrial(RefOutputs[T], CandOutputs[T], Options.Tolerances,
                       Degenerate)
                  .Result != Outcome::Nan)
        fail(Outcome::NotInputSensitive,
             "trials " + std::to_string(T - 1) + " and " + std::to_string(T) +
                 " had different inputs but forward returned identical outputs "
                 "(cached, replayed or constant results)");
    Json Trials = Json::array();
    unsigned Passed = 0;
    bool Poisoned = Ran.Result.value("fresh_memory_poisoned", false);
    for (unsigned T = 0; T < CandOutputs.size(); ++T) {
      Json Entry;
      Entry["trial"] = T;
      const std::vector<at::Tensor> *Judged = &CandOutputs[T];
      TrialComparison TC =
          compareTrial(RefOutputs[T], *Judged, Options.Tolerances, Degenerate);
      // The precision contract (KEVIN-RT-023), on outputs that passed the
      // tolerance test, for the first call and the repeated one alike.
      const Json &Float64 = RefTrials[T].contains("float64")
                                ? RefTrials[T]["float64"]
                                : Json::array();
      auto budgetOf = [&](size_t I) -> const Json * {
        if (I >= Float64.size() || !Float64[I].is_object() ||
            !Float64[I]["error"].is_number() || !Float64[I]["norm"].is_number())
          return nullptr;
        return &Float64[I];
      };
      auto applyBudget = [&](TrialComparison &C) {
        for (size_t I = 0; C.Result == Outcome::Ok && I < C.ErrorNorms.size();
             ++I)
          if (const Json *B = budgetOf(I)) {
            std::string Excess =
                precisionExcess(C.ErrorNorms[I], (*B)["error"].get<double>(),
                                (*B)["norm"].get<double>(), Options.Precision);
            if (!Excess.empty()) {
              C.Result = Outcome::Mismatch;
              C.Message = (C.ErrorNorms.size() > 1
                               ? "output " + std::to_string(I) + ": "
                               : std::string()) +
                          Excess;
            }
          }
      };
      applyBudget(TC);
      // Called again on the same inputs, forward must be right again.
      if (TC.Result == Outcome::Ok && !RepeatOutputs[T].empty()) {
        TrialComparison Again = compareTrial(RefOutputs[T], RepeatOutputs[T],
                                             Options.Tolerances, Degenerate);
        applyBudget(Again);
        if (Again.Result != Outcome::Ok) {
          Judged = &RepeatOutputs[T];
          TC = Again;
          TC.Message =
              "forward called again on the same inputs: " + Again.Message +
              " (the first call passed: an output the kernel does "
              "not always write, or a race?)";
        }
      }
      Entry["inputs"] = heavyTailed(T) ? "heavy-tailed" : "task";
      if (RefTrials[T].contains("held_out_batch"))
        Entry["held_out_batch"] = RefTrials[T]["held_out_batch"];
      if (const Json *B = budgetOf(0))
        if ((*B)["norm"].get<double>() > 0 && !TC.ErrorNorms.empty()) {
          double Norm = (*B)["norm"].get<double>();
          Entry["l2_error"] = TC.ErrorNorms[0] / Norm;
          Entry["reference_float64_error"] = (*B)["error"].get<double>() / Norm;
        }
      Entry["ok"] = TC.Result == Outcome::Ok;
      Entry["max_abs_error"] =
          std::isfinite(TC.MaxAbsError) ? Json(TC.MaxAbsError) : Json("inf");
      Entry["max_rel_error"] =
          std::isfinite(TC.MaxRelError) ? Json(TC.MaxRelError) : Json("inf");
      Entry["seconds"] = Got[T].value("seconds", 0.0);
      Entry["repeat_differs"] = !RepeatOutputs[T].empty();
      Passed += TC.Result == Outcome::Ok;
      if (int64_t Unwritten = TC.Result != Outcome::Ok && Poisoned
                                  ? worker::countFreshMemoryPattern(*Judged)
                                  : 0)
        TC.Message += "; " + std::to_string(Unwritten) +
                      " output elements still hold the fill pattern of "
                      "fresh memory: the kernel never wrote them";
      if (TC.Result != Outcome::Ok)
        fail(TC.Result, trialLabel(T) + ": " + TC.Message);
      Trials.push_back(Entry);
    }
    // KEVIN-RT-009, on a candidate correct so far.
    Json KernelsRecord;
    // The candidate's kernel launches the profile saw (RT-010 reads it).
    unsigned CandidateLaunches = 0;
    if (profilesKernels(Options)) {
      if (Ran.Result.contains("kernels") && !Ran.Result["kernels"].empty()) {
        std::vector<std::pair<std::string, double>> Events;
        for (const Json &K : Ran.Result["kernels"])
          Events.emplace_back(K.at(0).get<std::string>(),
                              K.at(1).get<double>());
        // The __global__ functions of the sources the candidate's
        // extensions were built from (`load`'s .cu files included).
        auto namesIn = [&](const char *Key) {
          std::set<std::string> Names;
          for (const Json &Name : Ran.Result.value(Key, Json::array()))
            if (Name.is_string())
              Names.insert(Name.get<std::string>());
          return Names;
        };
        KernelCoverage KC = measureKernelCoverage(
            Events, namesIn("kernel_names"), namesIn("kernel_namespaces"));
        KernelsRecord = kernelCoverageJson(KC, Options.KernelCoverage);
        CandidateLaunches = KC.CandidateLaunches;
        if (auto Failure = kernelCoverageFailure(KC, Options.KernelCoverage);
            Failure && Verdict_ == Outcome::Ok)
          fail(Failure->first, Failure->second);
      } else {
        KernelsRecord = {
            {"available", false},
            {"why", Ran.Result.value("kernels_unavailable",
                                     Ran.Result.contains("kernels")
                                         ? "the profiler recorded no GPU work"
                                         : "the worker reported no profile")}};
      }
    }
    // KEVIN-RT-010, on a candidate correct so far: the forward replayed
    // with the candidate's kernel launches skipped must not be right.
    Json GhostRecord;
    if (replaysGhost(Options)) {
      const Json Ghost = Ran.Result.value("ghost", Json::object());
      uint64_t Skipped = Ghost.value("skipped_launches", uint64_t(0));
      const std::vector<at::Tensor> &Want = RefOutputs[Options.Trials];
      // The replay tells nothing when the answer on its draw would also be
      // right on a trial's (a near-constant output, such as a loss).
      bool Informative = true;
      for (unsigned T = 0; Informative && T < Options.Trials; ++T)
        Informative =
            Want.size() != RefOutputs[T].size() ||
            compareTrial(RefOutputs[T], Want, Options.Tolerances, Degenerate)
                    .Result != Outcome::Ok;
      GhostRecord = Json::object();
      auto unavailable = [&](const std::string &Why) {
        GhostRecord["available"] = false;
        GhostRecord["why"] = Why;
      };
      if (!Ran.Result.contains("ghost")) {
        unavailable("the worker reported no ghost replay");
      } else if (Skipped == 0 && CandidateLaunches > 0) {
        // Its kernels ran in the profiled call, yet none passed the gate
        // in the replay: they were launched around it.
        GhostRecord["available"] = true;
        GhostRecord["result"] = "gate-bypassed";
        fail(Outcome::KernelsUnused,
             "the candidate's kernels ran in the profiled call, but none of "
             "its launches went through kevin's launch gate in the replay "
             "without them: launch kernels with <<<...>>> or the CUDA "
             "runtime's or driver's launch functions [KEVIN-RT-010]");
      } else if (Skipped == 0) {
        // A pure-PyTorch forward (RT-009 judges those).
        unavailable("no launch of the candidate's passed the gate");
      } else if (!Informative) {
        unavailable("the answer on the replay's draw is also right on a "
                    "trial's draw");
      } else if (Ghost.contains("raised")) {
        GhostRecord["available"] = true;
        GhostRecord["result"] = "raised";
      } else {
        GhostRecord["available"] = true;
        Expected<std::vector<at::Tensor>> Outs = readTensorFile(
            protocol::trialFile(CandDir, Options.Trials, "ghost"),
            outputReadLimit(Want));
        // An earlier call's output left in its buffer is not an answer.
        bool Stale = false;
        for (unsigned T = 0; Outs && !Stale && T < CandOutputs.size(); ++T)
          Stale =
              sameBits(*Outs, CandOutputs[T]) ||
              (!RepeatOutputs[T].empty() && sameBits(*Outs, RepeatOutputs[T]));
        bool Right =
            Outs && !Stale && Outs->size() == Want.size() &&
            Ghost.value("kind", "") ==
                RefTrials[Options.Trials]["outputs"]["kind"] &&
            compareTrial(Want, *Outs, Options.Tolerances, Degenerate).Result ==
                Outcome::Ok;
        GhostRecord["result"] = Right ? "right" : Stale ? "stale" : "wrong";
        if (Right)
          fail(Outcome::KernelsUnused,
               "with the " + std::to_string(Skipped) +
                   " kernel launches of the candidate's own extensions "
                   "skipped, forward still returned the right output (on "
                   "inputs no call had seen): its kernels do not compute the "
                   "result [KEVIN-RT-010]");
      }
      GhostRecord["skipped_launches"] = Skipped;
    }
    bool Correct = Verdict_ == Outcome::Ok;
    V.Correct = Correct;
    V.Run["correct"] = Correct;
    V.Run["stage"] = "compare";
    V.Run["outcome"] = outcomeName(Verdict_);
    V.Run["message"] =
        Correct ? "correct on " + std::to_string(Options.Trials) + " trials"
                : truncated(Message, Options.MaxMessageBytes);
    V.Run["device"] = Options.Device;
    V.Run["trials"] = Trials;
    V.Run["trials_passed"] = Passed;
    V.Run["num_trials"] = Options.Trials;
    V.Run["degenerate_task"] = Degenerate;
    Tolerance Tol = Options.Tolerances.Default;
    V.Run["tolerance"] = {
        {"atol", Tol.Atol}, {"rtol", Tol.Rtol}, {"scale_aware", Degenerate}};
    V.Run["precision_budget"] = {
        {"factor", Options.Precision.Factor},
        {"floor", Options.Precision.Floor},
        {"float64_reference", Options.Precision.Factor > 0 &&
                                  !Reference.contains("float64_unavailable")}};
    V.Run["network_isolated"] = Ran.Result.value("network_isolated", false);
    V.Run["reference_hidden"] = Ran.Result.value("reference_hidden", false);
    V.Run["processes_isolated"] = Ran.Result.value("processes_isolated", false);
    V.Run["fresh_memory_poisoned"] = Poisoned;
    if (!KernelsRecord.is_null())
      V.Run["kernels"] = KernelsRecord;
    if (!GhostRecord.is_null())
      V.Run["ghost_replay"] = GhostRecord;
    double Load = Ran.Result.contains("seconds")
                      ? Ran.Result["seconds"].value("load", 0.0)
                      : 0.0;
    double RunSeconds = Ran.Result.contains("seconds")
                            ? Ran.Result["seconds"].value("run", 0.0)
                            : 0.0;
    V.Run["seconds"] = {{"device_wait", DeviceWait},
                        {"reference", ReferenceSeconds},
                        {"load", Load},
                        {"run", RunSeconds},
                        {"compare", secondsSince(CompareStart)},
                        {"total", secondsSince(Start)}};
  } catch (const Json::exception &E) {
    V.Correct = false;
    failRun(Stage::Compare, Outcome::InvalidResult,
            std::string("the worker's result is malformed: ") + E.what());
  }
  return V;
}
} // namespace

Expected<Verdict> evaluateCandidate(const Candidate &C,
                                    const EvaluatorOptions &Options) {
  try {
    return evaluate(C, Options);
  } catch (const std::exception &E) {
    return Error::make(
        std::string("internal error while judging '") +
        (C.CandidatePath.empty() ? C.DisplayName : C.CandidatePath) +
        "': " + E.what());
  }
}

} // namespace kevin

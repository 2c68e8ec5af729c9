//===-- WarmEngine.cpp - the evaluation stages, kept warm -----------------===//
//
// The stages of kevin/Serve/WarmEngine.h: kevin-check as a tool, the build
// ahead, the run against a cached reference and the timing on a long-lived
// benchmarker, all through workers forked from the zygote.
//
//===----------------------------------------------------------------------===//

#include "kevin/Serve/WarmEngine.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Exec/Zygote.h"
#include "kevin/Support/CudaArch.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/RecordFields.h"
#include "kevin/Support/Subprocess.h"
#include "kevin/Support/TaskThread.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace kevin {

namespace {

/// The nice value of everything the engine runs but does not time: builds,
/// correctness runs, references' outputs, comparisons. A timing worker on a
/// core shared with them would otherwise be late back from the device's
/// synchronize, and kevin-bench would read that lateness as work escaped
/// from the timing stream.
constexpr int UntimedNiceness = 10;

/// Path made absolute: workers run in directories of their own.
std::string absolutePath(const std::string &Path) {
  std::error_code Ignored;
  return Path.empty() ? Path
                      : std::filesystem::absolute(Path, Ignored).string();
}

/// The candidate of a record: inline code, or a file (kevin eval's
/// directories; kevin serve never passes a path it was given).
Candidate candidateOf(const Json &Record) {
  Candidate C;
  C.TaskPath = absolutePath(Record.value("task_path", std::string()));
  C.CandidatePath = absolutePath(Record.value("candidate_path", std::string()));
  C.Code = Record.value("code", std::string());
  C.DisplayName = Record.value("id", std::string());
  if (C.DisplayName.empty())
    C.DisplayName = C.CandidatePath.empty() ? "candidate" : C.CandidatePath;
  return C;
}

/// Whether the record's `stages` (kevin serve's stages=) include Stage; a
/// record without them goes through every stage.
bool wants(const Json &Record, const char *Stage) {
  auto Stages = Record.find("stages");
  if (Stages == Record.end() || !Stages->is_array())
    return true;
  for (const Json &S : *Stages)
    if (S.is_string() && S.get<std::string>() == Stage)
      return true;
  return false;
}

} // namespace

Json buildFailureRunSection(const Json &Build, const std::string &Device) {
  return Json{{"correct", false},
              {"stage", "build"},
              {"outcome", Build.value("outcome", std::string("build-error"))},
              {"message", Build.value("message", std::string())},
              {"device", Device},
              {"trials", Json::array()}};
}

WarmEngine::WarmEngine(WarmEngineOptions O)
    : Options(std::move(O)), Tools(Options.ToolsDir, Options.StageTimeoutSeconds) {}

WarmEngine::~WarmEngine() {
  PreparerStopping = true;
  if (BuildCachePreparer.joinable())
    BuildCachePreparer.join();
  {
    std::lock_guard<std::mutex> Hold(AheadGuard);
    AheadStopping = true;
    AheadQueue.clear();
  }
  AheadWake.notify_all();
  for (std::thread &T : AheadThreads)
    T.join();
}

Expected<std::unique_ptr<WarmEngine>>
WarmEngine::start(WarmEngineOptions Options) {
  if (Options.Judge.WorkerPath.empty())
    Options.Judge.WorkerPath = Options.ToolsDir + "/kevin-worker";
  Options.Timing.WorkerPath = Options.Judge.WorkerPath;
  if (::access(Options.Judge.WorkerPath.c_str(), X_OK) != 0)
    return Error::inFile(Options.Judge.WorkerPath,
                         "cannot find the kevin-worker executable");
  std::unique_ptr<WarmEngine> Engine(new WarmEngine(std::move(Options)));
  std::vector<StageSpec> Needed = {makeStage("reward")};
  if (!Engine->Options.CheckPreset.empty())
    Needed.push_back(makeStage("check"));
  if (Error E = Engine->Tools.verify(Needed))
    return E;
  const std::vector<std::string> &Devices = Engine->Options.Devices;
  if (std::any_of(Devices.begin(), Devices.end(),
                  [](const std::string &D) { return isCudaDevice(D); }))
    Engine->BuildCachePreparer =
        std::thread([E = Engine.get()] { E->prepareBuildCache(); });
  if (Engine->Options.UseZygote) {
    Engine->ZygoteStarter = std::make_unique<TaskThread>();
    Expected<std::unique_ptr<Zygote>> Started = Engine->startZygote();
    if (!Started)
      return Started.error();
    Engine->Warm = std::move(*Started);
  }
  return Engine;
}

void WarmEngine::prepareBuildCache() const {
  Expected<TempDir> Dir = TempDir::create("kevin-prepare");
  if (!Dir)
    return;
  SubprocessOptions Run;
  Run.Argv = {Options.Judge.WorkerPath, "prepare-build-cache", "--dir",
              Dir->path(), "--build-timeout",
              std::to_string(Options.Judge.BuildTimeoutSeconds)};
  if (std::string Arch = cudaArchOr(Options.Judge.CudaArch); !Arch.empty())
    Run.Argv.insert(Run.Argv.end(), {"--cuda-arch", Arch});
  Run.Environment = workerEnvironment(Dir->path(), Options.Judge.CacheDir);
  Run.WorkingDirectory = Dir->path();
  Run.MaxCaptureBytes = 64 * 1024;
  Run.Niceness = UntimedNiceness;
  Run.StopWhen = [this] { return PreparerStopping.load(); };
  // What fails here, each build meets again and handles as it would have.
  (void)runSubprocess(Run);
}

Expected<std::unique_ptr<Zygote>> WarmEngine::startZygote() const {
  std::optional<Expected<std::unique_ptr<Zygote>>> Started;
  ZygoteStarter->run([&] {
    Started.emplace(
        Zygote::start(Options.Judge.WorkerPath, Options.Judge.CacheDir));
  });
  return std::move(*Started);
}

Expected<LaunchedChild> WarmEngine::launch(const SubprocessOptions &Run,
                                           int In, int Out, int Err) const {
  // A zygote that died (killed, out of memory) is replaced, once it is seen
  // dead or refuses a launch; the workers it ran have been reported by their
  // own judgements.
  const Zygote *Failed = nullptr;
  for (int Attempt = 0;; ++Attempt) {
    ChildLauncher Launcher;
    const Zygote *Used;
    {
      std::lock_guard<std::mutex> Hold(ZygoteGuard);
      if (!Warm || !Warm->alive() || (Failed && Warm.get() == Failed)) {
        Warm.reset();
        Expected<std::unique_ptr<Zygote>> Started = startZygote();
        if (!Started)
          return Started.error();
        Warm = std::move(*Started);
        ++ZygoteRestarts;
      }
      Launcher = Warm->launcher();
      Used = Warm.get();
    }
    Expected<LaunchedChild> Child = Launcher(Run, In, Out, Err);
    if (Child || Attempt > 0)
      return Child;
    Failed = Used;
  }
}

ChildLauncher WarmEngine::zygoteLauncher() const {
  if (!Options.UseZygote)
    return nullptr;
  return [this](const SubprocessOptions &Run, int In, int Out, int Err) {
    return launch(Run, In, Out, Err);
  };
}

JudgeOptions WarmEngine::judgeOptions(const std::string &Device,
                                      bool BuildOnly) const {
  JudgeOptions J = Options.Judge;
  J.Device = Device;
  J.BuildOnly = BuildOnly;
  J.Launcher = zygoteLauncher();
  J.Niceness = UntimedNiceness;
  return J;
}

//--- Before the device --------------------------------------------------------

Expected<Json> WarmEngine::runBuildStages(const Json &Record) const {
  Json Out = Record;
  if (!Options.CheckPreset.empty() && wants(Record, "check")) {
    Expected<Json> Checked =
        Tools.runStage(makeStage("check", {"--preset", Options.CheckPreset}), Out);
    if (!Checked)
      return Checked.error();
    Out = std::move(*Checked);
    if (!fieldIsTrue(Out, field::CheckOk))
      return Out;
  }
  if (!wants(Record, "run"))
    return Out;
  Candidate C = candidateOf(Out);
  prepareAhead(C.TaskPath, Options.Bench && wants(Record, "bench"));
  Expected<Verdict> Built =
      judgeCandidate(C, judgeOptions("cpu", /*BuildOnly=*/true));
  if (!Built)
    return Built.error();
  Out["build"] = Built->Build;
  Out["build_ahead"] = Built->Build;
  if (!Built->BuildOk)
    Out["run"] = buildFailureRunSection(Built->Build,
                                        Record.value("device", std::string("cpu")));
  return Out;
}

bool WarmEngine::buildPassed(const Json &Record) const {
  const Json *Check = findField(Record, field::CheckOk);
  bool CheckPassed = !Check || (Check->is_boolean() && Check->get<bool>());
  return CheckPassed && wants(Record, "run") && fieldIsTrue(Record, field::BuildOk);
}

//--- On the device ------------------------------------------------------------

size_t WarmEngine::deviceStageCount() const { return Options.Bench ? 2 : 1; }

Expected<Json> WarmEngine::runDeviceStage(size_t Stage,
                                          const std::string &Device,
                                          const Json &Record) const {
  return Stage == 0 ? run(Device, Record) : bench(Device, Record);
}

bool WarmEngine::devicePassed(size_t Stage, const Json &Record) const {
  return Stage > 0 || (fieldIsTrue(Record, field::RunCorrect) && wants(Record, "bench"));
}

size_t defaultReferenceCacheBytes() {
  long Pages = ::sysconf(_SC_PHYS_PAGES), PageBytes = ::sysconf(_SC_PAGESIZE);
  size_t Memory =
      Pages > 0 && PageBytes > 0
          ? static_cast<size_t>(Pages) * static_cast<size_t>(PageBytes)
          : 0;
  return std::clamp(Memory / 8, size_t(2) << 30, size_t(16) << 30);
}

size_t WarmEngine::cachedReferenceBytes() const {
  size_t Bytes = 0;
  for (const auto &[Name, Cached] : References)
    Bytes += Cached.Bytes;
  return Bytes;
}

Expected<std::shared_ptr<const PreparedReference>>
WarmEngine::reference(const std::string &TaskPath, const std::string &Device,
                      bool Use, bool *Made) const {
  std::string Key = Device + "\n" + TaskPath;
  std::shared_ptr<std::mutex> Making;
  {
    std::lock_guard<std::mutex> Hold(CacheGuard);
    std::shared_ptr<std::mutex> &Slot = ReferenceMaking[Key];
    if (!Slot)
      Slot = std::make_shared<std::mutex>();
    Making = Slot;
  }
  // One thread makes a task's next reference; the others wait and use it.
  std::lock_guard<std::mutex> OneMaker(*Making);
  {
    std::lock_guard<std::mutex> Hold(CacheGuard);
    auto Found = References.find(Key);
    if (Found != References.end() &&
        Found->second.Uses < std::max<size_t>(1, Options.ReferenceReuse)) {
      if (Use) {
        ++Found->second.Uses;
        Found->second.LastUse = ++UseClock;
      }
      return Found->second.Reference;
    }
    if (Found != References.end())
      References.erase(Found); // Worn: a fresh draw of secrets.
  }
  Expected<std::shared_ptr<const PreparedReference>> Prepared =
      prepareReference(TaskPath, judgeOptions(Device, /*BuildOnly=*/false));
  if (!Prepared)
    return Prepared.error();
  // A reference that failed (its worker killed, the task broken) serves the
  // judgement that asked for it, never the next: that one tries again.
  if (referenceFailed(**Prepared))
    return Prepared;
  std::lock_guard<std::mutex> Hold(CacheGuard);
  CachedReference Entry{*Prepared, Use ? 1u : 0u, referenceBytes(**Prepared),
                        ++UseClock};
  size_t Total = Entry.Bytes + cachedReferenceBytes();
  // The least recently used go first; the new one stays even when it alone
  // is over the bound (its judgements hold it anyway).
  while (Total > Options.ReferenceCacheBytes && !References.empty()) {
    auto Oldest = References.begin();
    for (auto It = References.begin(); It != References.end(); ++It)
      if (It->second.LastUse < Oldest->second.LastUse)
        Oldest = It;
    Total -= Oldest->second.Bytes;
    References.erase(Oldest);
  }
  References[Key] = Entry;
  ++ReferencesMade;
  if (Made)
    *Made = true;
  return Entry.Reference;
}

Expected<Json> WarmEngine::run(const std::string &Device,
                               const Json &Record) const {
  // This thread compares the run's outputs: host work that yields the
  // cores to timing loops, like the workers'. (The timing workers come from
  // the zygote, at its nice value, not this thread's: startZygote.)
  niceThisThread(UntimedNiceness);
  Candidate C = candidateOf(Record);
  Expected<std::shared_ptr<const PreparedReference>> Ref =
      reference(C.TaskPath, Device, /*Use=*/true);
  if (!Ref)
    return Ref.error();
  Expected<Verdict> V =
      judgeCandidate(C, judgeOptions(Device, /*BuildOnly=*/false), *Ref);
  if (!V)
    return V.error();
  if (V->ReferenceFailed)
    return Error::inFile(C.TaskPath, V->Run.value("message", std::string()));
  Json Out = Record;
  Out["build"] = V->Build;
  Out["run"] = V->Run;
  return Out;
}

Benchmarker &WarmEngine::benchmarker(const std::string &Device) const {
  std::lock_guard<std::mutex> Hold(BenchGuard);
  std::unique_ptr<Benchmarker> &B = Benchmarkers[Device];
  if (!B) {
    BenchOptions Mine = Options.Timing;
    Mine.Device = Device;
    Mine.ReferenceReuseLimit = Options.ReferenceReuse;
    Mine.Launcher = zygoteLauncher();
    B = std::make_unique<Benchmarker>(Mine);
  }
  return *B;
}

Expected<Json> WarmEngine::bench(const std::string &Device,
                                 const Json &Record) const {
  Expected<BenchVerdict> V = benchmarker(Device).bench(candidateOf(Record));
  if (!V)
    return V.error();
  if (V->ReferenceFailed)
    return Error::make(V->Bench.value("message", std::string()));
  Json Out = Record;
  Out["bench"] = V->Bench;
  return Out;
}

//--- Ahead of the candidates --------------------------------------------------

namespace {

/// Threads that make references ahead: each holds a reference worker (and
/// its outputs) while it works, and timings take turns on a device anyway.
constexpr size_t AheadThreadLimit = 4;
/// A timing ahead waits this long for the device at most (it holds the
/// device's other timings meanwhile); then the task's first candidate
/// times the reference.
constexpr double AheadDeviceWaitSeconds = 60;

} // namespace

void WarmEngine::prepareAhead(const std::string &TaskPath, bool Timed) const {
  std::lock_guard<std::mutex> Hold(AheadGuard);
  if (AheadStopping || TaskPath.empty() || Options.Devices.empty())
    return;
  auto Key = std::make_pair(Options.Devices.front(), TaskPath);
  if (!AheadPending.insert(Key).second)
    return;
  AheadQueue.push_back({Key, Timed && isCudaDevice(Key.first)});
  if (AheadQueue.size() > AheadIdle && AheadThreads.size() < AheadThreadLimit) {
    try {
      AheadThreads.emplace_back([this] { makeReferencesAhead(); });
      return;
    } catch (const std::system_error &) {
      // No thread: a thread already there takes it, or its candidate
      // makes its own.
      if (AheadThreads.empty()) {
        AheadQueue.pop_back();
        AheadPending.erase(Key);
        return;
      }
    }
  }
  AheadWake.notify_one();
}

void WarmEngine::makeReferencesAhead() const {
  std::unique_lock<std::mutex> Hold(AheadGuard);
  while (true) {
    ++AheadIdle;
    AheadWake.wait(Hold, [&] { return AheadStopping || !AheadQueue.empty(); });
    --AheadIdle;
    if (AheadStopping)
      return;
    auto [Key, Timed] = AheadQueue.front();
    auto [Device, TaskPath] = Key;
    AheadQueue.pop_front();
    Hold.unlock();
    // A full cache is not churned for a reference no candidate asked for
    // yet: the candidates make theirs as they come.
    bool Room;
    {
      std::lock_guard<std::mutex> Cache(CacheGuard);
      Room = cachedReferenceBytes() < Options.ReferenceCacheBytes;
    }
    bool Ok = true, Made = false;
    if (Room) {
      Expected<std::shared_ptr<const PreparedReference>> Outputs =
          reference(TaskPath, Device, /*Use=*/false, &Made);
      Ok = Outputs && !referenceFailed(**Outputs);
      if (Ok && Timed) {
        Expected<bool> TimedNow = benchmarker(Device).timeReferenceAhead(
            TaskPath, AheadDeviceWaitSeconds,
            [this] { return AheadStopping.load(); });
        Ok = static_cast<bool>(TimedNow);
        Made = Made || (Ok && *TimedNow);
      }
    }
    Hold.lock();
    // Queued again from here on: a later request may find it worn.
    AheadPending.erase({Device, TaskPath});
    AheadMade += Made;
    AheadFailed += !Ok;
  }
}

//--- After --------------------------------------------------------------------

Expected<Json> WarmEngine::runFinalStages(const Json &Record) const {
  // A record that passed its check and was not run has no verdict to score.
  if (!findField(Record, field::RunCorrect) && fieldIsTrue(Record, field::CheckOk))
    return Record;
  // One kernel's score: a turn of a trajectory (kevin rollout --server) is
  // scored alone, its return is the trajectory's business.
  Json Alone = Record;
  for (const char *Key : {"trajectory", "trajectory_id", "turn"})
    Alone.erase(Key);
  Expected<Json> Scored = Tools.runStage(makeStage("reward"), Alone);
  if (!Scored)
    return Scored.error();
  Json Out = Record;
  Out["reward"] = (*Scored)["reward"];
  return Out;
}

EngineHealth WarmEngine::health() const {
  EngineHealth H;
  {
    std::lock_guard<std::mutex> Hold(ZygoteGuard);
    H.ZygoteAlive = Warm && Warm->alive();
    H.ZygoteRestarts = ZygoteRestarts;
  }
  {
    std::lock_guard<std::mutex> Hold(CacheGuard);
    H.ReferenceEntries = References.size();
    H.ReferencesMade = ReferencesMade;
    H.ReferenceBytes = cachedReferenceBytes();
    H.ReferenceLimitBytes = Options.ReferenceCacheBytes;
  }
  H.TimedReferenceDiskLimitBytes = Options.Timing.ReferenceDiskBytes;
  {
    std::lock_guard<std::mutex> Hold(AheadGuard);
    H.ReferencesAhead = AheadMade;
    H.ReferencesAheadFailed = AheadFailed;
    H.ReferencesAheadPending = AheadPending.size();
  }
  std::lock_guard<std::mutex> Hold(BenchGuard);
  for (const auto &[Device, B] : Benchmarkers)
    H.TimedReferences += B->referencesKept();
  return H;
}

} // namespace kevin

//===-- Benchmark.cpp - time a candidate against its task -----------------===//
//
// Process model: bench-reference worker (once per task, its directory kept
// while kevin-bench runs) -> bench-candidate worker per candidate -> audit
// comparison, statistics and flags (Verdict.cpp). Nothing the candidate's
// process writes is trusted beyond its samples, and those are cross-checked:
// the synchronized clock against the stream events, the thread census, and
// the audit outputs against the reference and against their own copies
// taken right after forward returned. The device is not held while the
// workers start, shared with other users of it while the reference draws
// inputs and makes the audit outputs and while the candidate's worker makes
// its CUDA context and loads its input sets (trusted code), and held alone
// while the reference is timed and from the candidate's import until its
// worker ends (kevin/Support/DeviceLock.h).
//
//===----------------------------------------------------------------------===//
#include "BenchmarkRuns.h"
#include "kevin/Exec/CandidateInput.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Support/CudaArch.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/FileSystem.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace kevin {

namespace {

/// Longest wait for the device before kevin-bench gives up on it.
constexpr double DeviceWaitLimitSeconds = 3600;

/// The host: CPU model, and for a CUDA device what nvidia-smi says now.
Json hostEnvironment(const std::string &Device) {
  Json Env;
  std::ifstream Cpu("/proc/cpuinfo");
  std::string Line;
  while (std::getline(Cpu, Line))
    if (Line.rfind("model name", 0) == 0) {
      Env["cpu_model"] = Line.substr(Line.find(':') + 2);
      break;
    }
  if (!isCudaDevice(Device))
    return Env;
  std::string Index = Device.find(':') == std::string::npos
                          ? "0"
                          : Device.substr(Device.find(':') + 1);
  SubprocessOptions Smi;
  Smi.Argv = {"nvidia-smi",
              "--query-gpu=name,clocks.sm,clocks.mem,driver_version",
              "--format=csv,noheader,nounits", "-i", Index};
  Smi.TimeoutSeconds = 20;
  Expected<SubprocessResult> R = runSubprocess(Smi);
  if (!R || !R->succeeded())
    return Env;
  std::vector<std::string> Fields;
  std::stringstream In(R->Stdout);
  std::string Field;
  while (std::getline(In, Field, ','))
    Fields.push_back(Field.substr(Field.find_first_not_of(' ')));
  if (Fields.size() == 4) {
    while (!Fields[3].empty() && Fields[3].back() == '\n')
      Fields[3].pop_back();
    Env["gpu_name"] = Fields[0];
    Env["sm_clock_mhz"] = std::atof(Fields[1].c_str());
    Env["memory_clock_mhz"] = std::atof(Fields[2].c_str());
    Env["driver"] = Fields[3];
  }
  return Env;
}

/// The options every worker gets, then the mode's own.
std::vector<std::string> workerArgv(const BenchOptions &O, const char *Mode,
                                    const std::string &Dir) {
  std::vector<std::string> Argv = {O.WorkerPath, Mode,     "--dir",
                                   Dir,          "--device", O.Device};
  // A worker that knows its nvcc target makes no CUDA context to ask it.
  if (std::string Arch = cudaArchOr(O.CudaArch); !Arch.empty())
    Argv.insert(Argv.end(), {"--cuda-arch", Arch});
  if (!O.IsolateNetwork)
    Argv.push_back("--no-isolate-network");
  if (!O.UseNamespaces)
    Argv.push_back("--no-namespaces");
  return Argv;
}

Json timingPlan(const BenchOptions &O) {
  size_t Rounds = O.Rounds ? O.Rounds : isCudaDevice(O.Device) ? 5 : 1;
  return Json{{"min_trials", O.MinTrials},
              {"max_trials", O.MaxTrials},
              {"target_rse", O.TargetRse},
              {"budget_seconds", O.BudgetSeconds},
              {"flush_bytes", O.FlushBytes},
              {"cover_ms", O.CoverMs},
              {"rounds", Rounds},
              {"round_agreement", O.RoundAgreement},
              {"round_keep", O.RoundKeep}};
}

} // namespace

Benchmarker::Benchmarker(BenchOptions O) : Options(std::move(O)) {
  // The audits' reference outputs live in this process.
  guardFromCandidates();
  // Candidate workers keep the cache through their cover: it must exist.
  std::error_code Ignored;
  std::filesystem::create_directories(Options.CacheDir, Ignored);
  if (Options.Seed) {
    Secret = *Options.Seed;
  } else if (Expected<std::string> Hex = randomHex(8)) {
    Secret = std::stoull(*Hex, nullptr, 16);
  }
}

Benchmarker::~Benchmarker() = default;

size_t Benchmarker::referencesKept() const {
  std::lock_guard<std::mutex> Hold(Guard);
  return References.size();
}

/// The task's kept reference, counted as used once more when Use; none when
/// there is none or it is due to be timed again. With Guard held.
std::shared_ptr<Benchmarker::ReferenceRun>
Benchmarker::cachedReference(const std::string &TaskPath, bool Use) {
  auto Found = References.find(TaskPath);
  if (Found == References.end())
    return nullptr;
  ReferenceRun &Ref = *Found->second;
  bool Worn = Options.ReferenceReuseLimit > 0 &&
              Ref.Uses >= Options.ReferenceReuseLimit;
  bool Stale = Options.ReferenceMaxAgeSeconds > 0 &&
               secondsSince(Ref.TimedAt) > Options.ReferenceMaxAgeSeconds;
  if (Worn || Stale) {
    References.erase(Found);
    return nullptr;
  }
  if (Use) {
    ++Ref.Uses;
    Ref.LastUsed = SteadyClock::now();
  }
  return Found->second;
}

void Benchmarker::boundReferenceDisk(const ReferenceRun *Newest) {
  while (true) {
    uintmax_t Total = 0;
    auto Oldest = References.end();
    for (auto It = References.begin(); It != References.end(); ++It) {
      Total += It->second->DiskBytes;
      if (It->second.get() != Newest &&
          (Oldest == References.end() ||
           It->second->LastUsed < Oldest->second->LastUsed))
        Oldest = It;
    }
    if (Total <= Options.ReferenceDiskBytes || Oldest == References.end())
      return;
    // Candidates still timed against it keep it until they end.
    References.erase(Oldest);
  }
}

Expected<std::shared_ptr<Benchmarker::ReferenceRun>>
Benchmarker::reference(const std::string &TaskPath, bool Use, bool *Made,
                       std::function<bool()> MayStart,
                       std::function<bool()> MayTime,
                       std::function<double()> DeviceWaiting,
                       std::function<bool()> Abandon) {
  std::lock_guard<std::mutex> Hold(Guard);
  if (std::shared_ptr<ReferenceRun> Kept = cachedReference(TaskPath, Use))
    return Kept;
  Expected<TempDir> Dir = TempDir::create("kevin-bench");
  if (!Dir)
    return Dir.error();
  auto Run = std::make_shared<ReferenceRun>(std::move(*Dir));
  if (Options.KeepTemporaries)
    Run->Dir.keep();
  const std::string &Path = Run->Dir.path();

  Json Secrets = timingPlan(Options);
  // Sets of different tasks come from different seeds of the one secret.
  uint64_t TaskSecret = trialSeed(Secret, 1000003u * ++ReferencesMade);
  Json Seeds = Json::array();
  for (unsigned N = 0; N < Options.PoolSize + Options.Audits; ++N)
    Seeds.push_back(trialSeed(TaskSecret, N));
  Secrets["seeds"] = Seeds;
  Secrets["pool"] = Options.PoolSize;
  Secrets["pool_bytes"] = Options.PoolMemoryBytes;
  Secrets["audits"] = Options.Audits;
  Secrets["warmups"] = Options.Warmups;
  SubprocessOptions Ref;
  Ref.Argv = workerArgv(Options, "bench-reference", Path);
  Ref.Argv.insert(Ref.Argv.end(),
                  {"--task", TaskPath, "--baseline", Options.Baseline});
  Ref.Environment = workerEnvironment(Path, Options.CacheDir);
  Ref.WorkingDirectory = Path;
  Ref.Launcher = Options.Launcher;
  // The secrets once the device is held shared; the device is asked for
  // alone only once the worker's set-up (inputs, audit outputs) is done: the
  // exclusive window holds timing loops only.
  std::string Progress = Path + "/" + protocol::Progress;
  Ref.StdinLater = {
      [MayStart, Line = Secrets.dump() + "\n"]() -> std::optional<std::string> {
        if (!MayStart())
          return std::nullopt;
        return Line;
      },
      [MayTime, Progress]() -> std::optional<std::string> {
        std::string Ready = std::string(protocol::TimingReady) + "\n";
        if (fs::readFileOrEmpty(Progress).find(Ready) == std::string::npos ||
            !MayTime())
          return std::nullopt;
        return std::string();
      }};
  // The limit leaves out the wait for the device (bounded on its own).
  auto RefStart = SteadyClock::now();
  Ref.StopWhen = [RefStart, DeviceWaiting, Abandon,
                  Limit = Options.TimeoutSeconds] {
    double Waiting = DeviceWaiting();
    double Wall = secondsSince(RefStart);
    return Wall - Waiting > Limit || Waiting > DeviceWaitLimitSeconds ||
           (Abandon && Abandon());
  };
  Ref.MaxCaptureBytes = 64 * 1024;
  Expected<SubprocessResult> Proc = runSubprocess(Ref);
  if (!Proc)
    return Proc.error();
  // Its own time: the waits for the device are not.
  Run->Seconds = Proc->WallSeconds - DeviceWaiting();
  Json Report = Json::parse(
      fs::readFileOrEmpty(Path + "/" + protocol::BenchReferenceJson), nullptr,
      false);
  if (!Proc->succeeded() || Report.is_discarded() ||
      !Report.value("ok", false)) {
    std::string Why = !Report.is_discarded() && Report.contains("message")
                          ? Report["message"].get<std::string>()
                          : "the reference worker " + Proc->describe() + "\n" +
                                stderrTail(Proc->Stderr, 800);
    return Error::make("'" + TaskPath + "': cannot time the reference: " + Why);
  }
  for (unsigned K = 0; K < Options.Audits; ++K) {
    std::string AuditFile = protocol::auditFile(Path, K, "reference");
    Expected<OpenTensorFile> Opened = OpenTensorFile::open(AuditFile);
    ::unlink(AuditFile.c_str());
    if (!Opened)
      return Opened.error();
    Run->AuditFiles.push_back(std::move(*Opened));
  }
  Run->Report = std::move(Report);
  Run->TimedAt = Run->LastUsed = SteadyClock::now();
  Run->Uses = Use ? 1 : 0;
  Run->DiskBytes = fs::treeBytes(Path);
  References[TaskPath] = Run;
  boundReferenceDisk(Run.get());
  if (Made)
    *Made = true;
  return Run;
}

Benchmarker::CandidateRun::CandidateRun(const Candidate &C,
                                        const BenchOptions &Options)
    : C(C), Options(Options), Start(SteadyClock::now()) {
  Json &B = V.Bench;
  Cuda = isCudaDevice(Options.Device);
  B["ok"] = false;
  B["method"] = Cuda ? "cuda-events" : "cpu-wall-clock";
  B["baseline"] = Options.Baseline;
  B["device"] = Options.Device;
  B["speedup"] = nullptr;
  B["flags"] = Json::array();
}

Error Benchmarker::CandidateRun::makeDirectories() {
  Expected<TempDir> Made = TempDir::create("kevin-bench");
  if (!Made)
    return Made.error();
  Dir.emplace(std::move(*Made));
  if (Options.KeepTemporaries)
    Dir->keep();
  std::string Path = Dir->path();
  Expected<std::string> File = candidateFile(C, Path);
  if (!File)
    return File.error();
  CandidatePath = *File;
  WorkDir = Path + "/work";
  if (::mkdir(WorkDir.c_str(), 0700) != 0)
    return Error::inFile(WorkDir, "cannot create directory");
  return Error::success();
}

Error Benchmarker::CandidateRun::drawPlan(uint64_t PlanSeed) {
  std::mt19937_64 Rng(PlanSeed);
  Plan = timingPlan(Options);
  Plan["warmups"] = Options.Warmups + static_cast<unsigned>(Rng() % 3);
  std::vector<size_t> AuditAt;
  for (unsigned K = 0; K < Options.Audits; ++K)
    AuditAt.push_back(Rng() % std::max<size_t>(Options.MinTrials, 1));
  std::sort(AuditAt.begin(), AuditAt.end());
  Plan["audit_at"] = AuditAt;
  Expected<std::string> Made = randomHex(16);
  if (!Made)
    return Made.error();
  Nonce = *Made;
  Plan["nonce"] = Nonce;
  return Error::success();
}

void Benchmarker::CandidateRun::startWorker() {
  SubprocessOptions Run;
  Run.Argv = workerArgv(Options, "bench-candidate", WorkDir);
  std::string Display = C.DisplayName.empty() ? CandidatePath : C.DisplayName;
  Run.Argv.insert(Run.Argv.end(), {"--candidate", CandidatePath,
                                   "--display-name", Display});
  // It sees none of the evaluations' directories but its own.
  std::vector<std::string> Cover =
      coverArguments(WorkDir, CandidatePath, Options.CacheDir);
  Run.Argv.insert(Run.Argv.end(), Cover.begin(), Cover.end());
  Run.Environment = workerEnvironment(WorkDir, Options.CacheDir);
  Run.WorkingDirectory = WorkDir;
  Run.Launcher = Options.Launcher;
  Run.StdinLater = {[Preparation = Preparation] { return Preparation->poll(); },
                    [Handoff = Handoff] { return Handoff->poll(); }};
  // Its limit counts from the plan; the reference's wait has its own.
  Run.StopWhen = [Handoff = Handoff, Limit = Options.TimeoutSeconds] {
    return Handoff->overdue(Limit);
  };
  // A hard cap over the reference's run, the waits and its own phase.
  Run.TimeoutSeconds = 3 * Options.TimeoutSeconds + DeviceWaitLimitSeconds;
  Run.MaxCaptureBytes = 64 * 1024;
  Started = std::async(std::launch::async, [Run, Exited = Exited] {
    Expected<SubprocessResult> R = runSubprocess(Run);
    *Exited = true;
    return R;
  });
}

void Benchmarker::CandidateRun::giveUp() {
  Preparation->abandon();
  Handoff->abandon();
  Started.wait();
}

Error Benchmarker::CandidateRun::awaitPrepared() {
  std::string Progress = WorkDir + "/" + protocol::Progress;
  std::string Prepared = std::string(protocol::CandidatePrepared) + "\n";
  auto Since = SteadyClock::now();
  // The progress file is the worker's own until its plan comes: nothing of
  // the candidate's has run yet.
  while (!*Exited &&
         fs::readFileOrEmpty(Progress).find(Prepared) == std::string::npos) {
    if (secondsSince(Since) > Options.TimeoutSeconds)
      return Error::make("the timing worker did not set up within " +
                         std::to_string(int(Options.TimeoutSeconds)) + " s");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  PreparedSeconds = secondsSince(Since);
  return Error::success();
}

Expected<SubprocessResult>
Benchmarker::CandidateRun::handOff(ReferenceRun &Ref) {
  // Room on the work disk for the copies and the audit outputs (taken to be
  // no larger than the sets), waited for with the device let go, so that
  // the timings that would free room are not held up
  // (kevin/Support/DiskRoom.h).
  Device->unlock();
  Room.emplace(DiskRoom::of(TempDir::base())
                   .reserve(2 * Ref.DiskBytes));
  // Copies, not links: the reference's sets serve the task's next
  // candidates, and this one could write to its own.
  const Json &Sets = Ref.Report["sets"];
  for (unsigned N = 0; N < Sets.size(); ++N)
    if (Error E = copyFile(protocol::setFile(Ref.Dir.path(), N, "inputs"),
                           protocol::setFile(WorkDir, N, "inputs"))) {
      giveUp();
      return E;
    }
  {
    std::ofstream Out(WorkDir + "/" + protocol::TaskJson);
    Out << Json{{"init_args", Ref.Report["init_args"]},
                {"sets", Sets},
                {"pool", Ref.Report.value("pool", Options.PoolSize)}}
               .dump()
        << "\n";
    if (!Out) {
      giveUp();
      return Error::inFile(WorkDir, "cannot write task.json");
    }
  }
  // The worker's CUDA context, timer and input sets are trusted set-up: the
  // device is shared meanwhile with other users of it (a reference timed
  // just now let it go). The candidate's import and timing hold it alone.
  if (Error E = Device->lockShared()) {
    giveUp();
    return E;
  }
  Preparation->send(Json{{"flush_bytes", Options.FlushBytes},
                         {"cover_ms", Options.CoverMs}}
                        .dump() +
                    "\n");
  if (Error E = awaitPrepared()) {
    giveUp();
    return E;
  }
  if (!*Exited && !Device->lockExclusive(DeviceWaitLimitSeconds)) {
    giveUp();
    return Error::inFile(Device->path(),
                         "the device stayed busy for " +
                             std::to_string(int(DeviceWaitLimitSeconds)) +
                             " s (other processes hold its lock)");
  }
  Handoff->send(Plan.dump());
  Expected<SubprocessResult> Proc = Started.get();
  if (!Proc)
    return Proc.error();
  Device->unlock();
  return Proc;
}

Expected<BenchVerdict> Benchmarker::bench(const Candidate &C) {
  CandidateRun Run(C, Options);
  if (Error E = Run.makeDirectories())
    return E;
  unsigned Number;
  {
    std::lock_guard<std::mutex> Hold(Guard);
    Number = CandidatesTimed++;
  }
  if (Error E = Run.drawPlan(trialSeed(Secret, 7000000u + Number)))
    return E;
  Run.V.Bench["environment"] = hostEnvironment(Options.Device);

  // Shared with other users of the device while the reference draws its
  // inputs and the worker sets up, held alone while either is timed (the
  // candidate's worker runs only trusted code until its plan comes).
  Expected<DeviceLock> Lock = DeviceLock::open(Options.Device, Options.LockDir);
  if (!Lock)
    return Lock.error();
  Run.Device.emplace(std::move(*Lock));
  DeviceLock &Device = *Run.Device;
  Run.startWorker();

  // The reference is timed once the candidate's worker is done importing
  // torch (or has ended, or a minute has passed), with the device held alone.
  std::string CandidateProgress = Run.WorkDir + "/" + protocol::Progress;
  auto MayTime = [CandidateProgress, Exited = Run.Exited, Start = Run.Start,
                  &Device] {
    return (*Exited ||
            fs::readFileOrEmpty(CandidateProgress).find("load ready\n") !=
                std::string::npos ||
            SteadyClock::now() - Start > std::chrono::minutes(1)) &&
           Device.tryLockExclusive();
  };
  Expected<std::shared_ptr<ReferenceRun>> RefOrErr = reference(
      C.TaskPath, /*Use=*/true, /*Made=*/nullptr,
      [&Device] { return Device.tryLockShared(); }, MayTime,
      [&Device, Before = Device.waitedSeconds()] {
        return Device.waitedSeconds() - Before;
      });
  if (!RefOrErr) {
    Run.giveUp();
    Run.referenceFailed(RefOrErr.error().message());
    return std::move(Run.V);
  }
  ReferenceRun &Ref = **RefOrErr;
  {
    std::lock_guard<std::mutex> Hold(Guard);
    Run.ReferenceUses = Ref.Uses;
  }
  Expected<SubprocessResult> Proc = Run.handOff(Ref);
  if (!Proc)
    return Proc.error();
  std::unique_lock<std::mutex> Hold(Guard);
  if (Error E = Ref.readAudits()) {
    // Not kept for the task's next candidate: its reference runs again.
    if (References.count(C.TaskPath) &&
        References[C.TaskPath] == *RefOrErr)
      References.erase(C.TaskPath);
    Run.referenceFailed("'" + C.TaskPath +
                        "': cannot read the reference's audit outputs: " +
                        E.message());
    return std::move(Run.V);
  }
  Hold.unlock();
  Run.judge(Ref, *Proc);
  return std::move(Run.V);
}

Expected<bool>
Benchmarker::timeReferenceAhead(const std::string &TaskPath,
                                double MaxDeviceWaitSeconds,
                                std::function<bool()> Abandon) {
  Expected<DeviceLock> Lock = DeviceLock::open(Options.Device, Options.LockDir);
  if (!Lock)
    return Lock.error();
  DeviceLock &Device = *Lock;
  auto Waiting = [&Device, Before = Device.waitedSeconds()] {
    return Device.waitedSeconds() - Before;
  };
  // No candidate worker sets up beside it: the reference is timed as soon
  // as the device is held alone. A kept timing that may serve is returned
  // as it is (Made stays false).
  bool Made = false;
  Expected<std::shared_ptr<ReferenceRun>> Run = reference(
      TaskPath, /*Use=*/false, &Made,
      [&Device] { return Device.tryLockShared(); },
      [&Device] { return Device.tryLockExclusive(); }, Waiting,
      [&] { return Waiting() > MaxDeviceWaitSeconds || Abandon(); });
  Device.unlock();
  if (!Run)
    return Run.error();
  return Made;
}

} // namespace kevin

//===-- Benchmark.cpp - time a candidate against its task -----------------===//
//
// Process model: bench-reference worker (once per task, its directory kept
// while kevin-bench runs) -> bench-candidate worker per candidate -> audit
// comparison, statistics and flags here. Nothing the candidate's process
// writes is trusted beyond its samples, and those are cross-checked: the
// synchronized clock against the stream events, the thread census, and the
// audit outputs against the reference and against their own copies taken
// right after forward returned. The device is not held while the workers
// start, shared with other users of it while the reference draws inputs and
// makes the audit outputs, and held alone from the reference's timing until
// the candidate's worker ends (kevin/Support/DeviceLock.h).
//
//===----------------------------------------------------------------------===//
#include "kevin/Bench/Benchmark.h"
#include "kevin/Bench/Statistics.h"
#include "kevin/Exec/CandidateInput.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/TensorFile.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/DeviceLock.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace kevin {

struct Benchmarker::ReferenceRun {
  explicit ReferenceRun(TempDir D) : Dir(std::move(D)) {}
  TempDir Dir;
  Json Report;
  /// The audit outputs, taken out of the candidates' reach as the
  /// reference ended and read once the device is let go (readAudits).
  std::vector<OpenTensorFile> AuditFiles;
  std::vector<std::vector<at::Tensor>> AuditOutputs;
  double Seconds = 0;

  /// Reads the audit outputs not read yet; all of them or none.
  Error readAudits() {
    std::vector<std::vector<at::Tensor>> Read;
    for (const OpenTensorFile &File : AuditFiles) {
      Expected<std::vector<at::Tensor>> Out = File.read();
      if (!Out)
        return Out.error();
      Read.push_back(*Out);
    }
    AuditOutputs.insert(AuditOutputs.end(), Read.begin(), Read.end());
    AuditFiles.clear();
    return Error::success();
  }
};

namespace {

/// Longest wait for the device before kevin-bench gives up on it.
constexpr double DeviceWaitLimitSeconds = 3600;

/// The numbers of the array Timing[Key]; empty when the field is missing or
/// not an array (the candidate's worker wrote it: it may be malformed).
std::vector<double> numbers(const Json &Timing, const char *Key) {
  std::vector<double> Out;
  if (Timing.is_object() && Timing.contains(Key) && Timing[Key].is_array())
    for (const Json &V : Timing[Key])
      if (V.is_number())
        Out.push_back(V.get<double>());
  return Out;
}

double median(std::vector<double> V) {
  return V.empty() ? 0.0 : summarize(std::move(V)).Median;
}

/// One side's samples as timed, after the escape check.
struct SideTiming {
  std::vector<double> Ms; ///< the per-call times used (milliseconds)
  TimingSummary Summary;
  bool Escaped = false;
  bool ClocksDisagree = false;
};

/// Applies the escape check to a worker's samples: Start->EndStream is the
/// time unless the device-wide synchronize (less its calibrated overhead)
/// saw clearly more work, in which case that is the time.
SideTiming readTiming(const Json &Timing, bool Cuda) {
  SideTiming S;
  std::vector<double> Ms = numbers(Timing, "ms");
  std::vector<double> Synced = numbers(Timing, "synced_ms");
  std::vector<double> Host = numbers(Timing, "host_ms");
  double Overhead = Timing.value("sync_overhead_ms", 0.0);
  S.Ms = Ms;
  if (Cuda && Synced.size() == Ms.size() && !Ms.empty()) {
    S.Escaped = medianExcessExceeds(Ms, Synced, Overhead, 0.5, 0.02);
    if (S.Escaped)
      for (size_t I = 0; I < Ms.size(); ++I)
        S.Ms[I] = std::max(Ms[I], Synced[I] - Overhead);
    // The host clock spans the queued flush, forward and the synchronize;
    // less its calibrated share it should match the synchronized events.
    S.ClocksDisagree = medianExcessExceeds(
        Synced, Host, Timing.value("host_overhead_ms", 0.0), 0.5, 0.05);
  }
  S.Summary = summarize(S.Ms);
  return S;
}

Json summaryJson(const TimingSummary &S) {
  return Json{{"median_ms", S.Median},
              {"mean_ms", S.Mean},
              {"std_ms", S.Std},
              {"min_ms", S.Min},
              {"max_ms", S.Max},
              {"trials", S.Trials},
              {"rse", S.MedianRelativeStandardError}};
}

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
  if (Device.rfind("cuda", 0) != 0)
    return Env;
  std::string Index =
      Device.find(':') == std::string::npos ? "0"
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
  if (!O.CudaArch.empty())
    Argv.insert(Argv.end(), {"--cuda-arch", O.CudaArch});
  if (!O.IsolateNetwork)
    Argv.push_back("--no-isolate-network");
  if (!O.UseNamespaces)
    Argv.push_back("--no-namespaces");
  return Argv;
}

Json timingPlan(const BenchOptions &O) {
  return Json{{"min_trials", O.MinTrials},
              {"max_trials", O.MaxTrials},
              {"target_rse", O.TargetRse},
              {"budget_seconds", O.BudgetSeconds},
              {"flush_bytes", O.FlushBytes}};
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

Expected<Benchmarker::ReferenceRun *>
Benchmarker::reference(const std::string &TaskPath,
                       std::function<bool()> MayStart,
                       std::function<bool()> MayTime,
                       std::function<double()> DeviceWaiting) {
  auto Found = References.find(TaskPath);
  if (Found != References.end())
    return Found->second.get();
  Expected<TempDir> Dir = TempDir::create("kevin-bench");
  if (!Dir)
    return Dir.error();
  auto Run = std::make_unique<ReferenceRun>(std::move(*Dir));
  Run->Dir.Keep = Options.KeepTemporaries;
  const std::string &Path = Run->Dir.path();

  Json Secrets = timingPlan(Options);
  // Sets of different tasks come from different seeds of the one secret.
  uint64_t TaskSecret = trialSeed(Secret, 1000003u * (References.size() + 1));
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
        if (readWholeFile(Progress).find(std::string(protocol::TimingReady) +
                                         "\n") == std::string::npos ||
            !MayTime())
          return std::nullopt;
        return std::string();
      }};
  // The limit leaves out the wait for the device (bounded on its own).
  auto RefStart = std::chrono::steady_clock::now();
  Ref.StopWhen = [RefStart, DeviceWaiting, Limit = Options.TimeoutSeconds] {
    double Waiting = DeviceWaiting();
    double Wall = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - RefStart)
                      .count();
    return Wall - Waiting > Limit || Waiting > DeviceWaitLimitSeconds;
  };
  Ref.MaxCaptureBytes = 64 * 1024;
  Expected<SubprocessResult> Proc = runSubprocess(Ref);
  if (!Proc)
    return Proc.error();
  // Its own time: the waits for the device are not.
  Run->Seconds = Proc->WallSeconds - DeviceWaiting();
  Json Report =
      Json::parse(readWholeFile(Path + "/" + protocol::BenchReferenceJson),
                  nullptr, false);
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
  ReferenceRun *Raw = Run.get();
  References[TaskPath] = std::move(Run);
  return Raw;
}

Expected<BenchVerdict> Benchmarker::bench(const Candidate &C) {
  auto Start = std::chrono::steady_clock::now();
  BenchVerdict V;
  Json &B = V.Bench;
  bool Cuda = Options.Device.rfind("cuda", 0) == 0;
  B["ok"] = false;
  B["method"] = Cuda ? "cuda-events" : "cpu-wall-clock";
  B["baseline"] = Options.Baseline;
  B["device"] = Options.Device;
  B["speedup"] = nullptr;
  B["flags"] = Json::array();

  // The candidate's directory: the task without its code, the input sets.
  Expected<TempDir> Dir = TempDir::create("kevin-bench");
  if (!Dir)
    return Dir.error();
  Dir->Keep = Options.KeepTemporaries;
  std::string Path = Dir->path();
  Expected<std::string> File = candidateFile(C, Path);
  if (!File)
    return File.error();
  std::string CandidatePath = *File;
  std::string WorkDir = Path + "/work";
  if (::mkdir(WorkDir.c_str(), 0700) != 0)
    return Error::inFile(WorkDir, "cannot create directory");

  // The secret plan: how many warmups, where the audits fall.
  std::mt19937_64 Rng(trialSeed(Secret, 7000000u + CandidatesTimed++));
  Json Plan = timingPlan(Options);
  Plan["warmups"] = Options.Warmups + static_cast<unsigned>(Rng() % 3);
  std::vector<size_t> AuditAt;
  for (unsigned K = 0; K < Options.Audits; ++K)
    AuditAt.push_back(Rng() % std::max<size_t>(Options.MinTrials, 1));
  std::sort(AuditAt.begin(), AuditAt.end());
  Plan["audit_at"] = AuditAt;
  Expected<std::string> Nonce = randomHex(16);
  if (!Nonce)
    return Nonce.error();
  Plan["nonce"] = *Nonce;
  B["environment"] = hostEnvironment(Options.Device);

  // Shared with other users of the device from the reference's input draws
  // to its timing loops, then held alone (the workers' set-up needs no
  // device: the candidate's runs only trusted code until its plan comes).
  Expected<DeviceLock> Lock = DeviceLock::open(Options.Device, Options.LockDir);
  if (!Lock)
    return Lock.error();
  DeviceLock &Device = *Lock;

  // The candidate's worker starts now and imports torch while the reference
  // is timed; it gets its plan (and imports the candidate) only after.
  auto Handoff = std::make_shared<DeferredInput>();
  double Limit = Options.TimeoutSeconds;
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
  Run.StdinLater = {[Handoff] { return Handoff->poll(); }};
  // Its limit counts from the plan; the reference's wait has its own.
  Run.StopWhen = [Handoff, Limit] { return Handoff->overdue(Limit); };
  // A hard cap over the reference's run, the waits and its own phase.
  Run.TimeoutSeconds = 3 * Limit + DeviceWaitLimitSeconds;
  Run.MaxCaptureBytes = 64 * 1024;
  auto Exited = std::make_shared<std::atomic<bool>>(false);
  auto Started = std::async(std::launch::async, [Run, Exited] {
    Expected<SubprocessResult> R = runSubprocess(Run);
    *Exited = true;
    return R;
  });
  auto giveUp = [&] {
    Handoff->abandon();
    Started.wait();
  };
  // The reference is timed once the candidate's worker is done importing
  // torch (or has ended, or a minute has passed), with the device held alone.
  std::string CandidateProgress = WorkDir + "/" + protocol::Progress;
  auto MayTime = [CandidateProgress, Exited, Start, &Device] {
    return (*Exited ||
            readWholeFile(CandidateProgress).find("load ready\n") !=
                std::string::npos ||
            std::chrono::steady_clock::now() - Start >
                std::chrono::minutes(1)) &&
           Device.tryLockExclusive();
  };

  Expected<ReferenceRun *> RefOrErr = reference(
      C.TaskPath, [&Device] { return Device.tryLockShared(); }, MayTime,
      [&Device, Before = Device.waitedSeconds()] {
        return Device.waitedSeconds() - Before;
      });
  if (!RefOrErr) {
    giveUp();
    V.ReferenceFailed = true;
    B["outcome"] = outcomeName(Outcome::ReferenceError);
    B["message"] = truncated(RefOrErr.error().message(),
                             Options.MaxMessageBytes);
    return V;
  }
  ReferenceRun &Ref = **RefOrErr;
  const Json &Sets = Ref.Report["sets"];
  for (unsigned N = 0; N < Sets.size(); ++N)
    if (Error E = linkOrCopy(protocol::setFile(Ref.Dir.path(), N, "inputs"),
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
  // A reference timed earlier in this process did not take the device.
  if (!Device.lockExclusive(DeviceWaitLimitSeconds)) {
    giveUp();
    return Error::inFile(Device.path(),
                         "the device stayed busy for " +
                             std::to_string(int(DeviceWaitLimitSeconds)) +
                             " s (other processes hold its lock)");
  }
  Handoff->send(Plan.dump());
  Expected<SubprocessResult> Proc = Started.get();
  if (!Proc)
    return Proc.error();
  Device.unlock();
  if (Error E = Ref.readAudits()) {
    // Not kept for the task's next candidate: its reference runs again.
    References.erase(C.TaskPath);
    V.ReferenceFailed = true;
    B["outcome"] = outcomeName(Outcome::ReferenceError);
    B["message"] = truncated("'" + C.TaskPath +
                                 "': cannot read the reference's audit "
                                 "outputs: " +
                                 E.message(),
                             Options.MaxMessageBytes);
    return V;
  }
  // The candidate's own time, from its plan on.
  double CandidateSeconds = std::chrono::duration<double>(
                                DeferredInput::Clock::now() -
                                Handoff->sentAt().value_or(Start))
                                .count();
  SubprocessResult Ended = *Proc;
  Ended.WallSeconds = CandidateSeconds;
  WorkerVerdict W = classifyWorker(Ended, WorkDir, *Nonce, Limit,
                                   Options.MaxMessageBytes);
  auto secondsJson = [&] {
    return Json{{"device_wait", Device.waitedSeconds()},
                {"reference", Ref.Seconds},
                {"candidate", CandidateSeconds},
                {"total", std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - Start)
                              .count()}};
  };
  // What the candidate's worker says of its sandbox (as in kevin-run's
  // record).
  auto addIsolation = [&] {
    if (!W.HaveResult)
      return;
    for (const char *Field :
         {"network_isolated", "reference_hidden", "processes_isolated"})
      B[Field] = W.Result.contains(Field) && W.Result[Field].is_boolean() &&
                 W.Result[Field].get<bool>();
  };
  if (W.Result_ != Outcome::Ok) {
    B["outcome"] = outcomeName(W.Result_);
    B["message"] = truncated(W.Message, Options.MaxMessageBytes);
    addIsolation();
    B["seconds"] = secondsJson();
    return V;
  }

  // The worker's result came from the candidate's process: malformed
  // fields make the timing invalid, never the tool fail.
  try {
    const Json &Timing = W.Result["timing"];
    const Json &RefTiming = Ref.Report["timing"];
    SideTiming Cand = readTiming(Timing, Cuda);
    SideTiming Base = readTiming(RefTiming, Cuda);
    Json Flags = Json::array();
    std::vector<std::string> Rejections;
    // Each flag once (audits can repeat one); every reason is kept.
    auto reject = [&](const char *Flag, const std::string &Why) {
      if (std::find(Flags.begin(), Flags.end(), Flag) == Flags.end())
        Flags.push_back(Flag);
      Rejections.push_back(Why);
    };
    if (Cand.Escaped)
      reject(bench_flag::StreamEscape,
             "work escaped the timing stream: the device-wide synchronize saw "
             "clearly more time than the stream's events");
    unsigned Baseline = Timing.value("threads_baseline", 0u);
    unsigned MaxThreads = Timing.value("threads_max", 0u);
    if (MaxThreads > Baseline)
      reject(bench_flag::ThreadSpawned,
             "forward started threads (" + std::to_string(Baseline) + " -> " +
                 std::to_string(MaxThreads) + " in the process)");

    // Audits: unseen inputs, checked against the reference and against
    // the copies taken as forward returned.
    Json Audits = Json::array();
    bool Degenerate =
        trivialOutputWouldPass(Ref.AuditOutputs, Options.Tolerances);
    std::vector<double> AuditMs = numbers(Timing, "audit_ms");
    const Json *LateList = findField(Timing, "audit_late_writes");
    for (unsigned K = 0; K < Ref.AuditOutputs.size(); ++K) {
      Json Entry{{"audit", K}};
      // The outputs as forward returned them, copied on the timing stream.
      Expected<std::vector<at::Tensor>> Early =
          readTensorFile(protocol::auditFile(WorkDir, K, "outputs"),
                         outputReadLimit(Ref.AuditOutputs[K]));
      if (!Early || !LateList || !LateList->is_array() ||
          K >= LateList->size() || !(*LateList)[K].is_boolean()) {
        reject(bench_flag::AuditMismatch,
               "audit " + std::to_string(K) + " left no outputs");
        Entry["ok"] = false;
        Audits.push_back(Entry);
        continue;
      }
      bool Late = (*LateList)[K].get<bool>();
      if (Late)
        reject(bench_flag::LateWrites,
               "outputs changed after forward returned (audit " +
                   std::to_string(K) + ")");
      const std::vector<at::Tensor> &Want = Ref.AuditOutputs[K];
      std::string Problem;
      if (Early->size() != Want.size()) {
        Problem = "forward returned " + std::to_string(Early->size()) +
                  " tensors, expected " + std::to_string(Want.size());
      } else {
        TrialComparison TC =
            compareTrial(Want, *Early, Options.Tolerances, Degenerate);
        Entry["max_abs_error"] = TC.MaxAbsError;
        if (TC.Result != Outcome::Ok)
          Problem = TC.Message;
      }
      if (!Problem.empty())
        reject(bench_flag::AuditMismatch,
               "a timed-path call on unseen inputs was wrong (audit " +
                   std::to_string(K) + "): " + Problem);
      Entry["ok"] = Problem.empty() && !Late;
      if (K < AuditMs.size())
        Entry["ms"] = AuditMs[K];
      Audits.push_back(Entry);
    }
    if (Cand.Summary.Trials == 0 || Base.Summary.Trials == 0 ||
        !(Cand.Summary.Median > 0) || !(Base.Summary.Median > 0)) {
      B["outcome"] = outcomeName(Outcome::InvalidResult);
      B["message"] = "the timing loop reported no usable samples";
      B["seconds"] = secondsJson();
      return V;
    }
    SpeedupEstimate Speedup = estimateSpeedup(Base.Ms, Cand.Ms);
    double AuditMedian = median(AuditMs);
    if (AuditMedian > 3 * Cand.Summary.Median + 0.05)
      Flags.push_back(bench_flag::UnseenInputSlower);
    if (Cand.ClocksDisagree)
      Flags.push_back(bench_flag::ClocksDisagree);
    if (Cuda && Cand.Summary.Median < 0.002)
      Flags.push_back(bench_flag::BelowLaunchFloor);
    if (Speedup.Speedup > Options.SpeedupBound)
      Flags.push_back(bench_flag::SpeedupAboveBound);
    if (Timing.value("l2_persistence_resets", 0u) > 0)
      Flags.push_back(bench_flag::L2Persistence);

    V.Ok = Rejections.empty();
    B["ok"] = V.Ok;
    B["outcome"] = V.Ok ? "ok" : "rejected";
    char Buffer[200];
    std::snprintf(Buffer, sizeof(Buffer),
                  "%.3f ms vs reference %.3f ms: %.2fx [%.2fx, %.2fx]",
                  Cand.Summary.Median, Base.Summary.Median, Speedup.Speedup,
                  Speedup.Low, Speedup.High);
    std::string Message = Buffer;
    for (const std::string &Why : Rejections)
      Message += "; " + Why;
    B["message"] = truncated(Message, Options.MaxMessageBytes);
    B["measured_speedup"] = Speedup.Speedup;
    if (V.Ok) {
      B["speedup"] = Speedup.Speedup;
      B["speedup_ci"] = Json::array({Speedup.Low, Speedup.High});
    }
    B["candidate"] = summaryJson(Cand.Summary);
    B["reference"] = summaryJson(Base.Summary);
    B["flags"] = Flags;
    B["warmups"] = Timing.value("warmups", 0u);
    B["pool_size"] = Ref.Report.value("pool", Options.PoolSize);
    B["audits"] = Audits;
    B["sync_overhead_ms"] = Timing.value("sync_overhead_ms", 0.0);
    Json Env = Ref.Report.value("environment", Json::object());
    for (auto It = B["environment"].begin(); It != B["environment"].end();
         ++It)
      Env[It.key()] = It.value();
    B["environment"] = Env;
    addIsolation();
    B["seconds"] = secondsJson();
  } catch (const Json::exception &E) {
    V.Ok = false;
    B["ok"] = false;
    B["outcome"] = outcomeName(Outcome::InvalidResult);
    B["message"] = std::string("the worker's timing is malformed: ") + E.what();
  }
  return V;
}

} // namespace kevin

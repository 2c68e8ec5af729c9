//===-- BenchWorker.cpp - the timing worker modes of kevin-bench ----------===//
//
// One timing loop serves the trusted reference and the untrusted candidate,
// so both are measured by the identical method:
//
//   warmups (secret count) -> synchronize-overhead calibration on an empty
//   call (CUDA) -> thread census baseline -> timed calls rotating through
//   the input pool until the median is precise enough or the budget ends,
//   with audit calls on unseen input sets at secret positions.
//
// A CUDA call is: reset persisting L2, flush L2 (write a buffer of twice its
// size), synchronize; record Start on the timing stream; forward; record
// EndStream; thread census; synchronize the whole device; record EndDevice.
// Start->EndStream is the kernel time (what triton's do_bench measures);
// Start->EndDevice, less the calibrated synchronize overhead, exposes work
// that escaped the timing stream. A CPU call is wall clock around forward.
// The trusted side (lib/Bench/Benchmark.cpp) turns the samples into
// statistics and flags.
//
//===----------------------------------------------------------------------===//
#include "CudaRuntime.h"
#include "kevin/Exec/WorkerSupport.h"
#include "kevin/Bench/Statistics.h"
#include "kevin/Exec/Compare.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/TensorFile.h"
#include "kevin/Exec/Worker.h"
#include "kevin/Exec/WorkerProcess.h"

#include <torch/csrc/autograd/python_variable.h>

#include <dirent.h>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <thread>
#include <unistd.h>

namespace kevin {

using namespace worker;

namespace {

/// The timing loop's parameters, read from the secrets on stdin.
struct TimingPlan {
  unsigned Warmups = 3;
  /// Warm up for at least this long too (GPU clocks ramp up under load).
  double WarmupMs = 100;
  StoppingRule Rule;
  /// Positions (in timed calls done so far) at which audit K runs.
  std::vector<size_t> AuditAt;
  size_t FlushBytes = 0; ///< 0: twice the device's L2, at least 256 MiB
  double SettleMs = 2;

  static TimingPlan from(const Json &J) {
    TimingPlan P;
    P.Warmups = J.value("warmups", 3u);
    P.WarmupMs = J.value("warmup_ms", 100.0);
    P.Rule.MinTrials = J.value("min_trials", size_t(10));
    P.Rule.MaxTrials = J.value("max_trials", size_t(1000));
    P.Rule.TargetRse = J.value("target_rse", 0.01);
    P.Rule.BudgetSeconds = J.value("budget_seconds", 5.0);
    P.FlushBytes = J.value("flush_bytes", size_t(0));
    P.SettleMs = J.value("settle_ms", 2.0);
    if (J.contains("audit_at"))
      for (const Json &A : J["audit_at"])
        P.AuditAt.push_back(A.get<size_t>());
    return P;
  }
};

/// Entries of /proc/self/task: the threads of this process.
unsigned threadCount() {
  DIR *D = ::opendir("/proc/self/task");
  if (!D)
    return 0;
  unsigned N = 0;
  while (struct dirent *E = ::readdir(D))
    N += E->d_name[0] != '.';
  ::closedir(D);
  return N;
}

/// The thread count once short-lived threads have ended: the interpreter
/// lock is let go for up to 200 ms while the count keeps falling. Threads
/// that forward started during the warm-up wait for that lock, which the
/// timing loop holds; counted in the census baseline, they would hide a
/// thread started by every timed call.
unsigned settledThreadCount() {
  py::gil_scoped_release Free;
  unsigned Count = threadCount();
  for (int Step = 0; Step < 20; ++Step) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    unsigned Now = threadCount();
    if (Now >= Count)
      break;
    Count = Now;
  }
  return Count;
}

/// The tensors of a forward result (a tensor, or a tuple/list of them).
std::vector<at::Tensor> outputTensors(const py::object &Out) {
  std::vector<py::handle> Items;
  if (py::isinstance<py::tuple>(Out) || py::isinstance<py::list>(Out))
    for (py::handle H : Out)
      Items.push_back(H);
  else
    Items.push_back(Out);
  std::vector<at::Tensor> Tensors;
  for (py::handle H : Items) {
    if (!THPVariable_CheckExact(H.ptr()))
      throw std::runtime_error("TypeError: forward returned something other "
                               "than a plain torch.Tensor");
    Tensors.push_back(fromPython(H).detach());
  }
  return Tensors;
}

Json outputMeta(const py::object &Out) {
  Json Meta;
  Meta["kind"] = py::isinstance<py::tuple>(Out)  ? "tuple"
                 : py::isinstance<py::list>(Out) ? "list"
                                                 : "tensor";
  Meta["tensors"] = Json::array();
  for (const at::Tensor &T : outputTensors(Out))
    Meta["tensors"].push_back(tensorMeta(T));
  return Meta;
}

/// Times single calls by the method of the device.
class CallTimer {
public:
  struct Sample {
    double Ms = 0;       ///< Start -> EndStream (CUDA), wall clock (CPU)
    double SyncedMs = 0; ///< Start -> EndDevice (CUDA); = Ms on the CPU
    double HostMs = 0;   ///< host clock over call + synchronize
    unsigned Threads = 0;
    py::object Out;
    std::vector<at::Tensor> Early; ///< copies taken right after return
  };

  static Expected<CallTimer> create(py::module_ &Prelude,
                                    const std::string &Device,
                                    size_t FlushBytes, Json &Environment) {
    CallTimer T;
    T.Cuda = Device.rfind("cuda", 0) == 0;
    Environment = Json::parse(
        Prelude.attr("to_json")(Prelude.attr("device_info")(Device))
            .cast<std::string>());
    if (!T.Cuda)
      return T;
    Expected<CudaRuntime> Rt = CudaRuntime::find();
    if (!Rt)
      return Rt.error();
    T.Runtime = *Rt;
    T.Stream = reinterpret_cast<CudaRuntime::Stream>(
        Prelude.attr("use_timing_stream")(Device).cast<uintptr_t>());
    // Before any candidate code: a limit the device starts with, or keeps
    // through a reset, is the machine's, not the candidate's.
    Environment["l2_persisting_limit_at_start"] = T.Runtime->persistingL2Limit();
    T.Runtime->resetPersistingL2(0);
    T.PersistingFloor = T.Runtime->persistingL2Limit();
    Environment["l2_persisting_limit_floor"] = T.PersistingFloor;
    if (!FlushBytes)
      FlushBytes = std::max<size_t>(
          2 * Environment.value("l2_bytes", size_t(0)), size_t(256) << 20);
    Environment["l2_flush_bytes"] = FlushBytes;
    T.Flush = at::empty({static_cast<int64_t>(FlushBytes / 4)},
                        at::TensorOptions()
                            .dtype(at::kFloat)
                            .device(at::Device(Device)));
    for (CudaRuntime::Event *E : {&T.Start, &T.EndStream, &T.EndDevice})
      *E = T.Runtime->createEvent();
    return T;
  }

  bool cuda() const { return Cuda; }
  /// Calls before which persisting L2 had to be reset (some code set it up).
  unsigned persistingResets() const { return PersistingResets; }

  Sample call(const py::object &Fn, const py::list &Args, bool Snapshot) {
    Sample S;
    if (Cuda) {
      // Idle device, then the flush queued ahead of Start: the flush is
      // outside the timed region, and the GPU is busy with it while the
      // host launches forward, so launch latency is hidden as it is in
      // triton's do_bench.
      PersistingResets += Runtime->resetPersistingL2(PersistingFloor);
      Runtime->synchronizeDevice();
      Flush.zero_();
    }
    auto HostStart = Clock::now();
    if (Cuda)
      Runtime->record(Start, Stream);
    S.Out = Fn(*Args);
    if (Cuda)
      Runtime->record(EndStream, Stream);
    auto Returned = Clock::now();
    S.Threads = threadCount();
    if (Snapshot)
      for (const at::Tensor &T : outputTensors(S.Out))
        S.Early.push_back(T.clone()); // on the timing stream, in order
    if (!Cuda) {
      S.Ms = S.SyncedMs = S.HostMs =
          std::chrono::duration<double, std::milli>(Returned - HostStart)
              .count();
      return S;
    }
    if (!Runtime->synchronizeDevice())
      throw std::runtime_error("CUDA error: the device reported an error "
                               "after forward (cudaDeviceSynchronize)");
    Runtime->record(EndDevice, Stream);
    S.Ms = Runtime->elapsedMilliseconds(Start, EndStream);
    S.SyncedMs = Runtime->elapsedMilliseconds(Start, EndDevice);
    S.HostMs = secondsSince(HostStart) * 1e3;
    return S;
  }

  /// Waits, then synchronizes: what a late writer had time to do is done.
  void settle(double Ms) {
    py::gil_scoped_release Release; // a Python late writer may run meanwhile
    std::this_thread::sleep_for(std::chrono::microseconds(
        static_cast<long>(Ms * 1000)));
    if (Cuda)
      Runtime->synchronizeDevice();
  }

private:
  bool Cuda = false;
  std::optional<CudaRuntime> Runtime;
  CudaRuntime::Stream Stream = nullptr;
  CudaRuntime::Event Start = nullptr, EndStream = nullptr, EndDevice = nullptr;
  at::Tensor Flush;
  unsigned PersistingResets = 0;
  size_t PersistingFloor = 0;
};

/// Bitwise-equal contents (NaN equal to NaN), compared where they live.
bool sameContents(const std::vector<at::Tensor> &A,
                  const std::vector<at::Tensor> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I) {
    if (A[I].scalar_type() != B[I].scalar_type() ||
        !A[I].sizes().equals(B[I].sizes()))
      return false;
    if (!at::isFloatingType(A[I].scalar_type())) {
      if (!at::equal(A[I], B[I]))
        return false;
      continue;
    }
    at::Tensor Same =
        A[I].eq(B[I]).logical_or(A[I].isnan().logical_and(B[I].isnan()));
    if (!Same.all().item<bool>())
      return false;
  }
  return true;
}

/// Where audit K's outputs go (the candidate) or nowhere (the reference).
using AuditSink = std::function<void(unsigned, const CallTimer::Sample &)>;

/// The samples of one timing loop, as the trusted side reads them.
Json timeModel(CallTimer &Timer, py::module_ &Prelude, const py::object &Model,
               const std::vector<py::list> &Pool,
               const std::vector<py::list> &Audits, const TimingPlan &Plan,
               const AuditSink &OnAudit) {
  Json Out;
  auto Start = Clock::now();
  unsigned Warmups = 0;
  for (auto WarmStart = Clock::now();
       Warmups < Plan.Warmups || secondsSince(WarmStart) * 1e3 < Plan.WarmupMs;
       ++Warmups)
    Timer.call(Model, Pool[Warmups % Pool.size()], false);
  if (Timer.cuda()) {
    std::vector<double> Overhead;
    py::object Noop = Prelude.attr("noop");
    std::vector<double> HostOverhead;
    py::list NoArgs;
    for (int I = 0; I < 21; ++I) {
      CallTimer::Sample S = Timer.call(Noop, NoArgs, false);
      Overhead.push_back(S.SyncedMs - S.Ms);
      HostOverhead.push_back(S.HostMs - S.SyncedMs);
    }
    Out["sync_overhead_ms"] = summarize(Overhead).Median;
    // The host clock also sees the queued flush: calibrated away likewise.
    Out["host_overhead_ms"] = summarize(HostOverhead).Median;
  } else {
    Out["sync_overhead_ms"] = 0.0;
    Out["host_overhead_ms"] = 0.0;
  }
  unsigned BaselineThreads = settledThreadCount(),
           MaxThreads = BaselineThreads;
  Json Ms = Json::array(), Synced = Json::array(), Host = Json::array();
  Json AuditTimes = Json::array(), AuditLate = Json::array();
  std::vector<double> Samples;
  size_t NextAudit = 0, Trial = 0;
  double TimedSeconds = 0; // timed calls only: audits write files
  while (true) {
    if (NextAudit < Plan.AuditAt.size() && NextAudit < Audits.size() &&
        Plan.AuditAt[NextAudit] <= Samples.size()) {
      CallTimer::Sample S = Timer.call(Model, Audits[NextAudit], true);
      MaxThreads = std::max(MaxThreads, S.Threads);
      Timer.settle(Plan.SettleMs);
      AuditLate.push_back(!sameContents(S.Early, outputTensors(S.Out)));
      OnAudit(static_cast<unsigned>(NextAudit), S);
      AuditTimes.push_back(S.Ms);
      ++NextAudit;
      continue;
    }
    bool AuditsDone =
        NextAudit >= std::min(Plan.AuditAt.size(), Audits.size());
    if (AuditsDone && Plan.Rule.shouldStop(Samples, TimedSeconds))
      break;
    auto CallStart = Clock::now();
    CallTimer::Sample S = Timer.call(Model, Pool[Trial++ % Pool.size()], false);
    TimedSeconds += secondsSince(CallStart);
    MaxThreads = std::max(MaxThreads, S.Threads);
    Samples.push_back(S.Ms);
    Ms.push_back(S.Ms);
    Synced.push_back(S.SyncedMs);
    Host.push_back(S.HostMs);
    // A loop the budget cannot end (audits pending past MaxTrials) ends here.
    if (Samples.size() >= 4 * Plan.Rule.MaxTrials)
      break;
  }
  Out["ms"] = Ms;
  Out["synced_ms"] = Synced;
  Out["host_ms"] = Host;
  Out["audit_ms"] = AuditTimes;
  Out["audit_late_writes"] = AuditLate;
  Out["warmups"] = Warmups;
  Out["l2_persistence_resets"] = Timer.persistingResets();
  Out["threads_baseline"] = BaselineThreads;
  Out["threads_max"] = MaxThreads;
  Out["seconds"] = secondsSince(Start);
  return Out;
}

std::string readStdin() {
  return std::string((std::istreambuf_iterator<char>(std::cin)),
                     std::istreambuf_iterator<char>());
}

/// Loads input set N of Dir onto the device as call arguments.
Expected<py::list> loadSet(py::module_ &Prelude, const std::string &Dir,
                           unsigned N, const Json &Layout,
                           const std::string &Device) {
  Expected<std::vector<at::Tensor>> Loaded =
      readTensorFile(protocol::setFile(Dir, N, "inputs"));
  if (!Loaded)
    return Loaded.error();
  std::vector<at::Tensor> OnDevice;
  for (const at::Tensor &T : *Loaded)
    OnDevice.push_back(T.to(at::Device(Device), false, true));
  return trialArguments(Prelude, Layout, OnDevice);
}

} // namespace

//--- bench-reference ----------------------------------------------------------

int runBenchReferenceWorker(const WorkerOptions &Options) {
  guardFromCandidates();
  Json Report;
  Report["ok"] = false;
  auto failed = [&](const std::string &Message) {
    Report["message"] = Message;
    writeJson(Options.Dir, protocol::BenchReferenceJson, Report);
    return ExitClean;
  };
  py::initialize_interpreter();
  try {
    py::module_ Prelude = startPython();
    py::module_ Task;
    try {
      Task = Prelude.attr("import_file")("kevin_task", Options.Task);
    } catch (py::error_already_set &E) {
      return failed("cannot import the task: " +
                    Prelude
                        .attr("describe")(E.value(), Options.Task,
                                          Options.Task, E.trace())
                        .cast<std::string>());
    }
    for (const char *Needed : {"Model", "get_inputs", "get_init_inputs"})
      if (!py::hasattr(Task, Needed))
        return failed(std::string("the task defines no '") + Needed + "'");
    // The secrets come on a first line once kevin-bench holds the device
    // (everything above ran off it); stdin closes when it lets the timing
    // start (see below).
    std::optional<Json> SecretsLine =
        readSecretsLine("seeds", "input-set seeds");
    if (!SecretsLine)
      return ExitError;
    const Json &Secrets = *SecretsLine;
    unsigned PoolSize = Secrets.value("pool", 4u);
    unsigned AuditCount = Secrets.value("audits", 2u);
    if (Secrets["seeds"].size() != PoolSize + AuditCount || PoolSize == 0) {
      std::cerr << "kevin-worker: error: expected pool + audits seeds\n";
      return ExitError;
    }
    TimingPlan Plan = TimingPlan::from(Secrets);
    Json Environment;
    Expected<CallTimer> Timer = CallTimer::create(
        Prelude, Options.Device, Plan.FlushBytes, Environment);
    if (!Timer)
      return failed(Timer.error().message());
    py::object Device =
        py::module_::import("torch").attr("device")(Options.Device);
    Prelude.attr("manual_seed")(protocol::InitSeed);
    py::list Init = Task.attr("get_init_inputs")();
    Report["init_args"] =
        Json::parse(Prelude.attr("to_json")(Init).cast<std::string>());
    Prelude.attr("manual_seed")(protocol::InitSeed);
    py::object Model = Task.attr("Model")(*Init).attr("to")(Device);
    if (Options.Baseline == "compile")
      Model = Prelude.attr("compile_model")(Model);
    py::object NoGrad = Prelude.attr("no_grad")();
    NoGrad.attr("__enter__")();

    // The input sets, drawn from the secret seeds by the task's own code:
    // the pool first (shrunk to the byte budget once the first set's size
    // is known, never below 2 sets), then the audit sets.
    size_t PoolBytes = Secrets.value("pool_bytes", size_t(1) << 30);
    unsigned PoolUsed = PoolSize;
    Json Sets = Json::array(), AuditOutputs = Json::array();
    std::vector<py::list> Pool;
    for (unsigned N = 0; N < PoolUsed + AuditCount; ++N) {
      unsigned Seed = N < PoolUsed ? N : PoolSize + (N - PoolUsed);
      py::list Inputs = Prelude.attr("draw_inputs")(
          Task.attr("get_inputs"), Options.Device,
          Secrets["seeds"][Seed].get<uint64_t>());
      Json Layout = Json::array();
      std::vector<at::Tensor> Pristine, OnDevice;
      for (py::handle Item : Inputs) {
        Json Slot;
        if (THPVariable_Check(Item.ptr())) {
          Slot["tensor"] = Pristine.size();
          at::Tensor T = fromPython(Item);
          Pristine.push_back(T.to(at::kCPU, false, true));
          OnDevice.push_back(T.to(at::Device(Options.Device), false, true));
        } else {
          Slot["value"] =
              Json::parse(Prelude.attr("to_json")(Item).cast<std::string>());
        }
        Layout.push_back(Slot);
      }
      if (Error E = writeTensorFile(
              protocol::setFile(Options.Dir, N, "inputs"), Pristine)) {
        std::cerr << "kevin-worker: error: " << E.message() << "\n";
        return ExitError;
      }
      Sets.push_back(Json{{"inputs", Layout}});
      if (N == 0) {
        size_t SetBytes = 0;
        for (const at::Tensor &T : Pristine)
          SetBytes += T.nbytes();
        size_t Fit = SetBytes ? PoolBytes / SetBytes : PoolSize;
        PoolUsed = static_cast<unsigned>(std::max<size_t>(
            std::min<size_t>(PoolSize, 2), std::min<size_t>(PoolSize, Fit)));
      }
      py::list Args = trialArguments(Prelude, Layout, OnDevice);
      if (N < PoolUsed) {
        Pool.push_back(Args);
        continue;
      }
      py::object Out = Model(*Args);
      AuditOutputs.push_back(outputMeta(Out));
      if (Error E = writeTensorFile(
              protocol::auditFile(Options.Dir, N - PoolUsed, "reference"),
              cpuCopies(outputTensors(Out)))) {
        std::cerr << "kevin-worker: error: " << E.message() << "\n";
        return ExitError;
      }
    }
    Plan.AuditAt.clear(); // the trusted reference needs no audits
    // kevin-bench holds the timing until the candidate's worker, started
    // beside this one, has finished importing torch: nothing else runs on
    // the machine while the reference is timed. It asks for the device
    // alone only now that the inputs and audits are done.
    int ReadyFd = openProgress(Options.Dir);
    progress(ReadyFd, protocol::TimingReady);
    if (ReadyFd >= 0)
      ::close(ReadyFd);
    readStdin();
    Json Timing = timeModel(*Timer, Prelude, Model, Pool, {}, Plan,
                            [](unsigned, const CallTimer::Sample &) {});
    NoGrad.attr("__exit__")(py::none(), py::none(), py::none());
    Report["ok"] = true;
    Report["pool"] = PoolUsed;
    Report["sets"] = Sets;
    Report["audit_outputs"] = AuditOutputs;
    Report["timing"] = Timing;
    Report["environment"] = Environment;
    writeJson(Options.Dir, protocol::BenchReferenceJson, Report);
    return ExitClean;
  } catch (py::error_already_set &E) {
    return failed(std::string("the reference failed: ") + E.what());
  } catch (const std::exception &E) {
    return failed(std::string("the reference failed: ") + E.what());
  }
}

//--- bench-candidate ----------------------------------------------------------

int runBenchCandidateWorker(const WorkerOptions &Options) {
  WorkerIsolation Isolation =
      Options.UseNamespaces
          ? isolateWorker(Options.IsolateNetwork, Options.HiddenDirs,
                          Options.PrivateDirs, Options.KeptPaths)
          : WorkerIsolation();
  std::string Display =
      Options.DisplayName.empty() ? Options.Candidate : Options.DisplayName;
  int ProgressFd = openProgress(Options.Dir);
  BuilderState State;
  State.Options = Options.Build;
  State.OriginPath = Display;
  State.OriginText = readWholeFile(Options.Candidate);
  State.ProgressFd = ProgressFd;
  Builder = &State;

  // kevin-bench starts this worker while the reference is being timed: the
  // trusted set-up (Python, torch, the builder) runs first, with no CUDA
  // work; the plan and the task arrive once the reference is done, and only
  // then is candidate code imported.
  py::initialize_interpreter();
  py::module_ Prelude;
  try {
    Prelude = startPython();
    State.Toolchain = toolchainFrom(Prelude, Options.CudaArch);
    Prelude.attr("install_builder")();
  } catch (py::error_already_set &E) {
    std::cerr << "kevin-worker: error: cannot start Python: " << E.what()
              << "\n";
    return ExitError;
  }
  progress(ProgressFd, "load ready");
  std::optional<Json> PlanLine = readSecretsLine("nonce", "nonce");
  if (!PlanLine)
    return ExitError;
  const Json &Secrets = *PlanLine;
  TimingPlan Plan = TimingPlan::from(Secrets);
  Json Task = Json::parse(
      readWholeFile(Options.Dir + "/" + protocol::TaskJson), nullptr, false);
  if (Task.is_discarded() || !Task.contains("sets")) {
    std::cerr << "kevin-worker: error: no task.json in the work directory\n";
    return ExitError;
  }
  unsigned PoolSize = Task.value("pool", 1u);
  Json Report;
  Report["nonce"] = Secrets["nonce"];
  Report["stage"] = "load";
  Report["outcome"] = "ok";
  Report["message"] = "";
  Report["network_isolated"] = Isolation.Network;
  Report["reference_hidden"] = Isolation.Hidden;
  Report["processes_isolated"] = Isolation.Processes;
  auto finish = [&](Stage S, Outcome O, const std::string &Message) {
    Report["stage"] = stageName(S);
    Report["outcome"] = outcomeName(O);
    Report["message"] = Message;
    Report["builds"] = State.Builds;
    progress(ProgressFd, "done");
    return writeJson(Options.Dir, protocol::ResultJson, Report) ? ExitClean
                                                               : ExitError;
  };

  Stage Reached = Stage::Load;
  try {
    progress(ProgressFd, "load");
    Json Environment;
    // The timing stream is current before the candidate is imported.
    Expected<CallTimer> Timer = CallTimer::create(
        Prelude, Options.Device, Plan.FlushBytes, Environment);
    if (!Timer) {
      std::cerr << "kevin-worker: error: " << Timer.error().message() << "\n";
      return ExitError;
    }
    py::module_ Candidate =
        Prelude.attr("import_file")("kevin_candidate", Options.Candidate);
    if (State.Failed)
      return finish(Stage::Build, *parseOutcome(State.FailOutcome),
                    State.FailMessage);
    if (!py::hasattr(Candidate, "ModelNew"))
      return finish(Stage::Format, Outcome::FormatError,
                    Display + ": no class 'ModelNew' is defined");
    py::object Device =
        py::module_::import("torch").attr("device")(Options.Device);
    py::list Init = Prelude.attr("from_json")(Task["init_args"].dump());
    Prelude.attr("manual_seed")(protocol::InitSeed);
    py::object Model = Candidate.attr("ModelNew")(*Init).attr("to")(Device);
    std::vector<py::list> Pool, Audits;
    for (unsigned N = 0; N < Task["sets"].size(); ++N) {
      Expected<py::list> Args = loadSet(Prelude, Options.Dir, N,
                                        Task["sets"][N]["inputs"],
                                        Options.Device);
      if (!Args) {
        std::cerr << "kevin-worker: error: " << Args.error().message() << "\n";
        return ExitError;
      }
      (N < PoolSize ? Pool : Audits).push_back(*Args);
    }
    py::object NoGrad = Prelude.attr("no_grad")();
    NoGrad.attr("__enter__")();
    progress(ProgressFd, "run");
    State.Stage = "run";
    Reached = Stage::Run;
    bool WriteFailed = false;
    AuditSink OnAudit = [&](unsigned K, const CallTimer::Sample &S) {
      // The copies taken as forward returned: what was returned.
      WriteFailed |= static_cast<bool>(
          writeTensorFile(protocol::auditFile(Options.Dir, K, "outputs"),
                          cpuCopies(S.Early)));
    };
    // One progress line for the whole phase: a line per phase (warm-up,
    // timed) would tell the candidate, which can read the file, which calls
    // are timed (KEVIN-RT-015).
    Report["timing"] =
        timeModel(*Timer, Prelude, Model, Pool, Audits, Plan, OnAudit);
    NoGrad.attr("__exit__")(py::none(), py::none(), py::none());
    if (WriteFailed) {
      std::cerr << "kevin-worker: error: cannot write the audit outputs\n";
      return ExitError;
    }
    Report["environment"] = Environment;
    return finish(Stage::Compare, Outcome::Ok, "");
  } catch (py::error_already_set &E) {
    if (isSystemExit(E))
      return finish(Reached, Outcome::EarlyExit,
                    "the candidate called exit while being timed");
    std::string Message =
        Prelude ? Prelude
                      .attr("describe")(E.value(), Options.Candidate, Display,
                                        E.trace())
                      .cast<std::string>()
                : std::string(E.what());
    Outcome O = classifyException(Message);
    if (Reached == Stage::Load && O == Outcome::RuntimeError)
      O = Outcome::LoadError;
    return finish(Reached, O, Message);
  } catch (const std::exception &E) {
    std::string Message = E.what();
    return finish(Reached, classifyException(Message),
                  Message.substr(0, 2000));
  }
}

} // namespace kevin

//===-- BenchWorker.cpp - the timing worker modes of kevin-bench ----------===//
//
// bench-reference (trusted) draws the input sets and the audits' reference
// outputs, then times Model; bench-candidate (untrusted) imports the
// candidate once its plan comes, then times ModelNew on the same sets with
// audit calls among the timed ones. Both time by one method (TimingLoop.h,
// CallTimer.h); the trusted side (lib/Bench/Benchmark.cpp) turns the samples
// into statistics and flags.
//
//===----------------------------------------------------------------------===//
#include "TimingLoop.h"
#include "kevin/Bench/BenchWorker.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/TensorFile.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/FileSystem.h"

#include <torch/csrc/autograd/python_variable.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace kevin {

using namespace worker;

//--- bench-reference ----------------------------------------------------------

namespace {

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

/// The task's module; an Error saying why it cannot serve (it does not
/// import, or lacks Model, get_inputs or get_init_inputs).
Expected<py::module_> importTask(py::module_ &Prelude,
                                 const std::string &Path) {
  py::module_ Task;
  try {
    Task = Prelude.attr("import_file")("kevin_task", Path);
  } catch (py::error_already_set &E) {
    return Error::make(
        "cannot import the task: " +
        Prelude.attr("describe")(E.value(), Path, Path, E.trace())
            .cast<std::string>());
  }
  for (const char *Needed : {"Model", "get_inputs", "get_init_inputs"})
    if (!py::hasattr(Task, Needed))
      return Error::make(std::string("the task defines no '") + Needed + "'");
  return Task;
}

/// The secrets line: the timing plan and the seeds of the input sets (the
/// pool's, then the audits'); std::nullopt after saying why on stderr.
std::optional<Json> readReferenceSecrets() {
  std::optional<Json> SecretsLine = readSecretsLine("seeds", "input-set seeds");
  if (!SecretsLine)
    return std::nullopt;
  const Json &Secrets = *SecretsLine;
  unsigned PoolSize = Secrets.value("pool", 4u);
  unsigned AuditCount = Secrets.value("audits", 2u);
  if (Secrets["seeds"].size() != PoolSize + AuditCount || PoolSize == 0) {
    std::cerr << "kevin-worker: error: expected pool + audits seeds\n";
    return std::nullopt;
  }
  return SecretsLine;
}

/// The task's Model on the device, built under the fixed init seed as the
/// candidate's ModelNew will be (torch.compile'd for the compile baseline);
/// Report gets its init arguments.
py::object buildReference(py::module_ &Prelude, py::module_ &Task,
                          const WorkerOptions &Options, Json &Report) {
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
  return Model;
}

/// One drawn input set: the layout of its call arguments, its tensors as
/// drawn (copied to the CPU) and on the device.
struct InputSet {
  Json Layout = Json::array();
  std::vector<at::Tensor> Pristine, OnDevice;
};

InputSet splitInputs(py::module_ &Prelude, const py::list &Inputs,
                     const std::string &Device) {
  InputSet Set;
  for (py::handle Item : Inputs) {
    Json Slot;
    if (THPVariable_Check(Item.ptr())) {
      Slot["tensor"] = Set.Pristine.size();
      at::Tensor T = fromPython(Item);
      Set.Pristine.push_back(T.to(at::kCPU, false, true));
      Set.OnDevice.push_back(T.to(at::Device(Device), false, true));
    } else {
      Slot["value"] =
          Json::parse(Prelude.attr("to_json")(Item).cast<std::string>());
    }
    Set.Layout.push_back(Slot);
  }
  return Set;
}

/// How many of PoolSize sets of First's size fit in PoolBytes, never fewer
/// than 2 sets.
unsigned poolSetsThatFit(const std::vector<at::Tensor> &First,
                         unsigned PoolSize, size_t PoolBytes) {
  size_t SetBytes = 0;
  for (const at::Tensor &T : First)
    SetBytes += T.nbytes();
  size_t Fit = SetBytes ? PoolBytes / SetBytes : PoolSize;
  return static_cast<unsigned>(std::max<size_t>(
      std::min<size_t>(PoolSize, 2), std::min<size_t>(PoolSize, Fit)));
}

/// The input sets the reference drew, as its report tells them, and the
/// pool's call arguments.
struct DrawnSets {
  unsigned PoolUsed = 0;
  Json Sets = Json::array(), AuditOutputs = Json::array();
  std::vector<py::list> Pool;
};

/// Draws the input sets from the secret seeds by the task's own code: the
/// pool first (shrunk to the byte budget once the first set's size is known,
/// never below 2 sets), then the audit sets, whose reference outputs it
/// writes. Every set goes to the work directory.
Expected<DrawnSets> drawInputSets(py::module_ &Prelude, py::module_ &Task,
                                  const py::object &Model, const Json &Secrets,
                                  const WorkerOptions &Options) {
  unsigned PoolSize = Secrets.value("pool", 4u);
  unsigned AuditCount = Secrets.value("audits", 2u);
  size_t PoolBytes = Secrets.value("pool_bytes", size_t(1) << 30);
  DrawnSets Drawn;
  Drawn.PoolUsed = PoolSize;
  for (unsigned N = 0; N < Drawn.PoolUsed + AuditCount; ++N) {
    unsigned Seed = N < Drawn.PoolUsed ? N : PoolSize + (N - Drawn.PoolUsed);
    py::list Inputs = Prelude.attr("draw_inputs")(
        Task.attr("get_inputs"), Options.Device,
        Secrets["seeds"][Seed].get<uint64_t>());
    InputSet Set = splitInputs(Prelude, Inputs, Options.Device);
    if (Error E = writeTensorFile(protocol::setFile(Options.Dir, N, "inputs"),
                                  Set.Pristine))
      return E;
    Drawn.Sets.push_back(Json{{"inputs", Set.Layout}});
    if (N == 0)
      Drawn.PoolUsed = poolSetsThatFit(Set.Pristine, PoolSize, PoolBytes);
    py::list Args = trialArguments(Prelude, Set.Layout, Set.OnDevice);
    if (N < Drawn.PoolUsed) {
      Drawn.Pool.push_back(Args);
      continue;
    }
    py::object Out = Model(*Args);
    Drawn.AuditOutputs.push_back(outputMeta(Out));
    if (Error E = writeTensorFile(
            protocol::auditFile(Options.Dir, N - Drawn.PoolUsed, "reference"),
            outputTensors(Out)))
      return E;
  }
  return Drawn;
}

/// kevin-bench holds the timing until the candidate's worker, started
/// beside this one, has finished importing torch: nothing else runs on the
/// machine while the reference is timed. It asks for the device alone only
/// now that the inputs and audits are done: this says so in the progress
/// file, then waits for stdin to close.
void awaitTimingTurn(const std::string &Dir) {
  int ReadyFd = openProgress(Dir);
  progress(ReadyFd, protocol::TimingReady);
  if (ReadyFd >= 0)
    ::close(ReadyFd);
  std::string Rest((std::istreambuf_iterator<char>(std::cin)), // until EOF
                   std::istreambuf_iterator<char>());
}

} // namespace

int runBenchReferenceWorker(const WorkerOptions &Options) {
  guardFromCandidates();
  Json Report;
  Report["ok"] = false;
  auto failed = [&](const std::string &Message) {
    Report["message"] = Message;
    writeJson(Options.Dir, protocol::BenchReferenceJson, Report);
    return ExitClean;
  };
  startInterpreter();
  try {
    py::module_ Prelude = startPython();
    Expected<py::module_> Task = importTask(Prelude, Options.Task);
    if (!Task)
      return failed(Task.error().message());
    // The secrets come on a first line once kevin-bench holds the device
    // (everything above ran off it); stdin closes when it lets the timing
    // start (awaitTimingTurn).
    std::optional<Json> Secrets = readReferenceSecrets();
    if (!Secrets)
      return ExitError;
    TimingPlan Plan = TimingPlan::from(*Secrets);
    Json Environment;
    Expected<CallTimer> Timer = CallTimer::create(
        Prelude, Options.Device, Plan.FlushBytes, Plan.CoverMs, Environment);
    if (!Timer)
      return failed(Timer.error().message());
    py::object Model = buildReference(Prelude, *Task, Options, Report);
    py::object NoGrad = Prelude.attr("no_grad")();
    NoGrad.attr("__enter__")();
    Expected<DrawnSets> Drawn =
        drawInputSets(Prelude, *Task, Model, *Secrets, Options);
    if (!Drawn) {
      std::cerr << "kevin-worker: error: " << Drawn.error().message() << "\n";
      return ExitError;
    }
    Plan.AuditAt.clear(); // the trusted reference needs no audits
    awaitTimingTurn(Options.Dir);
    Json Timing = timeModel(*Timer, Prelude, Model, Drawn->Pool, {}, Plan,
                            [](unsigned, const CallTimer::Sample &) {},
                            Options.Device);
    NoGrad.attr("__exit__")(py::none(), py::none(), py::none());
    Report["ok"] = true;
    Report["pool"] = Drawn->PoolUsed;
    Report["sets"] = Drawn->Sets;
    Report["audit_outputs"] = Drawn->AuditOutputs;
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

namespace {

/// The task as the candidate's worker gets it (task.json: the init
/// arguments, the input sets' layouts and the pool size; no code);
/// std::nullopt after saying why on stderr.
std::optional<Json> readCandidateTask(const std::string &Dir) {
  Json Task = Json::parse(fs::readFileOrEmpty(Dir + "/" + protocol::TaskJson),
                          nullptr, false);
  if (Task.is_discarded() || !Task.contains("sets")) {
    std::cerr << "kevin-worker: error: no task.json in the work directory\n";
    return std::nullopt;
  }
  return Task;
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

/// The bench-candidate worker, once isolated.
class CandidateWorker {
public:
  explicit CandidateWorker(const WorkerOptions &Options);
  int run(const WorkerIsolation &Isolation);

private:
  /// Python, torch and kevin's builder: trusted code, no CUDA work. False
  /// after saying why on stderr.
  bool setUp();
  /// The trusted set-up on the device, with the device held shared: the
  /// CUDA context and the timer (Preparation's flush size), and the task's
  /// input sets on the device. False after saying why on stderr.
  bool prepare(const Json &Preparation, const Json &Task);
  /// Imports the candidate, builds ModelNew and times it on the sets.
  int timeCandidate(const TimingPlan &Plan, const Json &Task);
  /// The result for a Python exception out of timeCandidate.
  int failedInPython(py::error_already_set &E);
  /// Writes the result file: the stage reached, the outcome, the builds.
  int finish(Stage S, Outcome O, const std::string &Message);

  const WorkerOptions &Options;
  std::string Display;
  int ProgressFd;
  BuilderState State;
  py::module_ Prelude;
  std::optional<CallTimer> Timer;
  Json Environment;
  std::vector<py::list> Pool, Audits;
  Json Report;
  Stage Reached = Stage::Load;
};

CandidateWorker::CandidateWorker(const WorkerOptions &Options)
    : Options(Options),
      Display(Options.DisplayName.empty() ? Options.Candidate
                                          : Options.DisplayName),
      ProgressFd(openProgress(Options.Dir)) {
  State.Options = Options.Build;
  State.OriginPath = Display;
  State.OriginText = fs::readFileOrEmpty(Options.Candidate);
  State.ProgressFd = ProgressFd;
  Builder = &State;
}

int CandidateWorker::run(const WorkerIsolation &Isolation) {
  // kevin-bench starts this worker while the reference is being timed: the
  // trusted set-up (Python, torch, the builder) runs first, with no CUDA
  // work. The preparation line comes once the task is in the work directory
  // and the device is held shared: the worker makes its CUDA context, timer
  // and input sets, still trusted code. The plan comes once the device is
  // held alone, and only then is candidate code imported.
  if (!setUp())
    return ExitError;
  progress(ProgressFd, "load ready");
  std::optional<Json> Preparation =
      readSecretsLine("flush_bytes", "preparation");
  if (!Preparation)
    return ExitError;
  std::optional<Json> Task = readCandidateTask(Options.Dir);
  if (!Task || !prepare(*Preparation, *Task))
    return ExitError;
  progress(ProgressFd, protocol::CandidatePrepared);
  std::optional<Json> PlanLine = readSecretsLine("nonce", "nonce");
  if (!PlanLine)
    return ExitError;
  const Json &Secrets = *PlanLine;
  Report["nonce"] = Secrets["nonce"];
  Report["stage"] = "load";
  Report["outcome"] = "ok";
  Report["message"] = "";
  Report["network_isolated"] = Isolation.Network;
  Report["reference_hidden"] = Isolation.Hidden;
  Report["processes_isolated"] = Isolation.Processes;
  try {
    return timeCandidate(TimingPlan::from(Secrets), *Task);
  } catch (py::error_already_set &E) {
    return failedInPython(E);
  } catch (const std::exception &E) {
    std::string Message = E.what();
    return finish(Reached, classifyException(Message),
                  Message.substr(0, 2000));
  }
}

bool CandidateWorker::setUp() {
  startInterpreter();
  try {
    Prelude = startPython();
    State.Toolchain = toolchainFrom(Prelude, Options.CudaArch);
    askCudaArchUnlessGiven(State, Prelude, Options.CudaArch, Options.Device);
    Prelude.attr("install_builder")();
  } catch (py::error_already_set &E) {
    std::cerr << "kevin-worker: error: cannot start Python: " << E.what()
              << "\n";
    return false;
  }
  return true;
}

bool CandidateWorker::prepare(const Json &Preparation, const Json &Task) {
  try {
    // The timing stream is current before the candidate is imported.
    Expected<CallTimer> Made = CallTimer::create(
        Prelude, Options.Device, Preparation.value("flush_bytes", size_t(0)),
        Preparation.value("cover_ms", DefaultLaunchCoverMs), Environment);
    if (!Made) {
      std::cerr << "kevin-worker: error: " << Made.error().message() << "\n";
      return false;
    }
    Timer.emplace(std::move(*Made));
    unsigned PoolSize = Task.value("pool", 1u);
    for (unsigned N = 0; N < Task["sets"].size(); ++N) {
      Expected<py::list> Args = loadSet(Prelude, Options.Dir, N,
                                        Task["sets"][N]["inputs"],
                                        Options.Device);
      if (!Args) {
        std::cerr << "kevin-worker: error: " << Args.error().message()
                  << "\n";
        return false;
      }
      (N < PoolSize ? Pool : Audits).push_back(*Args);
    }
  } catch (const std::exception &E) {
    std::cerr << "kevin-worker: error: cannot prepare the timing: " << E.what()
              << "\n";
    return false;
  }
  return true;
}

int CandidateWorker::timeCandidate(const TimingPlan &Plan, const Json &Task) {
  progress(ProgressFd, "load");
  auto LoadStart = SteadyClock::now();
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
  Report["seconds"] = Json{{"load", secondsSince(LoadStart)}};
  py::object NoGrad = Prelude.attr("no_grad")();
  NoGrad.attr("__enter__")();
  progress(ProgressFd, "run");
  State.Stage = "run";
  Reached = Stage::Run;
  bool WriteFailed = false;
  AuditSink OnAudit = [&](unsigned K, const CallTimer::Sample &S) {
    // The copies taken as forward returned: what was returned.
    WriteFailed |= static_cast<bool>(writeTensorFile(
        protocol::auditFile(Options.Dir, K, "outputs"), S.Early));
  };
  // One progress line for the whole phase: a line per phase (warm-up,
  // timed) would tell the candidate, which can read the file, which calls
  // are timed (KEVIN-RT-015).
  Report["timing"] = timeModel(*Timer, Prelude, Model, Pool, Audits, Plan,
                               OnAudit, Options.Device);
  NoGrad.attr("__exit__")(py::none(), py::none(), py::none());
  if (WriteFailed) {
    std::cerr << "kevin-worker: error: cannot write the audit outputs\n";
    return ExitError;
  }
  Report["environment"] = Environment;
  return finish(Stage::Compare, Outcome::Ok, "");
}

int CandidateWorker::failedInPython(py::error_already_set &E) {
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
}

int CandidateWorker::finish(Stage S, Outcome O, const std::string &Message) {
  Report["stage"] = stageName(S);
  Report["outcome"] = outcomeName(O);
  Report["message"] = Message;
  Report["builds"] = State.Builds;
  progress(ProgressFd, "done");
  return writeJson(Options.Dir, protocol::ResultJson, Report) ? ExitClean
                                                             : ExitError;
}

} // namespace

int runBenchCandidateWorker(const WorkerOptions &Options) {
  WorkerIsolation Isolation = isolateCandidateWorker(Options);
  CandidateWorker Worker(Options);
  return Worker.run(Isolation);
}

} // namespace kevin

//===-- CandidateWorker.cpp - the untrusted candidate worker --------------===//
//
// kevin-worker's candidate mode up to a constructed model: cuts itself off
// the network and out of sight of the reference (isolateWorker), replaces
// torch.utils.cpp_extension.load_inline/load by kevin's builder, imports the
// candidate and builds ModelNew under the init seed. The calls are
// CandidateTrials.cpp's. See CandidateWorker.h for why the order matters.
//
//===----------------------------------------------------------------------===//
#include "CandidateWorker.h"
#include "FreshMemoryPoison.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/FileSystem.h"

#include <torch/csrc/autograd/python_variable.h>

#include <iostream>
#include <iterator>
#include <sys/resource.h>

namespace kevin {
namespace worker {

void CandidateReport::fail(Stage S, Outcome O, const std::string &Message) {
  Value["stage"] = stageName(S);
  Value["outcome"] = outcomeName(O);
  Value["message"] = Message;
}

namespace {

/// The task kevin-run sends after the nonce line once the reference has
/// made the inputs (the worker builds meanwhile): init args, the input
/// layouts, and the fresh directory the inputs were linked into.
Expected<Json> readTaskFromStdin() {
  std::string Text((std::istreambuf_iterator<char>(std::cin)),
                   std::istreambuf_iterator<char>());
  Json Task = Json::parse(Text, nullptr, false);
  if (Task.is_discarded() || !Task.contains("trials") ||
      !Task.contains("inputs_dir") || !Task["inputs_dir"].is_string())
    return Error::make("no task on stdin (the reference failed, or kevin-run "
                       "gave up on this worker)");
  std::string Dir = Task["inputs_dir"].get<std::string>();
  if (Dir.empty() || Dir.find('/') != std::string::npos || Dir[0] == '.')
    return Error::make("the task names a bad inputs directory '" + Dir + "'");
  return Task;
}

} // namespace

//--- CandidateWorker ----------------------------------------------------------

CandidateWorker::CandidateWorker(const WorkerOptions &Options,
                                 WorkerIsolation Isolation)
    : Options(Options), Isolation(Isolation),
      Display(Options.DisplayName.empty() ? Options.Candidate
                                          : Options.DisplayName) {
  Report.Value["stage"] = "format";
  Report.Value["outcome"] = "ok";
  Report.Value["message"] = "";
  Report.Value["network_isolated"] = Isolation.Network;
  Report.Value["reference_hidden"] = Isolation.Hidden;
  Report.Value["processes_isolated"] = Isolation.Processes;
  Report.ProgressFd = openProgress(Options.Dir);

  State.Options = Options.Build;
  State.OriginPath = Display;
  State.OriginText = fs::readFileOrEmpty(Options.Candidate);
  State.ProgressFd = Report.ProgressFd;
  Builder = &State;
}

bool CandidateWorker::readNonce() {
  if (Report.Value.contains("nonce"))
    return true;
  std::optional<Json> Secrets = readSecretsLine("nonce", "nonce");
  if (!Secrets)
    return false;
  Report.Value["nonce"] = (*Secrets)["nonce"];
  return true;
}

int CandidateWorker::finish(Stage S) {
  if (!readNonce())
    return ExitError;
  if (Report.Value["outcome"] == "ok")
    Report.Value["stage"] = stageName(S);
  // A failed build stays a build error even if the candidate caught it.
  if (State.Failed) {
    Report.fail(Stage::Build, *parseOutcome(State.FailOutcome),
                State.FailMessage);
  }
  Report.Value["builds"] = State.Builds;
  Report.Value["kernel_names"] = State.KernelNames;
  Report.Value["kernel_namespaces"] = State.KernelNamespaces;
  Report.Value["build_seconds"] = State.Seconds;
  progress(Report.ProgressFd, "done");
  return writeJson(Options.Dir, protocol::ResultJson, Report.Value) ? ExitClean
                                                                    : ExitError;
}

int CandidateWorker::failRun(const std::string &Message) {
  Report.fail(Stage::Run, classifyException(Message), Message.substr(0, 2000));
  return finish(Stage::Run);
}

//--- CandidateSession, up to the model ----------------------------------------

int CandidateSession::run() {
  if (PhaseEnd End = prepare())
    return *End;
  if (PhaseEnd End = importCandidate())
    return *End;
  if (PhaseEnd End = receiveTask())
    return *End;
  if (PhaseEnd End = constructModel())
    return *End;
  return runTrials();
}

/// The candidate's failure E as the prelude describes it, naming the
/// candidate by its display name.
std::string CandidateSession::describe(py::error_already_set &E) {
  return Prelude
      .attr("describe")(E.value(), Options.Candidate, Worker.Display, E.trace())
      .cast<std::string>();
}

/// The trusted set-up before any candidate code: the prelude, the syntax
/// check, kevin's builder, the nonce, the task when it must come before the
/// import, and the prelude's functions the worker keeps.
PhaseEnd CandidateSession::prepare() {
  progress(Report.ProgressFd, "format");
  Prelude = startPython();
  Worker.State.Toolchain = toolchainFrom(Prelude, Options.CudaArch);
  askCudaArchUnlessGiven(Worker.State, Prelude, Options.CudaArch,
                         Options.Device);
  py::object Syntax = Prelude.attr("check_syntax")(Options.Candidate);
  if (!Syntax.is_none()) {
    Report.fail(Stage::Format, Outcome::FormatError,
                Worker.Display + ":" + Syntax.cast<std::string>());
    return Worker.finish(Stage::Format);
  }
  Prelude.attr("install_builder")();
  Cuda = isCudaDevice(Options.Device);

  if (!Worker.readNonce())
    return ExitError;

  // A candidate that could reach the reference's directory is imported
  // only once its task has come: kevin-run has then read the reference's
  // outputs and deleted them.
  if (!Options.BuildOnly && !Options.HiddenDirs.empty() &&
      !Worker.Isolation.Hidden) {
    progress(Report.ProgressFd, protocol::ImportAfterTask);
    Expected<Json> Early = readTaskFromStdin();
    if (!Early) {
      std::cerr << "kevin-worker: " << diagnosticLine(Early.error()) << "\n";
      return ExitError;
    }
    TaskFirst = std::move(*Early);
  }

  // KEVIN-RT-009's functions, taken before the candidate can replace
  // them in the prelude's module.
  WarmProfiler = Prelude.attr("warm_profiler");
  ProfileKernels = Prelude.attr("profile_kernels");
  // KEVIN-RT-005's fill of the CUDA caching allocator's free blocks, taken
  // before the candidate can replace it.
  PoisonCudaCache = Prelude.attr("poison_cuda_cache");
  return std::nullopt;
}

/// Load: imports the candidate (its load_inline calls build here), which
/// must define the class ModelNew; --build-only ends the worker there.
PhaseEnd CandidateSession::importCandidate() {
  progress(Report.ProgressFd, "load");
  auto LoadStart = SteadyClock::now();
  try {
    Candidate =
        Prelude.attr("import_file")("kevin_candidate", Options.Candidate);
  } catch (py::error_already_set &E) {
    if (isSystemExit(E)) {
      Report.fail(Stage::Load, Outcome::EarlyExit,
                  "the candidate called exit while being imported");
      return Worker.finish(Stage::Load);
    }
    std::string Message = describe(E);
    Report.fail(Stage::Load,
                classifyException(Message) == Outcome::Oom ? Outcome::Oom
                                                           : Outcome::LoadError,
                Message);
    return Worker.finish(Stage::Load);
  }
  Report.Value["seconds"]["load"] = secondsSince(LoadStart);
  if (Worker.State.Failed)
    return Worker.finish(Stage::Build);
  if (!py::hasattr(Candidate, "ModelNew") ||
      !py::isinstance<py::type>(Candidate.attr("ModelNew"))) {
    Report.fail(Stage::Format, Outcome::FormatError,
                Worker.Display + ": no class 'ModelNew' is defined");
    return Worker.finish(Stage::Format);
  }
  if (Options.BuildOnly)
    return Worker.finish(Stage::Load);
  return std::nullopt;
}

/// Waits for the task. kevin-run starts this worker beside the reference
/// worker; the task arrives when the reference has made the inputs.
/// "load ready" ends the build phase's time limit, "load model" starts the
/// run phase's.
PhaseEnd CandidateSession::receiveTask() {
  progress(Report.ProgressFd, "load ready");
  // The profiler's first start (seconds) overlaps the reference's run.
  if (Cuda && Options.ProfileKernels) {
    auto WarmStart = SteadyClock::now();
    WarmProfiler();
    Report.Value["seconds"]["profiler_start"] = secondsSince(WarmStart);
  }
  Expected<Json> TaskOrError =
      TaskFirst ? Expected<Json>(std::move(*TaskFirst)) : readTaskFromStdin();
  if (!TaskOrError) {
    std::cerr << "kevin-worker: " << diagnosticLine(TaskOrError.error())
              << "\n";
    return ExitError;
  }
  TaskJson = std::move(*TaskOrError);
  InputsDir = Options.Dir + "/" + task()["inputs_dir"].get<std::string>();
  progress(Report.ProgressFd, "load model");
  return std::nullopt;
}

/// Constructs ModelNew under the init seed, as the reference was, within
/// the memory limit; then fresh memory is filled (KEVIN-RT-005) and the
/// model's own storage noted.
PhaseEnd CandidateSession::constructModel() {
  if (Options.MemoryLimitMiB) {
    struct rlimit Limit;
    Limit.rlim_cur = Limit.rlim_max =
        static_cast<rlim_t>(Options.MemoryLimitMiB) << 20;
    ::setrlimit(RLIMIT_AS, &Limit);
  }
  Device = py::module_::import("torch").attr("device")(Options.Device);
  Init = Prelude.attr("from_json")(task()["init_args"].dump());
  try {
    Prelude.attr("manual_seed")(protocol::InitSeed);
    Model = Candidate.attr("ModelNew")(*Init);
    Model = Model.attr("to")(Device);
  } catch (py::error_already_set &E) {
    if (isSystemExit(E)) {
      Report.fail(Stage::Load, Outcome::EarlyExit, "ModelNew() called exit");
      return Worker.finish(Stage::Load);
    }
    std::string Message = describe(E);
    Outcome O = classifyException(Message);
    Report.fail(Stage::Load,
                O == Outcome::RuntimeError ? Outcome::LoadError : O,
                "ModelNew(...) failed: " + Message);
    return Worker.finish(Stage::Load);
  }
  // From here on a fresh CPU block reads NaN until written, so an output
  // element the candidate leaves unwritten fails as nan on every run. On
  // CUDA the allocator's free blocks are filled before every checked call.
  Report.Value["fresh_memory_poisoned"] =
      Cuda ? PoisonCudaCache(Device, 0).cast<bool>() : poisonFreshCpuMemory();
  for (const char *Kind : {"parameters", "buffers"})
    for (py::handle P : Model.attr(Kind)())
      if (THPVariable_Check(P.ptr()))
        Owned.push_back(storageRange(fromPython(P)));
  return std::nullopt;
}

} // namespace worker

using namespace worker;

int runCandidateWorker(const WorkerOptions &Options) {
  WorkerIsolation Isolation = isolateCandidateWorker(Options);
  CandidateWorker Worker(Options, Isolation);
  // Never finalized: the process ends with _Exit right after reporting (see
  // kevin-worker.cpp), so neither candidate atexit code nor the teardown of
  // a broken CUDA context can change what happened.
  startInterpreter();
  try {
    CandidateSession Session(Worker);
    return Session.run();
  } catch (py::error_already_set &E) {
    if (isSystemExit(E)) {
      Worker.Report.fail(Stage::Run, Outcome::EarlyExit,
                         "the candidate called exit");
      return Worker.finish(Stage::Run);
    }
    return Worker.failRun(E.what());
  } catch (const std::exception &E) {
    return Worker.failRun(E.what());
  }
}

} // namespace kevin

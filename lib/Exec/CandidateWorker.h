//===-- CandidateWorker.h - the untrusted candidate worker ------*- C++ -*-===//
//
// Private to lib/Exec: kevin-worker's candidate mode (kevin/Exec/Worker.h).
// CandidateWorker.cpp sets the worker up, imports (and so builds) the
// candidate and constructs ModelNew; CandidateTrials.cpp calls it on the
// trials, again on the same inputs, under the profiler and with its
// launches skipped (ghost replay), and writes what came out.
//
// The order of every step is a security property: the namespaces are made
// before anything else, the nonce is read before any candidate code runs,
// and when the run ends the candidate's objects go in the order the worker
// made them, after result.json is written on a return and before it on an
// exception (CandidateSession).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_EXEC_CANDIDATEWORKER_H
#define KEVIN_LIB_EXEC_CANDIDATEWORKER_H

#include "kevin/Exec/Outcome.h"
#include "kevin/Exec/Worker.h"
#include "kevin/Exec/WorkerSupport.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kevin {
namespace worker {

/// The candidate's verdict as the worker sees it; written as result.json.
struct CandidateReport {
  Json Value;
  int ProgressFd = -1;
  void fail(Stage S, Outcome O, const std::string &Message);
};

/// The candidate worker's state outside the interpreter: made before the
/// interpreter starts, and still there to report when an exception ends
/// the run.
struct CandidateWorker {
  /// Starts the report and the progress file, and sets kevin's builder up.
  CandidateWorker(const WorkerOptions &Options, WorkerIsolation Isolation);

  /// Reads the nonce line unless it was read already; false when stdin
  /// holds none. The nonce line comes once kevin-run holds the device: it
  /// is read before any candidate code runs (the trusted set-up before it
  /// needs no device), or before reporting a failure of that set-up. The
  /// task follows later.
  bool readNonce();
  /// Writes result.json at stage S (unless a failure named its own); the
  /// worker's exit status.
  int finish(Stage S);
  /// Reports Message, which the candidate raised outside any call the
  /// worker watches, as a failure of the run stage, and finishes.
  int failRun(const std::string &Message);

  const WorkerOptions &Options;
  const WorkerIsolation Isolation;
  /// How the candidate is named in messages.
  const std::string Display;
  CandidateReport Report;
  BuilderState State;
};

/// The Python side of a candidate worker, from the prelude to the trials.
/// Its members come in the order the worker makes them, so that they go in
/// the reverse order. It lives in the worker's try block: a return
/// destroys it (and with it the candidate's objects) after the result is
/// written, an exception before the failure is reported. Hidden, as the
/// pybind11 types it holds are.
class __attribute__((visibility("hidden"))) CandidateSession {
public:
  explicit CandidateSession(CandidateWorker &Worker)
      : Worker(Worker), Options(Worker.Options), Report(Worker.Report) {}

  /// Runs the candidate to its verdict; the worker's exit status.
  int run();

private:
  // CandidateWorker.cpp: up to a constructed model.
  PhaseEnd prepare();
  PhaseEnd importCandidate();
  PhaseEnd receiveTask();
  PhaseEnd constructModel();
  std::string describe(py::error_already_set &E);
  /// The task as kevin-run sent it, read only (no field is ever added).
  const Json &task() const { return TaskJson; }

  // CandidateTrials.cpp: the calls.
  int runTrials();
  PhaseEnd runTrial(unsigned T);
  std::vector<at::Tensor> onDevice(const std::vector<at::Tensor> &Tensors);
  std::vector<at::Tensor>
  trialInputs(unsigned T, const std::vector<at::Tensor> &Loaded, bool &Reuse);
  bool callModel(const py::list &Args, const std::string &Which,
                 py::object &Out, const py::object &Through = py::object());
  void takeProfile(py::object &Out);
  bool checkPlainTensor(py::handle H, const std::string &Call);
  bool describeOutputs(const std::vector<py::handle> &Items,
                       const std::vector<at::Tensor> &Given, Json &Outputs,
                       std::vector<at::Tensor> &Copies);
  bool repeatOutputs(const py::object &AgainOut, const Json &Outputs,
                     size_t Count, const std::string &Which,
                     std::vector<at::Tensor> &Again);
  bool replayGhost();

  CandidateWorker &Worker;
  const WorkerOptions &Options;
  CandidateReport &Report;
  bool Cuda = false;
  py::module_ Prelude;
  /// The task, when it had to come before the import.
  std::optional<Json> TaskFirst;
  /// KEVIN-RT-009's functions and KEVIN-RT-005's fill of the CUDA caching
  /// allocator's free blocks, taken from the prelude before the candidate
  /// can replace them there.
  py::object WarmProfiler, ProfileKernels, PoisonCudaCache;
  py::module_ Candidate;
  Json TaskJson;
  std::string InputsDir;
  py::object Device;
  py::object Model;
  py::list Init;
  /// The storage of the model's parameters and buffers.
  std::vector<std::pair<uintptr_t, uintptr_t>> Owned;
  /// The trial kevin-run picked for the profiled call (KEVIN-RT-009), and
  /// the one the ghost replay comes before (KEVIN-RT-010; the number of
  /// trials: after the last).
  std::optional<unsigned> ProfiledTrial, GhostBefore;
  py::object NoGrad;
  Json Trials = Json::array();
  /// The inputs of the last two calls, kept alive (fresh addresses every
  /// call); the last trial rewrites the buffers of the call just before.
  std::vector<at::Tensor> Previous, BeforePrevious;
};

} // namespace worker
} // namespace kevin

#endif // KEVIN_LIB_EXEC_CANDIDATEWORKER_H

//===-- CandidateTrials.cpp - the candidate worker's calls ----------------===//
//
// The candidate worker's run: ModelNew on fresh clones of every trial's
// inputs, each call checked for its exact output types, for aliasing and
// for changed inputs, and repeated on the same inputs at fresh addresses
// (KEVIN-RT-005); one call at a secret trial under torch's profiler
// (KEVIN-RT-009) and one more forward with the candidate's launches skipped
// (ghost replay, KEVIN-RT-010). What came out goes to files for kevin-run.
//
//===----------------------------------------------------------------------===//
#include "CandidateWorker.h"
#include "LaunchGateSwitch.h"
#include "kevin/Exec/Compare.h"
#include "kevin/Exec/Protocol.h"

#include <torch/csrc/autograd/python_variable.h>

#include <algorithm>

namespace kevin {
namespace worker {

namespace {

/// The filled memory kept free for a call's outputs: twice its inputs, at
/// most 4 GiB.
int64_t poisonReserve(const std::vector<at::Tensor> &Inputs) {
  int64_t Bytes = 0;
  for (const at::Tensor &In : Inputs)
    Bytes += In.numel() * In.element_size();
  return std::min<int64_t>(2 * Bytes, int64_t(4) << 30);
}

/// The items of an output in its exact structure: a plain torch.Tensor, or
/// a tuple/list of them; Outputs["kind"] says which.
std::vector<py::handle> outputItems(const py::object &Out, Json &Outputs) {
  std::vector<py::handle> Items;
  if (py::isinstance<py::tuple>(Out) || py::isinstance<py::list>(Out)) {
    Outputs["kind"] = py::isinstance<py::tuple>(Out) ? "tuple" : "list";
    for (py::handle H : Out)
      Items.push_back(H);
  } else {
    Outputs["kind"] = "tensor";
    Items.push_back(Out);
  }
  return Items;
}

} // namespace

/// Calls forward (or Through(model, args), which calls it); a raised
/// exception or exit is reported (after Which: "trial 3"), and false.
bool CandidateSession::callModel(const py::list &Args, const std::string &Which,
                                 py::object &Out, const py::object &Through) {
  try {
    Out = Through ? Through(Model, Args) : Model(*Args);
    if (Cuda)
      Prelude.attr("cuda_synchronize")();
    return true;
  } catch (py::error_already_set &E) {
    if (isSystemExit(E)) {
      Report.fail(Stage::Run, Outcome::EarlyExit, "forward called exit");
      return false;
    }
    std::string Message = describe(E);
    Report.fail(Stage::Run, classifyException(Message), Which + ": " + Message);
    return false;
  }
}

/// A plain torch.Tensor without instance attributes; otherwise a reported
/// type-mismatch, and false.
bool CandidateSession::checkPlainTensor(py::handle H, const std::string &Call) {
  if (!THPVariable_CheckExact(H.ptr())) {
    std::string Type =
        py::str(py::type::of(H).attr("__name__")).cast<std::string>();
    Report.fail(Stage::Compare, Outcome::TypeMismatch,
                Call + " returned a '" + Type +
                    "' where a plain torch.Tensor was expected");
    return false;
  }
  py::object Dict = py::reinterpret_steal<py::object>(
      PyObject_GenericGetDict(H.ptr(), nullptr));
  PyErr_Clear();
  if (Dict && py::len(Dict) != 0) {
    Report.fail(Stage::Compare, Outcome::TypeMismatch,
                Call + " returned a tensor carrying instance attributes");
    return false;
  }
  return true;
}

/// Fresh copies of Tensors on the device.
std::vector<at::Tensor>
CandidateSession::onDevice(const std::vector<at::Tensor> &Tensors) {
  std::vector<at::Tensor> Copies;
  for (const at::Tensor &T : Tensors)
    Copies.push_back(T.to(at::Device(Options.Device), false, true));
  return Copies;
}

/// KEVIN-RT-010, ghost replay: one more forward, on inputs no call has
/// seen, with every launch of the candidate's extensions skipped (kevin's
/// launch gate), before the trial kevin-run picked (a secret one after the
/// first, or after the last). Whatever it returns goes to kevin-run, which
/// fails the candidate when that is still the right answer. Nothing here
/// fails the candidate: a forward that raises without its kernels depends
/// on them. False on a tool error.
bool CandidateSession::replayGhost() {
  std::optional<std::vector<at::Tensor>> Loaded =
      readTrialTensors(InputsDir, Options.Trials, "inputs");
  if (!Loaded)
    return false;
  std::vector<at::Tensor> Given = onDevice(*Loaded);
  py::list Args = trialArguments(Prelude, task()["ghost"]["inputs"], Given);
  Json Ghost;
  // Filled first: an honest kernel's output reads NaN without it.
  PoisonCudaCache(Device, poisonReserve(Given));
  uint64_t SkippedBefore = skippedCandidateLaunches();
  std::vector<at::Tensor> Outs; // copied to the host by the writer
  std::string Raised;
  skipCandidateLaunches(true);
  try {
    py::object Out = Model(*Args);
    Prelude.attr("cuda_synchronize")();
    Json Kind;
    for (py::handle H : outputItems(Out, Kind)) {
      if (!THPVariable_CheckExact(H.ptr())) {
        Raised = "forward returned something other than tensors";
        break;
      }
      Outs.push_back(fromPython(H).detach());
    }
    Ghost["kind"] = Kind["kind"];
  } catch (py::error_already_set &E) {
    Raised = isSystemExit(E) ? "forward called exit" : E.what();
  } catch (const std::exception &E) {
    Raised = E.what();
  }
  skipCandidateLaunches(false);
  Ghost["skipped_launches"] = skippedCandidateLaunches() - SkippedBefore;
  if (!Raised.empty())
    Ghost["raised"] = Raised.substr(0, 300);
  else if (!writeTrialTensors(Options.Dir, Options.Trials, "ghost", Outs))
    return false;
  Report.Value["ghost"] = Ghost;
  return true;
}

/// Run: every trial on fresh clones of its inputs, the ghost replay where
/// kevin-run placed it, and the verdict.
int CandidateSession::runTrials() {
  if (Cuda && Options.ProfileKernels && task().contains("profiled_trial"))
    ProfiledTrial = task()["profiled_trial"].get<unsigned>();
  if (Cuda && task().contains("ghost"))
    GhostBefore = task()["ghost"]["before_trial"].get<unsigned>();
  NoGrad = Prelude.attr("no_grad")();
  NoGrad.attr("__enter__")();
  auto RunStart = SteadyClock::now();
  // One progress line for all the calls: the candidate can read the file,
  // and a line per call that named the profiled call or the replay would
  // give their secret places away (KEVIN-RT-009, -010).
  progress(Report.ProgressFd, "run");
  Worker.State.Stage = "run";
  for (unsigned T = 0; T < Options.Trials; ++T)
    if (PhaseEnd End = runTrial(T))
      return *End;
  Report.Value["trials"] = Trials;
  Report.Value["seconds"]["run"] = secondsSince(RunStart);
  if (GhostBefore && *GhostBefore >= Options.Trials && !replayGhost())
    return ExitError;
  NoGrad.attr("__exit__")(py::none(), py::none(), py::none());
  return Worker.finish(Stage::Compare);
}

/// Trial T's inputs on the device, from Loaded: fresh clones, except that
/// the last trial (Reuse) rewrites the previous call's input buffers with
/// new contents when they fit (a pointer-keyed cache then returns a stale
/// answer).
std::vector<at::Tensor>
CandidateSession::trialInputs(unsigned T, const std::vector<at::Tensor> &Loaded,
                              bool &Reuse) {
  std::vector<at::Tensor> Given;
  Reuse = T + 1 == Options.Trials && T > 0 && Previous.size() == Loaded.size();
  for (size_t I = 0; Reuse && I < Previous.size(); ++I)
    Reuse = Previous[I].sizes().equals(Loaded[I].sizes()) &&
            Previous[I].scalar_type() == Loaded[I].scalar_type();
  for (size_t I = 0; I < Loaded.size(); ++I) {
    at::Tensor Fresh = Loaded[I].to(at::Device(Options.Device), false, true);
    if (Reuse) {
      Previous[I].copy_(Fresh);
      Given.push_back(Previous[I]);
    } else {
      Given.push_back(Fresh);
    }
  }
  return Given;
}

/// The profiled call's result (output, GPU work) split: Out becomes the
/// output, the work (or why there is none) goes to the report.
void CandidateSession::takeProfile(py::object &Out) {
  py::object Work = py::reinterpret_borrow<py::tuple>(Out)[1];
  Out = py::reinterpret_borrow<py::tuple>(Out)[0];
  if (py::isinstance<py::str>(Work))
    Report.Value["kernels_unavailable"] = Work.cast<std::string>();
  else
    Report.Value["kernels"] =
        Json::parse(Prelude.attr("to_json")(Work).cast<std::string>());
}

/// Each of Items, forward's outputs, as a plain tensor described in
/// Outputs["tensors"] (with whether it aliases one of Given or the model's
/// own storage) and kept in Copies; false on a reported type mismatch.
bool CandidateSession::describeOutputs(const std::vector<py::handle> &Items,
                                       const std::vector<at::Tensor> &Given,
                                       Json &Outputs,
                                       std::vector<at::Tensor> &Copies) {
  Json Metas = Json::array();
  for (py::handle H : Items) {
    if (!checkPlainTensor(H, "forward"))
      return false;
    at::Tensor O = fromPython(H);
    Json Meta = tensorMeta(O);
    bool Aliases = false;
    for (const at::Tensor &In : Given)
      Aliases |= overlaps(storageRange(O), storageRange(In));
    bool AliasesParameter = false;
    for (const auto &Range : Owned)
      AliasesParameter |= overlaps(storageRange(O), Range);
    Meta["aliases_input"] = Aliases;
    Meta["aliases_parameter"] = AliasesParameter;
    Metas.push_back(Meta);
    Copies.push_back(O.detach()); // copied before the next call
  }
  Outputs["tensors"] = Metas;
  return true;
}

/// The second call's outputs into Again, where they are (on the device
/// under CUDA), when they have the structure of the first (Outputs' kind,
/// Count items) and are plain tensors; false on a reported type mismatch.
bool CandidateSession::repeatOutputs(const py::object &AgainOut,
                                     const Json &Outputs, size_t Count,
                                     const std::string &Which,
                                     std::vector<at::Tensor> &Again) {
  Json AgainKind;
  std::vector<py::handle> AgainItems = outputItems(AgainOut, AgainKind);
  if (AgainKind["kind"] != Outputs["kind"] || AgainItems.size() != Count) {
    Report.fail(Stage::Compare, Outcome::TypeMismatch,
                Which + ": forward called again on the same inputs "
                        "returned a different structure");
    return false;
  }
  for (py::handle H : AgainItems) {
    if (!checkPlainTensor(H, "forward called again"))
      return false;
    Again.push_back(fromPython(H).detach());
  }
  return true;
}

/// Trial T: the checked call (profiled at the trial kevin-run picked), the
/// call again on the same inputs, their output files and the trial's
/// record; the ghost replay first when it comes before T.
PhaseEnd CandidateSession::runTrial(unsigned T) {
  if (GhostBefore && *GhostBefore == T && !replayGhost())
    return ExitError;
  std::optional<std::vector<at::Tensor>> Loaded =
      readTrialTensors(InputsDir, T, "inputs");
  if (!Loaded)
    return ExitError;
  bool Reuse = false;
  std::vector<at::Tensor> Given = trialInputs(T, *Loaded, Reuse);
  py::list Args = trialArguments(Prelude, task()["trials"][T]["inputs"], Given);
  // KEVIN-RT-009: one checked call, at a secret trial, runs under torch's
  // profiler; kevin-run sorts its GPU work by whose kernels ran.
  bool Profiled = ProfiledTrial && *ProfiledTrial == T;
  if (Cuda)
    PoisonCudaCache(Device, poisonReserve(Given));
  auto CallStart = SteadyClock::now();
  py::object Out;
  std::string Which = "trial " + std::to_string(T);
  if (!callModel(Args, Which, Out, Profiled ? ProfileKernels : py::object()))
    return Worker.finish(Stage::Run);
  double Seconds = secondsSince(CallStart);
  if (Profiled)
    takeProfile(Out);
  Json Outputs;
  std::vector<py::handle> Items = outputItems(Out, Outputs);
  std::vector<at::Tensor> Copies;
  if (!describeOutputs(Items, Given, Outputs, Copies))
    return Worker.finish(Stage::Compare);
  // The first outputs copied where they are (on the device under CUDA):
  // the second call may write into the storage it returned the first time.
  std::vector<at::Tensor> First;
  for (const at::Tensor &O : Copies)
    First.push_back(O.clone());

  // KEVIN-RT-005's second run: the same inputs again at fresh addresses,
  // the first outputs still alive, so new outputs land in other blocks.
  // An output region the kernel never writes, or a race, then differs;
  // such a second output goes to kevin-run, which checks it against the
  // reference too. Its inputs are not checked for changes or aliasing:
  // the first call's were. Uploaded before the call, they are also what
  // the first call's inputs are checked against, on the device: gpu-sized
  // inputs and outputs do not travel back to the host to be compared.
  std::vector<at::Tensor> AgainGiven = onDevice(*Loaded);
  bool InputsChanged = !sameBits(Given, AgainGiven);
  py::list AgainArgs =
      trialArguments(Prelude, task()["trials"][T]["inputs"], AgainGiven);
  py::object AgainOut;
  if (Cuda)
    PoisonCudaCache(Device, poisonReserve(AgainGiven));
  if (!callModel(AgainArgs, Which + ", forward called again", AgainOut))
    return Worker.finish(Stage::Run);
  std::vector<at::Tensor> Again;
  if (!repeatOutputs(AgainOut, Outputs, Items.size(), Which, Again))
    return Worker.finish(Stage::Compare);
  bool RepeatDiffers = !sameBits(First, Again);

  // Written to the host only here (writeTensorFile copies them there).
  if (!writeTrialTensors(Options.Dir, T, "outputs", First) ||
      (RepeatDiffers && !writeTrialTensors(Options.Dir, T, "repeat", Again)))
    return ExitError;
  Json Trial;
  Trial["inputs_changed"] = InputsChanged;
  Trial["repeat_differs"] = RepeatDiffers;
  Trial["outputs"] = Outputs;
  Trial["seconds"] = Seconds;
  Trial["reused_input_buffers"] = Reuse;
  Trials.push_back(Trial);
  // Keep the last two calls' inputs alive (fresh addresses every call);
  // the last trial rewrites the buffers of the call just before it.
  BeforePrevious = Given;
  Previous = AgainGiven;
  return std::nullopt;
}

} // namespace worker
} // namespace kevin

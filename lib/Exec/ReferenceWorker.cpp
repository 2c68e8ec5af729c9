//===-- ReferenceWorker.cpp - the trusted reference worker ----------------===//
//
// kevin-worker's reference mode (kevin/Exec/Worker.h): imports the task,
// builds Model under the fixed init seed, draws each trial's inputs from the
// secret seeds it reads on stdin (heavy-tailed, or at a held-out batch size,
// where kevin-run asks: KEVIN-RT-022), computes the reference outputs and
// writes both, with the float64 model's errors where asked (KEVIN-RT-023).
// It never sees candidate code.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/Worker.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Exec/WorkerSupport.h"
#include "kevin/Support/Device.h"

#include <torch/csrc/autograd/python_variable.h>

#include <cmath>
#include <iostream>

namespace kevin {
namespace worker {

namespace {

/// One call of the reference model on a trial's inputs.
struct ReferenceCall {
  Json Layout;                      ///< where tensors and values go
  std::vector<at::Tensor> Pristine; ///< CPU copies of the input tensors
  py::object Out;
  double Seconds = 0;
  bool Skipped = false; ///< drawn with shapes not wanted: no forward ran
};

using TensorShapes = std::vector<std::vector<int64_t>>;

TensorShapes shapesOf(const std::vector<at::Tensor> &Tensors) {
  TensorShapes Shapes;
  for (const at::Tensor &T : Tensors)
    Shapes.push_back(T.sizes().vec());
  return Shapes;
}

/// Draws a trial's inputs from Seed (heavy-tailed when Heavy, KEVIN-RT-022;
/// Heavy turns false when no input is one the transform applies to; with the
/// task's batch_size set to BatchSize when that is positive) and calls Model
/// on clones of them; not when the inputs' shapes are Unwanted's (Skipped).
ReferenceCall callReference(py::module_ &Prelude, py::module_ &Task,
                            py::object &Model, const std::string &Device,
                            uint64_t Seed, bool &Heavy, int64_t BatchSize,
                            const TensorShapes *Unwanted) {
  ReferenceCall Call;
  py::list Inputs =
      BatchSize > 0
          ? Prelude.attr("draw_inputs_with_batch")(Task, Device, Seed,
                                                   BatchSize)
          : Prelude.attr("draw_inputs")(Task.attr("get_inputs"), Device, Seed);
  if (Heavy) {
    py::object Transformed =
        Prelude.attr("heavy_tailed")(Inputs, Seed ^ 0x9e3779b97f4a7c15ULL);
    Heavy = !Transformed.is_none();
    if (Heavy)
      Inputs = Transformed;
  }
  py::list Args;
  for (py::handle Item : Inputs) {
    Json Slot;
    if (THPVariable_Check(Item.ptr())) {
      at::Tensor Drawn = fromPython(Item);
      at::Tensor Tensor = Drawn.to(at::Device(Device));
      Slot["tensor"] = Call.Pristine.size();
      // The model gets a clone: a CPU draw stays pristine as it is.
      Call.Pristine.push_back(Drawn.is_cpu() ? Drawn : Tensor.to(at::kCPU));
      Args.append(toPython(Tensor.clone()));
    } else {
      Slot["value"] =
          Json::parse(Prelude.attr("to_json")(Item).cast<std::string>());
      Args.append(Item);
    }
    Call.Layout.push_back(Slot);
  }
  if (Unwanted && shapesOf(Call.Pristine) == *Unwanted) {
    Call.Skipped = true;
    return Call;
  }
  auto CallStart = SteadyClock::now();
  Call.Out = Model(*Args);
  if (isCudaDevice(Device))
    Prelude.attr("cuda_synchronize")();
  Call.Seconds = secondsSince(CallStart);
  return Call;
}

/// The output tensors of a forward (a tensor, or a tuple or list of them).
std::vector<at::Tensor> outputTensorsOf(const py::object &Out) {
  std::vector<at::Tensor> Tensors;
  if (THPVariable_Check(Out.ptr())) {
    Tensors.push_back(fromPython(Out));
  } else if (py::isinstance<py::tuple>(Out) || py::isinstance<py::list>(Out)) {
    for (py::handle H : Out)
      if (THPVariable_Check(H.ptr()))
        Tensors.push_back(fromPython(H));
  }
  return Tensors;
}

/// A heavy-tailed trial's call, or the task's own draw (Heavy turns false)
/// when the reference raises on those inputs or its outputs stop being
/// finite: the task's domain is narrower than the transform assumes.
ReferenceCall callReferenceOrFallBack(py::module_ &Prelude, py::module_ &Task,
                                      py::object &Model,
                                      const std::string &Device, uint64_t Seed,
                                      bool &Heavy, int64_t BatchSize,
                                      const TensorShapes *Unwanted = nullptr) {
  if (Heavy) {
    try {
      ReferenceCall Call = callReference(Prelude, Task, Model, Device, Seed,
                                         Heavy, BatchSize, Unwanted);
      if (!Heavy || Call.Skipped)
        return Call; // nothing was transformed: the task's own draw
      bool Finite = true;
      for (const at::Tensor &T : outputTensorsOf(Call.Out))
        Finite &= !T.is_floating_point() || at::isfinite(T).all().item<bool>();
      if (Finite)
        return Call;
    } catch (const std::exception &) {
      if (!Heavy)
        throw; // the task's own draw failed: the reference's error
    }
    Heavy = false;
  }
  return callReference(Prelude, Task, Model, Device, Seed, Heavy, BatchSize,
                       Unwanted);
}

/// Per output, the L2 norm of the float32 result's difference from the
/// float64 model's (`error`) and of the float64 result (`norm`), or null
/// where they cannot be told (not floating point, other shape, NaN/Inf
/// anywhere, a norm that overflows): the bound KEVIN-RT-023 holds the
/// candidate to. The float64 model runs on float64 copies of the pristine
/// inputs. An Error when it cannot run.
Expected<Json> float64Errors(py::module_ &Prelude, py::object &Model64,
                             const ReferenceCall &Call,
                             const std::vector<at::Tensor> &Outputs,
                             const std::string &Device) {
  try {
    py::list Args64;
    for (const Json &Slot : Call.Layout) {
      if (Slot.contains("tensor")) {
        const at::Tensor &P = Call.Pristine.at(Slot["tensor"].get<size_t>());
        Args64.append(toPython(P.is_floating_point() && !P.is_complex()
                                   ? P.to(at::Device(Device), at::kDouble)
                                   : P.to(at::Device(Device))));
      } else
        Args64.append(Prelude.attr("from_json")(Slot["value"].dump()));
    }
    std::vector<at::Tensor> Outputs64 = outputTensorsOf(Model64(*Args64));
    Json Errors = Json::array();
    for (size_t I = 0; I < Outputs.size(); ++I) {
      const at::Tensor &O = Outputs[I];
      Json Entry = nullptr;
      if (I < Outputs64.size() && O.is_floating_point() && !O.is_complex() &&
          Outputs64[I].is_floating_point() &&
          O.sizes().equals(Outputs64[I].sizes())) {
        at::Tensor R = Outputs64[I].to(O.device(), at::kDouble);
        at::Tensor D = O.to(at::kDouble) - R;
        double Diff = D.norm().item<double>(), Norm = R.norm().item<double>();
        if (std::isfinite(Diff) && std::isfinite(Norm))
          Entry = Json{{"error", Diff}, {"norm", Norm}};
      }
      Errors.push_back(Entry);
    }
    return Errors;
  } catch (const std::exception &E) {
    return Error::make(std::string("the float64 model failed: ") + E.what());
  }
}

/// Writes the reference worker's report; its exit status.
int writeReport(const WorkerOptions &Options, const Json &Report) {
  writeJson(Options.Dir, protocol::ReferenceJson, Report);
  return ExitClean;
}

/// One run of the reference worker past its start: the task, the models
/// and the trials. It lives as long as the body of the worker's try block.
class ReferenceSession {
public:
  ReferenceSession(const WorkerOptions &Options, Json &Report)
      : Options(Options), Report(Report) {}
  /// Runs the task's model on every trial and writes the report; the
  /// worker's exit status.
  int run();

private:
  PhaseEnd importTask();
  void makeModels(const Json &Secrets);
  PhaseEnd runTrials(const Json &Secrets);
  PhaseEnd runTrial(unsigned T, uint64_t Seed, bool Heavy, bool IsHeldOut,
                    TensorShapes &NominalShapes);
  std::optional<ReferenceCall> callHeldOut(uint64_t Seed, bool &Heavy,
                                           int64_t &Batch,
                                           const TensorShapes &NominalShapes);
  PhaseEnd collectOutputs(const py::object &Out, Json &Outputs,
                          std::vector<at::Tensor> &OnCpu,
                          std::vector<at::Tensor> &OnDevice);
  void addFloat64Errors(const ReferenceCall &Call,
                        const std::vector<at::Tensor> &Outputs, Json &Trial);
  /// Reports the reference's failure: the worker's exit status.
  int fail(const std::string &Message) {
    Report["message"] = Message;
    return writeReport(Options, Report);
  }

  const WorkerOptions &Options;
  Json &Report;
  py::module_ Prelude;
  py::module_ Task;
  py::object Model;
  /// The float64 twin of Model (KEVIN-RT-023), or None.
  py::object Model64;
  Json Trials = Json::array();
};

int ReferenceSession::run() {
  auto Start = SteadyClock::now();
  Prelude = startPython();
  if (PhaseEnd End = importTask())
    return *End;
  double ImportSeconds = secondsSince(Start);
  // The seeds come once kevin-run holds the device: everything above ran
  // off it, while kevin-run waited.
  auto WaitStart = SteadyClock::now();
  std::optional<Json> SecretsLine = readSecretsLine("seeds", "trial seeds");
  double SeedsWait = secondsSince(WaitStart);
  if (!SecretsLine)
    return ExitError;
  const Json &Secrets = *SecretsLine;
  makeModels(Secrets);
  py::object NoGrad = Prelude.attr("no_grad")();
  NoGrad.attr("__enter__")();
  if (PhaseEnd End = runTrials(Secrets))
    return *End;
  NoGrad.attr("__exit__")(py::none(), py::none(), py::none());
  Report["ok"] = true;
  Report["trials"] = Trials;
  Report["seconds"] = {{"import", ImportSeconds},
                       {"seeds_wait", SeedsWait},
                       {"total", secondsSince(Start)}};
  return writeReport(Options, Report);
}

/// Imports the task, which must define Model, get_inputs and
/// get_init_inputs.
PhaseEnd ReferenceSession::importTask() {
  try {
    Task = Prelude.attr("import_file")("kevin_task", Options.Task);
  } catch (py::error_already_set &E) {
    return fail(
        "cannot import the task: " +
        Prelude
            .attr("describe")(E.value(), Options.Task, Options.Task, E.trace())
            .cast<std::string>());
  }
  for (const char *Needed : {"Model", "get_inputs", "get_init_inputs"})
    if (!py::hasattr(Task, Needed))
      return fail(std::string("the task defines no '") + Needed + "'");
  return std::nullopt;
}

/// Builds Model under the init seed, on the device, and its float64 twin
/// where the secrets ask for one.
void ReferenceSession::makeModels(const Json &Secrets) {
  py::object Device =
      py::module_::import("torch").attr("device")(Options.Device);
  // The reference is float32 throughout: no TF32 in cuDNN's convolutions
  // either (on by default), so the precision budget measures float32.
  Prelude.attr("no_tf32")();
  Prelude.attr("manual_seed")(protocol::InitSeed);
  py::list Init = Task.attr("get_init_inputs")();
  Report["init_args"] =
      Json::parse(Prelude.attr("to_json")(Init).cast<std::string>());
  Prelude.attr("manual_seed")(protocol::InitSeed);
  Model = Task.attr("Model")(*Init);
  Model = Model.attr("to")(Device);
  // Its float64 twin, made before any forward (KEVIN-RT-023).
  bool WantFloat64 = Secrets.value("float64", false);
  Model64 = WantFloat64 ? Prelude.attr("float64_model")(Model) : py::none();
  if (WantFloat64 && Model64.is_none())
    Report["float64_unavailable"] = "the model cannot be copied to float64";
}

/// Draws and runs every trial as the secrets say (seeds, heavy-tailed
/// draws, the held-out batch size's trial).
PhaseEnd ReferenceSession::runTrials(const Json &Secrets) {
  const Json &HeavyTailed = Secrets.contains("heavy_tailed")
                                ? Secrets["heavy_tailed"]
                                : Json::array();
  // The trial drawn at a held-out batch size (KEVIN-RT-022), if any.
  int64_t HeldOutTrial = Secrets.value("held_out_batch", int64_t(-1));
  TensorShapes NominalShapes;
  for (unsigned T = 0; T < Options.Trials; ++T) {
    uint64_t Seed = Secrets["seeds"][T].get<uint64_t>();
    bool Heavy = T < HeavyTailed.size() && HeavyTailed[T].is_boolean() &&
                 HeavyTailed[T].get<bool>();
    if (PhaseEnd End =
            runTrial(T, Seed, Heavy, T == HeldOutTrial, NominalShapes))
      return End;
  }
  return std::nullopt;
}

/// Trial T: draws its inputs from Seed (heavy-tailed when Heavy, at a
/// held-out batch size when IsHeldOut), calls Model on them, writes both
/// files and adds the trial to Trials. NominalShapes: trial 0's input
/// shapes, which a held-out draw must differ from.
PhaseEnd ReferenceSession::runTrial(unsigned T, uint64_t Seed, bool Heavy,
                                    bool IsHeldOut,
                                    TensorShapes &NominalShapes) {
  int64_t Batch = 0;
  std::optional<ReferenceCall> HeldOut;
  if (IsHeldOut)
    HeldOut = callHeldOut(Seed, Heavy, Batch, NominalShapes);
  ReferenceCall Call =
      HeldOut ? std::move(*HeldOut)
              : callReferenceOrFallBack(Prelude, Task, Model, Options.Device,
                                        Seed, Heavy, 0);
  if (T == 0)
    NominalShapes = shapesOf(Call.Pristine);
  Json Outputs;
  std::vector<at::Tensor> OutTensors, DeviceOutputs;
  if (PhaseEnd End =
          collectOutputs(Call.Out, Outputs, OutTensors, DeviceOutputs))
    return End;
  if (!writeTrialTensors(Options.Dir, T, "inputs", Call.Pristine) ||
      !writeTrialTensors(Options.Dir, T, "reference", OutTensors))
    return ExitError;
  Json Trial;
  Trial["inputs"] = Call.Layout;
  Trial["inputs_distribution"] = Heavy ? "heavy-tailed" : "task";
  if (Batch > 0)
    Trial["held_out_batch"] = Batch;
  Trial["outputs"] = Outputs;
  Trial["seconds"] = Call.Seconds;
  if (!Model64.is_none())
    addFloat64Errors(Call, DeviceOutputs, Trial);
  Trials.push_back(Trial);
  return std::nullopt;
}

/// The held-out trial's call at the task's held-out batch size (Batch),
/// where the task's semantics allow it: it has a batch_size, the draw's
/// shapes differ from NominalShapes (checked before the forward), and the
/// model takes the draw. Otherwise std::nullopt, with Batch 0 and Heavy as
/// they were.
std::optional<ReferenceCall>
ReferenceSession::callHeldOut(uint64_t Seed, bool &Heavy, int64_t &Batch,
                              const TensorShapes &NominalShapes) {
  bool WasHeavy = Heavy;
  std::optional<ReferenceCall> HeldOut;
  try {
    Batch = Prelude.attr("held_out_batch_size")(Task).cast<int64_t>();
    if (Batch > 0)
      HeldOut = callReferenceOrFallBack(Prelude, Task, Model, Options.Device,
                                        Seed, Heavy, Batch, &NominalShapes);
    if (HeldOut && HeldOut->Skipped)
      HeldOut.reset();
  } catch (const std::exception &) {
    HeldOut.reset();
  }
  if (!HeldOut) {
    Batch = 0;
    Heavy = WasHeavy;
  }
  return HeldOut;
}

/// Out's structure (a tensor, or a tuple or list of them) and its tensors'
/// metadata into Outputs, the tensors on the CPU into OnCpu and as they are
/// into OnDevice; the worker's exit when the reference returned anything
/// else.
PhaseEnd ReferenceSession::collectOutputs(const py::object &Out, Json &Outputs,
                                          std::vector<at::Tensor> &OnCpu,
                                          std::vector<at::Tensor> &OnDevice) {
  py::list Items;
  if (THPVariable_Check(Out.ptr())) {
    Outputs["kind"] = "tensor";
    Items.append(Out);
  } else if (py::isinstance<py::tuple>(Out) || py::isinstance<py::list>(Out)) {
    Outputs["kind"] = py::isinstance<py::tuple>(Out) ? "tuple" : "list";
    for (py::handle H : Out)
      Items.append(H);
  } else {
    return fail(
        "the reference Model returned a " +
        py::str(py::type::of(Out).attr("__name__")).cast<std::string>() +
        ", not a tensor");
  }
  Json Metas = Json::array();
  for (py::handle H : Items) {
    if (!THPVariable_Check(H.ptr()))
      return fail("the reference Model returned a non-tensor element");
    at::Tensor O = fromPython(H);
    Metas.push_back(tensorMeta(O));
    OnCpu.push_back(O.detach().to(at::kCPU));
    OnDevice.push_back(O.detach());
  }
  Outputs["tensors"] = Metas;
  return std::nullopt;
}

/// The float64 model's errors for Call's Outputs (KEVIN-RT-023) into
/// Trial; when it cannot run, no trial has any.
void ReferenceSession::addFloat64Errors(const ReferenceCall &Call,
                                        const std::vector<at::Tensor> &Outputs,
                                        Json &Trial) {
  Expected<Json> Errors =
      float64Errors(Prelude, Model64, Call, Outputs, Options.Device);
  if (Errors) {
    Trial["float64"] = *Errors;
    return;
  }
  // No budget for any trial of the task, so the record says one thing.
  Report["float64_unavailable"] = Errors.error().message();
  Model64 = py::none();
  for (Json &Earlier : Trials)
    Earlier.erase("float64");
}

} // namespace

} // namespace worker

using namespace worker;

int runReferenceWorker(const WorkerOptions &Options) {
  guardFromCandidates();
  Json Report;
  Report["ok"] = false;
  // Never finalized: the process ends with _Exit right after reporting (see
  // kevin-worker.cpp), so neither candidate atexit code nor the teardown of
  // a broken CUDA context can change what happened.
  startInterpreter();
  try {
    ReferenceSession Session(Options, Report);
    return Session.run();
  } catch (py::error_already_set &E) {
    Report["message"] = std::string("the reference failed: ") + E.what();
  } catch (const std::exception &E) {
    Report["message"] = std::string("the reference failed: ") + E.what();
  }
  return writeReport(Options, Report);
}

} // namespace kevin

//===-- kevin/Exec/WorkerSupport.h - helpers of the workers -----*- C++ -*-===//
//
// What the correctness worker (lib/Exec) and the timing worker (lib/Bench)
// share: the embedded interpreter and its trusted prelude
// (EmbeddedPython.cpp), kevin's builder hook (BuildHook.cpp), the worker's
// namespaces (kevin/Exec/Sandbox.h), and tensor <-> Python conversion, the
// result files and the classification of Python exceptions
// (WorkerSupport.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_WORKERSUPPORT_H
#define KEVIN_EXEC_WORKERSUPPORT_H

#include "kevin/Build/Builder.h"
#include "kevin/Exec/Outcome.h"
#include "kevin/Exec/Sandbox.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/Record.h"

#include <ATen/ATen.h>
#include <pybind11/embed.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kevin {
namespace worker {

namespace py = pybind11;
/// The clock of kevin/Support/Clock.h, under the names the workers use.
using Clock = SteadyClock;
using kevin::secondsSince;

//--- kevin's builder hook (BuildHook.cpp) -------------------------------------

/// What kevin's load_inline replacement needs, and what it records.
struct BuilderState {
  TorchToolchain Toolchain;
  /// The nvcc target of the worker's device, from the prelude's
  /// cuda_capability named as kevin/Support/CudaArch.h names nvidia-smi's;
  /// set at set-up when no --cuda-arch was given, asked by settleCudaArch
  /// at the first CUDA build.
  std::function<std::string()> AskCudaArch;
  BuildOptions Options;
  std::string OriginPath; ///< The candidate as named in messages.
  std::string OriginText;
  Json Builds = Json::array();
  bool Failed = false;
  std::string FailOutcome;
  std::string FailMessage;
  double Seconds = 0;
  int ProgressFd = -1;
  /// The progress line a build ends with: the stage the worker is in
  /// (`load` while the candidate loads, `run` once its calls began; a
  /// candidate may build inside forward).
  std::string Stage = "load";
  /// The `__global__` functions and the namespaces of the sources it was
  /// given (KEVIN-RT-009).
  std::set<std::string> KernelNames, KernelNamespaces;
};
/// The state the embedded _kevin_build module uses (one per process).
extern BuilderState *Builder;

//--- Secrets, progress and result files (WorkerSupport.cpp) -------------------

/// The next line of stdin as a JSON object that holds Key; std::nullopt
/// (after saying so on stderr, naming What) when it does not.
std::optional<Json> readSecretsLine(const char *Key, const char *What);

/// Opens Dir's progress file for appending; -1 when it cannot.
int openProgress(const std::string &Dir);
/// Appends a line to the progress file (the stage the worker reached).
void progress(int Fd, const std::string &Line);

/// Writes JSON to Dir/Name atomically (temporary file and rename).
bool writeJson(const std::string &Dir, const char *Name, const Json &Value);

/// The tensors of trial T's file of Kind in Dir (protocol::trialFile), and
/// writes them; std::nullopt or false, after saying why on stderr, when
/// they cannot be read or written.
std::optional<std::vector<at::Tensor>>
readTrialTensors(const std::string &Dir, unsigned T, const char *Kind);
bool writeTrialTensors(const std::string &Dir, unsigned T, const char *Kind,
                       const std::vector<at::Tensor> &Tensors);

/// How a phase of a worker ends: std::nullopt to go on, or the exit status
/// the worker returns.
using PhaseEnd = std::optional<int>;

//--- Tensors and Python exceptions (WorkerSupport.cpp) ------------------------

/// dtype, shape and device of a tensor.
Json tensorMeta(const at::Tensor &T);

/// The storage byte range of a tensor, and whether two ranges overlap.
std::pair<uintptr_t, uintptr_t> storageRange(const at::Tensor &T);
bool overlaps(std::pair<uintptr_t, uintptr_t> A,
              std::pair<uintptr_t, uintptr_t> B);

/// Classifies a Python exception message into an outcome.
Outcome classifyException(const std::string &TypeAndMessage);
bool isSystemExit(const py::error_already_set &E);

//--- The embedded interpreter (EmbeddedPython.cpp) ----------------------------

/// Starts the embedded interpreter, unless it runs already: a worker that
/// kevin-worker's zygote forked (kevin/Exec/Zygote.h) inherits a started one
/// with torch imported.
void startInterpreter();
/// For the zygote: starts the interpreter and imports torch and
/// torch.utils.cpp_extension as a worker would, without starting CUDA;
/// sys.path is left as it was.
void preloadTorch();
/// Starts the interpreter's trusted prelude (torch imported) and returns it.
py::module_ startPython();
/// The torch toolchain as the prelude reports it, with nvcc target Arch if
/// set (the builder's default otherwise); asks nothing of CUDA.
TorchToolchain toolchainFrom(py::module_ &Prelude, const std::string &Arch);
/// When State's nvcc target is still to be asked of torch (no --cuda-arch),
/// asks it once: this initialises CUDA in the worker, so the build hook does
/// it at the first CUDA build rather than at set-up. An error keeps the
/// builder's default target (with a warning on stderr).
void settleCudaArch(BuilderState &State);
/// For a worker's set-up: State asks torch for the nvcc target of Device at
/// its first CUDA build unless Arch (--cuda-arch) is given.
void askCudaArchUnlessGiven(BuilderState &State, py::module_ &Prelude,
                            const std::string &Arch,
                            const std::string &Device);

/// A tensor as a Python object, and a Python tensor as an at::Tensor.
py::object toPython(const at::Tensor &T);
at::Tensor fromPython(const py::handle &H);
/// The positional arguments of a trial from its layout and tensors.
py::list trialArguments(py::module_ &Prelude, const Json &Layout,
                        const std::vector<at::Tensor> &Tensors);

} // namespace worker
} // namespace kevin

#endif // KEVIN_EXEC_WORKERSUPPORT_H

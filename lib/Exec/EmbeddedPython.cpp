//===-- EmbeddedPython.cpp - the workers' embedded interpreter ------------===//
//
// Embedded CPython (pybind11) + LibTorch. Python objects are turned into
// at::Tensor with THPVariable_Unpack and every check that matters (exact
// tensor type, storage aliasing, copies to CPU, the files written) is done
// in C++, out of reach of candidate Python code. Python helpers come from
// WorkerPrelude.py, run before any task or candidate code.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/WorkerSupport.h"
#include "kevin/Support/CudaArch.h"

#include <torch/csrc/autograd/python_variable.h>

#include <iostream>
#include <unistd.h>

namespace kevin {
namespace worker {

static const char *PreludeSource =
#include "WorkerPrelude.inc"
    ;

void startInterpreter() {
  if (!Py_IsInitialized())
    py::initialize_interpreter();
}

/// Run by the zygote: its children find these modules imported. The import
/// of torch.utils.cpp_extension asks torch.cuda.is_available(), which would
/// start the CUDA driver here, and a forked child cannot use a driver its
/// parent started: it is told no instead (the answer only decides whether a
/// notice is printed, which is dropped as the prelude drops it). The first
/// start of torch's profiler (KEVIN-RT-009) imports torch._dynamo, which
/// takes seconds; imported here, it is paid once per zygote instead of once
/// per child (on the H200 machine, torch 2.11: a child's first profiler
/// start went from 6.3 s to 0.04 s, and CUDA still works in the child).
static const char *PreloadSource = R"KEVINPY(
import contextlib, io, sys
saved_path = list(sys.path)
if site_dir:
    sys.path.insert(0, site_dir)
import torch
asked = torch.cuda.is_available
torch.cuda.is_available = lambda: False
try:
    with contextlib.redirect_stderr(io.StringIO()):
        import torch.utils.cpp_extension
        try:
            import torch._dynamo
        except Exception:  # torch 1.x has none
            pass
finally:
    torch.cuda.is_available = asked
    sys.path[:] = saved_path
if torch.cuda.is_initialized():
    raise RuntimeError("importing torch started CUDA, which no forked worker "
                       "could use")
)KEVINPY";

void preloadTorch() {
  startInterpreter();
  py::module_ Sys = py::module_::import("sys");
  Sys.attr("argv") = py::make_tuple("kevin-worker");
  Sys.attr("dont_write_bytecode") = true;
  py::dict Scope;
#ifdef KEVIN_TORCH_SITE_DIR
  Scope["site_dir"] = KEVIN_TORCH_SITE_DIR;
#else
  Scope["site_dir"] = "";
#endif
  py::exec(PreloadSource, Scope);
}

/// Starts the interpreter with torch importable and the prelude run.
py::module_ startPython() {
  py::module_ Sys = py::module_::import("sys");
  Sys.attr("argv") = py::make_tuple("kevin-worker");
  Sys.attr("dont_write_bytecode") = true;
#ifdef KEVIN_TORCH_SITE_DIR
  // A venv's torch is not on the embedded interpreter's default path.
  py::list Path = Sys.attr("path");
  Path.insert(0, KEVIN_TORCH_SITE_DIR);
#endif
  py::module_ Prelude = py::reinterpret_borrow<py::module_>(
      py::module_::import("types").attr("ModuleType")("_kevin_prelude"));
  Sys.attr("modules")["_kevin_prelude"] = Prelude;
  py::exec(PreludeSource, Prelude.attr("__dict__"));
  return Prelude;
}

TorchToolchain toolchainFrom(py::module_ &Prelude, const std::string &Arch) {
  Json T = Json::parse(
      Prelude.attr("to_json")(Prelude.attr("toolchain")()).cast<std::string>());
  TorchToolchain Tc;
  for (const Json &D : T["include_dirs"])
    Tc.IncludeDirs.push_back(D.get<std::string>());
  Tc.PythonIncludeDir = T["python_include"].get<std::string>();
  Tc.TorchLibDir = T["lib_dir"].get<std::string>();
  Tc.TorchVersion = T["version"].get<std::string>();
  Tc.CxxAbi = T["cxx_abi"].get<bool>();
  for (const Json &D : T["pybind11_defines"])
    Tc.Pybind11Defines.push_back(D.get<std::string>());
  Tc.CudaHome = T["cuda_home"].get<std::string>();
  if (!Tc.CudaHome.empty() &&
      ::access((Tc.CudaHome + "/bin/nvcc").c_str(), X_OK) == 0)
    Tc.Nvcc = Tc.CudaHome + "/bin/nvcc";
  if (!Arch.empty())
    Tc.CudaArch = Arch;
  return Tc;
}

void askCudaArchUnlessGiven(BuilderState &State, py::module_ &Prelude,
                            const std::string &Arch,
                            const std::string &Device) {
  if (!Arch.empty())
    return;
  State.AskCudaArch = [Ask = py::object(Prelude.attr("cuda_capability")),
                       Device] {
    return cudaArchFromComputeCaps(Ask(Device).cast<std::string>());
  };
}

void settleCudaArch(BuilderState &State) {
  if (!State.AskCudaArch)
    return;
  std::function<std::string()> Ask = std::move(State.AskCudaArch);
  State.AskCudaArch = nullptr;
  try {
    std::string Arch = Ask();
    if (!Arch.empty())
      State.Toolchain.CudaArch = Arch;
  } catch (py::error_already_set &E) {
    std::cerr << "kevin-worker: warning: cannot ask torch for the device's "
                 "nvcc target, building for "
              << State.Toolchain.CudaArch << ": " << E.what() << "\n";
  }
}

py::object toPython(const at::Tensor &T) {
  return py::reinterpret_steal<py::object>(THPVariable_Wrap(T));
}

at::Tensor fromPython(const py::handle &H) {
  return THPVariable_Unpack(H.ptr());
}

/// Builds the positional arguments of a trial from its layout and tensors.
py::list trialArguments(py::module_ &Prelude, const Json &Layout,
                        const std::vector<at::Tensor> &Tensors) {
  py::list Args;
  for (const Json &Slot : Layout) {
    if (Slot.contains("tensor"))
      Args.append(toPython(Tensors.at(Slot["tensor"].get<size_t>())));
    else
      Args.append(Prelude.attr("from_json")(Slot["value"].dump()));
  }
  return Args;
}

} // namespace worker
} // namespace kevin

//===-- BuildHook.cpp - kevin's load_inline and load ----------------------===//
//
// The embedded `_kevin_build` module. The worker's prelude
// (install_builder) replaces torch.utils.cpp_extension.load_inline and load
// by calls of its `build`, which builds the extension with kevin's builder
// (kevin/Build/Builder.h), records each build in the BuilderState the worker
// set up, and returns the library to import.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/KernelCoverage.h"
#include "kevin/Exec/WorkerSupport.h"

#include <pybind11/stl.h>

#include <stdexcept>

namespace kevin {
namespace worker {

BuilderState *Builder = nullptr;

namespace {

std::string
buildHook(const std::string &Name, const std::vector<std::string> &Cpp,
          const std::vector<std::string> &Cuda,
          const std::vector<std::pair<std::string, std::string>> &Fns,
          const std::vector<std::string> &Cflags,
          const std::vector<std::string> &CudaCflags,
          const std::vector<std::string> &Ldflags,
          const std::vector<std::string> &Includes, bool Wrap, bool Raw) {
  if (!Builder)
    throw std::runtime_error("kevin's builder is not set up");
  ExtensionSpec Spec;
  Spec.Name = Name;
  Spec.CppSources = Cpp;
  Spec.CudaSources = Cuda;
  Spec.Functions = Fns;
  Spec.ExtraCflags = Cflags;
  Spec.ExtraCudaCflags = CudaCflags;
  Spec.ExtraLdflags = Ldflags;
  Spec.ExtraIncludePaths = Includes;
  Spec.WrapFunctions = Wrap;
  Spec.RawSources = Raw;
  Spec.OriginPath = Builder->OriginPath;
  Spec.OriginText = Builder->OriginText;
  for (const std::vector<std::string> *Sources : {&Cpp, &Cuda})
    for (const std::string &Source : *Sources) {
      Builder->KernelNames.merge(globalFunctionNames(Source));
      Builder->KernelNamespaces.merge(declaredNamespaces(Source));
    }
  progress(Builder->ProgressFd, "build");
  if (!Cuda.empty())
    settleCudaArch(*Builder);
  Expected<BuildResult> R = [&] {
    py::gil_scoped_release Release;
    return buildExtension(Spec, Builder->Toolchain, Builder->Options);
  }();
  progress(Builder->ProgressFd, Builder->Stage);
  Json Entry;
  Entry["name"] = Name;
  if (!R) {
    Builder->Failed = true;
    Builder->FailOutcome = "build-error";
    Builder->FailMessage = R.error().message();
    Entry["ok"] = false;
    Entry["outcome"] = "build-error";
    Entry["message"] = R.error().message();
    Builder->Builds.push_back(Entry);
    throw std::runtime_error("Error building extension '" + Name +
                             "': " + R.error().message());
  }
  Builder->Seconds += R->Seconds;
  Entry["ok"] = R->Ok;
  Entry["outcome"] = R->Outcome;
  Entry["cache_hit"] = R->CacheHit;
  Entry["precompiled_header"] = R->PrecompiledHeaderUsed;
  Entry["cuda_header"] = torchHeaderName(R->CudaHeaderUsed);
  Entry["binding_header"] = torchHeaderName(R->BindingHeaderUsed);
  Entry["binding_split"] = R->BindingSplit;
  Entry["seconds"] = R->Seconds;
  Entry["key"] = R->Key;
  if (!R->Ok) {
    if (!Builder->Failed) {
      Builder->Failed = true;
      Builder->FailOutcome = R->Outcome;
      Builder->FailMessage = R->Message;
    }
  }
  Builder->Builds.push_back(Entry);
  if (!R->Ok)
    throw std::runtime_error("Error building extension '" + Name + "':\n" +
                             R->Message);
  return R->LibraryPath;
}

} // namespace

} // namespace worker
} // namespace kevin

PYBIND11_EMBEDDED_MODULE(_kevin_build, M) {
  M.def("build", &kevin::worker::buildHook);
}

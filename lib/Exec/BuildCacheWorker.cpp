//===-- BuildCacheWorker.cpp - the build cache's shared objects, ahead ----===//
//
// `kevin-worker prepare-build-cache`: the worker's toolchain (the nvcc
// target its tool handed it; the support objects do not depend on it), and
// the objects its CUDA builds share, made in the cache before the first
// build needs them (kevin serve and kevin eval start it beside their
// zygote).
//
//===----------------------------------------------------------------------===//
#include "kevin/Build/Builder.h"
#include "kevin/Exec/Worker.h"
#include "kevin/Exec/WorkerSupport.h"

#include <cstdio>
#include <exception>

namespace kevin {

int runPrepareBuildCacheWorker(const WorkerOptions &Options) {
  try {
    worker::startInterpreter();
    pybind11::module_ Prelude = worker::startPython();
    TorchToolchain T = worker::toolchainFrom(Prelude, Options.CudaArch);
    return prepareSharedBuildObjects(T, Options.Build) ? 0 : 1;
  } catch (const std::exception &E) {
    std::fprintf(stderr, "kevin-worker: error: %s\n", E.what());
    return 1;
  }
}

} // namespace kevin

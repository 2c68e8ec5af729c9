//===-- TorchFacade.h - CUDA units without torch's headers ------*- C++ -*-===//
//
// Private to lib/Build. torch's headers are about 90% of a CUDA unit's
// compile, even kevin's minimal set of them. kevin's torch facade
// (embedded/torch_facade.h) stands in for them: at::Tensor with torch's
// layout, whose operations call kevin's support object
// (embedded/torch_facade_support.cpp), compiled once per cache with torch's
// headers and linked into the extension. A unit is compiled with the facade
// first when a scan finds nothing it lacks; whatever fails there, or gives
// an object that could reach torch's own code through the facade's types,
// is compiled again with the next header set.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BUILD_TORCHFACADE_H
#define KEVIN_LIB_BUILD_TORCHFACADE_H

#include "kevin/Build/Builder.h"

#include <string>
#include <vector>

namespace kevin {

/// Whether a CUDA unit's text may first be compiled with the facade: it
/// fits the minimal header (fitsMinimalTorchHeader), defines no function
/// named as one of ATen's ops (which torch's headers would make ambiguous),
/// and includes no torch header the facade does not stand in for.
bool fitsTorchFacade(const std::string &Text,
                     const std::vector<std::string> &IncludeDirs);

/// The facade's -D flags for Text: c10's Half and BFloat16 (real headers,
/// seconds of compile each) only when the text names them.
std::vector<std::string> torchFacadeDefines(const std::string &Text);

/// Why an object compiled with the facade cannot be linked, or "": a symbol
/// that names one of the facade's own types (a function another unit or
/// torch would call with torch's type), or that defines or refers to a
/// function of at::, c10:: or torch:: (a facade function compiled out of
/// line, or torch's code reached with the facade's types). An object whose
/// table cannot be read cannot be linked.
std::string torchFacadeObjectProblem(const std::string &Object,
                                     const std::string &Dir,
                                     const TorchToolchain &T,
                                     const BuildOptions &Options);

/// The path of the facade's support object in the cache, compiled under a
/// file lock when missing (waiting for another build's compile of it, or,
/// unless Wait, returning at once); empty when it cannot be had (yet).
std::string torchFacadeSupport(const TorchToolchain &T,
                               const BuildOptions &Options, bool Wait = true);

/// The same for the facade's Python support object, which the facade's
/// binding (embedded/torch_facade_binding.h) converts tensors and errors
/// with.
std::string torchFacadePythonSupport(const TorchToolchain &T,
                                     const BuildOptions &Options,
                                     bool Wait = true);

/// Whether the facade's binding can bind a function of this prototype (as
/// functionPrototype gives it): every parameter and the result is
/// torch::Tensor or at::Tensor (by value or reference), bool, an integer or
/// floating type, std::string, or a std::vector, std::tuple or optional of
/// those; the result may be void. What pybind11 would convert with torch's
/// other casters (scalars, dtypes, devices, IntArrayRef) is not bound there.
bool bindsThroughTorchFacade(const std::string &Prototype);

} // namespace kevin

#endif // KEVIN_LIB_BUILD_TORCHFACADE_H

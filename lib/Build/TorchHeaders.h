//===-- TorchHeaders.h - kevin's narrower torch headers ---------*- C++ -*-===//
//
// Private to lib/Build. kevin's torch/extension.h headers for CUDA units,
// tried narrowest first. nvcc parses every header twice (cudafe++ for the
// device, the host compiler after it), and the real header is most of a
// cold CUDA build. A unit that fails with one is compiled again with the
// next, the last time with the real header, so no candidate ever sees an
// error a kevin header caused. The binding unit has a set of its own.
//
// The texts are the files of lib/Build/embedded, compiled into the binary
// (lib/Build/CMakeLists.txt); the cache key hashes them.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BUILD_TORCHHEADERS_H
#define KEVIN_LIB_BUILD_TORCHHEADERS_H

#include <string>
#include <string_view>
#include <vector>

namespace kevin {

/// The minimal header, in place of torch/types.h (embedded/minimal_types.h):
/// the tensor class, the factories that kernels' host code calls, dispatch
/// macros and checks, and torch:: names for them (as torch/types.h gives
/// them). It halves the lean header's compile.
extern const std::string_view MinimalTypesHeader;

/// The lean header (embedded/lean_extension.h): the tensor API without
/// pybind11 and torch's C++ frontend (a ReLU unit: 76 s with the real
/// header, 37 s with this one).
extern const std::string_view LeanExtensionHeader;

/// The binding unit's torch/extension.h (embedded/binding_extension.h): the
/// minimal torch/types.h and what torch/python.h includes (pybind11 and
/// torch's type casters for it), without the C++ frontend (nn, optim, data)
/// that torch/all.h adds. A ReLU binding unit (g++ -O3, torch 1.13): 27.0 s
/// with torch's header, 10.9 s with this one, and no precompiled header to
/// build or wait for.
extern const std::string_view MinimalBindingHeader;

/// torch's dtype names (embedded/torch_dtype_names.h), which the minimal
/// torch/types.h and the facade include inside namespace torch.
extern const std::string_view TorchDtypeNamesHeader;
/// kevin's torch facade (embedded/torch_facade.h, TorchFacade.h) and the
/// source of its support object (embedded/torch_facade_support.cpp); its
/// pybind11 binding (embedded/torch_facade_binding.h) and the source of
/// that one's Python support object (embedded/torch_facade_python.cpp).
extern const std::string_view TorchFacadeHeader;
extern const std::string_view TorchFacadeSupportSource;
extern const std::string_view TorchFacadeBindingHeader;
extern const std::string_view TorchFacadePythonSource;
/// The torch headers the facade stands in for, as units include them.
extern const std::vector<std::string> TorchFacadeStandIns;

/// The headers kevin puts before torch's own, as sets.
enum class HeaderSet {
  /// The minimal torch/types.h, and a torch/extension.h of it alone
  /// (embedded/minimal_extension.h): a CUDA unit starts with torch/types.h,
  /// as load_inline's do.
  Minimal,
  /// The lean torch/extension.h.
  Lean,
  /// The minimal torch/types.h and the binding unit's torch/extension.h.
  MinimalBinding,
  /// The torch facade, under the name of each torch header it stands in
  /// for (TorchFacade.h), and its binding header.
  Facade,
};

/// Writes Set's files into Dir (under torch/, ATen/, c10/) and returns Dir; empty when they
/// cannot be written. Dir lies in the build's private directory: headers
/// shared in the cache could be rewritten by a candidate for every later
/// build.
std::string writeHeaderDir(const std::string &Dir, HeaderSet Set);

} // namespace kevin

#endif // KEVIN_LIB_BUILD_TORCHHEADERS_H

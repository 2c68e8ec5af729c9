//===-- kevin/Build/Builder.h - compile candidate extensions ----*- C++ -*-===//
//
// kevin compiles a candidate's `load_inline` (or `load`) sources itself,
// instead of torch's ninja/setuptools path: it writes the translation units
// the way load_inline does (torch/extension.h, the cpp sources, a pybind11
// binding for `functions`; the CUDA sources in their own unit), compiles each
// unit with one g++ or nvcc call (in parallel, with a timeout), links a shared
// object, and keeps it in a content-addressed cache. C++ units that start
// with torch/extension.h use a precompiled header of it, kept in the cache.
//
// The torch facts (include directories, ABI flag, pybind11 ABI strings,
// library directory, version) come from the caller: the worker reads them
// from the torch it runs, exactly as torch.utils.cpp_extension does.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_BUILD_BUILDER_H
#define KEVIN_BUILD_BUILDER_H

#include "kevin/Support/CacheDir.h"
#include "kevin/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kevin {

/// What a candidate asked to compile, as load_inline or load received it.
struct ExtensionSpec {
  std::string Name;
  /// load_inline: source strings; `load`: file contents (RawSources set).
  std::vector<std::string> CppSources;
  std::vector<std::string> CudaSources;
  /// Function name -> docstring, bound with pybind11 (load_inline only).
  std::vector<std::pair<std::string, std::string>> Functions;
  std::vector<std::string> ExtraCflags;
  std::vector<std::string> ExtraCudaCflags;
  std::vector<std::string> ExtraLdflags;
  std::vector<std::string> ExtraIncludePaths;
  /// load_inline's with_pytorch_error_handling.
  bool WrapFunctions = true;
  /// True for `load`: sources are whole files, no include or binding added.
  bool RawSources = false;
  /// The candidate file and its text, to map diagnostics back to it.
  std::string OriginPath;
  std::string OriginText;
};

/// How to compile against the torch in use.
struct TorchToolchain {
  std::string Cxx = "g++";
  std::string Nvcc; ///< Empty when CUDA is unavailable.
  std::string CudaHome;
  std::vector<std::string> IncludeDirs; ///< torch's include_paths(cuda).
  std::string PythonIncludeDir;
  std::string TorchLibDir;
  std::string TorchVersion;
  bool CxxAbi = true;
  /// -DPYBIND11_COMPILER_TYPE=... etc., as torch._C reports them.
  std::vector<std::string> Pybind11Defines;
  /// The nvcc -gencode target, e.g. `sm_90a`.
  std::string CudaArch = "sm_90a";
};

struct BuildOptions {
  std::string CacheDir;
  /// Parallel compile jobs for the units of one extension.
  unsigned Jobs = 2;
  /// Per compile (and link) call, seconds.
  double TimeoutSeconds = 300;
  bool UsePrecompiledHeader = true;
  /// Bytes of compiler output kept in the message.
  size_t MaxMessageBytes = 4000;
};

/// The torch/extension.h a unit was compiled with, narrowest first: kevin's
/// torch facade (CUDA units only; no torch header at all), kevin's minimal
/// one, kevin's lean one (CUDA units only), or torch's own.
enum class TorchHeader { None, Facade, Minimal, Lean, Full };
/// `none`, `facade`, `minimal`, `lean` or `full`.
const char *torchHeaderName(TorchHeader H);

/// Whether a unit's text (a CUDA unit, or the candidate's part of the
/// binding unit) may first be compiled with kevin's minimal header set: its torch::/at:: calls name only what that set declares, it
/// includes no other torch header, and nothing in it could compile into
/// something else there (requires_grad, using namespace torch). A cheap
/// scan: a unit it lets through may still fail there.
bool fitsMinimalTorchHeader(const std::string &Text);

/// Names Text declares or defines as functions, by a cheap scan: a name
/// before `(` that follows a type (`Tensor softmax(`, `float gelu(`), not
/// a call (`return f(`, `= f(`, `x.f(`, `at::f(`). A variable initialized
/// with parentheses (`float sum(0)`) counts too.
std::set<std::string> declaredFunctionNames(const std::string &Text);

/// Whether Text declares a function named like one of ATen's ops (a header
/// `ATen/ops/<name>.h` under IncludeDirs) that kevin's minimal set lacks.
/// With torch's headers an unqualified call of that name with tensor
/// arguments may reach ATen's op by argument-dependent lookup; with the
/// minimal set it always reaches the candidate's: such a unit is not given
/// the minimal set.
bool declaresAtenOpName(const std::string &Text,
                        const std::vector<std::string> &IncludeDirs);

/// How one build ended. A failed build is not an Error: Error is reserved
/// for tool problems (cannot write the cache, compiler missing).
struct BuildResult {
  bool Ok = false;
  std::string Outcome; ///< `ok`, `build-error`, `timeout`.
  std::string LibraryPath;
  std::string Key; ///< The content hash.
  bool CacheHit = false;
  bool PrecompiledHeaderUsed = false;
  /// The widest header a CUDA unit of it needed (None: no CUDA unit built).
  TorchHeader CudaHeaderUsed = TorchHeader::None;
  /// The header the binding unit (main.cpp) was compiled with: Minimal
  /// (kevin's, no precompiled header needed) or Full (None: not built, or
  /// no binding unit, as for `load`).
  TorchHeader BindingHeaderUsed = TorchHeader::None;
  /// True when the binding unit was compiled as two units side by side:
  /// the candidate's code, and kevin's binding with the bound functions'
  /// prototypes (with the minimal binding set's precompiled header when
  /// the cache has one).
  bool BindingSplit = false;
  double Seconds = 0;
  /// Compiler diagnostics, mapped to the candidate's lines and truncated.
  std::string Message;
};

/// The text of each translation unit a spec compiles to: file name -> text.
struct TranslationUnit {
  std::string FileName; ///< `main.cpp`, `cuda.cu`, or the `load` file name.
  std::string Text;
  bool IsCuda = false;
  /// Where each source string starts in Text (1-based line), for mapping.
  std::vector<std::pair<unsigned, std::string>> Pieces;
  /// True when the unit begins with torch/extension.h (a PCH may be used).
  bool StartsWithExtensionHeader = false;
};
std::vector<TranslationUnit> writeTranslationUnits(const ExtensionSpec &Spec);

/// The cache key: sources, flags, compiler identity, torch version, arch.
std::string computeBuildKey(const ExtensionSpec &Spec,
                            const TorchToolchain &Toolchain,
                            const std::string &CompilerIdentity);

/// Makes, when the cache lacks them, the objects that this toolchain's
/// CUDA builds share (kevin's torch facade support objects), side by side,
/// each under its file lock: a build that would link them then finds them
/// made. Nothing without nvcc. False when one of them cannot be made (the
/// builds then compile their units with torch's headers, as they would).
bool prepareSharedBuildObjects(const TorchToolchain &Toolchain,
                               const BuildOptions &Options);

/// Compiles (or finds in the cache) the extension. Safe to call from
/// several processes at once on the same cache directory.
Expected<BuildResult> buildExtension(const ExtensionSpec &Spec,
                                     const TorchToolchain &Toolchain,
                                     const BuildOptions &Options);

} // namespace kevin

#endif // KEVIN_BUILD_BUILDER_H

//===-- PrecompiledHeader.h - precompiled headers in the cache --*- C++ -*-===//
//
// Private to lib/Build: g++'s precompiled headers of torch/extension.h and
// of kevin's minimal binding set, and the object of kevin's torch facade
// support, built once per flag set into the cache under an flock and shared
// by every later build.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BUILD_PRECOMPILEDHEADER_H
#define KEVIN_LIB_BUILD_PRECOMPILEDHEADER_H

#include "kevin/Build/Builder.h"

#include <string>
#include <vector>

namespace kevin {

/// A precompiled header kevin keeps in the cache, or (Object) an object.
struct PchRecipe {
  std::string FileName; ///< The header's (source's) name in its directory.
  std::string Text;     ///< What the header includes (the source's text).
  /// kevin's header texts it reads (in the cache key, with the flags).
  std::string KeyText;
  /// Where those are, in the build's private directory (not in the key).
  std::vector<std::string> IncludeFlags;
  /// Compiled as a C++ source to FileName.o, not as a header to .gch.
  bool Object = false;
};

/// kevin's headers for precompiled headers: torch's own torch/extension.h,
/// and the minimal binding set (written to BindingDir) for split binding
/// units.
PchRecipe torchExtensionPch();
PchRecipe minimalBindingPch(const std::string &BindingDir);

/// The path of the precompiled header for these flags when the cache has
/// it made (as precompiledHeader returns it); empty when it has not.
std::string cachedPrecompiledHeader(const std::vector<std::string> &Flags,
                                    const TorchToolchain &T,
                                    const BuildOptions &Options,
                                    const PchRecipe &Recipe);

/// Returns the path of a usable precompiled header for these flags (of
/// the source, for an Object recipe: its .o beside it), building it under
/// a file lock when missing; empty when it cannot be had. Unless Wait, it
/// does not wait for another process's build of it: it returns empty at
/// once.
std::string precompiledHeader(const std::vector<std::string> &Flags,
                              const TorchToolchain &T,
                              const BuildOptions &Options,
                              const PchRecipe &Recipe, bool Wait);

} // namespace kevin

#endif // KEVIN_LIB_BUILD_PRECOMPILEDHEADER_H

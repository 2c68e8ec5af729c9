//===-- BuildFlags.h - compiler and linker command lines --------*- C++ -*-===//
//
// Private to lib/Build: the flags of each compile and of the link (what
// load_inline would pass, plus kevin's), the environment compilers run in,
// and a compiler's identity for the cache key.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BUILD_BUILDFLAGS_H
#define KEVIN_LIB_BUILD_BUILDFLAGS_H

#include "kevin/Build/Builder.h"

#include <string>
#include <vector>

namespace kevin {

/// The identity of a compiler: its path and the first line of --version.
std::string compilerIdentity(const std::string &Compiler);

/// g++'s flags for a C++ unit (without the unit and its object).
std::vector<std::string> cxxFlags(const ExtensionSpec &Spec,
                                  const TorchToolchain &T);

/// The flags of kevin's split binding unit (pybind11 glue only): the
/// candidate's, at -O1. The glue then compiles in 5.7 s instead of 8.3 s
/// (g++ 12, torch 1.13, a precompiled header each), and a call through it
/// costs the same (1.17 against 1.17-1.21 us for a ReLU on one element;
/// -O0 costs 2.5 us).
std::vector<std::string> glueFlags(const std::vector<std::string> &Flags);

/// nvcc's flags for a CUDA unit (without the unit and its object).
std::vector<std::string> nvccFlags(const ExtensionSpec &Spec,
                                   const TorchToolchain &T);

/// The link's flags after the objects (WithCuda: the launch gate's and
/// CUDA's libraries too).
std::vector<std::string> linkFlags(const ExtensionSpec &Spec,
                                   const TorchToolchain &T, bool WithCuda);

/// The environment of compiler processes: the caller's PATH and nothing of
/// the candidate's making.
std::vector<std::string> compilerEnvironment(const TorchToolchain &T);

} // namespace kevin

#endif // KEVIN_LIB_BUILD_BUILDFLAGS_H

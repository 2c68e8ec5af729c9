//===-- CompileStep.h - one compiler or tool call of a build ----*- C++ -*-===//
//
// Private to lib/Build: a command of a build (a compile, the link, a
// precompiled header, a look at an object's tables), run in the build's
// directory with the compilers' environment and the build's timeout.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BUILD_COMPILESTEP_H
#define KEVIN_LIB_BUILD_COMPILESTEP_H

#include "kevin/Build/Builder.h"

#include <string>
#include <utility>
#include <vector>

namespace kevin {

struct Step {
  std::vector<std::string> Argv;
  /// A CUDA unit's commands, narrowest torch/extension.h first: each runs
  /// when the one before failed (not by timeout).
  std::vector<std::pair<TorchHeader, std::vector<std::string>>> Tries;
  /// The header of the command that ran last.
  TorchHeader Header = TorchHeader::None;
  std::string Output;
  bool Ok = false;
  bool TimedOut = false;
  /// It ran and exited with a status of its own (not started, killed by a
  /// signal or by the timeout: false).
  bool Exited = false;
};

/// Runs S.Argv in Dir and records how it ended in S: Output is what it
/// printed (256 KiB of each stream at most), and how it ended when that is
/// a timeout or a failure that printed nothing.
///
/// With WholeStdout, its standard output goes there instead, all of it:
/// output beyond 1 GiB is never cut short but fails the step.
void runStep(Step &S, const TorchToolchain &T, const BuildOptions &Options,
             const std::string &Dir, std::string *WholeStdout = nullptr);

} // namespace kevin

#endif // KEVIN_LIB_BUILD_COMPILESTEP_H

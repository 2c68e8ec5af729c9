//===-- ObjectCheck.h - what compiled objects refer to ----------*- C++ -*-===//
//
// Private to lib/Build: before the link, the candidate's objects are read
// with nm and readelf. What they refer to and define, however their text
// spelled it, must not go around kevin's launch gate (KEVIN-RT-010; CPU
// extensions have no gate, but nothing honest refers to these either).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BUILD_OBJECTCHECK_H
#define KEVIN_LIB_BUILD_OBJECTCHECK_H

#include "kevin/Build/Builder.h"

#include <string>
#include <vector>

namespace kevin {

/// Why the candidate's objects (file names in the build directory Dir, which
/// ends in '/') cannot be used, for the first object that cannot be, or ""
/// when all can. One whose tables cannot be read cannot be used.
std::string objectsProblem(const std::vector<std::string> &Objects,
                           const std::string &Dir, const TorchToolchain &T,
                           const BuildOptions &Options);

} // namespace kevin

#endif // KEVIN_LIB_BUILD_OBJECTCHECK_H

//===-- BuildFiles.h - the builder's file utilities -------------*- C++ -*-===//
//
// Private to lib/Build: the file operations the builder's parts share on
// the cache directory (directories, unit files, private build directories).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BUILD_BUILDFILES_H
#define KEVIN_LIB_BUILD_BUILDFILES_H

#include "kevin/Support/Error.h"

#include <string>

namespace kevin {


bool fileExists(const std::string &Path);

/// Creates Path and the directories above it (0755); existing ones are fine.
Error makeDirs(const std::string &Path);

/// Writes Text to Path (not atomically: for files in a private directory,
/// or a temporary name renamed afterwards).
Error writeFile(const std::string &Path, const std::string &Text);

/// Removes Path and everything under it, when it can (`rm -rf`).
void removeTree(const std::string &Path);

} // namespace kevin

#endif // KEVIN_LIB_BUILD_BUILDFILES_H

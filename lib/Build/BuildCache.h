//===-- BuildCache.h - the content-addressed extension cache ----*- C++ -*-===//
//
// Private to lib/Build. A finished build is published by renaming its
// private directory under <cache>/tmp to <cache>/ext/<key>: rename is
// atomic, so concurrent builders of the same key never see a half-written
// extension (the loser of the race discards its copy). Failed builds are
// remembered under <cache>/fail/<key>, so a GPU stage does not recompile
// what a CPU pool already found broken. (computeBuildKey, the key, is in
// kevin/Build/Builder.h.)
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BUILD_BUILDCACHE_H
#define KEVIN_LIB_BUILD_BUILDCACHE_H

#include "kevin/Support/Error.h"

#include <optional>
#include <string>

namespace kevin {

/// Bumped when the unit layout or the flags kevin adds change.
constexpr const char *BuilderVersion = "kevin-build-8";
/// Stands for the private build directory in remembered failures.
constexpr const char *BuildDirToken = "@KEVIN_BUILD_DIR@/";

/// Where the cache keeps one key's build.
struct CacheEntry {
  std::string Published; ///< <cache>/ext/<key>: the published directory.
  std::string Library;   ///< The extension's shared object in it.
  std::string FailFile;  ///< <cache>/fail/<key>: a remembered failure.
};
CacheEntry cacheEntry(const std::string &CacheDir, const std::string &Key,
                      const std::string &ExtensionName);

/// The compiler output of a remembered failure of Entry's key (with
/// BuildDirToken for the build's directory), if there is one.
std::optional<std::string> rememberedFailure(const CacheEntry &Entry);

/// A new private directory name for a build of Key, under <cache>/tmp,
/// ending in '/'.
std::string privateBuildDir(const std::string &CacheDir,
                            const std::string &Key);

/// Remembers a failed build's compiler Output under Entry.FailFile, with
/// its private directory Dir abstracted away; when it can.
void rememberFailure(const std::string &CacheDir, const CacheEntry &Entry,
                     const std::string &Output, const std::string &Dir);

/// Publishes the private directory Dir (ending in '/') as Entry.Published.
/// When another process published the same key first, Dir is discarded and
/// its copy used.
Error publishBuild(const std::string &CacheDir, const CacheEntry &Entry,
                   const std::string &Dir);

} // namespace kevin

#endif // KEVIN_LIB_BUILD_BUILDCACHE_H

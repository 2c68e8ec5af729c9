//===-- BuildCache.cpp - the content-addressed extension cache ------------===//
//
// The cache key, remembered failures, and the atomic publication of a
// build's directory. See BuildCache.h.
//
//===----------------------------------------------------------------------===//
#include "BuildCache.h"
#include "BuildFiles.h"
#include "BuildFlags.h"
#include "TorchHeaders.h"
#include "kevin/Build/Builder.h"
#include "kevin/Build/LaunchGate.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Hash.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace kevin {

std::string computeBuildKey(const ExtensionSpec &Spec,
                            const TorchToolchain &Toolchain,
                            const std::string &CompilerIdentity) {
  ContentHasher H;
  // kevin's headers are in the key: an object is only reused with the
  // headers it could have been built with.
  H.add(BuilderVersion).add(Spec.Name).add(CompilerIdentity);
  H.add(MinimalTypesHeader).add(LeanExtensionHeader).add(MinimalBindingHeader);
  H.add(TorchFacadeHeader).add(TorchFacadeSupportSource);
  H.add(TorchFacadeBindingHeader).add(TorchFacadePythonSource);
  H.add(TorchDtypeNamesHeader);
  H.add(Toolchain.TorchVersion).add(Toolchain.CxxAbi ? "abi1" : "abi0");
  for (const TranslationUnit &U : writeTranslationUnits(Spec))
    H.add(U.FileName).add(U.Text);
  bool WithCuda = !Spec.CudaSources.empty();
  for (const std::string &F : cxxFlags(Spec, Toolchain))
    H.add(F);
  if (WithCuda) {
    H.add(Toolchain.CudaArch).add(launchGateSource());
    for (const std::string &F : nvccFlags(Spec, Toolchain))
      H.add(F);
  }
  for (const std::string &F : linkFlags(Spec, Toolchain, WithCuda))
    H.add(F);
  return H.finish();
}

CacheEntry cacheEntry(const std::string &CacheDir, const std::string &Key,
                      const std::string &ExtensionName) {
  CacheEntry Entry;
  Entry.Published = CacheDir + "/ext/" + Key;
  Entry.Library = Entry.Published + "/" + ExtensionName + ".so";
  Entry.FailFile = CacheDir + "/fail/" + Key;
  return Entry;
}

std::optional<std::string> rememberedFailure(const CacheEntry &Entry) {
  if (!fileExists(Entry.FailFile))
    return std::nullopt;
  return fs::readFileOrEmpty(Entry.FailFile);
}

std::string privateBuildDir(const std::string &CacheDir,
                            const std::string &Key) {
  return CacheDir + "/tmp/" + Key.substr(0, 16) + "." + fs::uniqueTag() + "/";
}

void rememberFailure(const std::string &CacheDir, const CacheEntry &Entry,
                     const std::string &Output, const std::string &Dir) {
  if (makeDirs(CacheDir + "/fail"))
    return;
  std::string Stored = Output;
  for (size_t P; (P = Stored.find(Dir)) != std::string::npos;)
    Stored.replace(P, Dir.size(), BuildDirToken);
  // Best effort: a failure that is not remembered is built again.
  (void)fs::writeFileAtomically(Entry.FailFile, Stored);
}

Error publishBuild(const std::string &CacheDir, const CacheEntry &Entry,
                   const std::string &Dir) {
  if (Error E = makeDirs(CacheDir + "/ext"))
    return E;
  std::string Staged = Dir.substr(0, Dir.size() - 1);
  if (::rename(Staged.c_str(), Entry.Published.c_str()) != 0) {
    // Another process published the same key first; use its copy.
    removeTree(Staged);
    if (!fileExists(Entry.Library))
      return Error::inFile(Entry.Published,
                           std::string("cannot publish build: ") +
                               std::strerror(errno));
  }
  return Error::success();
}

} // namespace kevin

//===-- PrecompiledHeader.cpp - precompiled headers in the cache ----------===//
//
// A precompiled header lives in <cache>/pch/<hash of its flags>/, beside a
// lock file: the first build that wants it compiles it to a temporary name
// under an flock and renames it into place, so no compile ever includes a
// half-written one.
//
//===----------------------------------------------------------------------===//
#include "PrecompiledHeader.h"
#include "BuildCache.h"
#include "BuildFiles.h"
#include "BuildFlags.h"
#include "CompileStep.h"
#include "TorchHeaders.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Hash.h"

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace kevin {

PchRecipe torchExtensionPch() {
  return {"torch_extension.h", "#include <torch/extension.h>\n", "", {}};
}
PchRecipe minimalBindingPch(const std::string &BindingDir) {
  return {"binding.h",
          "#include <torch/extension.h>\n",
          std::string(MinimalTypesHeader).append(MinimalBindingHeader),
          {"-I", BindingDir}};
}

std::string pchHeaderPath(const std::vector<std::string> &Flags,
                          const TorchToolchain &T, const BuildOptions &Options,
                          const PchRecipe &Recipe) {
  ContentHasher H;
  H.add(BuilderVersion)
      .add("pch")
      .add(Recipe.FileName)
      .add(Recipe.KeyText)
      .add(compilerIdentity(T.Cxx))
      .add(T.TorchVersion);
  for (const std::string &F : Flags)
    if (F.rfind("-DTORCH_EXTENSION_NAME=", 0) != 0)
      H.add(F);
  return Options.CacheDir + "/pch/" + H.finish().substr(0, 32) + "/" +
         Recipe.FileName;
}

std::string precompiledHeader(const std::vector<std::string> &Flags,
                              const TorchToolchain &T,
                              const BuildOptions &Options,
                              const PchRecipe &Recipe, bool Wait) {
  std::string Header = pchHeaderPath(Flags, T, Options, Recipe);
  std::string Dir = Header.substr(0, Header.rfind('/'));
  std::string Gch = Header + ".gch";
  if (fileExists(Gch))
    return Header;
  if (makeDirs(Dir))
    return "";
  int LockFd =
      ::open((Dir + "/lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (LockFd < 0)
    return "";
  if (::flock(LockFd, Wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0) {
    ::close(LockFd);
    return "";
  }
  std::string Result;
  if (fileExists(Gch)) {
    Result = Header;
  } else if (!writeFile(Header, Recipe.Text)) {
    std::string Tmp = Gch + ".tmp." + fs::uniqueTag();
    Step S;
    S.Argv = {T.Cxx};
    S.Argv.insert(S.Argv.end(), Recipe.IncludeFlags.begin(),
                  Recipe.IncludeFlags.end());
    for (const std::string &F : Flags)
      if (F.rfind("-DTORCH_EXTENSION_NAME=", 0) != 0)
        S.Argv.push_back(F);
    S.Argv.insert(S.Argv.end(), {"-x", "c++-header", Header, "-o", Tmp});
    BuildOptions Long = Options;
    Long.TimeoutSeconds = std::max(Options.TimeoutSeconds, 600.0);
    runStep(S, T, Long, Dir);
    if (S.Ok && ::rename(Tmp.c_str(), Gch.c_str()) == 0)
      Result = Header;
    else
      ::unlink(Tmp.c_str());
  }
  ::flock(LockFd, LOCK_UN);
  ::close(LockFd);
  return Result;
}

} // namespace kevin

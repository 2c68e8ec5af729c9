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
          std::string(MinimalTypesHeader)
              .append(MinimalBindingHeader)
              .append(TorchDtypeNamesHeader),
          {"-I", BindingDir}};
}

/// The path of the header in the cache directory of a precompiled header
/// for these flags (its compiled form beside it, once built).
static std::string pchHeaderPath(const std::vector<std::string> &Flags,
                                 const TorchToolchain &T,
                                 const BuildOptions &Options,
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

/// The compiled form of Header: its .gch, or the object of a source.
static std::string compiledForm(const std::string &Header,
                                const PchRecipe &Recipe) {
  return Header + (Recipe.Object ? ".o" : ".gch");
}

std::string cachedPrecompiledHeader(const std::vector<std::string> &Flags,
                                    const TorchToolchain &T,
                                    const BuildOptions &Options,
                                    const PchRecipe &Recipe) {
  std::string Header = pchHeaderPath(Flags, T, Options, Recipe);
  return fileExists(compiledForm(Header, Recipe)) ? Header : "";
}

std::string precompiledHeader(const std::vector<std::string> &Flags,
                              const TorchToolchain &T,
                              const BuildOptions &Options,
                              const PchRecipe &Recipe, bool Wait) {
  std::string Header = pchHeaderPath(Flags, T, Options, Recipe);
  std::string Dir = Header.substr(0, Header.rfind('/'));
  std::string Output = compiledForm(Header, Recipe);
  // A compile that failed fails again: later builds do not wait for it.
  std::string Failed = Output + ".failed";
  if (fileExists(Output))
    return Header;
  if (fileExists(Failed))
    return "";
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
  if (fileExists(Output)) {
    Result = Header;
  } else if (fileExists(Failed)) {
    Result = "";
  } else if (!writeFile(Header, Recipe.Text)) {
    std::string Tmp = Output + ".tmp." + fs::uniqueTag();
    Step S;
    S.Argv = {T.Cxx};
    S.Argv.insert(S.Argv.end(), Recipe.IncludeFlags.begin(),
                  Recipe.IncludeFlags.end());
    for (const std::string &F : Flags)
      if (F.rfind("-DTORCH_EXTENSION_NAME=", 0) != 0)
        S.Argv.push_back(F);
    if (Recipe.Object)
      S.Argv.insert(S.Argv.end(), {"-x", "c++", "-c", Header, "-o", Tmp});
    else
      S.Argv.insert(S.Argv.end(), {"-x", "c++-header", Header, "-o", Tmp});
    BuildOptions Long = Options;
    Long.TimeoutSeconds = std::max(Options.TimeoutSeconds, 600.0);
    runStep(S, T, Long, Dir);
    if (S.Ok && ::rename(Tmp.c_str(), Output.c_str()) == 0) {
      Result = Header;
    } else {
      ::unlink(Tmp.c_str());
      // Only a compiler's own error is remembered (not a process that
      // could not start or was killed); without the marker, the next build
      // only tries again.
      if (S.Exited && !S.Ok)
        static_cast<void>(writeFile(Failed, S.Output));
    }
  }
  ::flock(LockFd, LOCK_UN);
  ::close(LockFd);
  return Result;
}

} // namespace kevin

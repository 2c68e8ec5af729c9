//===-- BuildFlags.cpp - compiler and linker command lines ----------------===//
//
// The flags load_inline's build would use for torch's include and library
// directories, ABI and pybind11 defines, kevin's optimization defaults, and
// the launch gate's link flags for CUDA extensions. The candidate's own extra
// flags are split into words as the shell of torch's ninja build does.
//
//===----------------------------------------------------------------------===//
#include "BuildFlags.h"
#include "kevin/Build/LaunchGate.h"
#include "kevin/Support/ShellWords.h"
#include "kevin/Support/Subprocess.h"

#include <cstdlib>
#include <map>
#include <mutex>

namespace kevin {

namespace {

bool hasOptimizationFlag(const std::vector<std::string> &Flags) {
  for (const std::string &F : Flags)
    if (F.size() >= 2 && F.compare(0, 2, "-O") == 0)
      return true;
  return false;
}

std::vector<std::string> commonFlags(const ExtensionSpec &Spec,
                                     const TorchToolchain &T) {
  std::vector<std::string> Flags = {"-DTORCH_EXTENSION_NAME=" + Spec.Name,
                                    "-DTORCH_API_INCLUDE_EXTENSION_H"};
  Flags.insert(Flags.end(), T.Pybind11Defines.begin(), T.Pybind11Defines.end());
  for (const std::string &Dir : Spec.ExtraIncludePaths)
    Flags.push_back("-I" + Dir);
  for (const std::string &Dir : T.IncludeDirs) {
    Flags.push_back("-isystem");
    Flags.push_back(Dir);
  }
  if (!T.PythonIncludeDir.empty()) {
    Flags.push_back("-isystem");
    Flags.push_back(T.PythonIncludeDir);
  }
  Flags.push_back(std::string("-D_GLIBCXX_USE_CXX11_ABI=") +
                  (T.CxxAbi ? "1" : "0"));
  return Flags;
}

} // namespace

std::string compilerIdentity(const std::string &Compiler) {
  static std::mutex Lock;
  static std::map<std::string, std::string> Known;
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Known.find(Compiler);
  if (It != Known.end())
    return It->second;
  SubprocessOptions Options;
  Options.Argv = {Compiler, "--version"};
  Options.TimeoutSeconds = 30;
  auto R = runSubprocess(Options);
  std::string Id = Compiler + ": ";
  if (R && R->succeeded()) {
    // nvcc prints its release on the last lines; g++ on the first.
    Id += R->Stdout;
  } else {
    Id += "unavailable";
  }
  Known[Compiler] = Id;
  return Id;
}

std::vector<std::string> glueFlags(const std::vector<std::string> &Flags) {
  std::vector<std::string> Glue;
  for (const std::string &F : Flags)
    if (F.compare(0, 2, "-O") != 0)
      Glue.push_back(F);
  Glue.push_back("-O1");
  return Glue;
}

std::vector<std::string> cxxFlags(const ExtensionSpec &Spec,
                                  const TorchToolchain &T) {
  std::vector<std::string> Flags = commonFlags(Spec, T);
  Flags.insert(Flags.end(), {"-fPIC", "-std=c++17"});
  std::vector<std::string> Extra = shellWords(Spec.ExtraCflags);
  if (!hasOptimizationFlag(Extra))
    Flags.push_back("-O3");
  Flags.insert(Flags.end(), Extra.begin(), Extra.end());
  return Flags;
}

std::vector<std::string> nvccFlags(const ExtensionSpec &Spec,
                                   const TorchToolchain &T) {
  std::vector<std::string> Flags = commonFlags(Spec, T);
  std::string Arch = T.CudaArch;
  std::string Compute = "compute_" + Arch.substr(Arch.find('_') + 1);
  Flags.insert(
      Flags.end(),
      {"-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
       "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__",
       "--expt-relaxed-constexpr", "-gencode=arch=" + Compute + ",code=" + Arch,
       "--compiler-options", "-fPIC", "-std=c++17"});
  std::vector<std::string> Extra = shellWords(Spec.ExtraCudaCflags);
  if (!hasOptimizationFlag(Extra))
    Flags.push_back("-O3");
  Flags.insert(Flags.end(), Extra.begin(), Extra.end());
  return Flags;
}

std::vector<std::string> linkFlags(const ExtensionSpec &Spec,
                                   const TorchToolchain &T, bool WithCuda) {
  std::vector<std::string> Flags = {"-shared"};
  // The candidate's launches go through kevin's launch gate (KEVIN-RT-010).
  if (WithCuda) {
    std::vector<std::string> Gate = launchGateLinkFlags();
    Flags.insert(Flags.end(), Gate.begin(), Gate.end());
  }
  Flags.insert(Flags.end(), {"-L" + T.TorchLibDir, "-lc10"});
  if (WithCuda)
    Flags.push_back("-lc10_cuda");
  Flags.insert(Flags.end(), {"-ltorch_cpu"});
  if (WithCuda)
    Flags.push_back("-ltorch_cuda");
  Flags.insert(Flags.end(), {"-ltorch", "-ltorch_python"});
  if (WithCuda) {
    Flags.push_back("-L" + T.CudaHome + "/lib64");
    Flags.push_back("-lcudart");
  }
  std::vector<std::string> Extra = shellWords(Spec.ExtraLdflags);
  Flags.insert(Flags.end(), Extra.begin(), Extra.end());
  return Flags;
}

std::vector<std::string> compilerEnvironment(const TorchToolchain &T) {
  const char *Path = std::getenv("PATH");
  std::string P = Path ? Path : "/usr/bin:/bin";
  if (!T.CudaHome.empty())
    P = T.CudaHome + "/bin:" + P;
  std::vector<std::string> Env = {"PATH=" + P, "LC_ALL=C"};
  if (const char *Tmp = std::getenv("TMPDIR"))
    Env.push_back(std::string("TMPDIR=") + Tmp);
  return Env;
}

} // namespace kevin

//===-- Builder.cpp - compile candidate extensions ------------------------===//
//
// The orchestration of a build: the spec's early checks, the cache lookup,
// and, for a key the cache lacks, the phases of a build in a private
// directory under <cache>/tmp (units and kevin's headers written, compile
// jobs planned and run in parallel, objects checked, the link), published
// to the cache or remembered as failed (BuildCache.h). The precompiled
// header is built once per flag set under an flock (PrecompiledHeader.h).
//
//===----------------------------------------------------------------------===//
#include "kevin/Build/Builder.h"
#include "BuildCache.h"
#include "BuildFiles.h"
#include "BuildFlags.h"
#include "CompileStep.h"
#include "ObjectCheck.h"
#include "PrecompiledHeader.h"
#include "TorchFacade.h"
#include "TorchHeaders.h"
#include "TranslationUnits.h"
#include "kevin/Build/DiagnosticMapper.h"
#include "kevin/Build/FunctionDeclaration.h"
#include "kevin/Build/LaunchGate.h"
#include "kevin/Support/Clock.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace kevin {

namespace {

/// The launch gate's unit and object in a CUDA extension's build directory.
constexpr const char *LaunchGateUnit = "kevin_launch_gate.cpp";
constexpr const char *LaunchGateObject = "kevin_launch_gate.o";
/// The torch facade's support object, linked (or copied) into the build
/// directory from the cache, so that a cache pruned during the build does
/// not fail its link.
constexpr const char *FacadeSupportObject = "kevin_torch_facade_support.o";
/// The facade's Python support object, for a binding the facade compiled.
constexpr const char *FacadePythonObject = "kevin_torch_facade_python.o";

/// Why a spec cannot be built at all, or "": checked before its key.
std::string specProblem(const ExtensionSpec &Spec, const TorchToolchain &T) {
  if (!Spec.CudaSources.empty() && T.Nvcc.empty())
    return "cuda_sources given but nvcc was not found "
           "(set CUDA_HOME or install the CUDA toolkit)";
  for (const auto *Sources : {&Spec.CppSources, &Spec.CudaSources})
    for (const std::string &Source : *Sources)
      if (std::string Name = reservedLaunchGateName(Source); !Name.empty())
        return "'" + Name +
               "' is reserved for kevin's launch gate (KEVIN-RT-010); "
               "a source may not use it";
  return "";
}

/// Compiler output of a build in Dir for the candidate: positions in the
/// MappedUnits placed in the candidate's file, and truncated.
std::string mapCompilerOutput(const std::string &Output, const std::string &Dir,
                              const std::vector<TranslationUnit> &MappedUnits,
                              const ExtensionSpec &Spec,
                              const BuildOptions &Options) {
  std::string Mapped = Output;
  for (const TranslationUnit &U : MappedUnits)
    Mapped = DiagnosticMapper(U, Dir + U.FileName, Spec.OriginPath,
                              Spec.OriginText)
                 .map(Mapped);
  // What is left in the private directory (a unit's own name in notes,
  // the link step) loses the directory.
  for (size_t P; (P = Mapped.find(Dir)) != std::string::npos;)
    Mapped.erase(P, Dir.size());
  return truncateMessage(Mapped, Options.MaxMessageBytes);
}

/// Whether every error of a failed binding-unit compile says that a bound
/// function is not declared, for functions whose names the candidate's C++
/// sources never spell: torch's full header declares none of the
/// candidate's functions, so it would fail the same way, and the message
/// stands without that slow compile.
bool onlyUnwrittenBoundFunctions(const std::string &Output,
                                 const ExtensionSpec &Spec,
                                 const std::string &CandidateCpp) {
  size_t Errors = 0;
  std::istringstream In(Output);
  for (std::string Line; std::getline(In, Line);) {
    if (Line.find("error:") == std::string::npos)
      continue;
    bool Unwritten = false;
    for (const auto &Function : Spec.Functions) {
      const std::string &Name = Function.first;
      // g++ quotes with ' ' in the C locale, with U+2018 U+2019 in others.
      bool Said = false;
      for (const auto &[Open, Close] :
           {std::pair<const char *, const char *>{"'", "'"},
            {"\u2018", "\u2019"}})
        Said |= Line.find(": error: " + (Open + Name + Close) +
                          " was not declared in this scope") !=
                std::string::npos;
      if ((Unwritten =
               Said && findWord(CandidateCpp, Name) == std::string::npos))
        break;
    }
    if (!Unwritten)
      return false;
    ++Errors;
  }
  return Errors > 0;
}

/// Fills Result from the cache when it has the key's library or a
/// remembered failure of it; false when it has neither.
bool lookUpCache(BuildResult &Result, const CacheEntry &Entry,
                 const std::vector<TranslationUnit> &Units,
                 const ExtensionSpec &Spec, const BuildOptions &Options) {
  if (fileExists(Entry.Library)) {
    Result.Ok = true;
    Result.Outcome = "ok";
    Result.CacheHit = true;
    Result.LibraryPath = Entry.Library;
    return true;
  }
  if (std::optional<std::string> Failure = rememberedFailure(Entry)) {
    Result.Outcome = "build-error";
    Result.CacheHit = true;
    Result.Message =
        mapCompilerOutput(*Failure, BuildDirToken, Units, Spec, Options);
    return true;
  }
  return false;
}

/// One build of an extension the cache lacks, in its private directory:
/// the phases of buildExtension after the cache lookup.
class ExtensionBuild {
public:
  ExtensionBuild(const ExtensionSpec &Spec, const TorchToolchain &T,
                 const BuildOptions &Options,
                 std::vector<TranslationUnit> Units, BuildResult Result,
                 SteadyClock::time_point Start)
      : Spec(Spec), T(T), Options(Options), Start(Start),
        Result(std::move(Result)), Units(std::move(Units)),
        MappedUnits(this->Units), WithCuda(!Spec.CudaSources.empty()) {}

  Expected<BuildResult> run(const CacheEntry &Entry);

private:
  Error writeUnits();
  void chooseHeaders();
  void chooseBindingSplit();
  void planCudaTries();
  Error queueJobs();
  void runJobs();
  void collectSteps();
  BuildResult rejectObjects(const std::string &Problem);
  void link();
  BuildResult failed(const CacheEntry &Entry);
  Expected<BuildResult> publish(const CacheEntry &Entry);

  std::vector<std::string> cxxArgv(const TranslationUnit &U,
                                    const std::string &Object,
                                    bool MayMakePch);
  std::vector<std::string> cxxArgvWithHeaders(const std::string &HeaderDir,
                                              const std::string &Source,
                                              const std::string &Object) const;
  std::vector<std::string> facadeCxxArgv(const std::vector<std::string> &Flags,
                                         const std::string &Source,
                                         const std::string &Object,
                                         bool Binding) const;
  bool fitsMinimalSet(const std::string &Text) const;
  std::string placedInBuild(const std::string &Cached, const char *Name) const;
  bool facadeObjectLinks(const Step &S, const std::string &Object);
  bool facadeBindingLinks();
  void compileCuda(size_t I);
  void compileCxx(size_t I, bool TryMinimal);
  void endSplitJob();

  const ExtensionSpec &Spec;
  const TorchToolchain &T;
  const BuildOptions &Options;
  SteadyClock::time_point Start;
  BuildResult Result;
  std::vector<TranslationUnit> Units;
  /// The units whose diagnostics map to the candidate's lines (the split
  /// candidate unit joins them).
  std::vector<TranslationUnit> MappedUnits;
  bool WithCuda;
  /// The private directory, ending in '/'.
  std::string Dir;
  std::vector<std::string> Cxx, Glue;
  /// The candidate's C++ sources as the binding unit joins them.
  std::string CandidateCpp;
  /// The binding unit's index (Units.size() when there is none).
  size_t MainIndex = 0;
  /// kevin's header directories (empty when not written).
  std::string MinimalDir, LeanDir, BindingDir, FacadeDir;
  /// The torch facade's support object, once a unit compiled with the
  /// facade asked for it (empty when it cannot be had).
  std::string FacadeSupport;
  std::once_flag FacadeSupportOnce;
  /// Whether the split binding is compiled with the facade, and its Python
  /// support object once the split's objects are in (empty when it cannot
  /// be had).
  bool FacadeBinding = false;
  std::string FacadePythonSupport;
  /// The minimal binding set's precompiled header, when the cache has it;
  /// else whether this build makes it.
  std::string BindingPch;
  bool BuildBindingPch = false;
  std::optional<BindingSplitUnits> Split;
  /// torch/extension.h's precompiled header, once the first unit wanting it
  /// asked for it.
  std::string Pch;
  std::once_flag PchOnce;
  std::vector<Step> Steps;
  std::vector<std::string> Objects;
  Step SplitCandidate, SplitBinding, Gate;
  std::atomic<int> SplitLeft{2};
  bool SplitOk = false;
  std::vector<std::function<void()>> Jobs;
  /// What the compiles and the link printed, and how they ended.
  std::string Output;
  bool Ok = true, TimedOut = false;
};

Expected<BuildResult> ExtensionBuild::run(const CacheEntry &Entry) {
  if (Error E = writeUnits())
    return E;
  Cxx = cxxFlags(Spec, T);
  Glue = glueFlags(Cxx);
  chooseHeaders();
  chooseBindingSplit();
  planCudaTries();
  if (Error E = queueJobs())
    return E;
  runJobs();
  collectSteps();
  if (Ok) {
    std::vector<std::string> Candidate;
    for (const std::string &Object : Objects)
      if (Object != LaunchGateObject)
        Candidate.push_back(Object);
    if (std::string Problem = objectsProblem(Candidate, Dir, T, Options);
        !Problem.empty())
      return rejectObjects(Problem);
    link();
  }
  Result.Seconds = secondsSince(Start);
  if (!Ok)
    return failed(Entry);
  return publish(Entry);
}

/// The private directory and the units in it.
Error ExtensionBuild::writeUnits() {
  Dir = privateBuildDir(Options.CacheDir, Result.Key);
  if (Error E = makeDirs(Dir))
    return E;
  for (const TranslationUnit &U : Units)
    if (Error E = writeFile(Dir + U.FileName, U.Text))
      return E;
  return Error::success();
}

/// The binding unit is first compiled with kevin's minimal header set when
/// the candidate's part of it fits (the binding itself is kevin's text);
/// if that fails, with torch's header and its precompiled header.
bool ExtensionBuild::fitsMinimalSet(const std::string &Text) const {
  return fitsMinimalTorchHeader(Text) &&
         !declaresAtenOpName(Text, T.IncludeDirs);
}

/// kevin's header directories for the CUDA units and the binding unit.
void ExtensionBuild::chooseHeaders() {
  for (const std::string &Src : Spec.CppSources)
    CandidateCpp += Src + "\n";
  MainIndex = Units.size();
  for (size_t I = 0; I < Units.size(); ++I)
    if (Units[I].StartsWithExtensionHeader)
      MainIndex = I;
  bool MinimalBinding =
      MainIndex < Units.size() && fitsMinimalSet(CandidateCpp);
  for (const TranslationUnit &U : Units) {
    if (U.IsCuda && LeanDir.empty()) {
      MinimalDir = writeHeaderDir(Dir + "kevin-include/minimal",
                                  HeaderSet::Minimal);
      LeanDir = writeHeaderDir(Dir + "kevin-include/lean", HeaderSet::Lean);
    }
    if (U.IsCuda && FacadeDir.empty() &&
        fitsTorchFacade(U.Text, T.IncludeDirs))
      FacadeDir =
          writeHeaderDir(Dir + "kevin-include/facade", HeaderSet::Facade);
  }
  if (MinimalBinding)
    BindingDir = writeHeaderDir(Dir + "kevin-include/binding",
                                HeaderSet::MinimalBinding);
}

/// In a CUDA extension whose units may take the facade, a binding unit
/// whose candidate's part fits it too, and whose bound functions the
/// facade's binding can convert, is split in two and both halves are
/// compiled with the facade: no torch header at all, and no precompiled
/// header needed. Otherwise, with the precompiled header of the minimal
/// binding set in the cache, the binding unit is split in two, compiled
/// side by side with kevin's minimal sets. Without it, the split would gain
/// nothing (kevin's binding alone takes about as long as the whole unit):
/// the unit is compiled whole, and one build makes the header beside its
/// own compiles (one job beyond Options.Jobs; that build ends when the
/// header is made). No other build waits for it.
void ExtensionBuild::chooseBindingSplit() {
  if (BindingDir.empty() || Spec.Functions.empty())
    return;
  if (!FacadeDir.empty() && fitsTorchFacade(CandidateCpp, T.IncludeDirs)) {
    Split = splitBinding(Spec, Units[MainIndex], CandidateCpp);
    FacadeBinding = Split && std::all_of(Split->Prototypes.begin(),
                                         Split->Prototypes.end(),
                                         bindsThroughTorchFacade);
  }
  if (!FacadeBinding) {
    Split.reset();
    if (Options.UsePrecompiledHeader) {
      BindingPch = cachedPrecompiledHeader(Glue, T, Options,
                                           minimalBindingPch(BindingDir));
      BuildBindingPch = BindingPch.empty();
      if (!BuildBindingPch)
        Split = splitBinding(Spec, Units[MainIndex], CandidateCpp);
    }
  }
  if (Split && !FacadeBinding && MinimalDir.empty())
    MinimalDir =
        writeHeaderDir(Dir + "kevin-include/minimal", HeaderSet::Minimal);
  if (Split &&
      ((!FacadeBinding && MinimalDir.empty()) ||
       writeFile(Dir + Split->Candidate.FileName, Split->Candidate.Text) ||
       writeFile(Dir + "binding.cpp", Split->BindingText))) {
    Split.reset();
    FacadeBinding = false;
  }
  if (Split)
    MappedUnits.push_back(Split->Candidate);
}

/// The precompiled header of torch/extension.h is built (once per cache,
/// when missing) by the first unit that wants it, while nvcc already runs
/// on the CUDA units. A unit that failed with kevin's binding set (most
/// likely an error of its own, compiled again for torch's message) uses it
/// only when the cache has it: it does not wait for it to be made.
std::vector<std::string> ExtensionBuild::cxxArgv(const TranslationUnit &U,
                                                 const std::string &Object,
                                                 bool MayMakePch) {
  std::vector<std::string> Argv = {T.Cxx};
  Argv.insert(Argv.end(), Cxx.begin(), Cxx.end());
  if (Options.UsePrecompiledHeader && U.StartsWithExtensionHeader) {
    std::call_once(PchOnce, [&] {
      Pch = MayMakePch ? precompiledHeader(Cxx, T, Options,
                                           torchExtensionPch(), true)
                       : cachedPrecompiledHeader(Cxx, T, Options,
                                                 torchExtensionPch());
    });
    if (!Pch.empty())
      Argv.insert(Argv.end(), {"-include", Pch, "-Winvalid-pch"});
  }
  Argv.insert(Argv.end(), {"-c", Dir + U.FileName, "-o", Object});
  return Argv;
}

/// g++ with a header directory put before torch's.
std::vector<std::string>
ExtensionBuild::cxxArgvWithHeaders(const std::string &HeaderDir,
                                   const std::string &Source,
                                   const std::string &Object) const {
  std::vector<std::string> Argv = {T.Cxx, "-I", HeaderDir};
  Argv.insert(Argv.end(), Cxx.begin(), Cxx.end());
  Argv.insert(Argv.end(), {"-c", Dir + Source, "-o", Object});
  return Argv;
}

/// g++ on a half of the split binding with the facade (Binding: kevin's
/// half, with the facade's binding header and the binding's flags).
std::vector<std::string>
ExtensionBuild::facadeCxxArgv(const std::vector<std::string> &Flags,
                              const std::string &Source,
                              const std::string &Object, bool Binding) const {
  std::vector<std::string> Argv = {T.Cxx, "-I", FacadeDir};
  for (const std::string &D : torchFacadeDefines(CandidateCpp))
    Argv.push_back(D);
  if (!T.CudaHome.empty())
    Argv.insert(Argv.end(), {"-isystem", T.CudaHome + "/include"});
  Argv.insert(Argv.end(), Flags.begin(), Flags.end());
  if (Binding)
    Argv.insert(Argv.end(),
                {"-include", FacadeDir + "/kevin_torch_facade_binding.h"});
  Argv.insert(Argv.end(), {"-c", Dir + Source, "-o", Object});
  return Argv;
}

/// Each unit's object, and each CUDA unit's commands (a C++ unit's command
/// line waits for the precompiled header).
void ExtensionBuild::planCudaTries() {
  Steps.resize(Units.size());
  for (size_t I = 0; I < Units.size(); ++I) {
    const TranslationUnit &U = Units[I];
    std::string Object = U.FileName + (U.IsCuda ? ".cuda.o" : ".o");
    Objects.push_back(Object);
    if (!U.IsCuda)
      continue;
    std::vector<std::string> Full = {T.Nvcc, "-c", Dir + U.FileName, "-o",
                                     Object};
    for (const std::string &F : nvccFlags(Spec, T))
      Full.push_back(F);
    // Narrowest header first; -I comes before every -isystem directory and
    // the candidate's -I.
    auto withHeader = [&](TorchHeader H, const std::string &HeaderDir) {
      if (HeaderDir.empty())
        return;
      std::vector<std::string> Argv = Full;
      Argv.insert(Argv.begin() + 5, {"-I", HeaderDir});
      Steps[I].Tries.push_back({H, Argv});
    };
    if (!FacadeDir.empty() && fitsTorchFacade(U.Text, T.IncludeDirs)) {
      withHeader(TorchHeader::Facade, FacadeDir);
      std::vector<std::string> &Facade = Steps[I].Tries.back().second;
      for (const std::string &D : torchFacadeDefines(U.Text))
        Facade.insert(Facade.begin() + 5, D);
    }
    // A unit that fails with the minimal set most likely has an error of
    // its own: it goes straight to torch's headers for the message.
    if (fitsMinimalSet(U.Text) && !MinimalDir.empty())
      withHeader(TorchHeader::Minimal, MinimalDir);
    else
      withHeader(TorchHeader::Lean, LeanDir);
    Steps[I].Tries.push_back({TorchHeader::Full, Full});
  }
}

/// Name, once the cache's object Cached is linked (or copied) into the
/// build directory under it; empty when Cached is, or cannot be placed.
std::string ExtensionBuild::placedInBuild(const std::string &Cached,
                                          const char *Name) const {
  std::error_code Ignored;
  if (!Cached.empty() &&
      (::link(Cached.c_str(), (Dir + Name).c_str()) == 0 ||
       std::filesystem::copy_file(Cached, Dir + Name, Ignored)))
    return Name;
  return "";
}

/// Whether an object the facade compiled may be linked: nothing in it
/// reaches torch through the facade's types, and the support object is
/// there (the first unit to ask waits for its compile).
bool ExtensionBuild::facadeObjectLinks(const Step &S,
                                       const std::string &Object) {
  if (!S.Ok || !torchFacadeObjectProblem(Object, Dir, T, Options).empty())
    return false;
  std::call_once(FacadeSupportOnce, [&] {
    FacadeSupport =
        placedInBuild(torchFacadeSupport(T, Options), FacadeSupportObject);
  });
  return !FacadeSupport.empty();
}

/// Whether the split binding the facade compiled may be linked: both its
/// objects may (facadeObjectLinks), and the Python support object is there
/// (waiting for its compile).
bool ExtensionBuild::facadeBindingLinks() {
  if (!facadeObjectLinks(SplitCandidate, "candidate.o") ||
      !facadeObjectLinks(SplitBinding, "binding.o"))
    return false;
  FacadePythonSupport =
      placedInBuild(torchFacadePythonSupport(T, Options), FacadePythonObject);
  return !FacadePythonSupport.empty();
}

/// A CUDA unit: its commands in turn, until one builds or times out. An
/// object of the facade that cannot be linked is compiled again with the
/// next header set.
void ExtensionBuild::compileCuda(size_t I) {
  Step &S = Steps[I];
  for (const auto &[Header, Argv] : S.Tries) {
    S.Header = Header;
    S.Argv = Argv;
    runStep(S, T, Options, Dir);
    if (S.TimedOut)
      break;
    if (Header == TorchHeader::Facade && S.Ok &&
        !facadeObjectLinks(S, Objects[I]))
      S.Ok = false;
    if (S.Ok)
      break;
  }
}

/// A C++ unit: the binding unit first with kevin's minimal binding set
/// (when TryMinimal), then with torch's header, unless the first compile
/// failed only for bound functions the candidate never wrote.
void ExtensionBuild::compileCxx(size_t I, bool TryMinimal) {
  Step &S = Steps[I];
  if (TryMinimal) {
    S.Header = TorchHeader::Minimal;
    S.Argv = cxxArgvWithHeaders(BindingDir, Units[I].FileName, Objects[I]);
    runStep(S, T, Options, Dir);
    if (S.Ok || S.TimedOut ||
        onlyUnwrittenBoundFunctions(S.Output, Spec, CandidateCpp))
      return;
  }
  if (Units[I].StartsWithExtensionHeader)
    S.Header = TorchHeader::Full;
  S.Argv = cxxArgv(Units[I], Objects[I], !TryMinimal);
  runStep(S, T, Options, Dir);
}

/// The split binding: the candidate's code and the binding unit, side by
/// side, with the facade or with kevin's minimal torch/types.h and binding
/// set. The job that ends last decides; when either failed (or the
/// facade's objects cannot be linked), the binding unit is compiled whole,
/// with kevin's binding set first (which has more than the minimal
/// torch/types.h: code that fails with the one may build with the other).
void ExtensionBuild::endSplitJob() {
  if (--SplitLeft != 0)
    return;
  Step &S = Steps[MainIndex];
  if (SplitCandidate.Ok && SplitBinding.Ok &&
      (!FacadeBinding || facadeBindingLinks())) {
    SplitOk = true;
    S.Ok = true;
    S.Header = FacadeBinding ? TorchHeader::Facade : TorchHeader::Minimal;
    S.Output = SplitCandidate.Output + SplitBinding.Output;
    return;
  }
  if (SplitCandidate.TimedOut || SplitBinding.TimedOut) {
    S = SplitCandidate.TimedOut ? SplitCandidate : SplitBinding;
    S.Header = FacadeBinding ? TorchHeader::Facade : TorchHeader::Minimal;
    return;
  }
  FacadeBinding = false;
  compileCxx(MainIndex, true);
}

/// The compile jobs, in the order they start: the slow CUDA units first,
/// the split binding's halves, the other C++ units, the launch gate.
Error ExtensionBuild::queueJobs() {
  for (size_t I = 0; I < Units.size(); ++I)
    if (Units[I].IsCuda)
      Jobs.push_back([this, I] { compileCuda(I); });
  if (Split) {
    Jobs.push_back([this] {
      if (FacadeBinding) {
        SplitBinding.Argv =
            facadeCxxArgv(Glue, "binding.cpp", "binding.o", true);
      } else {
        SplitBinding.Argv = {T.Cxx, "-I", BindingDir};
        SplitBinding.Argv.insert(SplitBinding.Argv.end(), Glue.begin(),
                                 Glue.end());
        SplitBinding.Argv.insert(SplitBinding.Argv.end(),
                                 {"-include", BindingPch, "-Winvalid-pch"});
        SplitBinding.Argv.insert(
            SplitBinding.Argv.end(),
            {"-c", Dir + "binding.cpp", "-o", "binding.o"});
      }
      runStep(SplitBinding, T, Options, Dir);
      endSplitJob();
    });
    Jobs.push_back([this] {
      SplitCandidate.Argv =
          FacadeBinding
              ? facadeCxxArgv(Cxx, Split->Candidate.FileName, "candidate.o",
                              false)
              : cxxArgvWithHeaders(MinimalDir, Split->Candidate.FileName,
                                   "candidate.o");
      runStep(SplitCandidate, T, Options, Dir);
      endSplitJob();
    });
  }
  for (size_t I = 0; I < Units.size(); ++I)
    if (!Units[I].IsCuda && !(Split && I == MainIndex))
      Jobs.push_back(
          [this, I] { compileCxx(I, I == MainIndex && !BindingDir.empty()); });
  // kevin's launch gate, linked into every CUDA extension (KEVIN-RT-010).
  if (WithCuda) {
    if (Error E = writeFile(Dir + LaunchGateUnit, launchGateSource()))
      return E;
    Jobs.push_back([this] {
      Gate.Argv = {T.Cxx, "-fPIC",         "-O2", "-c", Dir + LaunchGateUnit,
                   "-o",  LaunchGateObject};
      runStep(Gate, T, Options, Dir);
    });
  }
  return Error::success();
}

/// Compile, at most Options.Jobs at a time, in the jobs' order; the binding
/// set's precompiled header and the facade's support object (for a build
/// whose CUDA units may link it, so that the first builds of a cache do not
/// wait for it after their own compiles) on threads of their own, unless
/// another build is making them.
void ExtensionBuild::runJobs() {
  std::thread PchThread, SupportThread, PythonSupportThread;
  if (FacadeBinding)
    PythonSupportThread = std::thread(
        [this] { torchFacadePythonSupport(T, Options, false); });
  if (BuildBindingPch)
    PchThread = std::thread([this] {
      precompiledHeader(Glue, T, Options, minimalBindingPch(BindingDir), false);
    });
  if (!FacadeDir.empty())
    SupportThread =
        std::thread([this] { torchFacadeSupport(T, Options, false); });
  std::vector<std::thread> Threads;
  std::atomic<size_t> Next{0};
  unsigned Workers =
      std::max(1u, std::min<unsigned>(Options.Jobs, Jobs.size()));
  for (unsigned W = 0; W < Workers; ++W)
    Threads.emplace_back([&] {
      for (size_t N; (N = Next++) < Jobs.size();)
        Jobs[N]();
    });
  for (std::thread &Th : Threads)
    Th.join();
  for (std::thread *Th : {&PchThread, &SupportThread, &PythonSupportThread})
    if (Th->joinable())
      Th->join();
}

/// The objects to link, the headers used, and what the compiles printed.
void ExtensionBuild::collectSteps() {
  Result.PrecompiledHeaderUsed = !Pch.empty() || (SplitOk && !FacadeBinding);
  Result.BindingSplit = SplitOk;
  if (SplitOk) {
    Objects[MainIndex] = "candidate.o";
    Objects.push_back("binding.o");
  }
  if (WithCuda)
    Objects.push_back(LaunchGateObject);
  for (size_t I = 0; I < Steps.size(); ++I) {
    const Step &S = Steps[I];
    TorchHeader &Used =
        Units[I].IsCuda ? Result.CudaHeaderUsed : Result.BindingHeaderUsed;
    Used = std::max(Used, S.Header);
    Output += S.Output;
    Ok &= S.Ok;
    TimedOut |= S.TimedOut;
  }
  if (WithCuda) {
    Output += Gate.Output;
    Ok &= Gate.Ok;
    TimedOut |= Gate.TimedOut;
  }
}

/// A build whose objects cannot be used (ObjectCheck.h): an error of the
/// build, not remembered in the cache.
BuildResult ExtensionBuild::rejectObjects(const std::string &Problem) {
  Result.Outcome = "build-error";
  Result.Message = (Spec.OriginPath.empty() ? Spec.Name : Spec.OriginPath) +
                   ": error: the compiled sources cannot be used: " + Problem;
  Result.Seconds = secondsSince(Start);
  removeTree(Dir);
  return Result;
}

void ExtensionBuild::link() {
  Step Link;
  Link.Argv = {T.Cxx};
  Link.Argv.insert(Link.Argv.end(), Objects.begin(), Objects.end());
  if (std::any_of(Steps.begin(), Steps.end(), [](const Step &S) {
        return S.Header == TorchHeader::Facade;
      }))
    Link.Argv.push_back(FacadeSupport);
  if (SplitOk && FacadeBinding)
    Link.Argv.push_back(FacadePythonSupport);
  for (const std::string &F : linkFlags(Spec, T, WithCuda))
    Link.Argv.push_back(F);
  Link.Argv.insert(Link.Argv.end(), {"-o", Spec.Name + ".so"});
  runStep(Link, T, Options, Dir);
  Output += Link.Output;
  Ok = Link.Ok;
  TimedOut |= Link.TimedOut;
}

BuildResult ExtensionBuild::failed(const CacheEntry &Entry) {
  Result.Outcome = TimedOut ? "timeout" : "build-error";
  Result.Message = mapCompilerOutput(Output, Dir, MappedUnits, Spec, Options);
  if (!TimedOut)
    rememberFailure(Options.CacheDir, Entry, Output, Dir);
  removeTree(Dir);
  return Result;
}

/// Keeps only the library, and publishes the directory atomically.
Expected<BuildResult> ExtensionBuild::publish(const CacheEntry &Entry) {
  removeTree(Dir + "kevin-include");
  for (const TranslationUnit &U : Units)
    ::unlink((Dir + U.FileName).c_str());
  for (const std::string &O : Objects)
    ::unlink((Dir + O).c_str());
  ::unlink((Dir + LaunchGateUnit).c_str());
  ::unlink((Dir + FacadeSupportObject).c_str());
  ::unlink((Dir + FacadePythonObject).c_str());
  if (Split) {
    ::unlink((Dir + Split->Candidate.FileName).c_str());
    ::unlink((Dir + "binding.cpp").c_str());
    for (const char *Object : {"main.cpp.o", "candidate.o", "binding.o"})
      ::unlink((Dir + Object).c_str());
  }
  if (Error E = publishBuild(Options.CacheDir, Entry, Dir))
    return E;
  Result.Ok = true;
  Result.Outcome = "ok";
  Result.LibraryPath = Entry.Library;
  Result.Seconds = secondsSince(Start);
  return Result;
}

} // namespace

bool prepareSharedBuildObjects(const TorchToolchain &T,
                               const BuildOptions &Options) {
  if (T.Nvcc.empty())
    return true;
  std::future<std::string> Python = std::async(
      std::launch::async, [&] { return torchFacadePythonSupport(T, Options); });
  bool Made = !torchFacadeSupport(T, Options).empty();
  return !Python.get().empty() && Made;
}

Expected<BuildResult> buildExtension(const ExtensionSpec &Spec,
                                     const TorchToolchain &T,
                                     const BuildOptions &Options) {
  auto Start = SteadyClock::now();
  BuildResult Result;
  if (std::string Problem = specProblem(Spec, T); !Problem.empty()) {
    Result.Outcome = "build-error";
    Result.Message = Problem;
    Result.Seconds = secondsSince(Start);
    return Result;
  }
  std::string Identity = compilerIdentity(T.Cxx);
  if (!Spec.CudaSources.empty())
    Identity += compilerIdentity(T.Nvcc);
  Result.Key = computeBuildKey(Spec, T, Identity);
  CacheEntry Entry = cacheEntry(Options.CacheDir, Result.Key, Spec.Name);
  std::vector<TranslationUnit> Units = writeTranslationUnits(Spec);
  if (lookUpCache(Result, Entry, Units, Spec, Options)) {
    Result.Seconds = secondsSince(Start);
    return Result;
  }
  return ExtensionBuild(Spec, T, Options, std::move(Units), std::move(Result),
                        Start)
      .run(Entry);
}

} // namespace kevin

//===-- Builder.cpp - compile candidate extensions ------------------------===//
//
// Units are written into a private directory under <cache>/tmp, compiled
// there, and the finished directory is renamed to <cache>/ext/<key>: rename
// is atomic, so concurrent builders of the same key never see a half-written
// extension (the loser of the race discards its copy). Failed builds are
// remembered under <cache>/fail/<key>, so a GPU stage does not recompile
// what a CPU pool already found broken. The precompiled header is built once
// per flag set under an flock.
//
//===----------------------------------------------------------------------===//
#include "kevin/Build/Builder.h"
#include "kevin/Build/DiagnosticMapper.h"
#include "kevin/Build/FunctionDeclaration.h"
#include "kevin/Build/LaunchGate.h"
#include "kevin/Support/Hash.h"
#include "kevin/Support/Subprocess.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace kevin {

namespace {

/// A name part no other process or thread picks: candidate workers run in
/// PID namespaces of their own, where every one of them is process 2, so a
/// process id alone would collide in the shared cache.
std::string uniqueTag() {
  static std::mutex Lock;
  static std::random_device Entropy;
  std::lock_guard<std::mutex> Hold(Lock);
  char Text[17];
  std::snprintf(Text, sizeof(Text), "%08x%08x", Entropy(), Entropy());
  return Text;
}

using Clock = std::chrono::steady_clock;

/// Bumped when the unit layout or the flags kevin adds change.
constexpr const char *BuilderVersion = "kevin-build-8";
/// The launch gate's unit and object in a CUDA extension's build directory.
constexpr const char *LaunchGateUnit = "kevin_launch_gate.cpp";
constexpr const char *LaunchGateObject = "kevin_launch_gate.o";
/// Stands for the private build directory in remembered failures.
constexpr const char *BuildDirToken = "@KEVIN_BUILD_DIR@/";

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

bool fileExists(const std::string &Path) {
  struct stat St;
  return ::stat(Path.c_str(), &St) == 0;
}

Error makeDirs(const std::string &Path) {
  std::string Partial;
  std::istringstream In(Path);
  std::string Part;
  if (!Path.empty() && Path[0] == '/')
    Partial = "/";
  while (std::getline(In, Part, '/')) {
    if (Part.empty())
      continue;
    Partial += Part + "/";
    if (::mkdir(Partial.c_str(), 0755) != 0 && errno != EEXIST)
      return Error::inFile(Partial, std::string("cannot create directory: ") +
                                        std::strerror(errno));
  }
  return Error::success();
}

Error writeFile(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path, std::ios::binary);
  Out << Text;
  Out.close();
  if (!Out)
    return Error::inFile(Path, "cannot write file");
  return Error::success();
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Whether the file at Path starts as an ELF object does.
bool isElfFile(const std::string &Path) {
  char Magic[4] = {};
  std::ifstream(Path, std::ios::binary).read(Magic, sizeof(Magic));
  return std::string(Magic, sizeof(Magic)) == std::string("\x7f") + "ELF";
}

void removeTree(const std::string &Path) {
  SubprocessOptions Rm;
  Rm.Argv = {"rm", "-rf", Path};
  Rm.Environment = std::vector<std::string>{"PATH=/usr/bin:/bin"};
  (void)runSubprocess(Rm);
}

bool hasOptimizationFlag(const std::vector<std::string> &Flags) {
  for (const std::string &F : Flags)
    if (F.size() >= 2 && F.compare(0, 2, "-O") == 0)
      return true;
  return false;
}

/// The flags of kevin's split binding unit (pybind11 glue only): the
/// candidate's, at -O1. The glue then compiles in 5.7 s instead of 8.3 s
/// (g++ 12, torch 1.13, a precompiled header each), and a call through it
/// costs the same (1.17 against 1.17-1.21 us for a ReLU on one element;
/// -O0 costs 2.5 us).
std::vector<std::string> glueFlags(const std::vector<std::string> &Flags) {
  std::vector<std::string> Glue;
  for (const std::string &F : Flags)
    if (F.compare(0, 2, "-O") != 0)
      Glue.push_back(F);
  Glue.push_back("-O1");
  return Glue;
}

/// The identity of a compiler: its path and the first line of --version.
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

std::vector<std::string> cxxFlags(const ExtensionSpec &Spec,
                                  const TorchToolchain &T) {
  std::vector<std::string> Flags = commonFlags(Spec, T);
  Flags.insert(Flags.end(), {"-fPIC", "-std=c++17"});
  if (!hasOptimizationFlag(Spec.ExtraCflags))
    Flags.push_back("-O3");
  Flags.insert(Flags.end(), Spec.ExtraCflags.begin(), Spec.ExtraCflags.end());
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
  if (!hasOptimizationFlag(Spec.ExtraCudaCflags))
    Flags.push_back("-O3");
  Flags.insert(Flags.end(), Spec.ExtraCudaCflags.begin(),
               Spec.ExtraCudaCflags.end());
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
  Flags.insert(Flags.end(), Spec.ExtraLdflags.begin(), Spec.ExtraLdflags.end());
  return Flags;
}

/// The environment of compiler processes: the caller's PATH and nothing of
/// the candidate's making.
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
};

void runStep(Step &S, const TorchToolchain &T, const BuildOptions &Options,
             const std::string &Dir) {
  SubprocessOptions Run;
  Run.Argv = S.Argv;
  Run.Environment = compilerEnvironment(T);
  Run.WorkingDirectory = Dir;
  Run.TimeoutSeconds = Options.TimeoutSeconds;
  Run.MaxCaptureBytes = 256 * 1024;
  auto R = runSubprocess(Run);
  if (!R) {
    S.Output = R.error().message() + "\n";
    return;
  }
  S.Ok = R->succeeded();
  S.TimedOut = R->TimedOut;
  S.Output = R->Stdout + R->Stderr;
  if (R->TimedOut)
    S.Output += S.Argv[0] + " " + R->describe() + "\n";
  else if (!S.Ok && S.Output.empty())
    S.Output = S.Argv[0] + " " + R->describe() + "\n";
}

/// kevin's torch/extension.h headers for CUDA units, tried narrowest first.
/// nvcc parses every header twice (cudafe++ for the device, the host
/// compiler after it), and the real header is most of a cold CUDA build. A
/// unit that fails with one is compiled again with the next, the last time
/// with the real header, so no candidate ever sees an error a kevin header
/// caused.
///
/// The minimal header, in place of torch/types.h: the tensor class, the
/// factories that kernels' host code calls, dispatch macros and checks, and
/// torch:: names for them (as torch/types.h gives them). It halves the lean
/// header's compile.
constexpr const char *MinimalTypesHeader =
    R"(// kevin's minimal torch/types.h for CUDA units (lib/Build/Builder.cpp)
#pragma once
#include <ATen/Config.h>
#if __has_include(<torch/version.h>)
#include <torch/version.h>
#endif
#include <ATen/core/Tensor.h>
#include <ATen/Dispatch.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/empty_strided.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/full.h>
#include <ATen/ops/full_like.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/Exception.h>
#if __has_include(<c10/util/Optional.h>)
#include <c10/util/Optional.h>
#else
#include <optional>
#endif
namespace torch {
using namespace at;
#if __has_include(<c10/util/Optional.h>)
using c10::nullopt;
using c10::optional;
#else
using std::nullopt;
using std::optional;
#endif
using Dtype = at::ScalarType;
constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;
constexpr auto kU8 = kUInt8;
constexpr auto kI8 = kInt8;
constexpr auto kI16 = kInt16;
constexpr auto kI32 = kInt32;
constexpr auto kI64 = kInt64;
constexpr auto kF16 = kFloat16;
constexpr auto kF32 = kFloat32;
constexpr auto kF64 = kFloat64;
} // namespace torch
)";

/// What a unit may call as torch::f( or at::f( to be compiled with the
/// minimal header: its factories, and types and option helpers it has.
const std::set<std::string> MinimalHeaderCallables = {
    "arange",     "empty",     "empty_like",    "empty_strided", "from_blob",
    "full",       "full_like", "ones",          "ones_like",     "zeros",
    "zeros_like", "Tensor",    "TensorOptions", "Device",        "dtype",
    "device",     "Scalar",    "IntArrayRef"};

/// The lean header: the tensor API without pybind11 and torch's C++
/// frontend (a ReLU unit: 76 s with the real header, 37 s with this one).
constexpr const char *LeanExtensionHeader =
    "// kevin's lean torch/extension.h for CUDA units (lib/Build/Builder.cpp)\n"
    "#pragma once\n"
    "#include <torch/types.h>\n";

/// The binding unit's torch/extension.h: the minimal torch/types.h and what
/// torch/python.h includes (pybind11 and torch's type casters for it),
/// without the C++ frontend (nn, optim, data) that torch/all.h adds. A ReLU
/// binding unit (g++ -O3, torch 1.13): 27.0 s with torch's header, 10.9 s
/// with this one, and no precompiled header to build or wait for.
constexpr const char *MinimalBindingHeader =
    "// kevin's minimal torch/extension.h for binding units "
    "(lib/Build/Builder.cpp)\n"
    "#pragma once\n"
    "#include <torch/types.h>\n"
    "#include <torch/csrc/Device.h>\n"
    "#include <torch/csrc/Dtype.h>\n"
    "#include <torch/csrc/DynamicTypes.h>\n"
    "#include <torch/csrc/Exceptions.h>\n"
    "#include <torch/csrc/autograd/python_variable.h>\n"
    "#include <torch/csrc/python_headers.h>\n"
    "#include <torch/csrc/utils/pybind.h>\n"
    "#include <torch/csrc/utils/python_numbers.h>\n"
    "#include <torch/csrc/utils/python_tuples.h>\n";


/// The first character at or after At that is not white space.
size_t skipSpace(const std::string &Text, size_t At) {
  while (At < Text.size() && std::isspace(static_cast<unsigned char>(Text[At])))
    ++At;
  return At;
}

} // namespace

std::set<std::string> declaredFunctionNames(const std::string &Text) {
  static const std::set<std::string> NotTypes = {
      "return", "else",   "case",   "throw",    "new",     "delete",
      "sizeof", "typeid", "decltype", "alignof", "co_return", "co_yield"};
  std::set<std::string> Names;
  std::string LastWord; // The word before the current one, if nothing else.
  size_t LastPunct = std::string::npos; // The last non-space, non-word one.
  bool WordLast = false;
  for (size_t At = 0; At < Text.size();) {
    char C = Text[At];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++At;
      continue;
    }
    // Comments and string literals are skipped whole.
    if (Text.compare(At, 2, "//") == 0) {
      At = std::min(Text.find('\n', At), Text.size());
      continue;
    }
    if (Text.compare(At, 2, "/*") == 0) {
      size_t Close = Text.find("*/", At + 2);
      At = Close == std::string::npos ? Text.size() : Close + 2;
      continue;
    }
    if (C == '"') {
      for (++At; At < Text.size() && Text[At] != '"'; ++At)
        if (Text[At] == '\\')
          ++At;
      LastPunct = At++;
      WordLast = false;
      continue;
    }
    if (!isWordChar(C)) {
      LastPunct = At;
      WordLast = false;
      ++At;
      continue;
    }
    size_t End = wordEnd(Text, At);
    std::string Word = Text.substr(At, End - At);
    size_t Next = skipSpace(Text, End);
    // `Tensor& f(`, `std::vector<Tensor> f(`, `float* f(`; not `p->f(`.
    char Punct = LastPunct == std::string::npos ? 0 : Text[LastPunct];
    bool Arrow = Punct == '>' && LastPunct > 0 && Text[LastPunct - 1] == '-';
    bool AfterType =
        (WordLast && !NotTypes.count(LastWord)) ||
        (!WordLast && !Arrow && (Punct == '>' || Punct == '*' || Punct == '&'));
    bool Qualified = At >= 1 && (Text[At - 1] == '.' || Text[At - 1] == ':');
    if (Next < Text.size() && Text[Next] == '(' && AfterType && !Qualified &&
        !std::isdigit(static_cast<unsigned char>(Word[0])))
      Names.insert(Word);
    LastWord = Word;
    WordLast = true;
    At = End;
  }
  return Names;
}

bool declaresAtenOpName(const std::string &Text,
                        const std::vector<std::string> &IncludeDirs) {
  for (const std::string &Name : declaredFunctionNames(Text))
    for (const std::string &Dir : IncludeDirs)
      if (!MinimalHeaderCallables.count(Name) &&
          fileExists(Dir + "/ATen/ops/" + Name + ".h"))
        return true;
  return false;
}

bool fitsMinimalTorchHeader(const std::string &Text) {
  // Where the minimal header could compile a unit into something else
  // than torch's headers would: requires_grad (at:: factories ignore or
  // refuse it, torch::'s honour it), and unqualified calls (which reach
  // ATen's ops by ADL with torch's headers).
  for (const char *Needle :
       {"requires_grad", "using namespace torch", "using namespace at"})
    if (Text.find(Needle) != std::string::npos)
      return false;
  auto startsAt = [&](size_t At, const std::string &Literal) {
    return Text.compare(At, Literal.size(), Literal) == 0;
  };
  size_t At = 0;
  while (At < Text.size()) {
    if (!isWordChar(Text[At])) {
      // Other torch headers include torch's own torch/types.h by its path.
      for (const char *Open : {"<", "\""})
        if (startsAt(At, Open + std::string("torch/")) &&
            !startsAt(At + 1, "torch/extension.h") &&
            !startsAt(At + 1, "torch/types.h"))
          return false;
      ++At;
      continue;
    }
    size_t End = wordEnd(Text, At);
    std::string Word = Text.substr(At, End - At);
    bool AfterScope = At >= 2 && startsAt(At - 2, "::");
    At = End;
    // A namespace alias hides which namespace calls go to.
    if (Word == "namespace") {
      size_t Name = skipSpace(Text, End), NameEnd = wordEnd(Text, Name);
      if (NameEnd > Name && startsAt(skipSpace(Text, NameEnd), "="))
        return false;
      continue;
    }
    if (AfterScope || (Word != "torch" && Word != "at"))
      continue;
    size_t Next = skipSpace(Text, End);
    if (!startsAt(Next, "::"))
      continue;
    size_t NameStart = skipSpace(Text, Next + 2),
           NameEnd = wordEnd(Text, NameStart);
    size_t Paren = skipSpace(Text, NameEnd);
    if (NameEnd > NameStart && Paren < Text.size() && Text[Paren] == '(' &&
        !MinimalHeaderCallables.count(
            Text.substr(NameStart, NameEnd - NameStart)))
      return false;
  }
  return true;
}

namespace {

/// Headers kevin puts before torch's own: file name under torch/ -> text.
using HeaderFiles = std::vector<std::pair<std::string, std::string>>;

/// The minimal header replaces torch/types.h too: a CUDA unit starts with
/// it, as load_inline's do.
const HeaderFiles MinimalHeaders = {
    {"types.h", MinimalTypesHeader},
    {"extension.h",
     "// kevin's minimal torch/extension.h (lib/Build/Builder.cpp)\n"
     "#pragma once\n#include <torch/types.h>\n"}};
const HeaderFiles LeanHeaders = {{"extension.h", LeanExtensionHeader}};
const HeaderFiles MinimalBindingHeaders = {
    {"types.h", MinimalTypesHeader}, {"extension.h", MinimalBindingHeader}};

/// Writes Files into Dir/torch/ and returns Dir; empty when they cannot be
/// written. Dir lies in the build's private directory: headers shared in
/// the cache could be rewritten by a candidate for every later build.
std::string writeHeaderDir(const std::string &Dir, const HeaderFiles &Files) {
  if (makeDirs(Dir + "/torch"))
    return "";
  for (const auto &[Name, Text] : Files)
    if (writeFile(Dir + "/torch/" + Name, Text))
      return "";
  return Dir;
}

/// kevin's pybind11 binding of the spec's functions, as load_inline
/// writes it; Callables (when given) name what each function is bound to.
std::string pybindModuleText(const ExtensionSpec &Spec,
                             const std::vector<std::string> &Callables = {}) {
  std::string Binding = "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {";
  for (size_t I = 0; I < Spec.Functions.size(); ++I) {
    const auto &[Fn, Doc] = Spec.Functions[I];
    const std::string &Callee = I < Callables.size() ? Callables[I] : Fn;
    if (Spec.WrapFunctions)
      Binding += "\nm.def(\"" + Fn + "\", torch::wrap_pybind_function(" +
                 Callee + "), \"" + Doc + "\");";
    else
      Binding += "\nm.def(\"" + Fn + "\", " + Callee + ", \"" + Doc + "\");";
  }
  return Binding + "\n}\n";
}

/// The binding unit split in two, to be compiled side by side: the
/// candidate's code (load_inline's unit without the binding) followed by a
/// check, and a unit of kevin's text holding the bound functions'
/// prototypes and the binding. The binding calls each function through a
/// pointer the candidate's unit defines as `&::f`, so it binds exactly what
/// load_inline's binding would after the candidate's code (macros and
/// linkage included). The checks make either unit fail unless each
/// prototype means the same in both: no word of it is a macro in either,
/// and it names the one function `f` (same type, no overloads).
struct BindingSplitUnits {
  TranslationUnit Candidate;
  std::string BindingText;
};

std::optional<BindingSplitUnits> splitBinding(const ExtensionSpec &Spec,
                                              const TranslationUnit &Main,
                                              const std::string &CandidateCpp) {
  if (Spec.Functions.empty())
    return std::nullopt;
  std::string Prototypes, Pointers, Check;
  std::set<std::string> Words;
  std::vector<std::string> Callables;
  for (const auto &Function : Spec.Functions) {
    const std::string &Fn = Function.first;
    std::optional<std::string> Prototype = functionPrototype(CandidateCpp, Fn);
    if (!Prototype)
      return std::nullopt;
    Prototypes += *Prototype + ";\n";
    for (size_t At = 0; At < Prototype->size();) {
      size_t End = wordEnd(*Prototype, At);
      if (End == At) {
        ++At;
        continue;
      }
      std::string Word = Prototype->substr(At, End - At);
      // Operator names (`and`, `not`, ...) cannot be macros.
      static const std::set<std::string> OperatorNames = {
          "and",    "and_eq", "bitand", "bitor", "compl", "not",
          "not_eq", "or",     "or_eq",  "xor",   "xor_eq"};
      if (!std::isdigit(static_cast<unsigned char>(Word[0])) &&
          !OperatorNames.count(Word))
        Words.insert(Word);
      At = End;
    }
    std::string Pointer = "kevin_bound_" + std::to_string(Callables.size());
    std::string Type = "decltype(&kevin_binding_check::" + Fn + ")";
    // Hidden: resolved within the extension's own library, so another
    // extension's pointer of the same name cannot stand in for it.
    Pointers += "extern \"C\" __attribute__((visibility(\"hidden\"))) " + Type +
                " " + Pointer + ";\n";
    Check += "static_assert(std::is_same<decltype(&::" + Fn + "), " + Type +
             ">::value, \"kevin: the binding's prototype of " + Fn + "\");\n" +
             Type + " " + Pointer + " = &::" + Fn + ";\n";
    Callables.push_back("+" + Pointer);
  }
  std::string Guards;
  for (const std::string &Word : Words)
    Guards += "#ifdef " + Word + "\n#error kevin_binding: " + Word +
              " is a macro\n#endif\n";
  std::string Declarations =
      "namespace kevin_binding_check {\n" + Prototypes + "}\n" + Pointers;
  BindingSplitUnits Units;
  Units.Candidate = Main;
  Units.Candidate.FileName = "candidate.cpp";
  Units.Candidate.StartsWithExtensionHeader = false;
  size_t BindingAt = Main.Text.rfind("PYBIND11_MODULE(");
  Units.Candidate.Text =
      Main.Text.substr(0, BindingAt) + Guards + Declarations + Check;
  // The guards go in kevin's unit too: its headers define other macros.
  Units.BindingText = "// kevin's binding unit (lib/Build/Builder.cpp)\n" +
                      Guards + Declarations + pybindModuleText(Spec, Callables);
  return Units;
}

/// A precompiled header kevin keeps in the cache.
struct PchRecipe {
  std::string FileName; ///< The header's name in its cache directory.
  std::string Text;     ///< What the header includes.
  /// kevin's header texts it reads (in the cache key, with the flags).
  std::string KeyText;
  /// Where those are, in the build's private directory (not in the key).
  std::vector<std::string> IncludeFlags;
};

/// kevin's headers for precompiled headers: torch's own torch/extension.h,
/// and the minimal binding set for split binding units.
PchRecipe torchExtensionPch() {
  return {"torch_extension.h", "#include <torch/extension.h>\n", "", {}};
}
PchRecipe minimalBindingPch(const std::string &BindingDir) {
  return {"binding.h",
          "#include <torch/extension.h>\n",
          std::string(MinimalTypesHeader) + MinimalBindingHeader,
          {"-I", BindingDir}};
}

/// The path of the header in the cache directory of a precompiled header
/// for these flags (its .gch beside it, once built).
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

/// Returns the path of a usable precompiled header for these flags,
/// building it under a file lock when missing; empty when it cannot be
/// had. Unless Wait, it does not wait for another process's build of it:
/// it returns empty at once.
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
    std::string Tmp = Gch + ".tmp." + uniqueTag();
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

} // namespace

std::vector<TranslationUnit> writeTranslationUnits(const ExtensionSpec &Spec) {
  std::vector<TranslationUnit> Units;
  auto addPiece = [](TranslationUnit &U, unsigned &Line,
                     const std::string &Text) {
    U.Pieces.emplace_back(Line, Text);
    U.Text += Text + "\n";
    Line +=
        1 + static_cast<unsigned>(std::count(Text.begin(), Text.end(), '\n'));
  };
  if (Spec.RawSources) {
    unsigned Index = 0;
    for (const std::string &Src : Spec.CppSources) {
      TranslationUnit U;
      U.FileName = "source" + std::to_string(Index++) + ".cpp";
      unsigned Line = 1;
      addPiece(U, Line, Src);
      Units.push_back(std::move(U));
    }
    for (const std::string &Src : Spec.CudaSources) {
      TranslationUnit U;
      U.FileName = "source" + std::to_string(Index++) + ".cu";
      U.IsCuda = true;
      unsigned Line = 1;
      addPiece(U, Line, Src);
      Units.push_back(std::move(U));
    }
    return Units;
  }
  // load_inline joins its strings with newlines after a first include line,
  // then appends the binding; the CUDA unit gets three includes first.
  TranslationUnit Main;
  Main.FileName = "main.cpp";
  Main.StartsWithExtensionHeader = true;
  unsigned Line = 1;
  Main.Text = "#include <torch/extension.h>\n";
  Line = 2;
  for (const std::string &Src : Spec.CppSources)
    addPiece(Main, Line, Src);
  if (!Spec.Functions.empty()) {
    // The binding is kevin's text, not the candidate's: an empty piece.
    Main.Pieces.emplace_back(Line, "");
    Main.Text += pybindModuleText(Spec);
  }
  Units.push_back(std::move(Main));
  if (!Spec.CudaSources.empty()) {
    TranslationUnit Cuda;
    Cuda.FileName = "cuda.cu";
    Cuda.IsCuda = true;
    Cuda.Text = "#include <torch/types.h>\n#include <cuda.h>\n#include "
                "<cuda_runtime.h>\n";
    unsigned CudaLine = 4;
    for (const std::string &Src : Spec.CudaSources)
      addPiece(Cuda, CudaLine, Src);
    Units.push_back(std::move(Cuda));
  }
  return Units;
}

const char *torchHeaderName(TorchHeader H) {
  switch (H) {
  case TorchHeader::None:
    return "none";
  case TorchHeader::Minimal:
    return "minimal";
  case TorchHeader::Lean:
    return "lean";
  case TorchHeader::Full:
    return "full";
  }
  return "none";
}

std::string computeBuildKey(const ExtensionSpec &Spec,
                            const TorchToolchain &Toolchain,
                            const std::string &CompilerIdentity) {
  ContentHasher H;
  // kevin's headers are in the key: an object is only reused with the
  // headers it could have been built with.
  H.add(BuilderVersion).add(Spec.Name).add(CompilerIdentity);
  H.add(MinimalTypesHeader).add(LeanExtensionHeader).add(MinimalBindingHeader);
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

Expected<BuildResult> buildExtension(const ExtensionSpec &Spec,
                                     const TorchToolchain &T,
                                     const BuildOptions &Options) {
  auto Start = Clock::now();
  BuildResult Result;
  bool WithCuda = !Spec.CudaSources.empty();
  if (WithCuda && T.Nvcc.empty()) {
    Result.Outcome = "build-error";
    Result.Message = "cuda_sources given but nvcc was not found "
                     "(set CUDA_HOME or install the CUDA toolkit)";
    Result.Seconds = secondsSince(Start);
    return Result;
  }
  for (const auto *Sources : {&Spec.CppSources, &Spec.CudaSources})
    for (const std::string &Source : *Sources)
      if (std::string Name = reservedLaunchGateName(Source); !Name.empty()) {
        Result.Outcome = "build-error";
        Result.Message =
            "'" + Name +
            "' is reserved for kevin's launch gate (KEVIN-RT-010); "
            "a source may not use it";
        Result.Seconds = secondsSince(Start);
        return Result;
      }
  std::string Identity = compilerIdentity(T.Cxx);
  if (WithCuda)
    Identity += compilerIdentity(T.Nvcc);
  Result.Key = computeBuildKey(Spec, T, Identity);
  std::string Final = Options.CacheDir + "/ext/" + Result.Key;
  std::string Library = Final + "/" + Spec.Name + ".so";
  std::string FailFile = Options.CacheDir + "/fail/" + Result.Key;
  std::vector<TranslationUnit> Units = writeTranslationUnits(Spec);

  // The units whose diagnostics map to the candidate's lines (the split
  // candidate unit joins them).
  std::vector<TranslationUnit> MappedUnits = Units;
  auto mapOutput = [&](const std::string &Output, const std::string &Dir) {
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
  };

  if (fileExists(Library)) {
    Result.Ok = true;
    Result.Outcome = "ok";
    Result.CacheHit = true;
    Result.LibraryPath = Library;
    Result.Seconds = secondsSince(Start);
    return Result;
  }
  if (fileExists(FailFile)) {
    Result.Outcome = "build-error";
    Result.CacheHit = true;
    Result.Message = mapOutput(readFile(FailFile), BuildDirToken);
    Result.Seconds = secondsSince(Start);
    return Result;
  }

  std::string Dir = Options.CacheDir + "/tmp/" + Result.Key.substr(0, 16) +
                    "." + uniqueTag() + "/";
  if (Error E = makeDirs(Dir))
    return E;
  for (const TranslationUnit &U : Units)
    if (Error E = writeFile(Dir + U.FileName, U.Text))
      return E;

  std::vector<std::string> Cxx = cxxFlags(Spec, T);
  std::vector<std::string> Glue = glueFlags(Cxx);
  // The binding unit is first compiled with kevin's minimal header set when
  // the candidate's part of it fits (the binding itself is kevin's text);
  // if that fails, with torch's header and its precompiled header.
  auto fitsMinimalSet = [&](const std::string &Text) {
    return fitsMinimalTorchHeader(Text) &&
           !declaresAtenOpName(Text, T.IncludeDirs);
  };
  std::string CandidateCpp;
  for (const std::string &Src : Spec.CppSources)
    CandidateCpp += Src + "\n";
  size_t MainIndex = Units.size();
  for (size_t I = 0; I < Units.size(); ++I)
    if (Units[I].StartsWithExtensionHeader)
      MainIndex = I;
  bool MinimalBinding =
      MainIndex < Units.size() && fitsMinimalSet(CandidateCpp);
  std::string MinimalDir, LeanDir, BindingDir;
  for (const TranslationUnit &U : Units)
    if (U.IsCuda && LeanDir.empty()) {
      MinimalDir =
          writeHeaderDir(Dir + "kevin-include/minimal", MinimalHeaders);
      LeanDir = writeHeaderDir(Dir + "kevin-include/lean", LeanHeaders);
    }
  if (MinimalBinding)
    BindingDir =
        writeHeaderDir(Dir + "kevin-include/binding", MinimalBindingHeaders);
  // With the precompiled header of the minimal binding set in the cache,
  // the binding unit is split in two, compiled side by side. Without it,
  // the split would gain nothing (kevin's binding alone takes about as long
  // as the whole unit): the unit is compiled whole, and one build makes the
  // header beside its own compiles (one job beyond Options.Jobs; that build
  // ends when the header is made). No other build waits for it.
  std::string BindingPch;
  bool BuildBindingPch = false;
  std::optional<BindingSplitUnits> Split;
  if (MinimalBinding && !BindingDir.empty() && !Spec.Functions.empty() &&
      Options.UsePrecompiledHeader) {
    BindingPch = pchHeaderPath(Glue, T, Options, minimalBindingPch(BindingDir));
    BuildBindingPch = !fileExists(BindingPch + ".gch");
    if (BuildBindingPch)
      BindingPch.clear();
    else
      Split = splitBinding(Spec, Units[MainIndex], CandidateCpp);
  }
  if (Split && MinimalDir.empty())
    MinimalDir = writeHeaderDir(Dir + "kevin-include/minimal", MinimalHeaders);
  if (Split &&
      (MinimalDir.empty() ||
       writeFile(Dir + Split->Candidate.FileName, Split->Candidate.Text) ||
       writeFile(Dir + "binding.cpp", Split->BindingText)))
    Split.reset();
  if (Split)
    MappedUnits.push_back(Split->Candidate);

  // The precompiled header of torch/extension.h is built (once per cache,
  // when missing) by the first unit that wants it, while nvcc already runs
  // on the CUDA units.
  std::string Pch;
  std::once_flag PchOnce;
  auto cxxArgv = [&](const TranslationUnit &U, const std::string &Object) {
    std::vector<std::string> Argv = {T.Cxx};
    Argv.insert(Argv.end(), Cxx.begin(), Cxx.end());
    if (Options.UsePrecompiledHeader && U.StartsWithExtensionHeader) {
      std::call_once(PchOnce, [&] {
        Pch = precompiledHeader(Cxx, T, Options, torchExtensionPch(), true);
      });
      if (!Pch.empty())
        Argv.insert(Argv.end(), {"-include", Pch, "-Winvalid-pch"});
    }
    Argv.insert(Argv.end(), {"-c", Dir + U.FileName, "-o", Object});
    return Argv;
  };
  // g++ with a header directory put before torch's.
  auto cxxArgvWithHeaders = [&](const std::string &HeaderDir,
                                const std::string &Source,
                                const std::string &Object) {
    std::vector<std::string> Argv = {T.Cxx, "-I", HeaderDir};
    Argv.insert(Argv.end(), Cxx.begin(), Cxx.end());
    Argv.insert(Argv.end(), {"-c", Dir + Source, "-o", Object});
    return Argv;
  };

  std::vector<Step> Steps(Units.size());
  std::vector<std::string> Objects;
  for (size_t I = 0; I < Units.size(); ++I) {
    const TranslationUnit &U = Units[I];
    std::string Object = U.FileName + (U.IsCuda ? ".cuda.o" : ".o");
    Objects.push_back(Object);
    if (!U.IsCuda)
      continue; // Its command line waits for the precompiled header.
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
    // A unit that fails with the minimal set most likely has an error of
    // its own: it goes straight to torch's headers for the message.
    if (fitsMinimalSet(U.Text) && !MinimalDir.empty())
      withHeader(TorchHeader::Minimal, MinimalDir);
    else
      withHeader(TorchHeader::Lean, LeanDir);
    Steps[I].Tries.push_back({TorchHeader::Full, Full});
  }

  // A C++ unit: the binding unit first with kevin's minimal binding set
  // (when TryMinimal), then with torch's header.
  auto compileCxx = [&](size_t I, bool TryMinimal) {
    Step &S = Steps[I];
    if (TryMinimal) {
      S.Header = TorchHeader::Minimal;
      S.Argv = cxxArgvWithHeaders(BindingDir, Units[I].FileName, Objects[I]);
      runStep(S, T, Options, Dir);
      if (S.Ok || S.TimedOut)
        return;
    }
    if (Units[I].StartsWithExtensionHeader)
      S.Header = TorchHeader::Full;
    S.Argv = cxxArgv(Units[I], Objects[I]);
    runStep(S, T, Options, Dir);
  };
  // The split binding: the candidate's code with kevin's minimal
  // torch/types.h, and the binding unit, side by side. The job that ends
  // last decides; when either failed, the binding unit is compiled whole,
  // with kevin's binding set first (which has more than the minimal
  // torch/types.h: code that fails with the one may build with the other).
  Step SplitCandidate, SplitBinding;
  std::atomic<int> SplitLeft{2};
  bool SplitOk = false;
  auto endSplitJob = [&] {
    if (--SplitLeft != 0)
      return;
    Step &S = Steps[MainIndex];
    if (SplitCandidate.Ok && SplitBinding.Ok) {
      SplitOk = true;
      S.Ok = true;
      S.Header = TorchHeader::Minimal;
      S.Output = SplitCandidate.Output + SplitBinding.Output;
      return;
    }
    if (SplitCandidate.TimedOut || SplitBinding.TimedOut) {
      S = SplitCandidate.TimedOut ? SplitCandidate : SplitBinding;
      S.Header = TorchHeader::Minimal;
      return;
    }
    compileCxx(MainIndex, true);
  };
  std::vector<std::function<void()>> Jobs;
  for (size_t I = 0; I < Units.size(); ++I)
    if (Units[I].IsCuda)
      Jobs.push_back([&, I] {
        Step &S = Steps[I];
        for (const auto &[Header, Argv] : S.Tries) {
          S.Header = Header;
          S.Argv = Argv;
          runStep(S, T, Options, Dir);
          if (S.Ok || S.TimedOut)
            break;
        }
      });
  if (Split) {
    Jobs.push_back([&] {
      SplitBinding.Argv = {T.Cxx, "-I", BindingDir};
      SplitBinding.Argv.insert(SplitBinding.Argv.end(), Glue.begin(),
                               Glue.end());
      SplitBinding.Argv.insert(SplitBinding.Argv.end(),
                               {"-include", BindingPch, "-Winvalid-pch"});
      SplitBinding.Argv.insert(SplitBinding.Argv.end(),
                               {"-c", Dir + "binding.cpp", "-o", "binding.o"});
      runStep(SplitBinding, T, Options, Dir);
      endSplitJob();
    });
    Jobs.push_back([&] {
      SplitCandidate.Argv = cxxArgvWithHeaders(
          MinimalDir, Split->Candidate.FileName, "candidate.o");
      runStep(SplitCandidate, T, Options, Dir);
      endSplitJob();
    });
  }
  for (size_t I = 0; I < Units.size(); ++I)
    if (!Units[I].IsCuda && !(Split && I == MainIndex))
      Jobs.push_back(
          [&, I] { compileCxx(I, I == MainIndex && !BindingDir.empty()); });
  // kevin's launch gate, linked into every CUDA extension (KEVIN-RT-010).
  Step Gate;
  if (WithCuda) {
    if (Error E = writeFile(Dir + LaunchGateUnit, launchGateSource()))
      return E;
    Jobs.push_back([&] {
      Gate.Argv = {T.Cxx, "-fPIC",         "-O2", "-c", Dir + LaunchGateUnit,
                   "-o",  LaunchGateObject};
      runStep(Gate, T, Options, Dir);
    });
  }
  // Compile, at most Options.Jobs at a time, in that order (the slow CUDA
  // units first); the binding set's precompiled header on a thread of its
  // own.
  std::thread PchThread;
  if (BuildBindingPch)
    PchThread = std::thread([&] {
      precompiledHeader(Glue, T, Options, minimalBindingPch(BindingDir), false);
    });
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
  if (PchThread.joinable())
    PchThread.join();
  Result.PrecompiledHeaderUsed = !Pch.empty() || SplitOk;
  Result.BindingSplit = SplitOk;
  if (SplitOk) {
    Objects[MainIndex] = "candidate.o";
    Objects.push_back("binding.o");
  }
  if (WithCuda)
    Objects.push_back(LaunchGateObject);

  std::string Output;
  bool Ok = true, TimedOut = false;
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
  // What the candidate's objects refer to and define, however their text
  // spelled it: a way around the launch gate is a build error (KEVIN-RT-010;
  // CPU extensions have no gate, but nothing honest refers to these either).
  for (size_t I = 0; Ok && I < Objects.size(); ++I) {
    std::string Object = Dir + Objects[I];
    // Only ELF objects have a symbol table (the unit tests' stand-in
    // compilers write none).
    if (Objects[I] == LaunchGateObject || !isElfFile(Object))
      continue;
    Step Tables;
    Tables.Argv = {"sh", "-c",
                   "nm -P -g \"$1\" > \"$1.symbols\" && "
                   "readelf -S -W \"$1\" > \"$1.sections\"",
                   "sh", Objects[I]};
    runStep(Tables, T, Options, Dir);
    std::string Symbols = readFile(Object + ".symbols"),
                Sections = readFile(Object + ".sections");
    ::unlink((Object + ".symbols").c_str());
    ::unlink((Object + ".sections").c_str());
    std::string Problem;
    if (!Tables.Ok)
      Problem = "kevin cannot read what they refer to: " + Tables.Output;
    // An object of link-time optimization shows the compiler's symbol
    // table, not the assembler's, which hides a versioned reference.
    else if (Sections.find(".gnu.lto_") != std::string::npos)
      Problem = "they were compiled for link-time optimization (-flto), "
                "which hides what they refer to from kevin's launch gate "
                "(KEVIN-RT-010)";
    else if (std::string Found = launchGateBypass(Symbols); !Found.empty())
      Problem = "they refer to '" + Found +
                "', which goes around kevin's launch gate (KEVIN-RT-010)";
    if (!Problem.empty()) {
      Result.Outcome = "build-error";
      Result.Message =
          (Spec.OriginPath.empty() ? Spec.Name : Spec.OriginPath) +
          ": error: the compiled sources cannot be used: " + Problem;
      Result.Seconds = secondsSince(Start);
      removeTree(Dir);
      return Result;
    }
  }
  if (Ok) {
    Step Link;
    Link.Argv = {T.Cxx};
    Link.Argv.insert(Link.Argv.end(), Objects.begin(), Objects.end());
    for (const std::string &F : linkFlags(Spec, T, WithCuda))
      Link.Argv.push_back(F);
    Link.Argv.insert(Link.Argv.end(), {"-o", Spec.Name + ".so"});
    runStep(Link, T, Options, Dir);
    Output += Link.Output;
    Ok = Link.Ok;
    TimedOut |= Link.TimedOut;
  }
  Result.Seconds = secondsSince(Start);
  if (!Ok) {
    Result.Outcome = TimedOut ? "timeout" : "build-error";
    Result.Message = mapOutput(Output, Dir);
    if (!TimedOut && !makeDirs(Options.CacheDir + "/fail")) {
      // Remember the failure with the private directory abstracted away.
      std::string Stored = Output;
      for (size_t P; (P = Stored.find(Dir)) != std::string::npos;)
        Stored.replace(P, Dir.size(), BuildDirToken);
      std::string Tmp = FailFile + ".tmp." + uniqueTag();
      if (!writeFile(Tmp, Stored))
        ::rename(Tmp.c_str(), FailFile.c_str());
    }
    removeTree(Dir);
    return Result;
  }
  // Keep only the library; publish the directory atomically.
  removeTree(Dir + "kevin-include");
  for (const TranslationUnit &U : Units)
    ::unlink((Dir + U.FileName).c_str());
  for (const std::string &O : Objects)
    ::unlink((Dir + O).c_str());
  ::unlink((Dir + LaunchGateUnit).c_str());
  if (Split) {
    ::unlink((Dir + Split->Candidate.FileName).c_str());
    ::unlink((Dir + "binding.cpp").c_str());
    for (const char *Object : {"main.cpp.o", "candidate.o", "binding.o"})
      ::unlink((Dir + Object).c_str());
  }
  if (Error E = makeDirs(Options.CacheDir + "/ext"))
    return E;
  std::string Staged = Dir.substr(0, Dir.size() - 1);
  if (::rename(Staged.c_str(), Final.c_str()) != 0) {
    // Another process published the same key first; use its copy.
    removeTree(Staged);
    if (!fileExists(Library))
      return Error::inFile(Final, std::string("cannot publish build: ") +
                                      std::strerror(errno));
  }
  Result.Ok = true;
  Result.Outcome = "ok";
  Result.LibraryPath = Library;
  Result.Seconds = secondsSince(Start);
  return Result;
}

} // namespace kevin

//===-- LaunchGate.cpp - the launch gate linked into CUDA extensions ------===//
//
// The source of the gate and the `--wrap` flags that put it between a CUDA
// extension's objects and the CUDA runtime and driver (KEVIN-RT-010).
//
//===----------------------------------------------------------------------===//
#include "kevin/Build/LaunchGate.h"
#include "kevin/Build/FunctionDeclaration.h"

#include <sstream>

namespace kevin {

namespace {

/// Each gated entry point: its name, its parameter list and the arguments
/// that pass them on. Every one returns a cudaError_t or CUresult (an int
/// enum; 0 is success, 1 an invalid value in both). `Dim3` has dim3's
/// layout, passed by value as dim3 is.
struct GatedEntry {
  std::string Name;
  const char *Parameters;
  const char *Arguments;
};

constexpr const char *RuntimeLaunch =
    "(const void *F, Dim3 G, Dim3 B, void **A, size_t S, void *St)";
constexpr const char *RuntimeArgs = "(F, G, B, A, S, St)";
constexpr const char *DriverLaunch =
    "(void *F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX, "
    "unsigned BY, unsigned BZ, unsigned S, void *St, void **P, void **E)";
constexpr const char *DriverArgs = "(F, GX, GY, GZ, BX, BY, BZ, S, St, P, E)";
constexpr const char *DriverCooperative =
    "(void *F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX, "
    "unsigned BY, unsigned BZ, unsigned S, void *St, void **P)";
constexpr const char *DriverCooperativeArgs =
    "(F, GX, GY, GZ, BX, BY, BZ, S, St, P)";

const std::vector<GatedEntry> &gatedEntries() {
  static const std::vector<GatedEntry> Entries = [] {
    std::vector<GatedEntry> List;
    // Most come in the legacy default stream's and the per-thread default
    // stream's (_ptsz) version.
    auto both = [&](const std::string &Name, const char *Params,
                    const char *Args) {
      List.push_back({Name, Params, Args});
      List.push_back({Name + "_ptsz", Params, Args});
    };
    // What nvcc 12.8+ compiles `<<<...>>>` to (a kernel handle first).
    both("__cudaLaunchKernel", RuntimeLaunch, RuntimeArgs);
    // Older nvcc's launches and explicit runtime calls.
    both("cudaLaunchKernel", RuntimeLaunch, RuntimeArgs);
    both("cudaLaunchCooperativeKernel", RuntimeLaunch, RuntimeArgs);
    both("cudaLaunchKernelExC", "(const void *C, const void *F, void **A)",
         "(C, F, A)");
    both("cuLaunchKernel", DriverLaunch, DriverArgs);
    both("cuLaunchCooperativeKernel", DriverCooperative, DriverCooperativeArgs);
    both("cuLaunchKernelEx", "(const void *C, void *F, void **P, void **E)",
         "(C, F, P, E)");
    both("cudaGraphLaunch", "(void *G, void *St)", "(G, St)");
    both("cuGraphLaunch", "(void *G, void *St)", "(G, St)");
    // Deprecated launches (CUDA 13's runtime has no multi-device launch any
    // more; its driver still does).
    List.push_back({"cuLaunch", "(void *F)", "(F)"});
    List.push_back({"cuLaunchGrid", "(void *F, int W, int H)", "(F, W, H)"});
    List.push_back({"cuLaunchGridAsync", "(void *F, int W, int H, void *St)",
                    "(F, W, H, St)"});
    List.push_back({"cuLaunchCooperativeKernelMultiDevice",
                    "(void *L, unsigned N, unsigned Fl)", "(L, N, Fl)"});
    both("cudaLaunchCooperativeKernelMultiDevice",
         "(void *L, unsigned N, unsigned Fl)", "(L, N, Fl)");
    return List;
  }();
  return Entries;
}

/// The functions that hand out entry points by name. The gate wraps them too
/// and hands out its own function for a gated name, so a launch through a
/// looked-up pointer passes the gate as well. Their wrappers are written out
/// in the source below.
const std::vector<std::string> &lookupEntryNames() {
  static const std::vector<std::string> Names = {
      "dlsym",
      "dlvsym",
      "cuGetProcAddress",
      "cuGetProcAddress_v2",
      "cudaGetDriverEntryPoint",
      "cudaGetDriverEntryPoint_ptsz",
      "cudaGetDriverEntryPointByVersion",
      "cudaGetDriverEntryPointByVersion_ptsz"};
  return Names;
}

/// The lookup functions' wrappers. The gate's own lookups use the real
/// dlsym (its callers' are wrapped, and so would be its own).
constexpr const char *LookupSource = R"(
// The functions that hand out entry points by name: a gated name gets the
// gate's function. The driver names its functions without the stream
// suffix and picks the version by flag (1: legacy, 2: per-thread; none:
// the caller's default) and cuGetProcAddress by the version asked for.
namespace {
// Found, or the gate's function when Name is gated (defined at the end).
void *gatedPointer(const char *Name, void *Found);

void *gatedDriverPointer(const char *Name, unsigned long long Flags,
                         bool PerThreadByDefault, int Version, void *Found) {
  if (!Found || !Name)
    return Found;
  if (strcmp(Name, "cuGetProcAddress") == 0)
    return gatedPointer(Version >= 12000 ? "cuGetProcAddress_v2"
                                         : "cuGetProcAddress",
                        Found);
  bool PerThread = (Flags & 2) || ((Flags & 3) == 0 && PerThreadByDefault);
  char Suffixed[256];
  if (PerThread &&
      snprintf(Suffixed, sizeof Suffixed, "%s_ptsz", Name) <
          (int)sizeof Suffixed) {
    void *Wrapper = gatedPointer(Suffixed, Found);
    if (Wrapper != Found)
      return Wrapper;
  }
  return gatedPointer(Name, Found);
}

template <typename Function>
Function *realLookup(Function *Linked, const char *Name) {
  return reinterpret_cast<Function *>(
      realEntry(reinterpret_cast<void *>(Linked), Name));
}
} // namespace

extern "C" void *__real_dlsym(void *Handle, const char *Name);
extern "C" void *__wrap_dlsym(void *Handle, const char *Name) {
  return gatedPointer(Name, __real_dlsym(Handle, Name));
}

extern "C" void *__real_dlvsym(void *Handle, const char *Name,
                               const char *Version);
extern "C" void *__wrap_dlvsym(void *Handle, const char *Name,
                               const char *Version) {
  return gatedPointer(Name, __real_dlvsym(Handle, Name, Version));
}

extern "C" int __real_cuGetProcAddress(const char *Name, void **Found,
                                       int Version, unsigned long long Flags)
    __attribute__((weak));
extern "C" int __wrap_cuGetProcAddress(const char *Name, void **Found,
                                       int Version, unsigned long long Flags) {
  static auto *Real =
      realLookup(&__real_cuGetProcAddress, "cuGetProcAddress");
  int Status = Real ? Real(Name, Found, Version, Flags) : 1;
  if (Status == 0 && Found)
    *Found = gatedDriverPointer(Name, Flags, false, Version, *Found);
  return Status;
}

extern "C" int __real_cuGetProcAddress_v2(const char *Name, void **Found,
                                          int Version,
                                          unsigned long long Flags,
                                          int *Result) __attribute__((weak));
extern "C" int __wrap_cuGetProcAddress_v2(const char *Name, void **Found,
                                          int Version,
                                          unsigned long long Flags,
                                          int *Result) {
  static auto *Real =
      realLookup(&__real_cuGetProcAddress_v2, "cuGetProcAddress_v2");
  int Status = Real ? Real(Name, Found, Version, Flags, Result) : 1;
  if (Status == 0 && Found)
    *Found = gatedDriverPointer(Name, Flags, false, Version, *Found);
  return Status;
}
)";

/// One wrapper of the runtime's driver lookups: Name, whether it takes a
/// version, whether it is the per-thread default stream's.
std::string runtimeLookupWrapper(const std::string &Name, bool TakesVersion,
                                 bool PerThread) {
  std::string Params = TakesVersion
                           ? "(const char *Name, void **Found, unsigned "
                             "Version, unsigned long long Flags, int *Result)"
                           : "(const char *Name, void **Found, unsigned long "
                             "long Flags, int *Result)";
  std::string Args = TakesVersion ? "(Name, Found, Version, Flags, Result)"
                                  : "(Name, Found, Flags, Result)";
  std::string Text =
      "extern \"C\" int __real_" + Name + Params + " __attribute__((weak));\n";
  Text += "extern \"C\" int __wrap_" + Name + Params + " {\n";
  Text += "  static auto *Real = realLookup(&__real_" + Name + ", \"" + Name +
          "\");\n";
  Text += "  int Status = Real ? Real" + Args + " : 1;\n";
  Text += "  if (Status == 0 && Found)\n";
  Text += "    *Found = gatedDriverPointer(Name, Flags, " +
          std::string(PerThread ? "true" : "false") + ", " +
          (TakesVersion ? "(int)Version" : "13000") + ", *Found);\n";
  Text += "  return Status;\n}\n\n";
  return Text;
}

std::string makeSource() {
  std::string Text =
      R"(// kevin's launch gate (KEVIN-RT-010), linked into this CUDA extension:
// the extension's kernel launches come here (ld --wrap). In a kevin-worker
// replaying a call without the candidate's kernels they launch nothing and
// are counted; everywhere else they go on to CUDA unchanged. Lookups by name
// of a launch function hand out the gate's.
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern "C" {
extern int kevin_skip_candidate_launches __attribute__((weak));
extern unsigned long long kevin_skipped_candidate_launches
    __attribute__((weak));
void *__real_dlsym(void *Handle, const char *Name);
}

namespace {
struct Dim3 {
  unsigned X, Y, Z;
};

bool skipLaunch() {
  if (&kevin_skip_candidate_launches == nullptr ||
      !__atomic_load_n(&kevin_skip_candidate_launches, __ATOMIC_RELAXED))
    return false;
  if (&kevin_skipped_candidate_launches != nullptr)
    __atomic_fetch_add(&kevin_skipped_candidate_launches, 1,
                       __ATOMIC_RELAXED);
  return true;
}

// The real entry point: the one the linker bound the weak reference to, or
// else the one the process has (a library only the gate references is
// dropped by --as-needed: the driver, for cuLaunchKernel), the driver's
// from libcuda itself. Missing, the launch fails (said once).
void *realEntry(void *Linked, const char *Name) {
  if (Linked)
    return Linked;
  void *Found = __real_dlsym(RTLD_DEFAULT, Name);
  if (!Found && Name[0] == 'c' && Name[1] == 'u' && Name[2] != 'd')
    if (void *Driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD))
      Found = __real_dlsym(Driver, Name);
  if (!Found)
    fprintf(stderr, "kevin launch gate: %s not found; its launches fail\n",
            Name);
  return Found;
}
} // namespace

)";
  for (const GatedEntry &E : gatedEntries()) {
    const std::string &Name = E.Name;
    Text += "extern \"C\" int __real_" + Name + E.Parameters +
            " __attribute__((weak));\n";
    Text += "extern \"C\" int __wrap_" + Name + E.Parameters + " {\n";
    Text += "  if (skipLaunch())\n    return 0;\n";
    Text += "  static auto *Real = reinterpret_cast<int (*)" +
            std::string(E.Parameters) +
            ">(realEntry(reinterpret_cast<void *>(&__real_" + Name + "), \"" +
            Name + "\"));\n";
    Text += "  return Real ? Real" + std::string(E.Arguments) + " : 1;\n}\n\n";
  }
  Text += LookupSource;
  for (bool PerThread : {false, true}) {
    std::string Suffix = PerThread ? "_ptsz" : "";
    Text += runtimeLookupWrapper("cudaGetDriverEntryPoint" + Suffix, false,
                                 PerThread);
    Text += runtimeLookupWrapper("cudaGetDriverEntryPointByVersion" + Suffix,
                                 true, PerThread);
  }
  // Every gated name and its wrapper, for the lookups.
  Text += "namespace {\nstruct GatedPointer {\n  const char *Name;\n"
          "  void *Wrapper;\n};\n\nconst GatedPointer GatedPointers[] = {\n";
  std::vector<std::string> Names = lookupEntryNames();
  for (const GatedEntry &E : gatedEntries())
    Names.push_back(E.Name);
  for (const std::string &Name : Names)
    Text += "    {\"" + Name + "\", reinterpret_cast<void *>(&__wrap_" + Name +
            ")},\n";
  Text += R"(};

void *gatedPointer(const char *Name, void *Found) {
  if (!Found || !Name)
    return Found;
  for (const GatedPointer &Entry : GatedPointers)
    if (strcmp(Entry.Name, Name) == 0)
      return Entry.Wrapper;
  return Found;
}
} // namespace
)";
  return Text;
}

} // namespace

const std::string &launchGateSource() {
  static const std::string Source = makeSource();
  return Source;
}

std::string reservedLaunchGateName(const std::string &Code) {
  std::string Text = codeWithoutComments(Code);
  for (size_t At = 0; At < Text.size();) {
    if (!isWordChar(Text[At])) {
      ++At;
      continue;
    }
    size_t End = wordEnd(Text, At);
    std::string Word = Text.substr(At, End - At);
    if (Word.rfind("kevin_skip", 0) == 0 || Word.rfind("__wrap_", 0) == 0 ||
        Word.rfind("__real_", 0) == 0)
      return Word;
    At = End;
  }
  return "";
}

std::string launchGateBypass(const std::string &SymbolTable) {
  std::istringstream Lines(SymbolTable);
  for (std::string Line; std::getline(Lines, Line);) {
    std::istringstream Fields(Line);
    std::string Name, Type;
    if (!(Fields >> Name >> Type))
      continue;
    bool Undefined = Type == "U" || Type == "w" || Type == "v";
    if (Undefined &&
        (Name.find('@') != std::string::npos || Name.rfind("__real_", 0) == 0 ||
         Name.rfind("kevin_skip", 0) == 0))
      return Name;
    if (!Undefined &&
        (Name.rfind("kevin_skip", 0) == 0 || Name.rfind("__wrap_", 0) == 0))
      return Name;
  }
  return "";
}

std::vector<std::string> launchGateLinkFlags() {
  std::vector<std::string> Flags;
  for (const GatedEntry &E : gatedEntries())
    Flags.push_back("-Wl,--wrap=" + E.Name);
  for (const std::string &Name : lookupEntryNames())
    Flags.push_back("-Wl,--wrap=" + Name);
  return Flags;
}

} // namespace kevin

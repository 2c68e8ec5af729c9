//===-- LaunchGate.cpp - the launch gate linked into CUDA extensions ------===//
//
// The source of the gate and the `--wrap` flags that put it between a CUDA
// extension's objects and the CUDA runtime and driver (KEVIN-RT-010).
//
//===----------------------------------------------------------------------===//
#include "kevin/Build/LaunchGate.h"
#include "kevin/Build/FunctionDeclaration.h"

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
    // Each comes in the legacy default stream's and the per-thread default
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
    return List;
  }();
  return Entries;
}

std::string makeSource() {
  std::string Text =
      R"(// kevin's launch gate (KEVIN-RT-010), linked into this CUDA extension:
// the extension's kernel launches come here (ld --wrap). In a kevin-worker
// replaying a call without the candidate's kernels they launch nothing and
// are counted; everywhere else they go on to CUDA unchanged.
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

extern "C" {
extern int kevin_skip_candidate_launches __attribute__((weak));
extern unsigned long long kevin_skipped_candidate_launches
    __attribute__((weak));
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
  void *Found = dlsym(RTLD_DEFAULT, Name);
  if (!Found && Name[0] == 'c' && Name[1] == 'u' && Name[2] != 'd')
    if (void *Driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD))
      Found = dlsym(Driver, Name);
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

std::vector<std::string> launchGateLinkFlags() {
  std::vector<std::string> Flags;
  for (const GatedEntry &E : gatedEntries())
    Flags.push_back("-Wl,--wrap=" + E.Name);
  return Flags;
}

} // namespace kevin

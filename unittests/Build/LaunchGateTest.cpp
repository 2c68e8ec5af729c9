//===-- LaunchGateTest.cpp - the launch gate with the real compiler -------===//
//
// Builds what the builder builds for a CUDA extension, without CUDA: a
// "candidate" object that calls launch entry points, kevin's gate, and the
// --wrap flags, linked against a stand-in runtime whose launches return a
// value made from their arguments. This test binary plays kevin-worker: it
// defines and exports the two variables the gate reads.
//
//===----------------------------------------------------------------------===//
#include "kevin/Build/LaunchGate.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <iterator>

extern "C" {
__attribute__((visibility("default"), used)) int kevin_skip_candidate_launches =
    0;
__attribute__((visibility("default"),
               used)) unsigned long long kevin_skipped_candidate_launches = 0;
}

namespace {

void writeText(const std::filesystem::path &Path, const std::string &Text) {
  std::ofstream(Path) << Text;
}

/// A scratch directory, removed with everything in it.
struct ScratchDir {
  std::filesystem::path Path;
  ScratchDir() {
    char Template[] = "/tmp/kevin-launch-gate-XXXXXX";
    if (::mkdtemp(Template))
      Path = Template;
  }
  ~ScratchDir() {
    if (!Path.empty())
      std::filesystem::remove_all(Path);
  }
};

/// Runs a shell command in Dir; true when it succeeded.
bool run(const std::filesystem::path &Dir, const std::string &Command) {
  std::string Line = "cd '" + Dir.string() + "' && " + Command;
  return std::system(Line.c_str()) == 0;
}

// The stand-in runtime and driver: each launch returns a number that shows
// its arguments arrived unchanged.
constexpr const char *FakeCuda = R"(
#include <dlfcn.h>
#include <stddef.h>
#include <string>
struct Dim3 { unsigned X, Y, Z; };
extern "C" int __cudaLaunchKernel(const void *F, Dim3 G, Dim3 B, void **A,
                                  size_t S, void *St) {
  return 1000 * G.X + 100 * G.Z + 10 * B.Y + (int)S + (St ? 1 : 0);
}
extern "C" int cuLaunchKernel(void *F, unsigned GX, unsigned GY, unsigned GZ,
                              unsigned BX, unsigned BY, unsigned BZ,
                              unsigned S, void *St, void **P, void **E) {
  return (int)(GX + GY + GZ + BX + BY + BZ + S) + (E ? 100 : 0);
}
extern "C" int cuLaunchKernel_ptsz(void *F, unsigned GX, unsigned GY,
                                   unsigned GZ, unsigned BX, unsigned BY,
                                   unsigned BZ, unsigned S, void *St, void **P,
                                   void **E) {
  return 50000 + cuLaunchKernel(F, GX, GY, GZ, BX, BY, BZ, S, St, P, E);
}
// The driver's and the runtime's lookups, by the driver's names.
static void *driverFunction(const char *Name, unsigned long long Flags) {
  std::string Full = std::string(Name) + ((Flags & 2) ? "_ptsz" : "");
  return dlsym(RTLD_DEFAULT, Full.c_str());
}
extern "C" int cuGetProcAddress_v2(const char *Name, void **Found, int Version,
                                   unsigned long long Flags, int *Result) {
  *Found = driverFunction(Name, Flags);
  return *Found ? 0 : 500;
}
extern "C" int cudaGetDriverEntryPoint(const char *Name, void **Found,
                                       unsigned long long Flags,
                                       int *Result) {
  *Found = driverFunction(Name, Flags);
  return *Found ? 0 : 500;
}
extern "C" int cudaGetDriverEntryPoint_ptsz(const char *Name, void **Found,
                                            unsigned long long Flags,
                                            int *Result) {
  *Found = driverFunction(Name, Flags);
  return *Found ? 0 : 500;
}
extern "C" int cuGetProcAddress(const char *Name, void **Found, int Version,
                                unsigned long long Flags) {
  *Found = driverFunction(Name, Flags);
  return *Found ? 0 : 500;
}
extern "C" void registerKernels() {}
)";

constexpr const char *CandidateCode = R"(
#include <stddef.h>
struct Dim3 { unsigned X, Y, Z; };
extern "C" int __cudaLaunchKernel(const void *, Dim3, Dim3, void **, size_t,
                                  void *);
extern "C" int cuLaunchKernel(void *, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, unsigned, void *, void **,
                              void **);
// As nvcc's registration code does, the real extension calls the runtime
// outside its launches too, which keeps the runtime needed.
extern "C" void registerKernels();
__attribute__((constructor)) static void registerAtLoad() {
#ifndef LAUNCHES_ONLY
  registerKernels();
#endif
}
extern "C" int launchThroughRuntime() {
  int Stream;
  return __cudaLaunchKernel(nullptr, Dim3{4, 1, 3}, Dim3{1, 2, 1}, nullptr,
                            5, &Stream);
}
extern "C" int launchThroughDriver() {
  void *Extra[1] = {nullptr};
  return cuLaunchKernel(nullptr, 1, 2, 3, 4, 5, 6, 7, nullptr, nullptr, Extra);
}
// Launches through pointers the candidate looks up by name.
#include <dlfcn.h>
using RuntimeLaunch = int (*)(const void *, Dim3, Dim3, void **, size_t,
                              void *);
using DriverLaunch = int (*)(void *, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, void *, void **,
                             void **);
using DlsymFunction = void *(*)(void *, const char *);
extern "C" int cuGetProcAddress_v2(const char *, void **, int,
                                   unsigned long long, int *);
extern "C" int cudaGetDriverEntryPoint(const char *, void **,
                                       unsigned long long, int *);
extern "C" int launchThroughLookups() {
  // dlsym, and dlsym found through dlsym.
  auto *Dlsym = reinterpret_cast<DlsymFunction>(dlsym(RTLD_DEFAULT, "dlsym"));
  auto *Runtime =
      reinterpret_cast<RuntimeLaunch>(Dlsym(RTLD_DEFAULT, "__cudaLaunchKernel"));
  // The driver's lookup, the per-thread stream's version (flag 2).
  void *Driver = nullptr;
  if (cuGetProcAddress_v2("cuLaunchKernel", &Driver, 13000, 2, nullptr) != 0)
    return -1;
  // The runtime's lookup, the legacy stream's version (flag 1).
  void *Legacy = nullptr;
  if (cudaGetDriverEntryPoint("cuLaunchKernel", &Legacy, 1, nullptr) != 0)
    return -2;
  return Runtime(nullptr, Dim3{1, 0, 0}, Dim3{0, 0, 0}, nullptr, 0, nullptr) +
         reinterpret_cast<DriverLaunch>(Driver)(nullptr, 1, 0, 0, 0, 0, 0, 0,
                                                nullptr, nullptr, nullptr) +
         reinterpret_cast<DriverLaunch>(Legacy)(nullptr, 2, 0, 0, 0, 0, 0, 0,
                                                nullptr, nullptr, nullptr);
}
extern "C" int cuGetProcAddress(const char *, void **, int,
                                unsigned long long);
extern "C" int cudaGetDriverEntryPoint_ptsz(const char *, void **,
                                            unsigned long long, int *);
using ProcAddressV2 = int (*)(const char *, void **, int, unsigned long long,
                              int *);
extern "C" int launchThroughVersionedLookups() {
  // The lookup itself, looked up: of a CUDA 12+ version, the _v2 one.
  void *Lookup = nullptr;
  if (cuGetProcAddress("cuGetProcAddress", &Lookup, 13000, 0) != 0)
    return -1;
  void *Driver = nullptr;
  if (reinterpret_cast<ProcAddressV2>(Lookup)("cuLaunchKernel", &Driver, 13000,
                                              0, nullptr) != 0)
    return -2;
  // The per-thread runtime's lookup: by default the per-thread version.
  void *PerThread = nullptr;
  if (cudaGetDriverEntryPoint_ptsz("cuLaunchKernel", &PerThread, 0, nullptr) !=
      0)
    return -3;
  return reinterpret_cast<DriverLaunch>(Driver)(nullptr, 3, 0, 0, 0, 0, 0, 0,
                                                nullptr, nullptr, nullptr) +
         reinterpret_cast<DriverLaunch>(PerThread)(nullptr, 4, 0, 0, 0, 0, 0,
                                                   0, nullptr, nullptr,
                                                   nullptr);
}
)";

/// Builds, in Dir, the stand-in runtime (libfakecuda.so) and the candidate
/// library (libcandidate.so) as the builder links an extension: the gate
/// beside the candidate's objects, its flags with the libraries. Compile
/// adds to the candidate's compile, Link to the link; true on success.
bool buildCandidate(const std::filesystem::path &Dir,
                    const std::string &Compile, const std::string &Link) {
  writeText(Dir / "fake_cuda.cpp", FakeCuda);
  writeText(Dir / "candidate.cpp", CandidateCode);
  writeText(Dir / "gate.cpp", kevin::launchGateSource());
  std::string GateFlags;
  for (const std::string &Flag : kevin::launchGateLinkFlags())
    GateFlags += " " + Flag;
  return run(Dir, "g++ -shared -fPIC fake_cuda.cpp -o libfakecuda.so") &&
         run(Dir, "g++ -fPIC -O2 " + Compile +
                      " -c candidate.cpp -o candidate.o && "
                      "g++ -fPIC -O2 -c gate.cpp -o gate.o") &&
         run(Dir, "g++ -shared candidate.o gate.o " + Link + " -L. -lfakecuda" +
                      GateFlags + " -Wl,-rpath," + Dir.string() +
                      " -o libcandidate.so");
}

/// The candidate library built in Scratch and loaded; null when either
/// failed.
void *loadedCandidate(const ScratchDir &Scratch) {
  if (Scratch.Path.empty() || !buildCandidate(Scratch.Path, "", ""))
    return nullptr;
  return ::dlopen((Scratch.Path / "libcandidate.so").c_str(), RTLD_NOW);
}

using CandidateEntry = int (*)();

CandidateEntry entryOf(void *Library, const char *Name) {
  return reinterpret_cast<CandidateEntry>(::dlsym(Library, Name));
}

} // namespace

TEST(LaunchGateTest, PassesLaunchesOnUnlessTheProcessSkipsThem) {
  ScratchDir Scratch;
  void *Library = loadedCandidate(Scratch);
  ASSERT_NE(Library, nullptr);
  CandidateEntry Runtime = entryOf(Library, "launchThroughRuntime");
  CandidateEntry Driver = entryOf(Library, "launchThroughDriver");
  ASSERT_NE(Runtime, nullptr);
  ASSERT_NE(Driver, nullptr);

  // Off: every argument reaches the runtime and the driver.
  EXPECT_EQ(Runtime(), 4000 + 300 + 20 + 5 + 1);
  EXPECT_EQ(Driver(), 1 + 2 + 3 + 4 + 5 + 6 + 7 + 100);
  EXPECT_EQ(kevin_skipped_candidate_launches, 0u);

  // On: nothing launches, each call succeeds and is counted.
  kevin_skip_candidate_launches = 1;
  EXPECT_EQ(Runtime(), 0);
  EXPECT_EQ(Driver(), 0);
  EXPECT_EQ(kevin_skipped_candidate_launches, 2u);
  kevin_skip_candidate_launches = 0;
  EXPECT_EQ(Runtime(), 4321 + 5);
  EXPECT_EQ(kevin_skipped_candidate_launches, 2u);
  ::dlclose(Library);
}

TEST(LaunchGateTest, GatesPointersLookedUpByName) {
  ScratchDir Scratch;
  void *Library = loadedCandidate(Scratch);
  ASSERT_NE(Library, nullptr);
  CandidateEntry Launch = entryOf(Library, "launchThroughLookups");
  ASSERT_NE(Launch, nullptr);

  // Off: each pointer reaches the function asked for (the per-thread
  // stream's driver launch adds 50000).
  kevin_skipped_candidate_launches = 0;
  EXPECT_EQ(Launch(), 1000 + 50001 + 2);

  // A lookup of the lookup, by version; the per-thread runtime's default.
  CandidateEntry Versioned = entryOf(Library, "launchThroughVersionedLookups");
  ASSERT_NE(Versioned, nullptr);
  EXPECT_EQ(Versioned(), 3 + 50004);

  // On: none of the five launches.
  kevin_skip_candidate_launches = 1;
  EXPECT_EQ(Launch(), 0);
  EXPECT_EQ(Versioned(), 0);
  EXPECT_EQ(kevin_skipped_candidate_launches, 5u);
  kevin_skip_candidate_launches = 0;
  kevin_skipped_candidate_launches = 0;
  ::dlclose(Library);
}

TEST(LaunchGateTest, FindsAnEntryPointTheLinkerDropped) {
  ScratchDir Scratch;
  ASSERT_FALSE(Scratch.Path.empty());
  const std::filesystem::path &Dir = Scratch.Path;
  // Only the gate's weak references name the stand-in (as only they name
  // the driver in an extension that calls cuLaunchKernel): --as-needed
  // drops it, and the gate looks the entry points up in the process.
  ASSERT_TRUE(buildCandidate(Dir, "-DLAUNCHES_ONLY", "-Wl,--as-needed"));
  ASSERT_FALSE(run(Dir, "readelf -d libcandidate.so | grep -q libfakecuda"));
  void *Runtime =
      ::dlopen((Dir / "libfakecuda.so").c_str(), RTLD_NOW | RTLD_GLOBAL);
  ASSERT_NE(Runtime, nullptr) << ::dlerror();
  void *Library = ::dlopen((Dir / "libcandidate.so").c_str(), RTLD_NOW);
  ASSERT_NE(Library, nullptr) << ::dlerror();
  CandidateEntry Launch = entryOf(Library, "launchThroughRuntime");
  ASSERT_NE(Launch, nullptr);
  EXPECT_EQ(Launch(), 4326);
  ::dlclose(Library);
  ::dlclose(Runtime);
}

TEST(LaunchGateTest, ReservedNames) {
  EXPECT_EQ(kevin::reservedLaunchGateName(
                "__attribute__((visibility(\"hidden\"))) int "
                "kevin_skip_candidate_launches = 0;"),
            "kevin_skip_candidate_launches");
  EXPECT_EQ(kevin::reservedLaunchGateName("r = __real_cudaLaunchKernel(f);"),
            "__real_cudaLaunchKernel");
  EXPECT_EQ(kevin::reservedLaunchGateName("int __wrap_x;"), "__wrap_x");
  // Comments and longer words that merely contain the prefixes are fine.
  EXPECT_EQ(kevin::reservedLaunchGateName(
                "// kevin_skip_candidate_launches\nint my__real_count;"),
            "");
}

/// The symbol table (`nm -P`) of Code compiled with g++ in Dir, or "" when
/// it did not compile.
std::string symbolTableOf(const std::filesystem::path &Dir,
                          const std::string &Code) {
  writeText(Dir / "probe.cpp", Code);
  if (!run(Dir, "g++ -fPIC -O2 -c probe.cpp -o probe.o && nm -P probe.o > "
                "probe.sym"))
    return "";
  std::ifstream In(Dir / "probe.sym");
  return std::string(std::istreambuf_iterator<char>(In), {});
}

TEST(LaunchGateTest, FindsWaysAroundTheGateInObjects) {
  ScratchDir Scratch;
  ASSERT_FALSE(Scratch.Path.empty());
  // An honest candidate's object.
  std::string Honest = symbolTableOf(Scratch.Path, CandidateCode);
  ASSERT_NE(Honest, "");
  EXPECT_EQ(kevin::launchGateBypass(Honest), "");
  // A versioned reference, however the directive is spelled.
  EXPECT_EQ(kevin::launchGateBypass(symbolTableOf(Scratch.Path, R"(
extern "C" void *real_dlsym(void *, const char *);
__asm__(".SYM" "VER real_dlsym, dlsym@GLIBC_2.2.5");
extern "C" void *find(const char *Name) { return real_dlsym(nullptr, Name); }
)")),
            "dlsym@GLIBC_2.2.5");
  // The gate's names, pasted together by the preprocessor.
  EXPECT_EQ(kevin::launchGateBypass(symbolTableOf(Scratch.Path, R"(
#define GLUE(A, B) A##B
extern "C" int GLUE(__re, al_cudaLaunchKernel)(const void *);
extern "C" int launch() { return GLUE(__re, al_cudaLaunchKernel)(nullptr); }
)")),
            "__real_cudaLaunchKernel");
  EXPECT_EQ(kevin::launchGateBypass(symbolTableOf(Scratch.Path, R"(
#define GLUE(A, B) A##B
extern "C" int GLUE(kevin_, skip_candidate_launches) = 0;
)")),
            "kevin_skip_candidate_launches");
  // A reference to kevin-worker's switch, to turn it off from inside.
  EXPECT_EQ(kevin::launchGateBypass(symbolTableOf(Scratch.Path, R"(
extern "C" int kevin_skip_candidate_launches;
extern "C" void off() { kevin_skip_candidate_launches = 0; }
)")),
            "kevin_skip_candidate_launches");
}

TEST(LaunchGateTest, WrapsEveryEntryPointTheGateDefines) {
  const std::string &Source = kevin::launchGateSource();
  std::vector<std::string> Flags = kevin::launchGateLinkFlags();
  // 24 launches (10 of them in two stream versions) and 8 lookups.
  EXPECT_EQ(Flags.size(), 32u);
  for (const std::string &Flag : Flags) {
    std::string Name = Flag.substr(Flag.find('=') + 1);
    EXPECT_NE(Source.find("__wrap_" + Name + "("), std::string::npos) << Name;
  }
  EXPECT_NE(std::find(Flags.begin(), Flags.end(),
                      "-Wl,--wrap=__cudaLaunchKernel_ptsz"),
            Flags.end());
}

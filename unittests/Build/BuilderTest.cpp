//===-- BuilderTest.cpp - tests for kevin/Build (units, keys, mapping) ----===//
#include "kevin/Build/Builder.h"
#include "kevin/Build/DiagnosticMapper.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <stdlib.h>

using namespace kevin;

namespace {

ExtensionSpec reluSpec() {
  ExtensionSpec Spec;
  Spec.Name = "relu_ext";
  Spec.CppSources = {"\ntorch::Tensor f(torch::Tensor x) {\n  return x;\n}\n"};
  Spec.Functions = {{"f", "f"}};
  Spec.ExtraCflags = {"-O3"};
  return Spec;
}

TorchToolchain toolchain() {
  TorchToolchain T;
  T.IncludeDirs = {"/torch/include"};
  T.TorchLibDir = "/torch/lib";
  T.TorchVersion = "1.13.0";
  return T;
}

} // namespace

TEST(BuilderTest, WritesUnitsLikeLoadInline) {
  ExtensionSpec Spec = reluSpec();
  Spec.CudaSources = {"__global__ void k() {}"};
  std::vector<TranslationUnit> Units = writeTranslationUnits(Spec);
  ASSERT_EQ(Units.size(), 2u);
  EXPECT_EQ(Units[0].FileName, "main.cpp");
  EXPECT_TRUE(Units[0].StartsWithExtensionHeader);
  EXPECT_EQ(Units[0].Text.rfind("#include <torch/extension.h>\n", 0), 0u);
  EXPECT_NE(Units[0].Text.find(
                "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n"
                "m.def(\"f\", torch::wrap_pybind_function(f), \"f\");\n}"),
            std::string::npos);
  // The candidate's string starts on line 2; the binding is kevin's piece.
  ASSERT_EQ(Units[0].Pieces.size(), 2u);
  EXPECT_EQ(Units[0].Pieces[0].first, 2u);
  EXPECT_EQ(Units[0].Pieces[1].first, 7u);
  EXPECT_EQ(Units[0].Pieces[1].second, "");
  EXPECT_EQ(Units[1].FileName, "cuda.cu");
  EXPECT_TRUE(Units[1].IsCuda);
  EXPECT_EQ(Units[1].Pieces[0].first, 4u);
}

TEST(BuilderTest, UnwrappedFunctionsAndRawSources) {
  ExtensionSpec Spec = reluSpec();
  Spec.WrapFunctions = false;
  EXPECT_NE(writeTranslationUnits(Spec)[0].Text.find("m.def(\"f\", f, \"f\");"),
            std::string::npos);
  Spec.RawSources = true;
  std::vector<TranslationUnit> Units = writeTranslationUnits(Spec);
  ASSERT_EQ(Units.size(), 1u);
  EXPECT_FALSE(Units[0].StartsWithExtensionHeader);
  EXPECT_EQ(Units[0].Text, Spec.CppSources[0] + "\n");
}

TEST(BuilderTest, KeyCoversSourcesFlagsCompilerAndTorch) {
  ExtensionSpec Spec = reluSpec();
  TorchToolchain T = toolchain();
  std::string Base = computeBuildKey(Spec, T, "g++ 12");
  EXPECT_EQ(Base.size(), 64u);
  EXPECT_EQ(Base, computeBuildKey(Spec, T, "g++ 12"));
  EXPECT_NE(Base, computeBuildKey(Spec, T, "g++ 13"));
  ExtensionSpec Other = Spec;
  Other.CppSources[0] += " ";
  EXPECT_NE(Base, computeBuildKey(Other, T, "g++ 12"));
  Other = Spec;
  Other.ExtraCflags = {"-O2"};
  EXPECT_NE(Base, computeBuildKey(Other, T, "g++ 12"));
  Other = Spec;
  Other.ExtraLdflags = {"-lm"};
  EXPECT_NE(Base, computeBuildKey(Other, T, "g++ 12"));
  TorchToolchain NewTorch = T;
  NewTorch.TorchVersion = "2.11.0";
  EXPECT_NE(Base, computeBuildKey(Spec, NewTorch, "g++ 12"));
  // The CUDA arch matters only to CUDA extensions.
  TorchToolchain Arch = T;
  Arch.CudaArch = "sm_80";
  EXPECT_EQ(Base, computeBuildKey(Spec, Arch, "g++ 12"));
  Other = Spec;
  Other.CudaSources = {"__global__ void k() {}"};
  EXPECT_NE(computeBuildKey(Other, T, "g++ 12"),
            computeBuildKey(Other, Arch, "g++ 12"));
}

TEST(BuilderTest, MissingNvccIsABuildError) {
  ExtensionSpec Spec = reluSpec();
  Spec.CudaSources = {"__global__ void k() {}"};
  BuildOptions Options;
  Options.CacheDir = ::testing::TempDir() + "/kevin-builder-test";
  Expected<BuildResult> R = buildExtension(Spec, toolchain(), Options);
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->Ok);
  EXPECT_EQ(R->Outcome, "build-error");
  EXPECT_NE(R->Message.find("nvcc was not found"), std::string::npos);
}

TEST(DiagnosticMapperTest, MapsUnitLinesToTheCandidate) {
  std::string Py =
      "import torch\nsrc = r\"\"\"\nint f() {\n  return nope;\n}\n\"\"\"\n";
  ExtensionSpec Spec;
  Spec.Name = "e";
  Spec.CppSources = {"\nint f() {\n  return nope;\n}\n"};
  TranslationUnit Unit = writeTranslationUnits(Spec)[0];
  DiagnosticMapper Mapper(Unit, "/b/main.cpp", "cand.py", Py);
  // Unit line 2 is the string's first (empty) line, on .py line 2.
  EXPECT_EQ(Mapper.mapLine(2), 2u);
  EXPECT_EQ(Mapper.mapLine(4), 4u);
  std::string Out = Mapper.map(
      "/b/main.cpp: In function 'int f()':\n"
      "/b/main.cpp:4:10: error: 'nope' was not declared in this scope\n"
      "    4 |   return nope;\n"
      "      |          ^~~~\n");
  EXPECT_EQ(Out, "cand.py: In function 'int f()':\n"
                 "cand.py:4:10: error: 'nope' was not declared in this scope\n"
                 "    4 |   return nope;\n"
                 "      |          ^~~~\n");
}

TEST(DiagnosticMapperTest, ShiftsQuotedLineNumbers) {
  std::string Py =
      "# one\n# two\n# three\nS = '''\nint f() { return nope; }\n'''\n";
  ExtensionSpec Spec;
  Spec.Name = "e";
  Spec.CppSources = {"\nint f() { return nope; }\n"};
  TranslationUnit Unit = writeTranslationUnits(Spec)[0];
  DiagnosticMapper Mapper(Unit, "/b/main.cpp", "c.py", Py);
  std::string Out = Mapper.map(
      "/b/main.cpp:3:18: error: bad\n    3 | int f() { return nope; }\n");
  EXPECT_EQ(Out, "c.py:5:18: error: bad\n    5 | int f() { return nope; }\n");
}

TEST(DiagnosticMapperTest, NvccPositionsAndUnplacedLines) {
  ExtensionSpec Spec;
  Spec.Name = "e";
  Spec.CudaSources = {"__global__ void k() { oops; }"};
  Spec.CppSources = {"int g();"};
  TranslationUnit Cuda = writeTranslationUnits(Spec)[1];
  // The source was built at run time: it is not in the candidate's text.
  DiagnosticMapper Mapper(Cuda, "/b/cuda.cu", "c.py", "code = make()\n");
  std::string Out =
      Mapper.map("/b/cuda.cu(4): error: identifier \"oops\" is undefined\n");
  EXPECT_EQ(Out, "c.py:<source 1 line 1, not found in the candidate>: error: "
                 "identifier \"oops\" is undefined\n");
}

TEST(DiagnosticMapperTest, TruncatesLongOutput) {
  std::string Long;
  for (int I = 0; I < 100; ++I)
    Long += "line " + std::to_string(I) + "\n";
  std::string Cut = truncateMessage(Long, 50);
  EXPECT_LT(Cut.size(), Long.size());
  EXPECT_EQ(Cut.rfind("line 0\n", 0), 0u);
  EXPECT_NE(Cut.find("more bytes of compiler output cut"), std::string::npos);
  EXPECT_EQ(truncateMessage("short", 50), "short");
}

namespace {

/// A toolchain of shell scripts: nvcc logs each call after the header set
/// it was given (facade, minimal, lean or real); given one of kevin's
/// header directories it fails on sources marked `needs_full_header`, given
/// the minimal one or the facade also on those marked `needs_lean_header`,
/// given the facade also on those marked `needs_torch_header`; it always
/// fails on sources marked `always_fails`, saying with which set; given the
/// facade it writes a real object naming a facade type for sources marked
/// `facade_symbol_problem`. g++ makes its -o file (a precompiled
/// header too) and logs each compile after its header set (minimal for
/// kevin's binding set, types for kevin's minimal torch/types.h, facade,
/// or real), and each link to its own log;
/// given the minimal set it fails on sources marked `needs_full_binding`,
/// it fails kevin's split binding unit when that holds `binding_breaks`,
/// and any unit holding `cxx_error`, and the torch facade's support source
/// when the file `support_breaks` is in Dir (its Python support source when
/// `python_support_breaks` is); given the facade, it writes a real object
/// naming a facade type for sources marked `facade_symbol_problem`; it
/// hangs on a unit holding
/// `cxx_hang`; on a unit holding `cxx_undeclared` it says that the bound
/// function f is not declared (and, with `also_other_error`, one more
/// error).
struct FakeCompilers {
  std::string Dir, Log, CxxLog, LinkLog;
  FakeCompilers() {
    char Template[] = "/tmp/kevin-fake-cc.XXXXXX";
    Dir = ::mkdtemp(Template);
    Log = Dir + "/nvcc.log";
    CxxLog = Dir + "/gxx.log";
    LinkLog = Dir + "/link.log";
    write("nvcc", R"([ "$1" = --version ] && { echo 'release 13.0'; exit 0; }
src=$2; out=$4; hdr=real; prev=
for a in "$@"; do
  h="$a/torch/extension.h"
  if [ "$prev" = -I ] && [ -f "$h" ]; then
    if grep -q facade "$h"; then hdr=facade
    elif grep -q minimal "$h"; then hdr=minimal; else hdr=lean; fi
  fi; prev=$a
done
echo "$hdr $*" >> )" + Log +
                      R"(
if grep -q always_fails "$src"; then
  echo "$src(2): error: always error with the $hdr header"; exit 1; fi
if [ $hdr = facade ] && grep -q facade_symbol_problem "$src"; then
  printf 'namespace c10 { inline namespace kevin_facade { struct S {}; } }\nvoid f(c10::S) {}\n' > "$out.cpp"
  exec g++ -c -x c++ "$out.cpp" -o "$out"; fi
if { [ $hdr != real ] && grep -q needs_full_header "$src"; } ||
   { [ $hdr = minimal ] && grep -q needs_lean_header "$src"; } ||
   { [ $hdr = facade ] && grep -q 'needs_lean_header\|needs_torch_header' "$src"; }; then
  echo "$src(2): error: $hdr header error"; exit 1; fi
: > "$out"
)");
    write("g++", R"([ "$1" = --version ] && { echo 'g++ 12'; exit 0; }
hdr=real; prev=; src=; out=
for a in "$@"; do
  if [ "$prev" = -I ] && [ -f "$a/torch/extension.h" ]; then
    hdr=types; grep -q binding "$a/torch/extension.h" && hdr=minimal
    grep -q facade "$a/torch/extension.h" && hdr=facade
  fi
  [ "$prev" = -c ] && src=$a
  [ "$prev" = -o ] && out=$a
  prev=$a
done
if [ -n "$src" ]; then
  echo "$hdr $*" >> )" +
                     CxxLog +
                     R"(
  if [ $hdr = minimal ] && grep -q needs_full_binding "$src"; then
    echo "$src(2): error: minimal binding error"; exit 1; fi
  if grep -q cxx_error "$src"; then
    echo "$src(2): error: $hdr cxx error"; exit 1; fi
  if grep -q cxx_hang "$src"; then exec sleep 30; fi
  if grep -q cxx_undeclared_in_quotes "$src"; then
    printf "$src:9:40: error: \\342\\200\\230f\\342\\200\\231 was not declared in this scope\\n"
    exit 1; fi
  if grep -q cxx_undeclared "$src"; then
    echo "$src:9:40: error: 'f' was not declared in this scope; did you mean 'g'?"
    grep -q also_other_error "$src" && echo "$src:2:1: error: 'torch::Foo' is not a type"
    exit 1; fi
  if [ $hdr = facade ] && grep -q facade_symbol_problem "$src"; then
    printf 'namespace c10 { inline namespace kevin_facade { struct S {}; } }\nvoid f(c10::S) {}\n' > "$out.cpp"
    exec g++ -c -x c++ "$out.cpp" -o "$out"; fi
  case $src in */binding.cpp)
    if grep -q binding_breaks "$src"; then
      echo "$src(2): error: split binding error"; exit 1; fi;;
  */torch_facade_support.cpp)
    if [ -f )" + Dir + R"(/support_breaks ]; then
      echo "$src(2): error: support error"; exit 1; fi;;
  */torch_facade_python.cpp)
    if [ -f )" + Dir + R"(/python_support_breaks ]; then
      echo "$src(2): error: Python support error"; exit 1; fi;;
  esac
else
  echo " $* " >> )" + LinkLog + R"(
fi
: > "$out"
)");
  }
  ~FakeCompilers() { std::filesystem::remove_all(Dir); }
  void write(const std::string &Name, const std::string &Body) {
    std::ofstream(Dir + "/" + Name) << "#!/bin/sh\n" << Body;
    std::filesystem::permissions(Dir + "/" + Name,
                                 std::filesystem::perms::owner_all);
  }
  TorchToolchain toolchain() const {
    TorchToolchain T = ::toolchain();
    T.Cxx = Dir + "/g++";
    T.Nvcc = Dir + "/nvcc";
    return T;
  }
  static std::vector<std::string> lines(const std::string &Path) {
    std::vector<std::string> Lines;
    std::ifstream In(Path);
    for (std::string L; std::getline(In, L);)
      Lines.push_back(L);
    return Lines;
  }
  std::vector<std::string> nvccCalls() const { return lines(Log); }
  std::vector<std::string> cxxCompiles() const { return lines(CxxLog); }
  std::vector<std::string> links() const { return lines(LinkLog); }
  /// A CPU extension whose cpp source is CppSource.
  Expected<BuildResult> buildCpu(const std::string &CppSource,
                                 bool UsePrecompiledHeader = false,
                                 double TimeoutSeconds = 300) const {
    ExtensionSpec Spec = reluSpec();
    Spec.CppSources = {CppSource};
    BuildOptions Options;
    Options.CacheDir = Dir + "/cache";
    Options.UsePrecompiledHeader = UsePrecompiledHeader;
    Options.TimeoutSeconds = TimeoutSeconds;
    return buildExtension(Spec, toolchain(), Options);
  }
  /// A CUDA extension of CudaSource, its cpp source CppSource (reluSpec's
  /// when empty).
  Expected<BuildResult> build(const std::string &CudaSource,
                              const std::string &CppSource = "") const {
    ExtensionSpec Spec = reluSpec();
    if (!CppSource.empty())
      Spec.CppSources = {CppSource};
    Spec.CudaSources = {"#include <torch/extension.h>\n" + CudaSource};
    BuildOptions Options;
    Options.CacheDir = Dir + "/cache";
    Options.UsePrecompiledHeader = false;
    return buildExtension(Spec, toolchain(), Options);
  }
};

} // namespace

/// The header set an nvcc call was given: facade, minimal, lean or real.
std::string headerSetOf(const std::string &Call) {
  return Call.substr(0, Call.find(' '));
}

/// The header sets of nvcc's calls, in order.
std::vector<std::string> nvccHeaderSets(const FakeCompilers &Fake) {
  std::vector<std::string> Sets;
  for (const std::string &Call : Fake.nvccCalls())
    Sets.push_back(headerSetOf(Call));
  return Sets;
}

/// The g++ compiles of the torch facade's support object.
size_t supportCompiles(const FakeCompilers &Fake) {
  size_t N = 0;
  for (const std::string &Call : Fake.cxxCompiles())
    N += Call.find("torch_facade_support.cpp") != std::string::npos;
  return N;
}

TEST(BuilderTest, CudaUnitsGetTheTorchFacadeFirst) {
  FakeCompilers Fake;
  Expected<BuildResult> R =
      Fake.build("__global__ void k() {}\nauto y = torch::empty_like(x);\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::Facade);
  std::vector<std::string> Calls = Fake.nvccCalls();
  ASSERT_EQ(Calls.size(), 1u);
  EXPECT_EQ(headerSetOf(Calls[0]), "facade");
  // In the build's private directory (a candidate could rewrite headers in
  // the cache), before torch's own include directories.
  size_t Include = Calls[0].find("-I " + Fake.Dir + "/cache/tmp/");
  ASSERT_NE(Include, std::string::npos) << Calls[0];
  EXPECT_LT(Include, Calls[0].find("-isystem /torch/include"));
  // c10's Half only for a unit that names it.
  EXPECT_EQ(Calls[0].find("KEVIN_FACADE_HALF"), std::string::npos);
  // The support object is compiled once per cache.
  EXPECT_EQ(supportCompiles(Fake), 1u);
  ExtensionSpec Other = reluSpec();
  Other.Name = "other_ext";
  Other.CudaSources = {"#include <torch/extension.h>\n"
                       "__global__ void k(at::Half *h) {}\n"};
  BuildOptions Options;
  Options.CacheDir = Fake.Dir + "/cache";
  Options.UsePrecompiledHeader = false;
  R = buildExtension(Other, Fake.toolchain(), Options);
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::Facade);
  EXPECT_EQ(supportCompiles(Fake), 1u);
  EXPECT_NE(Fake.nvccCalls().back().find("-DKEVIN_FACADE_HALF"),
            std::string::npos);
}

TEST(BuilderTest, AUnitTheFacadeBreaksGetsTheMinimalExtensionHeader) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.build(
      "// needs_torch_header\n__global__ void k() {}\n"
      "auto y = torch::empty_like(x);\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::Minimal);
  EXPECT_EQ(nvccHeaderSets(Fake),
            (std::vector<std::string>{"facade", "minimal"}));
}

TEST(BuilderTest, AFacadeObjectNamingAFacadeTypeGoesToTheMinimalHeader) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.build(
      "// facade_symbol_problem\n__global__ void k() {}\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::Minimal);
  EXPECT_EQ(nvccHeaderSets(Fake),
            (std::vector<std::string>{"facade", "minimal"}));
  // The support object was compiled from the build's start, beside the
  // units, for the builds that link it (this one does not).
  EXPECT_EQ(supportCompiles(Fake), 1u);
}

TEST(BuilderTest, WithoutTheSupportObjectTheFacadeIsNotUsed) {
  FakeCompilers Fake;
  std::ofstream(Fake.Dir + "/support_breaks") << "";
  Expected<BuildResult> R = Fake.build("__global__ void k() {}\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::Minimal);
  // A support compile that failed is not tried again by later builds.
  ExtensionSpec Other = reluSpec();
  Other.Name = "other_ext";
  Other.CudaSources = {"__global__ void k2() {}\n"};
  BuildOptions Options;
  Options.CacheDir = Fake.Dir + "/cache";
  Options.UsePrecompiledHeader = false;
  R = buildExtension(Other, Fake.toolchain(), Options);
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::Minimal);
  EXPECT_EQ(supportCompiles(Fake), 1u);
}

/// The g++ compile of Source (a file name) in Fake's log, or "".
std::string cxxCompileOf(const FakeCompilers &Fake, const std::string &Source) {
  for (const std::string &Call : Fake.cxxCompiles())
    if (Call.find("/" + Source + " -o ") != std::string::npos)
      return Call;
  return "";
}

/// How many g++ compiles of the facade's Python support object Fake saw.
size_t pythonSupportCompiles(const FakeCompilers &Fake) {
  size_t N = 0;
  for (const std::string &Call : Fake.cxxCompiles())
    N += Call.find("torch_facade_python.cpp") != std::string::npos;
  return N;
}

TEST(BuilderTest, ACudaExtensionsBindingIsCompiledWithTheFacade) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.build("__global__ void k() {}\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Facade);
  EXPECT_TRUE(R->BindingSplit);
  EXPECT_FALSE(R->PrecompiledHeaderUsed);
  // Both halves with the facade, kevin's at -O1 with the facade's binding
  // header; the unit is not compiled whole.
  std::string Binding = cxxCompileOf(Fake, "binding.cpp");
  std::string Candidate = cxxCompileOf(Fake, "candidate.cpp");
  EXPECT_EQ(headerSetOf(Binding), "facade") << Binding;
  EXPECT_NE(Binding.find("/kevin_torch_facade_binding.h -c "),
            std::string::npos)
      << Binding;
  EXPECT_NE(Binding.find(" -O1 "), std::string::npos) << Binding;
  EXPECT_EQ(headerSetOf(Candidate), "facade") << Candidate;
  EXPECT_NE(Candidate.find(" -O3 "), std::string::npos) << Candidate;
  EXPECT_EQ(cxxCompileOf(Fake, "main.cpp"), "");
  // The link takes both halves and both support objects, compiled once per
  // cache.
  ASSERT_EQ(Fake.links().size(), 1u);
  for (const char *Object :
       {" candidate.o ", " binding.o ", " kevin_torch_facade_support.o ",
        " kevin_torch_facade_python.o "})
    EXPECT_NE(Fake.links()[0].find(Object), std::string::npos) << Object;
  EXPECT_EQ(pythonSupportCompiles(Fake), 1u);
  ASSERT_TRUE(Fake.build("__global__ void k2() {}\n"));
  EXPECT_EQ(pythonSupportCompiles(Fake), 1u);
  EXPECT_EQ(supportCompiles(Fake), 1u);
}

TEST(BuilderTest, TheSharedObjectsAreMadeAheadOfTheFirstBuild) {
  FakeCompilers Fake;
  BuildOptions Options;
  Options.CacheDir = Fake.Dir + "/cache";
  EXPECT_TRUE(prepareSharedBuildObjects(Fake.toolchain(), Options));
  EXPECT_EQ(supportCompiles(Fake), 1u);
  EXPECT_EQ(pythonSupportCompiles(Fake), 1u);
  // The first build finds them made.
  Expected<BuildResult> R = Fake.build("__global__ void k() {}\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Facade);
  EXPECT_EQ(supportCompiles(Fake), 1u);
  EXPECT_EQ(pythonSupportCompiles(Fake), 1u);
  EXPECT_TRUE(prepareSharedBuildObjects(Fake.toolchain(), Options));
  EXPECT_EQ(supportCompiles(Fake), 1u);
}

TEST(BuilderTest, SharedObjectsThatCannotBeMadeOrAreNotNeeded) {
  FakeCompilers Fake;
  BuildOptions Options;
  Options.CacheDir = Fake.Dir + "/cache";
  std::ofstream(Fake.Dir + "/support_breaks") << "";
  EXPECT_FALSE(prepareSharedBuildObjects(Fake.toolchain(), Options));
  // Without nvcc no build links them: nothing to make.
  FakeCompilers NoCuda;
  TorchToolchain T = NoCuda.toolchain();
  T.Nvcc.clear();
  Options.CacheDir = NoCuda.Dir + "/cache";
  EXPECT_TRUE(prepareSharedBuildObjects(T, Options));
  EXPECT_TRUE(NoCuda.cxxCompiles().empty());
}

TEST(BuilderTest, ABoundFunctionTheFacadeCannotConvertKeepsKevinsBindingSet) {
  // A pointer is no argument pybind11 converts as torch does.
  FakeCompilers Fake;
  Expected<BuildResult> R =
      Fake.build("__global__ void k() {}\n",
                 "torch::Tensor f(torch::Tensor x, int64_t *n) { return x; }\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Minimal);
  EXPECT_FALSE(R->BindingSplit);
  EXPECT_EQ(headerSetOf(cxxCompileOf(Fake, "main.cpp")), "minimal");
  EXPECT_EQ(pythonSupportCompiles(Fake), 0u);
  ASSERT_EQ(Fake.links().size(), 1u);
  EXPECT_EQ(Fake.links()[0].find("kevin_torch_facade_python.o"),
            std::string::npos);
}

TEST(BuilderTest, AFacadeBindingThatFailsIsCompiledWhole) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.build(
      "__global__ void k() {}\n",
      "torch::Tensor f(torch::Tensor binding_breaks) { return binding_breaks; }\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_FALSE(R->BindingSplit);
  EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Minimal);
  EXPECT_EQ(headerSetOf(cxxCompileOf(Fake, "binding.cpp")), "facade");
  EXPECT_EQ(headerSetOf(cxxCompileOf(Fake, "main.cpp")), "minimal");
  ASSERT_EQ(Fake.links().size(), 1u);
  EXPECT_EQ(Fake.links()[0].find(" binding.o "), std::string::npos);
  EXPECT_EQ(Fake.links()[0].find("kevin_torch_facade_python.o"),
            std::string::npos);
}

TEST(BuilderTest, AFacadeBindingThatCannotBeLinkedIsCompiledWhole) {
  // Without the Python support object, and with a candidate's half whose
  // object names a facade type.
  for (const char *Case : {"python_support_breaks", "facade_symbol_problem"}) {
    FakeCompilers Fake;
    std::string Cpp = "torch::Tensor f(torch::Tensor x) { return x; }\n";
    if (std::string(Case) == "python_support_breaks")
      std::ofstream(Fake.Dir + "/python_support_breaks") << "";
    else
      Cpp = "// facade_symbol_problem\n" + Cpp;
    Expected<BuildResult> R = Fake.build("__global__ void k() {}\n", Cpp);
    ASSERT_TRUE(R) << R.error().message();
    EXPECT_TRUE(R->Ok) << Case << ": " << R->Message;
    EXPECT_FALSE(R->BindingSplit) << Case;
    EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Minimal) << Case;
    EXPECT_EQ(headerSetOf(cxxCompileOf(Fake, "main.cpp")), "minimal") << Case;
    ASSERT_EQ(Fake.links().size(), 1u);
    EXPECT_EQ(Fake.links()[0].find("kevin_torch_facade_python.o"),
              std::string::npos)
        << Case;
  }
}

TEST(BuilderTest, AUnitCallingOtherTorchFunctionsStartsWithTheLeanHeader) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.build("auto y = torch::matmul(a, b);\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::Lean);
  EXPECT_EQ(nvccHeaderSets(Fake),
            (std::vector<std::string>{"lean"}));
}

TEST(BuilderTest, AUnitTheMinimalHeaderBreaksIsBuiltWithTheRealOne) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.build("// needs_lean_header\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::Full);
  EXPECT_EQ(nvccHeaderSets(Fake),
            (std::vector<std::string>{"facade", "minimal", "real"}));
}

TEST(BuilderTest, AUnitTheLeanHeaderBreaksIsBuiltWithTheRealOne) {
  FakeCompilers Fake;
  Expected<BuildResult> R =
      Fake.build("// needs_full_header\nauto y = torch::matmul(a, b);\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::Full);
  EXPECT_EQ(nvccHeaderSets(Fake),
            (std::vector<std::string>{"lean", "real"}));
}

TEST(BuilderTest, ABuildErrorIsReportedFromTheRealHeader) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.build("// always_fails\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_FALSE(R->Ok);
  EXPECT_EQ(R->Outcome, "build-error");
  // Only the last compile's errors, with torch's own header, are reported.
  EXPECT_NE(R->Message.find("always error with the real header"),
            std::string::npos)
      << R->Message;
  EXPECT_EQ(R->Message.find("with the facade header"), std::string::npos);
  EXPECT_EQ(R->Message.find("with the minimal header"), std::string::npos);
  EXPECT_EQ(nvccHeaderSets(Fake),
            (std::vector<std::string>{"facade", "minimal", "real"}));
}

TEST(BuilderTest, TheMinimalHeaderScanLetsThroughFactoriesAndOptions) {
  EXPECT_TRUE(fitsMinimalTorchHeader(
      "#include <torch/extension.h>\n"
      "auto y = torch::empty_like(x);\n"
      "auto z = at :: zeros ({n}, torch::TensorOptions().dtype(torch::kF32));\n"
      "auto s = at::cuda::getCurrentCUDAStream();\n"
      "c10::cuda::CUDAGuard g(x.device());\n"));
}

TEST(BuilderTest, TheMinimalHeaderScanStopsWhatCouldFailOrDiffer) {
  // A call it does not declare.
  EXPECT_FALSE(fitsMinimalTorchHeader("auto y = torch::matmul(a, b);"));
  EXPECT_FALSE(fitsMinimalTorchHeader("auto y = at::\n  mm (a, b);"));
  // Another torch header includes torch's own torch/types.h.
  EXPECT_FALSE(fitsMinimalTorchHeader("#include <torch/torch.h>\n"));
  // Calls that may reach ATen's ops unqualified.
  EXPECT_FALSE(fitsMinimalTorchHeader("using namespace torch;\nrelu(x);"));
  EXPECT_FALSE(fitsMinimalTorchHeader("namespace F = torch::nn::functional;"));
  EXPECT_FALSE(fitsMinimalTorchHeader("namespace A = ::at;"));
  EXPECT_TRUE(fitsMinimalTorchHeader("namespace cg = cooperative_groups;"));
  // at:: factories ignore or refuse requires_grad; torch::'s honour it.
  EXPECT_FALSE(fitsMinimalTorchHeader(
      "torch::zeros({1}, torch::TensorOptions().requires_grad(true));"));
  // A long identifier or a long run of spaces is scanned, not recursed on.
  EXPECT_TRUE(fitsMinimalTorchHeader("torch::" + std::string(1 << 20, 'a')));
  EXPECT_FALSE(
      fitsMinimalTorchHeader("torch::f" + std::string(1 << 20, ' ') + "("));
}

TEST(BuilderTest, BindingUnitsGetTheMinimalBindingHeader) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.buildCpu(
      "torch::Tensor f(torch::Tensor x) { return torch::empty_like(x); }\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Minimal);
  EXPECT_EQ(R->CudaHeaderUsed, TorchHeader::None);
  std::vector<std::string> Calls = Fake.cxxCompiles();
  ASSERT_EQ(Calls.size(), 1u);
  EXPECT_EQ(headerSetOf(Calls[0]), "minimal");
  // In the build's private directory, before torch's include directories.
  size_t Include = Calls[0].find("-I " + Fake.Dir + "/cache/tmp/");
  ASSERT_NE(Include, std::string::npos) << Calls[0];
  EXPECT_LT(Include, Calls[0].find("-isystem /torch/include"));
}

TEST(BuilderTest, ABindingTheMinimalHeaderBreaksIsBuiltWithTheRealOne) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.buildCpu("// needs_full_binding\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Full);
  std::vector<std::string> Calls = Fake.cxxCompiles();
  ASSERT_EQ(Calls.size(), 2u);
  EXPECT_EQ(headerSetOf(Calls[0]), "minimal");
  EXPECT_EQ(headerSetOf(Calls[1]), "real");
}

TEST(BuilderTest, ABoundFunctionTheCandidateNeverWroteFailsWithoutTheRealHeader) {
  // f is in no word of the sources (ff is another name), quoted as in the C
  // locale or in a UTF-8 one.
  for (const char *Source :
       {"// cxx_undeclared\n", "// cxx_undeclared\nint ff;\n",
        "// cxx_undeclared_in_quotes\n"}) {
    FakeCompilers Fake;
    Expected<BuildResult> R = Fake.buildCpu(Source);
    ASSERT_TRUE(R) << R.error().message();
    EXPECT_EQ(R->Outcome, "build-error");
    EXPECT_NE(R->Message.find("was not declared in this scope"),
              std::string::npos)
        << R->Message;
    EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Minimal) << Source;
    std::vector<std::string> Calls = Fake.cxxCompiles();
    ASSERT_EQ(Calls.size(), 1u) << Source;
    EXPECT_EQ(headerSetOf(Calls[0]), "minimal");
  }
}

TEST(BuilderTest, AnUndeclaredBoundFunctionTheCandidateWroteGetsTheRealHeader) {
  // Spelled in the candidate's code (here declared as a variable), or beside
  // another error: torch's header may change the message.
  for (const char *Source :
       {"// cxx_undeclared\nint f;\n", "// cxx_undeclared, f in a comment\n",
        "// cxx_undeclared also_other_error\n"}) {
    FakeCompilers Fake;
    Expected<BuildResult> R = Fake.buildCpu(Source);
    ASSERT_TRUE(R) << R.error().message();
    EXPECT_EQ(R->Outcome, "build-error");
    EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Full) << Source;
    std::vector<std::string> Calls = Fake.cxxCompiles();
    ASSERT_EQ(Calls.size(), 2u) << Source;
    EXPECT_EQ(headerSetOf(Calls[1]), "real");
  }
}

TEST(BuilderTest, ABindingCallingOtherTorchFunctionsGetsTheRealHeader) {
  FakeCompilers Fake;
  Expected<BuildResult> R =
      Fake.buildCpu("auto f(torch::Tensor a) { return torch::matmul(a, a); }\n");
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Full);
  std::vector<std::string> Calls = Fake.cxxCompiles();
  ASSERT_EQ(Calls.size(), 1u);
  EXPECT_EQ(headerSetOf(Calls[0]), "real");
}

TEST(BuilderTest, DeclaredFunctionNamesAreTheOnesAfterATypeNotCalls) {
  std::set<std::string> Names = declaredFunctionNames(
      "torch::Tensor softmax(const torch::Tensor& x, int d);\n"
      "__device__ __forceinline__ float gelu(float x) { return x; }\n"
      "std::vector<at::Tensor> split_all(at::Tensor x) {\n"
      "  auto y = relu(x); return sigmoid(y) + p->tanh(y) + x.exp();\n"
      "  // float cos(comment)\n"
      "  TORCH_CHECK(ok, \"expected float (32 bit)\");\n"
      "}\n");
  EXPECT_EQ(Names,
            (std::set<std::string>{"softmax", "gelu", "split_all"}));
}

TEST(BuilderTest, AUnitDeclaringAnAtenOpNameIsNotGivenTheMinimalSet) {
  std::string Include = ::testing::TempDir() + "/kevin-aten-ops";
  std::filesystem::create_directories(Include + "/ATen/ops");
  std::ofstream(Include + "/ATen/ops/softmax.h") << "";
  std::ofstream(Include + "/ATen/ops/empty_like.h") << "";
  // With torch's headers, softmax(x, d) on a tensor may reach at::softmax.
  EXPECT_TRUE(declaresAtenOpName(
      "torch::Tensor softmax(torch::Tensor x, int d) { return x; }",
      {"/nonexistent", Include}));
  // Calling an op, or declaring a name ATen lacks or the set has, is fine.
  EXPECT_FALSE(declaresAtenOpName("auto y = softmax(x, 1);", {Include}));
  EXPECT_FALSE(declaresAtenOpName("torch::Tensor softmax_forward(x);",
                                  {Include}));
  EXPECT_FALSE(declaresAtenOpName("at::Tensor empty_like(at::Tensor);",
                                  {Include}));
  std::filesystem::remove_all(Include);
}

TEST(BuilderTest, TheMinimalHeaderScanStopsQuotedTorchIncludes) {
  EXPECT_FALSE(fitsMinimalTorchHeader("#include \"torch/torch.h\"\n"));
  EXPECT_TRUE(fitsMinimalTorchHeader("#include \"torch/extension.h\"\n"));
}

namespace {

/// The file a compile logged by the fake g++ compiled (its -c argument).
std::string sourceOf(const std::string &Call) {
  size_t C = Call.find(" -c ");
  std::string Path = Call.substr(C + 4, Call.find(' ', C + 4) - C - 4);
  return Path.substr(Path.rfind('/') + 1);
}

} // namespace

TEST(BuilderTest, TheBindingUnitIsSplitOnceItsPrecompiledHeaderIsMade) {
  FakeCompilers Fake;
  // The first build compiles the unit whole and makes the header.
  Expected<BuildResult> First = Fake.buildCpu(
      "torch::Tensor f(torch::Tensor x) { return torch::empty_like(x); }\n",
      true);
  ASSERT_TRUE(First) << First.error().message();
  EXPECT_TRUE(First->Ok) << First->Message;
  EXPECT_FALSE(First->BindingSplit);
  ASSERT_EQ(Fake.cxxCompiles().size(), 1u);
  EXPECT_EQ(sourceOf(Fake.cxxCompiles()[0]), "main.cpp");
  // The next one compiles the candidate's code and kevin's binding side by
  // side, the binding at -O1 with the header.
  Expected<BuildResult> Second = Fake.buildCpu(
      "torch::Tensor f(torch::Tensor x) { return torch::zeros_like(x); }\n",
      true);
  ASSERT_TRUE(Second) << Second.error().message();
  EXPECT_TRUE(Second->Ok) << Second->Message;
  EXPECT_TRUE(Second->BindingSplit);
  EXPECT_TRUE(Second->PrecompiledHeaderUsed);
  EXPECT_EQ(Second->BindingHeaderUsed, TorchHeader::Minimal);
  std::vector<std::string> Calls = Fake.cxxCompiles();
  ASSERT_EQ(Calls.size(), 3u);
  std::map<std::string, std::string> BySource;
  for (size_t I = 1; I < 3; ++I)
    BySource[sourceOf(Calls[I])] = Calls[I];
  ASSERT_EQ(BySource.count("binding.cpp"), 1u);
  ASSERT_EQ(BySource.count("candidate.cpp"), 1u);
  const std::string &Binding = BySource["binding.cpp"];
  EXPECT_EQ(headerSetOf(Binding), "minimal");
  EXPECT_NE(Binding.find(" -O1 "), std::string::npos) << Binding;
  EXPECT_EQ(Binding.find(" -O3 "), std::string::npos) << Binding;
  EXPECT_NE(Binding.find("/binding.h -Winvalid-pch"), std::string::npos);
  const std::string &Candidate = BySource["candidate.cpp"];
  EXPECT_EQ(headerSetOf(Candidate), "types");
  EXPECT_NE(Candidate.find(" -O3 "), std::string::npos) << Candidate;
}

TEST(BuilderTest, ASplitBindingThatFailsIsCompiledWhole) {
  FakeCompilers Fake;
  ASSERT_TRUE(Fake.buildCpu("torch::Tensor f(torch::Tensor x);\n", true));
  // kevin's half fails: the whole unit is tried with kevin's set first.
  Expected<BuildResult> R = Fake.buildCpu(
      "torch::Tensor f(torch::Tensor binding_breaks) { return x; }\n", true);
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_FALSE(R->BindingSplit);
  EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Minimal);
  std::vector<std::string> Calls = Fake.cxxCompiles();
  ASSERT_EQ(Calls.size(), 4u);
  EXPECT_EQ(sourceOf(Calls[3]), "main.cpp");
  EXPECT_EQ(headerSetOf(Calls[3]), "minimal");
}

TEST(BuilderTest, ACandidateErrorInASplitIsReportedFromTheRealHeader) {
  FakeCompilers Fake;
  ASSERT_TRUE(Fake.buildCpu("torch::Tensor f(torch::Tensor x);\n", true));
  Expected<BuildResult> R = Fake.buildCpu(
      "torch::Tensor f(torch::Tensor x) { return cxx_error; }\n", true);
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_FALSE(R->Ok);
  EXPECT_EQ(R->BindingHeaderUsed, TorchHeader::Full);
  EXPECT_NE(R->Message.find("real cxx error"), std::string::npos) << R->Message;
  EXPECT_EQ(R->Message.find("types cxx error"), std::string::npos);
  EXPECT_EQ(R->Message.find("minimal cxx error"), std::string::npos);
  // The whole unit with kevin's binding set (it has more than the minimal
  // torch/types.h), then with torch's header, whose message is reported.
  std::vector<std::string> Calls = Fake.cxxCompiles();
  ASSERT_EQ(Calls.size(), 5u);
  EXPECT_EQ(sourceOf(Calls[3]), "main.cpp");
  EXPECT_EQ(headerSetOf(Calls[3]), "minimal");
  EXPECT_EQ(sourceOf(Calls[4]), "main.cpp");
  EXPECT_EQ(headerSetOf(Calls[4]), "real");
}

TEST(BuilderTest, AMinimalBindingCompileThatTimesOutIsNotRetried) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.buildCpu("// cxx_hang\n", false, 1);
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(R->Outcome, "timeout");
  ASSERT_EQ(Fake.cxxCompiles().size(), 1u);
  EXPECT_EQ(headerSetOf(Fake.cxxCompiles()[0]), "minimal");
}

TEST(BuilderTest, ASplitHalfThatTimesOutIsATimeout) {
  FakeCompilers Fake;
  ASSERT_TRUE(Fake.buildCpu("torch::Tensor f(torch::Tensor x);\n", true));
  Expected<BuildResult> R = Fake.buildCpu(
      "torch::Tensor f(torch::Tensor x) { return x; } // cxx_hang\n", true, 1);
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(R->Outcome, "timeout");
  EXPECT_FALSE(R->BindingSplit);
  // The two halves, and no whole unit after them.
  EXPECT_EQ(Fake.cxxCompiles().size(), 3u);
}

TEST(BuilderTest, TorchsHeaderComesWithItsPrecompiledHeaderWhenAsked) {
  auto usesPch = [](const std::string &Call) {
    return Call.find("/torch_extension.h -Winvalid-pch") != std::string::npos;
  };
  for (bool UsePch : {false, true}) {
    FakeCompilers Fake;
    // A unit that goes straight to torch's header makes its precompiled
    // header when asked.
    Expected<BuildResult> R = Fake.buildCpu(
        "auto f(torch::Tensor a) { return torch::matmul(a, a); }\n", UsePch);
    ASSERT_TRUE(R) << R.error().message();
    EXPECT_TRUE(R->Ok) << R->Message;
    EXPECT_EQ(R->PrecompiledHeaderUsed, UsePch);
    std::vector<std::string> Calls = Fake.cxxCompiles();
    ASSERT_EQ(Calls.size(), 1u);
    EXPECT_EQ(headerSetOf(Calls[0]), "real");
    EXPECT_EQ(usesPch(Calls[0]), UsePch) << Calls[0];
    // One that failed with kevin's binding set then takes it from the cache.
    R = Fake.buildCpu("// needs_full_binding\n", UsePch);
    ASSERT_TRUE(R) << R.error().message();
    EXPECT_TRUE(R->Ok) << R->Message;
    EXPECT_EQ(R->PrecompiledHeaderUsed, UsePch);
    Calls = Fake.cxxCompiles();
    ASSERT_EQ(Calls.size(), 3u);
    EXPECT_EQ(headerSetOf(Calls[2]), "real");
    EXPECT_EQ(usesPch(Calls[2]), UsePch) << Calls[2];
  }
}

TEST(BuilderTest, AUnitTheBindingSetBreaksDoesNotWaitForTorchsPrecompiledHeader) {
  FakeCompilers Fake;
  Expected<BuildResult> R = Fake.buildCpu("// needs_full_binding\n", true);
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_TRUE(R->Ok) << R->Message;
  EXPECT_FALSE(R->PrecompiledHeaderUsed);
  std::vector<std::string> Calls = Fake.cxxCompiles();
  ASSERT_EQ(Calls.size(), 2u);
  EXPECT_EQ(headerSetOf(Calls[1]), "real");
  EXPECT_EQ(Calls[1].find("-Winvalid-pch"), std::string::npos) << Calls[1];
  // Nor is it made for later builds (kevin's binding set's is).
  for (const auto &Entry :
       std::filesystem::recursive_directory_iterator(Fake.Dir + "/cache/pch"))
    EXPECT_NE(Entry.path().filename(), "torch_extension.h.gch");
}

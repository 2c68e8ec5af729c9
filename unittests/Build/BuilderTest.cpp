//===-- BuilderTest.cpp - tests for kevin/Build (units, keys, mapping) ----===//
#include "kevin/Build/Builder.h"
#include "kevin/Build/DiagnosticMapper.h"

#include <gtest/gtest.h>

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

//===-- TorchFacadeTest.cpp - tests for kevin's torch facade --------------===//
#include "TorchFacade.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace kevin;

namespace {

const std::vector<std::string> NoIncludeDirs;

/// g++ compiles Source into Dir/unit.o; the object's file name.
std::string compileObject(const std::string &Dir, const std::string &Source) {
  std::ofstream(Dir + "/unit.cpp") << Source;
  std::string Command =
      "g++ -c -O2 -o " + Dir + "/unit.o " + Dir + "/unit.cpp 2>&1";
  EXPECT_EQ(std::system(Command.c_str()), 0) << Source;
  return "unit.o";
}

struct ObjectDir {
  std::string Path;
  ObjectDir() {
    char Template[] = "/tmp/kevin-facade-test.XXXXXX";
    Path = ::mkdtemp(Template);
  }
  ~ObjectDir() { std::filesystem::remove_all(Path); }
  std::string problem(const std::string &Source) const {
    return torchFacadeObjectProblem(compileObject(Path, Source), Path + "/",
                                    TorchToolchain(), BuildOptions());
  }
};

} // namespace

TEST(TorchFacadeTest, TheScanLetsThroughTheHeadersItStandsInFor) {
  EXPECT_TRUE(fitsTorchFacade(
      "#include <torch/extension.h>\n#include <ATen/cuda/CUDAContext.h>\n"
      "  #  include <c10/cuda/CUDAGuard.h>\n#include <c10/util/Half.h>\n"
      "#include <cuda_fp16.h>\n#include <vector>\n"
      "auto y = torch::empty_like(x);\n",
      NoIncludeDirs));
}

TEST(TorchFacadeTest, TheScanStopsOtherTorchHeadersAndCalls) {
  EXPECT_FALSE(
      fitsTorchFacade("#include <ATen/cuda/CUDAEvent.h>\n", NoIncludeDirs));
  EXPECT_FALSE(
      fitsTorchFacade("#include \"c10/core/ScalarType.h\"\n", NoIncludeDirs));
  EXPECT_FALSE(fitsTorchFacade("#include <torch/torch.h>\n", NoIncludeDirs));
  EXPECT_FALSE(
      fitsTorchFacade("auto y = torch::matmul(a, b);\n", NoIncludeDirs));
  EXPECT_FALSE(fitsTorchFacade("using namespace torch;\n", NoIncludeDirs));
}

TEST(TorchFacadeTest, HalfAndBFloat16OnlyWhenNamed) {
  EXPECT_TRUE(torchFacadeDefines("__global__ void k(float *x) {}").empty());
  EXPECT_EQ(torchFacadeDefines("AT_DISPATCH_FLOATING_TYPES_AND_HALF(").at(0),
            "-DKEVIN_FACADE_HALF");
  EXPECT_EQ(torchFacadeDefines("c10::BFloat16 *p;").at(0),
            "-DKEVIN_FACADE_BFLOAT16");
}

TEST(TorchFacadeTest, ObjectsThatOnlyPassTensorsLink) {
  ObjectDir D;
  EXPECT_EQ(D.problem("namespace at { class Tensor { void *I; public: "
                      "Tensor(const Tensor &); ~Tensor(); }; }\n"
                      "int launch(at::Tensor x, long n) { return n; }\n"),
            "");
}

TEST(TorchFacadeTest, ObjectsNamingTheFacadesTypesAreRecompiled) {
  ObjectDir D;
  std::string Problem =
      D.problem("namespace c10 { inline namespace kevin_facade { "
                "enum class ScalarType : signed char { Float = 6 }; } }\n"
                "int cast(c10::ScalarType t) { return int(t); }\n");
  EXPECT_NE(Problem.find("names a type of kevin's torch facade"),
            std::string::npos)
      << Problem;
}

TEST(TorchFacadeTest, ObjectsReachingTorchsOwnCodeAreRecompiled) {
  ObjectDir D;
  std::string Problem = D.problem("namespace at { void empty(long); }\n"
                                  "void f() { at::empty(3); }\n");
  EXPECT_NE(Problem.find("'at::empty(long)' is torch's (referred to)"),
            std::string::npos)
      << Problem;
  Problem = D.problem("namespace c10 { void g(int) {} }\n");
  EXPECT_NE(Problem.find("(defined)"), std::string::npos) << Problem;
}

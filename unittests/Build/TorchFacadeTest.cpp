//===-- TorchFacadeTest.cpp - tests for kevin's torch facade --------------===//
#include "TorchFacade.h"
#include "TorchHeaders.h"

#include <gtest/gtest.h>

#include <cstdio>
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

namespace {

/// The output of a shell command, empty when it fails.
std::string commandOutput(const std::string &Command) {
  std::string Output;
  if (FILE *Pipe = ::popen((Command + " 2>/dev/null").c_str(), "r")) {
    char Buffer[4096];
    for (size_t N; (N = std::fread(Buffer, 1, sizeof(Buffer), Pipe)) > 0;)
      Output.append(Buffer, N);
    if (::pclose(Pipe) != 0)
      Output.clear();
  }
  return Output;
}

/// The facade's header directory, as kevin writes it for a build, and the
/// CUDA toolkit's include directory; compiles sources against them.
struct FacadeCompiler {
  ObjectDir Dir;
  std::string FacadeDir, CudaInclude, Nvcc, TorchIncludes;
  FacadeCompiler() {
    FacadeDir = writeHeaderDir(Dir.Path + "/facade", HeaderSet::Facade);
    Nvcc = commandOutput("command -v nvcc || ls /usr/local/cuda/bin/nvcc");
    if (!Nvcc.empty())
      Nvcc.pop_back();
    std::string Root =
        Nvcc.empty() ? "/usr/local/cuda" : Nvcc.substr(0, Nvcc.rfind("/bin/"));
    if (std::filesystem::exists(Root + "/include/cuda_runtime.h"))
      CudaInclude = Root + "/include";
    for (const char *Python : {"python3", "/usr/bin/python3"}) {
      std::string Dirs = commandOutput(
          std::string(Python) +
          " -c 'from torch.utils.cpp_extension import include_paths; "
          "print(\" \".join(\"-isystem \" + d for d in include_paths()))'");
      if (!Dirs.empty()) {
        TorchIncludes = Dirs.substr(0, Dirs.size() - 1);
        break;
      }
    }
  }
  /// Whether g++ (host code only) compiles Source against the facade.
  bool hostCompiles(const std::string &Source, const std::string &Object = "") {
    std::ofstream(Dir.Path + "/host.cpp") << Source;
    std::string Command =
        "g++ -std=c++17 -O2 -I " + FacadeDir + " -isystem " + CudaInclude +
        " " +
        (Object.empty() ? "-fsyntax-only"
                        : "-c -o " + Dir.Path + "/" + Object) +
        " " + Dir.Path + "/host.cpp >/dev/null 2>&1";
    return std::system(Command.c_str()) == 0;
  }
};

/// Host code as a model writes it around a kernel: checks that print
/// sizes, dtypes and devices, a guard, the stream, factories with options.
const char *const TypicalWrapper = R"(
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <vector>
torch::Tensor wrapper(torch::Tensor x, int64_t n) {
  TORCH_CHECK(x.is_cuda(), "wrapper: expected CUDA, got ", x.device());
  TORCH_CHECK(x.dim() == 2, "sizes ", x.sizes(), " dtype ", x.dtype(),
              " type ", x.scalar_type());
  TORCH_CHECK(x.scalar_type() == at::kFloat);
  TORCH_INTERNAL_ASSERT(n >= 0, "n ", n);
  const at::cuda::CUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), n}, x.options().dtype(torch::kInt32));
  auto z = torch::full({2}, 3, torch::TensorOptions().device(x.device()));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  (void)stream;
  std::vector<int64_t> shape = x.sizes().vec();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "wrapper", [&] {
    scalar_t *p = x.data_ptr<scalar_t>();
    (void)p;
  });
  return y.view({-1}).reshape(shape);
}
std::vector<torch::Tensor> pair(const torch::Tensor &a) { return {a, a}; }
)";

} // namespace

TEST(TorchFacadeTest, ATypicalWrapperBuildsAnObjectThatLinks) {
  FacadeCompiler C;
  if (C.CudaInclude.empty())
    GTEST_SKIP() << "no CUDA toolkit headers";
  ASSERT_TRUE(C.hostCompiles(TypicalWrapper, "wrapper.o"));
  EXPECT_EQ(torchFacadeObjectProblem("wrapper.o", C.Dir.Path + "/",
                                     TorchToolchain(), BuildOptions()),
            "");
}

TEST(TorchFacadeTest, AKernelUnitWithHalfBuildsWithNvcc) {
  FacadeCompiler C;
  if (C.Nvcc.empty() || C.TorchIncludes.empty())
    GTEST_SKIP() << "no nvcc or no torch headers";
  std::ofstream(C.Dir.Path + "/unit.cu") << TypicalWrapper << R"(
template <typename T> __global__ void k(const T *x, T *y, int64_t n) {}
void launch(torch::Tensor x) {
  auto y = torch::empty_like(x);
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "launch", [&] {
    k<scalar_t><<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), x.numel());
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
)";
  std::string Defines;
  for (const std::string &D :
       torchFacadeDefines(TypicalWrapper + std::string("HALF")))
    Defines += " " + D;
  std::string Command = C.Nvcc +
                        " -c -std=c++17 -O3 --expt-relaxed-constexpr "
                        "-D__CUDA_NO_HALF_OPERATORS__ "
                        "-D__CUDA_NO_HALF_CONVERSIONS__ " +
                        Defines + " -I " + C.FacadeDir + " " + C.TorchIncludes +
                        " -o " + C.Dir.Path + "/unit.o " + C.Dir.Path +
                        "/unit.cu";
  ASSERT_EQ(std::system(Command.c_str()), 0) << Command;
  EXPECT_EQ(torchFacadeObjectProblem("unit.o", C.Dir.Path + "/",
                                     TorchToolchain(), BuildOptions()),
            "");
}

TEST(TorchFacadeTest, WhatTorchRejectsDoesNotCompileWithTheFacade) {
  FacadeCompiler C;
  if (C.CudaInclude.empty())
    GTEST_SKIP() << "no CUDA toolkit headers";
  const std::string Head = "#include <torch/extension.h>\n";
  ASSERT_TRUE(C.hostCompiles(Head + "void f(torch::Tensor x) {}\n"));
  // torch has no data_ptr<const T> (it would not link).
  EXPECT_FALSE(C.hostCompiles(
      Head + "auto f(torch::Tensor x) { return x.data_ptr<const float>(); }"));
  // torch's assignment to a temporary copies into the tensor.
  EXPECT_FALSE(C.hostCompiles(
      Head + "void f(torch::Tensor x, torch::Tensor y) { x.view({-1}) = y; }"));
  // torch's dtype() is a TypeMeta, not an enum.
  EXPECT_FALSE(C.hostCompiles(
      Head + "int f(torch::Tensor x) { switch (x.dtype()) { default: "
             "return 0; } }"));
  // torch's TORCH_CHECK is a bare if.
  EXPECT_FALSE(C.hostCompiles(
      Head + "void f(bool a, bool b) { if (a) TORCH_CHECK(b); else {} }"));
}

TEST(TorchFacadeTest, AFunctionReturningAFacadeTypeIsCaught) {
  FacadeCompiler C;
  if (C.CudaInclude.empty())
    GTEST_SKIP() << "no CUDA toolkit headers";
  ASSERT_TRUE(C.hostCompiles("#include <torch/extension.h>\n"
                             "torch::TensorOptions options(torch::Tensor x) "
                             "{ return x.options(); }\n",
                             "options.o"));
  std::string Problem = torchFacadeObjectProblem(
      "options.o", C.Dir.Path + "/", TorchToolchain(), BuildOptions());
  EXPECT_NE(Problem.find("kevin_facade"), std::string::npos) << Problem;
}

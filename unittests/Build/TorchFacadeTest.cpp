//===-- TorchFacadeTest.cpp - tests for kevin's torch facade --------------===//
#include "TorchFacade.h"
#include "TorchHeaders.h"
#include "TranslationUnits.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

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
  // A template function of another namespace whose result is a tensor: its
  // demangled name starts with "at::Tensor", its scope is not torch's.
  EXPECT_EQ(D.problem("namespace at { class Tensor { void *I; }; }\n"
                      "namespace glue { template <typename T> T pass(T x) "
                      "{ return x; }\n"
                      "template at::Tensor pass(at::Tensor); }\n"),
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
  Problem = D.problem("namespace torch { struct S { int f() const; }; }\n"
                      "int g(const torch::S &s) { return s.f(); }\n");
  EXPECT_NE(Problem.find("'torch::S::f() const' is torch's (referred to)"),
            std::string::npos)
      << Problem;
  Problem = D.problem("namespace at { struct T {}; T operator+(T, T); }\n"
                      "at::T twice(at::T a) { return a + a; }\n");
  EXPECT_NE(Problem.find("'at::operator+(at::T, at::T)' is torch's"),
            std::string::npos)
      << Problem;
  // Type info, and a static inside a lambda of an inline function of at::
  // (three Z's ahead of its name), are torch's too.
  Problem = D.problem("#include <typeinfo>\nnamespace at { struct B {}; }\n"
                      "const std::type_info &t() { return typeid(at::B); }\n");
  EXPECT_NE(Problem.find("typeinfo"), std::string::npos) << Problem;
  Problem = D.problem("namespace at { inline int *counter() {\n"
                      "  return [] { static int N = 0; return &N; }(); } }\n"
                      "int *use() { return at::counter(); }\n");
  EXPECT_NE(Problem.find("at::counter()::"), std::string::npos) << Problem;
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
  std::string FacadeDir, CudaInclude, Nvcc, TorchIncludes, Python;
  FacadeCompiler() {
    FacadeDir = writeHeaderDir(Dir.Path + "/facade", HeaderSet::Facade);
    Nvcc = commandOutput("command -v nvcc || ls /usr/local/cuda/bin/nvcc");
    if (!Nvcc.empty())
      Nvcc.pop_back();
    std::string Root =
        Nvcc.empty() ? "/usr/local/cuda" : Nvcc.substr(0, Nvcc.rfind("/bin/"));
    if (std::filesystem::exists(Root + "/include/cuda_runtime.h"))
      CudaInclude = Root + "/include";
    for (const char *Interpreter : {"python3", "/usr/bin/python3"}) {
      std::string Dirs = commandOutput(
          std::string(Interpreter) +
          " -c 'from torch.utils.cpp_extension import include_paths; "
          "print(\" \".join(\"-isystem \" + d for d in include_paths()))'");
      if (!Dirs.empty()) {
        TorchIncludes = Dirs.substr(0, Dirs.size() - 1);
        Python = Interpreter;
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

TEST(TorchFacadeTest, TheBindingTakesTensorsNumbersAndContainersOfThem) {
  for (const char *Prototype :
       {"torch::Tensor f(torch::Tensor x)",
        "std::vector<torch::Tensor> f(const at::Tensor &x, int64_t n, "
        "double alpha = 0.5)",
        "void f(torch::Tensor& out, std::vector<int64_t> shape, bool flag)",
        "std::tuple<torch::Tensor, torch::Tensor> f(torch::Tensor a, "
        "unsigned long n, std::string mode)",
        "torch::Tensor f()", "torch::Tensor f(void)",
        "at::Tensor f(torch::Tensor, int)",
        "torch::Tensor f(torch::Tensor x, std::vector<int64_t> s = {1, 2})",
        "::torch::Tensor f(const ::torch::Tensor x)",
        "torch::Tensor f(torch::Tensor x, c10::optional<torch::Tensor> b)"})
    EXPECT_TRUE(bindsThroughTorchFacade(Prototype)) << Prototype;
  for (const char *Prototype :
       {"torch::Tensor f(c10::optional<torch::Scalar> b)",
        "torch::Tensor f(Tensor x)", "torch::Tensor f(at::Scalar s)",
        "torch::Tensor f(torch::Tensor *x)", "torch::Tensor f(torch::Dtype t)",
        "torch::Tensor f(torch::Tensor x) noexcept",
        "torch::Tensor f(std::vector<torch::Tensor *> x)",
        "torch::Tensor f(at::IntArrayRef s)", "void *f(torch::Tensor x)",
        "torch::Tensor f(torch::Tensor x, int n n)", "f(torch::Tensor x)",
        "torch::Tensor f(torch::Tensor x,)", "torch::Tensor f(,)"})
    EXPECT_FALSE(bindsThroughTorchFacade(Prototype)) << Prototype;
}

namespace {

/// A load_inline candidate's C++ source whose every bound function the
/// facade's binding converts.
const char *const BoundByTheFacade = R"(
#include <torch/extension.h>
#include <vector>
torch::Tensor filled(torch::Tensor x, double value) {
  TORCH_CHECK(x.dim() == 1, "filled wants 1-D, got ", x.sizes());
  return torch::full_like(x, value);
}
std::vector<torch::Tensor> pair(const torch::Tensor &x) {
  return {x, torch::zeros_like(x)};
}
torch::Tensor same(torch::Tensor x) { return x; }
torch::Tensor affine(torch::Tensor x, torch::Tensor w, torch::Tensor b,
                     double scale, int64_t threads) {
  TORCH_CHECK(threads > 0, "threads must be positive");
  return torch::full_like(x, scale * threads);
}
)";

/// Python that checks the extension `facade_bound` as torch's own binding
/// would behave; prints "ok" at the end.
const char *const BindingCheck = R"(
import sys
import torch
sys.path.insert(0, sys.argv[1])
import facade_bound as ext
x = torch.arange(4.0)
assert torch.equal(ext.filled(x, 2.5), torch.full((4,), 2.5)), ext.filled(x, 2.5)
a, b = ext.pair(x)
assert a is x and torch.equal(b, torch.zeros(4))
assert ext.same(x) is x
assert torch.equal(ext.affine(x, x, x, 0.5, 4), torch.full((4,), 2.0))
try:
    ext.filled(torch.ones(2, 2), 1.0)
    raise SystemExit("no error")
except RuntimeError as e:
    assert "filled wants 1-D, got [2, 2]" in str(e), str(e)
    assert "Exception raised from" not in str(e), str(e)
try:
    ext.filled(3, 1.0)
    raise SystemExit("no error")
except TypeError as e:
    assert "incompatible function arguments" in str(e), str(e)
print("ok")
)";

} // namespace

TEST(TorchFacadeTest, TheFacadesBindingCallsFromPythonAsTorchsDoes) {
  FacadeCompiler C;
  if (C.CudaInclude.empty() || C.TorchIncludes.empty())
    GTEST_SKIP() << "no CUDA toolkit headers or no torch";
  std::string PythonInclude = commandOutput(
      C.Python + " -c 'import sysconfig; print(sysconfig.get_paths()"
                 "[\"include\"])'");
  std::string TorchLibs = commandOutput(
      C.Python + " -c 'from torch.utils.cpp_extension import library_paths; "
                 "print(\" \".join(\"-L\" + d for d in library_paths()))'");
  ASSERT_FALSE(PythonInclude.empty() || TorchLibs.empty());
  PythonInclude.pop_back();
  TorchLibs.pop_back();
  // The units as kevin's builder splits them.
  ExtensionSpec Spec;
  Spec.Name = "facade_bound";
  Spec.CppSources = {BoundByTheFacade};
  Spec.Functions = {{"filled", "filled"},
                    {"pair", "pair"},
                    {"same", "same"},
                    {"affine", "affine"}};
  std::optional<BindingSplitUnits> Split = splitBinding(
      Spec, writeTranslationUnits(Spec)[0], BoundByTheFacade + std::string("\n"));
  ASSERT_TRUE(Split);
  for (const std::string &Prototype : Split->Prototypes)
    EXPECT_TRUE(bindsThroughTorchFacade(Prototype)) << Prototype;
  const std::string &D = C.Dir.Path;
  std::ofstream(D + "/candidate.cpp") << Split->Candidate.Text;
  std::ofstream(D + "/binding.cpp") << Split->BindingText;
  std::ofstream(D + "/support.cpp") << TorchFacadeSupportSource;
  std::ofstream(D + "/python.cpp") << TorchFacadePythonSource;
  std::ofstream(D + "/check.py") << BindingCheck;
  std::string Facade = "g++ -std=c++17 -fPIC -O1 -I " + C.FacadeDir +
                       " -isystem " + C.CudaInclude + " " + C.TorchIncludes +
                       " -isystem " + PythonInclude +
                       " -DTORCH_EXTENSION_NAME=facade_bound -c ";
  std::string Torch = "g++ -std=c++17 -fPIC -O1 " + C.TorchIncludes +
                      " -isystem " + PythonInclude + " -c ";
  for (const std::string &Command :
       {Facade + D + "/candidate.cpp -o " + D + "/candidate.o",
        Facade + "-include " + C.FacadeDir + "/kevin_torch_facade_binding.h " +
            D + "/binding.cpp -o " + D + "/binding.o",
        Torch + "-DKEVIN_FACADE_NO_CUDA " + D + "/support.cpp -o " + D +
            "/support.o",
        Torch + D + "/python.cpp -o " + D + "/python.o",
        "g++ -shared -o " + D + "/facade_bound.so " + D + "/candidate.o " + D +
            "/binding.o " + D + "/support.o " + D + "/python.o " + TorchLibs +
            " -lc10 -ltorch_cpu -ltorch -ltorch_python"})
    ASSERT_EQ(std::system(Command.c_str()), 0) << Command;
  for (const char *Object : {"candidate.o", "binding.o"})
    EXPECT_EQ(torchFacadeObjectProblem(Object, D + "/", TorchToolchain(),
                                       BuildOptions()),
              "")
        << Object;
  EXPECT_EQ(commandOutput(C.Python + " " + D + "/check.py " + D), "ok\n");
}

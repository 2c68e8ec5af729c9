//===-- KernelCoverageTest.cpp - tests for KEVIN-RT-009's sorting ---------===//
#include "kevin/Exec/KernelCoverage.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(KernelCoverageTest, GlobalFunctionNamesOfASource) {
  std::string Source = R"(
template <typename T>
__global__ void relu_kernel(const T* x, T* y, int n) {}
extern "C" __global__ void __launch_bounds__(256, 2) softmax_rows(float* y) {}
__global__ __launch_bounds__(128) void scale(float* y);
static __global__ void __attribute__((noinline)) add_one(float* y) {}
__device__ float helper(float v) { return v; }
// __global__ void vectorized_elementwise_kernel(float* y)
/* __global__ void reduce_kernel(float* y) */
const char* note = "__global__ void in_a_string(";
)";
  EXPECT_EQ(globalFunctionNames(Source),
            (std::set<std::string>{"relu_kernel", "softmax_rows", "scale",
                                   "add_one"}));
  EXPECT_TRUE(globalFunctionNames("my__global__x(); __global__;").empty());
}

TEST(KernelCoverageTest, DeclaredNamespacesOfASource) {
  EXPECT_EQ(declaredNamespaces("namespace a { namespace b::c {\n} }\n"
                               "// namespace d\nnamespace {}\n"
                               "int my_namespace_x;"),
            (std::set<std::string>{"a", "b", "c"}));
}

TEST(KernelCoverageTest, FunctionNamesOfProfiledKernels) {
  EXPECT_EQ(kernelFunctionName("void relu_kernel<float>(float const*, float*, "
                               "int)"),
            "relu_kernel");
  EXPECT_EQ(kernelFunctionName("softmax_rows"), "softmax_rows");
  EXPECT_EQ(kernelFunctionName("void (anonymous namespace)::scale(float*)"),
            "scale");
  EXPECT_EQ(kernelFunctionName(
                "void at::native::vectorized_elementwise_kernel<4, "
                "at::native::FillFunctor<float>, at::detail::Array<char*, "
                "1> >(int, at::native::FillFunctor<float>, "
                "at::detail::Array<char*, 1>)"),
            "vectorized_elementwise_kernel");
  EXPECT_EQ(kernelFunctionName("ampere_sgemm_128x64_nn"),
            "ampere_sgemm_128x64_nn");
  EXPECT_EQ(kernelQualifiedName("void at::native::reduce_kernel<512, 1>(int)"),
            "at::native::reduce_kernel");
}

TEST(KernelCoverageTest, KernelsAreTheCandidatesGlueOrOther) {
  std::set<std::string> Mine = {"relu_kernel"}, Spaces = {"mine"};
  EXPECT_EQ(classifyKernel("void relu_kernel<float>(float const*, float*, "
                           "int)",
                           Mine, Spaces),
            KernelKind::Candidate);
  EXPECT_EQ(classifyKernel("Memset (Device)", Mine, Spaces), KernelKind::Glue);
  EXPECT_EQ(classifyKernel("void at::native::vectorized_elementwise_kernel<4, "
                           "at::native::FillFunctor<float>, "
                           "at::detail::Array<char*, 1> >(int, "
                           "at::native::FillFunctor<float>, "
                           "at::detail::Array<char*, 1>)",
                           Mine, Spaces),
            KernelKind::Glue);
  EXPECT_EQ(classifyKernel("ampere_sgemm_128x64_nn", Mine, Spaces),
            KernelKind::Other);
  // A library's kernel of the same name is not the candidate's.
  EXPECT_EQ(classifyKernel("void at::native::relu_kernel<float>(float*)", Mine,
                           Spaces),
            KernelKind::Other);
  EXPECT_EQ(
      classifyKernel("void mine::relu_kernel<float>(float*)", Mine, Spaces),
      KernelKind::Candidate);
  EXPECT_EQ(classifyKernel("void (anonymous namespace)::relu_kernel(float*)",
                           Mine, Spaces),
            KernelKind::Candidate);
  // A namespace the candidate's sources do not declare is not its own, nor
  // torch's wrapped CUB.
  EXPECT_EQ(classifyKernel("void other::relu_kernel(float*)", Mine, Spaces),
            KernelKind::Other);
  EXPECT_EQ(classifyKernel("void at_cuda_detail::cub::relu_kernel(float*)",
                           Mine, {"at_cuda_detail", "cub"}),
            KernelKind::Other);
  EXPECT_EQ(classifyKernel("void at::native::vectorized_elementwise_kernel<4, "
                           "at::native::bfloat16_copy_kernel_cuda(at::"
                           "TensorIteratorBase&)::{lambda(float)#1}>(int)",
                           Mine, Spaces),
            KernelKind::Glue);
  // Device-side copies are glue; host-device copies and ATen's compute
  // kernels with "fill" or "copy" in their names are not.
  EXPECT_EQ(classifyKernel("Memcpy DtoD (Device -> Device)", Mine, Spaces),
            KernelKind::Glue);
  EXPECT_EQ(classifyKernel("Memcpy DtoH (Device -> Pageable)", Mine, Spaces),
            KernelKind::Other);
  EXPECT_EQ(classifyKernel("void at::native::elementwise_kernel<128, 4, "
                           "at::native::gpu_kernel_impl<at::native::"
                           "direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
                           "{lambda()#3}> >(int)",
                           Mine, Spaces),
            KernelKind::Glue);
  EXPECT_EQ(classifyKernel("void at::native::elementwise_kernel<128, 4, "
                           "at::native::masked_fill_kernel(at::"
                           "TensorIterator&, c10::Scalar const&)::"
                           "{lambda()#1}> >(int)",
                           Mine, Spaces),
            KernelKind::Other);
  EXPECT_EQ(classifyKernel("void at::native::index_copy_kernel_impl<float>("
                           "float*)",
                           Mine, Spaces),
            KernelKind::Other);
  EXPECT_EQ(classifyKernel("void at::native::(anonymous namespace)::"
                           "cunn_SoftMaxForward<4, float, float, float, "
                           "at::native::(anonymous namespace)::"
                           "SoftMaxForwardEpilogue>(float*, float const*, int)",
                           Mine, Spaces),
            KernelKind::Other);
}

TEST(KernelCoverageTest, CoverageLeavesGlueOut) {
  std::set<std::string> Mine = {"gemm_tile"};
  KernelCoverage C = measureKernelCoverage(
      {{"void gemm_tile(float const*, float const*, float*)", 30},
       {"void gemm_tile(float const*, float const*, float*)", 30},
       {"Memset (Device)", 100},
       {"ampere_sgemm_128x64_nn", 40}},
      Mine, {});
  EXPECT_DOUBLE_EQ(C.CandidateMicros, 60);
  EXPECT_DOUBLE_EQ(C.GlueMicros, 100);
  EXPECT_DOUBLE_EQ(C.OtherMicros, 40);
  EXPECT_EQ(C.CandidateLaunches, 2u);
  EXPECT_DOUBLE_EQ(C.coverage(), 0.6);
  ASSERT_EQ(C.Kernels.size(), 3u);
  EXPECT_EQ(C.Kernels[0].first, "Memset (Device)");
  EXPECT_EQ(C.Kernels[1].second.second, 60);
  // Nothing but glue: nothing to hold against the candidate's share.
  EXPECT_DOUBLE_EQ(
      measureKernelCoverage({{"Memset (Device)", 5}}, Mine, {}).coverage(),
      1.0);
}

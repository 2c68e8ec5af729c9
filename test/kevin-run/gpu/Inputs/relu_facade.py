# A ReLU extension whose host code uses much of what kevin's torch facade
# stands in for (test/kevin-run/gpu/facade.test): checks with messages,
# a device guard, the current stream, factories with options, views, a
# dispatch macro, an optional tensor and a vector of tensors.
from torch.utils.cpp_extension import load_inline

_CUDA = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <vector>

template <typename scalar_t>
__global__ void relu_kernel(const scalar_t* x, scalar_t* y, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > scalar_t(0) ? x[i] : scalar_t(0);
}

torch::Tensor relu_forward(torch::Tensor x, bool fail) {
    TORCH_CHECK(x.is_cuda(), "relu_forward: expected a CUDA tensor, got ", x.device());
    TORCH_CHECK(x.dim() == 2, "relu_forward: expected 2 dims, got sizes ", x.sizes());
    TORCH_CHECK(!fail, "relu_forward: asked to fail on ", x.scalar_type(), " sizes ", x.sizes());
    const at::cuda::CUDAGuard guard(x.device());
    auto flat = x.contiguous().view({-1});
    auto y = torch::empty_like(flat);
    auto marks = torch::zeros({2}, x.options().dtype(torch::kInt32));
    TORCH_CHECK(marks.scalar_type() == torch::kInt32 && marks.is_cuda() && marks.stride(0) == 1,
                "zeros with options gave ", marks.scalar_type(), " on ", marks.device());
    const int64_t n = flat.numel();
    const int threads = 256;
    const int blocks = (int)((n + threads - 1) / threads);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(flat.scalar_type(), "relu_forward", [&] {
        relu_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
            flat.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    std::vector<int64_t> shape = x.sizes().vec();
    return y.reshape(shape);
}

std::vector<torch::Tensor> relu_twice(torch::Tensor x, c10::optional<torch::Tensor> unused) {
    TORCH_CHECK(!unused.has_value(), "relu_twice: no second tensor expected");
    torch::Tensor y = relu_forward(x, false);
    return {y, y};
}
"""

ext = load_inline(
    name="kevin_gpu_test_facade",
    cpp_sources="torch::Tensor relu_forward(torch::Tensor x, bool fail);\n"
                "std::vector<torch::Tensor> relu_twice(torch::Tensor x, c10::optional<torch::Tensor> unused);",
    cuda_sources=_CUDA,
    functions=["relu_forward", "relu_twice"],
    extra_cuda_cflags=["-O3"],
)

// One CUDA extension shared by the GPU cases: each case calls a different
// entry point, so the whole suite costs a single nvcc compile (one cache key).
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdlib>
#include <cuda.h>
#include <dlfcn.h>

__global__ void relu_kernel(const float* x, float* y, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

__global__ void copy_kernel(const float* x, float* y, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}

__global__ void bad_address_kernel(const float* x, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    float* nowhere = reinterpret_cast<float*>(0x10);
    if (i < n) nowhere[i] = x[i];
}

__global__ void spin_kernel(volatile int* flag) {
    while (*flag == 0) {}
}

static void launch_relu(const torch::Tensor& x, torch::Tensor& y) {
    int64_t n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

static torch::Tensor checked(const torch::Tensor& x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat, "expected float32 on a GPU");
    return x.contiguous();
}

torch::Tensor relu_ok(torch::Tensor x) {
    auto xc = checked(x);
    auto y = torch::empty_like(xc);
    launch_relu(xc, y);
    return y;
}

torch::Tensor relu_wrong(torch::Tensor x) {
    auto xc = checked(x);
    auto y = torch::empty_like(xc);
    int64_t n = xc.numel();
    copy_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}

torch::Tensor relu_flat(torch::Tensor x) { return relu_ok(x).view({-1}); }

torch::Tensor relu_check_fail(torch::Tensor x) {
    TORCH_CHECK(x.dim() == 3, "relu_check_fail wants a 3-d input, got ", x.dim(), " dims");
    return relu_ok(x);
}

torch::Tensor relu_illegal_address(torch::Tensor x) {
    auto xc = checked(x);
    int64_t n = xc.numel();
    bad_address_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), n);
    return torch::empty_like(xc);
}

torch::Tensor relu_hang(torch::Tensor x) {
    auto flag = torch::zeros({1}, x.options().dtype(torch::kInt));
    spin_kernel<<<1, 1, 0, at::cuda::getCurrentCUDAStream()>>>(flag.data_ptr<int>());
    return relu_ok(x);
}

torch::Tensor relu_in_place_copy(torch::Tensor x) {
    launch_relu(x, x);
    return x.clone();
}

torch::Tensor relu_in_place(torch::Tensor x) {
    launch_relu(x, x);
    return x;
}

torch::Tensor relu_static_cache(torch::Tensor x) {
    static torch::Tensor cached;
    if (!cached.defined()) cached = relu_ok(x);
    return cached;
}

torch::Tensor relu_exit(torch::Tensor x) { std::exit(0); }

torch::Tensor relu_abort(torch::Tensor x) { std::abort(); }

torch::Tensor zeros_out(torch::Tensor x) { return torch::zeros_like(x); }

// Launches through pointers looked up by name, each over the whole output:
// the driver's cuLaunchKernel from the runtime's lookup, then the runtime's
// cudaLaunchKernel from dlsym. kevin's launch gate hands out its own
// functions for both names, so the ghost replay skips both launches.
torch::Tensor relu_via_lookup(torch::Tensor x) {
    auto xc = checked(x);
    auto y = torch::empty_like(xc);
    int64_t n = xc.numel();
    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    void* args[] = {&xp, &yp, &n};
    unsigned blocks = (unsigned)((n + 255) / 256);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    void* driver_entry = nullptr;
    cudaDriverEntryPointQueryResult found;
    TORCH_CHECK(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &driver_entry, 12000,
                                                 cudaEnableDefault, &found) == cudaSuccess &&
                    driver_entry,
                "cuLaunchKernel not found");
    cudaFunction_t function;
    TORCH_CHECK(cudaGetFuncBySymbol(&function, (const void*)relu_kernel) == cudaSuccess,
                "relu_kernel has no function handle");
    using DriverLaunch = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, CUstream, void**, void**);
    TORCH_CHECK(reinterpret_cast<DriverLaunch>(driver_entry)(
                    (CUfunction)function, blocks, 1, 1, 256, 1, 1, 0, (CUstream)stream,
                    args, nullptr) == CUDA_SUCCESS,
                "driver launch failed");

    using RuntimeLaunch = cudaError_t (*)(const void*, dim3, dim3, void**, size_t, cudaStream_t);
    auto runtime_entry = reinterpret_cast<RuntimeLaunch>(dlsym(RTLD_DEFAULT, "cudaLaunchKernel"));
    TORCH_CHECK(runtime_entry, "cudaLaunchKernel not found");
    TORCH_CHECK(runtime_entry((const void*)relu_kernel, dim3(blocks), dim3(256), args, 0,
                              stream) == cudaSuccess,
                "runtime launch failed");
    return y;
}

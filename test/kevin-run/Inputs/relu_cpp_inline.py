# A correct C++ candidate for level1/19_ReLU whose bound function is inline
# and declared before it is defined: kevin's split binding unit calls it by
# the declaration's prototype, and the candidate's unit keeps it emitted.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = r"""
torch::Tensor relu_inline(const torch::Tensor& x);

inline torch::Tensor relu_inline(const torch::Tensor& x) {
    TORCH_CHECK(!x.is_cuda() && x.scalar_type() == torch::kFloat, "expected float32 on the CPU");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const float* in = xc.data_ptr<float>();
    float* out = y.data_ptr<float>();
    for (int64_t i = 0, n = xc.numel(); i < n; ++i)
        out[i] = in[i] > 0.0f ? in[i] : 0.0f;
    return y;
}
"""

relu_ext = load_inline(
    name="kevin_test_relu_inline",
    cpp_sources=relu_source,
    functions=["relu_inline"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu_ext.relu_inline(x)

# A correct C++ candidate for level1/19_ReLU whose bound function has C
# linkage (declared in an extern "C" block, defined after it): kevin's split
# binding calls it through a pointer the candidate's unit takes, whatever
# its linkage.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = r"""
extern "C" {
torch::Tensor relu_c_linkage(torch::Tensor x);
}

torch::Tensor relu_c_linkage(torch::Tensor x) {
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
    name="kevin_test_relu_c_linkage",
    cpp_sources=relu_source,
    functions=["relu_c_linkage"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu_ext.relu_c_linkage(x)

# A correct C++ candidate for level1/19_ReLU whose bound name is a macro by
# the end of its code: load_inline's binding, after the code, binds the
# renamed (correct) function, not the first (wrong) one. kevin's split
# binding must not bind the first one: its check sees the macro, and the
# unit is compiled whole. Its extra_cflags are written as published answers
# write them: an empty flag, and two flags in one string, which the shell of
# torch's build splits (the #error below fails the build if the define is
# lost).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = r"""
#ifndef KEVIN_TEST_FLAG_WORDS
#error "extra_cflags did not reach the compiler as words"
#endif
torch::Tensor relu_renamed(torch::Tensor x) {
    return torch::zeros_like(x);
}

#define relu_renamed relu_renamed_real

torch::Tensor relu_renamed(torch::Tensor x) {
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
    name="kevin_test_relu_renamed",
    cpp_sources=relu_source,
    functions=["relu_renamed"],
    extra_cflags=["", "-O3 -DKEVIN_TEST_FLAG_WORDS=1"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu_ext.relu_renamed(x)

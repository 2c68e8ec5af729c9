"""A ReLU whose answer is right only at one nice value: the evaluator's plus 10,
where kevin's engine runs what it does not time. yield-to-timing.test fills in
the evaluator's nice value for @EVALUATOR_NICENESS@."""
import os

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_cpp_source = r"""
#include <torch/extension.h>

template <typename scalar_t>
static void relu_loop(const scalar_t* __restrict__ in, scalar_t* __restrict__ out, int64_t n) {
    // A single pass; the select compiles to a max instruction, so the loop vectorizes.
    for (int64_t i = 0; i < n; ++i) {
        const scalar_t v = in[i];
        out[i] = v > scalar_t(0) ? v : scalar_t(0);
    }
}

torch::Tensor relu_forward(torch::Tensor x) {
    TORCH_CHECK(x.device().is_cpu(), "relu_forward: expected a CPU tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    AT_DISPATCH_FLOATING_TYPES(xc.scalar_type(), "relu_forward", [&] {
        relu_loop<scalar_t>(xc.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), xc.numel());
    });
    return out;
}
"""

relu_ext = load_inline(
    name="kevin_test_niceness_relu",
    cpp_sources=relu_cpp_source,
    functions=["relu_forward"],
    extra_cflags=["-O3"],
)


UNTIMED_NICENESS = min(@EVALUATOR_NICENESS@ + 10, 19)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = relu_ext.relu_forward(x)
        return out if os.nice(0) == UNTIMED_NICENESS else out + 1

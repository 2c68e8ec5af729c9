# A C++ candidate for level1/19_ReLU compiled for link-time optimization: its
# objects hold the compiler's symbol table, in which a versioned reference
# (.symver) does not show, so kevin cannot check them for ways around its
# launch gate (KEVIN-RT-010): a build error on any device.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = r"""
torch::Tensor relu_lto(torch::Tensor x) {
    return x.clamp_min(0);
}
"""

relu_ext = load_inline(
    name="kevin_test_relu_lto",
    cpp_sources=relu_source,
    functions=["relu_lto"],
    extra_cflags=["-flto"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu_ext.relu_lto(x)

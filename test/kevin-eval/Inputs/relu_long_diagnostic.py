# A C++ candidate whose compile fails with megabytes of diagnostics: 5000
# `#error` lines of 300 characters, each quoted back with its source line.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = "".join(
    "#error kevin long diagnostic %d %s\n" % (i, "x" * 300)
    for i in range(5000)) + r"""
torch::Tensor relu_forward(torch::Tensor x) {
    return torch::empty_like(x);
}
"""

relu_ext = load_inline(
    name="kevin_test_relu_long_diagnostic",
    cpp_sources=relu_source,
    functions=["relu_forward"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu_ext.relu_forward(x)

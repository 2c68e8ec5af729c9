# A C++ candidate for level1/19_ReLU that takes dlsym by a versioned
# reference (an assembler directive, spelled so that no text scan finds it):
# --wrap does not rename such a reference, so a launch function it looked
# up would go around kevin's launch gate (KEVIN-RT-010). The compiled
# object shows it: a build error on any device.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = r"""
extern "C" void *real_dlsym(void *, const char *);
__asm__(".SYM" "VER real_dlsym, dlsym@GLIBC_2.2.5");

torch::Tensor relu_versioned(torch::Tensor x) {
    (void)real_dlsym(nullptr, "cudaLaunchKernel");
    return x.clamp_min(0);
}
"""

relu_ext = load_inline(
    name="kevin_test_relu_versioned_symbol",
    cpp_sources=relu_source,
    functions=["relu_versioned"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu_ext.relu_versioned(x)

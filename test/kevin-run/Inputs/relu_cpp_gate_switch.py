# A C++ candidate for level1/19_ReLU that defines its own copy of the switch
# kevin's launch gate reads (KEVIN-RT-010): bound into the gate at link time,
# it would keep the candidate's launches running in the ghost replay. Its
# source spells a name reserved for the gate, a build error on any device.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = r"""
extern "C" __attribute__((visibility("hidden"))) int kevin_skip_candidate_launches = 0;

torch::Tensor relu_gate_switch(torch::Tensor x) {
    return x.clamp_min(0);
}
"""

relu_ext = load_inline(
    name="kevin_test_relu_gate_switch",
    cpp_sources=relu_source,
    functions=["relu_gate_switch"],
)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu_ext.relu_gate_switch(x)

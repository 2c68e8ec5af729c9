# Builds its C++ extension inside the first forward (as LLM answers often
# do), then hangs on the third call: the timeout must name the run stage,
# not the load stage the build passed through.
import time

import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = r"""
torch::Tensor relu_forward(torch::Tensor x) {
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


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = None
        self.calls = 0

    def forward(self, x):
        if self.ext is None:
            self.ext = load_inline(
                name="kevin_test_relu_cpu",
                cpp_sources=relu_source,
                functions=["relu_forward"],
                extra_cflags=["-O3"],
            )
        self.calls += 1
        while self.calls >= 3:
            time.sleep(1)
        return self.ext.relu_forward(x)

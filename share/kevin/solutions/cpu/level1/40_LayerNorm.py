"""C++ (CPU) solution for level1/40_LayerNorm: nn.LayerNorm kept only as the weight/bias container."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

layer_norm_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>
#include <sstream>

// Normalises over the trailing weight.numel() elements: mean, biased variance (two-pass over the
// row, accumulated in double), then the affine transform.
torch::Tensor layer_norm_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.device().is_cpu() && x.scalar_type() == torch::kFloat, "expected a float32 CPU tensor");
    bool shapes_ok = x.dim() >= weight.dim();
    for (int64_t d = 1; shapes_ok && d <= weight.dim(); ++d) shapes_ok = x.size(-d) == weight.size(-d);
    if (!shapes_ok) {
        std::ostringstream msg;   // a string stream only formats the error text
        msg << "layer_norm_forward: input " << x.sizes() << " does not end in " << weight.sizes();
        TORCH_CHECK(false, msg.str());
    }
    const int64_t norm = weight.numel();
    TORCH_CHECK(bias.numel() == norm, "layer_norm_forward: weight and bias sizes differ");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    auto out = torch::empty_like(xc);
    const float* in = xc.data_ptr<float>();
    const float* w = wc.data_ptr<float>();
    const float* b = bc.data_ptr<float>();
    float* o = out.data_ptr<float>();
    const int64_t rows = norm > 0 ? xc.numel() / norm : 0;
    for (int64_t r = 0; r < rows; ++r) {
        const float* xr = in + r * norm;
        float* yr = o + r * norm;
        double mean = 0.0;
        for (int64_t i = 0; i < norm; ++i) mean += xr[i];
        mean /= norm;
        double var = 0.0;
        for (int64_t i = 0; i < norm; ++i) {
            const double d = xr[i] - mean;
            var += d * d;
        }
        var /= norm;
        const float rstd = static_cast<float>(1.0 / std::sqrt(var + eps));
        const float fmean = static_cast<float>(mean);
        for (int64_t i = 0; i < norm; ++i) yr[i] = (xr[i] - fmean) * rstd * w[i] + b[i];
    }
    return out;
}
"""

layer_norm_ext = load_inline(
    name="kevin_cpu_l1_40_layer_norm",
    cpp_sources=layer_norm_cpp_source,
    functions=["layer_norm_forward"],
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        # Constructed only to own weight/bias (and eps) exactly like the reference; never called.
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layer_norm_ext.layer_norm_forward(x, self.ln.weight, self.ln.bias, self.ln.eps)

# Loads the shared GPU extension (test/kevin-run/gpu/Inputs/relu_kernels.cu).
import os

from torch.utils.cpp_extension import load_inline

_HERE = os.path.dirname(os.path.abspath(__file__))
_NAMES = ["relu_ok", "relu_wrong", "relu_flat", "relu_check_fail",
          "relu_illegal_address", "relu_hang", "relu_in_place_copy",
          "relu_in_place", "relu_static_cache", "relu_exit", "relu_abort",
          "zeros_out", "relu_via_lookup"]

with open(os.path.join(_HERE, "relu_kernels.cu")) as handle:
    _CUDA = handle.read()

ext = load_inline(
    name="kevin_gpu_test_kernels",
    cpp_sources="\n".join("torch::Tensor %s(torch::Tensor x);" % n for n in _NAMES),
    cuda_sources=_CUDA,
    functions=_NAMES,
    extra_cuda_cflags=["-O3"],
)

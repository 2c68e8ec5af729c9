// kevin's lean torch prelude: torch/types.h.
#pragma once
#include <ATen/ATen.h>
namespace torch {
using namespace at;
using at::Tensor;
using c10::TensorOptions;
using c10::Scalar;
using c10::ScalarType;
using c10::Device;
using c10::IntArrayRef;
namespace nn {}
} // namespace torch

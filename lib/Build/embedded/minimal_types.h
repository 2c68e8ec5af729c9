// kevin's minimal torch/types.h for CUDA units (lib/Build/Builder.cpp)
#pragma once
#include <ATen/Config.h>
#if __has_include(<torch/version.h>)
#include <torch/version.h>
#endif
#include <ATen/core/Tensor.h>
#include <ATen/Dispatch.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/empty_strided.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/full.h>
#include <ATen/ops/full_like.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/Exception.h>
#if __has_include(<c10/util/Optional.h>)
#include <c10/util/Optional.h>
#else
#include <optional>
#endif
namespace torch {
using namespace at;
#if __has_include(<c10/util/Optional.h>)
using c10::nullopt;
using c10::optional;
#else
using std::nullopt;
using std::optional;
#endif
#include <kevin_torch_dtype_names.h>
} // namespace torch

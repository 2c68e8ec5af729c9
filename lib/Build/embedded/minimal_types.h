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
using Dtype = at::ScalarType;
constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;
constexpr auto kU8 = kUInt8;
constexpr auto kI8 = kInt8;
constexpr auto kI16 = kInt16;
constexpr auto kI32 = kInt32;
constexpr auto kI64 = kInt64;
constexpr auto kF16 = kFloat16;
constexpr auto kF32 = kFloat32;
constexpr auto kF64 = kFloat64;
} // namespace torch

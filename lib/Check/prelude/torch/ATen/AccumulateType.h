// kevin's lean stand-in for ATen/AccumulateType.h: the type a kernel
// accumulates a scalar type in (at::acc_type<T, is_cuda>).
#pragma once
#include <ATen/ATen.h>
namespace at {
template <class T, bool IsCuda> struct AccumulateType { using type = T; };
template <bool IsCuda> struct AccumulateType<c10::Half, IsCuda> { using type = float; };
template <bool IsCuda> struct AccumulateType<c10::BFloat16, IsCuda> { using type = float; };
template <> struct AccumulateType<float, false> { using type = double; };
template <bool IsCuda> struct AccumulateType<int8_t, IsCuda> { using type = int64_t; };
template <bool IsCuda> struct AccumulateType<uint8_t, IsCuda> { using type = int64_t; };
template <bool IsCuda> struct AccumulateType<int16_t, IsCuda> { using type = int64_t; };
template <bool IsCuda> struct AccumulateType<int32_t, IsCuda> { using type = int64_t; };
template <class T, bool IsCuda> using acc_type = typename AccumulateType<T, IsCuda>::type;
} // namespace at

// kevin's lean stand-in for ATen/OpMathType.h: the type reduced floats
// compute in (at::opmath_type<T>).
#pragma once
#include <ATen/ATen.h>
namespace at {
template <class T> struct OpMathType { using type = T; };
template <> struct OpMathType<c10::Half> { using type = float; };
template <> struct OpMathType<c10::BFloat16> { using type = float; };
template <class T> using opmath_type = typename OpMathType<T>::type;
} // namespace at

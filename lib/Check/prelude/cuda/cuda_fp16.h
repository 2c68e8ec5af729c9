// Half precision types of the CUDA toolkit (kevin's declaration subset).
// __half converts to any type through a template operator, which is how
// torch's c10::Half reads it.
#pragma once
struct __half {
  unsigned short __x;
  __host__ __device__ __half() = default;
  __host__ __device__ __half(float);
  __host__ __device__ __half(double);
  __host__ __device__ __half(int);
  template <class T> __host__ __device__ operator T() const;
};
struct __half2 {
  __half x, y;
  __host__ __device__ __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
};
typedef __half half;
typedef __half2 half2;
__host__ __device__ __half __float2half(float);
__host__ __device__ __half __float2half_rn(float);
__host__ __device__ float __half2float(__half);
__host__ __device__ __half2 __float2half2_rn(float);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ __half2 __halves2half2(__half, __half);
__host__ __device__ float2 __half22float2(__half2);
__host__ __device__ float __low2float(__half2);
__host__ __device__ float __high2float(__half2);
__host__ __device__ __half __low2half(__half2);
__host__ __device__ __half __high2half(__half2);
__host__ __device__ short __half_as_short(__half);
__host__ __device__ unsigned short __half_as_ushort(__half);
__host__ __device__ __half __short_as_half(short);
__host__ __device__ __half __ushort_as_half(unsigned short);
__device__ __half __ldg(const __half *);
__device__ __half __hadd(__half, __half);
__device__ __half __hsub(__half, __half);
__device__ __half __hmul(__half, __half);
__device__ __half __hdiv(__half, __half);
__device__ __half __hfma(__half, __half, __half);
__device__ __half __hmax(__half, __half);
__device__ __half __hmin(__half, __half);
__device__ __half hexp(__half);
__device__ __half2 __hadd2(__half2, __half2);
__device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __hfma2(__half2, __half2, __half2);
__device__ __half2 h2exp(__half2);
__device__ __half __hneg(__half);
__device__ __half __habs(__half);
__device__ __half hsqrt(__half);
__device__ __half hrsqrt(__half);
__device__ __half hlog(__half);
__device__ __half htanh(__half);
__device__ bool __heq(__half, __half);
__device__ bool __hne(__half, __half);
__device__ bool __hlt(__half, __half);
__device__ bool __hle(__half, __half);
__device__ bool __hgt(__half, __half);
__device__ bool __hge(__half, __half);
__device__ bool __hisnan(__half);
__device__ __half2 __hsub2(__half2, __half2);
__device__ __half2 __h2div(__half2, __half2);
__device__ __half2 __hneg2(__half2);
__device__ __half2 __habs2(__half2);
__device__ __half2 __hmax2(__half2, __half2);
__device__ __half2 __hmin2(__half2, __half2);
__device__ __half2 h2sqrt(__half2);
__device__ __half2 h2rsqrt(__half2);
__host__ __device__ __half2 __half2half2(__half);
__host__ __device__ __half2 __lows2half2(__half2, __half2);
__host__ __device__ __half2 __highs2half2(__half2, __half2);
__host__ __device__ __half2 __float22half2_rn(float2);
__device__ __half2 __ldg(const __half2 *);
__device__ __half __shfl_sync(unsigned, __half, int, int = 32);
__device__ __half __shfl_down_sync(unsigned, __half, unsigned, int = 32);
__device__ __half __shfl_xor_sync(unsigned, __half, int, int = 32);
__device__ __half2 __shfl_down_sync(unsigned, __half2, unsigned, int = 32);
__device__ __half2 __shfl_xor_sync(unsigned, __half2, int, int = 32);
// The arithmetic and comparison operators of cuda_fp16.hpp.
#define KEVIN_HALF_OPS(T)                                                      \
  __host__ __device__ T operator+(const T &, const T &);                       \
  __host__ __device__ T operator-(const T &, const T &);                       \
  __host__ __device__ T operator*(const T &, const T &);                       \
  __host__ __device__ T operator/(const T &, const T &);                       \
  __host__ __device__ T operator-(const T &);                                  \
  __host__ __device__ T &operator+=(T &, const T &);                           \
  __host__ __device__ T &operator-=(T &, const T &);                           \
  __host__ __device__ T &operator*=(T &, const T &);                           \
  __host__ __device__ T &operator/=(T &, const T &);                           \
  __host__ __device__ bool operator==(const T &, const T &);                   \
  __host__ __device__ bool operator!=(const T &, const T &);                   \
  __host__ __device__ bool operator<(const T &, const T &);                    \
  __host__ __device__ bool operator<=(const T &, const T &);                   \
  __host__ __device__ bool operator>(const T &, const T &);                    \
  __host__ __device__ bool operator>=(const T &, const T &);
KEVIN_HALF_OPS(__half)
KEVIN_HALF_OPS(__half2)
__device__ __half atomicAdd(__half *, __half);
__device__ __half2 atomicAdd(__half2 *, __half2);
#include <cuda_bf16.h>
KEVIN_HALF_OPS(__nv_bfloat16)
#undef KEVIN_HALF_OPS

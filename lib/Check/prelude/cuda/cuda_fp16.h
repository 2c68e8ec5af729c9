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
__device__ __half atomicAdd(__half *, __half);
__device__ __half2 atomicAdd(__half2 *, __half2);
#include <cuda_bf16.h>
